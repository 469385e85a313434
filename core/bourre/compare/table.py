"""The terminal report of ``bourre compare`` and ``bourre simulate``: the run in one
line, the plain-words summary of each house (:func:`~bourre.compare.summary.summary_lines`),
then a table grouped by the players' questions, in chips and per cents, with one
mark for a difference from the first house that luck does not explain, and the
speed on a line of its own.

The table fits the console: when the houses do not fit side by side it is printed
in blocks of houses, each with the row names, and a house name is broken only at
``+``, ``(`` or ``,``.  :func:`sections` and :func:`notes` give the same rows and
footnotes as plain text (the HTML report uses them)."""

from __future__ import annotations

import re
from typing import Any

from bourre.compare import fmt
from bourre.compare.report import coverage, house_label, title
from bourre.compare.summary import summary_lines

__all__ = [
    "MARK",
    "PLUS_MINUS",
    "cell",
    "column_widths",
    "header_lines",
    "mark_note",
    "mark_of",
    "notes",
    "paragraph",
    "print_table",
    "render",
    "sections",
    "speed_line",
]

MARK = "*"
"""The one significance mark: differs from the first house on the same deals."""
PLUS_MINUS = "±: the range where the true figure lies 19 times in 20; more sessions narrow it."
"""What every ± means (the notes of the table, of ``bourre sweep`` and of the report)."""

Row = tuple[str, list[str]]
Section = tuple[str, list[Row]]

_POSITIONS = {0: "dealer (decides last)", 1: "1st (dealer's left)"}


def _ordinal(k: int) -> str:
    return f"{k}{'th' if 10 <= k % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(k % 10, 'th')}"


def position_label(p: int, players: int) -> str:
    """The place ``p`` hands from the dealer, in words."""
    if p in _POSITIONS:
        return _POSITIONS[p]
    if p == players - 1:
        return f"{_ordinal(p)} (dealer's right)"
    return f"{_ordinal(p)} to decide"


def mark_of(diff: dict[str, Any]) -> str:
    """The mark of a paired difference's interval: `` *`` when it excludes 0, else
    room for it (so numbers line up)."""
    lo, hi = diff.get("lo"), diff.get("hi")
    return f" {MARK}" if lo is not None and hi is not None and (lo > 0 or hi < 0) else "  "


def _mark(h: dict[str, Any], key: str) -> str:
    vs = h.get("vs_first")
    if not vs or key not in vs:
        return ""
    return mark_of(vs[key])


def cell(h: dict[str, Any], key: str, kind: str, sep: str = "\n") -> str:
    """One house's figure ``key`` as the table prints it: ``kind`` is ``chips`` or
    ``percent`` (with the mark of a difference from the first house), ``quantile``
    (its range after ``sep``) or ``max``."""
    iv = h.get(key)
    if kind == "quantile":
        return fmt.quantile(iv, sep=sep)
    if kind == "max":
        return fmt.chips(iv)
    return fmt.value(iv, kind) + _mark(h, key)


def _row(houses: list[dict[str, Any]], label: str, key: str, kind: str) -> Row:
    return label, [cell(h, key, kind) for h in houses]


def _never(houses: list[dict[str, Any]], key: str) -> bool:
    """A share that is zero in every house (the row says nothing)."""
    return all(isinstance(h.get(key), dict) and h[key].get("mean") == 0 for h in houses)


SHARES = [
    ("bourre_hands", "hands with a bourré"),
    ("bourre", "bourré when playing"),
    ("carried", "pots carried (a tie)"),
    ("playing", "players who play"),
    ("sole", "hands won unopposed"),
    ("cinch", "plays under a cinch"),
]
"""The rows of the "Bourré and ties" group: (metric, label)."""


def sections(metrics: dict[str, Any]) -> list[Section]:
    """The table as plain text: (group title, [(row label, cell per house)])."""
    houses = [h for h in metrics["houses"]]
    below = metrics.get("below")
    pots = [
        _row(houses, "half the hands, up to", "pot_median", "quantile"),
        _row(houses, "1 hand in 100 reaches", "pot_p99", "quantile"),
        _row(houses, "on average", "pot_mean", "chips"),
        _row(houses, "largest seen", "pot_max", "max"),
    ]
    shares = [_row(houses, label, k, "percent") for k, label in SHARES if not _never(houses, k)]
    hands = max((h.get("hands_per_session") or 0 for h in houses), default=0)
    session = [
        _row(houses, f"ending below {fmt.chips(below)} chips", "below", "percent"),
        _row(houses, "chips won or lost", "swing", "chips"),
    ]
    place = [_row(houses, "dealer's edge", "dealer_edge", "chips")]
    n = max((h.get("players", 0) for h in houses), default=0)
    for p in range(n):
        cells = []
        for h in houses:
            pos = h.get("position") or []
            cells.append(fmt.value(pos[p]) if p < len(pos) else fmt.DASH)
        place.append((position_label(p, n), cells))
    for label in sorted({b for h in houses for b in h.get("bots", {})}):
        place.append((f"bot {label}", [fmt.value(h.get("bots", {}).get(label)) for h in houses]))
    secs = [
        ("Pots, in chips", pots),
        ("Bourré and ties", shares),
        (f"A session of {hands} hands" if hands else "A session", session),
        ("Chips a hand, by place", place),
    ]
    from bourre.compare.skill import table_rows

    skill = table_rows(houses)  # --skill
    if skill:
        secs.append(("Does skill pay? Chips a hand won by one bot", skill))
    return _aligned(secs) if len(houses) > 1 else secs


def _aligned(secs: list[Section]) -> list[Section]:
    """Room for the mark in every cell after the first house, so numbers line up."""

    def pad(cell: str) -> str:
        return "\n".join(
            line if line.endswith((f" {MARK}", "  ")) else line + "  " for line in cell.split("\n")
        )

    return [
        (name, [(label, [cells[0], *map(pad, cells[1:])]) for label, cells in rows])
        for name, rows in secs
    ]


def notes(metrics: dict[str, Any]) -> list[str]:
    """The footnotes of the table, in plain words."""
    houses = metrics["houses"]
    out = ["Pots: the chips at stake when play begins.", PLUS_MINUS]
    if len(houses) > 1:
        out.append(mark_note(house_label(houses[0]["house"])))
    never = [label for k, label in SHARES if _never(houses, k)]
    if never:
        out.append(f"Not seen in these sessions: {', '.join(never)}.")
    out.append(
        "Chips a hand: what each place wins or loses in a hand, on average. The places"
        " lose together what stays in the pot, which is won later or shared out at the"
        " end; the deal rotates, so every player deals in turn."
    )
    return out


def mark_note(first: str) -> str:
    """What the mark means, against the first house (or point) ``first``."""
    return (
        f"{MARK}: differs from {first} on the same deals by more than luck explains"
        " (19 times in 20)."
    )


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
    from rich import box
    from rich.table import Table
    from rich.text import Text

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
    import io

    from rich.console import Console

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


def render(metrics: dict[str, Any], console: Any) -> None:
    """Print the summary, the table and the speed."""
    from rich.text import Text

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


def paragraph(console: Any, text: str, indent: str = "", style: str = "") -> None:
    """A paragraph wrapped at words to the console, without trailing spaces."""
    import textwrap

    from rich.text import Text

    width = max(20, console.width)
    lines = textwrap.wrap(
        text, width, initial_indent=indent, subsequent_indent=indent, break_on_hyphens=False
    )
    for line in lines:
        console.print(Text(line, style=style), soft_wrap=True)
