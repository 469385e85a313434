// bourre.kernel, session: see session.h.

#include "session.h"
#include "bots.h"
#include "hooks.h"
#include "rng.h"
#include "rules.h"
#include "stepper.h"
#include <algorithm>
#include <optional>
#include <stdexcept>

namespace bourre::kernel {

// -- a session: the stepped engine (Stepper) played to its end by the bots -------------

// The seat to act's bot asked and its answer applied, until the session ends or the
// kernel stops (a status for the Python rules).  The random bot: a coin for a decision
// (the word's top bit), a coin for each card of the hand (the bits of one word, in the
// hand's order), a card drawn among the legal ones in ascending order (none drawn when
// one card is legal).  The heuristic: HeuristicPlayer (bots.h, Stepper::heuristic_decides).
// With ``Asks``, the seats of ``python`` (a mask) are a plugin's bots, asked in Python:
// ASK is returned as soon as one of them is to act (whatever it may do: it is asked as
// play_out asks it), the state where it stands (BotRun).
template <bool Asks>
int played_out(Stepper& g, BotStreams& bots, u32 python = 0) {
  const Bots& B = bots.B;  // (g.status: OK for a new or restarted session)
  // (only a plugin's follow rule or cinch can stop a trick)
  const bool asks = static_cast<bool>(g.H.follow) || static_cast<bool>(g.H.cinch_rule);
  while (g.phase != P_OVER && !g.overflow && g.status == OK) {
    const int s = g.turn_seat;  // (deciding or exchanging; in the tricks, each card's)
    if (g.phase == P_PLAY) {  // (the tricks: every card until the hand ends)
      do {
        const int p = g.trick_seats[g.tlen];
        if (Asks && (python >> p & 1)) return ASK;
        const u64 lm = g.legal;
        int card;
        if (!(lm & (lm - 1))) {
          card = lowest(lm);  // the only legal card: applied, no bot asked
        } else if (B.kind[p] == RANDOM) {
          u32 k = bots.of(p).below(static_cast<u32>(popcount(lm)));
          u64 m = lm;
          while (k--) m &= m - 1;
          card = lowest(m);
        } else {
          card = g.heuristic_card_now();
        }
        g.play_legal(card);
      } while (g.phase == P_PLAY && !(asks && g.status != OK));
    } else if (Asks && (python >> s & 1) && (g.phase == P_DECIDE || g.phase == P_EXCHANGE)) {
      return ASK;
    } else if (g.phase == P_DECIDE) {
      bool play;
      if (g.forced != F_NONE) {
        play = true;  // R-ACE-UP, R-LAST-STANDS: not asked
      } else if (B.kind[s] == RANDOM) {
        play = (bots.of(s).next() >> 31) == 1;
      } else {
        play = g.heuristic_decides(B);
      }
      if (!g.decide(play)) return OVERFLOW_;  // (a plugin's decide refused it: the Python rules)
    } else if (g.phase == P_EXCHANGE) {
      u64 dmask = 0;
      if (B.kind[s] == RANDOM) {
        const u32 w = bots.of(s).next();
        int i = 0;
        for (u64 m = g.hand[s]; m; m &= m - 1, ++i) {
          dmask |= m & (~m + 1) & (u64{0} - ((w >> i) & 1));  // (no branch on the coin)
        }
        if (popcount(dmask) > g.exchange_limit) {  // a capped exchange (a plugin's draw):
          const u64 hand = g.hand[s];              // one of the legal discards, uniformly
          const u32 count = discards_count(popcount(hand), g.exchange_limit);
          dmask = nth_discards(hand, g.exchange_limit, bots.of(s).below(count));
        }
      } else {
        dmask = g.heuristic_discards(B);
        if (popcount(dmask) > g.exchange_limit) dmask = lowest_cards(dmask, g.exchange_limit);
      }
      int cards[8];
      int k = 0;
      for (u64 m = dmask; m; m &= m - 1) cards[k++] = lowest(m);
      if (!g.exchange(cards, k)) return NO_DISCARDS;  // (R-RESHUFFLE: nothing left to draw)
    } else {
      return NO_DISCARDS;  // (never: a seeded session deals itself)
    }
  }
  return g.overflow ? OVERFLOW_ : g.status;
}

// A seeded session of the house (simulate.play_session), not yet played: the Stepper
// without its history (nothing is replayed from it).
Stepper session_of(const House& h, const std::string& seed) {
  const std::vector<i64> balances(static_cast<std::size_t>(h.n), static_cast<i64>(h.balance));
  return Stepper(h, &seed, balances, h.first_dealer, h.hands, false, 0, true, false);
}

// R-SETTLE: each final balance is (n * balance + pot) / (n * D): the numerators, and
// the places (one more than the balances above: ties share a place).
py::object settled_money(int n, const i128* bal, i128 pot, i128 den, const py::object& fraction,
                         bool fast) {
  i128 num[MAX_SEATS];
  int place[MAX_SEATS];
  settle(bal, n, pot, num, place);
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

py::object result(const Stepper& g, int status, i128 den, const py::object& fraction,
                  bool fast) {
  if (status != OK) return py::int_(status);
  if (g.settled) {  // a plugin's settlement: its answer as the Python state keeps it
    PyObject* got = g.settled->o;
    return py::make_tuple(py::reinterpret_borrow<py::object>(PyTuple_GET_ITEM(got, 0)),
                          py::reinterpret_borrow<py::object>(PyTuple_GET_ITEM(got, 1)));
  }
  return settled_money(g.H.n, g.bal, g.pot, den, fraction, fast);
}

// A session's money at its end, or why the kernel stopped (play_shared, the GIL released).
struct Ended {
  int status = OK;
  i128 bal[MAX_SEATS] = {};
  i128 pot = 0;
};

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
  const bool hooks = h.money || h.penalty || h.follow || h.winner || h.lead || h.cinch_rule ||
                     h.antes || h.dealers || h.settles || h.decisions;
  std::optional<Stepper> g;  // one for the call's sessions, restarted for each seed
  const auto play = [&](const std::string& seed) {
    BotStreams bs(b);
    if (any_random) bs.gen[0] = stream("bourre-bots:", seed);  // (unused else)
    if (g) {
      g->restart(seed);
    } else {
      g.emplace(session_of(h, seed));
    }
    return played_out<false>(*g, bs);
  };
  if (hooks) {  // (a plugin's rule, through Python: the GIL kept)
    for (const auto& seed : seeds) {
      const int status = play(seed);
      out.append(result(*g, status, den, fraction, fast));
    }
    return out;
  }
  std::vector<Ended> ended(seeds.size());
  {
    py::gil_scoped_release release;  // (once for the call's sessions)
    for (std::size_t i = 0; i < seeds.size(); ++i) {
      Ended& e = ended[i];
      e.status = play(seeds[i]);
      std::memcpy(e.bal, g->bal, sizeof e.bal);
      e.pot = g->pot;
    }
  }
  for (const Ended& e : ended) {
    out.append(e.status == OK ? settled_money(h.n, e.bal, e.pot, den, fraction, fast)
                              : py::object(py::int_(e.status)));
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
  BotStreams bs(b);
  if (shared && b.any_random()) bs.gen[0] = stream("bourre-bots:", seed);
  for (int s = 0; s < static_cast<int>(words.size()); ++s) {
    const auto& w = words[static_cast<std::size_t>(s)];
    if (w.size() != 4 || !(w[0] | w[1] | w[2] | w[3])) throw std::invalid_argument("stream words");
    for (int i = 0; i < 4; ++i) bs.gen[s].s[i] = w[static_cast<std::size_t>(i)];
  }
  Stepper g = session_of(h, seed);
  if (tally) {
    g.logging = true;
    g.logs.reserve(static_cast<std::size_t>(h.hands));
  }
  const int status = played_out<false>(g, bs);
  return settled(g, status, fraction, fast, tally);
}

py::object settled(const Stepper& g, int status, const py::object& fraction, bool fast,
                   bool tally) {
  const House& h = g.H;
  const std::vector<HandLog>& log = g.logs;
  py::object got =
      result(g, status, static_cast<i128>(h.n) * static_cast<i64>(h.scale), fraction, fast);
  if (!tally || status != OK) return got;
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
      if (!g.settled) {  // (a plugin's settlement: Python makes the final floats)
        py::list fl(static_cast<std::size_t>(h.n));
        for (int s = 0; s < h.n; ++s) {
          const i128 x = g.bal[s] * h.n + g.pot;  // R-SETTLE, in n-ths of a chip
          fl[static_cast<std::size_t>(s)] = py::float_(static_cast<double>(x) / static_cast<double>(h.n));
        }
        final_floats = std::move(fl);
      }
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

// -- a plugin's bots among the built-in ones (BotRun) -----------------------------------

std::unique_ptr<BotRun> make_bot_run(const Stepper& g, const py::list& bots,
                                     const std::vector<std::vector<u32>>& words, u32 python) {
  auto r = std::make_unique<BotRun>();
  r->b = read_bots(g.H, bots, false);
  if (static_cast<int>(words.size()) != g.H.n) throw std::invalid_argument("one stream a seat");
  if (python >> g.H.n) throw std::invalid_argument("python: seats of the table");
  r->bs = std::make_unique<BotStreams>(r->b);
  for (int s = 0; s < g.H.n; ++s) {
    const auto& w = words[static_cast<std::size_t>(s)];
    if (w.size() != 4 || !(w[0] | w[1] | w[2] | w[3])) throw std::invalid_argument("stream words");
    for (int i = 0; i < 4; ++i) r->bs->gen[s].s[i] = w[static_cast<std::size_t>(i)];
  }
  r->python = python;
  return r;
}

int run_bots(BotRun& r, Stepper& g) {
  if (g.H.n != r.b.n) throw std::invalid_argument("a Stepper of another table");
  if (!g.seeded || g.phase == P_DEAL) return NO_DISCARDS;  // (a seeded session deals itself)
  if (g.overflow) return OVERFLOW_;
  if (g.status != OK) return g.status;  // (handed to the Python rules already)
  return played_out<true>(g, *r.bs, r.python);
}

}  // namespace bourre::kernel
