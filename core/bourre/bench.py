"""``bourre bench``: hands per second of full sessions with random-legal bots, on one
core.  Report the median of several timed rounds, with the machine noted."""

from __future__ import annotations

import gc
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
    gc.freeze()  # as the compare workers do: the loaded heap is not collected again
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

    from bourre.build import describe

    return (
        f"{platform.python_implementation()} {platform.python_version()},"
        f" {platform.machine()}, {os.cpu_count()} cpu; bourre {describe()}"
    )


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


# -- bots and parallel speed-up (``bourre bench --bots heuristic --parallel``) ---------------


def bot_hands_per_second(
    house: House, bots: str = "heuristic", seconds: float = 3.0, rounds: int = 5
) -> list[float]:
    """Hands/s on one core of full sessions with the given bots (``heuristic``, or a
    per-seat list as for ``bourre compare --bots``), through the same code as
    ``bourre compare`` (:func:`bourre.compare.runner.run_session`): timed rounds."""
    from bourre.compare.runner import parse_bots, run_session

    specs = parse_bots(bots)
    per = max(seconds / rounds, 0.05)
    run_session(house, specs, "bench-warm-up", 0)
    rates = []
    i = 0
    for _ in range(rounds):
        hands = 0
        start = time.perf_counter()
        while True:
            hands += run_session(house, specs, "bench", i)["hands"]
            i += 1
            elapsed = time.perf_counter() - start
            if elapsed >= per:
                break
        rates.append(hands / elapsed)
    return rates


def _pool_rate(house: House, bots: str, sessions: int, workers: int) -> float:
    """Wall-clock hands/s of ``sessions`` sessions on a pool of ``workers`` processes
    (started and warmed up before the clock starts)."""
    import math
    from concurrent.futures import ProcessPoolExecutor

    from bourre.compare.runner import _worker_init, parse_bots, run_chunk

    specs = parse_bots(bots)
    chunk = max(1, math.ceil(sessions / (workers * 8)))
    with ProcessPoolExecutor(max_workers=workers, initializer=_worker_init) as ex:
        warm = [
            ex.submit(run_chunk, house.spec, specs, "bench-warm-up", [k]) for k in range(workers)
        ]
        for f in warm:
            f.result()
        start = time.perf_counter()
        futs = [
            ex.submit(
                run_chunk, house.spec, specs, "bench", list(range(k, min(k + chunk, sessions)))
            )
            for k in range(0, sessions, chunk)
        ]
        hands: int = sum(s["hands"] for f in futs for s in f.result())
        elapsed = time.perf_counter() - start
    return hands / elapsed


def parallel_speedup(
    house: House, bots: str = "heuristic", workers: int = 2, seconds: float = 3.0
) -> tuple[float, float, float]:
    """The parallel speed-up of ``bourre compare``: hands/s with ``workers`` processes
    over hands/s with one process, on the same sessions (about ``seconds`` each).
    Returns ``(rate with 1, rate with workers, speed-up)``."""
    one = float(statistics.median(bot_hands_per_second(house, bots, min(seconds, 1.0), rounds=3)))
    sessions = max(workers * 8, int(one * seconds / house.table.hands))
    r1 = _pool_rate(house, bots, sessions, 1)
    rn = _pool_rate(house, bots, sessions, workers)
    return r1, rn, rn / r1


def run_bots(
    houses: list[House],
    seconds: float,
    echo: Callable[[str], None],
    bots: str = "heuristic",
    parallel: bool = False,
    workers: int = 2,
) -> float:
    """``bourre bench --bots B [--parallel]``: per house, hands/s per core with the
    bots, and with ``parallel`` the speed-up on ``workers`` processes.  Returns the
    first house's rate (with ``parallel``: the rate on ``workers`` processes)."""
    import os

    first = 0.0
    echo(f"machine: {machine()}; load average {os.getloadavg()[0]:.2f}")
    for i, house in enumerate(houses):
        rates = bot_hands_per_second(house, bots, seconds)
        med = statistics.median(rates)
        echo(
            f"{house.spec}: bots {bots}: median {med:,.0f} hands/s per core over {len(rates)} rounds"
        )
        rate = med
        if parallel:
            r1, rn, up = parallel_speedup(house, bots, workers, seconds)
            echo(
                f"{house.spec}: 1 process {r1:,.0f} hands/s, {workers} processes {rn:,.0f} hands/s:"
                f" speed-up {up:.2f}× (efficiency {up / workers:.0%})"
            )
            rate = rn
        if i == 0:
            first = rate
    return first
