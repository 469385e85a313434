// bourre.kernel, hooks: see hooks.h.

#include "hooks.h"
#include "convert.h"
#include <stdexcept>

namespace bourre::kernel {

// One int of the hook's answer: false if it is not within 2^62 (not the kernel's).
bool hook_int(PyObject* o, i128& out) {
  if (!PyLong_Check(o)) throw std::invalid_argument("money hook: an answer that is not ints");
  int over = 0;
  const long long v = PyLong_AsLongLongAndOverflow(o, &over);
  if (v == -1 && PyErr_Occurred()) throw py::error_already_set();
  if (over || v <= -LIMIT || v >= LIMIT) return false;
  out = v;
  return true;
}

// A plugin's penalty (bourre.kernel.hooks.penalty_hook), called through Python by the
// built-in payout as standard.payout.payout calls it: once a hand with a bourre player,
// with the pot at stake P; false when its answer is not a whole number of 1/D chips
// within 2^62 (the Python rules play the money).  The GIL must be held.
bool penalty_hook(const House& H, i128 P, i128& x) {
  py::int_ stake = to_py(P);
  PyObject* got = PyObject_CallOneArg(H.penalty->o, stake.ptr());
  if (!got) throw py::error_already_set();
  const py::object answer = py::reinterpret_steal<py::object>(got);
  if (got == Py_None) return false;
  if (!hook_int(got, x)) return false;
  if (x < 0) throw std::invalid_argument("penalty hook: an amount below 0");
  return true;
}

// A plugin's follow rule (bourre.kernel.hooks.follow_hook): the legal cards of ``held``
// on the trick so far (``tcards``, in play order; none: a lead), as a mask; false when
// its ruling is not the kernel's to play (cards not in the hand's order: a random bot
// would choose among them otherwise).  The GIL must be held.
bool follow_hook(const House& H, u64 held, const int* tcards, int tlen, int trump, u64& out) {
  py::tuple hand(static_cast<std::size_t>(popcount(held)));
  std::size_t i = 0;
  for (u64 m = held; m; m &= m - 1) hand[i++] = py::int_(lowest(m));
  py::tuple trick(static_cast<std::size_t>(tlen));
  for (int k = 0; k < tlen; ++k) trick[static_cast<std::size_t>(k)] = py::int_(tcards[k]);
  py::int_ t(trump);
  PyObject* got =
      PyObject_CallFunctionObjArgs(H.follow->o, hand.ptr(), trick.ptr(), t.ptr(), nullptr);
  if (!got) throw py::error_already_set();
  const py::object answer = py::reinterpret_steal<py::object>(got);
  if (got == Py_None) return false;
  int over = 0;
  const long long v = PyLong_Check(got) ? PyLong_AsLongLongAndOverflow(got, &over) : -1;
  if (over || v <= 0 || (static_cast<u64>(v) & ~held)) {
    throw std::invalid_argument("follow hook: a mask of cards within the hand");
  }
  out = static_cast<u64>(v);
  return true;
}

// A plugin's trick winner (R-TRICK): the house's checked trick_winner(trick, trump) with
// the trick's cards in play order; the index of the winning card.  The GIL must be held.
int winner_hook(const House& H, const int* tcards, int tlen, int trump) {
  py::tuple trick(static_cast<std::size_t>(tlen));
  for (int k = 0; k < tlen; ++k) trick[static_cast<std::size_t>(k)] = py::int_(tcards[k]);
  py::int_ t(trump);
  PyObject* got = PyObject_CallFunctionObjArgs(H.winner->o, trick.ptr(), t.ptr(), nullptr);
  if (!got) throw py::error_already_set();
  const py::object answer = py::reinterpret_steal<py::object>(got);
  int over = 0;
  const long v = PyLong_Check(got) ? PyLong_AsLongAndOverflow(got, &over) : -1;
  if (over || v < 0 || v >= tlen) throw std::invalid_argument("winner hook: an index of the trick");
  return static_cast<int>(v);
}

// A plugin's lead (R-LEAD): the house's checked lead(active, dealer, winner) with the
// active seats in order and the last trick's winner (None before the first trick), as
// bourre.game.state._new_trick asks it; its answer, the active seats once each (checked
// again here), is the next trick's order, the leader first.  The GIL must be held.
void lead_hook(const House& H, const int* active, int nactive, int dealer, int winner, int* out) {
  py::tuple act(static_cast<std::size_t>(nactive));
  for (int i = 0; i < nactive; ++i) act[static_cast<std::size_t>(i)] = py::int_(active[i]);
  py::int_ d(dealer);
  py::object w = winner < 0 ? py::none() : py::object(py::int_(winner));
  PyObject* got =
      PyObject_CallFunctionObjArgs(H.lead->o, act.ptr(), d.ptr(), w.ptr(), nullptr);
  if (!got) throw py::error_already_set();
  const py::object answer = py::reinterpret_steal<py::object>(got);
  u32 in = 0, seen = 0;
  for (int i = 0; i < nactive; ++i) in |= u32{1} << active[i];
  const bool shaped = PyTuple_Check(got) && PyTuple_GET_SIZE(got) == nactive;
  for (int i = 0; shaped && i < nactive; ++i) {
    PyObject* x = PyTuple_GET_ITEM(got, i);
    int over = 0;
    const long v = PyLong_Check(x) ? PyLong_AsLongAndOverflow(x, &over) : -1;
    if (over || v < 0 || v >= MAX_SEATS || !((in >> v) & 1) || ((seen >> v) & 1)) break;
    seen |= u32{1} << v;
    out[i] = static_cast<int>(v);
  }
  if (!shaped || seen != in) {
    throw std::invalid_argument("lead hook: the active seats once each, in a tuple");
  }
}

// A plugin's cinch (bourre.kernel.hooks.cinch_hook): asked for every card as
// bourre.game.legal.legal_play asks it, with the hand (sorted), the trick so far, trump,
// the cards the player knows out (a frozenset: played this deal and its own discards not
// returned, R-SURE), its tricks, whether it plays last, and the ``ordinary`` legal cards
// as a mask; the answer is 0 (no cinch: the ordinary cards) or the legal cards as a mask
// within them (a cinch); false when its ruling is not the kernel's to play (cards not in
// the hand's order).  The GIL must be held.
bool cinch_hook(const House& H, u64 held, u64 ordinary, const int* tcards, int tlen, int trump,
                u64 known, int won, bool last, u64& legal, bool& cinch) {
  py::tuple hand(static_cast<std::size_t>(popcount(held)));
  std::size_t i = 0;
  for (u64 m = held; m; m &= m - 1) hand[i++] = py::int_(lowest(m));
  py::tuple trick(static_cast<std::size_t>(tlen));
  for (int k = 0; k < tlen; ++k) trick[static_cast<std::size_t>(k)] = py::int_(tcards[k]);
  const py::object out = py::reinterpret_steal<py::object>(PyFrozenSet_New(nullptr));
  if (!out) throw py::error_already_set();
  for (u64 m = known; m; m &= m - 1) {
    const py::int_ c(lowest(m));
    if (PySet_Add(out.ptr(), c.ptr()) < 0) throw py::error_already_set();
  }
  py::int_ t(trump), w(won), ob(static_cast<unsigned long long>(ordinary));
  py::bool_ l(last);
  PyObject* got = PyObject_CallFunctionObjArgs(H.cinch_rule->o, hand.ptr(), trick.ptr(), t.ptr(),
                                               out.ptr(), w.ptr(), l.ptr(), ob.ptr(), nullptr);
  if (!got) throw py::error_already_set();
  const py::object answer = py::reinterpret_steal<py::object>(got);
  if (got == Py_None) return false;
  int over = 0;
  const long long v = PyLong_Check(got) ? PyLong_AsLongLongAndOverflow(got, &over) : -1;
  if (over || v < 0 || (static_cast<u64>(v) & ~ordinary)) {
    throw std::invalid_argument("cinch hook: 0 or a mask of cards within the ordinary legal ones");
  }
  cinch = v != 0;
  legal = cinch ? static_cast<u64>(v) : ordinary;
  return true;
}

// A plugin's payout (bourre.kernel.hooks.money_hook) instead of pay_out: the house's
// checked payout called through Python with the pot at stake P (1/D chips), the active
// seats in order and each seat's tricks; its answer (winner or -1, carried, bourre count,
// bourre mask, exempt mask, pot after, each seat's change of balance...) sets the
// balances, the pot and the exemptions from the next ante (R-ANTE) as pay_out does;
// false, nothing changed, when it is not the kernel's to hold.  The GIL must be held.
bool money_hook(const House& H, const int* active, int nactive, const int* won, i128 P,
                i128* bal, i128& pot, bool* exempt, int& nbourre, int& carried, Outcome& out) {
  const int n = H.n;
  py::list act(static_cast<std::size_t>(nactive));  // (new lists: PlayResult's own)
  for (int i = 0; i < nactive; ++i) act[static_cast<std::size_t>(i)] = py::int_(active[i]);
  py::list wn(static_cast<std::size_t>(n));
  for (int s = 0; s < n; ++s) wn[static_cast<std::size_t>(s)] = py::int_(won[s]);
  py::int_ stake = to_py(P);
  PyObject* got =
      PyObject_CallFunctionObjArgs(H.money->o, stake.ptr(), act.ptr(), wn.ptr(), nullptr);
  if (!got) throw py::error_already_set();
  const py::object answer = py::reinterpret_steal<py::object>(got);
  if (got == Py_None) return false;
  if (!PyTuple_Check(got) || PyTuple_GET_SIZE(got) != 6 + n) {
    throw std::invalid_argument("money hook: a tuple of 6 + n ints");
  }
  i128 v[6 + MAX_SEATS];
  for (int i = 0; i < 6 + n; ++i) {
    if (!hook_int(PyTuple_GET_ITEM(got, i), v[i])) return false;
  }
  const i128 bmask = v[3], emask = v[4];
  if (v[0] < -1 || v[0] >= n || bmask < 0 || bmask >= (i128{1} << n) || emask < 0 ||
      emask >= (i128{1} << n) || v[2] < 0) {
    throw std::invalid_argument("money hook: a seat or mask out of range");
  }
  if (v[5] < 0) return false;  // a pot below nothing: the Python rules' to carry
  i128 after[MAX_SEATS];
  for (int s = 0; s < n; ++s) {
    after[s] = bal[s];
    if (!add_to(after[s], v[6 + s])) return false;
  }
  for (int s = 0; s < n; ++s) {
    bal[s] = after[s];
    exempt[s] = (emask >> s) & 1;
  }
  pot = v[5];
  out.winner = static_cast<int>(v[0]);
  carried = v[1] ? 1 : 0;
  nbourre = static_cast<int>(std::min<i128>(v[2], 1 << 20));
  out.bourre = static_cast<u32>(bmask);
  return true;
}

// -- the per-hand hooks -----------------------------------------------------------------

// A plugin's hand_antes (bourre.kernel.hooks.ante_hook): called with the previous hand as
// the kernel keeps it (the hook rebuilds the HandOutcome the Python state passes) and the
// dealer; its n amounts in 1/D chips, each >= 0.  The GIL must be held.
bool ante_hook(const House& H, i128 last_pot, const int* active, int nactive, const int* won,
               int dealer, i128* out) {
  const int n = H.n;
  py::list act(static_cast<std::size_t>(last_pot < 0 ? 0 : nactive));
  py::list wn(static_cast<std::size_t>(last_pot < 0 ? 0 : n));
  if (last_pot >= 0) {
    for (int i = 0; i < nactive; ++i) act[static_cast<std::size_t>(i)] = py::int_(active[i]);
    for (int s = 0; s < n; ++s) wn[static_cast<std::size_t>(s)] = py::int_(won[s]);
  }
  py::int_ stake = to_py(last_pot < 0 ? -1 : last_pot);
  py::int_ d(dealer);
  PyObject* got = PyObject_CallFunctionObjArgs(H.antes->o, stake.ptr(), act.ptr(), wn.ptr(),
                                               d.ptr(), nullptr);
  if (!got) throw py::error_already_set();
  const py::object answer = py::reinterpret_steal<py::object>(got);
  if (got == Py_None) return false;
  if (!PyTuple_Check(got) || PyTuple_GET_SIZE(got) != n) {
    throw std::invalid_argument("ante hook: a tuple of n ints");
  }
  for (int s = 0; s < n; ++s) {
    if (!hook_int(PyTuple_GET_ITEM(got, s), out[s])) return false;
    if (out[s] < 0) throw std::invalid_argument("ante hook: an amount below 0");
  }
  return true;
}

// A plugin's play_ante (bourre.kernel.hooks.play_ante_hook), once a hand when the decisions
// are over, as the Python state asks it.  The GIL must be held.
bool play_ante_hook(const House& H, i128& x) {
  PyObject* got = PyObject_CallNoArgs(H.play_antes->o);
  if (!got) throw py::error_already_set();
  const py::object answer = py::reinterpret_steal<py::object>(got);
  if (got == Py_None) return false;
  if (!hook_int(got, x)) return false;
  if (x < 0) throw std::invalid_argument("play ante hook: an amount below 0");
  return true;
}

// A plugin's next_dealer (bourre.kernel.hooks.dealer_hook): (seat, marks after) with the
// marks a mask, -1 when they are not bools the kernel holds.  The GIL must be held.
int dealer_hook(const House& H, int dealer, u32& marks, bool& held) {
  py::int_ d(dealer), m(static_cast<long>(marks));
  PyObject* got = PyObject_CallFunctionObjArgs(H.dealers->o, d.ptr(), m.ptr(), nullptr);
  if (!got) throw py::error_already_set();
  const py::object answer = py::reinterpret_steal<py::object>(got);
  if (!PyTuple_Check(got) || PyTuple_GET_SIZE(got) != 2) {
    throw std::invalid_argument("dealer hook: a tuple (seat, marks)");
  }
  int over = 0;
  PyObject* a = PyTuple_GET_ITEM(got, 0);
  PyObject* b = PyTuple_GET_ITEM(got, 1);
  const long s = PyLong_Check(a) ? PyLong_AsLongAndOverflow(a, &over) : -1;
  if (over || s < 0 || s >= H.n) throw std::invalid_argument("dealer hook: a seat at the table");
  const long k = PyLong_Check(b) ? PyLong_AsLongAndOverflow(b, &over) : -2;
  if (over || k < -1 || k >= (1L << H.n)) throw std::invalid_argument("dealer hook: a mask of seats or -1");
  held = k >= 0;
  marks = held ? static_cast<u32>(k) : 0;
  return static_cast<int>(s);
}

// A plugin's settle (bourre.kernel.hooks.settle_hook): the balances and the pot in 1/D
// chips; its answer, the checked settlement's (final balances, places): two lists of n.
PyObject* settle_hook(const House& H, const i128* bal, i128 pot) {
  const int n = H.n;
  py::list b(static_cast<std::size_t>(n));
  for (int s = 0; s < n; ++s) b[static_cast<std::size_t>(s)] = to_py(bal[s]);
  py::int_ p = to_py(pot);
  PyObject* got = PyObject_CallFunctionObjArgs(H.settles->o, b.ptr(), p.ptr(), nullptr);
  if (!got) throw py::error_already_set();
  py::object answer = py::reinterpret_steal<py::object>(got);
  if (!PyTuple_Check(got) || PyTuple_GET_SIZE(got) != 2 ||
      !PyList_Check(PyTuple_GET_ITEM(got, 0)) || !PyList_Check(PyTuple_GET_ITEM(got, 1)) ||
      PyList_GET_SIZE(PyTuple_GET_ITEM(got, 0)) != n ||
      PyList_GET_SIZE(PyTuple_GET_ITEM(got, 1)) != n) {
    throw std::invalid_argument("settle hook: a tuple (n balances, n places) of lists");
  }
  return answer.release().ptr();
}


// -- a plugin's decisions or draw (bourre.kernel.decisions) ------------------------------

namespace {

// One int of an answer within [lo, hi]; false otherwise (not the kernel's to hold).
bool small_int(PyObject* o, long lo, long hi, long& out) {
  if (!PyLong_Check(o)) return false;
  int over = 0;
  out = PyLong_AsLongAndOverflow(o, &over);
  if (out == -1 && PyErr_Occurred()) throw py::error_already_set();
  return !over && out >= lo && out <= hi;
}

// A mask of cards (an int below 2^52).
bool card_mask(PyObject* o, u64& out) {
  if (!PyLong_Check(o)) return false;
  int over = 0;
  const long long v = PyLong_AsLongLongAndOverflow(o, &over);
  if (v == -1 && PyErr_Occurred()) throw py::error_already_set();
  if (over || v < 0 || (static_cast<u64>(v) >> 52)) return false;
  out = static_cast<u64>(v);
  return true;
}

// decisions.Turned read into ``t``: 1 a turn, 0 over, -1 not the kernel's, HOOK_REFUSED
// the answer refused (the rules' RuleViolation, the hand unchanged).
int read_turn(PyObject* got, HookTurn& t) {
  if (got == Py_None) return 0;
  if (got == Py_False) return -1;
  if (PyExceptionInstance_Check(got)) return HOOK_REFUSED;
  if (!PyTuple_Check(got) || PyTuple_GET_SIZE(got) != 7) {
    throw std::invalid_argument("decisions hook: a turn tuple, None or False");
  }
  long v[7] = {};
  // (``playing`` indexes the heuristic's chart row: fewer than MAX_SEATS)
  const long hi[7] = {2, MAX_SEATS - 1, 1, 52, 0, MAX_SEATS, MAX_SEATS - 1};
  for (int i = 0; i < 7; ++i) {
    if (i == 4) continue;
    if (!small_int(PyTuple_GET_ITEM(got, i), i == 0 ? 1 : 0, hi[i], v[i])) return -1;
  }
  if (!card_mask(PyTuple_GET_ITEM(got, 4), t.cards)) return -1;
  t.kind = static_cast<int>(v[0]);
  t.seat = static_cast<int>(v[1]);
  t.forced = v[2] != 0;
  t.limit = static_cast<int>(v[3]);
  t.decided = static_cast<int>(v[5]);
  t.playing = static_cast<int>(v[6]);
  return 1;
}

int answered(PyObject* got, HookTurn& t) {
  if (!got) throw py::error_already_set();
  const py::object answer = py::reinterpret_steal<py::object>(got);
  return read_turn(got, t);
}

}  // namespace

int decisions_begin(const House& H, int number, int dealer, const std::uint8_t* deck,
                    i128 pot_before, i128 pot, const u32* words, std::shared_ptr<PyRef>& run,
                    HookTurn& t) {
  py::int_ num(number), d(dealer);
  py::bytes cards(reinterpret_cast<const char*>(deck), 52);
  py::int_ p0 = to_py(pot_before), p = to_py(pot);
  py::object w = py::none();  // (none: an unseeded state's scripted reshuffle)
  if (words) {
    py::tuple ws(4);
    for (int i = 0; i < 4; ++i) ws[static_cast<std::size_t>(i)] = py::int_(words[i]);
    w = std::move(ws);
  }
  PyObject* got = PyObject_CallFunctionObjArgs(H.decisions->o, num.ptr(), d.ptr(), cards.ptr(),
                                               p0.ptr(), p.ptr(), w.ptr(), nullptr);
  if (!got) throw py::error_already_set();
  const py::object answer = py::reinterpret_steal<py::object>(got);
  if (!PyTuple_Check(got) || PyTuple_GET_SIZE(got) != 2) {
    throw std::invalid_argument("decisions hook: (run, turn)");
  }
  run = std::make_shared<PyRef>(PyTuple_GET_ITEM(got, 0));
  return read_turn(PyTuple_GET_ITEM(got, 1), t);
}

int decisions_play(const PyRef& run, bool play, HookTurn& t) {
  return answered(PyObject_CallOneArg(run.o, play ? Py_True : Py_False), t);
}

int decisions_exchange(const PyRef& run, const int* cards, int k, HookTurn& t) {
  py::tuple discards(static_cast<std::size_t>(k));
  for (int i = 0; i < k; ++i) discards[static_cast<std::size_t>(i)] = py::int_(cards[i]);
  return answered(PyObject_CallOneArg(run.o, discards.ptr()), t);
}

int decisions_resume(PyObject* made, PyObject* turn, std::shared_ptr<PyRef>& run, HookTurn& t) {
  run = std::make_shared<PyRef>(made);
  return read_turn(turn, t);
}

int decisions_told(PyObject* told, const std::vector<std::vector<int>>& hands,
                   std::shared_ptr<PyRef>& run, HookTurn& t) {
  py::list hs(hands.size());
  for (std::size_t s = 0; s < hands.size(); ++s) {
    py::list one(hands[s].size());
    for (std::size_t i = 0; i < hands[s].size(); ++i) one[i] = py::int_(hands[s][i]);
    hs[s] = std::move(one);
  }
  PyObject* got = PyObject_CallOneArg(told, hs.ptr());
  if (!got) throw py::error_already_set();
  const py::object answer = py::reinterpret_steal<py::object>(got);
  if (!PyTuple_Check(got) || PyTuple_GET_SIZE(got) != 2) {
    throw std::invalid_argument("told hook: (run, turn)");
  }
  run = std::make_shared<PyRef>(PyTuple_GET_ITEM(got, 0));
  return read_turn(PyTuple_GET_ITEM(got, 1), t);
}

int decisions_drawn(const PyRef& run, const std::vector<int>& cards, const std::vector<int>& drew,
                    HookTurn& t) {
  py::tuple c(cards.size()), d(drew.size());
  for (std::size_t i = 0; i < cards.size(); ++i) c[i] = py::int_(cards[i]);
  for (std::size_t i = 0; i < drew.size(); ++i) d[i] = py::int_(drew[i]);
  return answered(PyObject_CallMethod(run.o, "drawn", "OO", c.ptr(), d.ptr()), t);
}

bool decisions_stocked(const PyRef& run, const std::uint8_t* stock, int k, const u32* words) {
  py::bytes cards(reinterpret_cast<const char*>(stock), static_cast<std::size_t>(k));
  py::tuple ws(4);
  for (int i = 0; i < 4; ++i) ws[static_cast<std::size_t>(i)] = py::int_(words[i]);
  PyObject* got = PyObject_CallMethod(run.o, "stocked", "OO", cards.ptr(), ws.ptr());
  if (!got) throw py::error_already_set();
  const py::object answer = py::reinterpret_steal<py::object>(got);
  return got == Py_True;
}

int decisions_forced(const PyRef& run) {
  const py::object why = py::reinterpret_borrow<py::object>(run.o).attr("forced");
  const std::string rule = py::isinstance<py::str>(why) ? why.cast<std::string>() : "";
  return rule == "R-ACE-UP" ? 1 : rule == "R-LAST-STANDS" ? 2 : 3;  // (stepper.h's Forced)
}

std::shared_ptr<PyRef> decisions_copy(const PyRef& run) {
  PyObject* got = PyObject_CallMethod(run.o, "copy", nullptr);
  if (!got) throw py::error_already_set();
  const py::object copy = py::reinterpret_steal<py::object>(got);
  return std::make_shared<PyRef>(got);
}

bool decisions_end(const PyRef& run, int n, HookEnd& e) {
  PyObject* got = PyObject_CallOneArg(run.o, Py_None);
  if (!got) throw py::error_already_set();
  const py::object answer = py::reinterpret_steal<py::object>(got);
  if (got == Py_False) return false;
  if (!PyTuple_Check(got) || PyTuple_GET_SIZE(got) != 5) {
    throw std::invalid_argument("decisions hook: the hand's end (active, cards, discards, decisions, words)");
  }
  PyObject* active = PyTuple_GET_ITEM(got, 0);
  PyObject* cards = PyTuple_GET_ITEM(got, 1);
  PyObject* discards = PyTuple_GET_ITEM(got, 2);
  PyObject* told = PyTuple_GET_ITEM(got, 3);
  PyObject* words = PyTuple_GET_ITEM(got, 4);
  if (!PyTuple_Check(active) || !PyTuple_Check(cards) || !PyTuple_Check(discards) ||
      !PyTuple_Check(told) || PyTuple_GET_SIZE(cards) != n || PyTuple_GET_SIZE(discards) != n) {
    return false;
  }
  const Py_ssize_t na = PyTuple_GET_SIZE(active), nt = PyTuple_GET_SIZE(told);
  if (na < 1 || na > n || nt % 3 || nt / 3 > MAX_SEATS) return false;
  e.nactive = static_cast<int>(na);
  u32 seen = 0;
  for (int i = 0; i < e.nactive; ++i) {
    long s = 0;
    if (!small_int(PyTuple_GET_ITEM(active, i), 0, n - 1, s) || (seen >> s & 1)) return false;
    seen |= u32{1} << s;
    e.active[i] = static_cast<int>(s);
  }
  u64 placed = 0;
  for (int s = 0; s < n; ++s) {
    if (!card_mask(PyTuple_GET_ITEM(cards, s), e.cards[s]) ||
        !card_mask(PyTuple_GET_ITEM(discards, s), e.discards[s]) || (placed & e.cards[s])) {
      return false;
    }
    placed |= e.cards[s];
  }
  e.ndec = static_cast<int>(nt / 3);
  for (int i = 0; i < e.ndec; ++i) {
    long v = 0;
    for (int j = 0; j < 3; ++j) {
      if (!small_int(PyTuple_GET_ITEM(told, 3 * i + j), 0, j == 0 ? n - 1 : j == 1 ? 1 : 52, v)) {
        return false;
      }
      e.dec[i][j] = static_cast<int>(v);
    }
  }
  e.reshuffled = words != Py_None;
  if (e.reshuffled) {
    if (!PyTuple_Check(words) || PyTuple_GET_SIZE(words) != 4) return false;
    for (int i = 0; i < 4; ++i) {
      PyObject* x = PyTuple_GET_ITEM(words, i);
      if (!PyLong_Check(x)) return false;
      const unsigned long v = PyLong_AsUnsignedLong(x);
      if (v == static_cast<unsigned long>(-1) && PyErr_Occurred()) throw py::error_already_set();
      if (v >> 32) return false;
      e.words[i] = static_cast<u32>(v);
    }
  }
  return true;
}

}  // namespace bourre::kernel
