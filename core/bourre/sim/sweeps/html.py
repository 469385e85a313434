"""``bourre sweep --report out.html``: the page of ``bourre compare``
(:mod:`bourre.sim.reports.html`) with a point for each house, the sweep's table and
its curves for the figures."""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import Any

from bourre.sim.reports.html import bots_line, entries, page, png
from bourre.sim.sweeps import points, table
from bourre.sim.sweeps.plots import caption, figure

__all__ = ["render_sweep_report", "write_sweep_report"]


def render_sweep_report(record: Any, metrics: dict[str, Any], houses: list[Any]) -> str:
    """The page of a sweep: ``record`` is its
    :class:`~bourre.sim.sweeps.points.SweepRecord`, ``metrics`` the
    :func:`~bourre.sim.stats.metrics.compute` of its run and ``houses`` the house of
    each point, in order."""
    figs = []
    if record.sessions_completed:
        for name in record.metrics:
            words = points.METRICS[name].text(record.down).capitalize()
            image = png(figure(record, name))
            figs.append(
                {"name": name, "title": words, "caption": caption(record, name), "png": image}
            )
    return page(
        heading=f"bourre sweep {record.sweep}",
        run=points.title(record),
        partial=points.coverage(record),
        unit="point",
        houses=entries([p.label for p in record.points], metrics, houses),
        table_heading="Point by point",
        columns=table.columns(record),
        sections=table.sections(record, metrics),
        notes=table.notes(record),
        speed="",
        figures=figs,
        command=shlex.join(record.command),
        seed=record.seed,
        bots=bots_line(record.bots, record.rotate),
        sessions=f"{record.sessions_planned} per point",
    )


def write_sweep_report(
    path: Path | str, record: Any, metrics: dict[str, Any], houses: list[Any]
) -> None:
    """Write the page of a sweep to ``path`` (UTF-8)."""
    Path(path).write_text(render_sweep_report(record, metrics, houses), encoding="utf-8")
