"""What the kit found: each failed check (:class:`Failure`), the run's
:class:`Report`, and the :class:`ConformanceError` a test sees.

A failure names the check, the house, the seed, the hand and the seat, with a table
script (``bourre replay`` form) reproducing it where one can be made.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from bourre.testing.seeds import SEED_VARIABLE

CHECKS = (
    "money",
    "cards",
    "legal set",
    "citations",
    "determinism",
    "conflicts",
    "replay",
    "check",
    "compare",
    "isolated bot",
    "build",
)
"""The names of the checks, as failures name them."""

HOOK_CHECK = {
    "bourre_ante": "money",
    "bourre_penalty": "money",
    "bourre_payout": "money",
    "bourre_settle": "money",
    "bourre_deal": "cards",
    "bourre_draw": "cards",
    "bourre_follow": "legal set",
    "bourre_cinch": "legal set",
}
"""The check a guard's refusal of a plugin's answer belongs to, by hook."""


@dataclass(frozen=True)
class Failure:
    """One check that failed: where, and a script that reproduces it."""

    check: str
    house: str
    message: str
    seed: str | None = None
    hand: int | None = None
    seat: int | None = None
    script: dict[str, Any] | None = None
    """A table script (``bourre replay`` form) reaching the failure, where one can be made."""

    def __str__(self) -> str:
        where = [f"house {self.house}"]
        if self.seed is not None:
            where.append(f"seed {self.seed!r}")
        if self.hand is not None:
            where.append(f"hand {self.hand}")
        if self.seat is not None:
            where.append(f"seat {self.seat}")
        return f"[{self.check}] {', '.join(where)}: {self.message}"


class ConformanceError(AssertionError):
    """The plugin failed the kit: every :class:`Failure`, the first one's script."""

    def __init__(self, plugin: str, failures: Sequence[Failure], seed: str | None = None) -> None:
        self.plugin = plugin
        self.failures = list(failures)
        self.seed = seed
        lines = [f"{plugin}: {len(self.failures)} conformance failure(s)"]
        if seed is not None:
            lines.append(
                f"  the run's seed is {seed!r}: to reproduce it, pass seed={seed!r}"
                f" or set {SEED_VARIABLE}={seed}"
            )
        lines += [f"  {f}" for f in self.failures[:20]]
        if len(self.failures) > 20:
            lines.append(f"  … and {len(self.failures) - 20} more")
        scripted = next((f for f in self.failures if f.script is not None), None)
        if scripted is not None:
            lines.append(
                f"A table script reproducing [{scripted.check}] (save it, then `bourre replay` it):"
            )
            lines.append(json.dumps(scripted.script, ensure_ascii=False))
        super().__init__("\n".join(lines))


@dataclass
class Report:
    """What the kit played and found."""

    plugin: str
    seed: str | None = None
    """The run's seed (:func:`~bourre.testing.seeds.run_seed`): give it back to play the same run."""
    houses: list[str] = field(default_factory=list)
    """The houses played (canonical strings)."""
    conflicts: list[str] = field(default_factory=list)
    """The built-in variants the plugin is refused with, each with the refusal."""
    sessions: int = 0
    steps: int = 0
    checked_positions: int = 0
    """Positions whose legal set ``bourre check`` answered too."""
    cited: set[str] = field(default_factory=set)
    """The rule ids cited by the reasons and refusals seen."""
    failures: list[Failure] = field(default_factory=list)

    def fail(self, failure: Failure) -> None:
        self.failures.append(failure)

    def raise_for_failures(self) -> Report:
        """Raise :class:`ConformanceError` if any check failed; else the report."""
        if self.failures:
            raise ConformanceError(self.plugin, self.failures, self.seed)
        return self
