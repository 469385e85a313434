// bourre.kernel, bots: see bots.h.

#include "bots.h"
#include "hooks.h"

namespace bourre::kernel {

int cheapest(const int* cards, int k, int trump) {  // (the first of the lowest rank key)
  int best = -1, key = 99;
  for (int i = 0; i < k; ++i) {
    const int kk = rank_key(cards[i], trump);
    if (kk < key) {
      best = cards[i];
      key = kk;
    }
  }
  return best;
}

int dearest(const int* cards, int k, int trump) {  // (the first of the highest rank key)
  int best = -1, key = -1;
  for (int i = 0; i < k; ++i) {
    const int kk = rank_key(cards[i], trump);
    if (kk > key) {
      best = cards[i];
      key = kk;
    }
  }
  return best;
}

// heuristic choose_card: legal ascending, more than one; known = cards no opponent holds;
// f: the trick so far (empty when tlen is 0).
int heuristic_card(u64 legal, const Facts& f, int tlen, int trump, u64 known, bool last,
                   const House* plugin, const int* tcards) {
  int cards[13];
  int k = 0;
  for (u64 m = legal; m && k < 13; m &= m - 1) cards[k++] = lowest(m);
  if (tlen == 0) {
    int best = -1;
    for (int i = 0; i < k; ++i) {
      const int c = cards[i];
      if (suit_of(c) == trump && is_master(c, known) && c > best) best = c;
    }
    if (best >= 0) return best;
    for (int i = 0; i < k; ++i) {
      const int c = cards[i];
      if (suit_of(c) != trump && is_master(c, known)) return c;
    }
    return cheapest(cards, k, trump);
  }
  int winners[13];  // the legal cards that would win the trick (R-TRICK)
  int w = 0;
  if (plugin) {  // the house's trick winner, a plugin's: asked of the trick with each card
    int after[MAX_SEATS];
    for (int p = 0; p < tlen; ++p) after[p] = tcards[p];
    for (int i = 0; i < k; ++i) {
      after[tlen] = cards[i];
      if (winner_hook(*plugin, after, tlen + 1, trump) == tlen) winners[w++] = cards[i];
    }
  } else {
    for (int i = 0; i < k; ++i) {
      if (f.would_win(cards[i], trump)) winners[w++] = cards[i];
    }
  }
  if (w) {
    if (last) return cheapest(winners, w, trump);
    int safe[13];
    int sc = 0;
    for (int i = 0; i < w; ++i) {
      if (is_master(winners[i], known)) safe[sc++] = winners[i];
    }
    if (sc) return cheapest(safe, sc, trump);
    return dearest(winners, w, trump);
  }
  return cheapest(cards, k, trump);
}

Bots default_heuristic(int n) {
  Bots b;
  b.n = n;
  for (int s = 0; s < n; ++s) {
    b.kind[s] = HEURISTIC;
    b.play_threshold[s] = 0.25;
    b.per_opponent[s] = 0.45;
    b.keep_trump[s] = 2;
  }
  return b;
}

}  // namespace bourre::kernel
