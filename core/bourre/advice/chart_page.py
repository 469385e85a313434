"""The strategy chart as an HTML page (``bourre chart --html``): a coloured table and
the same statements of method as the terminal (:meth:`bourre.advice.chart.Chart.method`)."""

from __future__ import annotations

from importlib.metadata import version
from typing import Any

from bourre.advice.chart import Chart

__all__ = ["chart_context", "chart_html"]

CSS = {"play": "play", "pass": "pass", "close": "close", "must play": "must", "none": "none"}


def _cell(chart: Chart, row: int, place: int) -> dict[str, Any]:
    c = chart.cells[row][place - 1]
    text, lines = chart.words(row, place, detail=True)
    css = CSS[c.answer] + (" changed" if chart.changed(row, place) else "")
    title = ""
    if c.play is not None and c.passing is not None and c.gain is not None:
        title = (
            f"playing {c.play.mean:+.2f} chips, passing {c.passing.mean:+.2f};"
            f" the difference {c.gain.low:+.2f} to {c.gain.high:+.2f} (right 19 times in 20),"
            f" {c.hands:,} hands"
        )
    named = "dealer" if place == chart.players else f"place {place}"
    return {"text": text, "lines": lines, "css": css, "title": title, "place": named}


def chart_context(chart: Chart) -> dict[str, Any]:
    """What the chart's page shows (``chart_body.html``, drawn by ``bourre chart
    --html`` and by ``bourre serve``'s ``/chart``): each cell with its place named,
    so that on a narrow screen a row reflows into a card of its places."""
    rows = [
        {
            "label": cls.label,
            "cells": [_cell(chart, r, p) for p in range(1, chart.players + 1)],
        }
        for r, cls in enumerate(chart.classes)
    ]
    return {
        "house": chart.house,
        "chart_house": chart.house,
        "headline": chart.headline(),
        "versus": chart.versus.house if chart.versus is not None else "",
        "places": [chart.place_name(p) for p in range(1, chart.players + 1)],
        "rows": rows,
        "method": chart.method(),
    }


def chart_html(chart: Chart) -> str:
    """The page of ``chart`` (jinja2, escaped)."""
    # lazy: jinja2 is an optional extra ('plot' or 'web'), loaded when a page is written
    import jinja2

    env = jinja2.Environment(
        loader=jinja2.PackageLoader("bourre.advice", "templates"),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
    )
    return env.get_template("chart.html").render(**chart_context(chart), version=version("bourre"))
