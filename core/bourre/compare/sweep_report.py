"""``bourre sweep --report out.html``: one self-contained HTML page (no file or
network beside it: the figures are inline PNG) with the run (the exact command, seed,
bots, version), the summary per point and one figure per metric.

:func:`page` builds a page from generic parts (facts, tables, figures), every text
escaped; :func:`sweep_page` fills it from a sweep.  ``bourre compare --report`` may
share :func:`page`.
"""

from __future__ import annotations

import base64
import html
import io
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bourre.compare.sweep_points import METRICS, SweepRecord, cell, coverage, title

__all__ = ["Figure", "Table", "page", "sweep_page", "write_report"]

_STYLE = """
body{font-family:system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;
color:#222;line-height:1.4}
h1{font-size:1.5rem}h2{font-size:1.15rem;margin-top:2rem}
table{border-collapse:collapse;margin:.5rem 0}
th,td{border:1px solid #ccc;padding:.25rem .6rem;text-align:right}
th.t,td.t{text-align:left}td{white-space:nowrap}td.t{white-space:normal}.wide{overflow-x:auto}
dl{display:grid;grid-template-columns:max-content 1fr;gap:.2rem 1rem}
dt{font-weight:bold}dd{margin:0}
code{font-family:ui-monospace,monospace;overflow-wrap:anywhere}td code{white-space:nowrap}
img{max-width:100%;height:auto}.warn{color:#a00;font-weight:bold}
figcaption,.note{color:#555;font-size:.9rem}
"""


@dataclass(frozen=True)
class Table:
    """A table: a heading, the column names, the rows (plain text, escaped here)."""

    heading: str
    columns: Sequence[str]
    rows: Sequence[Sequence[str]]
    note: str = ""
    text: int = 1
    """The first ``text`` columns are words (left-aligned); the others are figures."""
    code: Sequence[int] = ()
    """Columns of house strings and the like: monospaced, never wrapped."""


@dataclass(frozen=True)
class Figure:
    """A figure: a heading, the PNG bytes and the words that describe it."""

    heading: str
    png: bytes
    alt: str


@dataclass
class Page:
    title: str
    facts: list[tuple[str, str]] = field(default_factory=list)
    warning: str | None = None
    parts: list[Table | Figure] = field(default_factory=list)


def page(p: Page) -> str:
    """The HTML text of ``p``, self-contained."""
    e = html.escape
    out = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{e(p.title)}</title><style>{_STYLE}</style></head><body>",
        f"<h1>{e(p.title)}</h1>",
    ]
    if p.warning:
        out.append(f'<p class="warn">{e(p.warning)}</p>')
    if p.facts:
        out.append("<dl>")
        out += [f"<dt>{e(k)}</dt><dd><code>{e(v)}</code></dd>" for k, v in p.facts]
        out.append("</dl>")
    for part in p.parts:
        out.append(f"<h2>{e(part.heading)}</h2>")
        if isinstance(part, Table):
            left = ' class="t"'
            out.append('<div class="wide"><table><thead><tr>')
            out += [
                f"<th{left if k < part.text else ''}>{e(c)}</th>"
                for k, c in enumerate(part.columns)
            ]
            out.append("</tr></thead><tbody>")
            for row in part.rows:
                cells = (
                    f"<td{left if k < part.text else ''}>"
                    + (f"<code>{e(c)}</code>" if k in part.code else e(c))
                    + "</td>"
                    for k, c in enumerate(row)
                )
                out.append("<tr>" + "".join(cells) + "</tr>")
            out.append("</tbody></table></div>")
            if part.note:
                out.append(f'<p class="note">{e(part.note)}</p>')
        else:
            data = base64.b64encode(part.png).decode("ascii")
            out.append(
                f'<figure><img src="data:image/png;base64,{data}" alt="{e(part.alt)}">'
                f"<figcaption>{e(part.alt)}</figcaption></figure>"
            )
    out.append("</body></html>")
    return "\n".join(out) + "\n"


def _png(fig: Any) -> bytes:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=100)
    return buf.getvalue()


def sweep_page(record: SweepRecord) -> str:
    """The report of a sweep: the run, the summary per point, every metric's figure."""
    from bourre.compare.sweep_plots import figure

    p = Page(f"bourre sweep {record.sweep}", warning=coverage(record))
    p.facts = [
        ("command", " ".join(_quote(a) for a in record.command)),
        ("sessions", f"{record.sessions_completed} per point (planned {record.sessions_planned})"),
        ("seed", record.seed),
        ("bots", ",".join(record.bots) + (" (seats rotated)" if record.rotate else "")),
        ("bourre", record.bourre_version),
    ]
    names = list(record.metrics)
    p.parts.append(
        Table(
            "Summary per point",
            ["point", "house", *(METRICS[n].header(record.down) for n in names)],
            [
                [pt.label, pt.house, *(cell(pt.metrics[n], METRICS[n].unit) for n in names)]
                for pt in record.points
            ],
            note="± : each figure is very likely (95%) within this of its true value."
            " Every point played the same decks (the same seed).",
            text=2,
            code=(1,),
        )
    )
    for n in names:
        words = METRICS[n].text(record.down)
        alt = f"{words} for each point of {record.sweep}, with its 95% band; {title(record)}"
        p.parts.append(Figure(words.capitalize(), _png(figure(record, n)), alt))
    others = [n for n in METRICS if n not in names]
    if others:
        p.parts.append(
            Table(
                "Other figures per point",
                ["", *(pt.label for pt in record.points)],
                [
                    [
                        METRICS[n].header(record.down),
                        *(cell(pt.metrics[n], METRICS[n].unit) for pt in record.points),
                    ]
                    for n in others
                ],
            )
        )
    return page(p)


def _quote(arg: str) -> str:
    import shlex

    return shlex.quote(arg)


def write_report(record: SweepRecord, path: Path | str) -> None:
    Path(path).write_text(sweep_page(record), encoding="utf-8")
