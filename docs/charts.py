"""Regenerate the strategy charts shown in ``docs/advice.md`` (issue 44).

    PYTHONPATH=core:variants python docs/charts.py

- every ``$ bourre chart …`` console block of the page that a built-in house draws on the
  kernel (not ``--equilibrium``, whose blocks carry the exploitability measured when they
  were made, nor a third-party house), run again as written (a block shortened with ``…``
  keeps its length: its first lines, ``…`` and its last line);
- the table between ``<!-- side-by-side -->`` and ``<!-- /side-by-side -->``: the chart
  against heuristic opponents and the equilibrium chart, of ``standard`` and of
  ``double-ante``, side by side, a row a kind of hand and a place.

The equilibrium charts come from the cache ``bourre advise --opponents equilibrium`` keeps
(:func:`bourre.advice.equilibrium.cached_equilibrium`: the same rounds, deals and seed as
``bourre chart HOUSE --equilibrium``), worked out once if missing (about a minute each).
"""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
from pathlib import Path

from bourre.advice.chart import Cell, Chart, chart
from bourre.advice.equilibrium import RARE, EquilibriumChart, cached_equilibrium
from bourre.houses.house import House

PAGE = Path(__file__).parent / "advice.md"
HOUSES = ("standard", "double-ante")
BEGIN, END = "<!-- side-by-side -->", "<!-- /side-by-side -->"
WIDTH = "110"
"""The terminal's width the console blocks are drawn at."""


def _heuristic(cell: Cell) -> str:
    """A cell of the chart against heuristic opponents: ``play +1.1``, ``must play``, ``—``."""
    if cell.answer == "none":
        return "—"
    if cell.gain is None:
        return cell.answer
    return f"{cell.answer} {cell.gain.mean:+.1f}".replace("-", "−").replace("+0.0", "0.0")


def _equilibrium(eq: EquilibriumChart, row: int, place: int) -> str:
    """The equilibrium chart's answers at ``place`` with 0, 1, … seats already in,
    ``/``-separated (``?`` a guess, met rarely; ``·`` never met: no choice there)."""
    c = eq.strategy.classes[row]
    if not c.possible(eq.size, place == eq.players):
        return "—"
    out = []
    for k in range(place):
        met = eq.met(row, place, k)
        if not met:
            out.append("·")
            continue
        word = eq.decision(row, place, k).replace("play ", "")
        out.append(word + ("?" if met < RARE else ""))
    return " / ".join(out)


def side_by_side(charts: dict[str, Chart], eqs: dict[str, EquilibriumChart]) -> list[str]:
    """The Markdown table: a row a kind of hand and a place, the four answers across."""
    first = charts[HOUSES[0]]
    n = first.players
    head = ["your hand", "place"]
    for h in HOUSES:
        head += [f"`{h}`: against heuristic opponents", f"`{h}`: at the equilibrium"]
    out = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for r, cls in enumerate(first.classes):
        for p in range(1, n + 1):
            name = "dealer" if p == n else str(p)
            cells = [cls.label if p == 1 else "", name]
            for h in HOUSES:
                cells.append(_heuristic(charts[h].cells[r][p - 1]))
                cells.append(_equilibrium(eqs[h], r, p))
            out.append("| " + " | ".join(cells) + " |")
    return out


def _run(command: str) -> list[str]:
    args = shlex.split(command)[1:]
    env = {**os.environ, "COLUMNS": WIDTH, "NO_COLOR": "1", "TERM": "dumb"}
    got = subprocess.run(
        [sys.executable, "-m", "bourre.cli", *args],
        capture_output=True,
        text=True,
        env=env,
        check=True,
    )
    return got.stdout.rstrip("\n").split("\n")


def console_blocks(lines: list[str]) -> list[str]:
    """The page's ``$ bourre chart`` blocks of built-in houses, run again."""
    out: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        out.append(line)
        i += 1
        if not line.startswith("$ bourre chart ") or "--equilibrium" in line or "+" in line:
            continue
        old = []
        while i < len(lines) and lines[i] != "```" and not lines[i].startswith("$ "):
            old.append(lines[i])
            i += 1
        new = _run(line[2:])
        if "…" in old:  # shortened: as many first lines, then the last
            head = old.index("…")
            new = [*new[:head], "…", new[-1]]
        out += new
        print(f"ran: {line[2:]}", file=sys.stderr)
    return out


def main() -> int:
    lines = PAGE.read_text(encoding="utf-8").split("\n")
    lines = console_blocks(lines)
    charts = {h: chart(h) for h in HOUSES}
    eqs = {
        h: cached_equilibrium(House.from_arg(h), lambda s: print(s, file=sys.stderr))
        for h in HOUSES
    }
    try:
        a, b = lines.index(BEGIN), lines.index(END)
    except ValueError:
        print(f"{PAGE}: no {BEGIN} … {END} markers", file=sys.stderr)
        return 2
    lines[a + 1 : b] = side_by_side(charts, eqs)
    PAGE.write_text("\n".join(lines), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
