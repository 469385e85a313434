"""Compare's table as plain text: its rows grouped by the players' questions, in
chips and per cents (:func:`sections`), and its footnotes (:func:`notes`); the
terminal and the HTML report print the same rows."""

from __future__ import annotations

from typing import Any

from bourre.sim.reports import fmt
from bourre.sim.reports.cells import MARK, PLUS_MINUS, mark_note, position_label, row
from bourre.sim.reports.console_table import Row, Section
from bourre.sim.reports.labels import house_label
from bourre.sim.reports.skill import table_rows

__all__ = ["SHARES", "notes", "sections"]


def _row(houses: list[dict[str, Any]], label: str, key: str, kind: str) -> Row:
    return label, row(houses, key, kind)


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
