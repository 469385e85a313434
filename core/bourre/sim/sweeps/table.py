"""What ``bourre sweep`` prints, in ``bourre compare``'s words: the run in one line,
the plain-words summary of each point (:func:`~bourre.sim.reports.summary.summary_lines`,
as compare prints it for a house), then one row per point with the chosen metrics
(``--metric``), each cell as compare's table writes it
(:func:`~bourre.sim.reports.table.cell`: chips and per cents with their ±, the mark of a
difference from the first point), fitted to the console as compare's table is
(:func:`~bourre.sim.reports.table.print_table`), and compare's notes on ± and the mark.

:func:`columns`, :func:`sections` and :func:`notes` give the same table as plain
text (the HTML report uses them)."""

from __future__ import annotations

import textwrap
from typing import Any

from rich.text import Text

from bourre.sim.reports import table
from bourre.sim.reports.summary import summary_lines
from bourre.sim.sweeps.points import METRICS, SweepRecord, coverage, title

__all__ = ["columns", "notes", "render", "sections"]

_SLOT = (f" {table.MARK}", "  ")
"""How a cell with room for the mark ends."""


def columns(record: SweepRecord) -> list[str]:
    """The heading of each column: one per metric shown."""
    return [METRICS[n].header(record.down) for n in record.metrics]


def _wrap(text: str, width: int) -> str:
    return "\n".join(textwrap.wrap(text, width, break_long_words=False, break_on_hyphens=False))


def sections(
    record: SweepRecord, metrics: dict[str, Any], label_width: int | None = None
) -> list[table.Section]:
    """One row per point (its label, wrapped at spaces to ``label_width`` if given),
    one cell per metric: the table as plain text."""
    cols = []
    for name in record.metrics:
        m = METRICS[name]
        cells = table.row(metrics["houses"], m.key, m.kind, sep=" ")
        if any(c.endswith(_SLOT) for c in cells):  # the first point too: numbers line up
            cells = [c if c.endswith(_SLOT) else c + "  " for c in cells]
        cols.append(cells)
    rows = []
    for k, p in enumerate(record.points):
        label = p.label if label_width is None else _wrap(p.label, label_width) or p.label
        rows.append((label, [c[k] for c in cols]))
    return [("", rows)]


def notes(record: SweepRecord) -> list[str]:
    """The notes under the table, in compare's words."""
    out = [table.PLUS_MINUS]
    if len(record.points) > 1:
        out.append(table.mark_note(record.points[0].label))
    return out


def render(record: SweepRecord, metrics: dict[str, Any], console: Any) -> None:
    """Print the summary of each point, the table and its notes."""
    note = coverage(record)
    if note:
        console.print(Text(note, style="bold red"))
    table.paragraph(console, f"bourre sweep {record.sweep}: {title(record)}", style="bold")
    for p, h in zip(record.points, metrics["houses"], strict=True):
        console.print()
        table.paragraph(console, p.label, style="bold")
        for line in summary_lines(h):
            table.paragraph(console, line, "  ")
    console.print()
    secs = sections(record, metrics, label_width=max(12, console.width // 2))
    widths = table.column_widths(secs, len(record.metrics))
    heads = [_wrap(c, max(10, w)) for c, w in zip(columns(record), widths, strict=True)]
    table.print_table(console, secs, heads)
    for line in notes(record):
        table.paragraph(console, line, "", "dim")
    speed = table.speed_line(metrics, each=False)
    if speed:
        table.paragraph(console, speed)
