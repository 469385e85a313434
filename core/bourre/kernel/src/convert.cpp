// bourre.kernel, convert: amounts to and from Python ints and Fractions (money.h's), the
// house and the bots read from the wrapper's dicts (house.h's), every field checked.

#include "convert.h"
#include "hooks.h"
#include <algorithm>
#include <stdexcept>
#include <string>

namespace bourre::kernel {

py::int_ to_py(i128 x) {
  if (x >= static_cast<i128>(INT64_MIN) && x <= static_cast<i128>(INT64_MAX)) {
    return py::int_(static_cast<i64>(x));
  }
  const bool neg = x < 0;
  unsigned __int128 u = neg ? static_cast<unsigned __int128>(-(x + 1)) + 1
                            : static_cast<unsigned __int128>(x);
  std::string digits;
  while (u) {
    digits.push_back(static_cast<char>('0' + static_cast<int>(u % 10)));
    u /= 10;
  }
  if (neg) digits.push_back('-');
  std::reverse(digits.begin(), digits.end());
  return py::reinterpret_steal<py::int_>(PyLong_FromString(digits.c_str(), nullptr, 10));
}

i128 from_py(const py::int_& v) {
  const i64 x = v.cast<i64>();  // the wrapper keeps amounts within 2^62
  return static_cast<i128>(x);
}

// ``fraction`` must be a type when the kernel makes its instances itself (``fast``).
void check_fraction(const py::object& fraction, bool fast) {
  if (fast && !PyType_Check(fraction.ptr())) {
    throw std::invalid_argument("fraction: a type (Fraction) when fast");
  }
}

i128 gcd128(i128 a, i128 b) {
  if (a < 0) a = -a;
  while (b) {
    const i128 t = a % b;
    a = b;
    b = t;
  }
  return a;
}

// The Fraction p/q of coprime ints (q > 1): by ``fraction(p, q)``, or, with ``fast``
// (the wrapper checked that this Python's Fraction keeps its terms in the slots
// _numerator and _denominator), made as object.__new__(Fraction) with those slots set:
// a quarter of the normalising constructor's cost.
py::object make_fraction(const py::object& fraction, bool fast, py::int_ p, py::int_ q) {
  if (!fast) return fraction(std::move(p), std::move(q));
  static PyObject* const no_args = PyTuple_New(0);
  static PyObject* const num_name = PyUnicode_InternFromString("_numerator");
  static PyObject* const den_name = PyUnicode_InternFromString("_denominator");
  auto* type = reinterpret_cast<PyTypeObject*>(fraction.ptr());
  py::object f = py::reinterpret_steal<py::object>(PyBaseObject_Type.tp_new(type, no_args, nullptr));
  if (!f || PyObject_SetAttr(f.ptr(), num_name, p.ptr()) < 0 ||
      PyObject_SetAttr(f.ptr(), den_name, q.ptr()) < 0) {
    throw py::error_already_set();
  }
  return f;
}

House read_house_fields(const py::dict& d);

// The house as the wrapper describes it (a dict), every field checked; a field of the
// wrong type or out of range is a ValueError.
House read_house(const py::dict& d) {
  try {
    return read_house_fields(d);
  } catch (const py::cast_error& e) {
    throw std::invalid_argument(std::string("house: a field of the wrong type or size: ") + e.what());
  }
}

House read_house_stepped(const py::dict& d, const char* use) {
  House h = read_house(d);
  if (h.decisions) {
    throw std::invalid_argument(std::string(use) +
                                ": a plugin's decisions or draw (decisions_hook) are asked by"
                                " whole sessions and the stepped state only");
  }
  return h;
}

House read_house_fields(const py::dict& d) {
  House h;
  h.n = d["players"].cast<int>();
  h.h = d["hand_size"].cast<int>();
  h.hands = d["hands"].cast<int>();
  h.first_dealer = d["first_dealer"].cast<int>();
  h.double_ante = d["double_ante"].cast<bool>();
  h.simultaneous = d["simultaneous"].cast<bool>();
  h.optional_undertrump = d["optional_undertrump"].cast<bool>();
  h.cinch = d["cinch"].cast<bool>();
  h.pot_limit = d["pot_limit"].cast<bool>();
  h.limit = from_py(d["limit"].cast<py::int_>());
  h.ante = from_py(d["ante"].cast<py::int_>());
  h.balance = from_py(d["balance"].cast<py::int_>());
  const i64 scale = d["scale"].cast<i64>();
  if (scale < 1 || scale >= LIMIT) throw std::invalid_argument("scale: 1 to 2^62");
  h.scale = static_cast<double>(scale);
  if (h.limit <= -LIMIT || h.limit >= LIMIT || h.ante <= -LIMIT || h.ante >= LIMIT ||
      h.balance <= -LIMIT || h.balance >= LIMIT) {
    throw std::invalid_argument("limit, ante and balance: within 2^62 (in 1/D chips)");
  }
  if (h.n < 2 || h.n > MAX_SEATS) throw std::invalid_argument("players: 2 to 8 (R-SEAT)");
  // (the Stepper's arrays hold up to 5 cards a hand and 5 tricks: a plugin's size 1..5)
  if (h.h < 1 || h.h > 5) throw std::invalid_argument("hand_size: 1 to 5 (R-DEAL-SIZE)");
  if (h.n * h.h > 52) throw std::invalid_argument("too many cards to deal (R-DEAL)");
  if (h.hands < 1 || h.hands > 10000) throw std::invalid_argument("hands: 1 to 10000 (R-SESSION)");
  if (h.first_dealer < -1 || h.first_dealer >= h.n) {
    throw std::invalid_argument("first_dealer: a seat or -1 (R-DEALER)");
  }
  if (h.ante <= 0 || (h.pot_limit && h.limit <= 0) || h.scale < 1.0) {
    throw std::invalid_argument("ante and limit must be positive (R-FIRST-POT, R-POT-LIMIT)");
  }
  if (d.contains("money_hook") && !d["money_hook"].is_none()) {
    const py::object hook = d["money_hook"];
    if (!PyCallable_Check(hook.ptr())) throw std::invalid_argument("money_hook: a callable");
    h.money = std::make_shared<PyRef>(hook.ptr());
  }
  if (d.contains("follow_hook") && !d["follow_hook"].is_none()) {
    const py::object hook = d["follow_hook"];
    if (!PyCallable_Check(hook.ptr())) throw std::invalid_argument("follow_hook: a callable");
    h.follow = std::make_shared<PyRef>(hook.ptr());
  }
  if (d.contains("winner_hook") && !d["winner_hook"].is_none()) {
    const py::object hook = d["winner_hook"];
    if (!PyCallable_Check(hook.ptr())) throw std::invalid_argument("winner_hook: a callable");
    h.winner = std::make_shared<PyRef>(hook.ptr());
  }
  if (d.contains("lead_hook") && !d["lead_hook"].is_none()) {
    const py::object hook = d["lead_hook"];
    if (!PyCallable_Check(hook.ptr())) throw std::invalid_argument("lead_hook: a callable");
    h.lead = std::make_shared<PyRef>(hook.ptr());
  }
  if (d.contains("cinch_hook") && !d["cinch_hook"].is_none()) {
    const py::object hook = d["cinch_hook"];
    if (!PyCallable_Check(hook.ptr())) throw std::invalid_argument("cinch_hook: a callable");
    h.cinch_rule = std::make_shared<PyRef>(hook.ptr());
  }
  if (d.contains("penalty_hook") && !d["penalty_hook"].is_none()) {
    const py::object hook = d["penalty_hook"];
    if (!PyCallable_Check(hook.ptr())) throw std::invalid_argument("penalty_hook: a callable");
    h.penalty = std::make_shared<PyRef>(hook.ptr());
  }
  // the per-hand hooks (bourre.kernel.hooks): the ante's two calls, the next dealer, the
  // settlement
  const auto per_hand = [&d](const char* key, std::shared_ptr<PyRef>& into) {
    if (!d.contains(key) || d[key].is_none()) return;
    const py::object hook = d[key];
    if (!PyCallable_Check(hook.ptr())) throw std::invalid_argument(std::string(key) + ": a callable");
    into = std::make_shared<PyRef>(hook.ptr());
  };
  per_hand("ante_hook", h.antes);
  per_hand("play_ante_hook", h.play_antes);
  per_hand("dealer_hook", h.dealers);
  per_hand("settle_hook", h.settles);
  per_hand("decisions_hook", h.decisions);  // (a plugin's decisions or draw: bourre.kernel.decisions)
  if (static_cast<bool>(h.antes) != static_cast<bool>(h.play_antes)) {
    throw std::invalid_argument("ante_hook and play_ante_hook: both or neither");
  }
  return h;
}

Bots read_bots_fields(const House& h, const py::list& seats, bool shared);

// Each seat's bot (kind, play_threshold, per_opponent, keep_trump), checked; a field of
// the wrong type is a ValueError.
Bots read_bots(const House& h, const py::list& seats, bool shared) {
  try {
    return read_bots_fields(h, seats, shared);
  } catch (const py::cast_error& e) {
    throw std::invalid_argument(std::string("bots: a field of the wrong type: ") + e.what());
  }
}

Bots read_bots_fields(const House& h, const py::list& seats, bool shared) {
  Bots b;
  b.shared = shared;
  b.n = h.n;
  if (static_cast<int>(seats.size()) != h.n) throw std::invalid_argument("one bot a seat");
  for (int s = 0; s < h.n; ++s) {
    const auto t = seats[static_cast<std::size_t>(s)].cast<py::tuple>();
    if (t.size() != 4) throw std::invalid_argument("a bot is (kind, threshold, per_opponent, keep)");
    b.kind[s] = t[0].cast<int>();
    b.play_threshold[s] = t[1].cast<double>();
    b.per_opponent[s] = t[2].cast<double>();
    b.keep_trump[s] = t[3].cast<int>();
    if (b.kind[s] != RANDOM && b.kind[s] != HEURISTIC) throw std::invalid_argument("bot kind");
    if (b.keep_trump[s] < 2 || b.keep_trump[s] > 14) throw std::invalid_argument("keep_trump");
  }
  return b;
}

}  // namespace bourre::kernel
