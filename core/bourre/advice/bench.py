"""What the double-dummy solver costs (``bourre bench --solver``, ``bench/solver.py``):
hands dealt from seeds 0, 1, … in which everyone plays and stands pat, each solved from
its first lead (R-LEAD) by :func:`bourre.advice.solve`; only the solve is timed, in
seconds of the clock and of CPU (this thread's), with the process's peak memory."""

from __future__ import annotations

import statistics
import sys
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
    cpu: tuple[float, ...] = ()
    """Each deal's CPU time in seconds (this thread's), in seed order."""
    memory: tuple[int, int] | None = None
    """The process's peak resident memory in bytes before the first solve and after the
    last (``None`` where the system does not say): the solver's tables show as the rise."""

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

    def cpu_ms(self, share: float) -> float:
        """The CPU time within which ``share`` of the solves stay (1.0: the slowest), in
        milliseconds: the solve at that rank, counted from the fastest (issue 44)."""
        ordered = sorted(self.cpu or self.times)
        return ordered[min(len(ordered) - 1, int(share * len(ordered)))] * 1000

    def yardstick_line(self, hands_per_second: float) -> str:
        """The CPU time a solve at 50, 90, 99 in 100 and the slowest counted in the hands
        the yardstick (``bourre bench --reference``) plays in that time, at its rate
        ``hands_per_second`` measured back to back with the solves: the machine's speed
        moves from minute to minute, so the CPU times are compared across minutes and
        machines as a ratio to the yardstick (issue 44)."""
        shares = ((0.5, "50 in 100 within"), (0.9, "90 within"), (0.99, "99 within"))
        counts = [
            f"{label} {self.cpu_ms(share) / 1000 * hands_per_second:,.0f}"
            for share, label in shares
        ]
        slowest = self.cpu_ms(1.0) / 1000 * hands_per_second
        return (
            f"{self.house}: CPU a solve in the yardstick's hands (at {hands_per_second:,.0f}"
            f" hands/s): {', '.join(counts)}, slowest {slowest:,.0f}"
        )

    def line(self) -> str:
        return (
            f"{self.house}: double-dummy solver from the first lead, engine {self.engine}:"
            f" {len(self.times)} deals, median {self.median_ms:.3f} ms, 9 in 10 within"
            f" {self.p90_ms:.3f} ms, slowest {self.slowest_ms:.3f} ms;"
            f" {self.per_second:,.1f} solves/s"
        )

    def slowest_deals(self, most: int = 3) -> list[tuple[int, float]]:
        """The ``most`` slowest deals by CPU time, slowest first: (seed, milliseconds), the
        seed as :func:`first_lead` deals it, so a slow deal can be solved again alone."""
        times = self.cpu or self.times
        order = sorted(range(len(times)), key=lambda seed: (-times[seed], seed))
        return [(seed, times[seed] * 1000) for seed in order[:most]]

    def cpu_line(self) -> str:
        """The CPU time a solve at 50, 90 and 99 in 100 and the slowest, the memory, and
        the slowest deals' seeds."""
        memory = "memory: not known here"
        if self.memory is not None:
            before, after = self.memory
            memory = (
                f"memory: peak {after / 2**20:,.0f} MB resident,"
                f" {max(0, after - before) / 2**20:,.0f} MB more than before the solves"
            )
        return (
            f"{self.house}: CPU a solve: 50 in 100 within {self.cpu_ms(0.5):,.3f} ms,"
            f" 90 within {self.cpu_ms(0.9):,.3f} ms, 99 within {self.cpu_ms(0.99):,.3f} ms,"
            f" slowest {self.cpu_ms(1.0):,.3f} ms; {memory}; the slowest deals: "
            + ", ".join(f"seed {seed} ({ms:,.1f} ms)" for seed, ms in self.slowest_deals())
        )


def peak_memory() -> int | None:
    """The process's peak resident memory in bytes so far (``None``: not known here)."""
    try:
        import resource  # lazy: Unix only (Windows has no such module)
    except ImportError:  # (Windows)
        return None
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return int(peak) if sys.platform == "darwin" else int(peak) * 1024


def solver_bench(
    house: House,
    seconds: float,
    *,
    engine: str = "auto",
    most: int = 10_000,
    deals: int | None = None,
) -> SolverMeasure:
    """Deals solved one after another from seed 0 until ``seconds`` of solving have
    passed (at least one deal, at most ``most``), or exactly ``deals`` deals (seeds 0 to
    ``deals`` - 1) whatever the time.  ``engine`` as for :func:`~bourre.advice.solve`
    (``"kernel"`` on a house it cannot play: ``ValueError`` saying why); the measure
    names the engine that solved the first deal."""
    times: list[float] = []
    cpu: list[float] = []
    used = engine
    before = peak_memory()

    def more() -> bool:
        if deals is not None:
            return len(times) < deals
        return len(times) < most and (not times or sum(times) < seconds)

    while more():
        state = first_lead(house, len(times))
        if not times and engine == "auto":
            used = "kernel" if kernel_solver.why_not(state) is None else "python"
        start, start_cpu = time.perf_counter(), time.thread_time()
        solve(state, engine=engine)
        cpu.append(time.thread_time() - start_cpu)
        times.append(time.perf_counter() - start)
    after = peak_memory()
    memory = None if before is None or after is None else (before, after)
    return SolverMeasure(house.spec, used, tuple(times), tuple(cpu), memory)
