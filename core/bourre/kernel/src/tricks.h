// bourre.kernel, tricks: who takes a trick (bourre_variants.standard.tricks): R-TRICK.
// Held to its Python twin by tests/kernel/test_rule_twins.py (_kernel.rules); see rules.h.
#pragma once

#include "obligations.h"

namespace bourre::kernel {

// R-TRICK (tricks.trick_winner): the position of the card that takes ``trick`` (k cards,
// distinct, the first led), read as the engines read it card by card (Facts).
inline int trick_winner(const int* trick, int k, int trump) {
  Facts f;
  for (int p = 0; p < k; ++p) f.add(trick[p], p, trump);
  return f.winner();
}

}  // namespace bourre::kernel
