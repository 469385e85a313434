"""The bots' ladder (issue 31): chips per hand of each bot with 95% intervals, under
duplicate seating.

Every entrant sits alone at a table of ``--field`` bots (default ``heuristic``) and
plays every deal once from every seat: deal *d* is one hand dealt from the seed
``{seed}:{d}`` (the same cards, the same dealer for every entrant and every seating),
and the field's bots at a seat are seeded by the deal and the seat, so an entrant
meets the same deals from the same seats against the same players.  A deal's score is
the entrant's money change in the hand (antes paid, the pot won, bourré paid: the pot
left for the next hand counts as spent), averaged over its seatings; the intervals are
over deals, and the column ``vs REF`` is the difference with ``--reference``
(default ``montecarlo(budget=16)``) paired deal by deal (the luck of the cards cancels
there too).

The entrants are bots a user can seat (``--bots``, ``;``-separated, each as
``--bots`` spells it) and ``ceiling``, a seat of this harness only (never a bot: no
:class:`~bourre.game.observation.Observation` can give it what it reads): it sees the
true state, every hand and the stock, and

- at a card, plays the exact solver's choice on the true state (:func:`bourre.solve`);
- at play or pass and at the exchange, tries each legal answer on a copy of the true
  state (its real draws), plays on to the first lead with the field's bot answering
  for every seat, and takes the answer whose solved value (money so far plus the
  solve's chips) is best.

Run: ``python bench/ladder.py [--deals 200] [--seed ladder] [--workers 2]
[--house standard] [--json out.json]``; ``--deals`` is the number of deals, each
played by every entrant from every seat.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import random
import sys
import time
from collections.abc import Iterator
from typing import Any

from report import finish  # bench/report.py, beside this script

from bourre.advice import solve
from bourre.game.actions import CARDS, Action
from bourre.game.botmaking import BotSpec, make_bot, parse_bots
from bourre.game.players import ask
from bourre.game.state import CHANCE, State
from bourre.game.worlds import chance_outcome
from bourre.houses.house import House
from bourre.rules.money import Amount
from bourre.sim.stats.intervals import ci_mean

CEILING = "ceiling"
BOTS = "random;heuristic;montecarlo(budget=16);pimc(worlds=16);pimc(worlds=64);" + CEILING
REFERENCE = "montecarlo(budget=16)"


class Ceiling:
    """The all-seeing seat (this harness only): it reads the true state."""

    def __init__(self, field: Any, rng: random.Random) -> None:
        self.field = field
        self.rng = rng

    def _value(self, state: State, action: Action, me: int) -> Amount:
        s = state.clone()
        s.apply_action(action)
        while not s.is_terminal() and s.phase_name != "play":
            if s.current_player() == CHANCE:  # (a seeded state draws itself)
                s.apply_chance(chance_outcome(s, self.rng))
            else:
                s.apply_action(ask(s, self.field))
        now = s.returns()[me]
        if s.is_terminal():
            return now
        sol = solve(s)
        return now + sol.value(sol.choice).chips_by_seat[me]

    def act(self, state: State) -> Action:
        legal = list(state.legal_actions())
        if len(legal) == 1:
            return legal[0]
        if state.phase_name == "play":
            return CARDS[solve(state).choice]
        me = state.current_player()
        values = [self._value(state, a, me) for a in legal]
        return legal[values.index(max(values))]  # the first of the best


def _player(spec: BotSpec, rng: random.Random, house: House) -> Any:
    return make_bot(spec.name, rng, house=house, **dict(spec.options))


def play_deal(house: House, seed: str, deal: int, entrant: str, seat: int, field: str) -> float:
    """The entrant's money change in deal ``deal``, seated at ``seat``."""
    n = house.table.players
    fspec = parse_bots(field)[0]
    players: list[Any] = []
    for s in range(n):
        rng = random.Random(f"{seed}:{deal}:{s}:{entrant if s == seat else field}")
        if s != seat:
            players.append(_player(fspec, rng, house))
        elif entrant == CEILING:
            players.append(Ceiling(_player(fspec, random.Random(0), house), rng))
        else:
            players.append(_player(parse_bots(entrant)[0], rng, house))
    state = State(house, seed=f"{seed}:{deal}", hands=1, settle=False)
    while not state.is_terminal():
        turn = state.current_player()
        p = players[turn]
        if isinstance(p, Ceiling):
            action = p.act(state)
        else:
            action = None
            if getattr(p, "asked_when_forced", True) is False:
                action = state.only_action()
            if action is None:
                action = ask(state, p)
        state.apply_action(action)
    return float(state.returns()[seat])


def _task(job: tuple[str, str, int, str, str]) -> tuple[str, int, float, float]:
    house_spec, seed, deal, entrant, field = job
    house = House.from_arg(house_spec)
    t = time.process_time()
    n = house.table.players
    score = sum(play_deal(house, seed, deal, entrant, s, field) for s in range(n)) / n
    return entrant, deal, score, time.process_time() - t


def _jobs(
    args: argparse.Namespace, entrants: list[str]
) -> Iterator[tuple[str, str, int, str, str]]:
    for d in range(args.deals):
        for e in entrants:
            yield args.house, args.seed, d, e, args.field


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--deals", type=int, default=200)
    p.add_argument("--seed", default="ladder")
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--house", default="standard")
    p.add_argument("--field", default="heuristic")
    p.add_argument("--bots", default=BOTS, help="';'-separated entrants (and 'ceiling')")
    p.add_argument("--reference", default=REFERENCE)
    p.add_argument("--json", default=None)
    args = p.parse_args(argv)
    entrants = [b.strip() for b in args.bots.split(";") if b.strip()]
    for e in entrants:
        if e != CEILING:
            parse_bots(e)
    t0 = time.perf_counter()
    scores: dict[str, dict[int, float]] = {e: {} for e in entrants}
    cpu: dict[str, float] = dict.fromkeys(entrants, 0.0)
    jobs = list(_jobs(args, entrants))
    if args.workers > 1:
        with multiprocessing.get_context("fork").Pool(args.workers) as pool:
            got = list(pool.imap_unordered(_task, jobs, chunksize=1))
    else:
        got = [_task(j) for j in jobs]
    for e, d, score, secs in got:
        scores[e][d] = score
        cpu[e] += secs
    deals = list(range(args.deals))
    n = House.from_arg(args.house).table.players
    out: dict[str, Any] = {
        "house": args.house,
        "seed": args.seed,
        "deals": args.deals,
        "hands_per_entrant": args.deals * n,
        "field": args.field,
        "reference": args.reference,
        "load_average": os.getloadavg(),
        "entrants": {},
    }
    ref = scores.get(args.reference)
    print(
        f"{args.house}: each entrant alone among {n - 1} {args.field}, {args.deals} deals "
        f"x {n} seats (seed {args.seed!r}); chips per hand, 95% intervals over deals"
    )
    print(f"{'entrant':26} {'chips per hand':>24} {'vs ' + args.reference:>30} {'cpu s/hand':>11}")
    for e in entrants:
        xs = [scores[e][d] for d in deals]
        row: dict[str, Any] = {"chips": ci_mean(xs), "cpu_per_hand": cpu[e] / (args.deals * n)}
        vs = ""
        if ref is not None and e != args.reference:
            row["vs_reference"] = ci_mean([scores[e][d] - ref[d] for d in deals])
            vs = _show(row["vs_reference"])
        out["entrants"][e] = row
        row["by_deal"] = xs
        print(f"{e:26} {_show(row['chips']):>24} {vs:>30} {row['cpu_per_hand']:>11.4f}")
    print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return finish(out, t0, args.json)


def _show(iv: dict[str, Any]) -> str:
    return f"{iv['mean']:+.3f} [{iv['lo']:+.3f}, {iv['hi']:+.3f}]"


if __name__ == "__main__":
    sys.exit(main())
