"""``--report out.html``: one self-contained page (no network, no external file) with
the plain-words summary, the table, every figure as an inline PNG with its caption,
the rules of each house, and the command, seed, bots and version that reproduce it.
``bourre compare`` and ``simulate`` write it (:func:`render_report`); ``bourre sweep``
fills the same page with its points (:mod:`bourre.sim.sweeps.html`, through
:func:`page`, :func:`entries`, :func:`png` and :func:`bots_line`).

Jinja2 (the ``plot`` extra, with matplotlib) fills :file:`templates/report.html` with
autoescaping on: house strings, bot names and rule texts come from users and
plugins."""

from __future__ import annotations

import base64
import io
import platform
import shlex
import sys
from importlib.metadata import version
from pathlib import Path
from typing import Any

from bourre.houses.text import rules_sections
from bourre.sim.reports import table
from bourre.sim.reports.labels import coverage, house_label, title
from bourre.sim.reports.plots import figures
from bourre.sim.reports.summary import summary_lines

__all__ = [
    "bots_line",
    "entries",
    "page",
    "png",
    "render_report",
    "reproduce_command",
    "write_report",
]

DEFAULT_BELOW = 50.0


def reproduce_command(config: Any, below: float) -> str:
    """The command line that plays the same sessions (workers do not matter)."""
    what = "simulate" if len(config.houses) == 1 else "compare"
    args = ["bourre", what, *config.houses, "--sessions", str(config.sessions)]
    args += ["--seed", str(config.seed), "--bots", ",".join(b.label for b in config.bots)]
    if config.rotate:
        args.append("--rotate")
    if getattr(config, "isolate", False):
        args.append("--isolate")
    if below != DEFAULT_BELOW:
        args += ["--below", f"{below:g}"]
    return shlex.join(args)


def png(fig: Any) -> str:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=100)
    return base64.b64encode(buf.getvalue()).decode("ascii")


def _rules(houses: list[Any]) -> list[list[tuple[str, list[tuple[str, str, str, bool]]]]]:
    """Each house's rules by section, each rule flagged when the first house lacks it."""
    out = []
    first: set[tuple[str, str]] | None = None
    for h in houses:
        secs = rules_sections(h)
        mine = {(rid, text) for _, items in secs for rid, text, _ in items}
        base = first if first is not None else mine
        out.append(
            [(name, [(r, t, v, (r, t) not in base) for r, t, v in items]) for name, items in secs]
        )
        if first is None:
            first = mine
    return out


def page(**parts: Any) -> str:
    """The template filled with ``parts`` (escaped), and the versions."""
    # lazy: the optional 'plot' extra, loaded when a report is written
    import jinja2

    env = jinja2.Environment(
        loader=jinja2.PackageLoader("bourre.sim.reports", "templates"),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
    )
    return env.get_template("report.html").render(
        **parts,
        version=version("bourre"),
        python=f"{platform.python_implementation()} {sys.version.split()[0]}",
    )


def entries(labels: list[str], metrics: dict[str, Any], houses: list[Any]) -> list[Any]:
    """Each house (or point): its name, house string, summary and rules."""
    rules = _rules(houses)
    return [
        {"label": label, "spec": h["house"], "lines": summary_lines(h), "rules": rules[k]}
        for k, (label, h) in enumerate(zip(labels, metrics["houses"], strict=True))
    ]


def bots_line(bots: list[str], rotate: bool) -> str:
    return ",".join(bots) + (", seats rotated" if rotate else "")


def render_report(
    metrics: dict[str, Any], result: Any, houses: list[Any], command: str | None = None
) -> str:
    """The page as a string.  ``houses``: the :class:`~bourre.houses.house.House` of each
    house, in the order of ``metrics["houses"]``."""
    shown = entries([house_label(h["house"]) for h in metrics["houses"]], metrics, houses)
    figs = []
    if metrics["sessions_completed"]:
        for spec, fig in figures(result, metrics):
            figs.append(
                {"name": spec.name, "title": spec.title, "caption": spec.caption, "png": png(fig)}
            )
    hps = metrics.get("timing", {}).get("hands_per_second", {})
    speed = ", ".join(f"{house_label(h)} {round(v):,}" for h, v in hps.items() if v is not None)
    what = "simulate" if len(metrics["houses"]) == 1 else "compare"
    return page(
        heading=f"bourre {what}",
        run=title(metrics),
        partial=coverage(metrics),
        unit="house",
        houses=shown,
        table_heading="Side by side",
        columns=[e["label"] for e in shown],
        sections=table.sections(metrics),
        notes=table.notes(metrics),
        speed=f"Speed (hands per second, per core): {speed}" if speed else "",
        figures=figs,
        command=command or reproduce_command(result.config, metrics["below"]),
        seed=metrics["seed"],
        bots=bots_line(metrics["bots"], bool(metrics.get("rotate"))),
        sessions=metrics["sessions_planned"],
    )


def write_report(path: Path | str, metrics: dict[str, Any], result: Any, houses: list[Any]) -> None:
    """Write the page to ``path`` (UTF-8)."""
    Path(path).write_text(render_report(metrics, result, houses), encoding="utf-8")
