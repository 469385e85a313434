"""Hands/s of whole sessions played by the compiled kernel (``bourre.kernel.play_sessions``,
each session's ``SessionResult`` made), interleaved with a yardstick, medians of rounds.

``bourre bench`` measures the heuristic bots through ``bourre compare``'s session code
(each session reduced to its summary in Python); this measures the sessions alone::

    python bench/kernel_sessions.py --bots heuristic --reference ../shared/bench/speed_ref.py
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path


def _reference(path: Path, seconds: float) -> float:
    out = subprocess.run(
        [sys.executable, str(path), "--seconds", f"{seconds:g}"],
        capture_output=True,
        text=True,
        check=True,
        timeout=60 + 10 * seconds,
    )
    return float(out.stdout.strip().splitlines()[-1].split(":", 1)[1])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("house", nargs="?", default="standard")
    ap.add_argument("--bots", default="heuristic", help="as kernel.play_sessions takes them")
    ap.add_argument("--seconds", type=float, default=1.0, help="per round and measure")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--reference", type=Path, help="a yardstick whose last line is 'hands/s: N'")
    a = ap.parse_args(argv)

    from bourre import kernel
    from bourre.houses.house import House
    from bourre.sim.runs.collector import for_sessions

    house = House.from_arg(a.house)
    why = kernel.can_play(
        house, a.bots, hooks=True
    )  # (whole sessions: a plugin asked through Python)
    if why is not None:
        print(f"kernel_sessions: {why}", file=sys.stderr)
        return 2
    kernel.play_sessions(house, range(-4, 0), a.bots)  # warm up
    rates: list[float] = []
    ref: list[float] = []
    seed, batch = 0, 32
    with for_sessions():
        for _ in range(a.rounds):
            if a.reference is not None:
                ref.append(_reference(a.reference, a.seconds))
            hands, start = 0, time.perf_counter()
            while time.perf_counter() - start < a.seconds:
                kernel.play_sessions(
                    house, [f"bench:{i}" for i in range(seed, seed + batch)], a.bots
                )
                seed += batch
                hands += batch * house.table.hands
            rates.append(hands / (time.perf_counter() - start))
    med = statistics.median(rates)
    line = f"{house.spec}: bots {a.bots}: kernel sessions median {med:,.0f} hands/s"
    if ref:
        line += (
            f"; {med / statistics.median(ref):.2f}× the reference ({statistics.median(ref):,.0f})"
        )
    print(line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
