// bourre.kernel._kernel: whole seeded sessions of a house made only of built-in
// components, played by the built-in random and heuristic bots, in C++17.
//
// An accelerator, not a second definition: every rule below restates a built-in
// component of bourre_variants (cited by its rule id, RULES.md) and is held to it by
// tests/kernel/test_sessions.py, which plays the same sessions on the Python rules and compares
// the money, exactly.  The Python wrapper (bourre/kernel/__init__.py) decides which
// houses and bots the kernel may play; every entry of this module (public or private:
// it is one import away) checks what it reads where the Python objects are converted
// (types, lengths, ranges, each card in one place, the seats and the turn consistent)
// and raises a Python exception otherwise, so nothing is read or written out of bounds
// whatever it is given; the search itself trusts what was checked (no check a card).
// tests/test_kernel_fuzz.py drives every entry with hostile inputs (tox -e sanitize:
// under AddressSanitizer and UBSan).
//
// Cards are ints suit * 13 + rank (rank 12 = ace), hands are sorted arrays plus a bit
// mask (bit 1 << card).  Money is exact: every amount is an integer count of 1/D chip
// (D, the common denominator of the house's amounts, is chosen by the wrapper), held
// in 128-bit integers; a session whose money leaves +-2^100 is reported, not wrapped,
// and every sum that could leave the 128-bit range is checked before it is made
// (add_to, sub_from): the Python rules then take over, exact at any size.//
// The kernel's units (docs/architecture.md, "The kernel's units"): cards, rng, money,
// house, rules, hooks, bots, session, stepper, pytypes, convert, worlds, solver, and
// the bindings (this file: the module's init, the only symbol exported).

#include "bindings.h"
#include "pytypes.h"
#include "session.h"
#include "solver.h"
#include "worlds.h"

PYBIND11_MODULE(_kernel, m) {
  using namespace bourre::kernel;
  add_rules(m);  // _kernel.rules: each rule function for its twin test (issue 41)
  add_call_types(m);
  m.def("bind_state_methods", &bind_state_methods, py::arg("cls"),
        "The stepped calls as builtin methods of the class (KernelState), reading each "
        "state's StepCalls from its attribute _calls.");
  m.doc() = "bourre's compiled kernel: seeded sessions of built-in houses and bots (C++17).";
  m.attr("OK") = static_cast<int>(OK);
  m.attr("OVERFLOW") = static_cast<int>(OVERFLOW_);
  m.attr("NO_DISCARDS") = static_cast<int>(NO_DISCARDS);
  m.def("play_shared", &play_shared, py::arg("house"), py::arg("bots"), py::arg("seeds"), py::arg("fraction"), py::arg("fast"),
        "Sessions (one a seed text) whose random bots share the stream bourre-bots:{seed}: "
        "for each, (final balances, places) (R-SETTLE) or a status int.");
  m.def("play_streams", &play_streams, py::arg("house"), py::arg("bots"), py::arg("seed"),
        py::arg("words"), py::arg("fraction"), py::arg("fast"), py::arg("tally") = false,
        "One session whose random bots have a stream each (four words a seat; none: "
        "shared), with each hand's tally when asked.");
  py::class_<Prepared>(m, "Prepared", "A house and its bots, read once (play_prepared).");
  m.def("prepare", &prepare, py::arg("house"), py::arg("bots"), py::arg("shared"),
        "A house and its bots read once, for play_prepared.");
  m.def("play_prepared", &play_prepared, py::arg("prepared"), py::arg("seed"), py::arg("words"),
        py::arg("fraction"), py::arg("fast"), py::arg("tally") = false,
        "play_streams with the house and bots of prepare().");
  m.def("stream_words", &stream_words, py::arg("name"),
        "The state words of the stream named ``name`` (bourre.xoshiro.stream).");
  m.def("set_actions", &set_actions, py::arg("cards"), py::arg("pass_"), py::arg("play"),
        py::arg("discards"),
        "The action objects the stepped state gives (bourre.game.actions): set once.");
  py::class_<HouseFacts>(m, "HouseFacts", "A house read once for the Stepper (read_house).")
      .def(py::init([](const py::dict& d) { return HouseFacts{read_house(d)}; }),
           py::arg("house"));
  py::class_<Stepper>(m, "Stepper", py::dynamic_attr(),
                      "A session stepped one action at a time (KernelState).")
      .def(py::init(&make_stepper), py::arg("house"), py::arg("seed"), py::arg("balances"),
           py::arg("dealer"), py::arg("hands"), py::arg("keep_results"), py::arg("pot") = 0,
           py::arg("settle") = true)
      .def("clone", [](const Stepper& g) { return std::make_unique<Stepper>(g); })
      .def("current_player", &Stepper::current_player)
      .def("phase", [](const Stepper& g) { return g.phase; })
      .def("is_terminal", [](const Stepper& g) { return g.phase == P_OVER; })
      .def("legal_actions", [](const Stepper& g) {
        need_actions();
        return steal(legal_actions_raw(g));
      })
      .def("apply_action", [](const py::object& self, const py::handle& action) {
        // (as StepCalls.apply_action: the kernel's own actions, else owner._apply_slow)
        need_actions();
        if (!apply_fast(self.cast<Stepper&>(), action.ptr())) {
          steal(owner_of(self.ptr())).attr("_apply_slow")(action);
        }
      }, py::arg("action"))
      .def("only_action", [](const Stepper& g) {
        need_actions();
        return steal(only_action_raw(g));
      })
      .def("calls", &step_calls,
           "The stepped calls (is_terminal, current_player, legal_actions, apply_action, "
           "only_action) as builtin methods: what KernelState binds.")
      .def("legal_mask", [](const Stepper& g) { return g.phase == P_PLAY ? g.legal : u64{0}; })
      .def("cinch", [](const Stepper& g) { return g.phase == P_PLAY && g.cinch_now; })
      .def("forced", [](const Stepper& g) { return g.phase == P_DECIDE ? g.forced : 0; })
      .def("hand", [](const Stepper& g, int s) {
        if (s < 0 || s >= g.H.n) throw std::invalid_argument("seat");
        return mask_tuple(g.hand[s]);
      })
      .def("play", [](Stepper& g, const py::handle& card) {
        const int c = small_int(card);  // (not an int 0..51: refused, the rules' words)
        return c >= 0 && g.play(c);
      }, py::arg("card"))
      .def("set_chart", [](Stepper& g, const std::vector<std::vector<int>>& table) {
        // R-DECIDE: each seat's pass (1) or play (2) by the seats already in, 0: the heuristic
        if (static_cast<int>(table.size()) != g.H.n) throw std::invalid_argument("chart: one row a seat");
        for (int s = 0; s < g.H.n; ++s) {
          const auto& row = table[static_cast<std::size_t>(s)];
          if (static_cast<int>(row.size()) != g.H.n) throw std::invalid_argument("chart: one entry a count");
          for (int k = 0; k < g.H.n; ++k) {
            const int v = row[static_cast<std::size_t>(k)];
            if (v < 0 || v > 2) throw std::invalid_argument("chart: 0, 1 or 2");
            g.chart[s][k] = static_cast<std::uint8_t>(v);
          }
        }
      }, py::arg("table"))
      .def("decide", [](Stepper& g, const py::handle& play) {
        return PyBool_Check(play.ptr()) && g.decide(play.ptr() == Py_True);
      }, py::arg("play"))
      .def("exchange", [](Stepper& g, const py::handle& cards) {
        std::vector<int> cs;
        return small_ints(cards, 52, cs) && g.exchange(cs);
      }, py::arg("cards"))
      .def("apply_deck", [](Stepper& g, const py::handle& deck) {
        std::vector<int> cs;
        return small_ints(deck, 52, cs) && g.apply_deck(cs);
      }, py::arg("deck"))
      .def("observe", &observe_raw, py::arg("seat"))
      .def("returns", &returns_raw)
      .def("history", &history_raw, py::arg("whole"))
      .def("history_len", [](const Stepper& g) { return g.hist.size(); })
      .def("hand_start", &hand_start_raw,
           "Where the kept history starts: the session's start, or the current hand's "
           "with keep_results=False (what the Python twin starts from).")
      .def("number", [](const Stepper& g) { return g.number; })
      .def("overflow", [](const Stepper& g) { return g.overflow; })
      .def("balances", [](const Stepper& g) {
        py::list out;
        for (int s = 0; s < g.H.n; ++s) out.append(to_py(g.bal[s]));
        return out;
      })
      .def("pot", [](const Stepper& g) { return to_py(g.pot); })
      .def("dealer", [](const Stepper& g) { return g.dealer; })
      .def("first_dealer", [](const Stepper& g) { return g.first_dealer; })
      .def("rollouts", &rollouts, py::arg("candidates"), py::arg("me"),
           "Monte Carlo rollouts of the candidates with the heuristic at every seat.")
      .def("rollout_outcomes", &rollout_outcomes, py::arg("candidates"), py::arg("me"),
           "rollouts, each with the hand's outcome: (money, pot taker or -1, bourre mask).");
  m.def("sample_worlds", &sample_worlds, py::arg("house"), py::arg("view"), py::arg("count"),
        py::arg("tries"), py::arg("keep"), py::arg("fold"),
        "Monte Carlo worlds sampled and replayed on the kernel's stream.");
  m.def("replay_world", &replay_world, py::arg("house"), py::arg("world"),
        "A Monte Carlo world replayed from a sample: a Stepper, or 0 (refused) / 1 (Python).");
  m.def("advice_rows", &advice_rows, py::arg("house"), py::arg("seat"), py::arg("dealer"),
        py::arg("pot"), py::arg("decided"), py::arg("hands"), py::arg("upcards"), py::arg("words"),
        py::arg("options"), py::arg("passing"),
        "The simulated deals of advice, a batch in one call: per deal a status and, per "
        "option then the pass, (took the pot, bourre, chips from the decision on).");
  m.def("load_world", &load_world, py::arg("house"), py::arg("world"),
        "A Monte Carlo world (one hand at a player's turn) as a Stepper.");
  m.def("dd_solve", &dd_solve, py::arg("house"), py::arg("position"),
        "The double-dummy values of a position (bourre.advice): ([(card, head, sure tricks, "
        "[chips in 1/D a seat]), ...], positions).");
  m.def("dd_solve_stepper", &dd_solve_stepper, py::arg("stepper"),
        "dd_solve for a stepped state in the play phase.");
}
