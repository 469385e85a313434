// bourre.kernel, bots: the heuristic bot (bourre_bots.heuristic) on plain cards; the
// random bot is a coin of the seat's stream, in each engine.  Inline: asked at every
// decision and every card; heuristic_card (bots.cpp) once a card.
#pragma once

#include "rules.h"

namespace bourre::kernel {

// -- the heuristic bot (bourre_bots.heuristic), on plain cards ---------------------------

constexpr double TRUMP_VALUE[13] = {0.30, 0.30, 0.31, 0.32, 0.33, 0.35, 0.37,
                                    0.40, 0.45, 0.55, 0.70, 0.85, 1.00};
constexpr double OFF_ACE = 0.55;
constexpr double OFF_KING = 0.15;
constexpr double DRAW_GAIN = 0.15;

// hand_strength: expected tricks, summed in the hand's order, ascending (as Python adds them).
inline double hand_strength(u64 cards, int trump) {
  double e = 0.0;
  for (; cards; cards &= cards - 1) {
    const int c = lowest(cards);
    const int s = suit_of(c), r = rank_of(c);
    if (s == trump) {
      e += TRUMP_VALUE[r];
    } else if (r == ACE) {
      e += OFF_ACE;
    } else if (r == KING) {
      e += OFF_KING;
    }
  }
  return e;
}

constexpr u64 ACES = (u64{1} << 12) | (u64{1} << 25) | (u64{1} << 38) | (u64{1} << 51);

// discard_weak: keep aces and the trumps from rank keep_trump up; the rest (a mask).
inline u64 discard_weak(u64 hand, int trump, int keep_trump) {
  const int low = keep_trump - 2;  // 0..12
  const u64 kept_trumps = ((SUIT >> low) << low) << (trump * 13);
  return hand & ~ACES & ~kept_trumps;
}

inline bool is_master(int c, u64 known) {
  const int top = suit_of(c) * 13 + 12;
  const u64 higher = ((u64{1} << (top + 1)) - 1) ^ ((u64{1} << (c + 1)) - 1);
  return (known & higher) == higher;
}

inline int rank_key(int c, int trump) { return suit_of(c) == trump ? rank_of(c) + 13 : rank_of(c); }

// heuristic choose_card: legal ascending, more than one; known = cards no opponent holds;
// f: the trick so far (empty when tlen is 0).  ``plugin``: a house whose trick winner is
// a plugin's (House::winner), asked through Python whether each legal card would win the
// trick so far (``tcards``, ``tlen`` of them) as the Python bot asks the house's trick
// winner (choose_card's ``winner``: the trick with the card added, R-TRICK); none: the
// built-in R-TRICK (Facts::would_win).  The GIL must be held for a plugin's.
int heuristic_card(u64 legal, const Facts& f, int tlen, int trump, u64 known, bool last,
                   const House* plugin = nullptr, const int* tcards = nullptr);

// -- an exchange capped below the hand's size (a plugin's draw limit, R-DRAW) -------------
//
// The legal discards of a hand of ``k`` cards within ``limit`` in the order of
// bourre.game.observation.Discards: by size, then by the mask of the hand's positions.

// How many there are (len(Discards(hand, limit))).
inline u32 discards_count(int k, int limit) {
  u32 count = 0;
  for (u32 m = 0; m < (u32{1} << k); ++m) count += popcount(m) <= limit;
  return count;
}

// The ``index``-th of them, as a mask of cards (Discards(hand, limit)[index]).
inline u64 nth_discards(u64 hand, int limit, u32 index) {
  int pos[64];
  int k = 0;
  for (u64 m = hand; m; m &= m - 1) pos[k++] = lowest(m);
  for (int size = 0; size <= limit && size <= k; ++size) {
    for (u32 m = 0; m < (u32{1} << k); ++m) {
      if (popcount(m) != size || index--) continue;
      u64 out = 0;
      for (int j = 0; j < k; ++j) out |= static_cast<u64>((m >> j) & 1) << pos[j];
      return out;
    }
  }
  return 0;  // (never: index below discards_count)
}

// The ``limit`` lowest cards of ``wanted``: the heuristic's capped exchange
// (legal_or_nearest: the first largest legal discard within what it wants).
inline u64 lowest_cards(u64 wanted, int limit) {
  u64 out = 0;
  for (int i = 0; i < limit && wanted; ++i, wanted &= wanted - 1) out |= wanted & (~wanted + 1);
  return out;
}

// The heuristic bot at every seat (its defaults: bourre_bots.heuristic), for rollouts.
Bots default_heuristic(int n);

}  // namespace bourre::kernel
