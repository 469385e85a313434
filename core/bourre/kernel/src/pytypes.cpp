// bourre.kernel, pytypes: see pytypes.h.

#include "pytypes.h"
#include <structmember.h>
#include <stdexcept>
#include <string>

namespace bourre::kernel {

// The action objects of bourre.game.actions (set once by the wrapper): CARDS, PASS, PLAY.
struct ActionObjects {
  PyObject* cards[52] = {};
  PyObject* pass = nullptr;
  PyObject* play = nullptr;
  PyObject* discards = nullptr;  // the class bourre.game.observation.Discards
};
ActionObjects ACTIONS;

// Whether ``o`` is Action(kind, cards) as the kernel makes and reads it: an instance of
// exactly ``type`` (a tuple subclass: the kernel reads its items and makes discards of
// it, tuple.__new__'s way), (kind, cards) with cards a tuple of ``k`` ints, the first
// ``card`` when given.
bool is_action(PyObject* o, PyTypeObject* type, const char* kind, Py_ssize_t k, int card = -1) {
  if (Py_TYPE(o) != type || PyTuple_GET_SIZE(o) != 2) return false;
  PyObject* word = PyTuple_GET_ITEM(o, 0);
  PyObject* cards = PyTuple_GET_ITEM(o, 1);
  if (!PyUnicode_Check(word) || PyUnicode_CompareWithASCIIString(word, kind) != 0) return false;
  if (!PyTuple_CheckExact(cards) || PyTuple_GET_SIZE(cards) != k) return false;
  if (card < 0) return true;
  PyObject* c = PyTuple_GET_ITEM(cards, 0);
  int over = 0;
  return PyLong_CheckExact(c) && PyLong_AsLongAndOverflow(c, &over) == card && !over;
}

// The action objects, checked whole before any is kept: 52 card actions (card c is
// Action("card", (c,))), PASS and PLAY of the same tuple subclass, and the Discards class;
// anything else is a TypeError, the objects kept before unchanged.
void set_actions(const py::object& cards, const py::object& pass, const py::object& play,
                 const py::object& discards) {
  PyObject* p = pass.ptr();
  if (!PyTuple_Check(p) || Py_TYPE(p) == &PyTuple_Type) {
    throw py::type_error("set_actions: pass_ is Action('pass') (a tuple subclass)");
  }
  auto* type = Py_TYPE(p);
  if (!is_action(p, type, "pass", 0)) throw py::type_error("set_actions: pass_ is Action('pass')");
  if (!is_action(play.ptr(), type, "play", 0)) {
    throw py::type_error("set_actions: play is Action('play'), of pass_'s type");
  }
  if (!PyTuple_CheckExact(cards.ptr()) || PyTuple_GET_SIZE(cards.ptr()) != 52) {
    throw py::type_error("set_actions: cards is a tuple of the 52 card actions");
  }
  for (int c = 0; c < 52; ++c) {
    if (!is_action(PyTuple_GET_ITEM(cards.ptr(), c), type, "card", 1, c)) {
      throw py::type_error("set_actions: cards[" + std::to_string(c) + "] is not Action('card', (" +
                           std::to_string(c) + ",))");
    }
  }
  if (!PyType_Check(discards.ptr())) throw py::type_error("set_actions: discards is a class");
  ActionObjects old = ACTIONS;
  for (int c = 0; c < 52; ++c) {
    PyObject* o = PyTuple_GET_ITEM(cards.ptr(), c);
    Py_INCREF(o);
    ACTIONS.cards[c] = o;
  }
  Py_INCREF(p);
  Py_INCREF(play.ptr());
  Py_INCREF(discards.ptr());
  ACTIONS.pass = p;
  ACTIONS.play = play.ptr();
  ACTIONS.discards = discards.ptr();
  for (PyObject* o : old.cards) Py_XDECREF(o);
  Py_XDECREF(old.pass);
  Py_XDECREF(old.play);
  Py_XDECREF(old.discards);
}

// The calls that give action objects need them set (bourre.kernel.state does it at import).
void need_actions() {
  if (!ACTIONS.pass) throw std::runtime_error("the kernel's actions are not set: import bourre.kernel.state");
}

py::tuple mask_tuple(u64 m) {
  py::tuple out(static_cast<std::size_t>(popcount(m)));
  std::size_t i = 0;
  for (; m; m &= m - 1) out[i++] = py::int_(lowest(m));
  return out;
}

std::unique_ptr<Stepper> make_stepper(const HouseFacts& house, const py::object& seed,
                                      const std::vector<i64>& balances, int dealer, int hands,
                                      bool keep, i64 pot, bool settle) {
  const House& h = house.h;  // (a plugin's decisions or draw: asked through Python, stepped)
  if (dealer < -1 || dealer >= h.n) throw std::invalid_argument("dealer: a seat or -1");
  if (hands < 1) throw std::invalid_argument("hands: at least 1");
  for (const i64 b : balances) {
    if (b <= -LIMIT || b >= LIMIT) throw std::invalid_argument("balances: within 2^62 (in 1/D chips)");
  }
  if (pot < 0 || pot >= LIMIT) throw std::invalid_argument("pot: 0 to 2^62 (in 1/D chips)");
  if (!seed.is_none() && !py::isinstance<py::str>(seed)) throw py::type_error("seed: a str or None");
  if (seed.is_none()) {
    return std::make_unique<Stepper>(h, nullptr, balances, dealer, hands, keep, pot, settle);
  }
  const std::string text = seed.cast<std::string>();
  return std::make_unique<Stepper>(h, &text, balances, dealer, hands, keep, pot, settle);
}

// -- The stepped loop's calls as plain CPython methods ------------------------------------
//
// A call through pybind11's dispatcher costs ~140 ns (argument casting, the overload
// search); a builtin method with METH_NOARGS / METH_O costs ~35 ns.  A driver steps a hand
// with ~19 actions of three calls each, so KernelState binds these instead (its _bind):
//
// - StepCalls: a small heap type whose instance holds the Stepper and a strong reference
//   to the pybind11 object that owns it; its methods are the stepped state's is_terminal,
//   current_player, legal_actions, apply_action and only_action, with the pybind11
//   methods' semantics (the same action objects, the same fallback to the wrapper's
//   _apply_slow for anything else, so refusals stay the Python rules' words).
// - KernelDiscards: the exchange's legal discards (R-DRAW) as a C sequence, equal to
//   bourre.game.observation.Discards(hand, limit) item by item and registered as its
//   virtual subclass (bourre.kernel.state): no Python call to take its length or an item.

// A card given by Python: an int 0..51 (of type int exactly), else -1 (never an error).
int small_int(const py::handle& o) {
  if (!PyLong_CheckExact(o.ptr())) return -1;
  int over = 0;
  const long v = PyLong_AsLongAndOverflow(o.ptr(), &over);
  return !over && v >= 0 && v < 52 ? static_cast<int>(v) : -1;
}

// Cards given by Python: a list or a tuple of at most ``most`` cards (small_int); false
// for anything else.
bool small_ints(const py::handle& seq, std::size_t most, std::vector<int>& out) {
  PyObject* o = seq.ptr();
  if (!PyList_Check(o) && !PyTuple_Check(o)) return false;
  const Py_ssize_t k = PySequence_Fast_GET_SIZE(o);
  if (k < 0 || static_cast<std::size_t>(k) > most) return false;
  out.clear();
  for (Py_ssize_t i = 0; i < k; ++i) {
    const int c = small_int(PySequence_Fast_GET_ITEM(o, i));
    if (c < 0) return false;
    out.push_back(c);
  }
  return true;
}

py::object steal(PyObject* o) {  // a new reference, or the Python error raised
  if (!o) throw py::error_already_set();
  return py::reinterpret_steal<py::object>(o);
}

PyTypeObject* STEP_CALLS = nullptr;
PyTypeObject* KERNEL_DISCARDS = nullptr;
PyObject* DISCARD_WORD = nullptr;  // "discard", interned (the kind of Discards' actions)
PyObject* APPLY_SLOW = nullptr;    // "_apply_slow", interned
PyObject* OWNER = nullptr;         // "owner", interned
u64 BINOM[64][64] = {};            // BINOM[n][k]: n choose k (0 when k > n)

void fill_binomials() {
  for (int n = 0; n < 64; ++n) {
    BINOM[n][0] = 1;
    for (int k = 1; k <= n; ++k) BINOM[n][k] = BINOM[n - 1][k - 1] + (k <= n - 1 ? BINOM[n - 1][k] : 0);
  }
}

// KernelDiscards: every subset of ``hand`` (a tuple of cards) of at most ``limit`` cards,
// in Discards' order (observation._patterns): the subsets as bitmasks m of the hand's
// positions sorted stably by their number of cards, i.e. by (popcount, m); each subset's
// cards in the hand's order.  Item i is unranked directly: its size c, then its rank r
// among the masks of c bits in increasing order (the combinatorial number system).
struct DiscardsObject {
  PyObject_HEAD
  PyObject* hand;      // a tuple of ints 0..51 (so no reference cycle: no GC needed)
  PyObject* limit;     // the limit as given (an int)
  int k;               // len(hand), at most 52
  int top;             // the largest subset size: min(limit, k), -1 for a negative limit
  long long cap;       // the limit, clipped to the range of a long long
  Py_ssize_t len;      // sum of C(k, c) for c = 0..top
};

PyObject* discards_new_raw(PyObject* hand, PyObject* limit) {  // (both borrowed)
  const Py_ssize_t k = PyTuple_GET_SIZE(hand);
  int over = 0;
  long long cap = PyLong_AsLongLongAndOverflow(limit, &over);
  if (cap == -1 && PyErr_Occurred()) return nullptr;
  if (over) cap = over > 0 ? LLONG_MAX : LLONG_MIN;
  auto* d = reinterpret_cast<DiscardsObject*>(KERNEL_DISCARDS->tp_alloc(KERNEL_DISCARDS, 0));
  if (!d) return nullptr;
  Py_INCREF(hand);
  Py_INCREF(limit);
  d->hand = hand;
  d->limit = limit;
  d->k = static_cast<int>(k);
  d->cap = cap;
  d->top = cap < 0 ? -1 : static_cast<int>(std::min<long long>(cap, k));
  d->len = 0;
  for (int c = 0; c <= d->top; ++c) d->len += static_cast<Py_ssize_t>(BINOM[k][c]);
  return reinterpret_cast<PyObject*>(d);
}

// KernelDiscards(hand, limit): hand a tuple of cards (ints 0..51, at most 52 of them).
PyObject* discards_tp_new(PyTypeObject*, PyObject* args, PyObject* kwds) {
  static const char* names[] = {"hand", "limit", nullptr};
  if (!ACTIONS.pass) {  // (its items are Actions: bourre.kernel.state sets them at import)
    PyErr_SetString(PyExc_RuntimeError, "KernelDiscards: import bourre.kernel.state first");
    return nullptr;
  }
  PyObject *hand, *limit;
  if (!PyArg_ParseTupleAndKeywords(args, kwds, "O!O!:KernelDiscards", const_cast<char**>(names),
                                   &PyTuple_Type, &hand, &PyLong_Type, &limit)) {
    return nullptr;
  }
  const Py_ssize_t k = PyTuple_GET_SIZE(hand);
  for (Py_ssize_t i = 0; i < k; ++i) {
    PyObject* c = PyTuple_GET_ITEM(hand, i);
    const long v = PyLong_Check(c) ? PyLong_AsLong(c) : -1;
    if (v < 0 || v >= 52 || k > 52) {
      PyErr_Clear();
      PyErr_SetString(PyExc_ValueError, "KernelDiscards: the hand is a tuple of cards 0..51");
      return nullptr;
    }
  }
  return discards_new_raw(hand, limit);
}

void discards_dealloc(PyObject* self) {
  auto* d = reinterpret_cast<DiscardsObject*>(self);
  PyTypeObject* type = Py_TYPE(self);
  Py_XDECREF(d->hand);
  Py_XDECREF(d->limit);
  type->tp_free(self);
  Py_DECREF(type);  // (a heap type: its instances hold a reference to it)
}

Py_ssize_t discards_len(PyObject* self) { return reinterpret_cast<DiscardsObject*>(self)->len; }

// Action("discard", cards): the tuple subclass bourre.game.actions.Action, made as
// tuple.__new__ makes it (cards is stolen).
PyObject* discard_action(PyObject* cards) {
  PyTypeObject* action = Py_TYPE(ACTIONS.pass);
  PyObject* a = action->tp_alloc(action, 2);
  if (!a) {
    Py_DECREF(cards);
    return nullptr;
  }
  Py_INCREF(DISCARD_WORD);
  PyTuple_SET_ITEM(a, 0, DISCARD_WORD);
  PyTuple_SET_ITEM(a, 1, cards);
  return a;
}

PyObject* discards_item(PyObject* self, Py_ssize_t i) {
  auto* d = reinterpret_cast<DiscardsObject*>(self);
  if (i < 0 || i >= d->len) {
    PyErr_SetString(PyExc_IndexError, "Discards index out of range");
    return nullptr;
  }
  const int k = d->k;
  u64 r = static_cast<u64>(i);
  int c = 0;
  while (r >= BINOM[k][c]) r -= BINOM[k][c++];  // the subset's size
  PyObject* cards = PyTuple_New(c);
  if (!cards) return nullptr;
  for (int j = k - 1; c > 0; --j) {  // the highest position first
    if (r >= BINOM[j][c]) {           // (C(j, c) subsets of c lie below position j)
      r -= BINOM[j][c];
      PyObject* card = PyTuple_GET_ITEM(d->hand, j);
      Py_INCREF(card);
      PyTuple_SET_ITEM(cards, --c, card);
    }
  }
  return discard_action(cards);
}

// Discards[i]; a slice gives a list of the actions, as Discards gives it.
PyObject* discards_subscript(PyObject* self, PyObject* key) {
  if (PySlice_Check(key)) {
    Py_ssize_t start, stop, step;
    if (PySlice_Unpack(key, &start, &stop, &step) < 0) return nullptr;
    const Py_ssize_t n =
        PySlice_AdjustIndices(reinterpret_cast<DiscardsObject*>(self)->len, &start, &stop, step);
    PyObject* out = PyList_New(n);
    for (Py_ssize_t j = 0; out && j < n; ++j) {
      PyObject* a = discards_item(self, start + j * step);
      if (!a) Py_CLEAR(out);
      else PyList_SET_ITEM(out, j, a);
    }
    return out;
  }
  if (!PyIndex_Check(key)) {
    PyErr_Format(PyExc_TypeError, "Discards indices must be integers or slices, not %.200s",
                 Py_TYPE(key)->tp_name);
    return nullptr;
  }
  Py_ssize_t i = PyNumber_AsSsize_t(key, PyExc_IndexError);
  if (i == -1 && PyErr_Occurred()) return nullptr;
  if (i < 0) i += reinterpret_cast<DiscardsObject*>(self)->len;
  return discards_item(self, i);
}

PyObject* discards_iter(PyObject* self) { return PySeqIter_New(self); }

// Discards.__contains__: a discard action of distinct cards of the hand, within the limit.
int discards_contains(PyObject* self, PyObject* action) {
  auto* d = reinterpret_cast<DiscardsObject*>(self);
  int ok = PyObject_IsInstance(action, reinterpret_cast<PyObject*>(Py_TYPE(ACTIONS.pass)));
  if (ok <= 0) return ok;
  PyObject* kind = PyObject_GetAttrString(action, "kind");
  if (!kind) return -1;
  ok = PyObject_RichCompareBool(kind, DISCARD_WORD, Py_EQ);
  Py_DECREF(kind);
  if (ok <= 0) return ok;
  PyObject* cards = PyObject_GetAttrString(action, "cards");
  if (!cards) return -1;
  const Py_ssize_t n = PyObject_Size(cards);
  PyObject* distinct = n < 0 || n > d->cap ? nullptr : PySet_New(cards);
  ok = distinct && PySet_GET_SIZE(distinct) == n ? 1 : 0;
  PyObject* it = ok ? PyObject_GetIter(cards) : nullptr;
  for (PyObject* c; ok == 1 && it && (c = PyIter_Next(it));) {
    ok = PySequence_Contains(d->hand, c);
    Py_DECREF(c);
  }
  Py_XDECREF(it);
  Py_XDECREF(distinct);
  Py_DECREF(cards);
  return PyErr_Occurred() ? -1 : ok;
}

// Discards.__eq__: the same hand and limit as another Discards, or the same actions as a
// list or a tuple; anything else is unequal (never NotImplemented).
PyObject* discards_richcompare(PyObject* self, PyObject* other, int op) {
  if (op != Py_EQ && op != Py_NE) Py_RETURN_NOTIMPLEMENTED;
  auto* d = reinterpret_cast<DiscardsObject*>(self);
  int eq;
  const int discards = Py_TYPE(other) == KERNEL_DISCARDS ? 1 : PyObject_IsInstance(other, ACTIONS.discards);
  if (discards < 0) return nullptr;
  if (discards) {
    PyObject* hand = PyObject_GetAttrString(other, "hand");
    eq = hand ? PyObject_RichCompareBool(d->hand, hand, Py_EQ) : -1;
    Py_XDECREF(hand);
    if (eq == 1) {
      PyObject* limit = PyObject_GetAttrString(other, "limit");
      eq = limit ? PyObject_RichCompareBool(d->limit, limit, Py_EQ) : -1;
      Py_XDECREF(limit);
    }
  } else if (PyList_Check(other) || PyTuple_Check(other)) {
    PyObject* mine = PySequence_List(self);
    PyObject* theirs = mine ? PySequence_List(other) : nullptr;
    eq = theirs ? PyObject_RichCompareBool(mine, theirs, Py_EQ) : -1;
    Py_XDECREF(mine);
    Py_XDECREF(theirs);
  } else {
    eq = 0;
  }
  if (eq < 0) return nullptr;
  return PyBool_FromLong(op == Py_EQ ? eq : !eq);
}

Py_hash_t discards_hash(PyObject* self) {  // hash((hand, limit)), as Discards
  auto* d = reinterpret_cast<DiscardsObject*>(self);
  PyObject* key = PyTuple_Pack(2, d->hand, d->limit);
  if (!key) return -1;
  const Py_hash_t h = PyObject_Hash(key);
  Py_DECREF(key);
  return h;
}

PyObject* discards_repr(PyObject* self) {  // Discards(2C 3D, limit=5)
  auto* d = reinterpret_cast<DiscardsObject*>(self);
  static const char RANKS[] = "23456789TJQKA", SUITS[] = "SHDC";
  std::string text = "Discards(";
  for (int i = 0; i < d->k; ++i) {
    const long c = PyLong_AsLong(PyTuple_GET_ITEM(d->hand, i));  // (0..51: checked)
    if (i) text += ' ';
    text += RANKS[c % 13];
    text += SUITS[c / 13];
  }
  PyObject* limit = PyObject_Str(d->limit);
  if (!limit) return nullptr;
  PyObject* out = PyUnicode_FromFormat("%s, limit=%U)", text.c_str(), limit);
  Py_DECREF(limit);
  return out;
}

PyObject* discards_reduce(PyObject* self, PyObject*) {  // (pickle, copy)
  auto* d = reinterpret_cast<DiscardsObject*>(self);
  return Py_BuildValue("O(OO)", reinterpret_cast<PyObject*>(Py_TYPE(self)), d->hand, d->limit);
}

PyMemberDef DISCARDS_MEMBERS[] = {
    {"hand", T_OBJECT_EX, offsetof(DiscardsObject, hand), READONLY, "The hand's cards, in order."},
    {"limit", T_OBJECT_EX, offsetof(DiscardsObject, limit), READONLY, "The most cards to discard."},
    {nullptr, 0, 0, 0, nullptr}};

PyMethodDef DISCARDS_METHODS[] = {
    {"__reduce__", discards_reduce, METH_NOARGS, nullptr}, {nullptr, nullptr, 0, nullptr}};

PyType_Slot DISCARDS_SLOTS[] = {
    {Py_tp_doc, const_cast<char*>(
        "The legal discards of a hand (R-DRAW) as bourre.game.observation.Discards gives "
        "them, made in C: KernelDiscards(hand, limit), hand a tuple of cards.")},
    {Py_tp_new, reinterpret_cast<void*>(discards_tp_new)},
    {Py_tp_dealloc, reinterpret_cast<void*>(discards_dealloc)},
    {Py_tp_repr, reinterpret_cast<void*>(discards_repr)},
    {Py_tp_hash, reinterpret_cast<void*>(discards_hash)},
    {Py_tp_richcompare, reinterpret_cast<void*>(discards_richcompare)},
    {Py_tp_iter, reinterpret_cast<void*>(discards_iter)},
    {Py_tp_members, DISCARDS_MEMBERS},
    {Py_tp_methods, DISCARDS_METHODS},
    {Py_sq_length, reinterpret_cast<void*>(discards_len)},
    {Py_sq_item, reinterpret_cast<void*>(discards_item)},
    {Py_sq_contains, reinterpret_cast<void*>(discards_contains)},
    {Py_mp_length, reinterpret_cast<void*>(discards_len)},
    {Py_mp_subscript, reinterpret_cast<void*>(discards_subscript)},
    {0, nullptr}};

PyType_Spec DISCARDS_SPEC = {"bourre.kernel._kernel.KernelDiscards", sizeof(DiscardsObject), 0,
                             Py_TPFLAGS_DEFAULT | Py_TPFLAGS_SEQUENCE, DISCARDS_SLOTS};

// The legal actions as the Python state gives them (State.legal_actions): a new list of
// the shared action objects; for an exchange, a KernelDiscards of the hand (R-DRAW).
PyObject* legal_actions_raw(const Stepper& g) {
  if (g.phase == P_PLAY) {
    PyObject* out = PyList_New(popcount(g.legal));
    if (!out) return nullptr;
    Py_ssize_t i = 0;
    for (u64 m = g.legal; m; m &= m - 1) {
      PyObject* o = ACTIONS.cards[lowest(m)];
      Py_INCREF(o);
      PyList_SET_ITEM(out, i++, o);
    }
    return out;
  }
  if (g.phase == P_DECIDE) {
    const bool both = g.forced == F_NONE;  // (R-ACE-UP, R-LAST-STANDS: play only)
    PyObject* out = PyList_New(both ? 2 : 1);
    if (!out) return nullptr;
    if (both) Py_INCREF(ACTIONS.pass), PyList_SET_ITEM(out, 0, ACTIONS.pass);
    Py_INCREF(ACTIONS.play);
    PyList_SET_ITEM(out, both ? 1 : 0, ACTIONS.play);
    return out;
  }
  if (g.phase == P_EXCHANGE) {
    u64 m = g.hand[g.turn_seat];
    PyObject* hand = PyTuple_New(popcount(m));
    if (!hand) return nullptr;
    for (Py_ssize_t i = 0; m; m &= m - 1) PyTuple_SET_ITEM(hand, i++, PyLong_FromLong(lowest(m)));
    PyObject* limit = PyLong_FromLong(g.H.decisions ? g.exchange_limit : g.H.h);  // (R-DRAW)
    PyObject* out = limit ? discards_new_raw(hand, limit) : nullptr;
    Py_DECREF(hand);
    Py_XDECREF(limit);
    return out;
  }
  return PyList_New(0);
}

// StepCalls: the Stepper's hot calls as builtin methods (see above).
struct StepCallsObject {
  PyObject_HEAD
  Stepper* g;         // owned by ``stepper``
  PyObject* stepper;  // the pybind11 Stepper object (a strong reference; its attribute
                      // ``owner`` is a weak reference to the KernelState, so a dropped
                      // state goes at once, no cycle for the collector to find)
};

// (none once the cycle collector has cleared it, nor once the Stepper handed its session
// to the Python rules: the KernelState steps its Python twin then, never this Stepper)
Stepper* live(PyObject* self) {
  auto* o = reinterpret_cast<StepCallsObject*>(self);
  if (!o->stepper) {
    PyErr_SetString(PyExc_RuntimeError, "this state was discarded");
    return nullptr;
  }
  if (o->g->status != OK) {
    PyErr_SetString(PyExc_RuntimeError,
                    "this kernel state was handed to the Python rules: step the KernelState");
    return nullptr;
  }
  return o->g;
}

// The KernelState a Stepper steps (its attribute ``owner``, a weak reference): a new
// reference, or NULL with an error when the state is gone.
PyObject* owner_of(PyObject* stepper) {
  PyObject* ref = PyObject_GetAttr(stepper, OWNER);
  if (!ref) return nullptr;
  PyObject* owner = PyObject_CallNoArgs(ref);
  Py_DECREF(ref);
  if (owner == Py_None) {
    Py_DECREF(owner);
    PyErr_SetString(PyExc_RuntimeError, "this state was discarded");
    return nullptr;
  }
  return owner;
}

PyObject* calls_is_terminal(PyObject* self, PyObject*) {
  const Stepper* g = live(self);
  if (!g) return nullptr;
  return PyBool_FromLong(g->phase == P_OVER);
}

PyObject* calls_current_player(PyObject* self, PyObject*) {
  const Stepper* g = live(self);
  if (!g) return nullptr;
  return PyLong_FromLong(g->current_player());
}

PyObject* calls_legal_actions(PyObject* self, PyObject*) {
  const Stepper* g = live(self);
  if (!g) return nullptr;
  return legal_actions_raw(*g);
}

// The one legal action when there is no choice (a lone card, a forced play), else None.
PyObject* only_action_raw(const Stepper& g) {
  PyObject* o = Py_None;
  if (g.phase == P_PLAY && !(g.legal & (g.legal - 1))) {
    o = ACTIONS.cards[lowest(g.legal)];
  } else if (g.phase == P_DECIDE && g.forced != F_NONE) {
    o = ACTIONS.play;
  }
  Py_INCREF(o);
  return o;
}

PyObject* calls_only_action(PyObject* self, PyObject*) {
  const Stepper* g = live(self);
  if (!g) return nullptr;
  return only_action_raw(*g);
}

// The kernel's own step for the action objects it gives (by identity) and for a discard
// of int cards; 1 taken, 0 not (the wrapper's _apply_slow decides).
int apply_fast(Stepper& g, PyObject* a) {
  if (g.phase == P_PLAY) {
    for (u64 m = g.legal; m; m &= m - 1) {
      const int c = lowest(m);
      if (ACTIONS.cards[c] == a) return g.play(c) ? 1 : 0;
    }
  } else if (g.phase == P_DECIDE) {
    if (a == ACTIONS.play || (a == ACTIONS.pass && g.forced == F_NONE)) {
      return g.decide(a == ACTIONS.play) ? 1 : 0;
    }
  } else if (g.phase == P_EXCHANGE && Py_TYPE(a) == Py_TYPE(ACTIONS.pass) &&
             PyTuple_GET_SIZE(a) == 2) {  // Action("discard", cards): cards of type int
    PyObject* kind = PyTuple_GET_ITEM(a, 0);
    PyObject* cards = PyTuple_GET_ITEM(a, 1);
    if ((kind == DISCARD_WORD || (PyUnicode_Check(kind) &&
                                  PyUnicode_CompareWithASCIIString(kind, "discard") == 0)) &&
        PyTuple_CheckExact(cards) && PyTuple_GET_SIZE(cards) <= 5) {
      static std::vector<int> cs;  // (reused: no allocation a step; the GIL is held)
      cs.clear();
      for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(cards); ++i) {
        PyObject* c = PyTuple_GET_ITEM(cards, i);
        int over = 0;
        const long v = PyLong_CheckExact(c) ? PyLong_AsLongAndOverflow(c, &over) : -1;
        if (v < 0 || v >= 52) return 0;
        cs.push_back(static_cast<int>(v));
      }
      return g.exchange(cs) ? 1 : 0;
    }
  }
  return 0;
}

// A plugin's answer the kernel cannot hold (status OVERFLOW_ from compute_legal: a
// follow rule's cards out of the hand's order, or its error): the KernelState hands the
// session to its Python twin (owner._hand_over), which plays on and asks the plugin
// again where the Python rules ask it (its error raised there, as they raise it).
PyObject* hand_over(PyObject* stepper) {
  PyObject* owner = owner_of(stepper);
  if (!owner) return nullptr;
  PyObject* out = PyObject_CallMethod(owner, "_hand_over", nullptr);
  Py_DECREF(owner);
  if (!out) return nullptr;
  Py_DECREF(out);
  Py_RETURN_NONE;
}

PyObject* calls_apply_action(PyObject* self, PyObject* action) {
  Stepper* g = live(self);
  if (!g) return nullptr;
  PyObject* stepper = reinterpret_cast<StepCallsObject*>(self)->stepper;
  try {
    if (apply_fast(*g, action)) {
      if (g->status == OK) Py_RETURN_NONE;
      return hand_over(stepper);
    }
  } catch (py::error_already_set& e) {
    if (g->status != OK) return hand_over(stepper);  // the follow rule's error: see hand_over
    e.restore();  // a plugin's money rule or trick winner raised (PluginError)
    return nullptr;
  } catch (const std::bad_alloc&) {
    return PyErr_NoMemory();
  } catch (const std::exception& e) {
    PyErr_SetString(PyExc_RuntimeError, e.what());
    return nullptr;
  }
  // anything else: the wrapper's _apply_slow (equal values, refusals in the rules' words)
  PyObject* owner = owner_of(stepper);
  if (!owner) return nullptr;
  PyObject* out = PyObject_CallMethodOneArg(owner, APPLY_SLOW, action);
  Py_DECREF(owner);
  if (!out) return nullptr;
  Py_DECREF(out);
  Py_RETURN_NONE;
}

int calls_traverse(PyObject* self, visitproc visit, void* arg) {
  Py_VISIT(Py_TYPE(self));
  Py_VISIT(reinterpret_cast<StepCallsObject*>(self)->stepper);
  return 0;
}

void forget_last();

int calls_clear(PyObject* self) {
  Py_CLEAR(reinterpret_cast<StepCallsObject*>(self)->stepper);
  forget_last();  // (the state looked up last may be this one's)
  return 0;
}

void calls_dealloc(PyObject* self) {
  PyTypeObject* type = Py_TYPE(self);
  PyObject_GC_UnTrack(self);
  calls_clear(self);
  type->tp_free(self);
  Py_DECREF(type);
}

PyMethodDef CALLS_METHODS[] = {
    {"is_terminal", calls_is_terminal, METH_NOARGS, "Whether the session is over."},
    {"current_player", calls_current_player, METH_NOARGS,
     "The seat to act; -1 at a chance node, -4 when over."},
    {"legal_actions", calls_legal_actions, METH_NOARGS,
     "The legal actions: a new list, or for an exchange a KernelDiscards."},
    {"apply_action", calls_apply_action, METH_O,
     "Apply an action; any action the kernel does not take goes to owner._apply_slow."},
    {"only_action", calls_only_action, METH_NOARGS, "The one legal action, or None."},
    {nullptr, nullptr, 0, nullptr}};

PyType_Slot CALLS_SLOTS[] = {
    {Py_tp_doc, const_cast<char*>("A Stepper's stepped calls as builtin methods (Stepper.calls).")},
    {Py_tp_dealloc, reinterpret_cast<void*>(calls_dealloc)},
    {Py_tp_traverse, reinterpret_cast<void*>(calls_traverse)},
    {Py_tp_clear, reinterpret_cast<void*>(calls_clear)},
    {Py_tp_methods, CALLS_METHODS},
    {0, nullptr}};

PyType_Spec CALLS_SPEC = {
    "bourre.kernel._kernel.StepCalls", sizeof(StepCallsObject), 0,
    Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_DISALLOW_INSTANTIATION, CALLS_SLOTS};

py::object step_calls(const py::object& self) {
  need_actions();
  Stepper& g = self.cast<Stepper&>();
  forget_last();  // (a new state may stand where a dead one stood)
  auto* o = reinterpret_cast<StepCallsObject*>(STEP_CALLS->tp_alloc(STEP_CALLS, 0));
  if (!o) throw py::error_already_set();
  o->g = &g;
  o->stepper = self.ptr();
  Py_INCREF(o->stepper);
  return py::reinterpret_steal<py::object>(reinterpret_cast<PyObject*>(o));
}

// The same calls as methods of KernelState itself (bind_state_methods): method
// descriptors of that class, so ``state.is_terminal()`` takes CPython's specialized path
// (LOAD_METHOD_WITH_VALUES, PRECALL_NO_KW_METHOD_DESCRIPTOR_*: ~200 instructions less a
// call than a bound method kept in the instance's dict, which CPython 3.11 cannot
// specialize).  Each finds the state's StepCalls in its attribute ``_calls``.
PyObject* CALLS = nullptr;  // "_calls", interned

// The last state looked up and its StepCalls (both borrowed), since reading ``_calls``
// costs ~190 instructions a call.  Memory-safe: a StepCalls clears the entry when it goes
// (calls_clear), so the StepCalls given is alive; and each new StepCalls (KernelState._bind,
// the one place ``_calls`` is set) clears it, so a new state at a dead one's address is
// never given the dead one's calls.  (A state may die while its StepCalls lives, held
// elsewhere: a KernelState made at its address is bound, hence the entry cleared, before
// any of these methods can be called on it.)
struct {
  PyObject* state = nullptr;
  PyObject* calls = nullptr;
} LAST;

PyObject* calls_of(PyObject* state) {  // a new reference, or NULL with the error set
  if (state == LAST.state) {
    Py_INCREF(LAST.calls);
    return LAST.calls;
  }
  PyObject* c = PyObject_GetAttr(state, CALLS);
  if (c && Py_TYPE(c) != STEP_CALLS) {
    Py_DECREF(c);
    PyErr_SetString(PyExc_TypeError, "_calls: not the kernel's StepCalls");
    return nullptr;
  }
  if (c) LAST.state = state, LAST.calls = c;
  return c;
}

void forget_last() { LAST.state = LAST.calls = nullptr; }

template <PyObject* (*Call)(PyObject*, PyObject*)>
PyObject* on_state(PyObject* state, PyObject* arg) {
  PyObject* c = calls_of(state);
  if (!c) return nullptr;
  PyObject* out = Call(c, arg);
  Py_DECREF(c);
  return out;
}

PyMethodDef STATE_METHODS[] = {
    {"is_terminal", on_state<calls_is_terminal>, METH_NOARGS, "Whether the session is over."},
    {"current_player", on_state<calls_current_player>, METH_NOARGS,
     "The seat to act; -1 at a chance node, -4 when over."},
    {"legal_actions", on_state<calls_legal_actions>, METH_NOARGS,
     "The legal actions: a new list, or for an exchange a KernelDiscards (R-DRAW)."},
    {"apply_action", on_state<calls_apply_action>, METH_O,
     "Apply an action; a refusal is the Python rules' RuleViolation, the state unchanged."},
    {"only_action", on_state<calls_only_action>, METH_NOARGS, "The one legal action, or None."},
    {nullptr, nullptr, 0, nullptr}};

void bind_state_methods(const py::object& cls) {
  if (!PyType_Check(cls.ptr())) throw std::invalid_argument("bind_state_methods: a class");
  for (PyMethodDef* def = STATE_METHODS; def->ml_name; ++def) {
    PyObject* descr = PyDescr_NewMethod(reinterpret_cast<PyTypeObject*>(cls.ptr()), def);
    if (!descr || PyObject_SetAttrString(cls.ptr(), def->ml_name, descr) < 0) {
      Py_XDECREF(descr);
      throw py::error_already_set();
    }
    Py_DECREF(descr);
  }
}

// The two types, made once at import (the module's attributes StepCalls, KernelDiscards),
// with Sequence's mixins index, count and __reversed__ as Discards has them.
void add_call_types(py::module_& m) {
  fill_binomials();
  DISCARD_WORD = PyUnicode_InternFromString("discard");
  APPLY_SLOW = PyUnicode_InternFromString("_apply_slow");
  OWNER = PyUnicode_InternFromString("owner");
  CALLS = PyUnicode_InternFromString("_calls");
  if (!DISCARD_WORD || !APPLY_SLOW || !OWNER || !CALLS) throw py::error_already_set();
  STEP_CALLS = reinterpret_cast<PyTypeObject*>(PyType_FromSpec(&CALLS_SPEC));
  if (!STEP_CALLS) throw py::error_already_set();
  KERNEL_DISCARDS = reinterpret_cast<PyTypeObject*>(PyType_FromSpec(&DISCARDS_SPEC));
  if (!KERNEL_DISCARDS) throw py::error_already_set();
  py::object sequence = py::module_::import("collections.abc").attr("Sequence");
  py::object kd = py::reinterpret_borrow<py::object>(reinterpret_cast<PyObject*>(KERNEL_DISCARDS));
  for (const char* name : {"index", "count", "__reversed__"}) kd.attr(name) = sequence.attr(name);
  m.attr("KernelDiscards") = kd;
  m.attr("StepCalls") = py::reinterpret_borrow<py::object>(reinterpret_cast<PyObject*>(STEP_CALLS));
}

// What a seat observes, as plain values (the wrapper makes the Observation): see
// bourre.game.state.observe.
py::tuple observe_raw(const Stepper& g, int seat) {
  if (seat < 0 || seat >= g.H.n) throw std::invalid_argument("seat");
  py::list decisions, active, tricks, trick, won, balances;
  for (int i = 0; i < g.ndec; ++i) {
    decisions.append(py::make_tuple(g.dec_seat[i], static_cast<bool>(g.dec_play[i]), g.dec_exch[i]));
  }
  for (int i = 0; i < g.nactive; ++i) active.append(py::int_(g.active[i]));
  const int per = g.nactive;
  for (int t = 0; t < g.ntricks; ++t) {
    py::tuple plays(static_cast<std::size_t>(per));
    for (int p = 0; p < per; ++p) {
      plays[static_cast<std::size_t>(p)] = py::make_tuple(g.tr_seat[t][p], g.tr_card[t][p]);
    }
    tricks.append(py::make_tuple(g.tr_leader[t], std::move(plays), g.tr_winner[t]));
  }
  for (int p = 0; p < g.tlen; ++p) trick.append(py::make_tuple(g.trick_seats[p], g.tcards[p]));
  for (int s = 0; s < g.H.n; ++s) {
    won.append(py::int_(g.won[s]));
    balances.append(to_py(g.bal[s]));
  }
  py::list own, gave;
  for (int i = 0; i < g.disc_len[seat]; ++i) own.append(py::int_(g.disc[seat][i]));
  for (int i = 0; i < g.gave_len[seat]; ++i) gave.append(py::int_(g.gave[seat][i]));
  py::tuple out(20);
  out[0] = py::int_(g.number);
  out[1] = py::int_(g.dealer);
  out[2] = py::int_(g.upcard);
  out[3] = mask_tuple(g.hand[seat]);
  out[4] = std::move(own);
  out[5] = std::move(decisions);
  out[6] = std::move(active);
  out[7] = std::move(tricks);
  out[8] = std::move(trick);
  out[9] = std::move(won);
  out[10] = to_py(g.pot);
  out[11] = std::move(balances);
  out[12] = py::int_(g.stock_len - g.stock_pos);
  out[13] = py::int_(g.phase);
  out[14] = py::int_(g.forced);
  out[15] = py::int_(g.chosen[seat]);
  out[16] = std::move(gave);
  out[17] = mask_tuple(g.got[seat]);
  out[18] = py::int_(g.played);
  out[19] = py::bool_(g.cinch_now);
  return out;
}

// The money: each seat's balance change so far in 1/D chips, or after the settlement
// (R-SETTLE: the pot left shared equally) in 1/(n D) chips; with that denominator.
py::tuple returns_raw(const Stepper& g) {
  const int n = g.H.n;
  const bool settled = g.phase == P_OVER && g.settles;
  i128 num[MAX_SEATS] = {};
  int place[MAX_SEATS];
  if (settled) settle(g.bal, n, g.pot, num, place);  // R-SETTLE: the rules' settlement
  py::list out(static_cast<std::size_t>(n));
  for (int s = 0; s < n; ++s) {
    const i128 x = settled ? num[s] - g.start[s] * n : g.bal[s] - g.start[s];
    out[static_cast<std::size_t>(s)] = to_py(x);
  }
  return py::make_tuple(std::move(out), settled ? n : 1);
}

// Where the kept history starts (Stepper::at), for the wrapper's Python twin: (hands
// dealt before, the last dealer or -1, the first hand?, the balances, the pot, the seats
// exempt from the next ante, the deck's and the reshuffle's stream words (None unseeded),
// the last hand's pot taker or -1, its bourre mask, the last hand as a plugin's ante reads
// it or None, the seats that lost their next turn to deal as a mask).
py::tuple hand_start_raw(const Stepper& g) {
  const auto& a = g.at;
  py::list bal, exempt;
  for (int s = 0; s < g.H.n; ++s) {
    bal.append(to_py(a.bal[s]));
    if (a.exempt[s]) exempt.append(py::int_(s));
  }
  const auto words = [&](const Xoshiro& x) -> py::object {
    if (!g.seeded) return py::none();
    return py::make_tuple(x.s[0], x.s[1], x.s[2], x.s[3]);
  };
  // (a plugin's ante: the last hand as it reads it, (pot at stake, active, tricks) or None;
  // a plugin's next dealer: the seats that lost their next turn to deal, a mask)
  py::object last = py::none();
  if (g.H.antes && a.last_pot >= 0) {
    py::list act, won;
    for (int i = 0; i < a.last_nactive; ++i) act.append(py::int_(a.last_active[i]));
    for (int s = 0; s < g.H.n; ++s) won.append(py::int_(a.last_won[s]));
    last = py::make_tuple(to_py(a.last_pot), std::move(act), std::move(won));
  }
  return py::make_tuple(a.number, a.last_dealer, a.first_hand, std::move(bal), to_py(a.pot),
                        std::move(exempt), words(a.deck_gen), words(a.reshuffle_gen),
                        a.outcome.winner, a.outcome.bourre, std::move(last), a.marks);
}

py::list history_raw(const Stepper& g, bool whole) {
  return history_from(g, whole ? 0 : g.hand_from);
}

py::tuple history_since(const Stepper& g, std::size_t from) {
  if (from > g.hist.size()) throw std::invalid_argument("from: within the history kept");
  return py::make_tuple(history_from(g, from), g.hist.size());
}

py::list history_from(const Stepper& g, std::size_t from) {
  need_actions();
  py::list out;
  const auto& h = g.hist;
  for (std::size_t i = from; i < h.size(); ++i) {
    const int code = h[i];
    if (code < 52) {
      out.append(py::reinterpret_borrow<py::object>(ACTIONS.cards[code]));
    } else if (code == H_PASS) {
      out.append(py::reinterpret_borrow<py::object>(ACTIONS.pass));
    } else if (code == H_PLAY) {
      out.append(py::reinterpret_borrow<py::object>(ACTIONS.play));
    } else if (code == H_DECK) {
      py::tuple deck(52);
      for (std::size_t j = 0; j < 52; ++j) deck[j] = py::int_(h[i + 1 + j]);
      out.append(py::make_tuple(py::str("deck"), std::move(deck)));
      i += 52;
    } else {
      const int k = code - H_DISCARD;
      py::tuple cards(static_cast<std::size_t>(k));
      for (int j = 0; j < k; ++j) cards[static_cast<std::size_t>(j)] = py::int_(h[i + 1 + static_cast<std::size_t>(j)]);
      out.append(py::make_tuple(py::str("discard"), std::move(cards)));
      i += static_cast<std::size_t>(k);
    }
  }
  return out;
}

}  // namespace bourre::kernel
