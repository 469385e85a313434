// bourre.kernel, lead: who leads and in what order the others play (bourre_variants.standard.lead):
// R-LEAD.
// Held to its Python twin by tests/kernel/test_rule_twins.py (_kernel.rules); see rules.h.
#pragma once

#include "house.h"
#include <cstring>

namespace bourre::kernel {

// R-LEAD (lead.make_lead): a trick led by ``leader``, one of the ``active`` seats (kept
// clockwise from the dealer's left by the decisions), is played from the leader's place
// there on, clockwise.
// The active seats in turn, twice over, and each one's place among them (made
// once a hand, when the tricks start): the order of a trick led by any of them is
// ``around`` from its place, MAX_SEATS seats read (the first ``nactive`` are the trick's).
struct Rotation {
  int around[2 * MAX_SEATS] = {};
  int place[MAX_SEATS] = {};

  void set(const int* active, int nactive) {
    for (int i = 0; i < nactive; ++i) {
      around[i] = around[i + nactive] = active[i];
      place[active[i]] = i;
    }
  }

  void order(int leader, int* out) const {  // out: room for MAX_SEATS
    std::memcpy(out, around + place[leader], sizeof(int) * MAX_SEATS);
  }
};

// R-LEAD: the order of that trick, the leader first (``out``: room for MAX_SEATS).
inline void lead_order(const int* active, int nactive, int leader, int* out) {
  Rotation r;
  r.set(active, nactive);
  r.order(leader, out);
}

}  // namespace bourre::kernel
