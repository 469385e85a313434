"""What the double-dummy solver costs (issue 31): the figures of docs/advice.md and
docs/performance.md.

Each deal is a new hand of HOUSE from seed 0, 1, …, everyone plays and stands pat,
solved from the first lead by ``solve(state, engine=ENGINE)``::

    python bench/solver.py "standard+table(players=3)" --deals 30 --engine python
    python bench/solver.py standard --deals 30 --engine python
    python bench/solver.py standard --deals 2 --plain     # Python, no table, no merging
    python bench/solver.py standard --deals 200 --engine kernel --quiet
    python bench/solver.py "standard+table(players=8)" --deals 200 --engine kernel --quiet

One line per deal (unless ``--quiet``: milliseconds, positions remembered), then the
median, the 90th percentile, the slowest, the positions and the solves per second.
Only the solve is timed (the deal and the decisions are not).  ``bourre bench --solver``
measures the same solves for a number of seconds.
"""

from __future__ import annotations

import argparse
import statistics
import time

from bourre import solve
from bourre.advice.bench import first_lead


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("house", nargs="?", default="standard")
    parser.add_argument("--deals", type=int, default=10)
    parser.add_argument("--first", type=int, default=0, help="the first seed")
    parser.add_argument("--plain", action="store_true", help="solve(state, plain=True)")
    parser.add_argument(
        "--engine", choices=("auto", "kernel", "python"), default="auto", help="solve's engine"
    )
    parser.add_argument("--quiet", action="store_true", help="no line per deal")
    args = parser.parse_args()
    times: list[float] = []
    positions: list[int] = []
    engine = "python" if args.plain else args.engine
    for seed in range(args.first, args.first + args.deals):
        state = first_lead(args.house, seed)
        start = time.perf_counter()
        solution = solve(state, plain=args.plain, engine=engine)
        times.append(time.perf_counter() - start)
        positions.append(solution.positions)
        if not args.quiet:
            print(
                f"seed {seed}: {times[-1] * 1000:.3f} ms, {solution.positions} positions",
                flush=True,
            )
    ordered = sorted(times)
    print(
        f"{args.house}{' (plain)' if args.plain else ''}, engine {engine}: {len(times)} deals, "
        f"median {statistics.median(times) * 1000:.3f} ms, "
        f"90% within {ordered[int(0.9 * len(ordered))] * 1000:.3f} ms, "
        f"slowest {ordered[-1] * 1000:.3f} ms; "
        f"positions median {statistics.median(positions):,.0f}, most {max(positions):,}; "
        f"{len(times) / sum(times):,.1f} solves/s"
    )


if __name__ == "__main__":
    main()
