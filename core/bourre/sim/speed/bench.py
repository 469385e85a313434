"""``bourre bench``: how fast the game runs, on one core, one line per measure.

Per house: hands/s of full sessions with random-legal bots (the engine's own cost),
hands/s with the heuristic bots through ``bourre compare``'s code (the main job's
cost), and the Monte Carlo bot's decisions/s at its default budget.  Each figure is
the median of timed rounds; the machine and its load are printed first.  With
``--reference`` a fixed outside yardstick (``speed_ref.py``) runs in the same rounds,
interleaved, and every hands/s figure is also given as a ratio to it: machines change
speed from minute to minute, only a ratio measured back to back means anything.
"""

from __future__ import annotations

import math
import os
import platform
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bourre import kernel
from bourre.game.actions import Action
from bourre.game.observation import Observation
from bourre.game.players import make_bot, play_out
from bourre.game.simulate import play_session
from bourre.game.state import State
from bourre.houses.house import House
from bourre.kernel import play_session as kernel_session
from bourre.kernel import play_sessions
from bourre.sim.runs.collector import for_sessions
from bourre.sim.runs.sessions import parse_bots, run_chunk, run_session, worker_init

__all__ = [
    "ENGINES",
    "MEASURES",
    "Measure",
    "engine_for",
    "hands_per_second",
    "machine",
    "reference_round",
    "run",
    "run_bots",
]

MEASURES = ("random", "heuristic", "montecarlo")
"""What ``bourre bench`` measures by default, in this order."""


ENGINES = ("auto", "kernel", "python")
"""``--engine``: the compiled kernel where it can play (``auto``), or one forced."""


def engine_for(house: House, bots: str, engine: str = "auto") -> str:
    """Which engine plays ``bots`` at ``house``: ``"kernel"`` (:mod:`bourre.kernel`)
    when it is built and can play them (``auto``, ``kernel``), else ``"python"``;
    ``engine="kernel"`` on a house or bots it cannot play raises ``ValueError`` naming
    the component."""
    if engine not in ENGINES:
        raise ValueError(f"--engine {engine!r}: one of {', '.join(ENGINES)}")
    if engine == "python":
        return "python"

    why = kernel.can_play(house, bots, hooks=True)
    if why is None:
        return "kernel"
    if engine == "kernel":
        raise ValueError(f"--engine kernel: {house.spec} with bots {bots}: {why}")
    return "python"


def machine() -> str:
    """The interpreter, the processor, the cores, the build, and the load now."""
    built = "built" if kernel.available() else "not built: the Python rules play every house"
    return (
        f"{platform.python_implementation()} {platform.python_version()},"
        f" {platform.machine()}, {os.cpu_count()} cpu; the compiled kernel {built};"
        f" load average {os.getloadavg()[0]:.2f}"
    )


# -- one timed round of each measure ---------------------------------------------------


def _random_round(house: House, seconds: float, seed: list[int]) -> float:
    """Hands/s of whole sessions with the random bot at every seat (simulate's code)."""
    hands = 0
    start = time.perf_counter()
    while True:
        play_session(house, seed=seed[0], keep_hands=False)
        seed[0] += 1
        hands += house.table.hands
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return hands / elapsed


_BATCH = 32
"""Sessions the kernel plays in one call during a timed round."""


def _kernel_round(house: House, seconds: float, seed: list[int]) -> float:
    """Hands/s of whole sessions with the random bot at every seat (the seeds of
    :func:`_random_round`) played by the compiled kernel, :data:`_BATCH` a call; each
    session's settled result is made (``SessionResult``: exact final balances, places)."""
    hands = 0
    start = time.perf_counter()
    while True:
        first = seed[0]
        play_sessions(house, range(first, first + _BATCH), "random")
        seed[0] += _BATCH
        hands += house.table.hands * _BATCH
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return hands / elapsed


def _bots_round(
    house: House, bots: str, seconds: float, seed: list[int], engine: str = "python"
) -> float:
    """Hands/s of whole sessions with ``bots`` through ``bourre compare``'s code (each
    session reduced to its summary), played by ``engine``."""
    specs = parse_bots(bots)
    hands = 0
    start = time.perf_counter()
    while True:
        hands += int(run_session(house, specs, "bench", seed[0], engine=engine)["hands"])
        seed[0] += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return hands / elapsed


class _Timed:
    """A bot whose answers are timed: seconds inside ``act``, and the decisions
    (a single legal answer is not a decision)."""

    def __init__(self, bot: Any) -> None:
        self.bot, self.seconds, self.decisions = bot, 0.0, 0

    def act(self, view: Observation) -> Action:
        t0 = time.perf_counter()
        answer: Action = self.bot.act(view)
        self.seconds += time.perf_counter() - t0
        self.decisions += len(view.legal_actions) > 1
        return answer


def _montecarlo_round(house: House, seconds: float, seed: list[int]) -> float:
    """Decisions/s of one Monte Carlo bot (default budget) among heuristic bots."""
    spent, decisions = 0.0, 0
    while spent < seconds:
        rng = random.Random(f"bench-mc:{seed[0]}")
        mc = _Timed(make_bot("montecarlo", rng, house=house))
        others = [make_bot("heuristic", rng, house=house) for _ in range(house.table.players - 1)]
        play_out(State(house, seed=f"bench-mc:{seed[0]}", hands=2), [mc, *others])
        seed[0] += 1
        spent += mc.seconds
        decisions += mc.decisions
    return decisions / spent if decisions else 0.0


def reference_round(path: Path, seconds: float) -> float:
    """Hands/s of the outside yardstick: its last line is ``hands/s: N``."""
    out = subprocess.run(
        [sys.executable, str(path), "--seconds", f"{seconds:g}"],
        capture_output=True,
        text=True,
        timeout=60 + 10 * seconds,
        check=False,
    )
    lines = out.stdout.strip().splitlines()
    if out.returncode or not lines or not lines[-1].startswith("hands/s:"):
        why = (out.stderr.strip().splitlines() or ["no 'hands/s: N' line"])[-1]
        raise ValueError(f"--reference {path}: the yardstick failed ({why})")
    return float(lines[-1].split(":", 1)[1])


# -- the suite ---------------------------------------------------------------------------


@dataclass
class Measure:
    """One measure of one house: the rate of each round, its unit, and the ratio of
    its median to the yardstick's median over the same rounds (hands/s only)."""

    house: str
    name: str
    unit: str
    rates: list[float] = field(default_factory=list)
    ratio: float | None = None
    engine: str = "python"

    @property
    def median(self) -> float:
        return float(statistics.median(self.rates))

    def line(self) -> str:
        what = {"random": "random bots", "heuristic": "heuristic bots"}.get(
            self.name, "Monte Carlo bot" if self.name == "montecarlo" else f"bots {self.name}"
        )
        per = " per core" if self.unit == "hands/s" else " (default budget)"
        ratio = f"; {self.ratio:.2f}× the reference" if self.ratio is not None else ""
        return (
            f"{self.house}: {what}: median {self.median:,.0f} {self.unit}{per}"
            f" over {len(self.rates)} rounds{ratio}; engine: {self.engine}"
        )


def run(
    houses: Sequence[House],
    seconds: float,
    echo: Callable[[str], None],
    *,
    measures: Sequence[str] = MEASURES,
    reference: Path | None = None,
    rounds: int = 5,
    engine: str = "auto",
) -> list[Measure]:
    """Every measure of every house in ``rounds`` interleaved rounds (each measure
    takes about ``seconds`` in all), a line each; with ``reference`` the yardstick
    runs in every round too.  Each hands/s measure is played by the compiled kernel
    where it can (``engine="auto"``), or by the engine forced (:func:`engine_for`);
    its line says which.  Returns the measures (the first is the headline)."""
    per = max(seconds / rounds, 0.05)
    out = [
        Measure(
            h.spec,
            m,
            "decisions/s" if m == "montecarlo" else "hands/s",
            engine=engine_for(h, m, engine),
        )
        for h in houses
        for m in measures
    ]  # (a forced engine that cannot play a measure is refused before anything runs)
    echo(f"machine: {machine()}")
    for house in houses:  # warm up: plugins loaded, code paths taken once
        play_session(house, seed=-1, keep_hands=False)
    for m in out:
        if m.engine == "kernel":
            kernel_session(next(h for h in houses if h.spec == m.house), -1, "random")
    ref: list[float] = []
    seeds = [[0] for _ in out]
    with for_sessions():  # the collector as bourre compare's sessions have it
        for _ in range(rounds):
            if reference is not None:
                ref.append(reference_round(reference, per))
            for m, seed in zip(out, seeds, strict=True):
                house = next(h for h in houses if h.spec == m.house)
                if m.name == "random" and m.engine == "kernel":
                    m.rates.append(_kernel_round(house, per, seed))
                elif m.name == "random":
                    m.rates.append(_random_round(house, per, seed))
                elif m.name == "montecarlo":
                    m.rates.append(_montecarlo_round(house, per, seed))
                else:
                    m.rates.append(_bots_round(house, m.name, per, seed, m.engine))
    if ref:
        med = statistics.median(ref)
        for m in out:
            if m.unit == "hands/s":
                m.ratio = m.median / med
    for m in out:
        echo(m.line())
    if ref:
        echo(
            f"reference ({reference.name if reference else ''}): median"
            f" {statistics.median(ref):,.0f} hands/s over {len(ref)} rounds, interleaved"
        )
    return out


# -- parallel speed-up (``bourre bench --parallel``) ---------------------------------------


def hands_per_second(house: House, seconds: float = 3.0, rounds: int = 5) -> list[float]:
    """Timed rounds of full sessions with random bots: hands/s of each."""
    play_session(house, seed=-1, keep_hands=False)
    seed = [0]
    return [_random_round(house, max(seconds / rounds, 0.05), seed) for _ in range(rounds)]


def _pool_rate(house: House, bots: str, sessions: int, workers: int) -> float:
    """Wall-clock hands/s of ``sessions`` sessions on a pool of ``workers`` processes
    (started and warmed up before the clock starts)."""
    specs = parse_bots(bots)
    chunk = max(1, math.ceil(sessions / (workers * 8)))
    with ProcessPoolExecutor(max_workers=workers, initializer=worker_init) as ex:
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


def run_bots(
    houses: Sequence[House],
    seconds: float,
    echo: Callable[[str], None],
    bots: str = "heuristic",
    workers: int = 2,
) -> float:
    """``bourre bench --parallel``: per house, hands/s with ``bots`` on one process
    and on ``workers`` processes over the same sessions, and the speed-up.  Returns
    the first house's rate on ``workers`` processes."""
    first = 0.0
    for i, house in enumerate(houses):
        seed = [0]
        one = float(statistics.median([_bots_round(house, bots, 0.3, seed) for _ in range(3)]))
        sessions = max(workers * 8, int(one * seconds / house.table.hands))
        r1 = _pool_rate(house, bots, sessions, 1)
        rn = _pool_rate(house, bots, sessions, workers)
        up = rn / r1
        echo(
            f"{house.spec}: bots {bots}: 1 process {r1:,.0f} hands/s, {workers} processes"
            f" {rn:,.0f} hands/s: speed-up {up:.2f}× (efficiency {up / workers:.0%})"
        )
        if i == 0:
            first = rn
    return first
