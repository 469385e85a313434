"""The figures of a sweep, point by point: which metrics it can show (``--metric``),
the typed record of each point (``--json``) and the summary table.

A point's numbers are compare's (:func:`bourre.compare.metrics.house_metrics` of its
sessions): the same house and seed give the same figures under ``bourre compare``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from bourre.compare.braces import Sweep

__all__ = [
    "DEFAULT_METRICS",
    "METRICS",
    "AxisRecord",
    "Interval",
    "Metric",
    "PointRecord",
    "SweepRecord",
    "coverage",
    "point_records",
    "render",
]


@dataclass(frozen=True)
class Metric:
    """A figure a sweep can follow: its key in compare's statistics, its words (in
    full, and short for a figure's axis) and its unit (``chips``, or ``%`` for a
    share)."""

    key: str
    words: str
    short: str
    unit: Literal["chips", "%"]

    def text(self, down: float) -> str:
        return self.words.format(down=f"{down:g}")

    def header(self, down: float) -> str:
        """A column heading: the words and the unit."""
        return self.text(down) + (" (chips)" if self.unit == "chips" else " (%)")


METRICS: dict[str, Metric] = {
    "pot": Metric("pot_mean", "pot at stake, on average", "pot at stake", "chips"),
    "pot-median": Metric("pot_median", "pot at stake, middle value", "pot at stake", "chips"),
    "bourre": Metric("bourre", "players in play who are bourré", "bourré", "%"),
    "bourre-hands": Metric("bourre_hands", "hands with a bourré", "hands with a bourré", "%"),
    "down": Metric(
        "below", "players ending a session over {down} chips down", "over {down} chips down", "%"
    ),
    "spread": Metric("spread", "spread of the final balances (std)", "spread", "chips"),
    "playing": Metric("playing", "decisions to play", "decisions to play", "%"),
    "unopposed": Metric("sole", "hands won unopposed", "won unopposed", "%"),
    "carried": Metric("carried", "pots carried by a tie", "pots carried", "%"),
    "cinch": Metric("cinch", "cards played under a cinch", "plays under a cinch", "%"),
    "dealer": Metric("dealer", "the dealer's gain per hand", "dealer's gain per hand", "chips"),
}
"""The metrics of ``--metric``, by the name given on the command line."""

DEFAULT_METRICS = ("pot", "bourre", "down")


class Interval(BaseModel):
    """A figure with its 95% interval (``lo``/``hi`` are ``null`` below 2 sessions);
    shares are between 0 and 1."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    mean: float | None
    lo: float | None = None
    hi: float | None = None
    n: int = 0


class AxisRecord(BaseModel):
    """One brace list of the sweep."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    label: str
    owner: str
    key: str
    values: list[str]
    numeric: bool
    unit: str | None
    """``chips`` for an amount setting (a limit, the ante), else ``null``."""


class PointRecord(BaseModel):
    """One point: its house, its value on each axis and every metric."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    label: str
    house: str
    """The canonical house string (as ``bourre compare`` names it)."""
    given: str
    """The house string as the sweep wrote it."""
    values: list[str]
    sessions: int
    hands: int
    below: float
    """The final balance under which a player counts as ``down``."""
    metrics: dict[str, Interval]


class SweepRecord(BaseModel):
    """``bourre sweep --json``: the run and its points."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    format: Literal["bourre-sweep"] = "bourre-sweep"
    version: Literal[1] = 1
    sweep: str
    command: list[str]
    bourre_version: str
    complete: bool
    stopped: str | None
    sessions_planned: int
    sessions_completed: int
    seed: str
    bots: list[str]
    rotate: bool
    isolate: bool
    down: float
    metrics: list[str]
    """The metrics shown (``--metric``); every point has them all."""
    axes: list[AxisRecord]
    points: list[PointRecord]
    wall_seconds: float


def _interval(iv: Any) -> Interval:
    if isinstance(iv, dict):
        return Interval(**{k: iv.get(k) for k in ("mean", "lo", "hi")}, n=iv.get("n") or 0)
    return Interval(mean=None)


def point_records(
    sweep: Sweep, specs: list[str], result: Any, belows: list[float]
) -> list[PointRecord]:
    """The record of each point from a run of the houses ``specs`` (one per point)."""
    from bourre.compare.metrics import house_metrics

    out = []
    for point, spec, below in zip(sweep.points, specs, belows, strict=True):
        m = house_metrics(result.ordered(spec), below)
        out.append(
            PointRecord(
                label=sweep.label(point),
                house=spec,
                given=point.house,
                values=list(point.values),
                sessions=m["sessions"],
                hands=m.get("hands", 0),
                below=below,
                metrics={name: _interval(m.get(x.key)) for name, x in METRICS.items()},
            )
        )
    return out


def fmt(x: float | None, unit: str, signed: bool = False) -> str:
    """A figure as the summary and the figures print it."""
    if x is None or not math.isfinite(x):
        return "–"
    if unit == "%":
        return f"{100 * x:{'+' if signed else ''}.1f}%"
    return f"{x:{'+' if signed else ''},.2f}"


def cell(iv: Interval, unit: str) -> str:
    """``8.31 ±0.12`` or ``21.4% ±0.6%``."""
    s = fmt(iv.mean, unit)
    if iv.mean is not None and iv.lo is not None and iv.hi is not None:
        s += f" ±{fmt((iv.hi - iv.lo) / 2, unit)}"
    return s


def title(record: SweepRecord) -> str:
    bots = ",".join(record.bots)
    rot = ", seats rotated" if record.rotate else ""
    return f"{record.sessions_completed} sessions per point, seed {record.seed!r}, bots {bots}{rot}"


def coverage(record: SweepRecord) -> str | None:
    """The partial-run notice, or ``None`` for a complete run."""
    if record.complete:
        return None
    done = sum(p.sessions for p in record.points)
    per = ", ".join(f"{p.label}: {p.sessions}" for p in record.points)
    planned = record.sessions_planned * len(record.points)
    return f"PARTIAL ({record.stopped}): covers {done} of {planned} sessions ({per})"


def render(record: SweepRecord, console: Any) -> None:
    """The summary: one row per point, one column per metric, each with its interval."""
    from rich.table import Table

    note = coverage(record)
    if note:
        console.print(f"[bold red]{note}[/bold red]")
    t = Table(
        title=f"bourre sweep {record.sweep}: {title(record)}",
        caption="± : each figure is very likely (95%) within this of its true value",
    )
    t.add_column("point", style="bold", overflow="fold")
    for name in record.metrics:
        t.add_column(METRICS[name].header(record.down), justify="right", overflow="fold")
    for p in record.points:
        t.add_row(p.label, *[cell(p.metrics[n], METRICS[n].unit) for n in record.metrics])
    console.print(t)
