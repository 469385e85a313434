// bourre.kernel, cinch: the cinch (bourre_variants.standard.cinch): R-SURE, R-EQUIV,
// R-CINCH-LEAD, R-CINCH-FOLLOW, R-CINCH-LAST.
// Held to its Python twin by tests/kernel/test_rule_twins.py (_kernel.rules); see rules.h.
#pragma once

#include "obligations.h"

namespace bourre::kernel {

// R-SURE: won tricks plus master trumps held reach 3 (StandardCinch.has_cinch).
inline bool has_cinch(u64 hand, int trump, u64 known, int won) {
  if (won >= 3) return true;
  int need = 3 - won;
  const int low = trump * 13;
  for (int c = low + 12; c >= low; --c) {
    if ((hand >> c) & 1) {
      if (!--need) return true;
    } else if (!((known >> c) & 1)) {
      return false;
    }
  }
  return false;
}

// R-EQUIV: the highest allowed trump and those equivalent to it (cinch.highest_trumps).
inline u64 highest_trumps(u64 allowed, u64 hand, int trump, u64 known) {
  const int low = trump * 13;
  int c = low + 12;
  while (c >= low && !((allowed >> c) & 1)) --c;
  u64 out = u64{1} << c;
  for (--c; c >= low; --c) {
    if ((allowed >> c) & 1) {
      out |= u64{1} << c;
    } else if (!(((known | hand) >> c) & 1)) {
      break;
    }
  }
  return out;
}

// R-CINCH-LEAD, R-CINCH-FOLLOW, R-CINCH-LAST (StandardCinch.narrow).
inline u64 cinch_narrow(u64 legal, u64 hand, int tlen, int trump, u64 known, bool last) {
  if (last && tlen) return legal;  // R-CINCH-LAST: the ordinary obligations only
  const u64 trumps = legal & (SUIT << (trump * 13));
  if (!trumps) return legal;  // following suit keeps priority (R-CINCH-FOLLOW)
  return highest_trumps(trumps, hand, trump, known);
}

}  // namespace bourre::kernel
