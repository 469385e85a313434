"""What the double-dummy solver costs (``bourre bench --solver``, ``bench/solver.py``):
hands dealt from seeds 0, 1, … in which everyone plays and stands pat, each solved from
its first lead (R-LEAD) by :func:`bourre.advice.solve`; only the solve is timed."""

from __future__ import annotations

import statistics
import time
from dataclasses import dataclass

import bourre.advice.kernel_solver as kernel_solver
from bourre.advice.solver import solve
from bourre.game import Game
from bourre.game.actions import PLAY, STAND_PAT
from bourre.game.protocol import GameState
from bourre.houses.house import House

__all__ = ["SolverMeasure", "first_lead", "solver_bench"]


def first_lead(house: House | str, seed: int) -> GameState:
    """A hand of ``house`` dealt from ``seed`` at its first lead: every seat plays
    (R-DECIDE) and stands pat (R-DRAW)."""
    state = Game(house).new_hand(seed=seed)
    while state.phase_name != "play":
        state.apply_action(PLAY if state.phase_name == "decide" else STAND_PAT)
    return state


@dataclass(frozen=True)
class SolverMeasure:
    """The solves of one house: each deal's time in seconds, in seed order."""

    house: str
    engine: str
    times: tuple[float, ...]

    @property
    def median_ms(self) -> float:
        return statistics.median(self.times) * 1000

    @property
    def p90_ms(self) -> float:
        """The time nine solves in ten stay within."""
        ordered = sorted(self.times)
        return ordered[int(0.9 * len(ordered))] * 1000

    @property
    def slowest_ms(self) -> float:
        return max(self.times) * 1000

    @property
    def per_second(self) -> float:
        return len(self.times) / sum(self.times)

    def line(self) -> str:
        return (
            f"{self.house}: double-dummy solver from the first lead, engine {self.engine}:"
            f" {len(self.times)} deals, median {self.median_ms:.3f} ms, 9 in 10 within"
            f" {self.p90_ms:.3f} ms, slowest {self.slowest_ms:.3f} ms;"
            f" {self.per_second:,.1f} solves/s"
        )


def solver_bench(
    house: House, seconds: float, *, engine: str = "auto", most: int = 10_000
) -> SolverMeasure:
    """Deals solved one after another from seed 0 until ``seconds`` of solving have
    passed (at least one deal, at most ``most``).  ``engine`` as for
    :func:`~bourre.advice.solve` (``"kernel"`` on a house it cannot play: ``ValueError``
    saying why); the measure names the engine that solved the first deal."""
    times: list[float] = []
    used = engine
    while len(times) < most and (not times or sum(times) < seconds):
        state = first_lead(house, len(times))
        if not times and engine == "auto":
            used = "kernel" if kernel_solver.why_not(state) is None else "python"
        start = time.perf_counter()
        solve(state, engine=engine)
        times.append(time.perf_counter() - start)
    return SolverMeasure(house.spec, used, tuple(times))
