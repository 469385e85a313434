// bourre.kernel, convert: Python's values and the kernel's: amounts as Python ints and
// Fractions and the house and the bots read (convert.cpp), and what Python gives
// read field by field (the worlds, the solver, inline here): a missing field or one of
// the wrong type a TypeError naming it, a value out of range a ValueError naming it.
#pragma once

#include "house.h"
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>
#include <stdexcept>
#include <string>
#include <vector>

namespace bourre::kernel {

namespace py = pybind11;

// An amount as a Python int, exact at any size.
py::int_ to_py(i128 x);
// An amount the wrapper gives (within 2^62: checked where it is read).
i128 from_py(const py::int_& v);
i128 gcd128(i128 a, i128 b);
// ``fraction`` must be a type when the kernel makes its instances itself (``fast``).
void check_fraction(const py::object& fraction, bool fast);
// The Fraction p/q of coprime ints (q > 1), by ``fraction(p, q)`` or, ``fast``, its slots set.
py::object make_fraction(const py::object& fraction, bool fast, py::int_ p, py::int_ q);

// The house as the wrapper describes it (a dict), every field checked; a field of the
// wrong type or out of range is a ValueError.
House read_house(const py::dict& d);
// The same for a use that steps the decisions itself (the worlds, advice's deals): a house
// whose decisions or draw is a plugin's is refused (whole sessions and the stepped state
// only).
House read_house_stepped(const py::dict& d, const char* use);
// Each seat's bot (kind, play_threshold, per_opponent, keep_trump), checked.
Bots read_bots(const House& h, const py::list& seats, bool shared);

// -- what Python gives, read field by field ------------------------------------------------
//
// Every entry below reads a dict the wrapper makes from a Python state; anything can be
// passed instead (the module is one import away), so each field is checked as it is
// read: a missing field or one of the wrong type is a TypeError naming it, a value out
// of range or inconsistent with the rest a ValueError naming it.  Nothing is read or
// written out of bounds whatever the dict holds, and the checks are made once, here,
// never in the search.

[[noreturn]] inline void bad(const char* what, const std::string& k, const std::string& why) {
  throw std::invalid_argument(std::string(what) + ": " + k + ": " + why);
}

template <typename T>
T field(const py::dict& w, const char* what, const char* k) {
  if (!w.contains(k)) throw py::type_error(std::string(what) + ": the field '" + k + "' is missing");
  try {
    return w[k].template cast<T>();
  } catch (const py::cast_error&) {
    throw py::type_error(std::string(what) + ": " + k + ": of the wrong type or too large");
  }
}

// The cards of a world: each placed at most once among the hands, the stock, the pile
// and the cards played (the rules move cards, never copy them: R-DECK).
struct Placed {
  const char* what;
  u64 seen = 0;
  int card(int c, const std::string& k) const {
    if (c < 0 || c >= 52) bad(what, k, "a card is 0 to 51");
    return c;
  }
  u64 place(const std::vector<int>& cards, const std::string& k) {
    u64 m = 0;
    for (int c : cards) {
      card(c, k);
      if ((seen >> c) & 1) bad(what, k, "card " + std::to_string(c) + " is placed twice");
      seen |= u64{1} << c;
      m |= u64{1} << c;
    }
    return m;
  }
};

// The seats of ``seats`` (at most n, each 0..n-1, none twice).
inline void check_seats(const char* what, const char* k, const std::vector<int>& seats, int n) {
  if (static_cast<int>(seats.size()) > n) bad(what, k, "more seats than players");
  u32 seen = 0;
  for (int s : seats) {
    if (s < 0 || s >= n) bad(what, k, "seat " + std::to_string(s) + " is not at the table");
    if ((seen >> s) & 1) bad(what, k, "seat " + std::to_string(s) + " twice");
    seen |= u32{1} << s;
  }
}

// ``seats`` is the order of play of a trick led by ``seats[0]`` (R-LEAD): the active
// seats in their order, from the leader.
inline bool is_rotation(const std::vector<int>& seats, const int* active, int nactive) {
  if (static_cast<int>(seats.size()) != nactive || !nactive) return false;
  int i = 0;
  while (i < nactive && active[i] != seats[0]) ++i;
  if (i == nactive) return false;
  for (int p = 0; p < nactive; ++p) {
    if (seats[static_cast<std::size_t>(p)] != active[(i + p) % nactive]) return false;
  }
  return true;
}

// ``seats`` holds the active seats once each, in any order (a plugin's lead, R-LEAD).
inline bool is_order(const std::vector<int>& seats, const int* active, int nactive) {
  if (static_cast<int>(seats.size()) != nactive || !nactive) return false;
  u32 in = 0, seen = 0;
  for (int i = 0; i < nactive; ++i) in |= u32{1} << active[i];
  for (int s : seats) {
    if (s < 0 || s >= MAX_SEATS || !((in >> s) & 1) || ((seen >> s) & 1)) return false;
    seen |= u32{1} << s;
  }
  return seen == in;
}

}  // namespace bourre::kernel
