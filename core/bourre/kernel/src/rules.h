// bourre.kernel, rules: each rule of the built-in components written once, one C++
// function a rule, shared by the engine (Stepper), the sampled worlds and the solver, and each
// held to its Python twin by tests/kernel/test_rule_twins.py (_kernel.rules):
//   Facts, trick_winner           R-TRICK          bourre_variants.standard.obligations, .tricks
//   follow, follow_optional_undertrump, obliged
//                                 R-FOLLOW, R-TRUMP, R-DISCARD, R-OPTIONAL-UNDERTRUMP
//                                                  .obligations, optional_undertrump
//   has_cinch, highest_trumps, cinch_narrow, cinch_legal, legal_cards
//                                 R-SURE ... R-CINCH-LAST, R-NO-CINCH  .cinch, game.legal
//   Rotation, lead_order          R-LEAD           .lead
//   decision_turn                 R-DECIDE, R-ACE-UP, R-LAST-STANDS, R-SIMULTANEOUS
//                                                  .decisions, simultaneous_reveal
//   draw_allowed, draw_cards      R-DRAW, R-RESHUFFLE  .draw
//   antes, play_ante, penalty, next_dealer, settle, pay_out
//                                 R-FIRST-POT, R-ANTE, R-DOUBLE-ANTE, R-PENALTY, R-POT-LIMIT,
//                                 R-DEALER, R-SETTLE, R-WIN, R-SOLE, R-BOURRE
//                                                  .payout, double_ante, pot_limit
// Inline here (every card of every engine goes through them) but pay_out (rules.cpp,
// once a hand).
#pragma once

#include "house.h"
#include <algorithm>
#include <cstring>
#include <utility>

namespace bourre::kernel {

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

// -- the ordinary obligations and the cinch (bourre_variants.standard) -------------------

inline u64 above_card(u64 m, int c) { return c >= 51 ? 0 : (m >> (c + 1)) << (c + 1); }

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

// R-SURE: won tricks plus master trumps held reach 3 (StandardCinch.has_cinch).
inline bool has_cinch(u64 hand, int trump, u64 known, int won) {
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
inline u64 highest_trumps(u64 allowed, u64 hand, int trump, u64 known) {
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
inline u64 cinch_narrow(u64 legal, u64 hand, int tlen, int trump, u64 known, bool last) {
  if (last && tlen) return legal;  // R-CINCH-LAST: the ordinary obligations only
  const u64 trumps = legal & (SUIT << (trump * 13));
  if (!trumps) return legal;  // following suit keeps priority (R-CINCH-FOLLOW)
  return highest_trumps(trumps, hand, trump, known);
}

// The house's follow rule (R-LEAD: leading is free; R-FOLLOW, R-TRUMP, R-DISCARD, or
// R-OPTIONAL-UNDERTRUMP): the cards the ordinary obligations allow on a trick of ``tlen``
// cards read into ``f``.
inline u64 obliged(const House& H, u64 held, const Facts& f, int tlen, int trump) {
  return !tlen                  ? held
         : H.optional_undertrump ? follow_optional_undertrump(held, f, trump)
                                 : follow(held, f, trump);
}

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

// R-TRICK (tricks.trick_winner): the position of the card that takes ``trick`` (k cards,
// distinct, the first led), read as the engines read it card by card (Facts).
inline int trick_winner(const int* trick, int k, int trump) {
  Facts f;
  for (int p = 0; p < k; ++p) f.add(trick[p], p, trump);
  return f.winner();
}

// R-LEAD (lead.make_lead): a trick led by ``leader``, one of the ``active`` seats (kept
// clockwise from the dealer's left by the decisions), is played from the leader's place
// there on, clockwise.
// The active seats in turn, twice over, and each one's place among them (made
// once a hand, when the tricks start): the order of a trick led by any of them is
// ``around`` from its place, MAX_SEATS seats read (the first ``nactive`` are the trick's).
struct Rotation {
  int around[2 * MAX_SEATS] = {};
  int place[MAX_SEATS] = {};

  void set(const int* active, int nactive) {
    for (int i = 0; i < nactive; ++i) {
      around[i] = around[i + nactive] = active[i];
      place[active[i]] = i;
    }
  }

  void order(int leader, int* out) const {  // out: room for MAX_SEATS
    std::memcpy(out, around + place[leader], sizeof(int) * MAX_SEATS);
  }
};

// R-LEAD: the order of that trick, the leader first (``out``: room for MAX_SEATS).
inline void lead_order(const int* active, int nactive, int leader, int* out) {
  Rotation r;
  r.set(active, nactive);
  r.order(leader, out);
}

// -- the decisions' turn, the draw (bourre_variants.standard.decisions, .draw) ----------

enum TurnKind : int { TURN_NONE = 0, TURN_DECIDE = 1, TURN_EXCHANGE = 2 };

// Whose turn it is in the decisions and the exchange, and why a dealer may not pass
// (forced: 0, 1 R-ACE-UP, 2 R-LAST-STANDS: the Stepper's Forced values).
struct DecisionTurn {
  int kind = TURN_NONE, seat = -1, forced = 0;
};

// R-DECIDE, R-ACE-UP, R-LAST-STANDS, R-DRAW (decisions.Sequential.turn), R-SIMULTANEOUS
// (simultaneous_reveal.Simultaneous.turn): ``step`` seats have decided, ``exchanging`` is
// the seat whose exchange is due (-1: none), ``nactive`` seats play so far.
inline DecisionTurn decision_turn(bool simultaneous, int n, int dealer, int step,
                                  int exchanging, bool ace_up, int nactive) {
  DecisionTurn t;
  if (simultaneous) {
    if (step < n) {  // the secret decisions, from the dealer's left
      t.kind = TURN_DECIDE;
      t.seat = dealer + 1 + step < n ? dealer + 1 + step : dealer + 1 + step - n;
      t.forced = t.seat == dealer && ace_up ? 1 : 0;
    } else if (exchanging >= 0) {
      t.kind = TURN_EXCHANGE;
      t.seat = exchanging;
    }
    return t;
  }
  if (exchanging >= 0) {  // a player who plays exchanges before the next decides
    t.kind = TURN_EXCHANGE;
    t.seat = exchanging;
  } else if (step < n) {
    t.kind = TURN_DECIDE;
    t.seat = dealer + 1 + step < n ? dealer + 1 + step : dealer + 1 + step - n;
    if (t.seat == dealer) t.forced = ace_up ? 1 : !nactive ? 2 : 0;
  }
  return t;
}

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

// The outcome of a hand (rules.HandOutcome's winner and bourre): the seat that took the
// pot at stake (-1: none, a tie carried it) and the bourre seats as a mask.
struct Outcome {
  int winner = -1;
  u32 bourre = 0;
};

// -- the money (bourre_variants.standard.payout, double_ante, pot_limit) ----------------

// R-FIRST-POT, R-ANTE (payout.StandardAnte.hand_antes), R-DOUBLE-ANTE (DoubleAnte): whether
// a seat antes this hand (``exempt``: bourre or tied for the most tricks last hand).
inline bool antes(const House& H, bool first, bool exempt) {
  return first || H.double_ante || !exempt;
}

// R-DOUBLE-ANTE (DoubleAnte.play_ante; StandardAnte.play_ante: none): the second ante of
// each player who plays.
inline i128 play_ante(const House& H) { return H.double_ante ? H.ante : 0; }

// R-PENALTY (payout.full_pot), R-POT-LIMIT (pot_limit: min(P, limit)): a bourre payment.
inline i128 penalty(const House& H, i128 P) { return H.pot_limit ? std::min(P, H.limit) : P; }

// R-DEALER (payout.make_next_dealer; no turn to deal is lost in the kernel's houses).
inline int next_dealer(int dealer, int n) { return dealer + 1 < n ? dealer + 1 : 0; }

// R-SETTLE (payout.settle): each final balance is balance + pot / n, its numerator over n
// in ``num``; the places, one more than the balances above (ties share one).
inline void settle(const i128* bal, int n, i128 pot, i128* num, int* place) {
  for (int s = 0; s < n; ++s) num[s] = bal[s] * n + pot;
  for (int s = 0; s < n; ++s) {
    int above = 0;
    for (int t = 0; t < n; ++t) above += num[t] > num[s];
    place[s] = above + 1;
  }
}

// R-WIN, R-SOLE, R-BOURRE (R-POT-LIMIT), R-ANTE exemptions (standard.payout.payout): see rules.cpp.
Outcome pay_out(const House& H, const int* active, int nactive, const int* won, bool sole,
                i128 P, i128* bal, i128& pot, bool* exempt, int& nbourre, int& carried,
                bool& lost);

}  // namespace bourre::kernel
