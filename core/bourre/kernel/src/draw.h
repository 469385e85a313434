// bourre.kernel, draw: the exchange (bourre_variants.standard.draw): R-DRAW, R-RESHUFFLE.
// Held to its Python twin by tests/kernel/test_rule_twins.py (_kernel.rules); see rules.h.
#pragma once

#include "house.h"
#include <algorithm>
#include <cstring>

namespace bourre::kernel {

// R-DRAW (draw.Draw.check): at most ``limit`` discards, each held, none twice; R-RESHUFFLE:
// no more than the stock and the pile can give (``can_draw``).  The discards as a mask in
// ``dmask``; false: refused.
inline bool draw_allowed(u64 hand, const int* cards, int k, int limit, int can_draw, u64& dmask) {
  dmask = 0;
  if (k > limit || k > can_draw) return false;
  for (int i = 0; i < k; ++i) {
    const int c = cards[i];
    if (c < 0 || c >= 52 || !((hand >> c) & 1) || ((dmask >> c) & 1)) return false;
    dmask |= u64{1} << c;
  }
  return true;
}

// R-DRAW, R-RESHUFFLE (draw.Draw.draw): ``need`` cards from the top of the stock into
// ``kept``; a stock that runs out is made again from the pile (the earlier players'
// unreturned discards: this player's join it after), in the order ``reshuffle(stock,
// len)`` leaves it (which also forgets each seat's unreturned discards).  False when the
// stock runs out with no discards to reshuffle (the caller stops there).
template <class Reshuffle>
inline bool draw_cards(u64& kept, int need, std::uint8_t* stock, int& stock_pos, int& stock_len,
                       std::uint8_t* pile, int& pile_len, Reshuffle&& reshuffle) {
  while (need) {
    if (stock_pos == stock_len) {  // R-RESHUFFLE
      if (!pile_len) return false;
      std::memcpy(stock, pile, static_cast<std::size_t>(pile_len));
      stock_len = pile_len;
      stock_pos = 0;
      pile_len = 0;
      reshuffle(stock, stock_len);
    }
    const int take = std::min(need, stock_len - stock_pos);
    for (int i = 0; i < take; ++i) kept |= u64{1} << stock[stock_pos + i];
    stock_pos += take;
    need -= take;
  }
  return true;
}

}  // namespace bourre::kernel
