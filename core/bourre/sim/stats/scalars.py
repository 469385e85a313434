"""Each session's values, from its summary: the per-session scalars averaged over
sessions (:data:`SCALARS`), the rates as ratios of totals (:data:`RATIOS`), the means by
seat and by position from the dealer, and the share of balances under a line, made
once per house (:func:`scalar_values`)."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

__all__ = [
    "RATIOS",
    "RATIO_KEYS",
    "SCALARS",
    "Summary",
    "below_values",
    "mean_of",
    "position_means",
    "scalar_values",
    "seat_means",
    "start_balance",
]

Summary = dict[str, Any]


def mean_of(xs: Sequence[float]) -> float:
    """The mean of ``xs`` (0 for none)."""
    return math.fsum(xs) / len(xs) if xs else 0.0


def _pstdev(xs: Sequence[float]) -> float:
    """Population standard deviation, in floats (``statistics.pstdev`` is exact, in
    fractions, and 50 times slower; the balances are chips, so floats lose nothing
    a report shows)."""
    if not xs:
        return 0.0
    mean = math.fsum(xs) / len(xs)
    return math.sqrt(math.fsum([(x - mean) * (x - mean) for x in xs]) / len(xs))


def seat_means(s: Summary) -> list[float]:
    """Each seat's mean change per hand in the session."""
    n, d = s["players"], s["delta"]
    if not d:
        return [0.0] * n
    return [math.fsum(column) / len(d) for column in zip(*d, strict=True)]


def position_means(s: Summary) -> list[float]:
    """Mean change per hand by position from the dealer: 0 = dealer, 1 = dealer's
    left (first to decide) …, from the session's ``place`` totals (or, in summaries
    written before them, from each hand's changes and dealer: the same numbers)."""
    if "place" in s and s["hands"]:
        return [x / s["hands"] for x in s["place"]]
    n, d = s["players"], s["delta"]
    return [
        mean_of([row[(dl + p) % n] for row, dl in zip(d, s["dealer"], strict=True)])
        for p in range(n)
    ]


def _edge(pos: Sequence[float]) -> float:
    """The dealer's mean change per hand minus that of the other places, from the
    position means."""
    return pos[0] - mean_of(pos[1:])


def _dealer_edge(s: Summary) -> float:
    return _edge(position_means(s))


def _swing(s: Summary) -> float:
    """How far a player's final balance is from the start, on average (the pot left
    at the end is shared out, so the mean final balance is the starting one)."""
    f = s["final"]
    start = mean_of(f)
    return mean_of([abs(x - start) for x in f])


def start_balance(s: Summary) -> float:
    """The balance every player starts a session with."""
    if "start" in s:
        return float(s["start"])
    return round(mean_of(s["final"]), 6)  # summaries written before "start" was kept


SCALARS: dict[str, tuple[str, Callable[[Summary], float]]] = {
    "pot_mean": ("mean pot at stake", lambda s: mean_of(s["pot"])),
    "bourre_hands": ("hands with a bourré", lambda s: mean_of([b > 0 for b in s["bourre"]])),
    "carried": ("carried (tied) pots", lambda s: mean_of(s["carried"])),
    "sole": ("hands won unopposed", lambda s: mean_of([a == 1 for a in s["active"]])),
    "dealer": ("dealer: change per hand", lambda s: position_means(s)[0]),
    "dealer_edge": ("dealer's edge per hand over the other places", _dealer_edge),
    "spread": ("standard deviation of final balances", lambda s: _pstdev(s["final"])),
    "swing": ("mean distance of a final balance from the start", _swing),
}
"""Per-session values averaged over sessions (label, value of one session)."""

RATIOS: dict[str, tuple[str, Callable[[Summary], tuple[float, float]]]] = {
    "playing": ("decisions to play", lambda s: (sum(s["active"]), s["players"] * s["hands"])),
    "bourre": (
        "bourré per player in play",
        lambda s: (sum(s["bourre"]), sum([a for a in s["active"] if a > 1])),
    ),
    "cinch": ("plays made with a cinch", lambda s: (s["cinch"], s["plays"])),
}
"""Rates as ratios of totals (label, (numerator, denominator) of one session)."""


def _below(s: Summary, below: float) -> float:
    return mean_of([f < below for f in s["final"]])


RATIO_KEYS = [(key, f"{key}/num", f"{key}/den", g) for key, (_, g) in RATIOS.items()]
"""Each of :data:`RATIOS` as (key, its numerator's and denominator's keys in
:func:`scalar_values`, value of one session)."""
_POSITIONAL = ("dealer", "dealer_edge")  # both from the position means (made once)


def scalar_values(
    summaries: Sequence[Summary], below: float | None = None
) -> dict[int, dict[str, float]]:
    """Each session's :data:`SCALARS`, its :data:`RATIOS` as ``key/num`` and
    ``key/den``, and with ``below`` its share of balances under it (``below``), by
    session index: made once per house and shared by
    :func:`~bourre.sim.stats.metrics.house_metrics` and every
    :func:`~bourre.sim.stats.metrics.paired` difference."""
    scalars = [(key, f) for key, (_, f) in SCALARS.items() if key not in _POSITIONAL]
    out: dict[int, dict[str, float]] = {}
    for s in summaries:
        v = {key: f(s) for key, f in scalars}
        pos = position_means(s)
        v["dealer"], v["dealer_edge"] = pos[0], _edge(pos)
        for _, num, den, g in RATIO_KEYS:
            v[num], v[den] = g(s)
        if below is not None:
            v["below"] = _below(s, below)
        out[s["i"]] = v
    return out


def below_values(
    summaries: Sequence[Summary], v: dict[int, dict[str, float]], below: float
) -> list[float]:
    """Each session's share of balances under ``below``, from ``v`` where made."""
    return [v[s["i"]]["below"] if "below" in v[s["i"]] else _below(s, below) for s in summaries]
