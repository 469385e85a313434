"""How fast the double-dummy solver runs (``bourre bench --solver``): hands of a house
dealt from seeds 0, 1, …, everyone plays and stands pat, each solved from the first
lead by :func:`bourre.solve`; only the solve is timed (not the deal nor the decisions).
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from bourre.advice.kernel_solver import why_not
from bourre.advice.solver import solve
from bourre.game import Game
from bourre.game.actions import PLAY, STAND_PAT
from bourre.game.state import State
from bourre.rules.house import House

__all__ = ["SolverTimes", "first_lead", "time_solver"]


def first_lead(game: Game, seed: int) -> State:
    """Hand ``seed`` of ``game`` at its first lead: every seat played and stood pat."""
    state = game.new_hand(seed=seed)
    while state.phase_name != "play":
        state.apply_action(PLAY if state.phase_name == "decide" else STAND_PAT)
    return state


@dataclass
class SolverTimes:
    """The seconds of each solve of one house, and which search made them."""

    house: str
    engine: str
    """``"kernel"`` (the compiled kernel's solver) or ``"python"`` (the plain search)."""
    seconds: list[float] = field(default_factory=list)
    positions: list[int] = field(default_factory=list)

    @property
    def median_ms(self) -> float:
        return statistics.median(self.seconds) * 1000

    @property
    def p90_ms(self) -> float:
        ordered = sorted(self.seconds)
        return ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))] * 1000

    @property
    def per_second(self) -> float:
        """Solves per second: the hands solved over the time spent solving them."""
        return len(self.seconds) / sum(self.seconds)

    def line(self) -> str:
        rate = self.per_second
        shown = f"{rate:,.0f}" if rate >= 100 else f"{rate:.3g}"
        return (
            f"{self.house}: double-dummy solver from the first lead: median"
            f" {self.median_ms:,.3f} ms a hand (90% within {self.p90_ms:,.3f} ms),"
            f" {shown} solves/s over {len(self.seconds):,} hands; engine: {self.engine}"
        )


def time_solver(
    house: House,
    seconds: float,
    engine: str = "auto",
    *,
    most: int = 100_000,
    tick: Callable[[], None] | None = None,
) -> SolverTimes:
    """Solve hands of ``house`` from the first lead, seed after seed, until about
    ``seconds`` were spent solving (at least one hand, at most ``most``).  ``engine`` as
    :func:`bourre.solve`'s; a forced ``"kernel"`` on a house it cannot solve is a
    ``ValueError`` saying why."""
    game = Game(house)
    probe = first_lead(game, 0)
    why = why_not(probe)
    used = "kernel" if engine != "python" and why is None else "python"
    if engine == "kernel" and why is not None:
        raise ValueError(f"the kernel's solver cannot solve {house.spec!r}: {why}")
    out = SolverTimes(house.spec, used)
    seed = 0
    while (not out.seconds or sum(out.seconds) < seconds) and len(out.seconds) < most:
        state = probe if seed == 0 else first_lead(game, seed)
        start = time.perf_counter()
        solution = solve(state, engine=used)
        out.seconds.append(time.perf_counter() - start)
        out.positions.append(solution.positions)
        seed += 1
        if tick is not None:
            tick()
    return out
