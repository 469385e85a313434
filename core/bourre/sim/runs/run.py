"""A run of ``bourre compare``: what it plays (:class:`RunConfig`, whose header opens
the state file), what it gives back (:class:`RunResult`: the summaries by house and
session, or with a state file only which sessions completed (:class:`Done`) and the
summaries read back from the file as a stream, and why it stopped early if it did)
and the progress callback (:data:`Progress`)."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bourre.sim.runs.sessions import BotSpec

__all__ = ["MAX_SESSIONS", "STATE_FORMAT", "Done", "Progress", "RunConfig", "RunResult"]

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


class Done:
    """The session indices of one house that completed: a bitmap (one bit a session,
    whatever their number), counted as they are added."""

    __slots__ = ("bits", "count")

    def __init__(self, indices: Iterable[int] = ()) -> None:
        self.bits = bytearray()
        self.count = 0
        for i in indices:
            self.add(i)

    def add(self, i: int) -> bool:
        """Mark session ``i``; false if it already was."""
        byte, bit = divmod(i, 8)
        if byte >= len(self.bits):
            self.bits.extend(bytes(max(byte + 1 - len(self.bits), len(self.bits))))
        if self.bits[byte] >> bit & 1:
            return False
        self.bits[byte] |= 1 << bit
        self.count += 1
        return True

    def __contains__(self, i: object) -> bool:
        if not isinstance(i, int) or i < 0:
            return False
        byte, bit = divmod(i, 8)
        return byte < len(self.bits) and bool(self.bits[byte] >> bit & 1)

    def __len__(self) -> int:
        return self.count

    def __iter__(self) -> Iterator[int]:
        for byte, b in enumerate(self.bits):
            if b:
                for bit in range(8):
                    if b >> bit & 1:
                        yield byte * 8 + bit


@dataclass
class RunResult:
    """The summaries of a run, by house then session index: in memory (``summaries``),
    or, for a run with a state file, only which sessions completed (``done``), their
    summaries being read back from ``state`` as a stream (:meth:`entries`): the memory
    of a run does not grow with its sessions."""

    config: RunConfig
    summaries: dict[str, dict[int, dict[str, Any]]]
    complete: bool = True
    stopped: str | None = None
    """Why the run stopped early: ``"interrupted"`` or ``"worker failed: …"``."""
    wall_seconds: float = 0.0
    state: Path | None = None
    done: dict[str, Done] | None = None
    """The sessions completed by house when the summaries are in ``state`` only."""

    def completed(self) -> int:
        return sum(self.count(h) for h in self.config.houses)

    def count(self, house: str) -> int:
        """The sessions of ``house`` that completed."""
        if self.done is not None:
            d = self.done.get(house)
            return len(d) if d is not None else 0
        return len(self.summaries.get(house, {}))

    def entries(self, only: Iterable[str] | None = None) -> Iterator[tuple[str, dict[str, Any]]]:
        """Every completed session of the run's houses (or of the houses ``only``) as
        ``(house, summary)``, each once: in memory interleaved by session index, from
        the state file in its order (a few tasks out of order: sessions of every
        house are written together).  Statistics folded from it do not depend on
        the order."""
        wanted = list(self.config.houses if only is None else only)
        if self.done is None:
            houses = [h for h in wanted if h in self.summaries]
            idx = sorted({i for h in houses for i in self.summaries[h]})
            for i in idx:
                for h in houses:
                    s = self.summaries[h].get(i)
                    if s is not None:
                        yield h, s
            return
        assert self.state is not None
        n = self.config.sessions
        seen = {h: Done() for h in wanted if h in self.done}
        # the lines of those houses, told by their start without reading the rest
        starts = tuple(b'{"house": ' + json.dumps(h).encode() + b", " for h in seen)
        with self.state.open("rb") as f:
            for line in f:
                if not line.startswith(starts):
                    continue
                try:
                    entry = json.loads(line)
                except ValueError:  # a torn last line
                    continue
                h, s = entry["house"], entry["summary"]
                mine = seen.get(h)
                if mine is None or not 0 <= s["i"] < n or s["i"] not in self.done[h]:
                    continue
                if mine.add(s["i"]):
                    yield h, s

    def ordered(self, house: str) -> list[dict[str, Any]]:
        """The summaries of one house in session order (all in memory: the
        statistics stream :meth:`entries` instead)."""
        if self.done is not None:
            got = {s["i"]: s for _, s in self.entries([house])}
            return [got[i] for i in sorted(got)]
        d = self.summaries.get(house, {})
        return [d[i] for i in sorted(d)]


Progress = Callable[[int, int], None]
"""``progress(completed sessions, total sessions)``, called in the parent process."""
