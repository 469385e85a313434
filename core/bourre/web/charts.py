"""The strategy chart as a page of ``bourre serve`` (``/chart``): the chart of
:func:`bourre.advice.chart.chart`, drawn by the same template as ``bourre chart
--html`` (``chart_body.html``), its cost bounded so that no request takes minutes.

- Only a house the compiled kernel plays (the built-in variants, and a plugin's penalty,
  payout, lead, follow rule, cinch or trick winner asked through Python:
  :func:`bourre.kernel.can_play`) is charted
  here: on the Python rules, card by card, a chart takes minutes; the page says so and
  names the command that draws it.
- :data:`WEB_CHART_HANDS` hands a cell (``bourre chart`` deals 800): a few seconds of
  one core for the standard table, the ranges about twice as wide.
- Each chart is kept once drawn (:data:`MAX_CACHED` houses, the least recently shown
  forgotten first), and one chart is drawn at a time: a second request for it waits
  for the first and reads the kept chart, and two requests never take two cores.
"""

from __future__ import annotations

import threading
from collections import OrderedDict

from bourre.advice.chart import Chart, ChartError, chart
from bourre.houses.house import House
from bourre.kernel import can_play
from bourre.kernel.rollouts import ADVICE_HOOKS

__all__ = ["MAX_CACHED", "WEB_CHART_HANDS", "ChartRefused", "web_chart"]

WEB_CHART_HANDS = 200
"""Hands a cell on the page (``bourre chart``: 800 on the kernel)."""

MAX_CACHED = 8
"""The charts kept, one a house."""

_KEPT: OrderedDict[tuple[str, int], Chart] = OrderedDict()
_DRAWING = threading.Lock()


class ChartRefused(ValueError):
    """A chart the page does not draw (the message says why and what draws it)."""


def web_chart(house: House) -> Chart:
    """The chart of ``house`` at its table, seed 0, :data:`WEB_CHART_HANDS` hands a
    cell, on the kernel; kept once drawn.  Raises :class:`ChartRefused` for a house the
    kernel cannot play."""
    key = (house.spec, WEB_CHART_HANDS)
    kept = _KEPT.get(key)
    if kept is not None:
        return kept
    why = can_play(house, "heuristic", hooks=ADVICE_HOOKS)
    if why is not None:
        raise ChartRefused(_slow(house, why))
    with _DRAWING:  # one chart at a time; the one asked meanwhile may be drawn by now
        kept = _KEPT.get(key)
        if kept is not None:
            _KEPT.move_to_end(key)
            return kept
        try:
            got = chart(house, hands=WEB_CHART_HANDS, seed=0, engine="kernel")
        except ChartError as e:
            raise ChartRefused(_slow(house, str(e))) from None
        _KEPT[key] = got
        while len(_KEPT) > MAX_CACHED:
            _KEPT.popitem(last=False)
        return got


def _slow(house: House, why: str) -> str:
    return (
        f"The chart of {house.spec} is played card by card on the Python rules ({why}):"
        " minutes of work, more than a page waits for. Draw it at the terminal:"
        f" bourre chart '{house.spec}' --html chart.html"
    )
