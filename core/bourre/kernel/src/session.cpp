// bourre.kernel, session: see session.h.

#include "session.h"
#include "bots.h"
#include "hooks.h"
#include "rng.h"
#include "rules.h"
#include <algorithm>
#include <stdexcept>

namespace bourre::kernel {

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
    if (!draw_cards(kept, popcount(dmask), stock, stock_pos, stock_len, pile, pile_len,
                    [this](std::uint8_t* st, int len) {
                      if (!reshuffle_made) {  // (Chance.reshuffle: its own stream, made on first use)
                        reshuffle_gen = stream(reshuffle_name);
                        reshuffle_made = true;
                      }
                      reshuffle_gen.shuffle(st, len);
                      for (int t = 0; t < H.n; ++t) own_discards[t] = 0;
                    })) {
      status = NO_DISCARDS;
      return;
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
      const DecisionTurn t = decision_turn(false, n, dealer, k, -1, upcard % 13 == ACE, nactive);
      const int s = t.seat;
      const bool play = t.forced || ask_decision(s, decided, playing);
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
      const DecisionTurn t = decision_turn(true, n, dealer, k, -1, upcard % 13 == ACE, 0);
      const int s = t.seat;
      chosen[s] = t.forced || ask_decision(s, 0, 0);  // a secret decision: nothing public yet
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
    const int* seats = around;  // R-LEAD: the first active player to the dealer's left leads first
    int tc[MAX_SEATS];  // the trick's cards in play order (a plugin's follow rule reads them)
    for (int t = 0; t < h; ++t) {
      Facts f;
      for (int p = 0; p < nactive; ++p) {
        const int s = seats[p];
        const bool last = p == nactive - 1;
        u64 ob;  // the obligations: a plugin's, through Python, for every card, or the house's
        if (!H.follow) {
          ob = obliged(H, held[s], f, p, trump);
        } else if (!follow_hook(H, held[s], tc, p, trump, ob)) {
          status = OVERFLOW_;  // (a ruling the kernel does not play: the Python rules)
          return;
        }
        bool cinch = false;
        const u64 lm = cinch_legal(
            H, held[s], ob, p, trump, [&] { return played | own_discards[s]; }, won[s], last,
            won[s] >= cinch_from[s], cinch);
        if (cinch) ++cinch_plays;
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
        tc[p] = card;
        f.add(card, p, trump);
      }
      const int w = seats[H.winner ? winner_hook(H, tc, nactive, trump) : f.winner()];  // R-TRICK
      ++won[w];
      seats = around + lead_place(active, w);  // the winner leads next (R-LEAD)
    }
  }

  // R-WIN, R-SOLE, R-BOURRE (R-POT-LIMIT), R-ANTE exemptions (standard.payout.payout).
  void payout(const int* won, bool sole, i128 P) {
    if (H.money) {  // a plugin's money rule, through Python
      Outcome out;
      if (!money_hook(H, active, nactive, won, P, bal, pot, exempt, nbourre, carried, out)) {
        status = OVERFLOW_;
      }
      return;
    }
    bool lost = false;
    pay_out(H, active, nactive, won, sole, P, bal, pot, exempt, nbourre, carried, lost);
    if (lost) status = OVERFLOW_;
  }

  void hand_played(bool first) {
    const int n = H.n;
    std::uint8_t deck[52];
    std::memcpy(deck, FRESH_DECK, sizeof deck);
    deck_gen.shuffle(deck, 52);  // R-DEAL: the shuffled and cut deck, top first
    if (!first) dealer = next_dealer(dealer, n);  // R-DEALER: the left neighbour
    deal(deck);
    // R-FIRST-POT, R-ANTE (or R-DOUBLE-ANTE: no exemptions)
    for (int s = 0; s < n; ++s) {
      if (antes(H, first, exempt[s]) && !(sub_from(bal[s], H.ante) && add_to(pot, H.ante))) {
        status = OVERFLOW_;  // (never from money within +-2^100 at the hand's start)
      }
    }
    if (H.simultaneous) {
      simultaneous();
    } else {
      sequential();
    }
    if (status != OK) return;
    if (const i128 x = play_ante(H)) {  // R-DOUBLE-ANTE: a second ante from each who plays
      for (int i = 0; i < nactive; ++i) {
        if (!(sub_from(bal[active[i]], x) && add_to(pot, x))) status = OVERFLOW_;
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
      if (status != OK) return;
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

py::object result(const Session& g, i128 den, const py::object& fraction, bool fast) {
  if (g.status != OK) return py::int_(g.status);
  // R-SETTLE: each final balance is (n * balance + pot) / (n * D): the numerators, and
  // the places (one more than the balances above: ties share a place)
  const int n = g.H.n;
  i128 num[MAX_SEATS];
  int place[MAX_SEATS];
  settle(g.bal, n, g.pot, num, place);
  py::list nums(static_cast<std::size_t>(n));
  py::list ranks(static_cast<std::size_t>(n));
  for (int s = 0; s < n; ++s) {
    // whole: an int; else the exact fraction, in lowest terms (fraction(p, q))
    const i128 d = gcd128(num[s], den);
    if (d == den) {
      nums[static_cast<std::size_t>(s)] = to_py(num[s] / den);
    } else {
      nums[static_cast<std::size_t>(s)] =
          make_fraction(fraction, fast, to_py(num[s] / d), to_py(den / d));
    }
    ranks[static_cast<std::size_t>(s)] = py::int_(place[s]);
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
    if (h.money || h.penalty || h.follow || h.winner) {  // (a plugin's rule, through Python: the GIL kept)
      g.play();
    } else {
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

}  // namespace bourre::kernel
