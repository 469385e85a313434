"""Monte Carlo decisions per second, the way ``bourre bench`` measures them, on any
build of bourre that has the stepped state: to compare two checkouts back to back.

    python bench/montecarlo_rate.py [--seconds 6] [--seed 0]     # last line: decisions/s: N

One ``montecarlo`` bot (default budget) sits among four ``heuristic`` bots in
two-hand sessions of the standard house (seeds ``bench-mc:SEED``, ``SEED+1`` …); only
the time inside its answers counts, over the answers that had more than one choice.
Run it with each checkout's own interpreter, alternating, and compare the medians:
the machine's speed drifts from one minute to the next.
"""

from __future__ import annotations

import argparse
import gc
import random
import time
from typing import Any


class _Timed:
    def __init__(self, bot: Any) -> None:
        self.bot, self.seconds, self.decisions = bot, 0.0, 0

    def act(self, view: Any) -> Any:
        t0 = time.perf_counter()
        answer = self.bot.act(view)
        self.seconds += time.perf_counter() - t0
        self.decisions += len(view.legal_actions) > 1
        return answer


def rate(seconds: float, seed: int) -> tuple[float, int]:
    """Decisions/s of the Monte Carlo bot over about ``seconds`` of its answers."""
    from bourre.game.players import make_bot, play_out
    from bourre.game.state import State
    from bourre.houses.house import House

    house = House("standard")
    spent, decisions = 0.0, 0
    while spent < seconds:
        rng = random.Random(f"bench-mc:{seed}")
        mc = _Timed(make_bot("montecarlo", rng, house=house))
        others = [make_bot("heuristic", rng, house=house) for _ in range(4)]
        play_out(State(house, seed=f"bench-mc:{seed}", hands=2), [mc, *others])
        seed += 1
        spent += mc.seconds
        decisions += mc.decisions
    return decisions / spent, decisions


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=6.0)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    gc.freeze()  # as bourre bench and the compare workers do
    per_second, decisions = rate(args.seconds, args.seed)
    print(f"{decisions} decisions in {args.seconds:g} s of answers")
    print(f"decisions/s: {per_second:.0f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
