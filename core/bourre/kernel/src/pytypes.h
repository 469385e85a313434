// bourre.kernel, pytypes: the CPython types and objects of the stepped loop (the action
// objects of bourre.game.actions, KernelDiscards, StepCalls and KernelState's builtin
// methods), the small readers of what Python gives, and a Stepper made from Python and
// read back (make_stepper, observe_raw, returns_raw, hand_start_raw, history_raw).
#pragma once

#include "stepper.h"
#include "convert.h"
#include <memory>

namespace bourre::kernel {

// The action objects of bourre.game.actions (set once by the wrapper), checked whole.
void set_actions(const py::object& cards, const py::object& pass, const py::object& play,
                 const py::object& discards);
// The calls that give action objects need them set (bourre.kernel.state does it at import).
void need_actions();
py::tuple mask_tuple(u64 m);
// A card given by Python: an int 0..51 (of type int exactly), else -1 (never an error).
int small_int(const py::handle& o);
// Cards given by Python: a list or a tuple of at most ``most`` cards; false for anything else.
bool small_ints(const py::handle& seq, std::size_t most, std::vector<int>& out);
py::object steal(PyObject* o);  // a new reference, or the Python error raised
PyObject* legal_actions_raw(const Stepper& g);
PyObject* owner_of(PyObject* stepper);
// The KernelState told that its Stepper handed the session to the Python rules.
PyObject* hand_over(PyObject* stepper);
PyObject* only_action_raw(const Stepper& g);
int apply_fast(Stepper& g, PyObject* a);
py::object step_calls(const py::object& self);
void bind_state_methods(const py::object& cls);
std::unique_ptr<Stepper> make_stepper(const HouseFacts& house, const py::object& seed,
                                      const std::vector<i64>& balances, int dealer, int hands,
                                      bool keep, i64 pot, bool settle);
// What a seat observes, as plain values (bourre.game.state.observe).
py::tuple observe_raw(const Stepper& g, int seat);
py::tuple returns_raw(const Stepper& g);
py::tuple hand_start_raw(const Stepper& g);
// The two types, made once at import (the module's attributes StepCalls, KernelDiscards).
void add_call_types(py::module_& m);
// The history as action objects (whole, or from the kept hand's start).
py::list history_raw(const Stepper& g, bool whole);
// The kept history from entry ``from`` of Stepper::hist (an index a previous call gave)
// as history_raw gives it, and where it ends now: (items, end).
py::tuple history_since(const Stepper& g, std::size_t from);
py::list history_from(const Stepper& g, std::size_t from);

}  // namespace bourre::kernel
