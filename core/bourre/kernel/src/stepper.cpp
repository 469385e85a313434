// bourre.kernel, stepper: see stepper.h.

#include "stepper.h"
#include "pytypes.h"
#include <stdexcept>

namespace bourre::kernel {

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

// Where the kept history starts (Stepper::at), for the wrapper's Python twin: (hands
// dealt before, the last dealer or -1, the first hand?, the balances, the pot, the seats
// exempt from the next ante, the deck's and the reshuffle's stream words (None unseeded),
// the last hand's pot taker or -1, its bourre mask).
py::tuple hand_start_raw(const Stepper& g) {
  const auto& a = g.at;
  py::list bal, exempt;
  for (int s = 0; s < g.H.n; ++s) {
    bal.append(to_py(a.bal[s]));
    if (a.exempt[s]) exempt.append(py::int_(s));
  }
  const auto words = [&](const Xoshiro& x) -> py::object {
    if (!g.seeded) return py::none();
    return py::make_tuple(x.s[0], x.s[1], x.s[2], x.s[3]);
  };
  return py::make_tuple(a.number, a.last_dealer, a.first_hand, std::move(bal), to_py(a.pot),
                        std::move(exempt), words(a.deck_gen), words(a.reshuffle_gen),
                        a.outcome.winner, a.outcome.bourre);
}

}  // namespace bourre::kernel
