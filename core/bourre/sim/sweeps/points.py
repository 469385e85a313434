"""The figures of a sweep, point by point: which metrics it can show (``--metric``)
and the typed record of each point (``--json``).

A point's numbers are compare's (:func:`bourre.sim.stats.metrics.compute` of the run of
the points' houses): the same houses and seed give the same figures, and the same
differences from the first, under ``bourre compare``.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from bourre.sim.sweeps.braces import Sweep
from bourre.sim.sweeps.metrics import DEFAULT_METRICS, METRICS, Metric

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
    "title",
]


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
    vs_first: dict[str, Interval] | None = None
    """The paired difference from the first point (this point minus the first, on
    the same deals) of each metric that has one; ``null`` for the first point."""


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


def point_records(sweep: Sweep, metrics: dict[str, Any]) -> list[PointRecord]:
    """The record of each point from :func:`bourre.sim.stats.metrics.compute` of the
    run of its houses (one per point, in order)."""
    below = metrics["below"]
    belows = below if isinstance(below, list) else [below] * len(sweep.points)
    out = []
    for point, h, b in zip(sweep.points, metrics["houses"], belows, strict=True):
        vs = h.get("vs_first")
        out.append(
            PointRecord(
                label=sweep.label(point),
                house=h["house"],
                given=point.house,
                values=list(point.values),
                sessions=h["sessions"],
                hands=h.get("hands", 0),
                below=b,
                metrics={name: _interval(h.get(x.key)) for name, x in METRICS.items()},
                vs_first=None
                if vs is None
                else {name: _interval(vs[x.key]) for name, x in METRICS.items() if x.key in vs},
            )
        )
    return out


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
