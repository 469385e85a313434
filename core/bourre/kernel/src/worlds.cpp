// bourre.kernel, worlds: see worlds.h.

#include "worlds.h"
#include "convert.h"
#include "pytypes.h"
#include <cmath>
#include <stdexcept>

namespace bourre::kernel {

// -- Monte Carlo rollouts (bourre_bots.montecarlo) --------------------------------------

// A world whose plugin's answer the kernel cannot hold (a follow rule's cards out of the
// hand's order; a money rule's amount not a whole number of 1/D chips, or a pot below
// nothing, at a rollout's end: Stepper::overflow): its rollouts are the Python rules'
// (bourre.kernel.rollouts reads this message's start: the wrappers give the worlds,
// loaded from a Python state, sampled or replayed, a plugin's penalty, payout and follow
// rule, LOAD_HOOKS / WORLD_HOOKS; a replay whose follow answer the kernel cannot hold
// hands the sample to the Python rules instead, replay_spec's -1).
constexpr const char* UNHELD_WORLD =
    "a plugin's answer the kernel cannot hold (Stepper status OVERFLOW): the Python rules play this world";

// A world's table, read and checked as the wrapper gives it (load_world, load_world_run):
// each seat's balance and where it started, the pot and the pot at stake (1/D chips,
// within the kernel's range), the dealer and the upcard (placed in ``cards``); one hand,
// dealt, not the session's first.
std::unique_ptr<Stepper> world_table(const House& h, const py::dict& w, Placed& cards) {
  static const char* W = "world";
  const int n = h.n;
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
  // (a world is one hand, never settled, as the Python worlds: State(hands=1, settle=False))
  auto g = std::make_unique<Stepper>(h, nullptr, bal, 0, 1, true, 0, false);
  for (int s = 0; s < n; ++s) g->start[s] = start[static_cast<std::size_t>(s)];
  g->pot = money("pot", field<i64>(w, W, "pot"), true);
  g->pot_at_stake = money("pot_at_stake", field<i64>(w, W, "pot_at_stake"), true);
  g->number = 1;
  g->first_hand = false;
  g->dealt = true;
  g->dealer = field<int>(w, W, "dealer");
  if (g->dealer < 0 || g->dealer >= n) bad(W, "dealer", "not a seat");
  g->set_upcard(cards.card(field<int>(w, W, "upcard"), "upcard"));
  return g;
}

// A world of the Monte Carlo bot (bourre.game.worlds: a Python State of one hand, at a
// player's turn), loaded as the wrapper describes it (bourre.kernel.rollouts): every
// hand, the stock in the order the rollouts draw it, the discards, the decisions so far,
// the tricks, the money in 1/D chips.  Checked whole: the cards each in one place, the
// seats at the table, the decisions in turn from the dealer's left, the players those who
// said play, the tricks fewer than the hand's cards, each hand the size the hand's point
// gives it, and the turn the one the decisions component gives (Stepper::turn).
std::unique_ptr<Stepper> load_world_run(const House& h, const py::dict& w);

std::unique_ptr<Stepper> load_world(const py::dict& house, const py::dict& w) {
  static const char* W = "world";
  if (w.contains("run")) return load_world_run(read_house(house), w);
  const House h = read_house_stepped(house, W);
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
  Placed cards{W};
  auto g = world_table(h, w, cards);
  const auto hands = per_seat("hands"), discards = per_seat("discards");
  const auto gave = per_seat("gave"), got = per_seat("got");
  for (int s = 0; s < n; ++s) {
    const auto i = static_cast<std::size_t>(s);
    g->hand[s] = cards.place(hands[i], "hands");
    g->got[s] = 0;
    for (int c : got[i]) g->got[s] |= u64{1} << cards.card(c, "got");
    g->disc_len[s] = static_cast<int>(discards[i].size());
    g->disc_mask[s] = 0;
    for (int k = 0; k < g->disc_len[s]; ++k) {
      g->disc[s][k] = static_cast<std::uint8_t>(cards.card(discards[i][static_cast<std::size_t>(k)], "discards"));
      g->disc_mask[s] |= u64{1} << g->disc[s][k];
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
  // R-LEAD: a trick's players in turn from its leader (clockwise; a plugin's lead gives
  // any order of the players, asked again at each trick's start: Stepper::lead)
  auto in_turn = [&g, &h](const std::vector<int>& seats) {
    return h.lead ? is_order(seats, g->active, g->nactive) : is_rotation(seats, g->active, g->nactive);
  };
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
  g->rot.set(g->active, g->nactive);
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
    if (!in_turn(order) || t[0] != order[0]) {
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
    if (!in_turn(seats)) bad(W, "trick_seats", "not the players in turn");
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
    if (!g->compute_legal()) throw std::invalid_argument(UNHELD_WORLD);
  } else {
    bad(W, "phase", "a world is at a player's turn (1, 2 or 3)");
  }
  return g;
}

// A world at a decision point (R-DECIDE, R-DRAW) of a house whose decisions or draw is a
// plugin's (H.decisions): told, beside the money, the dealer, the upcard, the hands and
// the reshuffle stream, the hand's run made in Python from a copy of the world's hand
// state (bourre.kernel.rollouts, decisions.HandDecisions.resume: its stock the order the
// rollouts draw, on that stream) and its turn (``turn``: decisions.Turned), which must be
// the world's ``phase`` and ``seat``.  The run judges and plays every decision and
// exchange from there, as the Python state's components do (Stepper::hooked_turn ...);
// each rollout plays on its own copy of it (play_out).
std::unique_ptr<Stepper> load_world_run(const House& h, const py::dict& w) {
  static const char* W = "world";
  if (!h.decisions) bad(W, "run", "only for a plugin's decisions or draw (decisions_hook)");
  const int n = h.n;
  Placed cards{W};
  auto g = world_table(h, w, cards);
  const auto hands = field<std::vector<std::vector<int>>>(w, W, "hands");
  if (static_cast<int>(hands.size()) != n) bad(W, "hands", "one a seat");
  for (int s = 0; s < n; ++s) {
    const auto& one = hands[static_cast<std::size_t>(s)];
    if (static_cast<int>(one.size()) > h.h) bad(W, "hands", "more cards than a hand holds");
    g->hand[s] = cards.place(one, "hands");
  }
  const auto words = field<std::vector<i64>>(w, W, "reshuffle");
  if (words.size() != 4) bad(W, "reshuffle", "four words");
  for (int i = 0; i < 4; ++i) g->reshuffle_gen.s[i] = static_cast<u32>(words[static_cast<std::size_t>(i)]);
  g->seeded = true;  // (the run reshuffles on its own copy of that stream; one hand)
  const int phase = field<int>(w, W, "phase"), seat = field<int>(w, W, "seat");
  if (phase != P_DECIDE && phase != P_EXCHANGE) bad(W, "phase", "a decision or an exchange (1 or 2)");
  if (!w.contains("turn")) bad(W, "turn", "missing: the run's turn");
  const py::object made = w["run"], turn = w["turn"];
  g->hooked = decisions_resume(made.ptr(), turn.ptr(), g->run, g->ht);
  if (g->hooked <= 0) bad(W, "turn", "a turn of the plugin's decisions");
  if (seat < 0 || seat >= n) bad(W, "seat", "not a seat");
  const u64 held = g->hand[seat];
  if (!g->turn() || g->phase != phase || g->turn_seat != seat || held != g->ht.cards) {
    bad(W, "seat", "not the seat whose turn it is, with its cards");
  }
  return g;
}

// Each candidate (a card, 52 pass, 53 play, or the list of cards discarded) applied to a
// copy of the world (a plugin's decisions under way: with its own copy of the hand's
// run), the hand then played out by the heuristic at every seat: ``each`` is given the
// hand's end.
template <typename Each>
void play_out(const Stepper& g, const py::list& candidates, int me, Each each) {
  if (me < 0 || me >= g.H.n) throw std::invalid_argument("seat");
  const Bots B = default_heuristic(g.H.n);
  std::vector<int> cs;
  for (const auto& cand : candidates) {
    Stepper c(g);
    // a plugin's decisions under way: each rollout on its own copy of the hand's run (its
    // hand state, reshuffle stream and turn); once they are over the run is only read
    if (c.run && c.hooked > 0) c.run = decisions_copy(*g.run);
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
    // a follow rule's answer the kernel cannot hold stops the hand there (status
    // OVERFLOW_, the legal set the whole hand): a later answer it holds would set the
    // status OK again over a card the rules may refuse (as advice_rows' finish stops)
    for (int guard = 0; c.phase != P_OVER && c.status == OK && guard < 1000; ++guard) c.heuristic_step(B);
    if (c.status != OK || c.overflow) throw std::invalid_argument(UNHELD_WORLD);  // (once, after)
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

// -- the simulated deals of advice (bourre.advice.deals.kernel_rows) --------------------
//
// ``bourre advise`` and the strategy chart deal thousands of hands to one seat and play
// each out once per option; one call here does every deal of a batch, so nothing crosses
// into Python per deal.  Deal d: the seat ``seat`` holds hands[d], the dealer the upcard
// upcards[d] (R-DEAL: card i to seat (dealer+1+i) mod n, the upcard dealt last), the rest
// of the deck shuffled on the Xoshiro stream of words[4d..4d+3] (also the stream a stock
// that runs out is reshuffled on, R-RESHUFFLE); the pot ``pot`` already in the middle
// (set_hand(pot=...): nobody antes, R-FIRST-POT); the seats before ``seat`` decide as
// ``decided`` says (in order, for the decisions it gives) or as the heuristic bot
// (R-DECIDE).  At the seat's decision it plays and, at its exchange, throws each of
// options[d] in turn (the heuristic bot at every seat after that, its own cards included);
// then it passes (or plays, when it may not pass in this deal, R-LAST-STANDS), unless
// ``passing`` is false.  Out: per deal a status (0 played; 1 / 2 the seat could not pass
// in this deal, R-ACE-UP / R-LAST-STANDS, played all the same; 3 the kernel cannot: others
// decide between its decision and its exchange; 4, ADVICE_UNHELD, a plugin's amount the
// kernel does not hold) and, per option then the pass, (took the pot, bourre, chips from
// the decision on) (R-WIN, R-BOURRE; a pass not played: 0, 0, 0).
// A house whose decisions or draw is a plugin's (H.decisions): each deal's hand run is
// made once the pot is in the middle and the reshuffle stream set (begin_decisions, as
// the Python rules' set_hand then deal), the decisions and exchanges handed to it; each
// option plays on its own copy of it (fork, as play_out).  A deal where the seat's first
// turn is not a decision, where the plugin forces it (F_PLUGIN) or refuses an option, is
// status 3 or 4: the Python rules play it (R-DECIDE, R-DRAW, issue 41).
py::tuple advice_rows(const py::dict& house, int seat, int dealer, i64 pot,
                      const std::vector<int>& decided, const std::vector<std::vector<int>>& hands,
                      const std::vector<int>& upcards, const std::vector<i64>& words,
                      const std::vector<std::vector<std::vector<int>>>& options, bool passing) {
  const House h = read_house(house);
  const bool hooked = static_cast<bool>(h.decisions);
  const int n = h.n, hs = h.h;
  const std::size_t count = hands.size();
  if (seat < 0 || seat >= n) throw std::invalid_argument("seat: a seat at the table (R-SEAT)");
  if (dealer < 0 || dealer >= n) throw std::invalid_argument("dealer: a seat at the table (R-SEAT)");
  if (pot < 0 || pot >= LIMIT) throw std::invalid_argument("pot: 0 to 2^62 (in 1/D chips)");
  if (static_cast<int>(decided.size()) >= n) throw std::invalid_argument("decided: fewer than the players");
  if (upcards.size() != count || options.size() != count || words.size() != 4 * count) {
    throw std::invalid_argument("hands, upcards, options and words (four a deal): one a deal");
  }
  const Bots B = default_heuristic(n);
  const std::vector<i64> zeros(static_cast<std::size_t>(n), 0);
  std::vector<int> status(count, 0);
  std::vector<double> rows;
  for (std::size_t d = 0; d < count; ++d) {
    const auto& mine = hands[d];
    const int up = upcards[d];
    if (up < 0 || up >= 52) throw std::invalid_argument("upcards: a card 0..51 (R-DECK)");
    if (static_cast<int>(mine.size()) != hs) throw std::invalid_argument("hands: a hand's size (R-DEAL-SIZE)");
    const bool deals_up = seat == dealer;
    u64 known = 0;
    for (int c : mine) {
      if (c < 0 || c >= 52 || ((known >> c) & 1)) throw std::invalid_argument("hands: cards 0..51, none twice (R-DECK)");
      known |= u64{1} << c;
    }
    if (((known >> up) & 1) != static_cast<u64>(deals_up)) {
      throw std::invalid_argument("upcards: in the dealer's hand, and only there (R-DEAL)");
    }
    const auto& opts = options[d];
    for (const auto& o : opts) {
      if (static_cast<int>(o.size()) > hs) throw std::invalid_argument("options: at most a hand's cards");
    }
    // the deck (R-DEAL)
    Xoshiro gen;
    for (int i = 0; i < 4; ++i) gen.s[i] = static_cast<u32>(words[4 * d + static_cast<std::size_t>(i)]);
    if (!(gen.s[0] | gen.s[1] | gen.s[2] | gen.s[3])) gen.s[3] = 1;
    std::uint8_t rest[52];
    int nrest = 0;
    for (int c = 0; c < 52; ++c) {
      if (c != up && !((known >> c) & 1)) rest[nrest++] = static_cast<std::uint8_t>(c);
    }
    gen.shuffle(rest, nrest);
    std::vector<int> own;
    for (int c : mine) {
      if (c != up) own.push_back(c);
    }
    std::sort(own.begin(), own.end());
    std::uint8_t deck[52];
    std::size_t k = 0;
    int r = 0;
    const int last = hs * n - 1;
    for (int i = 0; i < 52; ++i) {
      if (i == last) {
        deck[i] = static_cast<std::uint8_t>(up);
      } else if (i < last && (dealer + 1 + i) % n == seat) {
        deck[i] = static_cast<std::uint8_t>(own[k++]);
      } else {
        deck[i] = rest[r++];
      }
    }
    Stepper g(h, nullptr, zeros, dealer, 1, false, 0, false);
    // (nobody antes, the pot in the middle: a plugin's ante not asked at the deal, its play
    // ante when the tricks start; no run at the deal: made below)
    if (hooked || h.antes) g.overflow = true;
    g.deal(deck);
    for (int s = 0; s < n; ++s) g.bal[s] = g.start[s] = 0;
    g.pot = g.pot_at_stake = pot;
    g.overflow = false;
    g.reshuffle_gen = gen;
    g.seeded = true;  // (one hand: no deal follows; a reshuffle draws on gen)
    const std::size_t at = rows.size();
    auto unheld = [&](int why) {  // the deal not the kernel's: the Python rules play it
      status[d] = why;
      rows.resize(at + 3 * (opts.size() + 1), 0.0);
    };
    if (hooked) {
      g.begin_decisions(deck, pot);
      if (g.hooked <= 0) {
        unheld(ADVICE_UNHELD);
        continue;
      }
    }
    g.advance();
    std::size_t told = 0;
    for (int guard = 0; g.current_player() != seat && g.phase != P_OVER && guard < 1000; ++guard) {
      if (told < decided.size() && g.phase == P_DECIDE) {
        if (!g.decide(decided[told++] != 0)) g.decide(true);  // (a pass refused: forced)
      } else {
        g.heuristic_step(B);
      }
    }
    int forced = g.forced;
    if (hooked && g.status == OK && !g.overflow && forced == F_PLUGIN) {
      // the rule that forbids the seat to pass, as the run names it (HandDecisions.forced):
      // R-ACE-UP or R-LAST-STANDS as the built-in rules', a plugin's own the Python rules'
      forced = decisions_forced(*g.run);
    }
    if (hooked && (g.status != OK || g.overflow || g.current_player() != seat ||
                   g.phase != P_DECIDE || forced == F_PLUGIN)) {
      // (the plugin's order, or its own forced rule: the Python rules name it)
      unheld(g.status != OK || g.overflow ? ADVICE_UNHELD : 3);
      continue;
    }
    if (g.current_player() != seat || g.phase != P_DECIDE) {
      throw std::invalid_argument("the seat never came to decide (R-DECIDE)");
    }
    status[d] = forced;
    const i128 before = g.bal[seat];
    auto row = [&](const Stepper& c) {
      // a plugin's amount the kernel does not hold (a money hook answered None), or its
      // follow rule's cards out of the hand's order (status OVERFLOW_, the hand stopped
      // there): not the rules' hand (the Python rules play the batch)
      if (c.overflow || c.status != OK) status[d] = ADVICE_UNHELD;
      rows.push_back(c.outcome.winner == seat ? 1.0 : 0.0);
      rows.push_back((c.outcome.bourre >> seat) & 1 ? 1.0 : 0.0);
      rows.push_back(static_cast<double>(c.bal[seat] - before) / h.scale);
    };
    auto finish = [&](Stepper& c) {
      for (int guard = 0; c.phase != P_OVER && c.status == OK && guard < 1000; ++guard) {
        c.heuristic_step(B);
      }
    };
    // a copy of a position, a plugin's decisions under way with its own copy of the run
    auto fork = [](const Stepper& s) {
      Stepper c(s);
      if (c.run && c.hooked > 0) c.run = decisions_copy(*s.run);
      return c;
    };
    Stepper after = fork(g);
    after.decide(true);
    if (after.current_player() == seat && after.phase == P_EXCHANGE) {
      std::vector<int> cs;
      bool refused = false;
      for (const auto& o : opts) {
        Stepper c = fork(after);
        cs.assign(o.begin(), o.end());
        if (!c.exchange(cs)) {
          if (!hooked) throw std::invalid_argument("options: an exchange the rules refuse (R-DRAW)");
          refused = true;  // (beyond the plugin's draw in this deal: the Python rules')
          break;
        }
        finish(c);
        row(c);
      }
      if (refused) {
        rows.resize(at);
        unheld(ADVICE_UNHELD);
        continue;
      }
    } else if (after.phase != P_OVER) {
      unheld(3);  // others decide before the exchange (simultaneous reveal)
      continue;
    } else {  // the hand won alone, no exchange (R-SOLE): every option the same
      for (std::size_t i = 0; i < opts.size(); ++i) row(after);
    }
    if (passing) {
      Stepper c = fork(g);
      if (!c.decide(false)) c.decide(true);  // forced in this deal (R-LAST-STANDS)
      finish(c);
      row(c);
    } else {
      rows.insert(rows.end(), {0.0, 0.0, 0.0});
    }
  }
  return py::make_tuple(status, rows);
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
  // A plugin's decisions or draw (H.decisions): the Python call that makes a sample's hand
  // run (decisions.told_hook: the view's dealer, upcard and pot bound)
  py::object told;
};

WorldSpec read_world(const py::dict& house, const py::dict& w) {
  static const char* V = "view";
  WorldSpec W;
  W.h = read_house(house);
  const int n = W.h.n, hs = W.h.h;
  if (W.h.decisions) {  // (a plugin's decisions or draw: each sample's run made in Python)
    if (!w.contains("told") || !PyCallable_Check(w["told"].ptr())) {
      bad(V, "told", "a plugin's decisions or draw: the call that makes a sample's hand run");
    }
    W.told = w["told"];
  }
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

// A plugin's decisions or draw (H.decisions): the exchange of the seat to act whose
// replacements the sample tells, handed to the hand's run (decisions.HandDecisions.drawn:
// the plugin's check and drawn, as the Python state takes a Drew; standing pat, its draw):
// 1 taken, 0 refused by the rules (R-DRAW), -1 the Python rules' (a replacement nobody
// could draw unseen: a reshuffle's; a card that is not one).
int exchange_told_hooked(Stepper& g, const std::vector<int>& cards, const std::vector<int>& drew) {
  if (g.phase != P_EXCHANGE || !g.run || g.hooked <= 0) return -1;
  if (cards.size() > 52 || drew.size() > 52) return -1;
  for (int c : cards) {
    if (c < 0 || c >= 52) return -1;
  }
  u64 gmask = 0;
  if (!cards.empty()) {
    for (int c : drew) {
      if (c < 0 || c >= 52 || ((gmask >> c) & 1)) return -1;
      gmask |= u64{1} << c;
    }
    if ((gmask & g.unseen) != gmask) return -1;
  }
  const int got = decisions_drawn(*g.run, cards, drew, g.ht);
  if (got == HOOK_REFUSED) return 0;
  g.unseen &= ~gmask;
  g.hooked = got;
  g.advance();
  return 1;
}

int replay_sample(const WorldSpec& W, const Xoshiro& gen, std::unique_ptr<Stepper>& out);

// The public history replayed into a sample (worlds._replay, step for step): the deal
// the sample gives, the decisions and exchanges announced (the Monte Carlo bot's heuristic
// deciding for opponents whose decision is still secret), every card played, until the
// world stands where the view does; its unknown stock then shuffled on ``gen``.
// 1: ``out`` is the world; 0: the rules refuse the sample; -1: the Python rules must
// replay it (a draw from reshuffled discards; a plugin's decisions or draw: an answer the
// kernel does not hold, or the plugin's own error, which the Python replay raises).
int replay_spec(const WorldSpec& W, const Xoshiro& gen, std::unique_ptr<Stepper>& out) {
  if (!W.h.decisions) return replay_sample(W, gen, out);
  try {
    return replay_sample(W, gen, out);
  } catch (py::error_already_set& e) {
    if (!e.matches(PyExc_Exception)) throw;  // (an interrupt stays one)
    return -1;  // the plugin's error: the Python rules replay the sample and raise it
  }
}

int replay_sample(const WorldSpec& W, const Xoshiro& gen, std::unique_ptr<Stepper>& out) {
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
  // (one hand, never settled, as worlds._replay's)
  auto g = std::make_unique<Stepper>(W.h, nullptr, W.bal, W.dealer, 1, true, 0, false);
  const bool hooked = static_cast<bool>(W.h.decisions);
  g->deal_given(W.dealt, W.up, static_cast<i128>(W.pot));
  if (hooked) {  // the sample's hand run (decisions.told_hook), its first turn
    g->hooked = decisions_told(W.told.ptr(), W.dealt, g->run, g->ht);
    g->advance();
  }
  const Bots B = default_heuristic(n);
  std::size_t done = 0;
  bool ended = false;  // (a plugin's decisions: the hand read back once they are over)
  for (int guard = 0; guard < 200; ++guard) {
    if (g->status != OK || (hooked && g->overflow)) return -1;  // an answer the kernel cannot hold
    if (hooked && !ended && g->phase != P_DECIDE && g->phase != P_EXCHANGE) {
      // every card the run reads back is a card no longer unseen (else not the kernel's)
      ended = true;
      for (int s = 0; s < n; ++s) {
        if ((g->hand[s] | g->disc_mask[s]) & g->unseen) return -1;
      }
    }
    const int now = hooked && g->hooked > 0 ? g->ht.decided : g->ndec;
    if (g->current_player() == W.to_act && g->phase == W.target && now == ndec &&
        done == W.plays.size()) {
      g->finish_world(gen);
      if (hooked && g->phase != P_PLAY) {
        // at a decision point: the run's stock the world's (R-DRAW, R-RESHUFFLE); a seat the
        // plugin's own rule forces is the Python rules' (they name it)
        if (g->ht.forced && decisions_forced(*g->run) == F_PLUGIN) return -1;
        if (!decisions_stocked(*g->run, g->stock, g->stock_len, g->reshuffle_gen.s)) return -1;
      }
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
      const auto& gave = s == W.me ? W.view_gave : W.gave[i];
      const auto& drew = s == W.me ? W.view_got : W.got[i];
      const int r = hooked ? exchange_told_hooked(*g, gave, drew) : g->exchange_told(gave, drew);
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
// or 0 (the rules refuse the sample) / 1 (the Python rules must replay it).  A plugin's
// decisions or draw (H.decisions): replayed through the sample's hand run (the view's
// ``told``: decisions.told_hook; replay_sample).
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
// discards; a plugin's decisions or draw: an answer the kernel does not hold in a
// sample's replay, or the plugin's own error, which the Python sampling then raises).
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

}  // namespace bourre::kernel
