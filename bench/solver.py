"""What the double-dummy solver costs (issue 31): the figures of docs/advice.md.

Each deal is a new hand of HOUSE from seed 0, 1, …, everyone plays and stands pat,
solved from the first lead::

    python bench/solver.py "standard+table(players=3)" --deals 30
    python bench/solver.py standard --deals 30
    python bench/solver.py standard --deals 2 --plain     # no table, no merging

One line per deal (seconds, positions remembered), then the median, the 90th
percentile, the slowest and the positions.
"""

from __future__ import annotations

import argparse
import statistics
import time

from bourre import Game, solve
from bourre.game.actions import PLAY, STAND_PAT
from bourre.game.state import State


def first_lead(house: str, seed: int) -> State:
    state = Game(house).new_hand(seed=seed)
    while state.phase_name != "play":
        state.apply_action(PLAY if state.phase_name == "decide" else STAND_PAT)
    return state


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("house", nargs="?", default="standard")
    parser.add_argument("--deals", type=int, default=10)
    parser.add_argument("--first", type=int, default=0, help="the first seed")
    parser.add_argument("--plain", action="store_true", help="solve(state, plain=True)")
    args = parser.parse_args()
    times: list[float] = []
    positions: list[int] = []
    for seed in range(args.first, args.first + args.deals):
        state = first_lead(args.house, seed)
        start = time.perf_counter()
        solution = solve(state, plain=args.plain)
        times.append(time.perf_counter() - start)
        positions.append(solution.positions)
        print(f"seed {seed}: {times[-1]:.2f} s, {solution.positions} positions", flush=True)
    ordered = sorted(times)
    print(
        f"{args.house}{' (plain)' if args.plain else ''}: {len(times)} deals, "
        f"median {statistics.median(times):.2f} s, "
        f"90% within {ordered[int(0.9 * len(ordered))]:.2f} s, slowest {ordered[-1]:.2f} s; "
        f"positions median {statistics.median(positions):,.0f}, most {max(positions):,}"
    )


if __name__ == "__main__":
    main()
