// bourre.kernel, legal: the legal cards (bourre.game.legal.legal_play): the obligations
// narrowed by the cinch, R-LEAD ... R-CINCH-LAST, R-NO-CINCH.
// Held to its Python twin by tests/kernel/test_rule_twins.py (_kernel.rules); see rules.h.
#pragma once

#include "cinch.h"
#include <utility>

namespace bourre::kernel {

// R-LEAD, R-FOLLOW ... R-CINCH-LAST, R-NO-CINCH (game.legal.legal_play): the legal cards of
// ``held`` (never none) under the obligations ``lm``, narrowed by the cinch when the
// player has one (``cinch``, asked only when ``may_cinch``: an engine that knows it cannot
// have one yet skips the count).  ``known()``: the cards the player knows no opponent
// holds (read only for the cinch).
template <class Known>
inline u64 cinch_legal(const House& H, u64 held, u64 lm, int tlen, int trump, Known&& known,
                       int won, bool last, bool may_cinch, bool& cinch) {
  cinch = false;
  if (H.cinch && may_cinch) {
    const u64 kn = known();
    if (has_cinch(held, trump, kn, won)) {
      cinch = true;
      lm = cinch_narrow(lm, held, tlen, trump, kn, last);
    }
  }
  lm &= held;
  return lm ? lm : held;  // (never empty: the legal set is within a non-empty hand)
}

// The same, the obligations ``obliged`` by the house's follow rule.
template <class Known>
inline u64 legal_cards(const House& H, u64 held, const Facts& f, int tlen, int trump,
                       Known&& known, int won, bool last, bool may_cinch, bool& cinch) {
  return cinch_legal(H, held, obliged(H, held, f, tlen, trump), tlen, trump,
                     std::forward<Known>(known), won, last, may_cinch, cinch);
}

}  // namespace bourre::kernel
