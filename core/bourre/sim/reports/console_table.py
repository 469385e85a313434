"""Printing plain-text rows to a rich console: the table fitted to the console in
blocks of columns, each with the row names (:func:`print_table`), headers broken only
at ``+``, ``(`` or ``,`` (:func:`header_lines`), and paragraphs wrapped at words
(:func:`paragraph`)."""

from __future__ import annotations

import io
import re
import textwrap
from typing import Any

from rich import box
from rich.console import Console
from rich.table import Table
from rich.text import Text

__all__ = ["Row", "Section", "column_widths", "header_lines", "paragraph", "print_table"]

Row = tuple[str, list[str]]
Section = tuple[str, list[Row]]


def header_lines(label: str, width: int) -> list[str]:
    """A house name in lines of at most ``width``, broken only after ``+`` or
    ``,`` and before ``(`` (a piece longer than ``width`` stays whole)."""
    pieces = [p for p in re.split(r"(?<=[+,])|(?=\()", label) if p]
    lines: list[str] = []
    for p in pieces:
        if lines and len(lines[-1]) + len(p) <= width:
            lines[-1] += p
        else:
            lines.append(p)
    return lines or [""]


def _table(secs: list[Section], headers: list[str], cols: list[int]) -> Any:
    t = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False, padding=(0, 0, 0, 1))
    label_w = max(len(line) for _, rows in secs for label, _ in rows for line in label.split("\n"))
    label_w = max(label_w, *(len(name) for name, _ in secs))
    t.add_column("", no_wrap=True, min_width=label_w)
    cells_w = column_widths(secs, len(headers))
    width = {j: max(cells_w[j], *map(len, headers[j].split("\n"))) for j in cols}
    for j in cols:  # cells right-aligned here: rich would drop the room left for the mark
        t.add_column(Text(headers[j], justify="right"), justify="left", no_wrap=True)

    def aligned(cell: str, j: int) -> Text:
        return Text("\n".join(line.rjust(width[j]) for line in cell.split("\n")))

    for k, (name, rows) in enumerate(secs):
        if name:
            t.add_row(Text(name, style="bold"), *[""] * len(cols))
        for i, (label, cells) in enumerate(rows):
            last = i == len(rows) - 1 and k < len(secs) - 1
            t.add_row(Text(label), *[aligned(cells[j], j) for j in cols], end_section=last)
    return t


def column_widths(secs: list[Section], count: int) -> list[int]:
    """The widest line of each of the ``count`` columns' cells."""
    return [
        max(len(line) for _, rows in secs for _, cells in rows for line in cells[j].split("\n"))
        for j in range(count)
    ]


def _natural_width(table: Any) -> int:
    """The width of a table printed without any limit."""
    probe = Console(width=10_000, file=io.StringIO(), color_system=None, highlight=False)
    with probe.capture() as cap:
        probe.print(table)
    return max((len(line.rstrip()) for line in cap.get().splitlines()), default=0)


def print_table(console: Any, secs: list[Section], headers: list[str]) -> None:
    """Print the rows of ``secs`` under ``headers`` (one per column, its lines split
    by newlines) fitted to the console: the columns in blocks that fit side by side,
    each block with the row labels."""
    blocks: list[list[int]] = [[]]
    for j in range(len(headers)):
        trial = [*blocks[-1], j]
        if blocks[-1] and _natural_width(_table(secs, headers, trial)) > console.width:
            blocks.append([j])
        else:
            blocks[-1] = trial
    for cols in blocks:
        table = _table(secs, headers, cols)
        if console.is_terminal:
            console.print(table)
            continue
        with console.capture() as cap:  # piped: plain lines, no padding at their ends
            console.print(table)
        for line in cap.get().splitlines():
            console.out(line.rstrip(), highlight=False)


def paragraph(console: Any, text: str, indent: str = "", style: str = "") -> None:
    """A paragraph wrapped at words to the console, without trailing spaces."""
    width = max(20, console.width)
    lines = textwrap.wrap(
        text, width, initial_indent=indent, subsequent_indent=indent, break_on_hyphens=False
    )
    for line in lines:
        console.print(Text(line, style=style), soft_wrap=True)
