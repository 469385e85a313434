// bourre.kernel._kernel: whole seeded sessions of a house made only of built-in
// components, played by the built-in random and heuristic bots, in C++17.
//
// An accelerator, not a second definition: every rule below restates a built-in
// component of bourre_variants (cited by its rule id, RULES.md) and is held to it by
// tests/kernel/test_sessions.py, which plays the same sessions on the Python rules and compares
// the money, exactly.  The Python wrapper (bourre/kernel/__init__.py) decides which
// houses and bots the kernel may play; every entry of this module (public or private:
// it is one import away) checks what it reads where the Python objects are converted
// (types, lengths, ranges, each card in one place, the seats and the turn consistent)
// and raises a Python exception otherwise, so nothing is read or written out of bounds
// whatever it is given; the search itself trusts what was checked (no check a card).
// tests/test_kernel_fuzz.py drives every entry with hostile inputs (tox -e sanitize:
// under AddressSanitizer and UBSan).
//
// Cards are ints suit * 13 + rank (rank 12 = ace), hands are sorted arrays plus a bit
// mask (bit 1 << card).  Money is exact: every amount is an integer count of 1/D chip
// (D, the common denominator of the house's amounts, is chosen by the wrapper), held
// in 128-bit integers; a session whose money leaves +-2^100 is reported, not wrapped,
// and every sum that could leave the 128-bit range is checked before it is made
// (add_to, sub_from): the Python rules then take over, exact at any size.

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>
#include <structmember.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

namespace py = pybind11;

namespace {

using u32 = std::uint32_t;
using u64 = std::uint64_t;
using i64 = std::int64_t;
using i128 = __int128;

constexpr int MAX_SEATS = 8;
constexpr int ACE = 12;
constexpr int KING = 11;
constexpr u64 SUIT = 0x1FFF;
constexpr i128 MONEY_BOUND = static_cast<i128>(1) << 100;
constexpr i64 LIMIT = i64{1} << 62;  // every amount the wrapper gives is within +-2^62

// -- BLAKE2s (RFC 7693), 16-byte digests: the names of the streams ------------------

constexpr u32 B2S_IV[8] = {0x6A09E667, 0xBB67AE85, 0x3C6EF372, 0xA54FF53A,
                           0x510E527F, 0x9B05688C, 0x1F83D9AB, 0x5BE0CD19};
constexpr std::uint8_t B2S_SIGMA[10][16] = {
    {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15},
    {14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3},
    {11, 8, 12, 0, 5, 2, 15, 13, 10, 14, 3, 6, 7, 1, 9, 4},
    {7, 9, 3, 1, 13, 12, 11, 14, 2, 6, 5, 10, 4, 0, 15, 8},
    {9, 0, 5, 7, 2, 4, 10, 15, 14, 1, 11, 12, 6, 8, 3, 13},
    {2, 12, 6, 10, 0, 11, 8, 3, 4, 13, 7, 5, 15, 14, 1, 9},
    {12, 5, 1, 15, 14, 13, 4, 10, 0, 7, 6, 3, 9, 2, 8, 11},
    {13, 11, 7, 14, 12, 1, 3, 9, 5, 0, 15, 4, 8, 6, 2, 10},
    {6, 15, 14, 9, 11, 3, 0, 8, 12, 2, 13, 7, 1, 4, 10, 5},
    {10, 2, 8, 4, 7, 6, 1, 5, 15, 11, 9, 14, 3, 12, 13, 0},
};

inline u32 rotr32(u32 x, int k) { return (x >> k) | (x << (32 - k)); }

void b2s_compress(u32 h[8], const std::uint8_t block[64], u64 t, bool last) {
  u32 m[16];
  for (int i = 0; i < 16; ++i) {
    m[i] = static_cast<u32>(block[4 * i]) | (static_cast<u32>(block[4 * i + 1]) << 8) |
           (static_cast<u32>(block[4 * i + 2]) << 16) | (static_cast<u32>(block[4 * i + 3]) << 24);
  }
  u32 v[16];
  for (int i = 0; i < 8; ++i) {
    v[i] = h[i];
    v[i + 8] = B2S_IV[i];
  }
  v[12] ^= static_cast<u32>(t);
  v[13] ^= static_cast<u32>(t >> 32);
  if (last) v[14] = ~v[14];
  auto g = [&v](int a, int b, int c, int d, u32 x, u32 y) {
    v[a] = v[a] + v[b] + x;
    v[d] = rotr32(v[d] ^ v[a], 16);
    v[c] = v[c] + v[d];
    v[b] = rotr32(v[b] ^ v[c], 12);
    v[a] = v[a] + v[b] + y;
    v[d] = rotr32(v[d] ^ v[a], 8);
    v[c] = v[c] + v[d];
    v[b] = rotr32(v[b] ^ v[c], 7);
  };
  for (const auto& s : B2S_SIGMA) {
    g(0, 4, 8, 12, m[s[0]], m[s[1]]);
    g(1, 5, 9, 13, m[s[2]], m[s[3]]);
    g(2, 6, 10, 14, m[s[4]], m[s[5]]);
    g(3, 7, 11, 15, m[s[6]], m[s[7]]);
    g(0, 5, 10, 15, m[s[8]], m[s[9]]);
    g(1, 6, 11, 12, m[s[10]], m[s[11]]);
    g(2, 7, 8, 13, m[s[12]], m[s[13]]);
    g(3, 4, 9, 14, m[s[14]], m[s[15]]);
  }
  for (int i = 0; i < 8; ++i) h[i] ^= v[i] ^ v[i + 8];
}

// The first four words of BLAKE2s-128(name), little-endian (bourre.xoshiro.stream).
void blake2s_128(const std::string& name, u32 out[4]) {
  u32 h[8];
  for (int i = 0; i < 8; ++i) h[i] = B2S_IV[i];
  h[0] ^= 0x01010000u ^ 16u;  // no key, 16-byte digest
  const auto* p = reinterpret_cast<const std::uint8_t*>(name.data());
  std::size_t len = name.size();
  u64 t = 0;
  std::uint8_t block[64];
  while (len > 64) {
    t += 64;
    b2s_compress(h, p, t, false);
    p += 64;
    len -= 64;
  }
  std::memset(block, 0, sizeof block);
  if (len) std::memcpy(block, p, len);
  t += len;
  b2s_compress(h, block, t, true);
  for (int i = 0; i < 4; ++i) out[i] = h[i];
}

// -- xoshiro128** (bourre.xoshiro.Xoshiro128) ------------------------------------------

struct Xoshiro {
  u32 s[4] = {0, 0, 0, 1};

  u32 next() {
    const u32 x = s[1] * 5u;
    const u32 result = ((x << 7) | (x >> 25)) * 9u;
    const u32 t = s[1] << 9;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = (s[3] << 11) | (s[3] >> 21);
    return result;
  }

  // below(n): the top bits of word * n (Xoshiro128.below).
  u32 below(u32 n) { return static_cast<u32>((static_cast<u64>(next()) * n) >> 32); }

  // Fisher-Yates from the last position down: position i takes the card at
  // below(i + 1) (Xoshiro128.shuffle).  The steps of next() are written out on local
  // words: the cards are bytes, which may alias anything, so the state would otherwise
  // be stored and loaded again around every swap.
  void shuffle(std::uint8_t* a, int len) {
    u32 s0 = s[0], s1 = s[1], s2 = s[2], s3 = s[3];
    for (int i = len - 1; i > 0; --i) {
      const u32 x = s1 * 5u;
      const u32 word = ((x << 7) | (x >> 25)) * 9u;
      const u32 t = s1 << 9;
      s2 ^= s0;
      s3 ^= s1;
      s1 ^= s2;
      s0 ^= s3;
      s2 ^= t;
      s3 = (s3 << 11) | (s3 >> 21);
      const int j = static_cast<int>((static_cast<u64>(word) * static_cast<u32>(i + 1)) >> 32);
      const std::uint8_t c = a[i];
      a[i] = a[j];
      a[j] = c;
    }
    s[0] = s0;
    s[1] = s1;
    s[2] = s2;
    s[3] = s3;
  }
};

// The stream named ``name`` (bourre.xoshiro.stream: the last word made odd).
Xoshiro stream(const std::string& name) {
  Xoshiro x;
  blake2s_128(name, x.s);
  x.s[3] |= 1u;
  return x;
}

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

// -- the house and the bots, as the wrapper describes them ------------------------------

struct House {
  int n = 5;               // R-SEAT, R-SESSION: 2..8 players
  int h = 5;               // R-DEAL-SIZE / R-FOUR-CARD: cards each and tricks
  int hands = 12;          // R-SESSION
  int first_dealer = 0;    // R-DEALER; -1: a random seat drawn before the first deck
  bool double_ante = false;        // R-DOUBLE-ANTE
  bool simultaneous = false;       // R-SIMULTANEOUS
  bool optional_undertrump = false;  // R-OPTIONAL-UNDERTRUMP
  bool cinch = true;               // R-SURE ... R-CINCH-LAST; false: R-NO-CINCH
  bool pot_limit = false;          // R-POT-LIMIT
  i128 limit = 0;                  // (in 1/D chips)
  i128 ante = 1;                   // R-FIRST-POT, R-ANTE (in 1/D chips)
  i128 balance = 100;              // R-SESSION (in 1/D chips)
  double scale = 1.0;              // D, for the heuristic's float(pot)
};

enum BotKind : int { RANDOM = 0, HEURISTIC = 1 };

struct Bots {
  int kind[MAX_SEATS] = {};
  double play_threshold[MAX_SEATS] = {};
  double per_opponent[MAX_SEATS] = {};
  int keep_trump[MAX_SEATS] = {};
  // the random bots' streams: one shared by every seat (bourre-bots:{seed}), or one a
  // seat given by the caller (bots made one by one from a random.Random)
  bool shared = true;
  int n = 0;

  bool any_random() const {
    for (int s = 0; s < n; ++s) {
      if (kind[s] == RANDOM) return true;
    }
    return false;
  }
};

enum Status : int { OK = 0, OVERFLOW_ = 1, NO_DISCARDS = 2 };

// -- the heuristic bot (bourre_bots.heuristic), on plain cards ---------------------------

constexpr double TRUMP_VALUE[13] = {0.30, 0.30, 0.31, 0.32, 0.33, 0.35, 0.37,
                                    0.40, 0.45, 0.55, 0.70, 0.85, 1.00};
constexpr double OFF_ACE = 0.55;
constexpr double OFF_KING = 0.15;
constexpr double DRAW_GAIN = 0.15;

// hand_strength: expected tricks, summed in the hand's order, ascending (as Python adds them).
double hand_strength(u64 cards, int trump) {
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
u64 discard_weak(u64 hand, int trump, int keep_trump) {
  const int low = keep_trump - 2;  // 0..12
  const u64 kept_trumps = ((SUIT >> low) << low) << (trump * 13);
  return hand & ~ACES & ~kept_trumps;
}

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

  // Whether card c, played next, would win the trick so far (not empty: R-TRICK).
  bool would_win(int c, int trump) const {
    if (top >= 0) return suit_of(c) == trump && c > top;
    if (lo <= c && c < lo + 13) return c > win;
    return suit_of(c) == trump;
  }
};

inline bool is_master(int c, u64 known) {
  const int top = suit_of(c) * 13 + 12;
  const u64 higher = ((u64{1} << (top + 1)) - 1) ^ ((u64{1} << (c + 1)) - 1);
  return (known & higher) == higher;
}

inline int rank_key(int c, int trump) { return suit_of(c) == trump ? rank_of(c) + 13 : rank_of(c); }

int cheapest(const int* cards, int k, int trump) {
  int best = cards[0], key = rank_key(cards[0], trump);
  for (int i = 0; i < k; ++i) {
    const int kk = rank_key(cards[i], trump);
    if (kk < key) {
      best = cards[i];
      key = kk;
    }
  }
  return best;
}

int dearest(const int* cards, int k, int trump) {
  int best = cards[0], key = rank_key(cards[0], trump);
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
int heuristic_card(u64 legal, const Facts& f, int tlen, int trump, u64 known, bool last) {
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
  for (int i = 0; i < k; ++i) {
    if (f.would_win(cards[i], trump)) winners[w++] = cards[i];
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

// -- the ordinary obligations and the cinch (bourre_variants.standard) -------------------

inline u64 above_card(u64 m, int c) { return c >= 51 ? 0 : (m >> (c + 1)) << (c + 1); }

// R-FOLLOW, R-TRUMP, R-DISCARD (obligations.follow), for a card after the lead (leading
// is free: R-LEAD).
u64 follow(u64 hand, const Facts& f, int trump) {
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
u64 follow_optional_undertrump(u64 hand, const Facts& f, int trump) {
  if (hand & (SUIT << f.lo)) return follow(hand, f, trump);
  const u64 trumps = hand & (SUIT << (trump * 13));
  if (!trumps) return hand;
  if (f.top < 0) return trumps;
  const u64 above = above_card(trumps, f.top);
  return above ? above : hand;
}

// R-SURE: won tricks plus master trumps held reach 3 (StandardCinch.has_cinch).
bool has_cinch(u64 hand, int trump, u64 known, int won) {
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
u64 highest_trumps(u64 allowed, u64 hand, int trump, u64 known) {
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
u64 cinch_narrow(u64 legal, u64 hand, int tlen, int trump, u64 known, bool last) {
  if (last && tlen) return legal;  // R-CINCH-LAST: the ordinary obligations only
  const u64 trumps = legal & (SUIT << (trump * 13));
  if (!trumps) return legal;  // following suit keeps priority (R-CINCH-FOLLOW)
  return highest_trumps(trumps, hand, trump, known);
}

// The outcome of a hand (rules.HandOutcome's winner and bourre): the seat that took the
// pot at stake (-1: none, a tie carried it) and the bourre seats as a mask.
struct Outcome {
  int winner = -1;
  u32 bourre = 0;
};

// Money that would leave the 128-bit range is never computed (signed overflow is
// undefined): each sum or difference is checked first; false, ``x`` unchanged, when it
// would overflow (the caller reports the money as beyond the kernel's range and the
// Python rules, exact at any size, take over).
inline bool add_to(i128& x, i128 y) {
  i128 r;
  if (__builtin_add_overflow(x, y, &r)) return false;
  x = r;
  return true;
}

inline bool sub_from(i128& x, i128 y) {
  i128 r;
  if (__builtin_sub_overflow(x, y, &r)) return false;
  x = r;
  return true;
}

// R-WIN, R-SOLE, R-BOURRE (R-POT-LIMIT), R-ANTE exemptions (standard.payout.payout): the
// pot at stake P is paid out of the hand's tricks ``won``; the balances, the pot carried,
// each seat's exemption from the next ante, the bourre players and whether it carried;
// returns who took the pot and who was bourre.  ``lost``: an amount would have left the
// 128-bit range (the money is then no longer the rules' and must not be read).
Outcome pay_out(const House& H, const int* active, int nactive, const int* won, bool sole,
                i128 P, i128* bal, i128& pot, bool* exempt, int& nbourre, int& carried,
                bool& lost) {
  const int n = H.n;
  for (int s = 0; s < n; ++s) exempt[s] = false;
  nbourre = carried = 0;
  lost = false;
  Outcome out;
  if (sole) {  // R-SOLE: takes the pot, nobody is bourre
    lost = !add_to(bal[active[0]], P);
    pot = 0;
    out.winner = active[0];
    return out;
  }
  int best = -1, ntop = 0;
  int top[MAX_SEATS];
  bool bourre[MAX_SEATS] = {};
  for (int i = 0; i < nactive; ++i) {
    const int s = active[i], w = won[s];
    if (w > best) {
      best = w;
      ntop = 0;
      top[ntop++] = s;
    } else if (w == best) {
      top[ntop++] = s;
    }
    if (!w) {
      bourre[s] = true;
      ++nbourre;
      out.bourre |= u32{1} << s;
    }
  }
  bool ok = true;
  i128 owed = 0;
  if (nbourre) {
    const i128 x = H.pot_limit ? std::min(P, H.limit) : P;  // every payment uses the same old P
    for (int s = 0; s < n; ++s) {
      if (bourre[s]) ok = ok && sub_from(bal[s], x) && add_to(owed, x);
    }
  }
  i128 carry = P;
  for (int s = 0; s < n; ++s) exempt[s] = bourre[s];
  if (ntop > 1) {  // R-WIN: a tie carries the whole pot; the tied skip the ante
    carried = 1;
    for (int i = 0; i < ntop; ++i) exempt[top[i]] = true;
  } else {
    ok = ok && add_to(bal[top[0]], P);
    carry = 0;
    out.winner = top[0];
  }
  ok = ok && add_to(carry, owed);
  pot = carry;
  lost = !ok;
  return out;
}

// -- a session ---------------------------------------------------------------------------

// What bourre compare keeps of a hand (results.SessionTally): the pot at stake, the
// players, the bourre players, whether the pot carried, the dealer, cards played and
// those played with a cinch (R-SURE), and the balances after the payout.
struct HandLog {
  i128 pot_at_stake = 0;
  int active = 0, bourre = 0, carried = 0, dealer = 0, plays = 0, cinch = 0;
  i128 bal[MAX_SEATS] = {};
};

struct Session {
  const House& H;
  const Bots& B;
  Xoshiro deck_gen, reshuffle_gen;
  std::string reshuffle_name;  // bourre-reshuffle:{seed}, its stream made when first needed
  bool reshuffle_made = false;
  Xoshiro bot_gen[MAX_SEATS];
  i128 bal[MAX_SEATS] = {};
  i128 pot = 0;
  bool exempt[MAX_SEATS] = {};  // R-ANTE: the last hand's exemptions
  int status = OK;

  // the hand
  int dealer = 0, trump = 0, upcard = 0;
  u64 hand[MAX_SEATS] = {};  // each seat's cards (a mask: read in ascending order)
  std::uint8_t stock[52] = {};
  int stock_pos = 0, stock_len = 0;
  std::uint8_t pile[52] = {};  // the discards not yet returned, in the order discarded
  int pile_len = 0;
  u64 own_discards[MAX_SEATS] = {};  // each seat's unreturned discards (R-SURE, R-RESHUFFLE)
  int active[MAX_SEATS] = {};
  int nactive = 0;
  int decided = 0;  // public decisions so far (a fold, or a play with its exchange)
  int playing = 0;  // of which plays
  int cinch_plays = 0;  // cards played this hand by a seat with a cinch (R-SURE)
  int nbourre = 0, carried = 0;
  std::vector<HandLog>* log = nullptr;  // each hand's tally, when asked

  Session(const House& h, const Bots& b) : H(h), B(b) {}

  Xoshiro& gen(int seat) { return bot_gen[B.shared ? 0 : seat]; }

  void check(i128 x) {
    if (x > MONEY_BOUND || x < -MONEY_BOUND) status = OVERFLOW_;
  }

  // R-DEAL: card i of the deck goes to seat (dealer + 1 + i) mod n; the upcard is card
  // h * n - 1 (the dealer's last) and names trump; the rest is the stock, top first.
  void deal(const std::uint8_t* deck) {
    const int n = H.n, h = H.h;
    for (int i = 0; i < n; ++i) {
      u64 m = 0;
      for (int j = 0; j < h; ++j) m |= u64{1} << deck[i + j * n];
      const int s = dealer + 1 + i;
      hand[s < n ? s : s - n] = m;
    }
    upcard = deck[h * n - 1];
    trump = upcard / 13;
    stock_len = 52 - h * n;
    std::memcpy(stock, deck + h * n, static_cast<std::size_t>(stock_len));
    stock_pos = 0;
    pile_len = 0;
    for (int s = 0; s < n; ++s) own_discards[s] = 0;
    nactive = decided = playing = 0;
  }

  // R-DRAW, R-RESHUFFLE (standard.draw.Draw): discard the cards of ``dmask`` (in the
  // hand's order, as both bots give them), draw as many from the top of the stock; a
  // stock that runs out is made again from the earlier players' unreturned discards
  // (shuffled on the reshuffle stream), never this player's own.
  void exchange(int s, u64 dmask) {
    dmask &= hand[s];
    if (!dmask) return;  // standing pat
    u64 kept = hand[s] & ~dmask;
    int need = popcount(dmask);
    while (need) {
      if (stock_pos == stock_len) {  // R-RESHUFFLE
        if (!pile_len) {
          status = NO_DISCARDS;
          return;
        }
        std::memcpy(stock, pile, static_cast<std::size_t>(pile_len));
        stock_len = pile_len;
        stock_pos = 0;
        if (!reshuffle_made) {  // (Chance.reshuffle: its own stream, made on first use)
          reshuffle_gen = stream(reshuffle_name);
          reshuffle_made = true;
        }
        reshuffle_gen.shuffle(stock, stock_len);
        pile_len = 0;
        for (int t = 0; t < H.n; ++t) own_discards[t] = 0;
      }
      const int take = std::min(need, stock_len - stock_pos);
      for (int i = 0; i < take; ++i) kept |= u64{1} << stock[stock_pos + i];
      stock_pos += take;
      need -= take;
    }
    hand[s] = kept;
    for (u64 m = dmask; m && pile_len < 52; m &= m - 1) {
      pile[pile_len++] = static_cast<std::uint8_t>(lowest(m));
    }
    own_discards[s] |= dmask;
  }

  // The seat's exchange, asked of its bot (R-DRAW: 0 to all the cards of the hand).
  void ask_exchange(int s) {
    u64 dmask = 0;
    if (B.kind[s] == RANDOM) {  // a coin for each card: a bit of one word, in hand order
      const u32 w = gen(s).next();
      int i = 0;
      for (u64 m = hand[s]; m; m &= m - 1, ++i) {
        if ((w >> i) & 1) dmask |= m & (~m + 1);
      }
    } else {
      dmask = discard_weak(hand[s], trump, B.keep_trump[s]);
    }
    exchange(s, dmask);
  }

  // A decision to play or pass, asked of the seat's bot (not asked when forced).
  bool ask_decision(int s, int decided_now, int playing_now) {
    if (B.kind[s] == RANDOM) return (gen(s).next() >> 31) == 1;
    const int keep = B.keep_trump[s];
    const u64 out = discard_weak(hand[s], trump, keep);
    double strength =
        hand_strength(hand[s], trump) + DRAW_GAIN * static_cast<double>(popcount(out));
    if (keep > 2) strength -= hand_strength(out & (SUIT << (trump * 13)), trump);
    const double potf = static_cast<double>(pot) / H.scale;  // float(view.pot)
    const double players = static_cast<double>(H.n);
    const double share = 0.4 + 0.1 * std::min(2.0, potf / std::max(1.0, 2.0 * players));
    const int to_come = H.n - 1 - decided_now;
    const double opponents =
        static_cast<double>(playing_now) + share * static_cast<double>(to_come);
    return strength >= B.play_threshold[s] + B.per_opponent[s] * opponents;
  }

  // R-DECIDE, R-PASS, R-ACE-UP, R-LAST-STANDS (standard.decisions.Sequential): in turn
  // from the dealer's left, each player who plays exchanges before the next decides.
  void sequential() {
    const int n = H.n;
    for (int k = 0; k < n; ++k) {
      const int s = dealer + 1 + k < n ? dealer + 1 + k : dealer + 1 + k - n;
      const bool forced = s == dealer && (upcard % 13 == ACE || nactive == 0);
      const bool play = forced || ask_decision(s, decided, playing);
      if (play) {
        active[nactive++] = s;
        ask_exchange(s);
        ++playing;
      } else {
        hand[s] = 0;  // R-PASS: the hand is folded
      }
      ++decided;
    }
  }

  // R-SIMULTANEOUS, R-ACE-UP, R-SIMULTANEOUS-NOBODY (simultaneous_reveal.Simultaneous):
  // everyone decides at once, then those who play exchange in turn from the dealer's
  // left; if nobody plays, the dealer is forced in without an exchange.
  void simultaneous() {
    const int n = H.n;
    bool chosen[MAX_SEATS] = {};
    bool any = false;
    for (int k = 0; k < n; ++k) {
      const int s = dealer + 1 + k < n ? dealer + 1 + k : dealer + 1 + k - n;
      const bool forced = s == dealer && upcard % 13 == ACE;
      chosen[s] = forced || ask_decision(s, 0, 0);  // a secret decision: nothing public yet
      any = any || chosen[s];
    }
    const bool nobody = !any;
    if (nobody) chosen[dealer] = true;
    for (int k = 0; k < n; ++k) {
      const int s = dealer + 1 + k < n ? dealer + 1 + k : dealer + 1 + k - n;
      if (chosen[s]) {
        active[nactive++] = s;
        if (!(nobody && s == dealer)) ask_exchange(s);
      } else {
        hand[s] = 0;  // R-PASS
      }
    }
  }

  // R-LEAD, R-FOLLOW ... R-CINCH-LAST, R-TRICK: the tricks; won[s] counts each seat's.
  void tricks(int* won) {
    const int n = H.n, h = H.h;
    u64 held[MAX_SEATS] = {};
    int cinch_from[MAX_SEATS];
    for (int s = 0; s < n; ++s) cinch_from[s] = 53;
    int around[2 * MAX_SEATS];  // the active seats twice: a trick's order from any leader
    for (int i = 0; i < nactive; ++i) {
      const int s = active[i];
      around[i] = around[i + nactive] = s;
      held[s] = hand[s];
      if (H.cinch) {  // masters are trumps held, and no trump joins a hand after the draw
        const int t = popcount((held[s] >> (trump * 13)) & SUIT);
        cinch_from[s] = t < 3 ? 3 - t : 0;
      }
    }
    u64 played = 0;
    int lead_at = 0;  // R-LEAD: the first active player to the dealer's left leads first
    for (int t = 0; t < h; ++t) {
      const int* seats = around + lead_at;
      Facts f;
      for (int p = 0; p < nactive; ++p) {
        const int s = seats[p];
        const bool last = p == nactive - 1;
        u64 lm = !p                    ? held[s]  // leading is free (R-LEAD)
                 : H.optional_undertrump ? follow_optional_undertrump(held[s], f, trump)
                                         : follow(held[s], f, trump);
        if (H.cinch && won[s] >= cinch_from[s]) {
          const u64 kn = played | own_discards[s];
          if (has_cinch(held[s], trump, kn, won[s])) {
            ++cinch_plays;
            lm = cinch_narrow(lm, held[s], p, trump, kn, last);
          }
        }
        lm &= held[s];
        if (!lm) lm = held[s];  // never: the legal set is within a non-empty hand
        int card;
        if (!(lm & (lm - 1))) {
          card = lowest(lm);  // the only legal card: applied, no bot asked
        } else if (B.kind[s] == RANDOM) {
          u32 k = gen(s).below(static_cast<u32>(popcount(lm)));
          u64 m = lm;
          while (k--) m &= m - 1;
          card = lowest(m);
        } else {
          const u64 known = held[s] | own_discards[s] | played;
          card = heuristic_card(lm, f, p, trump, known, last);
          if (!((lm >> card) & 1)) card = lowest(lm);  // never: its card is legal
        }
        held[s] ^= u64{1} << card;
        played |= u64{1} << card;
        f.add(card, p, trump);
      }
      const int wp = f.winner();
      ++won[seats[wp]];
      lead_at = lead_at + wp < nactive ? lead_at + wp : lead_at + wp - nactive;
    }
  }

  // R-WIN, R-SOLE, R-BOURRE (R-POT-LIMIT), R-ANTE exemptions (standard.payout.payout).
  void payout(const int* won, bool sole, i128 P) {
    bool lost = false;
    pay_out(H, active, nactive, won, sole, P, bal, pot, exempt, nbourre, carried, lost);
    if (lost) status = OVERFLOW_;
  }

  void hand_played(bool first) {
    const int n = H.n;
    std::uint8_t deck[52];
    std::memcpy(deck, FRESH_DECK, sizeof deck);
    deck_gen.shuffle(deck, 52);  // R-DEAL: the shuffled and cut deck, top first
    if (!first) dealer = dealer + 1 < n ? dealer + 1 : 0;  // R-DEALER: the left neighbour (no lost turns)
    deal(deck);
    // R-FIRST-POT, R-ANTE (or R-DOUBLE-ANTE: no exemptions)
    for (int s = 0; s < n; ++s) {
      if ((first || H.double_ante || !exempt[s]) &&
          !(sub_from(bal[s], H.ante) && add_to(pot, H.ante))) {
        status = OVERFLOW_;  // (never from money within +-2^100 at the hand's start)
      }
    }
    if (H.simultaneous) {
      simultaneous();
    } else {
      sequential();
    }
    if (status != OK) return;
    if (H.double_ante) {  // R-DOUBLE-ANTE: a second ante from each who plays
      for (int i = 0; i < nactive; ++i) {
        if (!(sub_from(bal[active[i]], H.ante) && add_to(pot, H.ante))) status = OVERFLOW_;
      }
      if (status != OK) return;
    }
    const i128 P = pot;  // the pot at stake
    cinch_plays = 0;
    int won[MAX_SEATS] = {};
    const bool sole = nactive == 1;
    if (sole) {
      won[active[0]] = H.h;  // R-SOLE
    } else {
      tricks(won);
    }
    payout(won, sole, P);
    for (int s = 0; s < n; ++s) check(bal[s]);
    check(pot);
    if (log) {
      HandLog hl;
      hl.pot_at_stake = P;
      hl.active = nactive;
      hl.bourre = nbourre;
      hl.carried = carried;
      hl.dealer = dealer;
      hl.plays = sole ? 0 : H.h * nactive;
      hl.cinch = cinch_plays;
      for (int s = 0; s < n; ++s) hl.bal[s] = bal[s];
      log->push_back(hl);
    }
  }

  void play() {
    for (int s = 0; s < H.n; ++s) bal[s] = H.balance;
    dealer = H.first_dealer >= 0 ? H.first_dealer
                                 : static_cast<int>(deck_gen.below(static_cast<u32>(H.n)));
    for (int k = 0; k < H.hands && status == OK; ++k) hand_played(k == 0);
  }
};

py::int_ to_py(i128 x) {
  if (x >= static_cast<i128>(INT64_MIN) && x <= static_cast<i128>(INT64_MAX)) {
    return py::int_(static_cast<i64>(x));
  }
  const bool neg = x < 0;
  unsigned __int128 u = neg ? static_cast<unsigned __int128>(-(x + 1)) + 1
                            : static_cast<unsigned __int128>(x);
  std::string digits;
  while (u) {
    digits.push_back(static_cast<char>('0' + static_cast<int>(u % 10)));
    u /= 10;
  }
  if (neg) digits.push_back('-');
  std::reverse(digits.begin(), digits.end());
  return py::reinterpret_steal<py::int_>(PyLong_FromString(digits.c_str(), nullptr, 10));
}

i128 from_py(const py::int_& v) {
  const i64 x = v.cast<i64>();  // the wrapper keeps amounts within 2^62
  return static_cast<i128>(x);
}

House read_house_fields(const py::dict& d);

// The house as the wrapper describes it (a dict), every field checked; a field of the
// wrong type or out of range is a ValueError.
House read_house(const py::dict& d) {
  try {
    return read_house_fields(d);
  } catch (const py::cast_error& e) {
    throw std::invalid_argument(std::string("house: a field of the wrong type or size: ") + e.what());
  }
}

House read_house_fields(const py::dict& d) {
  House h;
  h.n = d["players"].cast<int>();
  h.h = d["hand_size"].cast<int>();
  h.hands = d["hands"].cast<int>();
  h.first_dealer = d["first_dealer"].cast<int>();
  h.double_ante = d["double_ante"].cast<bool>();
  h.simultaneous = d["simultaneous"].cast<bool>();
  h.optional_undertrump = d["optional_undertrump"].cast<bool>();
  h.cinch = d["cinch"].cast<bool>();
  h.pot_limit = d["pot_limit"].cast<bool>();
  h.limit = from_py(d["limit"].cast<py::int_>());
  h.ante = from_py(d["ante"].cast<py::int_>());
  h.balance = from_py(d["balance"].cast<py::int_>());
  const i64 scale = d["scale"].cast<i64>();
  if (scale < 1 || scale >= LIMIT) throw std::invalid_argument("scale: 1 to 2^62");
  h.scale = static_cast<double>(scale);
  if (h.limit <= -LIMIT || h.limit >= LIMIT || h.ante <= -LIMIT || h.ante >= LIMIT ||
      h.balance <= -LIMIT || h.balance >= LIMIT) {
    throw std::invalid_argument("limit, ante and balance: within 2^62 (in 1/D chips)");
  }
  if (h.n < 2 || h.n > MAX_SEATS) throw std::invalid_argument("players: 2 to 8 (R-SEAT)");
  if (h.h != 4 && h.h != 5) throw std::invalid_argument("hand_size: 4 or 5 (R-DEAL-SIZE)");
  if (h.n * h.h > 52) throw std::invalid_argument("too many cards to deal (R-DEAL)");
  if (h.hands < 1 || h.hands > 10000) throw std::invalid_argument("hands: 1 to 10000 (R-SESSION)");
  if (h.first_dealer < -1 || h.first_dealer >= h.n) {
    throw std::invalid_argument("first_dealer: a seat or -1 (R-DEALER)");
  }
  if (h.ante <= 0 || (h.pot_limit && h.limit <= 0) || h.scale < 1.0) {
    throw std::invalid_argument("ante and limit must be positive (R-FIRST-POT, R-POT-LIMIT)");
  }
  return h;
}

// ``fraction`` must be a type when the kernel makes its instances itself (``fast``).
void check_fraction(const py::object& fraction, bool fast) {
  if (fast && !PyType_Check(fraction.ptr())) {
    throw std::invalid_argument("fraction: a type (Fraction) when fast");
  }
}

Bots read_bots_fields(const House& h, const py::list& seats, bool shared);

// Each seat's bot (kind, play_threshold, per_opponent, keep_trump), checked; a field of
// the wrong type is a ValueError.
Bots read_bots(const House& h, const py::list& seats, bool shared) {
  try {
    return read_bots_fields(h, seats, shared);
  } catch (const py::cast_error& e) {
    throw std::invalid_argument(std::string("bots: a field of the wrong type: ") + e.what());
  }
}

Bots read_bots_fields(const House& h, const py::list& seats, bool shared) {
  Bots b;
  b.shared = shared;
  b.n = h.n;
  if (static_cast<int>(seats.size()) != h.n) throw std::invalid_argument("one bot a seat");
  for (int s = 0; s < h.n; ++s) {
    const auto t = seats[static_cast<std::size_t>(s)].cast<py::tuple>();
    if (t.size() != 4) throw std::invalid_argument("a bot is (kind, threshold, per_opponent, keep)");
    b.kind[s] = t[0].cast<int>();
    b.play_threshold[s] = t[1].cast<double>();
    b.per_opponent[s] = t[2].cast<double>();
    b.keep_trump[s] = t[3].cast<int>();
    if (b.kind[s] != RANDOM && b.kind[s] != HEURISTIC) throw std::invalid_argument("bot kind");
    if (b.keep_trump[s] < 2 || b.keep_trump[s] > 14) throw std::invalid_argument("keep_trump");
  }
  return b;
}

i128 gcd128(i128 a, i128 b) {
  if (a < 0) a = -a;
  while (b) {
    const i128 t = a % b;
    a = b;
    b = t;
  }
  return a;
}

// The Fraction p/q of coprime ints (q > 1): by ``fraction(p, q)``, or, with ``fast``
// (the wrapper checked that this Python's Fraction keeps its terms in the slots
// _numerator and _denominator), made as object.__new__(Fraction) with those slots set:
// a quarter of the normalising constructor's cost.
py::object make_fraction(const py::object& fraction, bool fast, py::int_ p, py::int_ q) {
  if (!fast) return fraction(std::move(p), std::move(q));
  static PyObject* const no_args = PyTuple_New(0);
  static PyObject* const num_name = PyUnicode_InternFromString("_numerator");
  static PyObject* const den_name = PyUnicode_InternFromString("_denominator");
  auto* type = reinterpret_cast<PyTypeObject*>(fraction.ptr());
  py::object f = py::reinterpret_steal<py::object>(PyBaseObject_Type.tp_new(type, no_args, nullptr));
  if (!f || PyObject_SetAttr(f.ptr(), num_name, p.ptr()) < 0 ||
      PyObject_SetAttr(f.ptr(), den_name, q.ptr()) < 0) {
    throw py::error_already_set();
  }
  return f;
}

py::object result(const Session& g, i128 den, const py::object& fraction, bool fast) {
  if (g.status != OK) return py::int_(g.status);
  // R-SETTLE: each final balance is (n * balance + pot) / (n * D): the numerators, and
  // the places (one more than the balances above: ties share a place)
  const int n = g.H.n;
  i128 num[MAX_SEATS];
  for (int s = 0; s < n; ++s) num[s] = g.bal[s] * n + g.pot;
  py::list nums(static_cast<std::size_t>(n));
  py::list ranks(static_cast<std::size_t>(n));
  for (int s = 0; s < n; ++s) {
    int above = 0;
    for (int t = 0; t < n; ++t) above += num[t] > num[s];
    // whole: an int; else the exact fraction, in lowest terms (fraction(p, q))
    const i128 d = gcd128(num[s], den);
    if (d == den) {
      nums[static_cast<std::size_t>(s)] = to_py(num[s] / den);
    } else {
      nums[static_cast<std::size_t>(s)] =
          make_fraction(fraction, fast, to_py(num[s] / d), to_py(den / d));
    }
    ranks[static_cast<std::size_t>(s)] = py::int_(above + 1);
  }
  return py::make_tuple(std::move(nums), std::move(ranks));
}

// Sessions whose random bots share the stream bourre-bots:{seed} (simulate.play_session).
py::list play_shared(const py::dict& house, const py::list& bots,
                     const std::vector<std::string>& seeds, const py::object& fraction,
                     bool fast) {
  check_fraction(fraction, fast);
  const House h = read_house(house);
  const Bots b = read_bots(h, bots, true);
  const bool any_random = b.any_random();
  const i128 den = static_cast<i128>(h.n) * static_cast<i64>(h.scale);
  py::list out;
  for (const auto& seed : seeds) {
    Session g(h, b);
    g.deck_gen = stream("bourre-deck:" + seed);
    g.reshuffle_name = "bourre-reshuffle:" + seed;
    if (any_random) g.bot_gen[0] = stream("bourre-bots:" + seed);  // (unused else)
    {
      py::gil_scoped_release release;
      g.play();
    }
    out.append(result(g, den, fraction, fast));
  }
  return out;
}

// One session whose random bots have a stream each, given as four words a seat (or,
// with no words, share bourre-bots:{seed}); with ``tally``, each hand's HandLog too:
// ((final, places), [(pot at stake, active, bourre, carried, dealer, plays, cinch,
// balances...), ...]).
py::object streams_played(const House& h, const Bots& b, const std::string& seed,
                          const std::vector<std::vector<u32>>& words, const py::object& fraction,
                          bool fast, bool tally);

py::object play_streams(const py::dict& house, const py::list& bots, const std::string& seed,
                        const std::vector<std::vector<u32>>& words, const py::object& fraction,
                        bool fast, bool tally) {
  check_fraction(fraction, fast);
  const House h = read_house(house);
  const Bots b = read_bots(h, bots, words.empty());
  return streams_played(h, b, seed, words, fraction, fast, tally);
}

// A house and its bots read once (bourre.kernel keeps one a plan): the sessions of a
// run are played from it without reading the house's settings again each session.
struct Prepared {
  House h;
  Bots b;
  bool shared;
};

Prepared prepare(const py::dict& house, const py::list& bots, bool shared) {
  Prepared p{read_house(house), Bots{}, shared};
  p.b = read_bots(p.h, bots, shared);
  return p;
}

py::object play_prepared(const Prepared& p, const std::string& seed,
                         const std::vector<std::vector<u32>>& words, const py::object& fraction,
                         bool fast, bool tally) {
  check_fraction(fraction, fast);
  if (p.shared != words.empty()) throw std::invalid_argument("prepared for other streams");
  return streams_played(p.h, p.b, seed, words, fraction, fast, tally);
}

py::object streams_played(const House& h, const Bots& b, const std::string& seed,
                          const std::vector<std::vector<u32>>& words, const py::object& fraction,
                          bool fast, bool tally) {
  const bool shared = words.empty();
  if (!shared && static_cast<int>(words.size()) != h.n) {
    throw std::invalid_argument("one stream a seat");
  }
  Session g(h, b);
  g.deck_gen = stream("bourre-deck:" + seed);
  g.reshuffle_name = "bourre-reshuffle:" + seed;
  if (shared && b.any_random()) g.bot_gen[0] = stream("bourre-bots:" + seed);
  for (int s = 0; s < static_cast<int>(words.size()); ++s) {
    const auto& w = words[static_cast<std::size_t>(s)];
    if (w.size() != 4 || !(w[0] | w[1] | w[2] | w[3])) throw std::invalid_argument("stream words");
    for (int i = 0; i < 4; ++i) g.bot_gen[s].s[i] = w[static_cast<std::size_t>(i)];
  }
  std::vector<HandLog> log;
  if (tally) {
    log.reserve(static_cast<std::size_t>(h.hands));
    g.log = &log;
  }
  g.play();
  py::object got =
      result(g, static_cast<i128>(h.n) * static_cast<i64>(h.scale), fraction, fast);
  if (!tally || g.status != OK) return got;
  // The tally's floats, when every amount and D are exact doubles (below 2^53): then
  // x / D here is Python's float(Fraction(x, D)) (both correctly rounded) and each
  // change is the same double subtraction as SessionTally's.
  const i128 exact = static_cast<i128>(1) << 53;
  bool safe = static_cast<i128>(h.scale) < exact && h.balance < exact && h.balance > -exact;
  for (const auto& hl : log) {
    safe = safe && hl.pot_at_stake < exact && hl.pot_at_stake > -exact;
    for (int s = 0; s < h.n; ++s) safe = safe && hl.bal[s] < exact && hl.bal[s] > -exact;
  }
  if (safe) {
    const double d = h.scale;
    py::list pots, active, bourre, carried, dealers, deltas;
    double prev[MAX_SEATS];
    for (int s = 0; s < h.n; ++s) prev[s] = static_cast<double>(h.balance) / d;
    int plays = 0, cinch = 0;
    for (const auto& hl : log) {
      pots.append(py::float_(static_cast<double>(hl.pot_at_stake) / d));
      active.append(py::int_(hl.active));
      bourre.append(py::int_(hl.bourre));
      carried.append(py::int_(hl.carried));
      dealers.append(py::int_(hl.dealer));
      py::list delta(static_cast<std::size_t>(h.n));
      for (int s = 0; s < h.n; ++s) {
        const double now = static_cast<double>(hl.bal[s]) / d;
        delta[static_cast<std::size_t>(s)] = py::float_(now - prev[s]);
        prev[s] = now;
      }
      deltas.append(std::move(delta));
      plays += hl.plays;
      cinch += hl.cinch;
    }
    py::list last(static_cast<std::size_t>(h.n));
    for (int s = 0; s < h.n; ++s) last[static_cast<std::size_t>(s)] = py::float_(prev[s]);
    // In whole chips (D = 1) below 2^52 every change is an exact integer, and the
    // chips won by place from the dealer (SessionTally.places: math.fsum, exactly
    // rounded) are the exact integer sums, rounded once; the final balances' floats are
    // float(Fraction(x, n)), x / n correctly rounded.  Else None: Python makes them.
    py::object place = py::none();
    py::object final_floats = py::none();
    const i128 half = static_cast<i128>(1) << 52;
    bool whole = h.scale == 1.0 && h.balance < half && h.balance > -half;
    for (const auto& hl : log) {
      for (int s = 0; s < h.n; ++s) whole = whole && hl.bal[s] < half && hl.bal[s] > -half;
    }
    if (whole) {
      i128 sums[MAX_SEATS] = {};
      i128 before[MAX_SEATS];
      for (int s = 0; s < h.n; ++s) before[s] = h.balance;
      for (const auto& hl : log) {
        for (int p = 0; p < h.n; ++p) {
          const int s = (hl.dealer + p) % h.n;
          sums[p] += hl.bal[s] - before[s];
        }
        for (int s = 0; s < h.n; ++s) before[s] = hl.bal[s];
      }
      py::list pl(static_cast<std::size_t>(h.n));
      for (int p = 0; p < h.n; ++p) pl[static_cast<std::size_t>(p)] = py::float_(static_cast<double>(sums[p]));
      place = std::move(pl);
      py::list fl(static_cast<std::size_t>(h.n));
      for (int s = 0; s < h.n; ++s) {
        const i128 x = g.bal[s] * h.n + g.pot;  // R-SETTLE, in n-ths of a chip
        fl[static_cast<std::size_t>(s)] = py::float_(static_cast<double>(x) / static_cast<double>(h.n));
      }
      final_floats = std::move(fl);
    }
    return py::make_tuple(std::move(got), py::make_tuple(pots, active, bourre, carried, dealers,
                                                         deltas, plays, cinch, last, place,
                                                         final_floats));
  }
  py::list hands;
  for (const auto& hl : log) {
    py::tuple t(static_cast<std::size_t>(7 + h.n));
    t[0] = to_py(hl.pot_at_stake);
    t[1] = py::int_(hl.active);
    t[2] = py::int_(hl.bourre);
    t[3] = py::int_(hl.carried);
    t[4] = py::int_(hl.dealer);
    t[5] = py::int_(hl.plays);
    t[6] = py::int_(hl.cinch);
    for (int s = 0; s < h.n; ++s) t[static_cast<std::size_t>(7 + s)] = to_py(hl.bal[s]);
    hands.append(std::move(t));
  }
  return py::make_tuple(std::move(got), std::move(hands));
}

std::vector<u32> stream_words(const std::string& name) {
  const Xoshiro x = stream(name);
  return {x.s[0], x.s[1], x.s[2], x.s[3]};
}


// -- a stepped session (bourre.kernel.state.KernelState) ---------------------------------
//
// The same session as bourre.game.state.State, stepped one action at a time from outside
// and copied as a plain struct (clone).  Its rules are those above (the deal, the
// obligations and the cinch, the trick, the payout); the order of play is the
// decisions components' (standard.decisions.Sequential, simultaneous_reveal.Simultaneous),
// stepped as the Python state steps them.  Every refusal is left to the Python rules:
// an action the kernel does not take changes nothing and is answered by the wrapper,
// which replays the history into a Python State for the rule's own words.

enum StepPhase : int { P_DEAL = 0, P_DECIDE = 1, P_EXCHANGE = 2, P_PLAY = 3, P_OVER = 4 };
enum Forced : int { F_NONE = 0, F_ACE_UP = 1, F_LAST_STANDS = 2 };
constexpr int H_DECK = 200;     // history: a deck follows (52 codes)
constexpr int H_DISCARD = 100;  // history: 100 + k, then the k cards discarded
constexpr int H_PASS = 52, H_PLAY = 53;

struct Stepper {
  House H;
  bool seeded = false;
  Xoshiro deck_gen, reshuffle_gen;
  bool keep_results = true;
  int hands_total = 1;
  bool settles = true;  // the session ends with the settlement (R-SETTLE)
  int number = 0;
  int first_dealer = -1, last_dealer = -1;
  bool first_hand = true;  // no previous hand: everyone antes (R-FIRST-POT)
  i128 bal[MAX_SEATS] = {}, start[MAX_SEATS] = {};
  i128 pot = 0;
  bool exempt[MAX_SEATS] = {};
  bool overflow = false;
  int phase = P_DEAL;
  bool dealt = false;  // a hand has been dealt (the observation's hand fields)
  // the hand
  int dealer = 0, upcard = 0, trump = 0;
  u64 hand[MAX_SEATS] = {};
  std::uint8_t stock[52] = {};
  int stock_pos = 0, stock_len = 0;
  std::uint8_t pile[52] = {};
  int pile_len = 0;
  std::uint8_t disc[MAX_SEATS][5] = {};  // own discards not yet returned, in order
  int disc_len[MAX_SEATS] = {};
  std::uint8_t gave[MAX_SEATS][5] = {};  // this hand's discards, in order
  int gave_len[MAX_SEATS] = {};
  u64 got[MAX_SEATS] = {};
  int chosen[MAX_SEATS] = {};
  int step = 0, exchanging = -1;
  int active[MAX_SEATS] = {};
  int nactive = 0;
  std::uint8_t dec_seat[MAX_SEATS] = {}, dec_play[MAX_SEATS] = {}, dec_exch[MAX_SEATS] = {};
  int ndec = 0;
  // A decision table that replaces the heuristic's pass/play (bourre.advice.equilibrium):
  // chart[seat][seats already in] is 0 (the heuristic decides), 1 (pass) or 2 (play).
  std::uint8_t chart[MAX_SEATS][MAX_SEATS] = {};
  int turn_seat = -1, forced = F_NONE;
  // the tricks
  int trick_seats[MAX_SEATS] = {};
  int tcards[MAX_SEATS] = {};
  int tlen = 0, leader = -1;
  Facts f;
  int ntricks = 0;
  std::uint8_t tr_leader[5] = {}, tr_winner[5] = {};
  Outcome outcome;  // the last hand's (pay_out)
  std::uint8_t tr_seat[5][MAX_SEATS] = {}, tr_card[5][MAX_SEATS] = {};
  int won[MAX_SEATS] = {};
  u64 played = 0;
  i128 pot_at_stake = 0;
  u64 legal = 0;
  bool cinch_now = false;
  int cinch_plays = 0;
  std::vector<std::int16_t> hist;
  std::size_t hand_from = 0;  // where the current hand's history starts

  // pot0: the pot already in the middle before the first hand's antes; settle: false for
  // one hand from a given position (Game.new_hand: no settlement, the pot stays).
  Stepper(const House& h, const std::string* seed, const std::vector<i64>& balances,
          int dealer0, int hands, bool keep, i64 pot0 = 0, bool settle = true)
      : H(h), keep_results(keep), hands_total(hands), settles(settle) {
    if (static_cast<int>(balances.size()) != H.n) throw std::invalid_argument("one balance a seat");
    for (int s = 0; s < H.n; ++s) bal[s] = start[s] = balances[static_cast<std::size_t>(s)];
    if (pot0 < 0) throw std::invalid_argument("pot: at least 0");
    pot = pot0;
    if (seed) {
      seeded = true;
      deck_gen = stream("bourre-deck:" + *seed);
      reshuffle_gen = stream("bourre-reshuffle:" + *seed);
    }
    first_dealer = dealer0;
    if (first_dealer < 0 && seeded) {  // drawn before the first deck (Chance.seat)
      first_dealer = static_cast<int>(deck_gen.below(static_cast<u32>(H.n)));
    }
    begin_hand();
  }

  int seat_at(int k) const {  // the k-th seat from the dealer's left
    const int s = dealer + 1 + k;
    return s % H.n;
  }

  int current_player() const {
    if (phase == P_PLAY) return trick_seats[tlen];
    if (phase == P_DECIDE || phase == P_EXCHANGE) return turn_seat;
    return phase == P_OVER ? -4 : -1;
  }

  void begin_hand() {
    phase = P_DEAL;
    if (!keep_results) hand_from = hist.size();
    if (seeded) {
      std::uint8_t deck[52];
      std::memcpy(deck, FRESH_DECK, sizeof deck);
      deck_gen.shuffle(deck, 52);
      deal(deck);
      advance();
    }
  }

  // R-DEAL (standard.deal), R-DEALER, R-FIRST-POT, R-ANTE / R-DOUBLE-ANTE.
  void deal(const std::uint8_t* deck) {
    const int n = H.n, h = H.h;
    hist.push_back(H_DECK);
    for (int i = 0; i < 52; ++i) hist.push_back(deck[i]);
    dealer = last_dealer < 0 ? first_dealer : (last_dealer + 1) % n;
    last_dealer = dealer;
    for (int i = 0; i < n; ++i) {
      u64 m = 0;
      for (int j = 0; j < h; ++j) m |= u64{1} << deck[i + j * n];
      hand[(dealer + 1 + i) % n] = m;
    }
    upcard = deck[h * n - 1];
    trump = upcard / 13;
    stock_len = 52 - h * n;
    std::memcpy(stock, deck + h * n, static_cast<std::size_t>(stock_len));
    stock_pos = pile_len = 0;
    for (int s = 0; s < n; ++s) {
      disc_len[s] = gave_len[s] = 0;
      got[s] = 0;
      chosen[s] = -1;
      won[s] = 0;
    }
    step = 0;
    exchanging = -1;
    nactive = ndec = 0;
    tlen = ntricks = 0;
    leader = -1;
    played = 0;
    cinch_plays = 0;
    ++number;
    for (int s = 0; s < n; ++s) {
      if ((first_hand || H.double_ante || !exempt[s]) && !overflow &&
          !(sub_from(bal[s], H.ante) && add_to(pot, H.ante))) {
        overflow = true;
      }
    }
    pot_at_stake = pot;
    dealt = true;
    phase = P_DECIDE;
  }

  bool ace_up() const { return upcard % 13 == ACE; }

  // The decisions component's turn (Sequential.turn / Simultaneous.turn); false: none.
  bool turn() {
    const int n = H.n;
    if (H.simultaneous) {
      if (step < n) {
        turn_seat = seat_at(step);
        forced = turn_seat == dealer && ace_up() ? F_ACE_UP : F_NONE;
        phase = P_DECIDE;
        return true;
      }
      if (exchanging >= 0) {
        turn_seat = exchanging;
        forced = F_NONE;
        phase = P_EXCHANGE;
        return true;
      }
      return false;
    }
    if (exchanging >= 0) {
      turn_seat = exchanging;
      forced = F_NONE;
      phase = P_EXCHANGE;
      return true;
    }
    if (step >= n) return false;
    turn_seat = seat_at(step);
    forced = F_NONE;
    if (turn_seat == dealer) {
      if (ace_up()) {
        forced = F_ACE_UP;
      } else if (!nactive) {
        forced = F_LAST_STANDS;
      }
    }
    phase = P_DECIDE;
    return true;
  }

  void advance() {
    if (!turn()) start_play();
  }

  void fold(int s) {  // R-PASS
    hand[s] = 0;
    dec_seat[ndec] = static_cast<std::uint8_t>(s);
    dec_play[ndec] = 0;
    dec_exch[ndec++] = 0;
  }

  // Simultaneous._next: reveal from decision position i on, up to the next who exchanges.
  void reveal_from(int i) {
    const int n = H.n;
    const bool nobody = step > n;
    while (i < n) {
      const int s = seat_at(i);
      ++i;
      if (chosen[s] == 1) {
        active[nactive++] = s;
        if (nobody && s == dealer) {
          dec_seat[ndec] = static_cast<std::uint8_t>(s);
          dec_play[ndec] = 1;
          dec_exch[ndec++] = 0;
          continue;
        }
        exchanging = s;
        return;
      }
      fold(s);
    }
  }

  // R-DECIDE ... (Sequential.decide / Simultaneous.decide): false, unchanged, for a pass
  // the rules forbid.
  bool decide(bool play) {
    if (phase != P_DECIDE) return false;
    if (!play && forced != F_NONE) return false;
    const int s = turn_seat;
    hist.push_back(play ? H_PLAY : H_PASS);
    chosen[s] = play ? 1 : 0;
    ++step;
    if (H.simultaneous) {
      if (step == H.n) {
        bool any = false;
        for (int t = 0; t < H.n; ++t) any = any || chosen[t] == 1;
        if (!any) {
          chosen[dealer] = 1;
          step = H.n + 1;
        }
        reveal_from(0);
      }
    } else if (play) {
      active[nactive++] = s;
      exchanging = s;
    } else {
      fold(s);
    }
    advance();
    return true;
  }

  // R-DRAW, R-RESHUFFLE (standard.draw.Draw.draw), the cards in the order discarded;
  // false, unchanged, for discards the draw refuses.
  bool exchange(const std::vector<int>& cards) {
    if (phase != P_EXCHANGE) return false;
    const int s = turn_seat;
    const int k = static_cast<int>(cards.size());
    if (k > H.h) return false;
    u64 dmask = 0;
    for (int c : cards) {
      if (c < 0 || c >= 52 || !((hand[s] >> c) & 1) || ((dmask >> c) & 1)) return false;
      dmask |= u64{1} << c;
    }
    const int left = stock_len - stock_pos;
    if (k > left && k > left + pile_len) return false;  // no discards to reshuffle
    hist.push_back(static_cast<std::int16_t>(H_DISCARD + k));
    for (int c : cards) hist.push_back(static_cast<std::int16_t>(c));
    if (k) {
      u64 kept = hand[s] & ~dmask;
      int need = k;
      while (need) {
        if (stock_pos == stock_len) {  // R-RESHUFFLE: the pile, in chance's order
          std::memcpy(stock, pile, static_cast<std::size_t>(pile_len));
          stock_len = pile_len;
          stock_pos = 0;
          if (seeded) reshuffle_gen.shuffle(stock, stock_len);
          pile_len = 0;
          for (int t = 0; t < H.n; ++t) disc_len[t] = 0;
        }
        const int take = std::min(need, stock_len - stock_pos);
        for (int i = 0; i < take; ++i) kept |= u64{1} << stock[stock_pos + i];
        stock_pos += take;
        need -= take;
      }
      got[s] = kept & ~hand[s];
      hand[s] = kept;
      note_discards(s, cards);
    }
    exchanged(s, k);
    return true;
  }

  // The discards of seat s go to the pile and its own discards (R-DRAW, R-SURE).
  void note_discards(int s, const std::vector<int>& cards) {
    const int k = static_cast<int>(cards.size());
    for (int i = 0; i < k; ++i) {
      const auto c = static_cast<std::uint8_t>(cards[static_cast<std::size_t>(i)]);
      pile[pile_len++] = c;
      disc[s][disc_len[s]++] = c;
      gave[s][i] = c;
    }
    gave_len[s] = k;
  }

  // The decisions component is told of seat s's exchange of k cards (exchanged).
  void exchanged(int s, int k) {
    dec_seat[ndec] = static_cast<std::uint8_t>(s);
    dec_play[ndec] = 1;
    dec_exch[ndec++] = static_cast<std::uint8_t>(k);
    exchanging = -1;
    if (H.simultaneous) reveal_from((s - dealer - 1 + H.n) % H.n + 1);
    advance();
  }

  // The decisions are over: the play ante (R-DOUBLE-ANTE), R-SOLE, the first lead (R-LEAD).
  void start_play() {
    if (H.double_ante) {
      for (int i = 0; i < nactive && !overflow; ++i) {
        if (!(sub_from(bal[active[i]], H.ante) && add_to(pot, H.ante))) overflow = true;
      }
    }
    pot_at_stake = pot;
    turn_seat = -1;
    if (nactive == 1) {  // R-SOLE
      won[active[0]] = H.h;
      end_hand();
      return;
    }
    phase = P_PLAY;
    lead(active[0]);
  }

  void lead(int s) {  // R-LEAD: the others follow clockwise
    int i = 0;
    while (active[i] != s) ++i;
    for (int p = 0; p < nactive; ++p) trick_seats[p] = active[(i + p) % nactive];
    tlen = 0;
    leader = s;
    f = Facts();
    compute_legal();
  }

  // R-LEAD, R-FOLLOW ... R-CINCH-LAST (legal_play): the player to play's legal cards.
  void compute_legal() {
    const int s = trick_seats[tlen];
    const u64 held = hand[s];
    u64 lm = !tlen                    ? held
             : H.optional_undertrump ? follow_optional_undertrump(held, f, trump)
                                     : follow(held, f, trump);
    cinch_now = false;
    if (H.cinch) {
      u64 kn = played;
      for (int i = 0; i < disc_len[s]; ++i) kn |= u64{1} << disc[s][i];
      if (has_cinch(held, trump, kn, won[s])) {
        cinch_now = true;
        lm = cinch_narrow(lm, held, tlen, trump, kn, tlen == nactive - 1);
      }
    }
    lm &= held;
    legal = lm ? lm : held;
  }

  // R-TRICK: a full trick goes to its winner, who leads the next; false, unchanged,
  // for a card that is not legal.
  bool play(int c) {
    if (phase != P_PLAY || c < 0 || c >= 52 || !((legal >> c) & 1)) return false;
    const int s = trick_seats[tlen];
    hist.push_back(static_cast<std::int16_t>(c));
    if (cinch_now) ++cinch_plays;
    hand[s] &= ~(u64{1} << c);
    played |= u64{1} << c;
    tcards[tlen] = c;
    f.add(c, tlen, trump);
    ++tlen;
    if (tlen < nactive) {
      compute_legal();
      return true;
    }
    const int w = trick_seats[f.winner()];
    ++won[w];
    tr_leader[ntricks] = static_cast<std::uint8_t>(leader);
    tr_winner[ntricks] = static_cast<std::uint8_t>(w);
    for (int p = 0; p < nactive; ++p) {
      tr_seat[ntricks][p] = static_cast<std::uint8_t>(trick_seats[p]);
      tr_card[ntricks][p] = static_cast<std::uint8_t>(tcards[p]);
    }
    ++ntricks;
    if (ntricks < H.h) {
      lead(w);
      return true;
    }
    tlen = 0;
    end_hand();
    return true;
  }

  // The payout, then the next hand or the end (R-SESSION); the settlement is made when
  // asked (R-SETTLE).
  void end_hand() {
    int nb = 0, carried = 0;
    bool lost = false;
    if (overflow) {  // the money is the Python rules' now: the outcome alone, on copies
      i128 b[MAX_SEATS], p = pot;
      std::memcpy(b, bal, sizeof b);
      outcome = pay_out(H, active, nactive, won, nactive == 1, pot_at_stake, b, p, exempt, nb,
                        carried, lost);
    } else {
      outcome = pay_out(H, active, nactive, won, nactive == 1, pot_at_stake, bal, pot, exempt,
                        nb, carried, lost);
      overflow = lost;
    }
    first_hand = false;
    for (int s = 0; s < H.n; ++s) {
      if (bal[s] > MONEY_BOUND || bal[s] < -MONEY_BOUND) overflow = true;
    }
    if (pot > MONEY_BOUND) overflow = true;
    turn_seat = -1;
    if (number < hands_total) {
      begin_hand();
      return;
    }
    phase = P_OVER;
  }

  // A deck given at the deal (apply_chance), already checked whole by the wrapper.
  bool apply_deck(const std::vector<int>& deck) {
    if (phase != P_DEAL || deck.size() != 52 || first_dealer < 0) return false;
    std::uint8_t d[52];
    u64 seen = 0;
    for (int i = 0; i < 52; ++i) {
      const int c = deck[static_cast<std::size_t>(i)];
      if (c < 0 || c >= 52 || ((seen >> c) & 1)) return false;
      seen |= u64{1} << c;
      d[i] = static_cast<std::uint8_t>(c);
    }
    deal(d);
    advance();
    return true;
  }

  // The heuristic bot's answers (bourre_bots.heuristic.HeuristicPlayer, default options,
  // the standard trick winner) at every seat until the hand ends: a Monte Carlo rollout.
  // -- a sampled world (bourre.game.worlds, replayed here: bourre.kernel.rollouts) --

  u64 unseen = 0;  // cards nobody at a sampled world's table has seen (its unknown stock)

  // The deal a table saw (Dealt: every hand shown, the stock unknown) with the pot
  // already in the middle (set_hand(pot=...): nobody antes).
  void deal_given(const std::vector<std::vector<int>>& hands, int up, i128 given_pot) {
    const int n = H.n;
    dealer = first_dealer;
    last_dealer = dealer;
    u64 seen = 0;
    for (int s = 0; s < n; ++s) {
      hand[s] = 0;
      for (int c : hands[static_cast<std::size_t>(s)]) hand[s] |= u64{1} << c;
      seen |= hand[s];
      disc_len[s] = gave_len[s] = 0;
      got[s] = 0;
      chosen[s] = -1;
      won[s] = 0;
    }
    upcard = up;
    trump = up / 13;
    unseen = ((u64{1} << 52) - 1) & ~seen;
    stock_len = stock_pos = pile_len = 0;
    step = 0;
    exchanging = -1;
    nactive = ndec = tlen = ntricks = 0;
    leader = -1;
    played = 0;
    number = 1;
    pot = pot_at_stake = given_pot;
    dealt = true;
    phase = P_DECIDE;
    advance();
  }

  // An exchange whose replacements the table tells (Draw.drawn), accepted here only
  // when they are all cards nobody has seen: 1 taken, 0 refused (R-DRAW), -1 left to the
  // Python rules (a reshuffle's cards).
  int exchange_told(const std::vector<int>& cards, const std::vector<int>& drew) {
    if (phase != P_EXCHANGE) return 0;
    const int s = turn_seat;
    const int k = static_cast<int>(cards.size());
    if (k > H.h) return 0;
    u64 dmask = 0, gmask = 0;
    for (int c : cards) {
      if (c < 0 || c >= 52 || !((hand[s] >> c) & 1) || ((dmask >> c) & 1)) return 0;
      dmask |= u64{1} << c;
    }
    if (static_cast<int>(drew.size()) != k) return 0;
    for (int c : drew) {
      if (c < 0 || c >= 52 || ((gmask >> c) & 1)) return 0;
      gmask |= u64{1} << c;
    }
    if ((gmask & unseen) != gmask) return -1;
    if (k) {
      unseen &= ~gmask;
      hand[s] = (hand[s] & ~dmask) | gmask;
      got[s] = gmask;
      note_discards(s, cards);
    }
    exchanged(s, k);
    return 1;
  }

  // The world reached: its unknown stock, in an order drawn on ``gen`` (what the
  // rollouts draw), which also reshuffles a stock that runs out.
  void finish_world(Xoshiro gen) {
    int k = 0;
    for (u64 m = unseen; m; m &= m - 1) stock[k++] = static_cast<std::uint8_t>(lowest(m));
    gen.shuffle(stock, k);
    stock_len = k;
    stock_pos = 0;
    unseen = 0;
    reshuffle_gen = gen;
    seeded = true;  // (one hand: no deal follows)
  }

  // The heuristic's decision for the seat to decide (HeuristicPlayer.decide on its view).
  bool heuristic_decides(const Bots& B) const {
    const int s = turn_seat;
    if (forced != F_NONE) return true;
    int playing_now = 0;
    for (int i = 0; i < ndec; ++i) playing_now += dec_play[i];
    if (const int told = chart[s][playing_now]) return told == 2;
    const int keep = B.keep_trump[s];
    const u64 out = discard_weak(hand[s], trump, keep);
    double strength =
        hand_strength(hand[s], trump) + DRAW_GAIN * static_cast<double>(popcount(out));
    if (keep > 2) strength -= hand_strength(out & (SUIT << (trump * 13)), trump);
    const double potf = static_cast<double>(pot) / H.scale;
    const double players = static_cast<double>(H.n);
    const double share = 0.4 + 0.1 * std::min(2.0, potf / std::max(1.0, 2.0 * players));
    const int to_come = H.n - 1 - ndec;
    const double opponents =
        static_cast<double>(playing_now) + share * static_cast<double>(to_come);
    return strength >= B.play_threshold[s] + B.per_opponent[s] * opponents;
  }

  void heuristic_step(const Bots& B) {
    const int s = current_player();
    if (phase == P_DECIDE) {
      const bool play = heuristic_decides(B);
      decide(play);
    } else if (phase == P_EXCHANGE) {
      std::vector<int> cards;
      for (u64 m = discard_weak(hand[s], trump, B.keep_trump[s]); m; m &= m - 1) {
        cards.push_back(lowest(m));
      }
      if (!exchange(cards)) exchange({});
    } else if (phase == P_PLAY) {
      int c;
      if (!(legal & (legal - 1))) {
        c = lowest(legal);
      } else {
        u64 known = hand[s] | played;
        for (int i = 0; i < disc_len[s]; ++i) known |= u64{1} << disc[s][i];
        c = heuristic_card(legal, f, tlen, trump, known, tlen == nactive - 1);
        if (!((legal >> c) & 1)) c = lowest(legal);
      }
      play(c);
    }
  }
};

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

// The action objects of bourre.game.actions (set once by the wrapper): CARDS, PASS, PLAY.
struct ActionObjects {
  PyObject* cards[52] = {};
  PyObject* pass = nullptr;
  PyObject* play = nullptr;
  PyObject* discards = nullptr;  // the class bourre.game.observation.Discards
};
ActionObjects ACTIONS;

// Whether ``o`` is Action(kind, cards) as the kernel makes and reads it: an instance of
// exactly ``type`` (a tuple subclass: the kernel reads its items and makes discards of
// it, tuple.__new__'s way), (kind, cards) with cards a tuple of ``k`` ints, the first
// ``card`` when given.
bool is_action(PyObject* o, PyTypeObject* type, const char* kind, Py_ssize_t k, int card = -1) {
  if (Py_TYPE(o) != type || PyTuple_GET_SIZE(o) != 2) return false;
  PyObject* word = PyTuple_GET_ITEM(o, 0);
  PyObject* cards = PyTuple_GET_ITEM(o, 1);
  if (!PyUnicode_Check(word) || PyUnicode_CompareWithASCIIString(word, kind) != 0) return false;
  if (!PyTuple_CheckExact(cards) || PyTuple_GET_SIZE(cards) != k) return false;
  if (card < 0) return true;
  PyObject* c = PyTuple_GET_ITEM(cards, 0);
  int over = 0;
  return PyLong_CheckExact(c) && PyLong_AsLongAndOverflow(c, &over) == card && !over;
}

// The action objects, checked whole before any is kept: 52 card actions (card c is
// Action("card", (c,))), PASS and PLAY of the same tuple subclass, and the Discards class;
// anything else is a TypeError, the objects kept before unchanged.
void set_actions(const py::object& cards, const py::object& pass, const py::object& play,
                 const py::object& discards) {
  PyObject* p = pass.ptr();
  if (!PyTuple_Check(p) || Py_TYPE(p) == &PyTuple_Type) {
    throw py::type_error("set_actions: pass_ is Action('pass') (a tuple subclass)");
  }
  auto* type = Py_TYPE(p);
  if (!is_action(p, type, "pass", 0)) throw py::type_error("set_actions: pass_ is Action('pass')");
  if (!is_action(play.ptr(), type, "play", 0)) {
    throw py::type_error("set_actions: play is Action('play'), of pass_'s type");
  }
  if (!PyTuple_CheckExact(cards.ptr()) || PyTuple_GET_SIZE(cards.ptr()) != 52) {
    throw py::type_error("set_actions: cards is a tuple of the 52 card actions");
  }
  for (int c = 0; c < 52; ++c) {
    if (!is_action(PyTuple_GET_ITEM(cards.ptr(), c), type, "card", 1, c)) {
      throw py::type_error("set_actions: cards[" + std::to_string(c) + "] is not Action('card', (" +
                           std::to_string(c) + ",))");
    }
  }
  if (!PyType_Check(discards.ptr())) throw py::type_error("set_actions: discards is a class");
  ActionObjects old = ACTIONS;
  for (int c = 0; c < 52; ++c) {
    PyObject* o = PyTuple_GET_ITEM(cards.ptr(), c);
    Py_INCREF(o);
    ACTIONS.cards[c] = o;
  }
  Py_INCREF(p);
  Py_INCREF(play.ptr());
  Py_INCREF(discards.ptr());
  ACTIONS.pass = p;
  ACTIONS.play = play.ptr();
  ACTIONS.discards = discards.ptr();
  for (PyObject* o : old.cards) Py_XDECREF(o);
  Py_XDECREF(old.pass);
  Py_XDECREF(old.play);
  Py_XDECREF(old.discards);
}

// The calls that give action objects need them set (bourre.kernel.state does it at import).
void need_actions() {
  if (!ACTIONS.pass) throw std::runtime_error("the kernel's actions are not set: import bourre.kernel.state");
}

py::tuple mask_tuple(u64 m) {
  py::tuple out(static_cast<std::size_t>(popcount(m)));
  std::size_t i = 0;
  for (; m; m &= m - 1) out[i++] = py::int_(lowest(m));
  return out;
}

// A house as the Stepper reads it (read_house, every field checked), made once a house
// by the wrapper (bourre.kernel.state) rather than read again for each state.
struct HouseFacts {
  House h;
};

std::unique_ptr<Stepper> make_stepper(const HouseFacts& house, const py::object& seed,
                                      const std::vector<i64>& balances, int dealer, int hands,
                                      bool keep, i64 pot, bool settle) {
  const House& h = house.h;
  if (dealer < -1 || dealer >= h.n) throw std::invalid_argument("dealer: a seat or -1");
  if (hands < 1) throw std::invalid_argument("hands: at least 1");
  for (const i64 b : balances) {
    if (b <= -LIMIT || b >= LIMIT) throw std::invalid_argument("balances: within 2^62 (in 1/D chips)");
  }
  if (pot < 0 || pot >= LIMIT) throw std::invalid_argument("pot: 0 to 2^62 (in 1/D chips)");
  if (!seed.is_none() && !py::isinstance<py::str>(seed)) throw py::type_error("seed: a str or None");
  if (seed.is_none()) {
    return std::make_unique<Stepper>(h, nullptr, balances, dealer, hands, keep, pot, settle);
  }
  const std::string text = seed.cast<std::string>();
  return std::make_unique<Stepper>(h, &text, balances, dealer, hands, keep, pot, settle);
}

// -- The stepped loop's calls as plain CPython methods ------------------------------------
//
// A call through pybind11's dispatcher costs ~140 ns (argument casting, the overload
// search); a builtin method with METH_NOARGS / METH_O costs ~35 ns.  A driver steps a hand
// with ~19 actions of three calls each, so KernelState binds these instead (its _bind):
//
// - StepCalls: a small heap type whose instance holds the Stepper and a strong reference
//   to the pybind11 object that owns it; its methods are the stepped state's is_terminal,
//   current_player, legal_actions, apply_action and only_action, with the pybind11
//   methods' semantics (the same action objects, the same fallback to the wrapper's
//   _apply_slow for anything else, so refusals stay the Python rules' words).
// - KernelDiscards: the exchange's legal discards (R-DRAW) as a C sequence, equal to
//   bourre.game.observation.Discards(hand, limit) item by item and registered as its
//   virtual subclass (bourre.kernel.state): no Python call to take its length or an item.

// A card given by Python: an int 0..51 (of type int exactly), else -1 (never an error).
int small_int(const py::handle& o) {
  if (!PyLong_CheckExact(o.ptr())) return -1;
  int over = 0;
  const long v = PyLong_AsLongAndOverflow(o.ptr(), &over);
  return !over && v >= 0 && v < 52 ? static_cast<int>(v) : -1;
}

// Cards given by Python: a list or a tuple of at most ``most`` cards (small_int); false
// for anything else.
bool small_ints(const py::handle& seq, std::size_t most, std::vector<int>& out) {
  PyObject* o = seq.ptr();
  if (!PyList_Check(o) && !PyTuple_Check(o)) return false;
  const Py_ssize_t k = PySequence_Fast_GET_SIZE(o);
  if (k < 0 || static_cast<std::size_t>(k) > most) return false;
  out.clear();
  for (Py_ssize_t i = 0; i < k; ++i) {
    const int c = small_int(PySequence_Fast_GET_ITEM(o, i));
    if (c < 0) return false;
    out.push_back(c);
  }
  return true;
}

py::object steal(PyObject* o) {  // a new reference, or the Python error raised
  if (!o) throw py::error_already_set();
  return py::reinterpret_steal<py::object>(o);
}

PyTypeObject* STEP_CALLS = nullptr;
PyTypeObject* KERNEL_DISCARDS = nullptr;
PyObject* DISCARD_WORD = nullptr;  // "discard", interned (the kind of Discards' actions)
PyObject* APPLY_SLOW = nullptr;    // "_apply_slow", interned
PyObject* OWNER = nullptr;         // "owner", interned
u64 BINOM[64][64] = {};            // BINOM[n][k]: n choose k (0 when k > n)

void fill_binomials() {
  for (int n = 0; n < 64; ++n) {
    BINOM[n][0] = 1;
    for (int k = 1; k <= n; ++k) BINOM[n][k] = BINOM[n - 1][k - 1] + (k <= n - 1 ? BINOM[n - 1][k] : 0);
  }
}

// KernelDiscards: every subset of ``hand`` (a tuple of cards) of at most ``limit`` cards,
// in Discards' order (observation._patterns): the subsets as bitmasks m of the hand's
// positions sorted stably by their number of cards, i.e. by (popcount, m); each subset's
// cards in the hand's order.  Item i is unranked directly: its size c, then its rank r
// among the masks of c bits in increasing order (the combinatorial number system).
struct DiscardsObject {
  PyObject_HEAD
  PyObject* hand;      // a tuple of ints 0..51 (so no reference cycle: no GC needed)
  PyObject* limit;     // the limit as given (an int)
  int k;               // len(hand), at most 52
  int top;             // the largest subset size: min(limit, k), -1 for a negative limit
  long long cap;       // the limit, clipped to the range of a long long
  Py_ssize_t len;      // sum of C(k, c) for c = 0..top
};

PyObject* discards_new_raw(PyObject* hand, PyObject* limit) {  // (both borrowed)
  const Py_ssize_t k = PyTuple_GET_SIZE(hand);
  int over = 0;
  long long cap = PyLong_AsLongLongAndOverflow(limit, &over);
  if (cap == -1 && PyErr_Occurred()) return nullptr;
  if (over) cap = over > 0 ? LLONG_MAX : LLONG_MIN;
  auto* d = reinterpret_cast<DiscardsObject*>(KERNEL_DISCARDS->tp_alloc(KERNEL_DISCARDS, 0));
  if (!d) return nullptr;
  Py_INCREF(hand);
  Py_INCREF(limit);
  d->hand = hand;
  d->limit = limit;
  d->k = static_cast<int>(k);
  d->cap = cap;
  d->top = cap < 0 ? -1 : static_cast<int>(std::min<long long>(cap, k));
  d->len = 0;
  for (int c = 0; c <= d->top; ++c) d->len += static_cast<Py_ssize_t>(BINOM[k][c]);
  return reinterpret_cast<PyObject*>(d);
}

// KernelDiscards(hand, limit): hand a tuple of cards (ints 0..51, at most 52 of them).
PyObject* discards_tp_new(PyTypeObject*, PyObject* args, PyObject* kwds) {
  static const char* names[] = {"hand", "limit", nullptr};
  if (!ACTIONS.pass) {  // (its items are Actions: bourre.kernel.state sets them at import)
    PyErr_SetString(PyExc_RuntimeError, "KernelDiscards: import bourre.kernel.state first");
    return nullptr;
  }
  PyObject *hand, *limit;
  if (!PyArg_ParseTupleAndKeywords(args, kwds, "O!O!:KernelDiscards", const_cast<char**>(names),
                                   &PyTuple_Type, &hand, &PyLong_Type, &limit)) {
    return nullptr;
  }
  const Py_ssize_t k = PyTuple_GET_SIZE(hand);
  for (Py_ssize_t i = 0; i < k; ++i) {
    PyObject* c = PyTuple_GET_ITEM(hand, i);
    const long v = PyLong_Check(c) ? PyLong_AsLong(c) : -1;
    if (v < 0 || v >= 52 || k > 52) {
      PyErr_Clear();
      PyErr_SetString(PyExc_ValueError, "KernelDiscards: the hand is a tuple of cards 0..51");
      return nullptr;
    }
  }
  return discards_new_raw(hand, limit);
}

void discards_dealloc(PyObject* self) {
  auto* d = reinterpret_cast<DiscardsObject*>(self);
  PyTypeObject* type = Py_TYPE(self);
  Py_XDECREF(d->hand);
  Py_XDECREF(d->limit);
  type->tp_free(self);
  Py_DECREF(type);  // (a heap type: its instances hold a reference to it)
}

Py_ssize_t discards_len(PyObject* self) { return reinterpret_cast<DiscardsObject*>(self)->len; }

// Action("discard", cards): the tuple subclass bourre.game.actions.Action, made as
// tuple.__new__ makes it (cards is stolen).
PyObject* discard_action(PyObject* cards) {
  PyTypeObject* action = Py_TYPE(ACTIONS.pass);
  PyObject* a = action->tp_alloc(action, 2);
  if (!a) {
    Py_DECREF(cards);
    return nullptr;
  }
  Py_INCREF(DISCARD_WORD);
  PyTuple_SET_ITEM(a, 0, DISCARD_WORD);
  PyTuple_SET_ITEM(a, 1, cards);
  return a;
}

PyObject* discards_item(PyObject* self, Py_ssize_t i) {
  auto* d = reinterpret_cast<DiscardsObject*>(self);
  if (i < 0 || i >= d->len) {
    PyErr_SetString(PyExc_IndexError, "Discards index out of range");
    return nullptr;
  }
  const int k = d->k;
  u64 r = static_cast<u64>(i);
  int c = 0;
  while (r >= BINOM[k][c]) r -= BINOM[k][c++];  // the subset's size
  PyObject* cards = PyTuple_New(c);
  if (!cards) return nullptr;
  for (int j = k - 1; c > 0; --j) {  // the highest position first
    if (r >= BINOM[j][c]) {           // (C(j, c) subsets of c lie below position j)
      r -= BINOM[j][c];
      PyObject* card = PyTuple_GET_ITEM(d->hand, j);
      Py_INCREF(card);
      PyTuple_SET_ITEM(cards, --c, card);
    }
  }
  return discard_action(cards);
}

// Discards[i]; a slice gives a list of the actions, as Discards gives it.
PyObject* discards_subscript(PyObject* self, PyObject* key) {
  if (PySlice_Check(key)) {
    Py_ssize_t start, stop, step;
    if (PySlice_Unpack(key, &start, &stop, &step) < 0) return nullptr;
    const Py_ssize_t n =
        PySlice_AdjustIndices(reinterpret_cast<DiscardsObject*>(self)->len, &start, &stop, step);
    PyObject* out = PyList_New(n);
    for (Py_ssize_t j = 0; out && j < n; ++j) {
      PyObject* a = discards_item(self, start + j * step);
      if (!a) Py_CLEAR(out);
      else PyList_SET_ITEM(out, j, a);
    }
    return out;
  }
  if (!PyIndex_Check(key)) {
    PyErr_Format(PyExc_TypeError, "Discards indices must be integers or slices, not %.200s",
                 Py_TYPE(key)->tp_name);
    return nullptr;
  }
  Py_ssize_t i = PyNumber_AsSsize_t(key, PyExc_IndexError);
  if (i == -1 && PyErr_Occurred()) return nullptr;
  if (i < 0) i += reinterpret_cast<DiscardsObject*>(self)->len;
  return discards_item(self, i);
}

PyObject* discards_iter(PyObject* self) { return PySeqIter_New(self); }

// Discards.__contains__: a discard action of distinct cards of the hand, within the limit.
int discards_contains(PyObject* self, PyObject* action) {
  auto* d = reinterpret_cast<DiscardsObject*>(self);
  int ok = PyObject_IsInstance(action, reinterpret_cast<PyObject*>(Py_TYPE(ACTIONS.pass)));
  if (ok <= 0) return ok;
  PyObject* kind = PyObject_GetAttrString(action, "kind");
  if (!kind) return -1;
  ok = PyObject_RichCompareBool(kind, DISCARD_WORD, Py_EQ);
  Py_DECREF(kind);
  if (ok <= 0) return ok;
  PyObject* cards = PyObject_GetAttrString(action, "cards");
  if (!cards) return -1;
  const Py_ssize_t n = PyObject_Size(cards);
  PyObject* distinct = n < 0 || n > d->cap ? nullptr : PySet_New(cards);
  ok = distinct && PySet_GET_SIZE(distinct) == n ? 1 : 0;
  PyObject* it = ok ? PyObject_GetIter(cards) : nullptr;
  for (PyObject* c; ok == 1 && it && (c = PyIter_Next(it));) {
    ok = PySequence_Contains(d->hand, c);
    Py_DECREF(c);
  }
  Py_XDECREF(it);
  Py_XDECREF(distinct);
  Py_DECREF(cards);
  return PyErr_Occurred() ? -1 : ok;
}

// Discards.__eq__: the same hand and limit as another Discards, or the same actions as a
// list or a tuple; anything else is unequal (never NotImplemented).
PyObject* discards_richcompare(PyObject* self, PyObject* other, int op) {
  if (op != Py_EQ && op != Py_NE) Py_RETURN_NOTIMPLEMENTED;
  auto* d = reinterpret_cast<DiscardsObject*>(self);
  int eq;
  const int discards = Py_TYPE(other) == KERNEL_DISCARDS ? 1 : PyObject_IsInstance(other, ACTIONS.discards);
  if (discards < 0) return nullptr;
  if (discards) {
    PyObject* hand = PyObject_GetAttrString(other, "hand");
    eq = hand ? PyObject_RichCompareBool(d->hand, hand, Py_EQ) : -1;
    Py_XDECREF(hand);
    if (eq == 1) {
      PyObject* limit = PyObject_GetAttrString(other, "limit");
      eq = limit ? PyObject_RichCompareBool(d->limit, limit, Py_EQ) : -1;
      Py_XDECREF(limit);
    }
  } else if (PyList_Check(other) || PyTuple_Check(other)) {
    PyObject* mine = PySequence_List(self);
    PyObject* theirs = mine ? PySequence_List(other) : nullptr;
    eq = theirs ? PyObject_RichCompareBool(mine, theirs, Py_EQ) : -1;
    Py_XDECREF(mine);
    Py_XDECREF(theirs);
  } else {
    eq = 0;
  }
  if (eq < 0) return nullptr;
  return PyBool_FromLong(op == Py_EQ ? eq : !eq);
}

Py_hash_t discards_hash(PyObject* self) {  // hash((hand, limit)), as Discards
  auto* d = reinterpret_cast<DiscardsObject*>(self);
  PyObject* key = PyTuple_Pack(2, d->hand, d->limit);
  if (!key) return -1;
  const Py_hash_t h = PyObject_Hash(key);
  Py_DECREF(key);
  return h;
}

PyObject* discards_repr(PyObject* self) {  // Discards(2C 3D, limit=5)
  auto* d = reinterpret_cast<DiscardsObject*>(self);
  static const char RANKS[] = "23456789TJQKA", SUITS[] = "SHDC";
  std::string text = "Discards(";
  for (int i = 0; i < d->k; ++i) {
    const long c = PyLong_AsLong(PyTuple_GET_ITEM(d->hand, i));  // (0..51: checked)
    if (i) text += ' ';
    text += RANKS[c % 13];
    text += SUITS[c / 13];
  }
  PyObject* limit = PyObject_Str(d->limit);
  if (!limit) return nullptr;
  PyObject* out = PyUnicode_FromFormat("%s, limit=%U)", text.c_str(), limit);
  Py_DECREF(limit);
  return out;
}

PyObject* discards_reduce(PyObject* self, PyObject*) {  // (pickle, copy)
  auto* d = reinterpret_cast<DiscardsObject*>(self);
  return Py_BuildValue("O(OO)", reinterpret_cast<PyObject*>(Py_TYPE(self)), d->hand, d->limit);
}

PyMemberDef DISCARDS_MEMBERS[] = {
    {"hand", T_OBJECT_EX, offsetof(DiscardsObject, hand), READONLY, "The hand's cards, in order."},
    {"limit", T_OBJECT_EX, offsetof(DiscardsObject, limit), READONLY, "The most cards to discard."},
    {nullptr, 0, 0, 0, nullptr}};

PyMethodDef DISCARDS_METHODS[] = {
    {"__reduce__", discards_reduce, METH_NOARGS, nullptr}, {nullptr, nullptr, 0, nullptr}};

PyType_Slot DISCARDS_SLOTS[] = {
    {Py_tp_doc, const_cast<char*>(
        "The legal discards of a hand (R-DRAW) as bourre.game.observation.Discards gives "
        "them, made in C: KernelDiscards(hand, limit), hand a tuple of cards.")},
    {Py_tp_new, reinterpret_cast<void*>(discards_tp_new)},
    {Py_tp_dealloc, reinterpret_cast<void*>(discards_dealloc)},
    {Py_tp_repr, reinterpret_cast<void*>(discards_repr)},
    {Py_tp_hash, reinterpret_cast<void*>(discards_hash)},
    {Py_tp_richcompare, reinterpret_cast<void*>(discards_richcompare)},
    {Py_tp_iter, reinterpret_cast<void*>(discards_iter)},
    {Py_tp_members, DISCARDS_MEMBERS},
    {Py_tp_methods, DISCARDS_METHODS},
    {Py_sq_length, reinterpret_cast<void*>(discards_len)},
    {Py_sq_item, reinterpret_cast<void*>(discards_item)},
    {Py_sq_contains, reinterpret_cast<void*>(discards_contains)},
    {Py_mp_length, reinterpret_cast<void*>(discards_len)},
    {Py_mp_subscript, reinterpret_cast<void*>(discards_subscript)},
    {0, nullptr}};

PyType_Spec DISCARDS_SPEC = {"bourre.kernel._kernel.KernelDiscards", sizeof(DiscardsObject), 0,
                             Py_TPFLAGS_DEFAULT | Py_TPFLAGS_SEQUENCE, DISCARDS_SLOTS};

// The legal actions as the Python state gives them (State.legal_actions): a new list of
// the shared action objects; for an exchange, a KernelDiscards of the hand (R-DRAW).
PyObject* legal_actions_raw(const Stepper& g) {
  if (g.phase == P_PLAY) {
    PyObject* out = PyList_New(popcount(g.legal));
    if (!out) return nullptr;
    Py_ssize_t i = 0;
    for (u64 m = g.legal; m; m &= m - 1) {
      PyObject* o = ACTIONS.cards[lowest(m)];
      Py_INCREF(o);
      PyList_SET_ITEM(out, i++, o);
    }
    return out;
  }
  if (g.phase == P_DECIDE) {
    const bool both = g.forced == F_NONE;  // (R-ACE-UP, R-LAST-STANDS: play only)
    PyObject* out = PyList_New(both ? 2 : 1);
    if (!out) return nullptr;
    if (both) Py_INCREF(ACTIONS.pass), PyList_SET_ITEM(out, 0, ACTIONS.pass);
    Py_INCREF(ACTIONS.play);
    PyList_SET_ITEM(out, both ? 1 : 0, ACTIONS.play);
    return out;
  }
  if (g.phase == P_EXCHANGE) {
    u64 m = g.hand[g.turn_seat];
    PyObject* hand = PyTuple_New(popcount(m));
    if (!hand) return nullptr;
    for (Py_ssize_t i = 0; m; m &= m - 1) PyTuple_SET_ITEM(hand, i++, PyLong_FromLong(lowest(m)));
    PyObject* limit = PyLong_FromLong(g.H.h);
    PyObject* out = limit ? discards_new_raw(hand, limit) : nullptr;
    Py_DECREF(hand);
    Py_XDECREF(limit);
    return out;
  }
  return PyList_New(0);
}

// StepCalls: the Stepper's hot calls as builtin methods (see above).
struct StepCallsObject {
  PyObject_HEAD
  Stepper* g;         // owned by ``stepper``
  PyObject* stepper;  // the pybind11 Stepper object (a strong reference; its attribute
                      // ``owner`` is a weak reference to the KernelState, so a dropped
                      // state goes at once, no cycle for the collector to find)
};

Stepper* live(PyObject* self) {  // (none once the cycle collector has cleared it)
  auto* o = reinterpret_cast<StepCallsObject*>(self);
  if (!o->stepper) PyErr_SetString(PyExc_RuntimeError, "this state was discarded");
  return o->stepper ? o->g : nullptr;
}

// The KernelState a Stepper steps (its attribute ``owner``, a weak reference): a new
// reference, or NULL with an error when the state is gone.
PyObject* owner_of(PyObject* stepper) {
  PyObject* ref = PyObject_GetAttr(stepper, OWNER);
  if (!ref) return nullptr;
  PyObject* owner = PyObject_CallNoArgs(ref);
  Py_DECREF(ref);
  if (owner == Py_None) {
    Py_DECREF(owner);
    PyErr_SetString(PyExc_RuntimeError, "this state was discarded");
    return nullptr;
  }
  return owner;
}

PyObject* calls_is_terminal(PyObject* self, PyObject*) {
  const Stepper* g = live(self);
  if (!g) return nullptr;
  return PyBool_FromLong(g->phase == P_OVER);
}

PyObject* calls_current_player(PyObject* self, PyObject*) {
  const Stepper* g = live(self);
  if (!g) return nullptr;
  return PyLong_FromLong(g->current_player());
}

PyObject* calls_legal_actions(PyObject* self, PyObject*) {
  const Stepper* g = live(self);
  if (!g) return nullptr;
  return legal_actions_raw(*g);
}

// The one legal action when there is no choice (a lone card, a forced play), else None.
PyObject* only_action_raw(const Stepper& g) {
  PyObject* o = Py_None;
  if (g.phase == P_PLAY && !(g.legal & (g.legal - 1))) {
    o = ACTIONS.cards[lowest(g.legal)];
  } else if (g.phase == P_DECIDE && g.forced != F_NONE) {
    o = ACTIONS.play;
  }
  Py_INCREF(o);
  return o;
}

PyObject* calls_only_action(PyObject* self, PyObject*) {
  const Stepper* g = live(self);
  if (!g) return nullptr;
  return only_action_raw(*g);
}

// The kernel's own step for the action objects it gives (by identity) and for a discard
// of int cards; 1 taken, 0 not (the wrapper's _apply_slow decides).
int apply_fast(Stepper& g, PyObject* a) {
  if (g.phase == P_PLAY) {
    for (u64 m = g.legal; m; m &= m - 1) {
      const int c = lowest(m);
      if (ACTIONS.cards[c] == a) return g.play(c) ? 1 : 0;
    }
  } else if (g.phase == P_DECIDE) {
    if (a == ACTIONS.play || (a == ACTIONS.pass && g.forced == F_NONE)) {
      return g.decide(a == ACTIONS.play) ? 1 : 0;
    }
  } else if (g.phase == P_EXCHANGE && Py_TYPE(a) == Py_TYPE(ACTIONS.pass) &&
             PyTuple_GET_SIZE(a) == 2) {  // Action("discard", cards): cards of type int
    PyObject* kind = PyTuple_GET_ITEM(a, 0);
    PyObject* cards = PyTuple_GET_ITEM(a, 1);
    if ((kind == DISCARD_WORD || (PyUnicode_Check(kind) &&
                                  PyUnicode_CompareWithASCIIString(kind, "discard") == 0)) &&
        PyTuple_CheckExact(cards) && PyTuple_GET_SIZE(cards) <= 5) {
      static std::vector<int> cs;  // (reused: no allocation a step; the GIL is held)
      cs.clear();
      for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(cards); ++i) {
        PyObject* c = PyTuple_GET_ITEM(cards, i);
        int over = 0;
        const long v = PyLong_CheckExact(c) ? PyLong_AsLongAndOverflow(c, &over) : -1;
        if (v < 0 || v >= 52) return 0;
        cs.push_back(static_cast<int>(v));
      }
      return g.exchange(cs) ? 1 : 0;
    }
  }
  return 0;
}

PyObject* calls_apply_action(PyObject* self, PyObject* action) {
  Stepper* g = live(self);
  if (!g) return nullptr;
  try {
    if (apply_fast(*g, action)) Py_RETURN_NONE;
  } catch (const std::bad_alloc&) {
    return PyErr_NoMemory();
  } catch (const std::exception& e) {
    PyErr_SetString(PyExc_RuntimeError, e.what());
    return nullptr;
  }
  // anything else: the wrapper's _apply_slow (equal values, refusals in the rules' words)
  PyObject* owner = owner_of(reinterpret_cast<StepCallsObject*>(self)->stepper);
  if (!owner) return nullptr;
  PyObject* out = PyObject_CallMethodOneArg(owner, APPLY_SLOW, action);
  Py_DECREF(owner);
  if (!out) return nullptr;
  Py_DECREF(out);
  Py_RETURN_NONE;
}

int calls_traverse(PyObject* self, visitproc visit, void* arg) {
  Py_VISIT(Py_TYPE(self));
  Py_VISIT(reinterpret_cast<StepCallsObject*>(self)->stepper);
  return 0;
}

void forget_last();

int calls_clear(PyObject* self) {
  Py_CLEAR(reinterpret_cast<StepCallsObject*>(self)->stepper);
  forget_last();  // (the state looked up last may be this one's)
  return 0;
}

void calls_dealloc(PyObject* self) {
  PyTypeObject* type = Py_TYPE(self);
  PyObject_GC_UnTrack(self);
  calls_clear(self);
  type->tp_free(self);
  Py_DECREF(type);
}

PyMethodDef CALLS_METHODS[] = {
    {"is_terminal", calls_is_terminal, METH_NOARGS, "Whether the session is over."},
    {"current_player", calls_current_player, METH_NOARGS,
     "The seat to act; -1 at a chance node, -4 when over."},
    {"legal_actions", calls_legal_actions, METH_NOARGS,
     "The legal actions: a new list, or for an exchange a KernelDiscards."},
    {"apply_action", calls_apply_action, METH_O,
     "Apply an action; any action the kernel does not take goes to owner._apply_slow."},
    {"only_action", calls_only_action, METH_NOARGS, "The one legal action, or None."},
    {nullptr, nullptr, 0, nullptr}};

PyType_Slot CALLS_SLOTS[] = {
    {Py_tp_doc, const_cast<char*>("A Stepper's stepped calls as builtin methods (Stepper.calls).")},
    {Py_tp_dealloc, reinterpret_cast<void*>(calls_dealloc)},
    {Py_tp_traverse, reinterpret_cast<void*>(calls_traverse)},
    {Py_tp_clear, reinterpret_cast<void*>(calls_clear)},
    {Py_tp_methods, CALLS_METHODS},
    {0, nullptr}};

PyType_Spec CALLS_SPEC = {
    "bourre.kernel._kernel.StepCalls", sizeof(StepCallsObject), 0,
    Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_DISALLOW_INSTANTIATION, CALLS_SLOTS};

py::object step_calls(const py::object& self) {
  need_actions();
  Stepper& g = self.cast<Stepper&>();
  forget_last();  // (a new state may stand where a dead one stood)
  auto* o = reinterpret_cast<StepCallsObject*>(STEP_CALLS->tp_alloc(STEP_CALLS, 0));
  if (!o) throw py::error_already_set();
  o->g = &g;
  o->stepper = self.ptr();
  Py_INCREF(o->stepper);
  return py::reinterpret_steal<py::object>(reinterpret_cast<PyObject*>(o));
}

// The same calls as methods of KernelState itself (bind_state_methods): method
// descriptors of that class, so ``state.is_terminal()`` takes CPython's specialized path
// (LOAD_METHOD_WITH_VALUES, PRECALL_NO_KW_METHOD_DESCRIPTOR_*: ~200 instructions less a
// call than a bound method kept in the instance's dict, which CPython 3.11 cannot
// specialize).  Each finds the state's StepCalls in its attribute ``_calls``.
PyObject* CALLS = nullptr;  // "_calls", interned

// The last state looked up and its StepCalls (both borrowed), since reading ``_calls``
// costs ~190 instructions a call.  Memory-safe: a StepCalls clears the entry when it goes
// (calls_clear), so the StepCalls given is alive; and each new StepCalls (KernelState._bind,
// the one place ``_calls`` is set) clears it, so a new state at a dead one's address is
// never given the dead one's calls.  (A state may die while its StepCalls lives, held
// elsewhere: a KernelState made at its address is bound, hence the entry cleared, before
// any of these methods can be called on it.)
struct {
  PyObject* state = nullptr;
  PyObject* calls = nullptr;
} LAST;

PyObject* calls_of(PyObject* state) {  // a new reference, or NULL with the error set
  if (state == LAST.state) {
    Py_INCREF(LAST.calls);
    return LAST.calls;
  }
  PyObject* c = PyObject_GetAttr(state, CALLS);
  if (c && Py_TYPE(c) != STEP_CALLS) {
    Py_DECREF(c);
    PyErr_SetString(PyExc_TypeError, "_calls: not the kernel's StepCalls");
    return nullptr;
  }
  if (c) LAST.state = state, LAST.calls = c;
  return c;
}

void forget_last() { LAST.state = LAST.calls = nullptr; }

template <PyObject* (*Call)(PyObject*, PyObject*)>
PyObject* on_state(PyObject* state, PyObject* arg) {
  PyObject* c = calls_of(state);
  if (!c) return nullptr;
  PyObject* out = Call(c, arg);
  Py_DECREF(c);
  return out;
}

PyMethodDef STATE_METHODS[] = {
    {"is_terminal", on_state<calls_is_terminal>, METH_NOARGS, "Whether the session is over."},
    {"current_player", on_state<calls_current_player>, METH_NOARGS,
     "The seat to act; -1 at a chance node, -4 when over."},
    {"legal_actions", on_state<calls_legal_actions>, METH_NOARGS,
     "The legal actions: a new list, or for an exchange a KernelDiscards (R-DRAW)."},
    {"apply_action", on_state<calls_apply_action>, METH_O,
     "Apply an action; a refusal is the Python rules' RuleViolation, the state unchanged."},
    {"only_action", on_state<calls_only_action>, METH_NOARGS, "The one legal action, or None."},
    {nullptr, nullptr, 0, nullptr}};

void bind_state_methods(const py::object& cls) {
  if (!PyType_Check(cls.ptr())) throw std::invalid_argument("bind_state_methods: a class");
  for (PyMethodDef* def = STATE_METHODS; def->ml_name; ++def) {
    PyObject* descr = PyDescr_NewMethod(reinterpret_cast<PyTypeObject*>(cls.ptr()), def);
    if (!descr || PyObject_SetAttrString(cls.ptr(), def->ml_name, descr) < 0) {
      Py_XDECREF(descr);
      throw py::error_already_set();
    }
    Py_DECREF(descr);
  }
}

// The two types, made once at import (the module's attributes StepCalls, KernelDiscards),
// with Sequence's mixins index, count and __reversed__ as Discards has them.
void add_call_types(py::module_& m) {
  fill_binomials();
  DISCARD_WORD = PyUnicode_InternFromString("discard");
  APPLY_SLOW = PyUnicode_InternFromString("_apply_slow");
  OWNER = PyUnicode_InternFromString("owner");
  CALLS = PyUnicode_InternFromString("_calls");
  if (!DISCARD_WORD || !APPLY_SLOW || !OWNER || !CALLS) throw py::error_already_set();
  STEP_CALLS = reinterpret_cast<PyTypeObject*>(PyType_FromSpec(&CALLS_SPEC));
  if (!STEP_CALLS) throw py::error_already_set();
  KERNEL_DISCARDS = reinterpret_cast<PyTypeObject*>(PyType_FromSpec(&DISCARDS_SPEC));
  if (!KERNEL_DISCARDS) throw py::error_already_set();
  py::object sequence = py::module_::import("collections.abc").attr("Sequence");
  py::object kd = py::reinterpret_borrow<py::object>(reinterpret_cast<PyObject*>(KERNEL_DISCARDS));
  for (const char* name : {"index", "count", "__reversed__"}) kd.attr(name) = sequence.attr(name);
  m.attr("KernelDiscards") = kd;
  m.attr("StepCalls") = py::reinterpret_borrow<py::object>(reinterpret_cast<PyObject*>(STEP_CALLS));
}

// What a seat observes, as plain values (the wrapper makes the Observation): see
// bourre.game.state.observe.
py::tuple observe_raw(const Stepper& g, int seat) {
  if (seat < 0 || seat >= g.H.n) throw std::invalid_argument("seat");
  py::list decisions, active, tricks, trick, won, balances;
  for (int i = 0; i < g.ndec; ++i) {
    decisions.append(py::make_tuple(g.dec_seat[i], static_cast<bool>(g.dec_play[i]), g.dec_exch[i]));
  }
  for (int i = 0; i < g.nactive; ++i) active.append(py::int_(g.active[i]));
  const int per = g.nactive;
  for (int t = 0; t < g.ntricks; ++t) {
    py::tuple plays(static_cast<std::size_t>(per));
    for (int p = 0; p < per; ++p) {
      plays[static_cast<std::size_t>(p)] = py::make_tuple(g.tr_seat[t][p], g.tr_card[t][p]);
    }
    tricks.append(py::make_tuple(g.tr_leader[t], std::move(plays), g.tr_winner[t]));
  }
  for (int p = 0; p < g.tlen; ++p) trick.append(py::make_tuple(g.trick_seats[p], g.tcards[p]));
  for (int s = 0; s < g.H.n; ++s) {
    won.append(py::int_(g.won[s]));
    balances.append(to_py(g.bal[s]));
  }
  py::list own, gave;
  for (int i = 0; i < g.disc_len[seat]; ++i) own.append(py::int_(g.disc[seat][i]));
  for (int i = 0; i < g.gave_len[seat]; ++i) gave.append(py::int_(g.gave[seat][i]));
  py::tuple out(20);
  out[0] = py::int_(g.number);
  out[1] = py::int_(g.dealer);
  out[2] = py::int_(g.upcard);
  out[3] = mask_tuple(g.hand[seat]);
  out[4] = std::move(own);
  out[5] = std::move(decisions);
  out[6] = std::move(active);
  out[7] = std::move(tricks);
  out[8] = std::move(trick);
  out[9] = std::move(won);
  out[10] = to_py(g.pot);
  out[11] = std::move(balances);
  out[12] = py::int_(g.stock_len - g.stock_pos);
  out[13] = py::int_(g.phase);
  out[14] = py::int_(g.forced);
  out[15] = py::int_(g.chosen[seat]);
  out[16] = std::move(gave);
  out[17] = mask_tuple(g.got[seat]);
  out[18] = py::int_(g.played);
  out[19] = py::bool_(g.cinch_now);
  return out;
}

// The money: each seat's balance change so far in 1/D chips, or after the settlement
// (R-SETTLE: the pot left shared equally) in 1/(n D) chips; with that denominator.
py::tuple returns_raw(const Stepper& g) {
  const int n = g.H.n;
  const bool settled = g.phase == P_OVER && g.settles;
  py::list out(static_cast<std::size_t>(n));
  for (int s = 0; s < n; ++s) {
    const i128 x = settled ? (g.bal[s] - g.start[s]) * n + g.pot : g.bal[s] - g.start[s];
    out[static_cast<std::size_t>(s)] = to_py(x);
  }
  return py::make_tuple(std::move(out), settled ? n : 1);
}

py::list history_raw(const Stepper& g, bool whole) {
  need_actions();
  py::list out;
  const auto& h = g.hist;
  for (std::size_t i = whole ? 0 : g.hand_from; i < h.size(); ++i) {
    const int code = h[i];
    if (code < 52) {
      out.append(py::reinterpret_borrow<py::object>(ACTIONS.cards[code]));
    } else if (code == H_PASS) {
      out.append(py::reinterpret_borrow<py::object>(ACTIONS.pass));
    } else if (code == H_PLAY) {
      out.append(py::reinterpret_borrow<py::object>(ACTIONS.play));
    } else if (code == H_DECK) {
      py::tuple deck(52);
      for (std::size_t j = 0; j < 52; ++j) deck[j] = py::int_(h[i + 1 + j]);
      out.append(py::make_tuple(py::str("deck"), std::move(deck)));
      i += 52;
    } else {
      const int k = code - H_DISCARD;
      py::tuple cards(static_cast<std::size_t>(k));
      for (int j = 0; j < k; ++j) cards[static_cast<std::size_t>(j)] = py::int_(h[i + 1 + static_cast<std::size_t>(j)]);
      out.append(py::make_tuple(py::str("discard"), std::move(cards)));
      i += static_cast<std::size_t>(k);
    }
  }
  return out;
}


// -- Monte Carlo rollouts (bourre_bots.montecarlo) --------------------------------------

// -- what Python gives, read field by field ------------------------------------------------
//
// Every entry below reads a dict the wrapper makes from a Python state; anything can be
// passed instead (the module is one import away), so each field is checked as it is
// read: a missing field or one of the wrong type is a TypeError naming it, a value out
// of range or inconsistent with the rest a ValueError naming it.  Nothing is read or
// written out of bounds whatever the dict holds, and the checks are made once, here,
// never in the search.

[[noreturn]] void bad(const char* what, const std::string& k, const std::string& why) {
  throw std::invalid_argument(std::string(what) + ": " + k + ": " + why);
}

template <typename T>
T field(const py::dict& w, const char* what, const char* k) {
  if (!w.contains(k)) throw py::type_error(std::string(what) + ": the field '" + k + "' is missing");
  try {
    return w[k].template cast<T>();
  } catch (const py::cast_error&) {
    throw py::type_error(std::string(what) + ": " + k + ": of the wrong type or too large");
  }
}

// The cards of a world: each placed at most once among the hands, the stock, the pile
// and the cards played (the rules move cards, never copy them: R-DECK).
struct Placed {
  const char* what;
  u64 seen = 0;
  int card(int c, const std::string& k) const {
    if (c < 0 || c >= 52) bad(what, k, "a card is 0 to 51");
    return c;
  }
  u64 place(const std::vector<int>& cards, const std::string& k) {
    u64 m = 0;
    for (int c : cards) {
      card(c, k);
      if ((seen >> c) & 1) bad(what, k, "card " + std::to_string(c) + " is placed twice");
      seen |= u64{1} << c;
      m |= u64{1} << c;
    }
    return m;
  }
};

// The seats of ``seats`` (at most n, each 0..n-1, none twice).
void check_seats(const char* what, const char* k, const std::vector<int>& seats, int n) {
  if (static_cast<int>(seats.size()) > n) bad(what, k, "more seats than players");
  u32 seen = 0;
  for (int s : seats) {
    if (s < 0 || s >= n) bad(what, k, "seat " + std::to_string(s) + " is not at the table");
    if ((seen >> s) & 1) bad(what, k, "seat " + std::to_string(s) + " twice");
    seen |= u32{1} << s;
  }
}

// ``seats`` is the order of play of a trick led by ``seats[0]`` (R-LEAD): the active
// seats in their order, from the leader.
bool is_rotation(const std::vector<int>& seats, const int* active, int nactive) {
  if (static_cast<int>(seats.size()) != nactive || !nactive) return false;
  int i = 0;
  while (i < nactive && active[i] != seats[0]) ++i;
  if (i == nactive) return false;
  for (int p = 0; p < nactive; ++p) {
    if (seats[static_cast<std::size_t>(p)] != active[(i + p) % nactive]) return false;
  }
  return true;
}

// A world of the Monte Carlo bot (bourre.game.worlds: a Python State of one hand, at a
// player's turn), loaded as the wrapper describes it (bourre.kernel.rollouts): every
// hand, the stock in the order the rollouts draw it, the discards, the decisions so far,
// the tricks, the money in 1/D chips.  Checked whole: the cards each in one place, the
// seats at the table, the decisions in turn from the dealer's left, the players those who
// said play, the tricks fewer than the hand's cards, each hand the size the hand's point
// gives it, and the turn the one the decisions component gives (Stepper::turn).
std::unique_ptr<Stepper> load_world(const py::dict& house, const py::dict& w) {
  static const char* W = "world";
  const House h = read_house(house);
  const int n = h.n, hs = h.h;
  auto v = [&w](const char* k) { return field<std::vector<int>>(w, W, k); };
  auto per_seat = [&](const char* k) {
    auto x = field<std::vector<std::vector<int>>>(w, W, k);
    if (static_cast<int>(x.size()) != n) bad(W, k, "one a seat");
    for (const auto& one : x) {
      if (static_cast<int>(one.size()) > hs) bad(W, k, "more cards than a hand holds");
    }
    return x;
  };
  auto money = [&](const char* k, i64 x, bool nonneg) {
    if (x >= LIMIT || x <= -LIMIT || (nonneg && x < 0)) bad(W, k, "beyond the kernel's range");
    return x;
  };
  const auto bal = field<std::vector<i64>>(w, W, "balances");
  const auto start = field<std::vector<i64>>(w, W, "start");
  if (static_cast<int>(bal.size()) != n) bad(W, "balances", "one a seat");
  if (static_cast<int>(start.size()) != n) bad(W, "start", "one a seat");
  for (const i64 x : bal) money("balances", x, false);
  for (const i64 x : start) money("start", x, false);
  auto g = std::make_unique<Stepper>(h, nullptr, bal, 0, 1, true);
  for (int s = 0; s < n; ++s) g->start[s] = start[static_cast<std::size_t>(s)];
  g->pot = money("pot", field<i64>(w, W, "pot"), true);
  g->pot_at_stake = money("pot_at_stake", field<i64>(w, W, "pot_at_stake"), true);
  g->number = 1;
  g->first_hand = false;
  g->dealt = true;
  g->dealer = field<int>(w, W, "dealer");
  if (g->dealer < 0 || g->dealer >= n) bad(W, "dealer", "not a seat");
  Placed cards{W};
  g->upcard = cards.card(field<int>(w, W, "upcard"), "upcard");
  g->trump = g->upcard / 13;
  const auto hands = per_seat("hands"), discards = per_seat("discards");
  const auto gave = per_seat("gave"), got = per_seat("got");
  for (int s = 0; s < n; ++s) {
    const auto i = static_cast<std::size_t>(s);
    g->hand[s] = cards.place(hands[i], "hands");
    g->got[s] = 0;
    for (int c : got[i]) g->got[s] |= u64{1} << cards.card(c, "got");
    g->disc_len[s] = static_cast<int>(discards[i].size());
    for (int k = 0; k < g->disc_len[s]; ++k) {
      g->disc[s][k] = static_cast<std::uint8_t>(cards.card(discards[i][static_cast<std::size_t>(k)], "discards"));
    }
    g->gave_len[s] = static_cast<int>(gave[i].size());
    for (int k = 0; k < g->gave_len[s]; ++k) {
      g->gave[s][k] = static_cast<std::uint8_t>(cards.card(gave[i][static_cast<std::size_t>(k)], "gave"));
    }
  }
  const auto stock = v("stock"), pile = v("pile");
  cards.place(stock, "stock");  // (so each at most 52, with the hands)
  cards.place(pile, "pile");
  g->stock_len = static_cast<int>(stock.size());
  g->stock_pos = 0;
  for (int i = 0; i < g->stock_len; ++i) g->stock[i] = static_cast<std::uint8_t>(stock[static_cast<std::size_t>(i)]);
  g->pile_len = static_cast<int>(pile.size());
  for (int i = 0; i < g->pile_len; ++i) g->pile[i] = static_cast<std::uint8_t>(pile[static_cast<std::size_t>(i)]);
  g->played = cards.place(v("played"), "played");
  const auto chosen = v("chosen"), active = v("active"), won = v("won");
  if (static_cast<int>(chosen.size()) != n) bad(W, "chosen", "one a seat");
  if (static_cast<int>(won.size()) != n) bad(W, "won", "one a seat");
  check_seats(W, "active", active, n);
  int tricks_won = 0;
  for (int s = 0; s < n; ++s) {
    const int c = chosen[static_cast<std::size_t>(s)], x = won[static_cast<std::size_t>(s)];
    if (c < -1 || c > 1) bad(W, "chosen", "-1, 0 or 1 a seat");
    if (x < 0 || x > hs) bad(W, "won", "0 to the hand's size a seat");
    g->chosen[s] = c;
    g->won[s] = x;
    tricks_won += x;
  }
  g->nactive = static_cast<int>(active.size());
  for (int i = 0; i < g->nactive; ++i) g->active[i] = active[static_cast<std::size_t>(i)];
  g->step = field<int>(w, W, "step");
  if (g->step < 0 || g->step > n + 1) bad(W, "step", "0 to players + 1");
  g->exchanging = field<int>(w, W, "exchanging");
  if (g->exchanging < -1 || g->exchanging >= n) bad(W, "exchanging", "a seat or -1");
  const auto decisions = field<std::vector<std::tuple<int, bool, int>>>(w, W, "decisions");
  if (static_cast<int>(decisions.size()) > n) bad(W, "decisions", "more than the players");
  // R-DECIDE: the decisions are told in turn from the dealer's left; the players are
  // those who said play, in that order, and the seat exchanging now (R-DRAW)
  std::vector<int> playing;
  g->ndec = 0;
  for (const auto& d : decisions) {
    const int s = std::get<0>(d), k = std::get<2>(d);
    if (s != g->seat_at(g->ndec)) bad(W, "decisions", "not in turn from the dealer's left");
    if (k < 0 || k > hs || (!std::get<1>(d) && k)) bad(W, "decisions", "an exchange of 0 to the hand's size");
    if (std::get<1>(d)) playing.push_back(s);
    g->dec_seat[g->ndec] = static_cast<std::uint8_t>(s);
    g->dec_play[g->ndec] = std::get<1>(d) ? 1 : 0;
    g->dec_exch[g->ndec++] = static_cast<std::uint8_t>(k);
  }
  if (g->exchanging >= 0) playing.push_back(g->exchanging);
  if (playing != active) bad(W, "active", "not the seats that said play, in turn");
  const int phase = field<int>(w, W, "phase");
  g->turn_seat = field<int>(w, W, "seat");
  g->forced = field<int>(w, W, "forced");
  if (g->turn_seat < 0 || g->turn_seat >= n) bad(W, "seat", "not a seat");
  if (g->forced < 0 || g->forced > 2) bad(W, "forced", "0, 1 or 2");
  const auto tricks = field<std::vector<std::vector<int>>>(w, W, "tricks");  // leader, winner, (seat, card)...
  if (static_cast<int>(tricks.size()) >= hs) bad(W, "tricks", "a world has a card left to play");
  if (tricks_won != static_cast<int>(tricks.size())) bad(W, "won", "not one a trick");
  g->ntricks = 0;
  u64 in_tricks = 0;
  for (const auto& t : tricks) {
    if (static_cast<int>(t.size()) != 2 + 2 * g->nactive) bad(W, "tricks", "a card a player");
    std::vector<int> order;
    for (int p = 0; p < g->nactive; ++p) order.push_back(t[static_cast<std::size_t>(2 + 2 * p)]);
    if (!is_rotation(order, g->active, g->nactive) || t[0] != order[0]) {
      bad(W, "tricks", "not the players in turn from the leader");
    }
    bool winner_plays = false;
    for (int s : order) winner_plays = winner_plays || s == t[1];
    if (!winner_plays) bad(W, "tricks", "a winner not playing");
    g->tr_leader[g->ntricks] = static_cast<std::uint8_t>(t[0]);
    g->tr_winner[g->ntricks] = static_cast<std::uint8_t>(t[1]);
    for (int p = 0; p < g->nactive; ++p) {
      g->tr_seat[g->ntricks][p] = static_cast<std::uint8_t>(order[static_cast<std::size_t>(p)]);
      const int c = cards.card(t[static_cast<std::size_t>(3 + 2 * p)], "tricks");
      if ((in_tricks >> c) & 1 || !((g->played >> c) & 1)) bad(W, "tricks", "a card not played, or twice");
      in_tricks |= u64{1} << c;
      g->tr_card[g->ntricks][p] = static_cast<std::uint8_t>(c);
    }
    ++g->ntricks;
  }
  const auto words = field<std::vector<i64>>(w, W, "reshuffle");
  if (words.size() != 4) bad(W, "reshuffle", "four words");
  for (int i = 0; i < 4; ++i) g->reshuffle_gen.s[i] = static_cast<u32>(words[static_cast<std::size_t>(i)]);
  if (!(g->reshuffle_gen.s[0] | g->reshuffle_gen.s[1] | g->reshuffle_gen.s[2] | g->reshuffle_gen.s[3])) {
    g->reshuffle_gen.s[3] = 1;
  }
  g->seeded = true;  // (the pile reshuffled on that stream: one hand, no deal follows)
  // the point of the hand: the decisions component's turn (Sequential / Simultaneous)
  const int ndec = g->ndec, step = g->step, ex = g->exchanging;
  const bool sim = h.simultaneous;
  auto folded = [&](int s) {
    for (int i = 0; i < ndec; ++i) {
      if (g->dec_seat[i] == s && !g->dec_play[i]) return true;
    }
    return false;
  };
  if (phase == P_DECIDE || phase == P_EXCHANGE) {
    if (!tricks.empty() || g->played) bad(W, "tricks", "none before the play");
    const bool ok = phase == P_DECIDE
                        ? ex < 0 && step < n && (sim ? ndec == 0 && g->nactive == 0 : step == ndec)
                        : ex >= 0 && ex == g->seat_at(ndec) && ndec < n &&
                              (sim ? step >= n && g->chosen[ex] == 1 : step == ndec + 1);
    if (!ok) bad(W, "step", "not a turn of the decisions");
    if (phase == P_EXCHANGE && (g->disc_len[ex] || g->gave_len[ex])) bad(W, "discards", "a second exchange");
    const int seat = g->turn_seat, forced = g->forced;
    if (!g->turn() || g->phase != phase || g->turn_seat != seat || g->forced != forced) {
      bad(W, "seat", "not the seat whose turn it is");
    }
    for (int s = 0; s < n; ++s) {
      if (!folded(s) && popcount(g->hand[s]) != hs) bad(W, "hands", "a hand of the wrong size");
    }
  } else if (phase == P_PLAY) {
    if (ex >= 0 || ndec != n || g->nactive < 2 || (sim ? step < n : step != n)) {
      bad(W, "step", "the play after every decision");
    }
    const auto seats = v("trick_seats"), trick = v("trick");
    if (!is_rotation(seats, g->active, g->nactive)) bad(W, "trick_seats", "not the players in turn");
    if (trick.size() >= seats.size()) bad(W, "trick", "longer than a trick");
    for (int p = 0; p < g->nactive; ++p) g->trick_seats[p] = seats[static_cast<std::size_t>(p)];
    g->tlen = static_cast<int>(trick.size());
    g->leader = field<int>(w, W, "leader");
    if (g->leader != seats[0]) bad(W, "leader", "not the trick's first seat");
    g->f = Facts();
    for (int p = 0; p < g->tlen; ++p) {
      const int c = cards.card(trick[static_cast<std::size_t>(p)], "trick");
      if ((in_tricks >> c) & 1 || !((g->played >> c) & 1)) bad(W, "trick", "a card not played, or twice");
      in_tricks |= u64{1} << c;
      g->tcards[p] = c;
      g->f.add(c, p, g->trump);
    }
    if (in_tricks != g->played) bad(W, "played", "not the cards of the tricks");
    for (int p = 0; p < g->nactive; ++p) {
      const int want = hs - g->ntricks - (p < g->tlen ? 1 : 0);
      if (popcount(g->hand[g->trick_seats[p]]) != want) bad(W, "hands", "a hand of the wrong size");
    }
    g->phase = P_PLAY;
    g->compute_legal();
  } else {
    bad(W, "phase", "a world is at a player's turn (1, 2 or 3)");
  }
  return g;
}

// Each candidate (a card, 52 pass, 53 play, or the list of cards discarded) applied to a
// copy of the world, the hand then played out by the heuristic at every seat: ``each``
// is given the hand's end.
template <typename Each>
void play_out(const Stepper& g, const py::list& candidates, int me, Each each) {
  if (me < 0 || me >= g.H.n) throw std::invalid_argument("seat");
  const Bots B = default_heuristic(g.H.n);
  std::vector<int> cs;
  for (const auto& cand : candidates) {
    Stepper c(g);
    bool ok;
    if (PyLong_Check(cand.ptr())) {
      int over = 0;
      const long code = PyLong_AsLongAndOverflow(cand.ptr(), &over);
      if (over || code < 0 || code > H_PLAY) {
        throw std::invalid_argument("candidates: a card 0..51, 52 (pass), 53 (play) or a discard's cards");
      }
      ok = code < 52 ? c.play(static_cast<int>(code)) : c.decide(code == H_PLAY);
    } else {
      if (!small_ints(cand, 5, cs)) {
        throw std::invalid_argument("candidates: a discard is a list of at most 5 cards 0..51");
      }
      ok = c.exchange(cs);
    }
    if (!ok) throw std::invalid_argument("candidates: a candidate the rules refuse");
    for (int guard = 0; c.phase != P_OVER && guard < 1000; ++guard) c.heuristic_step(B);
    each(c);
  }
}

// ``me``'s money change over the hand (its balance less its start), as a float of chips.
std::vector<double> rollouts(const Stepper& g, const py::list& candidates, int me) {
  std::vector<double> out;
  play_out(g, candidates, me, [&](const Stepper& c) {
    out.push_back(static_cast<double>(c.bal[me] - c.start[me]) / c.H.scale);
  });
  return out;
}

// The same, with the hand's outcome beside the money (pay_out's): (money, the seat that
// took the pot or -1, the bourre seats as a mask).
std::vector<std::tuple<double, int, u32>> rollout_outcomes(const Stepper& g,
                                                          const py::list& candidates, int me) {
  std::vector<std::tuple<double, int, u32>> out;
  play_out(g, candidates, me, [&](const Stepper& c) {
    out.emplace_back(static_cast<double>(c.bal[me] - c.start[me]) / c.H.scale,
                     c.outcome.winner, c.outcome.bourre);
  });
  return out;
}

// -- sampled worlds (bourre.game.worlds, for the Monte Carlo bot) -------------------------

// What the Monte Carlo bot's view says of its hand (bourre.game.worlds._attempt/_replay):
// the position, the public history, and a sample's hands, exchanges and draws.
struct WorldSpec {
  House h;
  std::vector<i64> bal;
  i64 pot = 0;
  int dealer = 0, me = 0, up = 0, my_decision = -1, to_act = 0, target = 0;
  std::vector<std::tuple<int, bool, int>> decisions;
  bool in_active[MAX_SEATS] = {};
  std::vector<std::pair<int, int>> plays;  // (seat, card), in order
  std::vector<int> hand, view_gave, view_got;  // the seat's own
  std::vector<std::vector<int>> dealt, gave, got;  // a sample
};

WorldSpec read_world(const py::dict& house, const py::dict& w) {
  static const char* V = "view";
  WorldSpec W;
  W.h = read_house(house);
  const int n = W.h.n, hs = W.h.h;
  W.bal = field<std::vector<i64>>(w, V, "balances");
  if (static_cast<int>(W.bal.size()) != n) bad(V, "balances", "one a seat");
  for (const i64 x : W.bal) {
    if (x >= LIMIT || x <= -LIMIT) bad(V, "balances", "beyond the kernel's range");
  }
  W.pot = field<i64>(w, V, "pot");
  if (W.pot < 0 || W.pot >= LIMIT) bad(V, "pot", "beyond the kernel's range");
  W.dealer = field<int>(w, V, "dealer");
  W.me = field<int>(w, V, "me");
  W.up = field<int>(w, V, "upcard");
  if (W.dealer < 0 || W.dealer >= n) bad(V, "dealer", "not a seat");
  if (W.me < 0 || W.me >= n) bad(V, "me", "not a seat");
  if (W.up < 0 || W.up >= 52) bad(V, "upcard", "a card is 0 to 51");
  W.decisions = field<std::vector<std::tuple<int, bool, int>>>(w, V, "decisions");
  if (static_cast<int>(W.decisions.size()) > n) bad(V, "decisions", "more than the players");
  for (const auto& d : W.decisions) {
    if (std::get<0>(d) < 0 || std::get<0>(d) >= n) bad(V, "decisions", "a seat not at the table");
    if (std::get<2>(d) < 0 || std::get<2>(d) > hs) bad(V, "decisions", "an exchange of 0 to the hand's size");
  }
  for (int s : field<std::vector<int>>(w, V, "active")) {
    if (s < 0 || s >= n) bad(V, "active", "a seat not at the table");
    W.in_active[s] = true;
  }
  W.my_decision = field<int>(w, V, "my_decision");
  W.plays = field<std::vector<std::pair<int, int>>>(w, V, "plays");
  if (W.plays.size() > 52) bad(V, "plays", "more than the deck");
  for (const auto& p : W.plays) {
    if (p.first < 0 || p.first >= n) bad(V, "plays", "a seat not at the table");
    if (p.second < 0 || p.second >= 52) bad(V, "plays", "a card is 0 to 51");
  }
  W.to_act = field<int>(w, V, "to_act");
  W.target = field<int>(w, V, "phase");
  W.hand = field<std::vector<int>>(w, V, "hand");
  W.view_gave = field<std::vector<int>>(w, V, "gave_mine");
  W.view_got = field<std::vector<int>>(w, V, "got_mine");
  for (const auto* v : {&W.hand, &W.view_gave, &W.view_got}) {
    if (static_cast<int>(v->size()) > hs) bad(V, "hand", "more cards than a hand holds");
    for (int c : *v) {
      if (c < 0 || c >= 52) bad(V, "hand", "a card is 0 to 51");
    }
  }
  return W;
}

// The public history replayed into a sample (worlds._replay, step for step): the deal
// the sample gives, the decisions and exchanges announced (the Monte Carlo bot's heuristic
// deciding for opponents whose decision is still secret), every card played, until the
// world stands where the view does; its unknown stock then shuffled on ``gen``.
// 1: ``out`` is the world; 0: the rules refuse the sample; -1: the Python rules must
// replay it (a draw from reshuffled discards).
int replay_spec(const WorldSpec& W, const Xoshiro& gen, std::unique_ptr<Stepper>& out) {
  const int n = W.h.n;
  u64 seen = 0;
  for (const auto& d : W.dealt) {
    if (static_cast<int>(d.size()) != W.h.h) return 0;
    for (int c : d) {
      if (c < 0 || c >= 52 || ((seen >> c) & 1)) return 0;
      seen |= u64{1} << c;
    }
  }
  bool dealer_holds = false;
  for (int c : W.dealt[static_cast<std::size_t>(W.dealer)]) dealer_holds = dealer_holds || c == W.up;
  if (!dealer_holds) return 0;  // R-DEAL: the dealer holds the upcard
  int order[MAX_SEATS];
  for (int s = 0; s < n; ++s) order[s] = -1;
  for (std::size_t i = 0; i < W.decisions.size(); ++i) order[std::get<0>(W.decisions[i])] = static_cast<int>(i);
  const int ndec = static_cast<int>(W.decisions.size());
  auto g = std::make_unique<Stepper>(W.h, nullptr, W.bal, W.dealer, 1, true);
  g->deal_given(W.dealt, W.up, static_cast<i128>(W.pot));
  const Bots B = default_heuristic(n);
  std::size_t done = 0;
  for (int guard = 0; guard < 200; ++guard) {
    if (g->current_player() == W.to_act && g->phase == W.target && g->ndec == ndec &&
        done == W.plays.size()) {
      g->finish_world(gen);
      out = std::move(g);
      return 1;
    }
    const int s = g->current_player();
    if (g->phase == P_DECIDE) {
      bool play;
      if (s == W.me) {
        play = W.my_decision == 1;
      } else if (order[s] >= 0) {
        play = std::get<1>(W.decisions[static_cast<std::size_t>(order[s])]);
      } else if (W.in_active[s]) {
        play = true;
      } else {
        play = g->heuristic_decides(B);
      }
      if (!g->decide(play)) return 0;
    } else if (g->phase == P_EXCHANGE) {
      const auto i = static_cast<std::size_t>(s);
      const int r = s == W.me ? g->exchange_told(W.view_gave, W.view_got)
                              : g->exchange_told(W.gave[i], W.got[i]);
      if (r <= 0) return r < 0 ? -1 : 0;
    } else if (g->phase == P_PLAY) {
      if (done >= W.plays.size() || !g->play(W.plays[done].second)) return 0;
      ++done;
    } else {
      return 0;
    }
  }
  return 0;
}

Xoshiro gen_of(const std::vector<i64>& words) {
  if (words.size() != 4) throw std::invalid_argument("words: four");
  Xoshiro gen;
  for (int i = 0; i < 4; ++i) gen.s[i] = static_cast<u32>(words[static_cast<std::size_t>(i)]);
  if (!(gen.s[0] | gen.s[1] | gen.s[2] | gen.s[3])) gen.s[3] = 1;
  return gen;
}

// A sample's hands, exchanges and draws given (worlds._attempt's), replayed: a Stepper,
// or 0 (the rules refuse the sample) / 1 (the Python rules must replay it).
py::object replay_world(const py::dict& house, const py::dict& w) {
  WorldSpec W = read_world(house, w);
  const int n = W.h.n;
  W.dealt = field<std::vector<std::vector<int>>>(w, "view", "dealt");
  W.gave = field<std::vector<std::vector<int>>>(w, "view", "gave");
  W.got = field<std::vector<std::vector<int>>>(w, "view", "got");
  if (static_cast<int>(W.dealt.size()) != n || static_cast<int>(W.gave.size()) != n ||
      static_cast<int>(W.got.size()) != n) {
    bad("view", "dealt, gave, got", "one hand a seat");
  }
  std::unique_ptr<Stepper> out;
  const int r = replay_spec(W, gen_of(field<std::vector<i64>>(w, "view", "words")), out);
  if (r == 1) return py::cast(std::move(out));
  return py::int_(r < 0 ? 1 : 0);
}

// worlds._pick on the kernel's stream: ``k`` of ``cards`` (removed), one key
// u ** powers[card] a card in order, the k largest taken largest first (the earlier on
// a tie).
std::vector<int> pick(std::vector<int>& cards, int k, const double* powers, Xoshiro& gen) {
  std::vector<int> got;
  if (k <= 0) return got;
  const std::size_t m = cards.size();
  std::vector<double> keys(m);
  for (std::size_t i = 0; i < m; ++i) {
    const double u = static_cast<double>(gen.next()) * (1.0 / 4294967296.0);
    const double e = powers[cards[i]];
    keys[i] = e == 1.0 ? u : std::pow(u, e);
  }
  for (int t = 0; t < k && t < static_cast<int>(m); ++t) {
    std::size_t best = 0;
    double top = -1.0;
    for (std::size_t i = 0; i < m; ++i) {
      if (keys[i] > top) {
        best = i;
        top = keys[i];
      }
    }
    got.push_back(cards[best]);
    keys[best] = -2.0;
  }
  std::vector<int> rest;
  for (std::size_t i = 0; i < m; ++i) {
    if (keys[i] != -2.0) rest.push_back(cards[i]);
  }
  cards.swap(rest);
  return got;
}

void shuffle_ints(std::vector<int>& v, Xoshiro& gen) {
  for (int i = static_cast<int>(v.size()) - 1; i > 0; --i) {
    const int j = static_cast<int>(gen.below(static_cast<u32>(i + 1)));
    std::swap(v[static_cast<std::size_t>(i)], v[static_cast<std::size_t>(j)]);
  }
}

// worlds._attempt on the kernel's stream: the unseen cards dealt to the others as the
// sample's weights say (``keep`` for the cards a player kept at its exchange, ``fold``
// for those of a folded hand and the cards discarded).
bool sample_into(WorldSpec& W, const double* keep, const double* fold, Xoshiro& gen) {
  static const double FLAT[52] = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
                                  1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
                                  1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1};
  const int n = W.h.n, h = W.h.h;
  std::vector<std::vector<int>> played_by(static_cast<std::size_t>(n));
  u64 played = 0;
  for (const auto& p : W.plays) {
    played_by[static_cast<std::size_t>(p.first)].push_back(p.second);
    played |= u64{1} << p.second;
  }
  std::vector<int> after = W.hand;
  for (int c : played_by[static_cast<std::size_t>(W.me)]) after.push_back(c);
  u64 got_mine = 0, seen = played | (u64{1} << W.up);
  for (int c : W.view_got) got_mine |= u64{1} << c;
  std::vector<int> mine;
  for (int c : after) {
    if (!((got_mine >> c) & 1)) mine.push_back(c);
    seen |= u64{1} << c;
  }
  for (int c : W.view_gave) {
    mine.push_back(c);
    seen |= u64{1} << c;
  }
  std::vector<int> unseen;
  for (int c = 0; c < 52; ++c) {
    if (!((seen >> c) & 1)) unseen.push_back(c);
  }
  shuffle_ints(unseen, gen);
  int decided[MAX_SEATS];
  for (int s = 0; s < n; ++s) decided[s] = -1;
  for (std::size_t i = 0; i < W.decisions.size(); ++i) decided[std::get<0>(W.decisions[i])] = static_cast<int>(i);
  W.dealt.assign(static_cast<std::size_t>(n), {});
  W.gave.assign(static_cast<std::size_t>(n), {});
  W.got.assign(static_cast<std::size_t>(n), {});
  W.dealt[static_cast<std::size_t>(W.me)] = mine;
  for (int s = 0; s < n; ++s) {
    if (s == W.me) continue;
    const auto i = static_cast<std::size_t>(s);
    std::vector<int> own = played_by[i];
    bool up_played = false;
    for (int c : own) up_played = up_played || c == W.up;
    const int d = decided[s];
    const bool plays = d >= 0 && std::get<1>(W.decisions[static_cast<std::size_t>(d)]);
    // the dealer's upcard is in its hand, unless it threw every card (then the upcard too)
    const bool thrown_up = s == W.dealer && !up_played && plays &&
                           std::get<2>(W.decisions[static_cast<std::size_t>(d)]) >= h;
    if (s == W.dealer && !up_played && !thrown_up) own.push_back(W.up);
    if (!plays) {
      const auto more = pick(unseen, h - static_cast<int>(own.size()), d >= 0 ? fold : FLAT, gen);
      own.insert(own.end(), more.begin(), more.end());
      W.dealt[i] = own;
      continue;
    }
    const int k = std::get<2>(W.decisions[static_cast<std::size_t>(d)]);
    const auto rest = pick(unseen, h - static_cast<int>(own.size()), keep, gen);
    std::vector<int> hand_after = own;
    hand_after.insert(hand_after.end(), rest.begin(), rest.end());
    std::vector<int> kept, others;
    bool up_in = false;
    for (int c : hand_after) up_in = up_in || c == W.up;
    if (s == W.dealer && up_in) kept.push_back(W.up);
    for (int c : hand_after) {
      if (!(s == W.dealer && up_in && c == W.up)) others.push_back(c);
    }
    const auto more = pick(others, h - k - static_cast<int>(kept.size()), keep, gen);
    kept.insert(kept.end(), more.begin(), more.end());
    W.got[i] = others;
    W.gave[i] = pick(unseen, k - (thrown_up ? 1 : 0), fold, gen);
    if (thrown_up) W.gave[i].insert(W.gave[i].begin(), W.up);
    kept.insert(kept.end(), W.gave[i].begin(), W.gave[i].end());
    W.dealt[i] = kept;
  }
  for (const auto& d : W.dealt) {
    if (static_cast<int>(d.size()) != h) return false;  // (not enough unseen cards)
  }
  return true;
}

// Up to ``count`` worlds of the Monte Carlo bot, each sampled (up to ``tries`` draws) and
// replayed on the kernel's stream ``words``: a list of Steppers and Nones (no consistent
// sample found), or 1 when the Python rules must sample them (a draw from reshuffled
// discards).
py::object sample_worlds(const py::dict& house, const py::dict& w, int count, int tries,
                         const std::vector<double>& keep, const std::vector<double>& fold) {
  WorldSpec W = read_world(house, w);
  if (keep.size() != 52 || fold.size() != 52) throw std::invalid_argument("keep, fold: 52 powers");
  if (count < 0 || count > (1 << 20)) throw std::invalid_argument("count: 0 to 2^20 worlds");
  if (tries < 0 || tries > (1 << 16)) throw std::invalid_argument("tries: 0 to 2^16");
  Xoshiro gen = gen_of(field<std::vector<i64>>(w, "view", "words"));
  py::list out;
  for (int k = 0; k < count; ++k) {
    py::object got = py::none();
    for (int t = 0; t < tries; ++t) {
      if (!sample_into(W, keep.data(), fold.data(), gen)) continue;
      Xoshiro stock_gen = gen;
      gen.next();  // (the world's own stream: a jump of one word)
      for (int i = 0; i < 4; ++i) stock_gen.s[i] ^= 0x9E3779B9u * static_cast<u32>(i + 1);
      if (!(stock_gen.s[0] | stock_gen.s[1] | stock_gen.s[2] | stock_gen.s[3])) stock_gen.s[3] = 1;
      std::unique_ptr<Stepper> world;
      const int r = replay_spec(W, stock_gen, world);
      if (r < 0) return py::int_(1);
      if (r == 1) {
        got = py::cast(std::move(world));
        break;
      }
    }
    out.append(std::move(got));
  }
  return std::move(out);
}

// -- the double-dummy solver (bourre.advice.solver, issue 31) ----------------------------
//
// bourre.advice.solver's search on plain cards: for the seat to play, each legal card's
// (a) sure tricks (alpha-beta: the seat maximises its tricks, every other seat minimises
// them) and (b) chips (max^n: every seat its own money from this hand, ties to the first
// card in ascending order), equivalent cards merged as the reference merges them, every
// position remembered.  Its rules are the stepped state's (compute_legal, the trick
// winner, pay_out): tests/kernel/test_solver.py holds it to the Python reference.

struct DDPos {
  u64 hand[MAX_SEATS] = {};  // by seat
  u64 played = 0;
  u64 tmask = 0;  // the trick's cards
  Facts f;
  int tlen = 0, ntricks = 0;
  u32 wcode = 0;  // the tricks won, 3 bits an active seat (DDSolver::outcome)
  std::uint8_t trick_seats[MAX_SEATS] = {};
  std::uint8_t tcards[MAX_SEATS] = {};
  std::uint8_t won[MAX_SEATS] = {};  // by seat
};

// A position's key within one solve (the root's cards, their holders and the rules
// fixed), in three words.  Exact: the cards the active seats hold, the leader and the
// trick's length (bits 52 on), then the trick's cards and the tricks won in a unary code,
// "0 1^won" a seat (bits 52 on).  At the start of a trick, packed (the top bit set): by
// suit, the holders of the cards held in rank order, so that positions alike but for
// cards nobody holds any more are one (see DDSolver::packed).  Empty slot: all zero.
struct DDKey {
  u64 a = 0, b = 0, c = 0;
  bool operator==(const DDKey& o) const { return a == o.a && b == o.b && c == o.c; }
  bool empty() const { return !(a | c); }
};

inline std::size_t dd_hash(const DDKey& k) {
  u64 h = (k.a * 0x9E3779B97F4A7C15ULL) ^ ((k.b + 0x632BE59BD9B4E019ULL) * 0xBF58476D1CE4E5B9ULL) ^
          ((k.c + 0x2545F4914F6CDD1DULL) * 0xD6E8FEB86659FD93ULL);
  h ^= h >> 29;
  h *= 0x94D049BB133111EBULL;
  return static_cast<std::size_t>(h ^ (h >> 32));
}

// A bounded table (issue 44): buckets of four slots of 32 bytes, grown from 256 slots by
// doubling up to ``max_slots`` (the chips 2^19, 16 MB; the sure tricks 2^20, 32 MB), then
// never more.  A position goes
// to its bucket: its own slot if there, else an empty one, else it replaces the slot of
// the least work (depth-preferred: ``work`` is the tricks left below the position, so a
// position near the end of the hand gives way first; among equals the newest entry is
// replaced, the always-replace slot).  Every entry is exact: a position forgotten is
// searched again if met.
template <class V>
struct DDTable {
  static constexpr std::size_t WAYS = 4;
  struct Slot {
    DDKey k;
    V v;
    std::uint8_t work = 0;
  };
  std::vector<Slot> slots;
  std::size_t count = 0, mask = 0, max_slots;

  explicit DDTable(std::size_t most)
      : slots(std::size_t{1} << 8), mask(((std::size_t{1} << 8) - 1) & ~(WAYS - 1)), max_slots(most) {}
  void grow() {
    std::vector<Slot> old(slots.size() * 2);
    old.swap(slots);
    mask = (slots.size() - 1) & ~(WAYS - 1);
    count = 0;
    for (const Slot& s : old) {
      if (!s.k.empty()) put(s.k, s.v, s.work);
    }
  }
  const V* get(const DDKey& k) const {
    const Slot* b = &slots[dd_hash(k) & mask];
    for (std::size_t i = 0; i < WAYS; ++i) {
      if (b[i].k == k) return &b[i].v;
    }
    return nullptr;
  }
  void put(const DDKey& k, const V& v, int work) {
    if (4 * (count + 1) > 3 * slots.size() && slots.size() < max_slots) grow();
    Slot* b = &slots[dd_hash(k) & mask];
    Slot* least = b;
    for (std::size_t i = 0; i < WAYS; ++i) {
      if (b[i].k == k) {
        b[i].v = v;
        return;
      }
      if (b[i].k.empty()) {
        b[i] = Slot{k, v, static_cast<std::uint8_t>(work)};
        ++count;
        return;
      }
      if (b[i].work <= least->work) least = &b[i];
    }
    *least = Slot{k, v, static_cast<std::uint8_t>(work)};
  }
};

struct DDTricks {
  std::int8_t lo, hi;
};

struct DDSolver {
  House H;
  int trump = 0, nactive = 0, me = 0;
  int active[MAX_SEATS] = {};
  u64 disc[MAX_SEATS] = {};  // each seat's own discards not yet returned (R-SURE's known)
  i128 P = 0;                // the pot at stake
  i128 paid[3] = {};         // what pay_out gave each class of outcome
  DDTable<u32> chips_table{std::size_t{1} << 19};       // 16 MB at most
  DDTable<DDTricks> tricks_table{std::size_t{1} << 20};  // 32 MB at most
  static constexpr u32 FAIL = ~u32{0};  // (chips: not an outcome, 2 bits a seat)
  u64 transparent = 0;  // the cards no rule of the play reads (heads)
  u64 trumps = 0;       // the trump suit's cards
  std::uint8_t owner[52] = {};  // the active index of each card's holder at the root
  std::uint8_t owner_of_seat[MAX_SEATS] = {};
  std::uint8_t order[MAX_SEATS][MAX_SEATS] = {};  // the order of play when a seat leads

  // The player's legal cards (Stepper::compute_legal).
  u64 legal(const DDPos& g) const {
    const int s = g.trick_seats[g.tlen];
    const u64 held = g.hand[s];
    u64 lm = !g.tlen                 ? held
             : H.optional_undertrump ? follow_optional_undertrump(held, g.f, trump)
                                     : follow(held, g.f, trump);
    if (H.cinch && (g.won[s] >= 3 || (held & trumps))) {
      const u64 kn = g.played | disc[s];
      if (has_cinch(held, trump, kn, g.won[s])) {
        lm = cinch_narrow(lm, held, g.tlen, trump, kn, g.tlen == nactive - 1);
      }
    }
    lm &= held;
    return lm ? lm : held;
  }

  // The legal cards that head a group of equivalent ones (solver._Search.groups): a card
  // joins the one before it when both are of one suit and every card between them is in
  // the player's hand or in a completed trick; inside the search (``deep``), also a card
  // no active seat holds nor played (the stock, a discard, a folded hand): no rule of the
  // play reads such a card, but for the cinch's trumps (R-SURE: a trump nobody played
  // keeps a lower one from being master), so those cards stay between trumps under the
  // cinch.  (At the root the reference's groups: each card's ``head`` is reported.)
  u64 heads(const DDPos& g, u64 lm, bool deep = true) const {
    const u64 near =
        g.hand[g.trick_seats[g.tlen]] | (g.played & ~g.tmask) | (deep ? transparent : 0);
    u64 out = 0;
    int prev = -1;
    for (u64 m = lm; m; m &= m - 1) {
      const int c = lowest(m);
      if (prev >= 0 && suit_of(prev) == suit_of(c)) {
        const u64 between = ((u64{1} << c) - 1) & ~((u64{2} << prev) - 1);
        if (!(between & ~near)) {
          prev = c;
          continue;
        }
      }
      out |= u64{1} << c;
      prev = c;
    }
    return out;
  }

  // Stepper::play, on the position.
  void play(DDPos& g, int c) const {
    const int s = g.trick_seats[g.tlen];
    const u64 bit = u64{1} << c;
    g.hand[s] &= ~bit;
    g.played |= bit;
    g.tmask |= bit;
    g.tcards[g.tlen] = c;
    g.f.add(c, g.tlen, trump);
    if (++g.tlen < nactive) return;
    const int w = g.trick_seats[g.f.winner()];
    ++g.won[w];
    g.wcode += u32{1} << (3 * owner_of_seat[w]);
    ++g.ntricks;
    std::memcpy(g.trick_seats, order[w], sizeof g.trick_seats);  // the winner leads (R-LEAD)
    g.tlen = 0;
    g.tmask = 0;
    g.f = Facts();
  }

  DDKey key(const DDPos& g) const {
    u64 held = 0, won = 0;
    for (int i = nactive - 1; i >= 0; --i) {
      const int s = active[i];
      held |= g.hand[s];
      won = (won << (g.won[s] + 1)) | ((u64{1} << g.won[s]) - 1);
    }
    return DDKey{held | (static_cast<u64>(g.trick_seats[0]) << 52) |
                     (static_cast<u64>(g.tlen) << 56),
                 g.tmask | (won << 52), 0};
  }

  // The key of a position at the start of a trick, packed: for each suit the number of
  // cards the active seats hold and their holders in rank order (3 bits each), the
  // tricks each has won, the leader.  Two positions with one packing differ only in cards
  // nobody holds any more (played, or never dealt to an active seat): the held cards
  // correspond one to one, suit for suit in the same order and with the same holders,
  // and every rule of the play compares cards held or on the table by suit and rank
  // (R-FOLLOW, R-TRUMP, R-TRICK), so the play from them is the same, card for card, to
  // the same outcome, and the search's choices (the first card of the best value) too.
  // Only the cinch reads other cards (R-SURE: a trump is master when every trump above
  // it is known: played, or the seat's own discard): under the cinch the trump suit is
  // kept exact (the cards played and not dealt follow from those held, within a solve).
  DDKey packed(const DDPos& g) const {
    u64 held = 0;
    for (int i = 0; i < nactive; ++i) held |= g.hand[active[i]];
    const u64 exact = H.cinch ? held & trumps : 0;
    u64 hi = 0, lo = 0;  // the holders, 3 bits a card (at most 40 cards)
    for (u64 x = held & ~exact; x; x &= x - 1) {
      hi = (hi << 3) | (lo >> 61);
      lo = (lo << 3) | owner[lowest(x)];
    }
    u64 c = g.wcode;                               // 24 bits
    c = (c << 3) | owner_of_seat[g.trick_seats[0]];  // the leader
    for (int suit = 0; suit < 4; ++suit) c = (c << 4) | popcount((held & ~exact) >> (13 * suit) & SUIT);
    c = (c << 13) | (exact >> (13 * trump) & SUIT);  // (56 bits in all)
    return DDKey{lo, hi, c | (u64{1} << 63)};
  }

  // What the payout (pay_out) gives each seat at the end of the hand, as a class of 2 bits
  // a seat: 2 the pot at stake P (R-WIN), 1 nothing (a tie carries the pot; a seat with
  // a trick that does not take the pot; a seat not playing), 0 the bourre payment x
  // (R-BOURRE, R-POT-LIMIT).  P > 0 > -x: the classes order each seat's money as the
  // money does, and the vector of classes is the vector of money (money() inverts it).
  // Remembered for the last counts of tricks won met (``outcomes``, by DDPos::wcode).
  struct Known {
    u32 wcode = ~u32{0}, v = 0;
  };
  std::vector<Known> outcomes = std::vector<Known>(std::size_t{1} << 10);
  u32 outcome(const int* won, u32 wcode) {
    Known& known = outcomes[(wcode * 0x9E3779B1u) >> 22];
    if (known.wcode == wcode) return known.v;
    i128 bal[MAX_SEATS] = {};
    i128 pot = 0;
    bool exempt[MAX_SEATS];
    int nb = 0, carried = 0;
    bool lost = false;  // (never: P is within 2^62)
    pay_out(H, active, nactive, won, false, P, bal, pot, exempt, nb, carried, lost);
    u32 out = 0;
    for (int s = 0; s < MAX_SEATS; ++s) {
      const u32 c = bal[s] > 0 ? 2 : bal[s] == 0 ? 1 : 0;
      paid[c] = bal[s];
      out |= c << (2 * s);
    }
    known = Known{wcode, out};
    return out;
  }

  static int cls(u32 v, int s) { return static_cast<int>((v >> (2 * s)) & 3); }

  // The money of an outcome, in 1/D chips: the amounts pay_out gave each class.
  i128 money(u32 v, int s) const { return paid[cls(v, s)]; }

  // The tricks won at the end: in the last trick every seat holds one card, played as it
  // must be (R-TRICK).
  u32 last_trick(const DDPos& g, int* won) const {
    for (int s = 0; s < MAX_SEATS; ++s) won[s] = g.won[s];
    if (g.ntricks >= H.h) return g.wcode;
    Facts f = g.f;
    for (int p = g.tlen; p < nactive; ++p) f.add(lowest(g.hand[g.trick_seats[p]]), p, trump);
    const int w = g.trick_seats[f.winner()];
    ++won[w];
    return g.wcode + (u32{1} << (3 * owner_of_seat[w]));
  }

  // The cards that beat card c in any trick c could win (R-TRICK): the higher cards of
  // its suit, and the trumps if it is not one.
  u64 beaters(int c) const {
    const u64 above = above_card(SUIT << (13 * suit_of(c)), c);
    return suit_of(c) == trump ? above : above | trumps;
  }

  // Whether a seat among the places from..nactive-1 of the trick so far (but place
  // ``skip``) holds only cards that beat c: c cannot win a trick that seat plays to.  It
  // must follow with a higher card of c's suit (R-FOLLOW: a card that beats the trick's
  // winner when it holds one) or, without that suit, trump (R-TRUMP: over-trumping when
  // it can, R-OPTIONAL-UNDERTRUMP too; the cinch only narrows to the highest trumps);
  // played before c, its card already beats c.
  bool killed(const DDPos& g, int c, int from, int skip) const {
    const u64 beat = beaters(c);
    for (int p = from; p < nactive; ++p) {
      const u64 h = g.hand[g.trick_seats[p]];
      if (p != skip && h && !(h & ~beat)) return true;
    }
    return false;
  }

  // Whether a seat at the places from..nactive-1 of the trick, after card c (winning the
  // trick ``f`` so far), may only beat it (issue 44): its legal cards on that trick, the
  // obligations of R-FOLLOW and R-TRUMP (or R-OPTIONAL-UNDERTRUMP) without the cinch's,
  // which only narrow them (R-CINCH-FOLLOW), all beat c.  The seats between c and it play
  // cards that do not beat c (else c has lost already), which leave the facts those
  // obligations read as they are: the suit led, the highest card of the trick's best kind.
  bool bound(const DDPos& g, const Facts& f, int c, int from) const {
    const u64 beat = beaters(c);
    for (int p = from; p < nactive; ++p) {
      const u64 h = g.hand[g.trick_seats[p]];
      const u64 lm =
          H.optional_undertrump ? follow_optional_undertrump(h, f, trump) : follow(h, f, trump);
      if (lm && !(lm & ~beat)) return true;
    }
    return false;
  }

  // At most how many more tricks seat s can win from here, whatever anyone plays (every
  // other seat plays to every trick to come, from the cards it holds now): in the trick
  // so far, one if its card there wins it or a card it holds could, and no seat still to
  // play kills that card (``killed``); after it, one for each card it holds that no other
  // seat kills.  Sound, not tight: it only lowers the reach of a seat's search (chips).
  int most_more(const DDPos& g, int s) const {
    int pos = 0;
    while (g.trick_seats[pos] != s) ++pos;
    int now = 0;
    if (g.tlen) {
      if (pos < g.tlen) {
        now = g.f.winner() == pos && !killed(g, g.tcards[pos], g.tlen, -1) &&
              !bound(g, g.f, g.tcards[pos], g.tlen);
      } else {
        for (u64 m = g.hand[s]; m && !now; m &= m - 1) {
          const int c = lowest(m);
          if (!g.f.would_win(c, trump) || killed(g, c, g.tlen, pos)) continue;
          Facts f = g.f;
          f.add(c, pos, trump);
          now = !bound(g, f, c, pos + 1);
        }
      }
    }
    int later = 0;
    for (u64 m = g.hand[s]; m; m &= m - 1) later += !killed(g, lowest(m), 0, pos);
    return std::min(H.h - g.ntricks, now + later);
  }

  // The trumps sure to win the trick they are played in (R-TRICK): every card held is
  // played before the hand ends, and a trump above every trump another seat holds (and
  // above those of the trick so far) wins its trick.  Only the seat holding the highest
  // trump in play has such trumps: their number, that seat in ``holder`` (-1: none).
  int masters(const DDPos& g, int& holder) const {
    holder = -1;
    u64 held = 0;
    for (int i = 0; i < nactive; ++i) held |= g.hand[active[i]];
    held &= trumps;
    if (!held) return 0;
    const int top = 63 - __builtin_clzll(held);
    if (above_card(g.tmask & trumps, top)) return 0;  // a higher trump on the trick
    for (int i = 0; i < nactive; ++i) {
      if ((g.hand[active[i]] >> top) & 1) holder = active[i];
    }
    const u64 mine = g.hand[holder] & trumps, others = held & ~mine;
    return popcount(others ? above_card(mine, 63 - __builtin_clzll(others)) : mine);
  }

  // The best class seat s could still reach (R-WIN, R-BOURRE): 2 the pot, when it could
  // still end with more tricks than every other; 1 nothing, when it has a trick or could
  // still take one; else 0, bourre whatever is played.
  int reach(const DDPos& g, int s) const {
    int other = 0;
    for (int i = 0; i < nactive; ++i) {
      const int w = g.won[active[i]];
      if (w > other && active[i] != s) other = w;
    }
    if (g.won[s] && g.won[s] + H.h - g.ntricks <= other) return 1;
    int holder;
    const int sure = masters(g, holder);
    int more = most_more(g, s);
    if (holder >= 0 && holder != s) {  // the holder's master trumps: tricks s cannot win
      more = std::min(more, H.h - g.ntricks - sure);
      other = std::max(other, g.won[holder] + sure);
    }
    return g.won[s] + more > other ? 2 : (g.won[s] || more > 0) ? 1 : 0;
  }

  // A trick start left when a parent's question was answered (FAIL) is remembered as
  // PARTIAL, with the seats then known not to take the pot from it (bits 16 on).
  static constexpr u32 PARTIAL = u32{1} << 31;

  // (b) max^n, ties to the first card (solver._Search.chips), on outcomes.  A seat
  // whose card already gives it the best class it could still reach stops there: the
  // cards after it could only tie, and a tie keeps the first.  ``parent``, the seat that
  // played the card leading here, only asks whether the value gives it the pot (``need``
  // 2; else exact): FAIL says it does not, without the value.  So a seat that has a
  // card keeping it out of the bourre (class 1) and not giving ``parent`` the pot stops
  // with FAIL: the cards after it would replace that one only if they gave it the pot,
  // which ``parent`` then would not take (shallow pruning).  Only exact values are
  // remembered, at the start of a trick (a position in a trick is reached by one path
  // from that start).
  u32 chips(const DDPos& g, int parent, int need) {
    if (g.ntricks >= H.h - 1) {
      int won[MAX_SEATS];
      const u32 wcode = last_trick(g, won);
      return outcome(won, wcode);
    }
    if (need && reach(g, parent) < need) return FAIL;
    const bool store = g.tlen == 0;
    DDKey k;
    u32 nopot = 0;  // seats known not to take the pot from here
    if (store) {
      k = packed(g);
      if (const u32* known = chips_table.get(k)) {
        if (!(*known & PARTIAL)) return *known;
        nopot = *known >> 16 & 0xFF;
        if (need == 2 && (nopot >> parent & 1)) return FAIL;
      }
    }
    const u64 lm = legal(g);
    if (!(lm & (lm - 1))) {  // one card (a lead under the cinch: remembered all the same)
      DDPos child = g;
      play(child, lowest(lm));
      const u32 v = chips(child, parent, need);
      if (store) chips_table.put(k, v == FAIL ? PARTIAL | (nopot | u32{1} << parent) << 16 : v, H.h - g.ntricks);
      return v;
    }
    const int player = g.trick_seats[g.tlen];
    int reach = -1;  // (its reach, asked only when a card has left it short of the pot)
    const u64 hs = heads(g, lm);
    u32 best = 0;
    int best_c = -1;
    for (u64 m = hs; m; m &= m - 1) {
      DDPos child = g;
      play(child, lowest(m));
      const u32 v = chips(child, player, best_c + 1);
      if (v == FAIL || cls(v, player) <= best_c) continue;
      best = v;
      best_c = cls(v, player);
      if (best_c == 2) break;  // (the pot: the best any seat can reach)
      if (reach < 0) reach = this->reach(g, player);
      if (best_c >= reach) break;
      if (need == 2 && parent != player && best_c >= 1 && cls(best, parent) < 2) {
        if (store) {  // (what it learnt: no seat the line found leaves without the pot gets it)
          for (int i = 0; i < nactive; ++i) {
            if (active[i] != player && cls(best, active[i]) < 2) nopot |= u32{1} << active[i];
          }
          chips_table.put(k, PARTIAL | nopot << 16, H.h - g.ntricks);
        }
        return FAIL;
      }
    }
    if (store) chips_table.put(k, best, H.h - g.ntricks);
    return best;
  }

  // (a) alpha-beta, fail-soft, the bounds remembered (solver._Search.sure_tricks).
  int sure(const DDPos& g, int alpha, int beta) {
    if (g.ntricks >= H.h - 1) {
      int won[MAX_SEATS];
      last_trick(g, won);
      return won[me];
    }
    const u64 lm = legal(g);
    if (!(lm & (lm - 1))) {  // one card: played, the position not remembered
      DDPos child = g;
      play(child, lowest(lm));
      return sure(child, alpha, beta);
    }
    int lo = g.won[me];
    int hi = lo + H.h - g.ntricks;
    {  // the master trumps' tricks (masters), the tricks me can still win (most_more)
      int holder;
      const int sure = masters(g, holder);
      if (holder == me) lo += sure;
      if (holder >= 0 && holder != me) hi -= sure;
      hi = std::min(hi, g.won[me] + most_more(g, me));
      if (lo >= hi) return lo;
    }
    const DDKey k = g.tlen ? key(g) : packed(g);
    if (const DDTricks* known = tricks_table.get(k)) {
      lo = std::max(lo, static_cast<int>(known->lo));
      hi = std::min(hi, static_cast<int>(known->hi));
    }
    if (lo == hi || lo >= beta) return lo;
    if (hi <= alpha) return hi;
    alpha = std::max(alpha, lo);
    beta = std::min(beta, hi);
    const bool maximising = g.trick_seats[g.tlen] == me;
    const u64 hs = heads(g, lm);
    int cards[13];
    int nc = 0;
    for (u64 m = hs; m && nc < 13; m &= m - 1) cards[nc++] = lowest(m);
    if (maximising) {
      std::reverse(cards, cards + nc);  // the likeliest winners first
    } else if (g.tlen && g.trick_seats[g.f.winner()] == me) {
      // me's card takes the trick so far: the cards that would take it from me first
      std::stable_partition(cards, cards + nc, [&](int c) { return g.f.would_win(c, trump); });
    }
    int a = alpha, b = beta;
    int best = maximising ? -1 : H.h + 1;
    for (int i = 0; i < nc; ++i) {
      DDPos child = g;
      play(child, cards[i]);
      const int v = sure(child, a, b);
      if (maximising) {
        best = std::max(best, v);
        a = std::max(a, v);
      } else {
        best = std::min(best, v);
        b = std::min(b, v);
      }
      if (a >= b) break;
    }
    if (best <= alpha) {
      hi = std::min(hi, best);
    } else if (best >= beta) {
      lo = std::max(lo, best);
    } else {
      lo = hi = best;
    }
    tricks_table.put(k, DDTricks{static_cast<std::int8_t>(lo), static_cast<std::int8_t>(hi)},
                     (H.h - g.ntricks) * MAX_SEATS - g.tlen);
    return best;
  }

  // Each legal card, ascending: (card, the card searched for it, sure tricks, chips of
  // every seat in 1/D chips); and the positions remembered.
  py::tuple run(DDPos root) {
    me = root.trick_seats[root.tlen];
    root.tmask = 0;
    for (int p = 0; p < root.tlen; ++p) root.tmask |= u64{1} << root.tcards[p];
    u64 dealt = root.played;
    root.wcode = 0;
    for (int i = 0; i < nactive; ++i) {
      root.wcode += static_cast<u32>(root.won[active[i]]) << (3 * i);
      for (int p = 0; p < nactive; ++p) {
        order[active[i]][p] = static_cast<std::uint8_t>(active[(i + p) % nactive]);
      }
      dealt |= root.hand[active[i]];
      owner_of_seat[active[i]] = static_cast<std::uint8_t>(i);
      for (u64 m = root.hand[active[i]]; m; m &= m - 1) {
        owner[lowest(m)] = static_cast<std::uint8_t>(i);
      }
    }
    trumps = SUIT << (13 * trump);
    transparent = ((u64{1} << 52) - 1) & ~dealt;
    if (H.cinch) transparent &= ~(SUIT << (13 * trump));
    const u64 lm = legal(root);
    const u64 hs = heads(root, lm, false);
    py::list out;
    int head = -1, tricks = 0;
    u32 v = 0;
    for (u64 m = lm; m; m &= m - 1) {
      const int c = lowest(m);
      if ((hs >> c) & 1) {
        head = c;
        DDPos child = root;
        {
          py::gil_scoped_release release;
          play(child, c);
          v = chips(child, -1, 0);
          tricks = sure(child, -1, H.h + 1);
        }
      }
      py::list amounts(static_cast<std::size_t>(H.n));
      for (int s = 0; s < H.n; ++s) amounts[static_cast<std::size_t>(s)] = to_py(money(v, s));
      out.append(py::make_tuple(c, head, tricks, std::move(amounts)));
    }
    return py::make_tuple(std::move(out), chips_table.count + tricks_table.count);
  }
};

// The position of a Python state (bourre.advice.kernel_solver: the hand's fields, the
// pot at stake in 1/D chips), checked.
py::tuple dd_solve(const py::dict& house, const py::dict& w) {
  static const char* X = "position";
  DDSolver S;
  S.H = read_house(house);
  const int n = S.H.n, hs = S.H.h;
  DDPos g;
  Placed cards{X};
  const int up = cards.card(field<int>(w, X, "upcard"), "upcard");
  S.trump = up / 13;
  const i64 pot = field<i64>(w, X, "pot_at_stake");
  if (pot < 0 || pot >= LIMIT) bad(X, "pot_at_stake", "beyond the kernel's range");
  S.P = pot;
  const auto hands = field<std::vector<std::vector<int>>>(w, X, "hands");
  const auto discards = field<std::vector<std::vector<int>>>(w, X, "discards");
  const auto won = field<std::vector<int>>(w, X, "won");
  const auto active = field<std::vector<int>>(w, X, "active");
  const auto seats = field<std::vector<int>>(w, X, "trick_seats");
  const auto trick = field<std::vector<int>>(w, X, "trick");
  const auto played = field<std::vector<int>>(w, X, "played");
  g.ntricks = field<int>(w, X, "tricks");
  if (static_cast<int>(hands.size()) != n) bad(X, "hands", "one a seat");
  if (static_cast<int>(discards.size()) != n) bad(X, "discards", "one a seat");
  if (static_cast<int>(won.size()) != n) bad(X, "won", "one a seat");
  check_seats(X, "active", active, n);
  if (active.size() < 2) bad(X, "active", "two players or more");
  S.nactive = static_cast<int>(active.size());
  for (int i = 0; i < S.nactive; ++i) S.active[i] = active[static_cast<std::size_t>(i)];
  if (!is_rotation(seats, S.active, S.nactive)) bad(X, "trick_seats", "not the players in turn");
  if (trick.size() >= seats.size()) bad(X, "trick", "longer than a trick");
  if (g.ntricks < 0 || g.ntricks >= hs) bad(X, "tricks", "0 to the hand's size less one");
  for (int i = 0; i < S.nactive; ++i) g.trick_seats[i] = static_cast<std::uint8_t>(seats[static_cast<std::size_t>(i)]);
  int tricks_won = 0;
  for (int s = 0; s < n; ++s) {
    const auto i = static_cast<std::size_t>(s);
    if (static_cast<int>(hands[i].size()) > hs) bad(X, "hands", "more cards than a hand holds");
    if (static_cast<int>(discards[i].size()) > hs) bad(X, "discards", "more cards than a hand holds");
    g.hand[s] = cards.place(hands[i], "hands");
    for (int c : discards[i]) S.disc[s] |= u64{1} << cards.card(c, "discards");
    if (won[i] < 0 || won[i] > hs) bad(X, "won", "0 to the hand's size a seat");
    g.won[s] = static_cast<std::uint8_t>(won[i]);
    tricks_won += won[i];
  }
  if (tricks_won != g.ntricks) bad(X, "won", "not one a trick");
  g.played = cards.place(played, "played");
  g.tlen = static_cast<int>(trick.size());
  u64 in_trick = 0;
  for (int p = 0; p < g.tlen; ++p) {
    const int c = cards.card(trick[static_cast<std::size_t>(p)], "trick");
    if (((in_trick >> c) & 1) || !((g.played >> c) & 1)) bad(X, "trick", "a card not played, or twice");
    in_trick |= u64{1} << c;
    g.tcards[p] = static_cast<std::uint8_t>(c);
    g.f.add(c, p, S.trump);
  }
  g.tmask = in_trick;
  const int left = hs - g.ntricks;
  for (int p = 0; p < S.nactive; ++p) {
    const int want = left - (p < g.tlen ? 1 : 0);
    if (popcount(g.hand[g.trick_seats[p]]) != want) bad(X, "hands", "a hand of the wrong size");
  }
  return S.run(g);
}

// The position of a stepped state (KernelState) in the play phase.
py::tuple dd_solve_stepper(const Stepper& k) {
  if (k.phase != P_PLAY) throw std::invalid_argument("not in the play phase");
  DDSolver S;
  S.H = k.H;
  S.trump = k.trump;
  S.P = k.pot_at_stake;
  S.nactive = k.nactive;
  DDPos g;
  for (int i = 0; i < k.nactive; ++i) {
    S.active[i] = k.active[i];
    g.trick_seats[i] = k.trick_seats[i];
  }
  for (int s = 0; s < k.H.n; ++s) {
    g.hand[s] = k.hand[s];
    g.won[s] = k.won[s];
    for (int i = 0; i < k.disc_len[s]; ++i) S.disc[s] |= u64{1} << k.disc[s][i];
  }
  g.played = k.played;
  g.tlen = k.tlen;
  g.ntricks = k.ntricks;
  for (int p = 0; p < k.tlen; ++p) g.tcards[p] = k.tcards[p];
  g.f = k.f;
  return S.run(g);
}
}  // namespace

PYBIND11_MODULE(_kernel, m) {
  add_call_types(m);
  m.def("bind_state_methods", &bind_state_methods, py::arg("cls"),
        "The stepped calls as builtin methods of the class (KernelState), reading each "
        "state's StepCalls from its attribute _calls.");
  m.doc() = "bourre's compiled kernel: seeded sessions of built-in houses and bots (C++17).";
  m.attr("OK") = static_cast<int>(OK);
  m.attr("OVERFLOW") = static_cast<int>(OVERFLOW_);
  m.attr("NO_DISCARDS") = static_cast<int>(NO_DISCARDS);
  m.def("play_shared", &play_shared, py::arg("house"), py::arg("bots"), py::arg("seeds"), py::arg("fraction"), py::arg("fast"),
        "Sessions (one a seed text) whose random bots share the stream bourre-bots:{seed}: "
        "for each, (final balances, places) (R-SETTLE) or a status int.");
  m.def("play_streams", &play_streams, py::arg("house"), py::arg("bots"), py::arg("seed"),
        py::arg("words"), py::arg("fraction"), py::arg("fast"), py::arg("tally") = false,
        "One session whose random bots have a stream each (four words a seat; none: "
        "shared), with each hand's tally when asked.");
  py::class_<Prepared>(m, "Prepared", "A house and its bots, read once (play_prepared).");
  m.def("prepare", &prepare, py::arg("house"), py::arg("bots"), py::arg("shared"),
        "A house and its bots read once, for play_prepared.");
  m.def("play_prepared", &play_prepared, py::arg("prepared"), py::arg("seed"), py::arg("words"),
        py::arg("fraction"), py::arg("fast"), py::arg("tally") = false,
        "play_streams with the house and bots of prepare().");
  m.def("stream_words", &stream_words, py::arg("name"),
        "The state words of the stream named ``name`` (bourre.xoshiro.stream).");
  m.def("set_actions", &set_actions, py::arg("cards"), py::arg("pass_"), py::arg("play"),
        py::arg("discards"),
        "The action objects the stepped state gives (bourre.game.actions): set once.");
  py::class_<HouseFacts>(m, "HouseFacts", "A house read once for the Stepper (read_house).")
      .def(py::init([](const py::dict& d) { return HouseFacts{read_house(d)}; }),
           py::arg("house"));
  py::class_<Stepper>(m, "Stepper", py::dynamic_attr(),
                      "A session stepped one action at a time (KernelState).")
      .def(py::init(&make_stepper), py::arg("house"), py::arg("seed"), py::arg("balances"),
           py::arg("dealer"), py::arg("hands"), py::arg("keep_results"), py::arg("pot") = 0,
           py::arg("settle") = true)
      .def("clone", [](const Stepper& g) { return std::make_unique<Stepper>(g); })
      .def("current_player", &Stepper::current_player)
      .def("phase", [](const Stepper& g) { return g.phase; })
      .def("is_terminal", [](const Stepper& g) { return g.phase == P_OVER; })
      .def("legal_actions", [](const Stepper& g) {
        need_actions();
        return steal(legal_actions_raw(g));
      })
      .def("apply_action", [](const py::object& self, const py::handle& action) {
        // (as StepCalls.apply_action: the kernel's own actions, else owner._apply_slow)
        need_actions();
        if (!apply_fast(self.cast<Stepper&>(), action.ptr())) {
          steal(owner_of(self.ptr())).attr("_apply_slow")(action);
        }
      }, py::arg("action"))
      .def("only_action", [](const Stepper& g) {
        need_actions();
        return steal(only_action_raw(g));
      })
      .def("calls", &step_calls,
           "The stepped calls (is_terminal, current_player, legal_actions, apply_action, "
           "only_action) as builtin methods: what KernelState binds.")
      .def("legal_mask", [](const Stepper& g) { return g.phase == P_PLAY ? g.legal : u64{0}; })
      .def("cinch", [](const Stepper& g) { return g.phase == P_PLAY && g.cinch_now; })
      .def("forced", [](const Stepper& g) { return g.phase == P_DECIDE ? g.forced : 0; })
      .def("hand", [](const Stepper& g, int s) {
        if (s < 0 || s >= g.H.n) throw std::invalid_argument("seat");
        return mask_tuple(g.hand[s]);
      })
      .def("play", [](Stepper& g, const py::handle& card) {
        const int c = small_int(card);  // (not an int 0..51: refused, the rules' words)
        return c >= 0 && g.play(c);
      }, py::arg("card"))
      .def("set_chart", [](Stepper& g, const std::vector<std::vector<int>>& table) {
        // R-DECIDE: each seat's pass (1) or play (2) by the seats already in, 0: the heuristic
        if (static_cast<int>(table.size()) != g.H.n) throw std::invalid_argument("chart: one row a seat");
        for (int s = 0; s < g.H.n; ++s) {
          const auto& row = table[static_cast<std::size_t>(s)];
          if (static_cast<int>(row.size()) != g.H.n) throw std::invalid_argument("chart: one entry a count");
          for (int k = 0; k < g.H.n; ++k) {
            const int v = row[static_cast<std::size_t>(k)];
            if (v < 0 || v > 2) throw std::invalid_argument("chart: 0, 1 or 2");
            g.chart[s][k] = static_cast<std::uint8_t>(v);
          }
        }
      }, py::arg("table"))
      .def("decide", [](Stepper& g, const py::handle& play) {
        return PyBool_Check(play.ptr()) && g.decide(play.ptr() == Py_True);
      }, py::arg("play"))
      .def("exchange", [](Stepper& g, const py::handle& cards) {
        std::vector<int> cs;
        return small_ints(cards, 52, cs) && g.exchange(cs);
      }, py::arg("cards"))
      .def("apply_deck", [](Stepper& g, const py::handle& deck) {
        std::vector<int> cs;
        return small_ints(deck, 52, cs) && g.apply_deck(cs);
      }, py::arg("deck"))
      .def("observe", &observe_raw, py::arg("seat"))
      .def("returns", &returns_raw)
      .def("history", &history_raw, py::arg("whole"))
      .def("history_len", [](const Stepper& g) { return g.hist.size(); })
      .def("number", [](const Stepper& g) { return g.number; })
      .def("overflow", [](const Stepper& g) { return g.overflow; })
      .def("balances", [](const Stepper& g) {
        py::list out;
        for (int s = 0; s < g.H.n; ++s) out.append(to_py(g.bal[s]));
        return out;
      })
      .def("pot", [](const Stepper& g) { return to_py(g.pot); })
      .def("dealer", [](const Stepper& g) { return g.dealer; })
      .def("first_dealer", [](const Stepper& g) { return g.first_dealer; })
      .def("rollouts", &rollouts, py::arg("candidates"), py::arg("me"),
           "Monte Carlo rollouts of the candidates with the heuristic at every seat.")
      .def("rollout_outcomes", &rollout_outcomes, py::arg("candidates"), py::arg("me"),
           "rollouts, each with the hand's outcome: (money, pot taker or -1, bourre mask).");
  m.def("sample_worlds", &sample_worlds, py::arg("house"), py::arg("view"), py::arg("count"),
        py::arg("tries"), py::arg("keep"), py::arg("fold"),
        "Monte Carlo worlds sampled and replayed on the kernel's stream.");
  m.def("replay_world", &replay_world, py::arg("house"), py::arg("world"),
        "A Monte Carlo world replayed from a sample: a Stepper, or 0 (refused) / 1 (Python).");
  m.def("load_world", &load_world, py::arg("house"), py::arg("world"),
        "A Monte Carlo world (one hand at a player's turn) as a Stepper.");
  m.def("dd_solve", &dd_solve, py::arg("house"), py::arg("position"),
        "The double-dummy values of a position (bourre.advice): ([(card, head, sure tricks, "
        "[chips in 1/D a seat]), ...], positions).");
  m.def("dd_solve_stepper", &dd_solve_stepper, py::arg("stepper"),
        "dd_solve for a stepped state in the play phase.");
}
