// bourre.kernel, stepper: the stepped engine (Stepper; bourre.kernel.state.KernelState
// steps it, the worlds and the solver start from it).  Its methods are defined in the
// class (inline: each unit that steps it, pytypes' calls and the worlds' rollouts,
// inlines them as the single file did); pytypes.cpp makes it from Python and reads it
// back (pytypes.h).  Header only.
#pragma once

#include "bots.h"
#include "hooks.h"
#include "rng.h"
#include "rules.h"
#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

namespace bourre::kernel {

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
enum Forced : int { F_NONE = 0, F_ACE_UP = 1, F_LAST_STANDS = 2, F_PLUGIN = 3 };
constexpr int H_DECK = 200;     // history: a deck follows (52 codes)
constexpr int H_DISCARD = 100;  // history: 100 + k, then the k cards discarded
constexpr int H_PASS = 52, H_PLAY = 53;

// What a whole session keeps of each hand (results.SessionTally, bourre compare): the pot
// at stake, the players, the bourre players, whether the pot carried, the dealer, the
// cards played and those played with a cinch (R-SURE), the balances after the payout.
struct HandLog {
  i128 pot_at_stake = 0;
  int active = 0, bourre = 0, carried = 0, dealer = 0, plays = 0, cinch = 0;
  i128 bal[MAX_SEATS] = {};
};

struct Stepper {
  House H;
  bool seeded = false;
  // false: a whole session played in the kernel (session.cpp), nothing replayed after:
  // no history and no hand-start record are kept.
  bool record = true;
  // OK, or why the kernel stopped (NO_DISCARDS: a draw the stock and pile cannot give;
  // OVERFLOW_: a plugin's answer the kernel cannot hold): the Python rules play it.
  int status = OK;
  bool logging = false;        // each hand's tally kept in ``logs`` (a session's, when asked)
  std::vector<HandLog> logs;
  Xoshiro deck_gen, reshuffle_gen;
  // Unrecorded, the reshuffle stream is made when first needed (Chance.reshuffle: its own
  // stream, bourre-reshuffle:{seed}; the seed kept until then); most sessions never
  // reshuffle.
  std::string reshuffle_seed;
  bool reshuffle_due = false;
  bool keep_results = true;
  int hands_total = 1;
  bool settles = true;  // the session ends with the settlement (R-SETTLE)
  int number = 0;
  int first_dealer = -1, last_dealer = -1;
  int dealer_given = -1;  // the first dealer the caller gave (-1: drawn)
  bool first_hand = true;  // no previous hand: everyone antes (R-FIRST-POT)
  i128 bal[MAX_SEATS] = {}, start[MAX_SEATS] = {};
  i128 pot = 0;
  bool exempt[MAX_SEATS] = {};
  bool overflow = false;
  // A plugin's next dealer (H.dealers): the seats that lost their next turn to deal, as
  // it leaves them (R-PREMATURE, R-CORRECTED: none in the kernel's own hands).
  u32 marks = 0;
  // A plugin's settlement (H.settles): its answer, (final balances, places), once over.
  std::shared_ptr<PyRef> settled;
  int phase = P_DEAL;
  bool dealt = false;  // a hand has been dealt (the observation's hand fields)
  // the hand
  int dealer = 0, upcard = 0, trump = 0;
  bool aceup = false;  // the upcard is an ace (R-ACE-UP): set_upcard
  u64 hand[MAX_SEATS] = {};
  std::uint8_t stock[52] = {};
  int stock_pos = 0, stock_len = 0;
  std::uint8_t pile[52] = {};
  int pile_len = 0;
  std::uint8_t disc[MAX_SEATS][5] = {};  // own discards not yet returned, in order
  int disc_len[MAX_SEATS] = {};
  u64 disc_mask[MAX_SEATS] = {};  // the same as a mask (R-SURE's known cards)
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
  // The most cards the seat to exchange may discard (R-DRAW): the hand's size, or a
  // plugin's draw's limit (the bots keep within it: session.cpp played_out).
  int exchange_limit = 5;
  // A plugin's decisions or draw (H.decisions): the hand's run in Python
  // (bourre.kernel.decisions.HandDecisions), its last answer (1 a turn, 0 the decisions
  // over, -1 not the kernel's to hold: OVERFLOW_) and that turn.
  std::shared_ptr<PyRef> run;
  int hooked = 0;
  HookTurn ht;
  // the tricks
  int trick_seats[MAX_SEATS] = {};
  Rotation rot;  // the players in turn (R-LEAD), set when the tricks start
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
  // The tricks a seat must have won before it can hold a cinch (R-SURE: its masters are
  // trumps it holds, and no trump joins a hand after the draw): the count is skipped below.
  int cinch_from[MAX_SEATS] = {};
  int nbourre = 0, carried = 0;  // the last hand's bourre players and whether the pot carried
  std::vector<std::int16_t> hist;
  std::size_t hand_from = 0;  // where the current hand's history starts
  // Where the kept history starts (hand_start: the wrapper's Python twin starts there and
  // replays hist): the session's start, or with keep_results=false the current hand's,
  // whose history alone is kept (memory of one hand; not once the money left the range).
  struct Start {
    int number = 0, last_dealer = -1;
    bool first_hand = true;
    i128 bal[MAX_SEATS] = {};
    i128 pot = 0;
    bool exempt[MAX_SEATS] = {};
    Xoshiro deck_gen, reshuffle_gen;
    Outcome outcome;
    u32 marks = 0;
    // the last hand as a plugin's ante reads it (H.antes): its pot at stake (-1: none),
    // its active seats in order and each seat's tricks
    i128 last_pot = -1;
    int last_nactive = 0;
    int last_active[MAX_SEATS] = {}, last_won[MAX_SEATS] = {};
  } at;

  // pot0: the pot already in the middle before the first hand's antes; settle: false for
  // one hand from a given position (Game.new_hand: no settlement, the pot stays).
  Stepper(const House& h, const std::string* seed, const std::vector<i64>& balances,
          int dealer0, int hands, bool keep, i64 pot0 = 0, bool settle = true,
          bool recorded = true)
      : H(h), record(recorded), keep_results(keep), hands_total(hands), settles(settle) {
    if (static_cast<int>(balances.size()) != H.n) throw std::invalid_argument("one balance a seat");
    for (int s = 0; s < H.n; ++s) bal[s] = start[s] = balances[static_cast<std::size_t>(s)];
    if (pot0 < 0) throw std::invalid_argument("pot: at least 0");
    pot = pot0;
    if (seed) {
      seeded = true;
      deck_gen = stream("bourre-deck:" + *seed);
      if (record) {
        reshuffle_gen = stream("bourre-reshuffle:" + *seed);
      } else {
        reshuffle_seed = *seed;
        reshuffle_due = true;
      }
    }
    dealer_given = first_dealer = dealer0;
    if (first_dealer < 0 && seeded) {  // drawn before the first deck (Chance.seat)
      first_dealer = static_cast<int>(deck_gen.below(static_cast<u32>(H.n)));
    }
    begin_hand();
  }

  // The same unrecorded session again from another seed (session.cpp: one Stepper for the
  // sessions of a call): the session's state as the constructor leaves it; the hand's is
  // the deal's (deal).
  void restart(const std::string& seed) {
    std::memcpy(bal, start, sizeof bal);
    pot = 0;
    std::memset(exempt, 0, sizeof exempt);
    number = 0;
    last_dealer = -1;
    first_hand = true;
    overflow = false;
    status = OK;
    outcome = Outcome();
    marks = 0;
    settled.reset();
    deck_gen = stream("bourre-deck:", seed);
    reshuffle_seed = seed;
    reshuffle_due = true;
    first_dealer = dealer_given;
    if (first_dealer < 0) first_dealer = static_cast<int>(deck_gen.below(static_cast<u32>(H.n)));
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
    if (record && (hist.empty() || (!keep_results && !overflow))) {  // the finished hands' actions go
      hist.clear();
      at.number = number;
      at.last_dealer = last_dealer;
      at.first_hand = first_hand;
      std::memcpy(at.bal, bal, sizeof at.bal);
      at.pot = pot;
      std::memcpy(at.exempt, exempt, sizeof at.exempt);
      at.deck_gen = deck_gen;
      at.reshuffle_gen = reshuffle_gen;
      at.outcome = outcome;
      at.marks = marks;
      if (H.antes) {  // (a plugin's ante reads the last hand: the wrapper's twin too)
        at.last_pot = first_hand ? -1 : pot_at_stake;
        at.last_nactive = nactive;
        std::memcpy(at.last_active, active, sizeof at.last_active);
        std::memcpy(at.last_won, won, sizeof at.last_won);
      }
    }
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
  __attribute__((always_inline)) void deal(const std::uint8_t* deck) {
    const int n = H.n, h = H.h;
    const i128 pot_before = pot;  // (a plugin's decisions: the hand state as deal_hand makes it)
    if (record) {
      hist.push_back(H_DECK);
      hist.insert(hist.end(), deck, deck + 52);
    }
    if (last_dealer < 0) {  // R-DEALER
      dealer = first_dealer;
    } else if (!H.dealers) {
      dealer = next_dealer(last_dealer, n);
    } else {  // a plugin's, through Python (asked even once the money is Python's: the cards)
      bool held = true;
      dealer = dealer_hook(H, last_dealer, marks, held);
      if (!held) overflow = true;
    }
    last_dealer = dealer;
    u64 dealt_to[MAX_SEATS] = {};  // card i to the i mod n-th seat from the dealer's left
    for (int j = 0, i = 0; j < h; ++j) {
      for (int p = 0; p < n; ++p) dealt_to[p] |= u64{1} << deck[i++];
    }
    for (int p = 0; p < n; ++p) hand[(dealer + 1 + p) % n] = dealt_to[p];
    set_upcard(deck[h * n - 1]);
    // A plugin's antes, through Python, told the last hand before it is cleared below.
    i128 hooked[MAX_SEATS];
    const bool by_hook = H.antes && !overflow;
    if (by_hook && !ante_hook(H, first_hand ? -1 : pot_at_stake, active, nactive, won, dealer,
                              hooked)) {
      overflow = true;
    }
    std::memcpy(stock, deck, 52);  // the stock: the deck after the hands, top first
    stock_pos = h * n;
    stock_len = 52;
    pile_len = 0;
    // (whole arrays: fixed sizes, no call)
    std::memset(disc_len, 0, sizeof disc_len);
    std::memset(gave_len, 0, sizeof gave_len);
    std::memset(disc_mask, 0, sizeof disc_mask);
    std::memset(got, 0, sizeof got);
    std::memset(chosen, 0xff, sizeof chosen);  // (-1: no decision)
    std::memset(won, 0, sizeof won);
    step = 0;
    exchanging = -1;
    nactive = ndec = 0;
    tlen = ntricks = 0;
    leader = -1;
    played = 0;
    cinch_plays = 0;
    ++number;
    if (H.antes) {
      for (int s = 0; s < n && by_hook && !overflow; ++s) {
        if (!(sub_from(bal[s], hooked[s]) && add_to(pot, hooked[s]))) overflow = true;
      }
    } else {
      for (int s = 0; s < n; ++s) {
        if (antes(H, first_hand, exempt[s]) && !overflow &&
            !(sub_from(bal[s], H.ante) && add_to(pot, H.ante))) {
          overflow = true;
        }
      }
    }
    pot_at_stake = pot;
    dealt = true;
    phase = P_DECIDE;
    exchange_limit = h;
    if (__builtin_expect(static_cast<bool>(H.decisions), 0)) begin_decisions(deck, pot_before);
  }

  // A plugin's decisions or draw: the hand handed to them in Python, told the session's
  // reshuffle stream (made now if it was not: Chance.reshuffle's).
  // Stepped (record): unseeded, the Python state's scripted reshuffle (no stream); an
  // error of the plugin hands the session to the Python rules (status), which raise it.
  __attribute__((noinline, cold)) void begin_decisions(const std::uint8_t* deck, i128 pot_before) {
    run.reset();
    if (overflow) {
      hooked = -1;
      return;
    }
    if (reshuffle_due) {
      reshuffle_gen = stream("bourre-reshuffle:", reshuffle_seed);
      reshuffle_due = false;
    }
    try {
      hooked = decisions_begin(H, number, dealer, deck, pot_before, pot,
                               seeded ? reshuffle_gen.s : nullptr, run, ht);
    } catch (...) {
      if (record) status = OVERFLOW_;
      throw;
    }
  }

  // A plugin's decisions' turn (its last answer), or once they are over the hand read back
  // (active seats in order, every seat's cards and own discards, the public decisions, the
  // reshuffle stream); false: over.  An answer the kernel does not hold stops the session
  // (OVERFLOW_: the Python rules play it).
  __attribute__((noinline, cold)) bool hooked_turn() {
    if (hooked > 0) {
      turn_seat = ht.seat;
      forced = ht.forced ? F_PLUGIN : F_NONE;
      phase = ht.kind == TURN_EXCHANGE ? P_EXCHANGE : P_DECIDE;
      hand[turn_seat] = ht.cards;
      exchange_limit = ht.kind == TURN_EXCHANGE ? ht.limit : H.h;
      return true;
    }
    HookEnd e;
    bool held = hooked == 0 && run && decisions_end(*run, H.n, e);
    for (int s = 0; held && s < H.n; ++s) held = popcount(e.discards[s]) <= 5;
    // (stepped: the run kept, never called again, for the hand's observations: what each
    // seat gave and got, its own discards in order, the stock; clones share it)
    if (!record || !held) run.reset();
    hooked = 0;
    if (!held) {
      overflow = true;
      if (record) status = OVERFLOW_;  // (stepped: the KernelState hands over to its twin)
      turn_seat = -1;
      return true;  // (stopped here: played_out ends on overflow)
    }
    nactive = e.nactive;
    for (int i = 0; i < nactive; ++i) active[i] = e.active[i];
    for (int s = 0; s < H.n; ++s) {
      hand[s] = e.cards[s];
      disc_mask[s] = e.discards[s];
      disc_len[s] = 0;
      for (u64 m = e.discards[s]; m; m &= m - 1) {
        disc[s][disc_len[s]++] = static_cast<std::uint8_t>(lowest(m));
      }
    }
    ndec = e.ndec;
    for (int i = 0; i < ndec; ++i) {
      dec_seat[i] = static_cast<std::uint8_t>(e.dec[i][0]);
      dec_play[i] = static_cast<std::uint8_t>(e.dec[i][1]);
      dec_exch[i] = static_cast<std::uint8_t>(e.dec[i][2]);
    }
    if (e.reshuffled) {
      for (int i = 0; i < 4; ++i) reshuffle_gen.s[i] = e.words[i];
    }
    return false;
  }

  // A plugin's decisions: the answer handed to the hand's run in Python, which judges it
  // (the pass the seat may not make included: the Python state asks the plugin's decide).
  // Stepped (record), an answer the rules refuse is refused here, nothing changed (the
  // hand state unchanged: the wrapper gives the Python rules' words); the plugin's own
  // error is raised with the session handed to the Python rules (status OVERFLOW_: the
  // twin replays the answer and raises it as they do).  Whole sessions: refused, the
  // Python rules play the session.
  __attribute__((noinline, cold)) bool hooked_decide(bool play) {
    if (!run || hooked <= 0 || status != OK) return false;
    int got;
    try {
      got = decisions_play(*run, play, ht);
    } catch (...) {
      if (record) hist.push_back(play ? H_PLAY : H_PASS), status = OVERFLOW_;
      throw;
    }
    if (got == HOOK_REFUSED && record) return false;
    if (record) hist.push_back(play ? H_PLAY : H_PASS);
    hooked = got;
    advance();
    return true;
  }

  // The same for an exchange: the discards in the order given (any cards 0..51: the
  // plugin's draw judges them, as the Python state's; R-DRAW).
  __attribute__((noinline, cold)) bool hooked_exchange(const int* cards, int k) {
    if (!run || hooked <= 0 || status != OK || k < 0 || k > 52) return false;
    for (int i = 0; i < k; ++i) {
      if (cards[i] < 0 || cards[i] >= 52) return false;
    }
    const auto note = [&] {
      if (!record) return;
      hist.push_back(static_cast<std::int16_t>(H_DISCARD + k));
      hist.insert(hist.end(), cards, cards + k);
    };
    int got;
    try {
      got = decisions_exchange(*run, cards, k, ht);
    } catch (...) {
      if (record) note(), status = OVERFLOW_;
      throw;
    }
    if (got == HOOK_REFUSED && record) return false;
    note();
    hooked = got;
    advance();
    return true;
  }

  void set_upcard(int c) {  // R-DEAL: the upcard names trump
    upcard = c;
    trump = c / 13;
    aceup = c % 13 == ACE;
  }

  // The decisions component's turn (Sequential.turn / Simultaneous.turn); false: none.
  bool turn() {
    if (__builtin_expect(static_cast<bool>(H.decisions), 0)) return hooked_turn();
    const DecisionTurn t =
        decision_turn(H.simultaneous, H.n, dealer, step, exchanging, aceup, nactive);
    if (t.kind == TURN_NONE) return false;
    turn_seat = t.seat;
    forced = t.forced;  // (F_NONE, F_ACE_UP, F_LAST_STANDS)
    phase = t.kind == TURN_EXCHANGE ? P_EXCHANGE : P_DECIDE;
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
  __attribute__((always_inline)) bool decide(bool play) {
    if (phase != P_DECIDE) return false;
    if (__builtin_expect(static_cast<bool>(H.decisions), 0)) return hooked_decide(play);
    if (!play && forced != F_NONE) return false;
    const int s = turn_seat;
    if (record) hist.push_back(play ? H_PLAY : H_PASS);
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
    return exchange(cards.data(), static_cast<int>(cards.size()));
  }

  __attribute__((always_inline)) bool exchange(const int* cards, int k) {
    if (phase != P_EXCHANGE) return false;
    const int s = turn_seat;
    if (__builtin_expect(static_cast<bool>(H.decisions), 0)) return hooked_exchange(cards, k);
    u64 dmask = 0;
    if (!draw_allowed(hand[s], cards, k, H.h, stock_len - stock_pos + pile_len, dmask)) {
      return false;
    }
    if (record) {
      hist.push_back(static_cast<std::int16_t>(H_DISCARD + k));
      hist.insert(hist.end(), cards, cards + k);
    }
    if (k) {
      u64 kept = hand[s] & ~dmask;
      draw_cards(kept, k, stock, stock_pos, stock_len, pile, pile_len,  // (checked above)
                 [this](std::uint8_t* st, int len) {  // R-RESHUFFLE: the pile, in chance's order
                   if (seeded) {
                     if (reshuffle_due) {
                       reshuffle_gen = stream("bourre-reshuffle:", reshuffle_seed);
                       reshuffle_due = false;
                     }
                     reshuffle_gen.shuffle(st, len);
                   }
                   for (int t = 0; t < H.n; ++t) {
                     disc_len[t] = 0;
                     disc_mask[t] = 0;
                   }
                 });
      got[s] = kept & ~hand[s];
      hand[s] = kept;
      note_discards(s, cards, k);
    }
    exchanged(s, k);
    return true;
  }

  // The discards of seat s go to the pile and its own discards (R-DRAW, R-SURE).
  void note_discards(int s, const std::vector<int>& cards) {
    note_discards(s, cards.data(), static_cast<int>(cards.size()));
  }

  void note_discards(int s, const int* cards, int k) {
    for (int i = 0; i < k; ++i) {
      const auto c = static_cast<std::uint8_t>(cards[i]);
      pile[pile_len++] = c;
      disc[s][disc_len[s]++] = c;
      disc_mask[s] |= u64{1} << c;
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
    i128 x = 0;
    if (!H.play_antes) {
      x = play_ante(H);
    } else if (!overflow && !play_ante_hook(H, x)) {  // a plugin's, through Python
      overflow = true;
      x = 0;
    }
    if (x) {  // R-DOUBLE-ANTE
      for (int i = 0; i < nactive && !overflow; ++i) {
        if (!(sub_from(bal[active[i]], x) && add_to(pot, x))) overflow = true;
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
    rot.set(active, nactive);
    for (int i = 0; i < nactive; ++i) {
      const int s = active[i];
      const int t = popcount((hand[s] >> (trump * 13)) & SUIT);
      cinch_from[s] = t < 3 ? 3 - t : 0;
    }
    lead(active[0]);
  }

  // R-LEAD: the others follow clockwise; a plugin's lead, through Python, is told the
  // last trick's winner (none before the first) and gives the order itself.
  void lead(int s) {
    if (__builtin_expect(static_cast<bool>(H.lead), 0)) {
      lead_hook(H, active, nactive, dealer, ntricks ? s : -1, trick_seats);
      s = trick_seats[0];
    } else {
      rot.order(s, trick_seats);
    }
    tlen = 0;
    leader = s;
    f = Facts();
    compute_legal();
  }

  // R-LEAD, R-FOLLOW ... R-CINCH-LAST (legal_play): the player to play's legal cards.
  // The obligations are a plugin's, through Python, when the house has one (false: its
  // answer is not the kernel's to hold, status OVERFLOW_; while it is asked the status
  // is OVERFLOW_ too, so that when the plugin raises, the stepped state knows the error
  // is its follow rule's: pytypes' calls_apply_action).
  __attribute__((always_inline)) bool compute_legal() {
    const int s = trick_seats[tlen];
    const auto known = [this, s] { return played | disc_mask[s]; };
    u64 ob;
    if (!H.follow) {
      ob = obliged(H, hand[s], f, tlen, trump);
    } else {
      status = OVERFLOW_;
      legal = hand[s];
      cinch_now = false;
      if (!follow_hook(H, hand[s], tcards, tlen, trump, ob)) return false;
      status = OK;
    }
    if (__builtin_expect(static_cast<bool>(H.cinch_rule), 0)) return plugin_cinch(s, ob);
    legal = cinch_legal(H, hand[s], ob, tlen, trump, known, won[s], tlen == nactive - 1,
                        won[s] >= cinch_from[s], cinch_now);
    return true;
  }

  // A plugin's cinch (R-SURE ... R-CINCH-LAST), through Python, for every card (never the
  // built-in's shortcut, cinch_from) on the obligations ``ob``; false: its ruling is not
  // the kernel's to hold (status OVERFLOW_).  Out of line: the built-in houses' cards
  // pay one test of a pointer.
  __attribute__((noinline, cold)) bool plugin_cinch(int s, u64 ob) {
    const u64 ordinary = (ob & hand[s]) ? ob & hand[s] : hand[s];
    if (!cinch_hook(H, hand[s], ordinary, tcards, tlen, trump, played | disc_mask[s], won[s],
                    tlen == nactive - 1, legal, cinch_now)) {
      status = OVERFLOW_;
      legal = hand[s];
      cinch_now = false;
      return false;
    }
    return true;
  }

  // R-TRICK: a full trick goes to its winner, who leads the next; false, unchanged,
  // for a card that is not legal.
  bool play(int c) {
    if (phase != P_PLAY || c < 0 || c >= 52 || !((legal >> c) & 1)) return false;
    play_legal(c);
    return true;
  }

  // The same for a card known to be legal (a bot's, chosen among ``legal``).
  __attribute__((always_inline)) void play_legal(int c) {
    const int s = trick_seats[tlen];
    if (record) hist.push_back(static_cast<std::int16_t>(c));
    if (cinch_now) ++cinch_plays;
    hand[s] &= ~(u64{1} << c);
    played |= u64{1} << c;
    tcards[tlen] = c;
    f.add(c, tlen, trump);
    ++tlen;
    if (tlen < nactive) {
      compute_legal();
      return;
    }
    const int w = trick_seats[H.winner ? winner_hook(H, tcards, nactive, trump) : f.winner()];
    ++won[w];
    if (record) {  // (the tricks an observation reads)
      tr_leader[ntricks] = static_cast<std::uint8_t>(leader);
      tr_winner[ntricks] = static_cast<std::uint8_t>(w);
      for (int p = 0; p < nactive; ++p) {
        tr_seat[ntricks][p] = static_cast<std::uint8_t>(trick_seats[p]);
        tr_card[ntricks][p] = static_cast<std::uint8_t>(tcards[p]);
      }
    }
    ++ntricks;
    if (ntricks < H.h) {
      lead(w);
      return;
    }
    tlen = 0;
    end_hand();
  }

  // The payout, then the next hand or the end (R-SESSION); the settlement is made when
  // asked (R-SETTLE).
  void end_hand() {
    int& nb = nbourre;
    nb = carried = 0;
    bool lost = false;
    if (H.money) {  // a plugin's money rule, through Python (none once the money is Python's)
      if (!overflow &&
          !money_hook(H, active, nactive, won, pot_at_stake, bal, pot, exempt, nb, carried, outcome)) {
        overflow = true;
      }
    } else if (overflow) {  // the money is the Python rules' now: the outcome alone, on copies
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
    if (logging) {
      HandLog hl;
      hl.pot_at_stake = pot_at_stake;
      hl.active = nactive;
      hl.bourre = nb;
      hl.carried = carried;
      hl.dealer = dealer;
      hl.plays = nactive == 1 ? 0 : H.h * nactive;
      hl.cinch = cinch_plays;
      std::memcpy(hl.bal, bal, sizeof hl.bal);
      logs.push_back(hl);
    }
    turn_seat = -1;
    if (number < hands_total) {
      begin_hand();
      return;
    }
    phase = P_OVER;
    if (H.settles && settles && !overflow) {  // a plugin's settlement (R-SETTLE), through Python
      PyObject* o = settle_hook(H, bal, pot);
      settled = std::make_shared<PyRef>(o);
      Py_DECREF(o);
    }
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
  // the house's trick winner: a plugin's asked through Python, heuristic_card) at every
  // seat until the hand ends: a Monte Carlo rollout.
  // -- a sampled world (bourre.game.worlds, replayed here: bourre.kernel.rollouts) --

  u64 unseen = 0;  // cards nobody at a sampled world's table has seen (its unknown stock)

  // The deal a table saw (Dealt: every hand shown, the stock unknown) with the pot
  // already in the middle (set_hand(pot=...): nobody antes); a plugin's decisions or draw:
  // the hand's run made by the caller (worlds.cpp replay_sample, decisions.told_hook).
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
      disc_mask[s] = 0;
      got[s] = 0;
      chosen[s] = -1;
      won[s] = 0;
    }
    set_upcard(up);
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
    // (a plugin's decisions or draw: the caller makes the hand's run, then advances)
    if (!H.decisions) advance();
  }

  // An exchange whose replacements the table tells (Draw.drawn), accepted here only
  // when they are all cards nobody has seen: 1 taken, 0 refused (R-DRAW), -1 left to the
  // Python rules (a reshuffle's cards).
  int exchange_told(const std::vector<int>& cards, const std::vector<int>& drew) {
    if (phase != P_EXCHANGE) return 0;
    const int s = turn_seat;
    const int k = static_cast<int>(cards.size());
    u64 dmask = 0, gmask = 0;
    if (!draw_allowed(hand[s], cards.data(), k, H.h, 52, dmask)) return 0;
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
    int playing_now = 0, decided = ndec;
    if (H.decisions) {  // (a plugin's decisions: the public decisions as they tell them)
      playing_now = ht.playing;
      decided = ht.decided;
    } else {
      for (int i = 0; i < ndec; ++i) playing_now += dec_play[i];
    }
    if (const int told = chart[s][playing_now]) return told == 2;
    const int keep = B.keep_trump[s];
    const u64 out = discard_weak(hand[s], trump, keep);
    double strength =
        hand_strength(hand[s], trump) + DRAW_GAIN * static_cast<double>(popcount(out));
    if (keep > 2) strength -= hand_strength(out & (SUIT << (trump * 13)), trump);
    const double potf = static_cast<double>(pot) / H.scale;
    const double players = static_cast<double>(H.n);
    const double share = 0.4 + 0.1 * std::min(2.0, potf / std::max(1.0, 2.0 * players));
    const int to_come = H.n - 1 - decided;
    const double opponents =
        static_cast<double>(playing_now) + share * static_cast<double>(to_come);
    return strength >= B.play_threshold[s] + B.per_opponent[s] * opponents;
  }

  // The heuristic bot's choices (HeuristicPlayer), written once for whole sessions
  // (played_out) and rollouts (heuristic_step): its decision (heuristic_decides, above),
  // its discards (the weakest cards) and its card (more than one legal card).
  u64 heuristic_discards(const Bots& B) const {
    return discard_weak(hand[turn_seat], trump, B.keep_trump[turn_seat]);
  }
  int heuristic_card_now() const {
    const int p = trick_seats[tlen];
    const u64 known = hand[p] | played | disc_mask[p];
    const int c = heuristic_card(legal, f, tlen, trump, known, tlen == nactive - 1,
                                 H.winner ? &H : nullptr, tcards);
    return (legal >> c) & 1 ? c : lowest(legal);  // (never: its card is legal)
  }

  // The heuristic bot's turn for the seat to act (the rollouts): the only legal card
  // played without asking; a draw the stock and pile cannot give (R-RESHUFFLE) stands
  // pat (whole sessions instead hand such a session to the Python rules: NO_DISCARDS);
  // within a plugin's draw's limit, the lowest cards of those it would throw (R-DRAW:
  // the Python bot's legal_or_nearest, as session.cpp played_out caps them).
  void heuristic_step(const Bots& B) {
    if (phase == P_DECIDE) {
      decide(heuristic_decides(B));
    } else if (phase == P_EXCHANGE) {
      int cards[8];
      int k = 0;
      u64 wanted = heuristic_discards(B);
      if (H.decisions && popcount(wanted) > exchange_limit) {
        wanted = lowest_cards(wanted, exchange_limit);
      }
      for (u64 m = wanted; m; m &= m - 1) cards[k++] = lowest(m);
      if (!exchange(cards, k)) exchange(cards, 0);
    } else if (phase == P_PLAY) {
      play_legal(legal & (legal - 1) ? heuristic_card_now() : lowest(legal));
    }
  }
};

// A house as the Stepper reads it (read_house, every field checked), made once a house
// by the wrapper (bourre.kernel.state) rather than read again for each state.
struct HouseFacts {
  House h;
};

}  // namespace bourre::kernel
