// bourre.kernel, solver: see solver.h.

#include "solver.h"
#include "convert.h"
#include "hooks.h"
#include <algorithm>
#include <array>
#include <new>
#include <stdexcept>
#include <unordered_map>
#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace bourre::kernel {

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
  // The order of play's origin: 0 the root's, w + 1 after seat w's trick.  A plugin's lead
  // (H.lead) makes the order a function of the last winner, not of the leader alone, so
  // the keys then name it by this (DDSolver::leader_code).
  std::uint8_t order_id = 0;
  // The cards the active seats hold, and the holders of those the packed keys read (the
  // cinch's trumps kept apart), 3 bits a card from the lowest card up (DDSolver::packed),
  // kept by DDSolver::play: the packed keys without a walk over the cards held.
  u64 held = 0;
  unsigned __int128 holders = 0;
  // The cards each seat kills (DDSolver::kills of its hand), kept by DDSolver::play.
  u64 dead[MAX_SEATS] = {};
};

// A position's key at the start of a trick within one solve (the root's cards, their
// holders and the rules fixed), in three words, packed (the top bit set): by suit, the
// holders of the cards held in rank order, so that positions alike but for cards nobody
// holds any more are one (see DDSolver::packed; inside a trick DDSolver::packed_inner).
// (A table's empty slot is told by its tag: DDTable.)
struct DDKey {
  u64 a = 0, b = 0, c = 0;
  bool operator==(const DDKey& o) const { return a == o.a && b == o.b && c == o.c; }
};

// The tables' memory (issue 44).  The search looks a position up at nearly every node,
// at random in tables of up to 16 MB: a look-up that misses the cache is most of a node's
// time on the slowest deals (about 70 % of the chips' and of the sure tricks', perf), and
// on 4 KB pages nearly every one also misses the address cache (TLB).  So a block of 2 MB
// or more is aligned to 2 MB and, on Linux, asked for in huge pages (madvise: transparent
// huge pages; refused, the pages stay small).  Every block is aligned to a cache line.
// With the buckets fetched ahead (prefetch, in chips() and sure()), the slowest
// eight-player deals take 10 to 30 % less CPU (docs/performance.md).
template <class T>
struct TableAlloc {
  using value_type = T;
  static constexpr std::size_t HUGE_PAGE = std::size_t{1} << 21;
  TableAlloc() = default;
  template <class U>
  TableAlloc(const TableAlloc<U>&) {}
  static std::size_t alignment(std::size_t bytes) {
    return bytes >= HUGE_PAGE ? HUGE_PAGE : alignof(T) < 64 ? 64 : alignof(T);
  }
  T* allocate(std::size_t n) {
    const std::size_t bytes = n * sizeof(T);
    void* p = ::operator new(bytes, std::align_val_t{alignment(bytes)});
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (bytes >= HUGE_PAGE) madvise(p, bytes, MADV_HUGEPAGE);  // (a hint)
#endif
    return static_cast<T*>(p);
  }
  void deallocate(T* p, std::size_t n) {
    ::operator delete(p, std::align_val_t{alignment(n * sizeof(T))});
  }
  template <class U>
  bool operator==(const TableAlloc<U>&) const { return true; }
  template <class U>
  bool operator!=(const TableAlloc<U>&) const { return false; }
};

inline std::size_t dd_hash(const DDKey& k) {
  u64 h = (k.a * 0x9E3779B97F4A7C15ULL) ^ ((k.b + 0x632BE59BD9B4E019ULL) * 0xBF58476D1CE4E5B9ULL) ^
          ((k.c + 0x2545F4914F6CDD1DULL) * 0xD6E8FEB86659FD93ULL);
  h ^= h >> 29;
  h *= 0x94D049BB133111EBULL;
  return static_cast<std::size_t>(h ^ (h >> 32));
}

// A bounded table (issue 44): buckets of four slots of 32 bytes, grown from 256 slots by
// doubling up to ``max_slots`` (the chips 2^19, 16 MB, and as many inside a trick; the
// sure tricks at the start of a trick 2^17, 4 MB, inside one 2^19), then never more.  A
// position goes to its bucket: its own slot if there, else an empty one, else it replaces the slot of
// the least work (depth-preferred: ``work`` is the tricks left below the position, so a
// position near the end of the hand gives way first; among equals the last way's entry
// is replaced).  Every entry is exact: a position forgotten is searched again if met.
// Beside the slots, each bucket's ways in one word (``tags``, 2 bytes a slot: 8 bits of
// the key's hash, 0 for an empty way, and the work): a look-up reads a slot only where
// its tag matches, so a position not in the table (more than half the look-ups on the
// slowest deals) costs one word, a sixteenth of the memory, instead of the bucket's two
// cache lines, and a new entry finds its way without reading the slots (issue 44: the
// slowest eight-player deals about 10 to 20 % less CPU, docs/performance.md).
template <class V>
struct DDTable {
  static constexpr std::size_t WAYS = 4;
  struct Slot {
    DDKey k;
    V v;
  };
  std::vector<Slot, TableAlloc<Slot>> slots;
  std::vector<u64, TableAlloc<u64>> tags;  // a bucket's ways: tag (8 bits, 0 empty), work (8 bits)
  std::size_t count = 0, buckets = 0, max_slots;

  explicit DDTable(std::size_t most) : max_slots(most) { resize(std::size_t{1} << 8); }
  void resize(std::size_t n) {
    slots.assign(n, Slot{});
    tags.assign(n / WAYS, 0);
    buckets = n / WAYS;
    count = 0;
  }
  void grow() {
    std::vector<Slot, TableAlloc<Slot>> old_slots;
    std::vector<u64, TableAlloc<u64>> old_tags;
    old_slots.swap(slots);
    old_tags.swap(tags);
    resize(old_slots.size() * 2);
    for (std::size_t b = 0; b < old_tags.size(); ++b) {
      for (std::size_t i = 0; i < WAYS; ++i) {
        const u64 w = old_tags[b] >> (16 * i) & 0xFFFF;
        if (w & 0xFF) put(old_slots[b * WAYS + i].k, old_slots[b * WAYS + i].v, static_cast<int>(w >> 8));
      }
    }
  }
  static u64 tag(std::size_t h) {
    const u64 t = static_cast<u64>(h) >> 56;
    return t ? t : 1;
  }
  void prefetch(const DDKey& k) const {
    const std::size_t h = dd_hash(k), b = h & (buckets - 1);
    __builtin_prefetch(&tags[b]);
  }
  const V* get(const DDKey& k) const {
    const std::size_t h = dd_hash(k), b = h & (buckets - 1);
    const u64 t = tag(h), w = tags[b];
    for (std::size_t i = 0; i < WAYS; ++i) {
      if ((w >> (16 * i) & 0xFF) == t && slots[b * WAYS + i].k == k) return &slots[b * WAYS + i].v;
    }
    return nullptr;
  }
  void put(const DDKey& k, const V& v, int work) {
    if (4 * (count + 1) > 3 * slots.size() && slots.size() < max_slots) grow();
    const std::size_t h = dd_hash(k), b = h & (buckets - 1);
    const u64 t = tag(h);
    u64& w = tags[b];
    Slot* s = &slots[b * WAYS];
    std::size_t least = 0;
    for (std::size_t i = 0; i < WAYS; ++i) {
      const u64 way = w >> (16 * i) & 0xFFFF;
      if ((way & 0xFF) == t && s[i].k == k) {
        s[i].v = v;
        return;
      }
      if (!(way & 0xFF)) {
        s[i] = Slot{k, v};
        w |= (t | static_cast<u64>(work) << 8) << (16 * i);
        ++count;
        return;
      }
      if ((way >> 8) <= (w >> (16 * least + 8) & 0xFF)) least = i;
    }
    s[least] = Slot{k, v};
    w = (w & ~(u64{0xFFFF} << (16 * least))) | (t | static_cast<u64>(work) << 8) << (16 * least);
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
  DDTable<u32> chips_table{std::size_t{1} << 19};       // trick starts: 16 MB at most
  DDTable<u32> chips_mid{std::size_t{1} << 19};         // inside tricks: 16 MB at most
  DDTable<DDTricks> tricks_table{std::size_t{1} << 17};  // trick starts: 4 MB at most
  DDTable<DDTricks> sure_mid{std::size_t{1} << 19};      // inside tricks: 16 MB at most
  static constexpr u32 FAIL = ~u32{0};  // (chips: not an outcome, 2 bits a seat)
  u64 transparent = 0;  // the cards no rule of the play reads (heads)
  u64 trumps = 0;       // the trump suit's cards
  std::uint8_t owner[52] = {};  // the active index of each card's holder at the root
  u32 holder_bit[52] = {};  // each card's holder at the root, a bit a seat (chained_win)
  std::uint8_t owner_of_seat[MAX_SEATS] = {};
  std::uint8_t order[MAX_SEATS][MAX_SEATS] = {};  // the order of play when a seat leads

  // A house whose money rule is a plugin's (issue 41: H.penalty, H.money, asked through
  // Python as sessions ask it, bourre.kernel.hooks).  ``pen_fixed``: a plugin's penalty
  // alone, asked once for the solve and answered (``pen_x``): the built-in payout's
  // structure holds (the single most tricks take P, every bourre seat pays the same x >=
  // 0, the others nothing), so the classes and their pruning stay exact (outcome()).
  // ``by_money``: any other plugin money (a payout, or a penalty that failed when asked
  // at the start): an outcome is its vector of money (``monies``, by an id; asked once
  // for each different tricks won, ``ids``), searched by plain max^n (chips_money).
  bool pen_fixed = false, by_money = false;
  i128 pen_x = 0;
  House plain_house;  // (pen_fixed: H without the plugin's penalty, bourre fixed after)
  std::vector<std::array<i128, MAX_SEATS>> monies;
  std::unordered_map<u32, u32> ids;
  // Thrown when a plugin's answer is not the kernel's to hold (an amount not a whole
  // number of 1/D chips, a pot below nothing, a ruling on cards not in the hand's order):
  // the Python reference solves the position.
  struct NotKernel {};

  // A house whose card rules are a plugin's (issue 41: H.follow, H.cinch_rule, H.winner,
  // H.lead, asked through Python as the stepped state asks them, bourre.kernel.hooks):
  // ``by_hook``.  Every shortcut that reads the built-in rules of the play is then off,
  // and the search is the reference's plain one (solve(plain=True)): every legal card
  // searched alone (heads), no bound from the cards (masters, most_more, reach).  Its
  // positions are remembered all the same, by exact keys with the order of play (key()):
  // what the kernel tells a plugin's rule (the hand, the trick so far, trump, the cards
  // out, the tricks won, the active seats, the dealer, the last winner) is all in the
  // key, so a plugin's answer there is the same, and so is the value.  The search holds
  // the GIL; each different question is asked once a solve (a rule is a function of
  // what it is told: bourre.rules.hookspec), its answer remembered.
  bool by_hook = false;
  int dealer = 0;  // (told to a plugin's lead)
  struct KeyHash {
    std::size_t operator()(const DDKey& k) const { return dd_hash(k); }
  };
  std::unordered_map<DDKey, u64, KeyHash> asked;  // follow (c 1), cinch (c 2), winner (c 3)
  int lead_of[MAX_SEATS][MAX_SEATS] = {};  // a plugin's order of play after each winner
  u32 lead_known = 0;

  // The player's legal cards: the rules' legal_cards, as the stepped state asks them
  // (Stepper::compute_legal; the cinch counted only once the seat could hold one).
  u64 legal(const DDPos& g) {
    const int s = g.trick_seats[g.tlen];
    const u64 held = g.hand[s];
    bool cinch = false;
    if (by_hook) return hooked_legal(g, s, held);
    return legal_cards(
        H, held, g.f, g.tlen, trump, [&] { return g.played | disc[s]; }, g.won[s],
        g.tlen == nactive - 1, g.won[s] >= 3 || (held & trumps) != 0, cinch);
  }

  // The trick so far as one word: 6 bits a card in play order, its length on top.
  static u64 trick_word(const std::uint8_t* tcards, int tlen) {
    u64 w = static_cast<u64>(tlen) << 60;
    for (int p = 0; p < tlen; ++p) w |= static_cast<u64>(tcards[p]) << (6 * p);
    return w;
  }

  // The legal cards when a plugin's follow rule or cinch decides them (Stepper::
  // compute_legal, plugin_cinch): the plugin's obligations (follow_hook) or the built-in
  // ones, then the plugin's cinch (cinch_hook) or the built-in one.
  u64 hooked_legal(const DDPos& g, int s, u64 held) {
    const u64 tw = trick_word(g.tcards, g.tlen);
    int tc[MAX_SEATS];
    for (int p = 0; p < g.tlen; ++p) tc[p] = g.tcards[p];
    u64 ob;
    if (H.follow) {
      const DDKey q{held, tw, 1};
      const auto it = asked.find(q);
      if (it != asked.end()) {
        ob = it->second;
      } else {
        if (!follow_hook(H, held, tc, g.tlen, trump, ob)) throw NotKernel{};
        asked.emplace(q, ob);
      }
    } else {
      ob = obliged(H, held, g.f, g.tlen, trump);
    }
    const u64 known = g.played | disc[s];
    const bool last = g.tlen == nactive - 1;
    if (!H.cinch_rule) {
      bool cinch = false;
      return cinch_legal(H, held, ob, g.tlen, trump, [&] { return known; }, g.won[s], last,
                         g.won[s] >= 3 || (held & trumps) != 0, cinch);
    }
    const u64 ordinary = (ob & held) ? ob & held : held;
    const DDKey q{held | static_cast<u64>(g.won[s]) << 52 | u64{last} << 56, tw, 2 | known << 2};
    const auto it = asked.find(q);
    if (it != asked.end()) return it->second;
    u64 lm = 0;
    bool cinch = false;
    if (!cinch_hook(H, held, ordinary, tc, g.tlen, trump, known, g.won[s], last, lm, cinch)) {
      throw NotKernel{};
    }
    asked.emplace(q, lm);
    return lm;
  }

  // The index in the trick of its winner (R-TRICK): the built-in rule, or a plugin's
  // (winner_hook), asked once a solve for each different trick.
  int trick_winner(const Facts& f, const std::uint8_t* tcards) {
    if (!H.winner) return f.winner();
    const DDKey q{trick_word(tcards, nactive), 0, 3};
    const auto it = asked.find(q);
    if (it != asked.end()) return static_cast<int>(it->second);
    int tc[MAX_SEATS];
    for (int p = 0; p < nactive; ++p) tc[p] = tcards[p];
    const int w = winner_hook(H, tc, nactive, trump);
    asked.emplace(q, static_cast<u64>(w));
    return w;
  }

  // The next trick's order of play after seat w's trick (R-LEAD): the winner first, the
  // others clockwise, or a plugin's lead (lead_hook), asked once a solve for each winner.
  const std::uint8_t* next_order(int w) {
    if (!H.lead) return order[w];
    if (!((lead_known >> w) & 1)) {
      py::gil_scoped_acquire gil;  // (the merging search runs without it: the plugin is Python)
      lead_hook(H, active, nactive, dealer, w, lead_of[w]);
      for (int p = 0; p < nactive; ++p) order[w][p] = static_cast<std::uint8_t>(lead_of[w][p]);
      lead_known |= u32{1} << w;
    }
    return order[w];
  }

  // The legal cards that head a group of equivalent ones (solver._Search.groups): a card
  // joins the one before it when both are of one suit and every card between them is in
  // the player's hand or in a completed trick; inside the search (``deep``), also a card
  // no active seat holds nor played (the stock, a discard, a folded hand): no rule of the
  // play reads such a card, but for the cinch's trumps (R-SURE: a trump nobody played
  // keeps a lower one from being master), so those cards stay between trumps under the
  // cinch; and a card on the trick but its best one (the led suit's highest, the highest
  // trump once trumped): no rule compares a card with the trick's other cards (R-FOLLOW,
  // R-TRUMP, R-TRICK; packed_inner), and the cinch counts them as played (issue 44).
  // (At the root the reference's groups: each card's ``head`` is reported.)
  u64 heads(const DDPos& g, u64 lm, bool deep = true) const {
    if (by_hook) return lm;  // (a plugin's card rules: the plain search, every card alone)
    u64 near = g.hand[g.trick_seats[g.tlen]] | (g.played & ~g.tmask);
    if (deep) {
      near |= transparent;
      if (g.tlen) near |= g.tmask & ~(u64{1} << g.tcards[g.f.winner()]);  // (R-TRICK)
    }
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
  void play(DDPos& g, int c) {
    const int s = g.trick_seats[g.tlen];
    const u64 bit = u64{1} << c;
    g.hand[s] &= ~bit;
    g.dead[s] = kills(g.hand[s]);
    const u64 loose = H.cinch ? g.held & ~trumps : g.held;
    if ((loose >> c) & 1) {  // (its holder's 3 bits taken out)
      const int at = 3 * popcount(loose & (bit - 1));
      const unsigned __int128 below = (static_cast<unsigned __int128>(1) << at) - 1;
      g.holders = (g.holders & below) | ((g.holders >> (at + 3)) << at);
    }
    g.held &= ~bit;
    g.played |= bit;
    g.tmask |= bit;
    g.tcards[g.tlen] = c;
    g.f.add(c, g.tlen, trump);
    if (++g.tlen < nactive) return;
    const int w = g.trick_seats[trick_winner(g.f, g.tcards)];
    ++g.won[w];
    g.wcode += u32{1} << (3 * owner_of_seat[w]);
    ++g.ntricks;
    g.order_id = static_cast<std::uint8_t>(w + 1);
    if (g.ntricks < H.h) {  // the winner leads (R-LEAD)
      std::memcpy(g.trick_seats, next_order(w), sizeof g.trick_seats);
    }
    g.tlen = 0;
    g.tmask = 0;
    g.f = Facts();
  }

  // The exact key of a position when a plugin's card rules may read what the packed and
  // inner keys forget (by_hook: at a trick's start and inside it): the cards held, the
  // leader, the trick's length, the trick's cards, the tricks won (a unary code, "0
  // 1^won" a seat, bits 52 on), and the whole order of play (a plugin's lead).
  DDKey key(const DDPos& g) const {
    u64 held = 0, won = 0;
    for (int i = nactive - 1; i >= 0; --i) {
      const int s = active[i];
      held |= g.hand[s];
      won = (won << (g.won[s] + 1)) | ((u64{1} << g.won[s]) - 1);
    }
    u64 seats = 0;
    for (int p = 0; p < nactive; ++p) seats |= static_cast<u64>(g.trick_seats[p]) << (3 * p);
    return DDKey{held | (static_cast<u64>(g.trick_seats[0]) << 52) |
                     (static_cast<u64>(g.tlen) << 56),
                 g.tmask | (won << 52), seats};
  }

  // The key of a position inside a trick (issue 44; the sure tricks', the chips', a
  // plugin's money), packed as at a trick's start (packed): by suit, the holders of the
  // cards held in rank order (the cinch's trumps kept exact), the tricks won, the
  // leader; then the trick's length and, in place of the trick's cards, its facts: no
  // rule of the play reads more of the cards on the table than the suit led, the
  // highest card of that suit and the highest trump played to it, and their places
  // (R-FOLLOW, R-TRUMP, R-TRICK; Facts), the search no more (masters: the highest trump
  // on the table, the led suit's highest card when trumps were led, else the highest
  // trump played; most_more: me's card when it wins the trick so far; last_trick: the
  // winner; heads() reads the trick's cards, but only to merge cards of equal value).
  // Each of those two cards is told by where it falls among the cards of the seats still
  // to play to the trick, the only cards ever compared with it: how many of theirs of its
  // suit lie below it (the cinch reads the trumps known, not which of them is on the
  // trick).  Once a trump is on a trick of another suit, no rule reads the led suit's
  // highest card any more (R-FOLLOW: any card of that suit; R-TRUMP and R-TRICK: the
  // highest trump), so the key leaves out its place and rank.  (Issue 44: positions that
  // differ only in where the trick's best cards fall among the cards of seats that have
  // played to it, or in who threw which card of the suit led under a trump, are one: 9 %
  // fewer positions on 14,736 random positions of ten houses; on the slow eight-player
  // deals up to a third fewer instructions, docs/performance.md.)
  // Two positions with one key differ only in cards nobody holds (played before, on this
  // trick, or never dealt to a player): the held cards correspond one to one, suit for
  // suit, in the same order, with the same holders, each card of a seat still to play on
  // the same side of the trick's highest cards, and every rule compares a card held with
  // another or with those by suit and rank alone, so every line from one is a line from
  // the other, card for card, to the same tricks won, with the legal cards in the same
  // order: one value, of the sure tricks and of the chips (the cinch reads the trumps
  // known: the trumps held exact, those played follow within a solve).  The exact key it
  // replaced (the cards held and the facts' ranks) told apart positions that differ only
  // in which card of a run a seat threw: seed 20 of eight players, 0.90 M positions
  // looked up inside tricks, 0.31 M packed.  In three words: the holders (3 bits a card,
  // at most 39 cards inside a trick: 117 bits) in ``a`` and the low 53 bits of ``b``; the
  // trick's length, the places and the suit led in b's top 11 bits; in ``c``, the tricks
  // won, the leader,
  // the two cards' places among those of the seats still to play, three suits' counts
  // (the fourth follows from the cards held, which follow from the tricks played) and
  // the cinch's trumps, the top bit set.  Tested: test_solver.py's
  // test_positions_inside_a_trick_are_told_apart, test_chips_inside_a_trick_are_told_apart
  // and test_a_tricks_best_cards_are_read_against_the_seats_still_to_play.
  DDKey packed_inner(const DDPos& g) const {
    const u64 held = g.held;
    const u64 exact = H.cinch ? held & trumps : 0;
    const u64 loose = held & ~exact;
    const u64 lo = static_cast<u64>(g.holders);
    u64 hi = static_cast<u64>(g.holders >> 64);
    const Facts& f = g.f;
    const int led = f.lo / 13;
    const bool trumped = f.top >= 0;
    u64 rest = 0;  // (the cards of the seats still to play)
    for (int p = g.tlen; p < nactive; ++p) rest |= g.hand[g.trick_seats[p]];
    const u64 win = trumped ? 0 : static_cast<u64>(popcount(rest & (SUIT << f.lo) & ((u64{1} << f.win) - 1)));
    u64 top = 0;
    if (trumped) top = 1 + static_cast<u64>(popcount(rest & trumps & ((u64{1} << f.top) - 1)));
    hi |= (static_cast<u64>(g.tlen) | static_cast<u64>(trumped ? 0 : f.win_p) << 3 | static_cast<u64>(f.top_p & 7) << 6 |
           static_cast<u64>(led) << 9) << 53;
    u64 c = g.wcode;                // 24 bits
    c = (c << 4) | leader_code(g);  // (a plugin's lead: the last winner)
    c = (c << 4) | win;
    c = (c << 4) | top;
    for (int suit = 0; suit < 3; ++suit) c = (c << 4) | popcount(loose >> (13 * suit) & SUIT);
    c = (c << 13) | (exact >> (13 * trump) & SUIT);  // (61 bits in all)
    return DDKey{lo, hi, c | (u64{1} << 63)};
  }

  // What the keys name the order of play by: the leader, or when a plugin's lead gives
  // the order (R-LEAD: lead(active, dealer, winner)), where it came from (order_id: the
  // root's, or the last winner's trick), 0..8.  Either way the order follows from it.
  int leader_code(const DDPos& g) const {
    return H.lead ? g.order_id : owner_of_seat[g.trick_seats[0]];
  }

  // The key of a trick's start: packed, or exact when a plugin's card rules may read
  // what packing forgets (by_hook).
  DDKey start_key(const DDPos& g) const { return by_hook ? key(g) : packed(g); }

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
    const u64 held = g.held;
    const u64 exact = H.cinch ? held & trumps : 0;
    const u64 lo = static_cast<u64>(g.holders);  // the holders, 3 bits a card (at most 40 cards)
    const u64 hi = static_cast<u64>(g.holders >> 64);
    u64 c = g.wcode;                               // 24 bits
    c = (c << 4) | leader_code(g);  // the leader (a plugin's lead: the last winner)
    for (int suit = 0; suit < 4; ++suit) c = (c << 4) | popcount((held & ~exact) >> (13 * suit) & SUIT);
    c = (c << 13) | (exact >> (13 * trump) & SUIT);  // (57 bits in all)
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
    if (pen_fixed) {  // the built-in payout with the plugin's penalty, asked once (run)
      const Outcome o = pay_out(plain_house, active, nactive, won, false, P, bal, pot, exempt,
                                nb, carried, lost);
      for (int s = 0; s < MAX_SEATS; ++s) {
        if ((o.bourre >> s) & 1) bal[s] = -pen_x;  // (a bourre seat takes nothing: R-BOURRE)
      }
    } else {
      pay_out(H, active, nactive, won, false, P, bal, pot, exempt, nb, carried, lost);
    }
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
  u32 last_trick(const DDPos& g, int* won) {
    for (int s = 0; s < MAX_SEATS; ++s) won[s] = g.won[s];
    if (g.ntricks >= H.h) return g.wcode;
    Facts f = g.f;
    std::uint8_t tc[MAX_SEATS];
    for (int p = 0; p < nactive; ++p) {
      tc[p] = p < g.tlen ? g.tcards[p] : static_cast<std::uint8_t>(lowest(g.hand[g.trick_seats[p]]));
      if (p >= g.tlen) f.add(tc[p], p, trump);
    }
    const int w = g.trick_seats[trick_winner(f, tc)];
    ++won[w];
    return g.wcode + (u32{1} << (3 * owner_of_seat[w]));
  }

  // The cards that beat card c in any trick c could win (R-TRICK: Facts::winning of a
  // trick c leads, its suit led when it is not a trump): the higher cards of its suit,
  // and the trumps if it is not one.
  u64 beaters(int c) const {
    Facts led;
    led.add(c, 0, trump);
    return led.winning(trump);
  }

  // Whether a seat among the places from..nactive-1 of the trick so far (but place
  // ``skip``) holds only cards that beat c: c cannot win a trick that seat plays to.  It
  // must follow with a higher card of c's suit (R-FOLLOW: a card that beats the trick's
  // winner when it holds one) or, without that suit, trump (R-TRUMP: over-trumping when
  // it can, R-OPTIONAL-UNDERTRUMP too; the cinch only narrows to the highest trumps);
  // played before c, its card already beats c.
  bool killed(const DDPos& g, int c, int from, int skip) const {
    for (int p = from; p < nactive; ++p) {
      if (p != skip && (g.dead[g.trick_seats[p]] >> c & 1)) return true;  // (kills)
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
      const u64 lm = obliged(H, h, f, p, trump);  // (p > 0: a seat that follows)
      if (lm && !(lm & ~beat)) return true;
    }
    return false;
  }

  // At most how many more tricks seat s can win from here, whatever anyone plays (every
  // other seat plays to every trick to come, from the cards it holds now): in the trick
  // so far, one if its card there wins it or a card it holds could, and no seat still to
  // play kills that card (``killed``); after it, one for each card it holds that no other
  // seat kills (``kills``), and none when no such card could win the next trick it could
  // win, led by another seat (below).  Sound, not tight: it only lowers the reach of a
  // seat's search (chips) and the tricks me can still win (sure).
  int most_more(const DDPos& g, int s) const {
    int pos = 0;
    while (g.trick_seats[pos] != s) ++pos;
    const int now = this_trick(g, s, pos);
    const int later = later_tricks(g, s, pos, now);
    return std::min(H.h - g.ntricks, now + later);
  }

  // Whether seat s, at place ``pos``, could still win the trick so far (most_more).
  int this_trick(const DDPos& g, int s, int pos) const {
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
    return now;
  }

  // The cards seat s, at place ``pos``, could win tricks after this one with (most_more;
  // ``now``: whether it could win this one).
  int later_tricks(const DDPos& g, int s, int pos, int now) const {
    u64 others_kill = 0;  // (the cards another seat kills: kills)
    for (int p = 0; p < nactive; ++p) {
      if (p != pos) others_kill |= g.dead[g.trick_seats[p]];
    }
    const u64 live = g.hand[s] & ~others_kill;
    const int later = popcount(live);
    if (!later) return 0;
    // Its next trick (issue 44): unless it leads this one or may win it, another seat
    // leads the next trick it could win (R-LEAD: the winner of the trick before), so it
    // wins that one with a trump, or with a higher card of the suit led (R-TRICK): a seat
    // that could lead must hold a lower card of that suit and could win a trick before
    // (could_lead).  Not under a plugin's lead, which may give a seat the lead without a
    // trick.
    if (!H.lead && !now && !(!g.tlen && pos == 0) && !(live & trumps)) {
      const u64 others = g.held & ~g.hand[s];
      bool led = false;
      for (u64 m = live; m && !led; m &= m - 1) {
        const int c = lowest(m);
        const u64 under = others & (SUIT << (13 * suit_of(c))) & ((u64{1} << c) - 1);
        for (int p = 0; p < nactive && !led; ++p) {
          if (p != pos && (g.hand[g.trick_seats[p]] & under) && could_lead(g, p)) led = true;
        }
      }
      if (!led) return 0;
    }
    return later;
  }

  // Whether seat s, without a trick, could still take one (reach(g, s) >= 1), the cheap
  // bounds first: the tricks left but those another seat's master trumps and card on the
  // trick are sure of (masters, followed_winner), then a card for a later trick, then this
  // trick (most_more), then, with three tricks left, the leaders chained (chained_win).
  bool may_take(const DDPos& g, int s) {
    int holder;
    const int sure = masters(g, holder);
    const int left = H.h - g.ntricks - (holder >= 0 && holder != s ? sure : 0);
    if (left <= 0) return false;
    if (left == 1 && g.tlen) {  // (this trick another's leaves it none: asked only then)
      const int w = followed_winner(g);
      if (w >= 0 && w != s) return false;
    }
    int pos = 0;
    while (g.trick_seats[pos] != s) ++pos;
    if (!(later_tricks(g, s, pos, 0) > 0 || this_trick(g, s, pos) > 0)) return false;
    // Three tricks left: the leaders chained (chained_win), while that pays.  (With two,
    // later_tricks' own reading of who could lead the last is as strong: on the slowest
    // eight-player deals the chain never said no there.)
    if (H.lead || H.h - g.ntricks != 3 || !chain.worth()) return true;
    return chain.count(chained_win(g, s));
  }

  // How chained_win has answered in this solve (issue 44): it is asked while it answers
  // no to one question in thirty or more, judged after its first TRIAL questions.  On
  // seed 20 of eight players it answers no to about 1 question in 4 (chips calls 1.19 M
  // → 0.77 M).  Where it rarely says no, each no may still save much (seed 258, asked
  // every time: a quarter fewer instructions) or it may cost more than it saves (seed
  // 368: a sixth more); one in thirty, against one in ten before: seeds 650 and 560
  // 4–5 % fewer instructions, seeds 162, 840, 658, 339, 20 within 0.2 %.
  struct Asked {
    static constexpr u32 TRIAL = 2048;
    u32 asked = 0, no = 0;
    bool worth() const { return asked < TRIAL || 30 * no >= asked; }
    bool count(bool yes) {
      ++asked;
      no += !yes;
      return yes;
    }
  } chain;

  // Whether seat s could win one of the tricks left on some line, the leaders chained
  // (issue 44): the seats that could win the trick at hand (its card on it wins it so
  // far, or it is yet to play and holds a card that would: R-TRICK; or its sure winner
  // alone, followed_winner), or that could beat a card the leader holds when it is not
  // begun, lead the next (R-LEAD); a trick led by one of them in a suit it holds may be
  // won by it or by a seat holding a higher card of that suit than the leaders' lowest,
  // or, void in it by then (no more of its cards than the tricks before), a trump
  // (R-FOLLOW, R-TRUMP, R-TRICK); and so on to the last trick.  The cards played on the
  // way are left in the hands (more lines, never fewer): sound.  Not under a plugin's
  // lead (a seat may lead without the trick before: may_take asks it only without one).
  bool chained_win(const DDPos& g, int s) const {
    u32 win = 0;  // the seats that could win the trick looked at, a bit a seat
    if (g.tlen) {
      const int w = followed_winner(g);
      if (w >= 0) {
        win = u32{1} << w;
      } else {
        const u64 beat = g.f.winning(trump);
        win = u32{1} << g.trick_seats[g.f.winner()];
        for (int p = g.tlen; p < nactive; ++p) {
          if (g.hand[g.trick_seats[p]] & beat) win |= u32{1} << g.trick_seats[p];
        }
      }
    }
    u32 ruffers = 0;  // the seats holding a trump
    for (u64 m = g.held & trumps; m; m &= m - 1) ruffers |= holder_bit[lowest(m)];
    if (!g.tlen) win = led_to(g, u32{1} << g.trick_seats[0], 0, ruffers);
    for (int before = 1, left = H.h - g.ntricks - 1; left; ++before, --left) {
      if (win >> s & 1) return true;
      win = led_to(g, win, before, ruffers);
    }
    return (win >> s & 1) != 0;
  }

  // The seats that could win a trick led by one of ``leaders``, ``before`` tricks from
  // the one at hand (chained_win): by suit, the holders of the cards above the leaders'
  // lowest, and the seats with a trump (``ruffers``) and few enough cards of the suit.
  u32 led_to(const DDPos& g, u32 leaders, int before, u32 ruffers) const {
    u64 led = 0;  // the leaders' cards
    for (u32 m = leaders; m; m &= m - 1) led |= g.hand[__builtin_ctz(m)];
    u32 out = leaders;
    for (int x = 0; x < 4; ++x) {
      const u64 suit = SUIT << (13 * x), ours = led & suit;
      if (!ours) continue;
      for (u64 m = above_card(g.held & suit, lowest(ours)); m; m &= m - 1) {
        out |= holder_bit[lowest(m)];
      }
      if (x == trump) continue;
      for (u32 m = ruffers & ~out; m; m &= m - 1) {
        const int z = __builtin_ctz(m);
        if (popcount(g.hand[z] & suit) <= before) out |= u32{1} << z;
      }
    }
    return out;
  }

  // The cards c that a seat holding ``h`` kills (``killed``): every card of h beats c
  // (R-TRICK: a higher card of c's suit, or a trump when c is none).  With cards of two
  // plain suits, none; with one plain suit, that suit's cards below its lowest; with
  // trumps only, every plain card and the trumps below its lowest.
  u64 kills(u64 h) const {
    if (!h) return 0;
    const u64 plain = h & ~trumps;
    if (plain) {
      const int low = lowest(plain);
      const u64 suit = SUIT << (13 * suit_of(low));
      return plain & ~suit ? 0 : suit & ((u64{1} << low) - 1);
    }
    return (((u64{1} << 52) - 1) & ~trumps) | (trumps & ((u64{1} << lowest(h)) - 1));
  }

  // Whether the seat at place p of the trick could lead a trick after this one (issue
  // 44): it could win this one (it leads it; its card on it wins it so far; yet to play,
  // it holds a card that would; not begun, it could beat a card the leader holds: a
  // higher one of that suit, or a trump when void in it, R-FOLLOW, R-TRUMP), or, with a
  // trick left before the last, one after: it holds a card no other seat kills.
  bool could_lead(const DDPos& g, int p) const {
    const int z = g.trick_seats[p];
    const u64 mine = g.hand[z];
    if (!g.tlen) {
      if (p == 0) return true;
      const u64 lead = g.hand[g.trick_seats[0]];
      for (int suit = 0; suit < 4; ++suit) {
        const u64 theirs = lead >> (13 * suit) & SUIT, ours = mine >> (13 * suit) & SUIT;
        if (theirs && (ours ? 63 - __builtin_clzll(ours) > __builtin_ctzll(theirs)
                            : suit != trump && (mine & trumps))) {
          return true;
        }
      }
    } else if (p < g.tlen) {
      if (g.f.winner() == p) return true;
    } else {
      for (u64 m = mine; m; m &= m - 1) {
        if (g.f.would_win(lowest(m), trump)) return true;
      }
    }
    if (g.ntricks + 2 >= H.h) return false;
    u64 kill = 0;
    for (int q = 0; q < nactive; ++q) {
      if (q != p) kill |= g.dead[g.trick_seats[q]];
    }
    return (mine & ~kill) != 0;
  }

  // The trumps sure to win the trick they are played in (R-TRICK): every card held is
  // played before the hand ends, and a trump above every trump another seat holds (and
  // above those of the trick so far) wins its trick.  Only the seat holding the highest
  // trump in play has such trumps: their number, that seat in ``holder`` (-1: none).
  // With a higher trump on the trick, only once that seat has played to it (its trumps
  // are then for the tricks after: issue 44); before, it might throw one on this trick.
  int masters(const DDPos& g, int& holder) const {
    holder = -1;
    const u64 held = g.held & trumps;
    if (!held) return 0;
    const int top = 63 - __builtin_clzll(held);
    const int seat = active[owner[top]];
    if (above_card(g.tmask & trumps, top) && !played_to(g, seat)) return 0;
    holder = seat;
    const u64 mine = g.hand[holder] & trumps, others = held & ~mine;
    return popcount(others ? above_card(mine, 63 - __builtin_clzll(others)) : mine);
  }

  // Whether seat s has played to the trick so far.
  bool played_to(const DDPos& g, int s) const {
    for (int p = 0; p < g.tlen; ++p) {
      if (g.trick_seats[p] == s) return true;
    }
    return false;
  }

  // The seat whose card on the trick is sure to win it, the obligations read (issue 44;
  // the sure tricks' lower bound): its card wins the trick so far and no seat still to
  // play may play a card that beats it: the cards the obligations of R-FOLLOW and R-TRUMP
  // (or R-OPTIONAL-UNDERTRUMP) leave it hold no beater (R-TRICK).  The cinch only narrows
  // those cards (R-CINCH-FOLLOW), and the seats between play cards that do not beat it
  // (else it has lost already), which leave the facts those obligations read as they are
  // (the suit led, the highest card of the trick's best kind: as bound()).  So a seat
  // that holds the led suit cannot trump a card of that suit (R-FOLLOW), where a bound
  // from the cards held alone would count its trumps.  Also the chips' (reach, may_take).
  int followed_winner(const DDPos& g) const {
    const int w = g.f.winner();
    const u64 beat = g.f.winning(trump);  // (the cards that beat the trick's winner)
    for (int p = g.tlen; p < nactive; ++p) {
      if (obliged(H, g.hand[g.trick_seats[p]], g.f, p, trump) & beat) return -1;
    }
    return g.trick_seats[w];
  }

  // Whether me, still to play to a trick whose suit led and best cards so far are ``f``,
  // is sure to win it whatever the seats at the places from..nactive-1 play (issue 44;
  // the sure tricks' lower bound).  Holding the suit led L, me must follow (R-FOLLOW)
  // and may play its highest card c of L (one of those above the trick's best, R-FOLLOW;
  // the cinch keeps the highest trump, R-EQUIV): c wins when it beats the trick so far
  // (no trump on it, unless L is trumps), no other seat to play holds a higher card of
  // L, and every other seat to play void in L holds no trump (R-TRUMP: it must trump;
  // holding L it must follow and cannot).  Void in L (not trumps), me must trump
  // (R-TRUMP) and may play its highest trump t: t wins when it is above the trumps on
  // the trick and every other seat to play either holds L or no trump above t.  In
  // either case the seats between play cards that leave c or t the best (R-TRICK).  A
  // trick won by me's highest trump is not counted when that trump is already one of
  // the master trumps counted (``masters_mine``).  Tested: test_solver.py's
  // test_sure_trick_bounds_read_the_obligations.
  bool pending_win(const DDPos& g, const Facts& f, int from, bool masters_mine) const {
    const int L = f.lo / 13;
    const u64 led = SUIT << (13 * L);
    const u64 mine = g.hand[me];
    int c;
    bool by_trump;
    if (mine & led) {
      c = 63 - __builtin_clzll(mine & led);
      by_trump = L == trump;
      if (c < f.win || (!by_trump && f.top >= 0)) return false;
    } else {
      const u64 t = mine & trumps;
      if (!t) return false;
      c = 63 - __builtin_clzll(t);
      by_trump = true;
      if (c < f.top) return false;
    }
    if (by_trump && masters_mine) return false;  // (counted by masters already)
    const u64 above = above_card(SUIT << (13 * suit_of(c)), c);
    const bool ruffs = L != trump;  // (a seat void in L with a trump beats c; holding L, it cannot trump t)
    for (int p = from; p < nactive; ++p) {
      const int s = g.trick_seats[p];
      if (s == me) continue;
      const u64 h = g.hand[s];
      if (by_trump && ruffs && (h & led)) continue;
      if (h & above) return false;
      if (!by_trump && !(h & led) && (h & trumps)) return false;
    }
    return true;
  }

  // Whether me is sure to win the trick another seat is to lead, whatever it leads
  // (issue 44): for each suit the leader holds, pending_win after its highest card of
  // that suit is led (R-LEAD: any card; the cinch only narrows what it may lead).  A
  // lower card of that suit leaves the same obligations to the others (they read the
  // suit led, and the highest card only to beat it, which they cannot above c) and is
  // easier for me to beat.
  bool lead_win(const DDPos& g, bool masters_mine) const {
    const u64 h = g.hand[g.trick_seats[0]];
    for (int suit = 0; suit < 4; ++suit) {
      const u64 x = h & (SUIT << (13 * suit));
      if (!x) continue;
      Facts f;
      f.add(63 - __builtin_clzll(x), 0, trump);
      if (!pending_win(g, f, 1, masters_mine)) return false;
    }
    return true;
  }

  // The best class seat s could still reach (R-WIN, R-BOURRE): 2 the pot, when it could
  // still end with more tricks than every other; 1 nothing, when it has a trick or could
  // still take one; else 0, bourre whatever is played.  (Whether it could take one at all
  // is may_take, cheaper and tighter: the same caps in the order that answers soonest,
  // and the leaders chained; a change to the caps here is one there too.)
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
    // This trick sure to be another's (issue 44; followed_winner): that seat ends with it, and its master
    // trumps (then for the tricks after: it has played); s can take at most the tricks
    // after this one that no other seat's master trumps take.
    const int w = g.tlen ? followed_winner(g) : -1;
    if (w >= 0 && w != s) {
      other = std::max(other, g.won[w] + 1 + (w == holder ? sure : 0));
      more = std::min(more, H.h - g.ntricks - 1 - (holder >= 0 && holder != s ? sure : 0));
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
  // which ``parent`` then would not take (shallow pruning).  What is remembered is a
  // property of the position's exact value, whatever the path, ``parent`` or ``need``:
  // the value itself, or PARTIAL, the seats known not to take the pot in it (a seat the
  // value leaves without the pot for sure: ``parent`` when its question got FAIL; the
  // seats a line of the player's leaves without the pot when that line gives the player
  // a class of 1 at least, since the value then is that line's or gives the player the
  // pot).  At the start of a trick by the packed key; inside a trick (issue 44, but for
  // a plugin's card rules) by packed_inner (in chips_mid): positions with one key have
  // one exact value (the first card of the best value: the same legal cards in the same
  // order; the cards merged, heads, have equal values).  The bounds that prune (reach,
  // masters, most_more, bound, killed, chained_win) are sound in every position: they
  // choose what is searched, never the value.  Inside a trick a seat with one legal card
  // is not remembered, nor the seat after the leader (issue 44: on seed 20 of eight
  // players about one look-up in fifteen found such a position; left out, 16 % fewer
  // last-level misses).  The table is asked before ``parent``'s reach (issue 44: 8 %
  // fewer instructions on the slow deals): an exact value found where the reach would
  // have said FAIL is skipped by the caller alike, its class for ``parent`` being at most
  // that reach, below ``need``.
  // Tested: test_solver.py's test_chips_inside_a_trick_are_told_apart.
  u32 chips(const DDPos& g, int parent, int need) {
    if (g.ntricks >= H.h - 1) {
      int won[MAX_SEATS];
      const u32 wcode = last_trick(g, won);
      return outcome(won, wcode);
    }
    const bool start = g.tlen == 0, inner = g.tlen > 1 && !by_hook;
    DDKey k;
    u32 nopot = 0;  // seats known not to take the pot from here
    u64 lm = 0;
    if (start || inner) {
      if (start) {  // (the bucket fetched while the legal cards are worked out)
        k = start_key(g);
        chips_table.prefetch(k);
      } else {
        k = packed_inner(g);
        chips_mid.prefetch(k);
      }
      lm = legal(g);
      u32 known = FAIL;
      if (start) {
        if (const u32* x = chips_table.get(k)) known = *x;
      } else if (lm & (lm - 1)) {  // (one legal card inside a trick: never remembered)
        if (const u32* x = chips_mid.get(k)) known = *x;
      }
      if (known != FAIL) {
        if (!(known & PARTIAL)) return known;
        nopot = known >> 16 & 0xFF;
        if (need == 2 && (nopot >> parent & 1)) return FAIL;
      }
    }
    if (need && !by_hook &&
        (need == 1 ? !g.won[parent] && !may_take(g, parent) : reach(g, parent) < need)) {
      return FAIL;
    }
    if (!(start || inner)) lm = legal(g);
    if (!(lm & (lm - 1))) {  // one card (a lead under the cinch: remembered all the same)
      DDPos child = g;
      play(child, lowest(lm));
      const u32 v = chips(child, parent, need);
      if (start) chips_table.put(k, v == FAIL ? PARTIAL | (nopot | u32{1} << parent) << 16 : v, H.h - g.ntricks);
      return v;
    }
    const int work = (H.h - g.ntricks) * MAX_SEATS - g.tlen;
    auto remember = [&](u32 v) {
      if (start) {
        chips_table.put(k, v, H.h - g.ntricks);
      } else if (inner) {
        chips_mid.put(k, v, work);
      }
    };
    const int player = g.trick_seats[g.tlen];
    // Its reach, asked only when a card has left it short of the pot: with a card leaving
    // it bourre, only whether it could take a trick (1 then says "at least 1").
    int reach = -1;
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
      if (by_hook) {
        reach = 2;
      } else if (best_c == 0) {  // (whether it could take a trick at all: may_take)
        if (reach < 0) reach = may_take(g, player) ? 1 : 0;
      } else if (reach < 2) {  // (whether it could take the pot; 2 left as known)
        reach = this->reach(g, player);
      }
      if (best_c >= reach) break;
      if (need == 2 && parent != player && best_c >= 1 && cls(best, parent) < 2) {
        // (what it learnt: no seat the line found leaves without the pot gets it)
        for (int i = 0; i < nactive; ++i) {
          if (active[i] != player && cls(best, active[i]) < 2) nopot |= u32{1} << active[i];
        }
        remember(PARTIAL | nopot << 16);
        return FAIL;
      }
    }
    remember(best);
    return best;
  }

  // The money of an outcome (by_money): the plugin's payout (money_hook) or the built-in
  // payout with the plugin's penalty (pay_out, penalty_hook), asked through Python once
  // for each different tricks won (by DDPos::wcode) and remembered for the solve; its id
  // in ``monies``.  NotKernel when the answer is not the kernel's to hold.
  u32 money_outcome(const int* won, u32 wcode) {
    Known& known = outcomes[(wcode * 0x9E3779B1u) >> 22];
    if (known.wcode == wcode) return known.v;
    u32 id;
    const auto it = ids.find(wcode);
    if (it != ids.end()) {
      id = it->second;
    } else {
      i128 bal[MAX_SEATS] = {};
      i128 pot = 0;
      bool exempt[MAX_SEATS];
      int nb = 0, carried = 0;
      bool lost = false;
      py::gil_scoped_acquire gil;  // (the search runs without it: the plugin is Python)
      if (H.money) {
        Outcome o;
        if (!money_hook(H, active, nactive, won, P, bal, pot, exempt, nb, carried, o)) throw NotKernel{};
      } else {
        pay_out(H, active, nactive, won, false, P, bal, pot, exempt, nb, carried, lost);
        if (lost) throw NotKernel{};
      }
      std::array<i128, MAX_SEATS> m{};
      for (int s = 0; s < MAX_SEATS; ++s) m[static_cast<std::size_t>(s)] = bal[s];
      id = static_cast<u32>(monies.size());
      monies.push_back(m);
      ids.emplace(wcode, id);
    }
    known = Known{wcode, id};
    return id;
  }

  i128 money_of(u32 id, int s) const { return monies[id][static_cast<std::size_t>(s)]; }

  // (b) for a plugin's money (by_money): plain max^n on the outcomes' money, ties to the
  // first card in ascending order (solver._Search.chips), the exact values remembered at
  // the start of a trick and inside one (as chips(): the money is the tricks won's).  No class pruning: a plugin's payout need not give every
  // winner the same P nor every bourre seat the same x (a split pot, a penalty by seat).
  // The cards merged (heads) and the packed keys rest on the rules of the play alone
  // (built in here), which decide the tricks won, which decide the money.
  u32 chips_money(const DDPos& g) {
    if (g.ntricks >= H.h - 1) {
      int won[MAX_SEATS];
      const u32 wcode = last_trick(g, won);
      return money_outcome(won, wcode);
    }
    const bool store = g.tlen == 0;
    DDKey k;
    if (store) {
      k = start_key(g);
      if (const u32* known = chips_table.get(k)) return *known;
    }
    const u64 lm = legal(g);
    u32 best = FAIL;
    if (!(lm & (lm - 1))) {
      DDPos child = g;
      play(child, lowest(lm));
      best = chips_money(child);
    } else {
      const bool inner = !store && !by_hook;  // (inside a trick as chips(): the money follows the tricks won)
      if (inner) {
        k = packed_inner(g);
        if (const u32* known = chips_mid.get(k)) return *known;
      }
      const int player = g.trick_seats[g.tlen];
      for (u64 m = heads(g, lm); m; m &= m - 1) {
        DDPos child = g;
        play(child, lowest(m));
        const u32 v = chips_money(child);
        if (best == FAIL || money_of(v, player) > money_of(best, player)) best = v;
      }
      if (inner) chips_mid.put(k, best, (H.h - g.ntricks) * MAX_SEATS - g.tlen);
    }
    if (store) chips_table.put(k, best, H.h - g.ntricks);
    return best;
  }

  // A plugin's penalty alone (H.penalty): asked once, at the start, when a seat still
  // could be bourre (one without a trick).  Answered: ``pen_fixed``, the class search.  A
  // plugin's error or an answer the kernel does not hold: ``by_money``, the penalty asked
  // again at each bourre outcome the search meets, as the reference asks it (its error
  // raised, in its words, only if the reference meets one too).
  void ask_penalty(const DDPos& root) {
    bool could = false;
    for (int i = 0; i < nactive; ++i) could = could || root.won[active[i]] == 0;
    plain_house = H;
    plain_house.penalty.reset();
    plain_house.pot_limit = false;
    if (!could) {
      pen_fixed = true;  // (nobody can be bourre: the penalty is never asked)
      return;
    }
    try {
      i128 x = 0;
      if (penalty_hook(H, P, x)) {
        pen_x = x;
        pen_fixed = true;
        return;
      }
    } catch (const py::error_already_set&) {
    } catch (const std::invalid_argument&) {
    }
    by_money = true;
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
    DDKey k;  // (inside a trick: packed_inner, in sure_mid; a plugin's: key())
    const bool inner = g.tlen && !by_hook;
    if (inner) {  // (its bucket fetched while the bounds are worked out)
      k = packed_inner(g);
      sure_mid.prefetch(k);
    }
    int lo = g.won[me];
    int hi = lo + H.h - g.ntricks;
    if (!by_hook) {  // the master trumps' tricks (masters), the tricks me can still win (most_more)
      int holder;
      const int sure = masters(g, holder);
      if (holder == me) lo += sure;
      if (holder >= 0 && holder != me) hi -= sure;
      hi = std::min(hi, g.won[me] + most_more(g, me));
      // This trick, sure to be me's (a trick apart from the master trumps'): me's card on
      // it (followed_winner), me's still to come (pending_win), or whatever the leader
      // leads (lead_win).
      const bool mm = holder == me && sure > 0;
      if (g.tlen ? (played_to(g, me) ? followed_winner(g) == me : pending_win(g, g.f, g.tlen, mm))
                 : g.trick_seats[0] != me && lead_win(g, mm)) {
        ++lo;
      }
      if (lo >= hi) return lo;
    }
    if (!inner) k = g.tlen ? key(g) : start_key(g);
    DDTable<DDTricks>& table = inner ? sure_mid : tricks_table;
    {
      if (const DDTricks* known = table.get(k)) {
        lo = std::max(lo, static_cast<int>(known->lo));
        hi = std::min(hi, static_cast<int>(known->hi));
      }
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
    // The order the cards are tried in (issue 44): it changes what is searched, never the
    // value.  Me leading: the highest first.  Me following: the cards that would take the
    // trick so far first, the highest first; then the others, the lowest rank first and
    // the trumps last (a card that cannot win this trick is thrown cheapest: the high
    // ones are kept for a trick to come).  Proving "me takes k tricks" needs one card of
    // me's that does: seed 175 of eight players 0.79 M → 0.55 M calls, 64 0.33 M → 0.27 M.
    // A seat against me: the cards that would take the trick from me's card first; me
    // still to play, the highest first (what me must beat).
    // (By a key a card, sorted in place: no buffer, as std::stable_sort would ask for.)
    if (maximising && !g.tlen) {
      std::reverse(cards, cards + nc);
    } else if (maximising) {
      int key[13];
      for (int i = 0; i < nc; ++i) {
        const int c = cards[i];
        key[i] = g.f.would_win(c, trump) ? 63 - c : 64 + ((suit_of(c) == trump) * 16 + c % 13) * 4 + suit_of(c);
      }
      for (int i = 1; i < nc; ++i) {
        const int c = cards[i], k = key[i];
        int j = i;
        for (; j > 0 && key[j - 1] > k; --j) {
          cards[j] = cards[j - 1];
          key[j] = key[j - 1];
        }
        cards[j] = c;
        key[j] = k;
      }
    } else if (g.tlen && g.trick_seats[g.f.winner()] == me) {
      int rest[13], nr = 0, nw = 0;
      for (int i = 0; i < nc; ++i) {
        if (g.f.would_win(cards[i], trump)) {
          cards[nw++] = cards[i];
        } else {
          rest[nr++] = cards[i];
        }
      }
      std::copy(rest, rest + nr, cards + nw);
    } else if (!played_to(g, me)) {
      std::reverse(cards, cards + nc);
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
    const DDTricks v{static_cast<std::int8_t>(lo), static_cast<std::int8_t>(hi)};
    const int work = (H.h - g.ntricks) * MAX_SEATS - g.tlen;
    table.put(k, v, work);
    return best;
  }

  // Each legal card, ascending: (card, the card searched for it, sure tricks, chips of
  // every seat in 1/D chips); and the positions remembered.
  py::object run(DDPos root) {
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
        holder_bit[lowest(m)] = u32{1} << active[i];
      }
    }
    trumps = SUIT << (13 * trump);
    root.held = 0;
    for (int i = 0; i < nactive; ++i) root.held |= root.hand[active[i]];
    root.holders = 0;
    int at = 0;
    for (u64 x = H.cinch ? root.held & ~trumps : root.held; x; x &= x - 1, at += 3) {
      root.holders |= static_cast<unsigned __int128>(owner[lowest(x)]) << at;
    }
    for (int i = 0; i < nactive; ++i) root.dead[active[i]] = kills(root.hand[active[i]]);
    transparent = ((u64{1} << 52) - 1) & ~dealt;
    if (H.cinch) transparent &= ~(SUIT << (13 * trump));
    by_hook = H.follow || H.cinch_rule || H.winner;  // (a lead reads no card: merged)
    if (by_hook) {
      transparent = 0;  // (the reference's groups: solver._Search.groups)
      tricks_table.max_slots = std::size_t{1} << 20;  // (inside tricks too: 32 MB at most)
    }
    if (H.money) {
      by_money = true;
    } else if (H.penalty) {
      ask_penalty(root);
    }
    u64 lm = 0;
    try {
      lm = legal(root);
    } catch (const NotKernel&) {
      return py::none();  // (a ruling on cards the kernel does not hold: the reference's)
    }
    const u64 hs = heads(root, lm, false);
    py::list out;
    int head = -1, tricks = 0;
    u32 v = 0;
    for (u64 m = lm; m; m &= m - 1) {
      const int c = lowest(m);
      if ((hs >> c) & 1) {
        head = c;
        DDPos child = root;
        if (by_hook) {  // (a plugin's card rules: asked for nearly every card, the GIL held)
          try {
            play(child, c);
            v = by_money ? chips_money(child) : chips(child, -1, 0);
            tricks = sure(child, -1, H.h + 1);
          } catch (const NotKernel&) {
            return py::none();
          }
        } else if (by_money) {  // (the GIL taken again only to ask the plugin: money_outcome)
          play(child, c);
          try {
            py::gil_scoped_release release;
            v = chips_money(child);
            tricks = sure(child, -1, H.h + 1);
          } catch (const NotKernel&) {
            return py::none();  // (the Python reference solves it: never a rounded amount)
          }
        } else {  // (built in, or a plugin's penalty asked once already: ask_penalty)
          py::gil_scoped_release release;
          play(child, c);
          v = chips(child, -1, 0);
          tricks = sure(child, -1, H.h + 1);
        }
      }
      py::list amounts(static_cast<std::size_t>(H.n));
      for (int s = 0; s < H.n; ++s) {
        amounts[static_cast<std::size_t>(s)] = to_py(by_money ? money_of(v, s) : money(v, s));
      }
      out.append(py::make_tuple(c, head, tricks, std::move(amounts)));
    }
    return py::make_tuple(std::move(out), chips_table.count + chips_mid.count + tricks_table.count + sure_mid.count);
  }
};

// The position of a Python state (bourre.advice.kernel_solver: the hand's fields, the
// pot at stake in 1/D chips), checked.
py::object dd_solve(const py::dict& house, const py::dict& w) {
  static const char* X = "position";
  DDSolver S;
  S.H = read_house(house);  // (a plugin's decisions or draw: never read in the tricks)
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
  if (S.H.lead) {  // (told to a plugin's lead, R-LEAD)
    S.dealer = field<int>(w, X, "dealer");
    if (S.dealer < 0 || S.dealer >= n) bad(X, "dealer", "a seat");
  }
  if (static_cast<int>(hands.size()) != n) bad(X, "hands", "one a seat");
  if (static_cast<int>(discards.size()) != n) bad(X, "discards", "one a seat");
  if (static_cast<int>(won.size()) != n) bad(X, "won", "one a seat");
  check_seats(X, "active", active, n);
  if (active.size() < 2) bad(X, "active", "two players or more");
  S.nactive = static_cast<int>(active.size());
  for (int i = 0; i < S.nactive; ++i) S.active[i] = active[static_cast<std::size_t>(i)];
  if (!(S.H.lead ? is_order(seats, S.active, S.nactive) : is_rotation(seats, S.active, S.nactive))) {
    bad(X, "trick_seats", "not the players in turn");
  }
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
py::object dd_solve_stepper(const Stepper& k) {
  if (k.phase != P_PLAY) throw std::invalid_argument("not in the play phase");
  DDSolver S;
  S.H = k.H;
  S.trump = k.trump;
  S.P = k.pot_at_stake;
  S.nactive = k.nactive;
  S.dealer = k.dealer;
  DDPos g;
  for (int i = 0; i < k.nactive; ++i) {
    S.active[i] = k.active[i];
    g.trick_seats[i] = k.trick_seats[i];
  }
  for (int s = 0; s < k.H.n; ++s) {
    g.hand[s] = k.hand[s];
    g.won[s] = k.won[s];
    S.disc[s] = k.disc_mask[s];
  }
  g.played = k.played;
  g.tlen = k.tlen;
  g.ntricks = k.ntricks;
  for (int p = 0; p < k.tlen; ++p) g.tcards[p] = k.tcards[p];
  g.f = k.f;
  return S.run(g);
}

}  // namespace bourre::kernel
