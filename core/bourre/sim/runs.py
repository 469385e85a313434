"""A run of ``bourre compare``: what it plays (:class:`RunConfig`, whose header opens
the state file), what it gives back (:class:`RunResult`: the summaries by house and
session, and why it stopped early if it did) and the progress callback
(:data:`Progress`)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bourre.sim.sessions import BotSpec

__all__ = ["MAX_SESSIONS", "STATE_FORMAT", "Progress", "RunConfig", "RunResult"]

MAX_SESSIONS = 10**9
"""The most sessions a run plays per house (or per sweep point)."""

STATE_FORMAT = "bourre-compare-state"
"""The ``format`` of a state file's header."""


@dataclass
class RunConfig:
    """What a run plays: houses (canonical strings), sessions per house, the seed,
    the bots (one for every seat, or one per seat) and whether seats rotate."""

    houses: list[str]
    sessions: int
    seed: str = "0"
    bots: list[BotSpec] = field(default_factory=lambda: [BotSpec("heuristic")])
    rotate: bool = False
    isolate: bool = False
    """Every bot in its own process (``--isolate``): its random numbers are its own
    (drawn from the operating system, never from the seed), so a resume must keep the
    choice."""

    def header(self) -> dict[str, Any]:
        return {
            "format": STATE_FORMAT,
            "version": 1,
            "houses": list(self.houses),
            "sessions": self.sessions,
            "seed": self.seed,
            "bots": [b.label for b in self.bots],
            "rotate": self.rotate,
            **({"isolate": True} if self.isolate else {}),
        }


@dataclass
class RunResult:
    """The summaries of a run, by house then session index."""

    config: RunConfig
    summaries: dict[str, dict[int, dict[str, Any]]]
    complete: bool = True
    stopped: str | None = None
    """Why the run stopped early: ``"interrupted"`` or ``"worker failed: …"``."""
    wall_seconds: float = 0.0
    state: Path | None = None

    def completed(self) -> int:
        return sum(len(v) for v in self.summaries.values())

    def ordered(self, house: str) -> list[dict[str, Any]]:
        """The summaries of one house in session order."""
        d = self.summaries.get(house, {})
        return [d[i] for i in sorted(d)]


Progress = Callable[[int, int], None]
"""``progress(completed sessions, total sessions)``, called in the parent process."""
