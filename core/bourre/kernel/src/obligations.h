// bourre.kernel, obligations: the ordinary obligations (bourre_variants.standard.obligations,
// optional_undertrump): what a trick so far says (Facts), R-FOLLOW, R-TRUMP, R-DISCARD,
// R-OPTIONAL-UNDERTRUMP, and the house's follow rule (obliged).
// Held to its Python twin by tests/kernel/test_rule_twins.py (_kernel.rules); see rules.h.
#pragma once

#include "house.h"

namespace bourre::kernel {

inline u64 above_card(u64 m, int c) { return c >= 51 ? 0 : (m >> (c + 1)) << (c + 1); }

// What the obligations read off the trick so far (obligations._facts), kept up to date
// card by card: the first card of the led suit, the highest card of the led suit
// (trumps, if trumps were led) and the highest trump when another suit was led (-1 if
// none), with the positions of those two cards (the trick's winner, R-TRICK).
struct Facts {
  int lo = -1, win = -1, top = -1, win_p = 0, top_p = -1;

  void add(int c, int p, int trump) {
    if (p == 0) {
      lo = suit_of(c) * 13;
      win = c;
      win_p = 0;
      top = top_p = -1;
    } else if (lo <= c && c < lo + 13) {
      if (c > win) {
        win = c;
        win_p = p;
      }
    } else if (suit_of(c) == trump && c > top) {
      top = c;
      top_p = p;
    }
  }

  // R-TRICK: the highest trump wins the trick; with no trump, the highest of the led suit.
  int winner() const { return top >= 0 ? top_p : win_p; }

  // The cards that, played next, would win the trick so far (not empty: R-TRICK): a
  // higher trump than the highest on it; with none on it, a higher card of the led suit
  // or, when the led suit is not trumps, any trump.
  u64 winning(int trump) const {
    const u64 trumps = SUIT << (13 * trump);
    if (top >= 0) return above_card(trumps, top);
    const u64 led = above_card(SUIT << lo, win);
    return lo == 13 * trump ? led : led | trumps;
  }

  // Whether card c, played next, would win the trick so far (winning).
  bool would_win(int c, int trump) const { return winning(trump) >> c & 1; }
};

// R-FOLLOW, R-TRUMP, R-DISCARD (obligations.follow), for a card after the lead (leading
// is free: R-LEAD).
inline u64 follow(u64 hand, const Facts& f, int trump) {
  const u64 led = hand & (SUIT << f.lo);
  if (led) {  // R-FOLLOW
    if (f.top >= 0) return led;  // trumped: any card of the led suit
    const u64 above = above_card(led, f.win);
    return above ? above : led;
  }
  const u64 trumps = hand & (SUIT << (trump * 13));
  if (!trumps) return hand;      // R-DISCARD
  if (f.top < 0) return trumps;  // R-TRUMP
  const u64 above = above_card(trumps, f.top);
  return above ? above : trumps;  // beat it, else under-trump (R-TRUMP)
}

// R-OPTIONAL-UNDERTRUMP (obligations.follow_optional_undertrump): unable to beat a trump
// on the trick without the led suit, any card.
inline u64 follow_optional_undertrump(u64 hand, const Facts& f, int trump) {
  if (hand & (SUIT << f.lo)) return follow(hand, f, trump);
  const u64 trumps = hand & (SUIT << (trump * 13));
  if (!trumps) return hand;
  if (f.top < 0) return trumps;
  const u64 above = above_card(trumps, f.top);
  return above ? above : hand;
}

// The house's follow rule (R-LEAD: leading is free; R-FOLLOW, R-TRUMP, R-DISCARD, or
// R-OPTIONAL-UNDERTRUMP): the cards the ordinary obligations allow on a trick of ``tlen``
// cards read into ``f``.
inline u64 obliged(const House& H, u64 held, const Facts& f, int tlen, int trump) {
  return !tlen                  ? held
         : H.optional_undertrump ? follow_optional_undertrump(held, f, trump)
                                 : follow(held, f, trump);
}

}  // namespace bourre::kernel
