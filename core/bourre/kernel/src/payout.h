// bourre.kernel, payout: the money (bourre_variants.standard.payout, double_ante, pot_limit): the
// antes, the penalty, the payout (payout.cpp), the next dealer, the settlement; R-FIRST-POT,
// R-ANTE, R-DOUBLE-ANTE, R-PENALTY, R-POT-LIMIT, R-WIN, R-SOLE, R-BOURRE, R-DEALER, R-SETTLE.
// Held to its Python twin by tests/kernel/test_rule_twins.py (_kernel.rules); see rules.h.
#pragma once

#include "house.h"
#include <algorithm>

namespace bourre::kernel {

// The outcome of a hand (rules.HandOutcome's winner and bourre): the seat that took the
// pot at stake (-1: none, a tie carried it) and the bourre seats as a mask.
struct Outcome {
  int winner = -1;
  u32 bourre = 0;
};

// R-FIRST-POT, R-ANTE (payout.StandardAnte.hand_antes), R-DOUBLE-ANTE (DoubleAnte): whether
// a seat antes this hand (``exempt``: bourre or tied for the most tricks last hand).
inline bool antes(const House& H, bool first, bool exempt) {
  return first || H.double_ante || !exempt;
}

// R-DOUBLE-ANTE (DoubleAnte.play_ante; StandardAnte.play_ante: none): the second ante of
// each player who plays.
inline i128 play_ante(const House& H) { return H.double_ante ? H.ante : 0; }

// R-PENALTY (payout.full_pot), R-POT-LIMIT (pot_limit: min(P, limit)): a bourre payment.
inline i128 penalty(const House& H, i128 P) { return H.pot_limit ? std::min(P, H.limit) : P; }

// R-DEALER (payout.make_next_dealer; no turn to deal is lost in the kernel's houses).
inline int next_dealer(int dealer, int n) { return dealer + 1 < n ? dealer + 1 : 0; }

// R-SETTLE (payout.settle): each final balance is balance + pot / n, its numerator over n
// in ``num``; the places, one more than the balances above (ties share one).
inline void settle(const i128* bal, int n, i128 pot, i128* num, int* place) {
  for (int s = 0; s < n; ++s) num[s] = bal[s] * n + pot;
  for (int s = 0; s < n; ++s) {
    int above = 0;
    for (int t = 0; t < n; ++t) above += num[t] > num[s];
    place[s] = above + 1;
  }
}

// R-WIN, R-SOLE, R-BOURRE (R-POT-LIMIT), R-ANTE exemptions (standard.payout.payout): see rules.cpp.
Outcome pay_out(const House& H, const int* active, int nactive, const int* won, bool sole,
                i128 P, i128* bal, i128& pot, bool* exempt, int& nbourre, int& carried,
                bool& lost);

}  // namespace bourre::kernel
