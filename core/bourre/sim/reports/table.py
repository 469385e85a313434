"""The terminal report of ``bourre compare`` and ``bourre simulate``: the run in one
line, the plain-words summary of each house (:func:`~bourre.sim.reports.summary.summary_lines`),
then a table grouped by the players' questions, in chips and per cents, with one
mark for a difference from the first house that luck does not explain, and the
speed on a line of its own.

The table fits the console: when the houses do not fit side by side it is printed
in blocks of houses, each with the row names, and a house name is broken only at
``+``, ``(`` or ``,``.  :func:`sections` and :func:`notes` give the same rows and
footnotes as plain text (the HTML report uses them).

The pieces live in their own modules and are re-exported here: one figure and its
mark (:mod:`bourre.sim.reports.cells`), the rows and footnotes
(:mod:`bourre.sim.reports.table_rows`) and the printing to the console
(:mod:`bourre.sim.reports.console_table`)."""

from __future__ import annotations

from typing import Any

from rich.text import Text

from bourre.sim.reports import fmt
from bourre.sim.reports.cells import (
    MARK,
    PLUS_MINUS,
    cell,
    mark_note,
    mark_of,
    position_label,
    row,
)
from bourre.sim.reports.console_table import (
    Row,
    Section,
    column_widths,
    header_lines,
    paragraph,
    print_table,
)
from bourre.sim.reports.labels import coverage, house_label, title
from bourre.sim.reports.summary import summary_lines
from bourre.sim.reports.table_rows import SHARES, notes, sections

__all__ = [
    "MARK",
    "PLUS_MINUS",
    "SHARES",
    "Row",
    "Section",
    "cell",
    "column_widths",
    "header_lines",
    "mark_note",
    "mark_of",
    "notes",
    "paragraph",
    "position_label",
    "print_table",
    "render",
    "row",
    "sections",
    "speed_line",
]


def render(metrics: dict[str, Any], console: Any) -> None:
    """Print the summary, the table and the speed."""
    houses = metrics["houses"]
    note = coverage(metrics)
    if note:
        console.print(Text(note, style="bold red"))
    what = "simulate" if len(houses) == 1 else "compare"
    paragraph(console, f"bourre {what}: {title(metrics)}", style="bold")
    for h in houses:
        console.print()
        console.print(Text(house_label(h["house"]), style="bold"))
        for line in summary_lines(h):
            paragraph(console, line, "  ")
    console.print()
    secs = sections(metrics)
    names = [house_label(h["house"]) for h in houses]
    widths = column_widths(secs, len(names))
    headers = ["\n".join(header_lines(n, max(10, w))) for n, w in zip(names, widths, strict=True)]
    print_table(console, secs, headers)
    for line in notes(metrics):
        paragraph(console, line, "", "dim")
    speed = speed_line(metrics, each=True)
    if speed:
        paragraph(console, speed)


def speed_line(metrics: dict[str, Any], each: bool) -> str | None:
    """The speed of the run (not a figure of the game: a line of its own), per house
    (``each``) or over all of them."""
    hps = metrics.get("timing", {}).get("hands_per_second", {})
    got = [(h["house"], v) for h in metrics["houses"] if (v := hps.get(h["house"])) is not None]
    if not got:
        return None
    if not each:
        mean = sum(v for _, v in got) / len(got)
        return f"Speed: {fmt.chips(round(mean))} hands per second per core, over the points."
    speeds = ", ".join(f"{house_label(spec)} {fmt.chips(round(v))}" for spec, v in got)
    return f"Speed (hands per second, per core): {speeds}"
