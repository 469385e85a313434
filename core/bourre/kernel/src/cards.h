// bourre.kernel, cards: the integer types, the table's bounds, each card's suit and rank
// (bourre.cards: card = suit * 13 + rank, rank 12 = ace), the masks' population count
// and lowest card, the fresh deck (R-DECK).  Header only: every engine's innermost loop.
#pragma once

#include <cstdint>
#include <cstring>

namespace bourre::kernel {

using u32 = std::uint32_t;
using u64 = std::uint64_t;
using i64 = std::int64_t;

constexpr int MAX_SEATS = 8;
constexpr int ACE = 12;
constexpr int KING = 11;
constexpr u64 SUIT = 0x1FFF;

// A population count without the popcnt instruction (a generic x86-64 build would call
// libgcc for __builtin_popcountll).
inline int popcount(u64 m) {
  m = m - ((m >> 1) & 0x5555555555555555ULL);
  m = (m & 0x3333333333333333ULL) + ((m >> 2) & 0x3333333333333333ULL);
  m = (m + (m >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
  return static_cast<int>((m * 0x0101010101010101ULL) >> 56);
}
inline int lowest(u64 m) { return __builtin_ctzll(m); }

// Each card's suit and rank (card = suit * 13 + rank: bourre.cards), looked up.
struct CardTables {
  std::uint8_t suit[52], rank[52];
  constexpr CardTables() : suit(), rank() {
    for (int c = 0; c < 52; ++c) {
      suit[c] = static_cast<std::uint8_t>(c / 13);
      rank[c] = static_cast<std::uint8_t>(c % 13);
    }
  }
};
constexpr CardTables CARD{};
inline int suit_of(int c) { return CARD.suit[c]; }
inline int rank_of(int c) { return CARD.rank[c]; }

// R-DECK: the 52 cards in order (bourre.cards.DECK), copied before each shuffle.
constexpr std::uint8_t FRESH_DECK[52] = {
    0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12, 13, 14, 15, 16, 17,
    18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35,
    36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51};

}  // namespace bourre::kernel
