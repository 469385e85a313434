"""``bourre bench``: hands per second of full sessions with random-legal bots, on one
core.  Report the median of several timed rounds, with the machine noted."""

from __future__ import annotations

import platform
import statistics
import time
from collections.abc import Callable

from bourre.house import House
from bourre.simulate import play_session


def hands_per_second(house: House, seconds: float = 3.0, rounds: int = 5) -> list[float]:
    """Timed rounds of full sessions (about ``seconds`` in all): hands/s of each."""
    per = max(seconds / rounds, 0.05)
    rates = []
    seed = 0
    play_session(house, seed=-1, keep_hands=False)  # warm up
    for _ in range(rounds):
        hands = 0
        start = time.perf_counter()
        while True:
            play_session(house, seed=seed, keep_hands=False)
            seed += 1
            hands += house.table.hands
            elapsed = time.perf_counter() - start
            if elapsed >= per:
                break
        rates.append(hands / elapsed)
    return rates


def machine() -> str:
    import os

    return f"{platform.python_implementation()} {platform.python_version()}, {platform.machine()}, {os.cpu_count()} cpu"


def run(houses: list[House], seconds: float, echo: Callable[[str], None]) -> float:
    """Benchmark each house and print a line per house; returns the first median."""
    first = 0.0
    echo(f"machine: {machine()}")
    for i, house in enumerate(houses):
        rates = hands_per_second(house, seconds)
        med = statistics.median(rates)
        if i == 0:
            first = med
        rel = f" ({med / first - 1:+.1%} vs first)" if i else ""
        echo(f"{house.spec}: median {med:,.0f} hands/s over {len(rates)} rounds{rel}")
    return first
