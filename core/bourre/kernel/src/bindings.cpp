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
// (add_to, sub_from): the Python rules then take over, exact at any size.
//
// The kernel's units (docs/architecture.md, "The kernel's units"): cards, rng, money,
// house, rules, hooks, bots, session, stepper, pytypes, convert, worlds, solver, and
// the bindings (this file: the submodule _kernel.rules, then the module's init, the
// only symbol exported).

#include "convert.h"
#include "pytypes.h"
#include "rules.h"
#include "session.h"
#include "solver.h"
#include "worlds.h"

namespace bourre::kernel {

// -- the rules one by one, for the tests (_kernel.rules; issue 41) -----------------------
//
// Each rule function the engines share (follow, cinch, trick winner, the lead, the
// decisions' turn, the draw, the antes, the penalty, the payout, the next dealer, the
// settlement), called on plain Python ints and tuples, so that
// tests/kernel/test_rule_twins.py holds each to its Python component.  Every argument is
// checked here (issue 42): anything else is a ValueError naming the argument and the
// rule.  Money is in 1/D chips, as the house dict (read_house) gives it.
namespace {

static_assert(F_ACE_UP == 1 && F_LAST_STANDS == 2, "decision_turn's forced values");

[[noreturn]] void refuse_arg(const char* what, const std::string& need) {
  throw std::invalid_argument(std::string(what) + ": " + need);
}

// An int (not a bool) from lo to hi.
i64 arg_int(const py::handle& o, const char* what, i64 lo, i64 hi) {
  if (!PyLong_Check(o.ptr()) || PyBool_Check(o.ptr())) refuse_arg(what, "an int");
  int over = 0;
  const long long v = PyLong_AsLongLongAndOverflow(o.ptr(), &over);
  if (v == -1 && PyErr_Occurred()) throw py::error_already_set();
  if (over || v < lo || v > hi) {
    refuse_arg(what, "from " + std::to_string(lo) + " to " + std::to_string(hi));
  }
  return static_cast<i64>(v);
}

bool arg_bool(const py::handle& o, const char* what) {
  if (!PyBool_Check(o.ptr())) refuse_arg(what, "True or False");
  return o.ptr() == Py_True;
}

// Cards: a tuple or list of at most ``most`` different cards (ints 0..51), in its order.
std::vector<int> arg_cards(const py::handle& o, const char* what, std::size_t most) {
  std::vector<int> out;
  if (!small_ints(o, most, out)) {
    refuse_arg(what, "a tuple of at most " + std::to_string(most) + " cards (ints 0 to 51)");
  }
  u64 seen = 0;
  for (int c : out) {
    if ((seen >> c) & 1) refuse_arg(what, "a card twice");
    seen |= u64{1} << c;
  }
  return out;
}

u64 mask_of(const std::vector<int>& cards) {
  u64 m = 0;
  for (int c : cards) m |= u64{1} << c;
  return m;
}

// A hand: 1 to 13 different cards (R-DEAL, R-DRAW: a hand is never empty when it plays).
u64 arg_hand(const py::handle& o, const char* what) {
  const u64 m = mask_of(arg_cards(o, what, 13));
  if (!m) refuse_arg(what, "at least one card");
  return m;
}

// A trick so far: at most 7 cards (8 seats), none of them in ``hand``, read as the
// engines read it (Facts).
Facts arg_trick(const py::handle& o, u64 hand, int trump, int& tlen) {
  const std::vector<int> trick = arg_cards(o, "trick", MAX_SEATS - 1);
  if (mask_of(trick) & hand) refuse_arg("trick", "a card of the hand");
  Facts f;
  tlen = static_cast<int>(trick.size());
  for (int p = 0; p < tlen; ++p) f.add(trick[static_cast<std::size_t>(p)], p, trump);
  return f;
}

int arg_trump(const py::handle& o) { return static_cast<int>(arg_int(o, "trump", 0, 3)); }

House arg_house(const py::handle& o) {
  if (!PyDict_Check(o.ptr())) refuse_arg("house", "a dict (bourre.kernel._house_facts)");
  return read_house(py::reinterpret_borrow<py::dict>(o));
}

i128 arg_amount(const py::handle& o, const char* what, i64 lo) {
  return arg_int(o, what, lo, LIMIT - 1);
}

// Seats: different ints 0..n-1, at least one, in their order.
std::vector<int> arg_seats(const py::handle& o, const char* what, int n) {
  std::vector<int> out;
  if (!small_ints(o, static_cast<std::size_t>(n), out) || out.empty()) {
    refuse_arg(what, "a tuple of 1 to " + std::to_string(n) + " seats");
  }
  u32 seen = 0;
  for (int s : out) {
    if (s >= n || ((seen >> s) & 1)) refuse_arg(what, "different seats 0 to " + std::to_string(n - 1));
    seen |= u32{1} << s;
  }
  return out;
}

py::object opt_seat(int s) { return s < 0 ? py::object(py::none()) : py::object(py::int_(s)); }

void add_rules(py::module_& m) {
  py::module_ r = m.def_submodule(
      "rules", "The kernel's rule functions one by one, for tests/kernel/test_rule_twins.py "
               "(cards as ints, money in 1/D chips as the house dict gives it).");
  r.def("follow", [](const py::handle& hand, const py::handle& trick, const py::handle& trump) {
    // R-FOLLOW, R-TRUMP, R-DISCARD (obligations.follow), the trick not empty
    const int t = arg_trump(trump);
    const u64 h = arg_hand(hand, "hand");
    int k = 0;
    const Facts f = arg_trick(trick, h, t, k);
    if (!k) refuse_arg("trick", "at least the lead (R-LEAD: leading is free)");
    return mask_tuple(follow(h, f, t) & h);
  }, py::arg("hand"), py::arg("trick"), py::arg("trump"));
  r.def("follow_optional_undertrump",
        [](const py::handle& hand, const py::handle& trick, const py::handle& trump) {
    const int t = arg_trump(trump);  // R-OPTIONAL-UNDERTRUMP (optional_undertrump.follow)
    const u64 h = arg_hand(hand, "hand");
    int k = 0;
    const Facts f = arg_trick(trick, h, t, k);
    if (!k) refuse_arg("trick", "at least the lead (R-LEAD: leading is free)");
    return mask_tuple(follow_optional_undertrump(h, f, t) & h);
  }, py::arg("hand"), py::arg("trick"), py::arg("trump"));
  r.def("house_follow", [](const py::handle& house, const py::handle& hand,
                           const py::handle& trick, const py::handle& trump) {
    const House H = arg_house(house);  // the house's follow component (obliged)
    const int t = arg_trump(trump);
    const u64 h = arg_hand(hand, "hand");
    int k = 0;
    const Facts f = arg_trick(trick, h, t, k);
    if (k >= H.n) refuse_arg("trick", "fewer cards than the players");
    return mask_tuple(obliged(H, h, f, k, t) & h);
  }, py::arg("house"), py::arg("hand"), py::arg("trick"), py::arg("trump"));
  r.def("has_cinch", [](const py::handle& hand, const py::handle& trump, const py::handle& known,
                        const py::handle& won) {
    const int t = arg_trump(trump);  // R-SURE (StandardCinch.has_cinch)
    const u64 h = arg_hand(hand, "hand");
    const u64 kn = mask_of(arg_cards(known, "known", 52));
    if (kn & h) refuse_arg("known", "a card of the hand");
    return has_cinch(h, t, kn, static_cast<int>(arg_int(won, "won", 0, 5)));
  }, py::arg("hand"), py::arg("trump"), py::arg("known"), py::arg("won"));
  r.def("highest_trumps", [](const py::handle& allowed, const py::handle& hand,
                             const py::handle& trump, const py::handle& known) {
    const int t = arg_trump(trump);  // R-EQUIV (cinch.highest_trumps)
    const u64 h = arg_hand(hand, "hand");
    const u64 a = mask_of(arg_cards(allowed, "allowed", 13));
    if (!a || (a & ~h) || (a & ~(SUIT << (t * 13)))) refuse_arg("allowed", "trumps of the hand, at least one");
    const u64 kn = mask_of(arg_cards(known, "known", 52));
    if (kn & h) refuse_arg("known", "a card of the hand");
    return mask_tuple(highest_trumps(a, h, t, kn));
  }, py::arg("allowed"), py::arg("hand"), py::arg("trump"), py::arg("known"));
  r.def("cinch_narrow", [](const py::handle& legal, const py::handle& hand, const py::handle& trick,
                           const py::handle& trump, const py::handle& known, const py::handle& last) {
    const int t = arg_trump(trump);  // R-CINCH-LEAD, R-CINCH-FOLLOW, R-CINCH-LAST (narrow)
    const u64 h = arg_hand(hand, "hand");
    const u64 l = mask_of(arg_cards(legal, "legal", 13));
    if (!l || (l & ~h)) refuse_arg("legal", "cards of the hand, at least one");
    int k = 0;
    arg_trick(trick, h, t, k);
    const u64 kn = mask_of(arg_cards(known, "known", 52));
    if (kn & h) refuse_arg("known", "a card of the hand");
    return mask_tuple(cinch_narrow(l, h, k, t, kn, arg_bool(last, "last")));
  }, py::arg("legal"), py::arg("hand"), py::arg("trick"), py::arg("trump"), py::arg("known"),
     py::arg("last"));
  r.def("legal", [](const py::handle& house, const py::handle& hand, const py::handle& trick,
                    const py::handle& trump, const py::handle& known, const py::handle& won,
                    const py::handle& last) {
    const House H = arg_house(house);  // game.legal.legal_play (legal_cards)
    const int t = arg_trump(trump);
    const u64 h = arg_hand(hand, "hand");
    int k = 0;
    const Facts f = arg_trick(trick, h, t, k);
    if (k >= H.n) refuse_arg("trick", "fewer cards than the players");
    const u64 kn = mask_of(arg_cards(known, "known", 52));
    if (kn & h) refuse_arg("known", "a card of the hand");
    bool cinch = false;
    const u64 lm = legal_cards(H, h, f, k, t, [kn] { return kn; },
                               static_cast<int>(arg_int(won, "won", 0, H.h)),
                               arg_bool(last, "last"), true, cinch);
    return py::make_tuple(mask_tuple(lm), cinch);
  }, py::arg("house"), py::arg("hand"), py::arg("trick"), py::arg("trump"), py::arg("known"),
     py::arg("won"), py::arg("last"));
  r.def("trick_winner", [](const py::handle& trick, const py::handle& trump) {
    const int t = arg_trump(trump);  // R-TRICK (tricks.trick_winner)
    const std::vector<int> cards = arg_cards(trick, "trick", MAX_SEATS);
    if (cards.empty()) refuse_arg("trick", "at least one card");
    return trick_winner(cards.data(), static_cast<int>(cards.size()), t);
  }, py::arg("trick"), py::arg("trump"));
  r.def("lead", [](const py::handle& active, const py::handle& n, const py::handle& dealer,
                   const py::handle& winner) {
    // R-LEAD (lead.make_lead(n)): the active seats as the engines keep them, clockwise
    // from the dealer's left, then the trick's order from the leader (the first, or winner)
    const int N = static_cast<int>(arg_int(n, "n", 2, MAX_SEATS));
    const int d = static_cast<int>(arg_int(dealer, "dealer", 0, N - 1));
    std::vector<int> seats = arg_seats(active, "active", N);
    std::sort(seats.begin(), seats.end(), [&](int a, int b) {
      return (a - d - 1 + N) % N < (b - d - 1 + N) % N;
    });
    int leader = seats[0];
    if (!winner.is_none()) {
      leader = static_cast<int>(arg_int(winner, "winner", 0, N - 1));
      if (std::find(seats.begin(), seats.end(), leader) == seats.end()) {
        refuse_arg("winner", "one of the active seats");
      }
    }
    const int k = static_cast<int>(seats.size());
    int out[MAX_SEATS];
    lead_order(seats.data(), k, leader, out);
    py::tuple res(static_cast<std::size_t>(k));
    for (int i = 0; i < k; ++i) res[static_cast<std::size_t>(i)] = py::int_(out[i]);
    return res;
  }, py::arg("active"), py::arg("n"), py::arg("dealer"), py::arg("winner"));
  r.def("decision_turn", [](const py::handle& simultaneous, const py::handle& n,
                            const py::handle& dealer, const py::handle& step,
                            const py::handle& exchanging, const py::handle& upcard,
                            const py::handle& nactive) -> py::object {
    // R-DECIDE, R-ACE-UP, R-LAST-STANDS (Sequential.turn), R-SIMULTANEOUS (Simultaneous.turn):
    // None, or (seat, "decide" or "exchange", the rule forbidding a pass or None)
    const int N = static_cast<int>(arg_int(n, "n", 2, MAX_SEATS));
    const DecisionTurn t = decision_turn(
        arg_bool(simultaneous, "simultaneous"), N,
        static_cast<int>(arg_int(dealer, "dealer", 0, N - 1)),
        static_cast<int>(arg_int(step, "step", 0, N + 1)),
        static_cast<int>(arg_int(exchanging, "exchanging", -1, N - 1)),
        rank_of(static_cast<int>(arg_int(upcard, "upcard", 0, 51))) == ACE,
        static_cast<int>(arg_int(nactive, "nactive", 0, N)));
    if (t.kind == TURN_NONE) return py::none();
    const char* forced[] = {nullptr, "R-ACE-UP", "R-LAST-STANDS"};
    return py::make_tuple(t.seat, t.kind == TURN_DECIDE ? "decide" : "exchange",
                          t.forced ? py::object(py::str(forced[t.forced])) : py::object(py::none()));
  }, py::arg("simultaneous"), py::arg("n"), py::arg("dealer"), py::arg("step"),
     py::arg("exchanging"), py::arg("upcard"), py::arg("nactive"));
  r.def("draw", [](const py::handle& hand, const py::handle& discards, const py::handle& stock,
                   const py::handle& pile, const py::handle& limit) -> py::object {
    // R-DRAW, R-RESHUFFLE (draw.Draw.draw, a reshuffle keeping the pile's order: the
    // unseeded Stepper's, hand.keep_order): None when refused, else (hand, stock, pile,
    // whether the stock was made again from the pile)
    const u64 h = arg_hand(hand, "hand");
    const std::vector<int> st = arg_cards(stock, "stock", 52);
    const std::vector<int> pl = arg_cards(pile, "pile", 52);
    const u64 sm = mask_of(st), pm = mask_of(pl);
    if ((sm & h) || (pm & h) || (sm & pm)) refuse_arg("stock and pile", "cards nowhere else");
    const int lim = static_cast<int>(arg_int(limit, "limit", 0, 13));
    std::vector<int> cards;
    if (!small_ints(discards, 52, cards)) refuse_arg("discards", "a tuple of cards (ints 0 to 51)");
    std::uint8_t s[52], p[52];
    int slen = static_cast<int>(st.size()), plen = static_cast<int>(pl.size()), spos = 0;
    for (int i = 0; i < slen; ++i) s[i] = static_cast<std::uint8_t>(st[static_cast<std::size_t>(i)]);
    for (int i = 0; i < plen; ++i) p[i] = static_cast<std::uint8_t>(pl[static_cast<std::size_t>(i)]);
    const int k = static_cast<int>(cards.size());
    u64 dmask = 0;
    if (!draw_allowed(h, cards.data(), k, lim, slen + plen, dmask)) return py::none();
    u64 kept = h & ~dmask;
    bool again = false;
    if (!draw_cards(kept, k, s, spos, slen, p, plen, [&](std::uint8_t*, int) { again = true; })) {
      return py::none();  // (never: draw_allowed counted the pile)
    }
    for (int c : cards) p[plen++] = static_cast<std::uint8_t>(c);
    py::list rest, piled;
    for (int i = spos; i < slen; ++i) rest.append(py::int_(s[i]));
    for (int i = 0; i < plen; ++i) piled.append(py::int_(p[i]));
    return py::make_tuple(mask_tuple(kept), std::move(rest), std::move(piled), again);
  }, py::arg("hand"), py::arg("discards"), py::arg("stock"), py::arg("pile"), py::arg("limit"));
  r.def("hand_antes", [](const py::handle& house, const py::handle& first, const py::handle& exempt) {
    // R-FIRST-POT, R-ANTE, R-DOUBLE-ANTE (the ante component's hand_antes), 1/D chips a seat
    const House H = arg_house(house);
    const bool f = arg_bool(first, "first");
    u32 ex = 0;
    std::vector<int> seats;
    if (!small_ints(exempt, static_cast<std::size_t>(H.n), seats)) refuse_arg("exempt", "a tuple of seats");
    for (int s : seats) {
      if (s >= H.n) refuse_arg("exempt", "seats 0 to " + std::to_string(H.n - 1));
      ex |= u32{1} << s;
    }
    py::list out;
    for (int s = 0; s < H.n; ++s) out.append(to_py(antes(H, f, (ex >> s) & 1) ? H.ante : 0));
    return out;
  }, py::arg("house"), py::arg("first"), py::arg("exempt"));
  r.def("play_ante", [](const py::handle& house) { return to_py(play_ante(arg_house(house))); },
        py::arg("house"));  // R-DOUBLE-ANTE (play_ante)
  r.def("penalty", [](const py::handle& house, const py::handle& pot) {
    const House H = arg_house(house);  // R-PENALTY, R-POT-LIMIT
    return to_py(penalty(H, arg_amount(pot, "pot_at_stake", 0)));
  }, py::arg("house"), py::arg("pot_at_stake"));
  r.def("payout", [](const py::handle& house, const py::handle& active, const py::handle& won,
                     const py::handle& pot) {
    // R-WIN, R-SOLE, R-BOURRE (R-POT-LIMIT), R-ANTE's exemptions (payout.payout, pay_out):
    // (winner or None, takes, paid, pot after, bourre seats, exempt seats)
    const House H = arg_house(house);
    const std::vector<int> act = arg_seats(active, "active", H.n);
    std::vector<int> w;
    if (!PyList_Check(won.ptr()) && !PyTuple_Check(won.ptr())) refuse_arg("won", "a tuple of ints");
    if (PySequence_Fast_GET_SIZE(won.ptr()) != H.n) refuse_arg("won", "one count a seat");
    int wonv[MAX_SEATS] = {};
    for (int s = 0; s < H.n; ++s) {
      wonv[s] = static_cast<int>(arg_int(PySequence_Fast_GET_ITEM(won.ptr(), s), "won", 0, H.h));
    }
    const i128 P = arg_amount(pot, "pot_at_stake", 0);
    i128 bal[MAX_SEATS] = {}, after = 0;
    bool exempt[MAX_SEATS] = {};
    int nb = 0, carried = 0;
    bool lost = false;
    const int na = static_cast<int>(act.size());
    const Outcome o = pay_out(H, act.data(), na, wonv, na == 1, P, bal, after, exempt, nb,
                              carried, lost);
    if (lost) refuse_arg("pot_at_stake", "beyond the kernel's range");  // (never within 2^62)
    py::list takes, paid, bourre, ex;
    for (int s = 0; s < H.n; ++s) {
      takes.append(to_py(bal[s] > 0 ? bal[s] : 0));
      paid.append(to_py(bal[s] < 0 ? -bal[s] : 0));
      if ((o.bourre >> s) & 1) bourre.append(s);
      if (exempt[s]) ex.append(s);
    }
    return py::make_tuple(opt_seat(o.winner), std::move(takes), std::move(paid), to_py(after),
                          std::move(bourre), std::move(ex));
  }, py::arg("house"), py::arg("active"), py::arg("won"), py::arg("pot_at_stake"));
  r.def("next_dealer", [](const py::handle& n, const py::handle& dealer) {
    const int N = static_cast<int>(arg_int(n, "n", 2, MAX_SEATS));  // R-DEALER
    return next_dealer(static_cast<int>(arg_int(dealer, "dealer", 0, N - 1)), N);
  }, py::arg("n"), py::arg("dealer"));
  r.def("settle", [](const py::handle& balances, const py::handle& pot) {
    // R-SETTLE (payout.settle): (each final balance's numerator over n, the places)
    if (!PyList_Check(balances.ptr()) && !PyTuple_Check(balances.ptr())) {
      refuse_arg("balances", "a tuple of ints");
    }
    const Py_ssize_t k = PySequence_Fast_GET_SIZE(balances.ptr());
    if (k < 2 || k > MAX_SEATS) refuse_arg("balances", "one a seat, 2 to 8 seats");
    const int n = static_cast<int>(k);
    i128 bal[MAX_SEATS], num[MAX_SEATS];
    int place[MAX_SEATS];
    for (int s = 0; s < n; ++s) {
      bal[s] = arg_amount(PySequence_Fast_GET_ITEM(balances.ptr(), s), "balances", -LIMIT + 1);
    }
    settle(bal, n, arg_amount(pot, "pot", 0), num, place);
    py::list nums, places;
    for (int s = 0; s < n; ++s) {
      nums.append(to_py(num[s]));
      places.append(place[s]);
    }
    return py::make_tuple(std::move(nums), std::move(places));
  }, py::arg("balances"), py::arg("pot"));
}

}  // namespace

}  // namespace bourre::kernel

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
  m.attr("ADVICE_UNHELD") = ADVICE_UNHELD;
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
  py::class_<BotRun, std::unique_ptr<BotRun>>(
      m, "BotRun", "The built-in bots of a session whose other seats are a plugin's (run_bots).")
      .def(py::init(&make_bot_run), py::arg("stepper"), py::arg("bots"), py::arg("words"),
           py::arg("python"))
      .def("run", &run_bots, py::arg("stepper"),
           "Step with the built-in bots until a plugin's bot is to act: a status (3: ask).");
  m.def("settled", [](const Stepper& g, const py::object& fraction, bool fast) {
    check_fraction(fraction, fast);
    if (g.phase != P_OVER || g.overflow || !g.settles || !g.logging) return py::object(py::none());
    return settled(g, OK, fraction, fast, true);
  }, py::arg("stepper"), py::arg("fraction"), py::arg("fast"),
     "A finished, logged session's (final, places) and tally (as play_streams with tally).");
  py::class_<HouseFacts>(m, "HouseFacts", "A house read once for the Stepper (read_house).")
      .def(py::init([](const py::dict& d) { return HouseFacts{read_house(d)}; }),
           py::arg("house"));
  py::class_<Stepper>(m, "Stepper", py::dynamic_attr(),
                      "A session stepped one action at a time (KernelState).")
      .def(py::init(&make_stepper), py::arg("house"), py::arg("seed"), py::arg("balances"),
           py::arg("dealer"), py::arg("hands"), py::arg("keep_results"), py::arg("pot") = 0,
           py::arg("settle") = true)
      .def("clone", [](const Stepper& g) {
        auto c = std::make_unique<Stepper>(g);
        // a plugin's decisions under way: the copy gets its own hand's run (its hand
        // state, reshuffle stream and turn); once they are over the run is only read
        if (c->run && c->hooked > 0) c->run = decisions_copy(*g.run);
        return c;
      })
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
        Stepper& g = self.cast<Stepper&>();
        if (g.status != OK) throw std::runtime_error("this kernel state was handed to the Python rules");
        bool taken;
        try {
          taken = apply_fast(g, action.ptr());
        } catch (py::error_already_set&) {
          if (g.status == OK) throw;
          taken = true;  // the follow rule's error: the Python twin asks it again (hand_over)
        }
        if (!taken) {
          steal(owner_of(self.ptr())).attr("_apply_slow")(action);
        } else if (g.status != OK) {
          steal(hand_over(self.ptr()));
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
      .def("exchange_limit", [](const Stepper& g) {
        return g.phase != P_EXCHANGE ? 0 : g.H.decisions ? g.exchange_limit : g.H.h;
      }, "The most cards the seat to exchange may discard (R-DRAW: a plugin's draw's limit).")
      .def("run", [](const Stepper& g) -> py::object {
        if (!g.run) return py::none();
        return py::reinterpret_borrow<py::object>(g.run->o);
      }, "A plugin's decisions' hand run (bourre.kernel.decisions.HandDecisions), else None.")
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
      .def("history_since", &history_since, py::arg("start"))
      .def("log_hands", [](Stepper& g) {  // each hand's tally kept from now (settled)
        g.logging = true;
        g.logs.clear();
      })
      .def("history_len", [](const Stepper& g) { return g.hist.size(); })
      .def("hand_start", &hand_start_raw,
           "Where the kept history starts: the session's start, or the current hand's "
           "with keep_results=False (what the Python twin starts from).")
      .def("number", [](const Stepper& g) { return g.number; })
      .def("overflow", [](const Stepper& g) { return g.overflow; })
      .def("status", [](const Stepper& g) { return g.status; },
           "OK (0), or OVERFLOW (1): a plugin's answer the kernel cannot hold, the session "
           "handed to the Python rules")
      .def("balances", [](const Stepper& g) {
        py::list out;
        for (int s = 0; s < g.H.n; ++s) out.append(to_py(g.bal[s]));
        return out;
      })
      .def("pot", [](const Stepper& g) { return to_py(g.pot); })
      .def("dealer", [](const Stepper& g) { return g.dealer; })
      .def("first_dealer", [](const Stepper& g) { return g.first_dealer; })
      .def("settled", [](const Stepper& g) -> py::object {
        // a plugin's settlement once the session is over (its (final balances, places)), else None
        if (!g.settled) return py::none();
        return py::reinterpret_borrow<py::object>(g.settled->o);
      }, "A plugin's settlement (R-SETTLE) once over: its (final balances, places), else None.")
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
        "[chips in 1/D a seat]), ...], positions), or None when a plugin's money answer is "
        "not the kernel's to hold (the Python reference solves it).");
  m.def("dd_solve_stepper", &dd_solve_stepper, py::arg("stepper"),
        "dd_solve for a stepped state in the play phase.");
}
