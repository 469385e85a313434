"""Statistics of a run, per house, with 95% confidence intervals.

The unit of every interval is the *session* (hands within a session are not
independent: the pot carries).  Intervals are normal approximations, without
bootstrap: a mean is ``mean ± 1.96·s/√m`` over the ``m`` per-session values; a rate
(a ratio of totals such as bourrés per player in play) uses the delta method on the
per-session numerators and denominators; the median uses order statistics of all
hands (``m/2 ± 0.98·√m``) in :func:`ci_median`; the pot quantiles of a run use
:func:`ci_quantile`, which takes the sessions as the unit (Woodruff's interval: the
share of hands at most the quantile is a ratio over sessions, and its interval is
turned back into pots).  With common random numbers, session ``i`` of every house
saw the same decks, so differences against the first house are *paired* per session
(``vs_first``), which is much more precise than comparing two intervals.

Everything here is a pure function of the summaries taken in session order, so the
numbers are identical for any worker count, chunking or backend.  Only ``timing``
(hands per second) depends on the machine.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

__all__ = [
    "Z",
    "ci_mean",
    "ci_median",
    "ci_quantile",
    "ci_ratio",
    "compute",
    "house_metrics",
    "paired",
    "scalar_values",
]

Z = 1.959963984540054
"""The 97.5% normal quantile (95% two-sided intervals)."""

Summary = dict[str, Any]
Interval = dict[str, Any]


def _iv(mean: float | None, half: float | None, n: int) -> Interval:
    if mean is None:
        return {"mean": None, "lo": None, "hi": None, "n": n}
    if half is None or not math.isfinite(half):
        return {"mean": mean, "lo": None, "hi": None, "n": n}
    return {"mean": mean, "lo": mean - half, "hi": mean + half, "n": n}


def ci_mean(values: Sequence[float]) -> Interval:
    """Mean with a 95% normal interval (no interval below 2 values)."""
    m = len(values)
    if not m:
        return _iv(None, None, 0)
    mean = math.fsum(values) / m
    if m < 2:
        return _iv(mean, None, m)
    var = math.fsum([(x - mean) * (x - mean) for x in values]) / (m - 1)
    return _iv(mean, Z * math.sqrt(var / m), m)


def ci_ratio(num: Sequence[float], den: Sequence[float]) -> Interval:
    """Σnum/Σden with a delta-method 95% interval over the sessions."""
    m = len(num)
    tn, td = math.fsum(num), math.fsum(den)
    if not m or td == 0:
        return _iv(None, None, m)
    r = tn / td
    if m < 2:
        return _iv(r, None, m)
    resid = [y - r * x for y, x in zip(num, den, strict=True)]
    se = math.sqrt(math.fsum(e * e for e in resid) / (m * (m - 1))) / (td / m)
    return _iv(r, Z * se, m)


def ci_median(values: Sequence[float]) -> Interval:
    """Median with a distribution-free 95% interval from order statistics."""
    m = len(values)
    if not m:
        return _iv(None, None, 0)
    xs = sorted(values)
    med = xs[m // 2] if m % 2 else (xs[m // 2 - 1] + xs[m // 2]) / 2
    if m < 2:
        return {"mean": med, "lo": None, "hi": None, "n": m}
    k = Z * math.sqrt(m) / 2
    lo = xs[max(0, math.floor(m / 2 - k))]
    hi = xs[min(m - 1, math.ceil(m / 2 + k))]
    return {"mean": med, "lo": lo, "hi": hi, "n": m}


def _inverse_cdf(xs: Sequence[float], p: float) -> float:
    """The smallest value with at least a share ``p`` of ``xs`` (sorted) at or below it."""
    k = max(1, math.ceil(p * len(xs) - 1e-9))
    return xs[min(len(xs), k) - 1]


def ci_quantile(
    groups: Sequence[Sequence[float]], p: float, ordered: Sequence[float] | None = None
) -> Interval:
    """The ``p`` quantile of all values (the smallest value with a share ``p`` at or
    below it) with a 95% interval that takes the groups (sessions) as the unit:
    the share of values at or below the quantile is a ratio over the groups
    (:func:`ci_ratio`), and ``p`` ± its half-width is turned back into values
    (Woodruff).  The interval is ``None`` below 2 groups.  ``ordered``: all the
    values sorted, where already made (several quantiles of one run)."""
    xs = sorted(x for g in groups for x in g) if ordered is None else ordered
    m = len(groups)
    if not xs:
        return _iv(None, None, m)
    q = _inverse_cdf(xs, p)
    if m < 2:
        return {"mean": q, "lo": None, "hi": None, "n": m}
    share = ci_ratio([len([x for x in g if x <= q]) for g in groups], [len(g) for g in groups])
    half = (share["hi"] - share["lo"]) / 2 if share["lo"] is not None else 0.0
    lo = _inverse_cdf(xs, max(0.0, p - half))
    hi = _inverse_cdf(xs, min(1.0, p + half))
    return {"mean": q, "lo": lo, "hi": hi, "n": m}


# -- per-session values -------------------------------------------------------------------


def _mean(xs: Sequence[float]) -> float:
    return math.fsum(xs) / len(xs) if xs else 0.0


def _pstdev(xs: Sequence[float]) -> float:
    """Population standard deviation, in floats (``statistics.pstdev`` is exact, in
    fractions, and 50 times slower; the balances are chips, so floats lose nothing
    a report shows)."""
    if not xs:
        return 0.0
    mean = math.fsum(xs) / len(xs)
    return math.sqrt(math.fsum([(x - mean) * (x - mean) for x in xs]) / len(xs))


def _seat_means(s: Summary) -> list[float]:
    n, d = s["players"], s["delta"]
    if not d:
        return [0.0] * n
    return [math.fsum(column) / len(d) for column in zip(*d, strict=True)]


def _position_means(s: Summary) -> list[float]:
    """Mean change per hand by position from the dealer: 0 = dealer, 1 = dealer's
    left (first to decide) …, from the session's ``place`` totals (or, in summaries
    written before them, from each hand's changes and dealer: the same numbers)."""
    if "place" in s and s["hands"]:
        return [x / s["hands"] for x in s["place"]]
    n, d = s["players"], s["delta"]
    return [
        _mean([row[(dl + p) % n] for row, dl in zip(d, s["dealer"], strict=True)]) for p in range(n)
    ]


def _edge(pos: Sequence[float]) -> float:
    """The dealer's mean change per hand minus that of the other places, from the
    position means."""
    return pos[0] - _mean(pos[1:])


def _dealer_edge(s: Summary) -> float:
    return _edge(_position_means(s))


def _swing(s: Summary) -> float:
    """How far a player's final balance is from the start, on average (the pot left
    at the end is shared out, so the mean final balance is the starting one)."""
    f = s["final"]
    start = _mean(f)
    return _mean([abs(x - start) for x in f])


def start_balance(s: Summary) -> float:
    """The balance every player starts a session with."""
    if "start" in s:
        return float(s["start"])
    return round(_mean(s["final"]), 6)  # summaries written before "start" was kept


SCALARS: dict[str, tuple[str, Callable[[Summary], float]]] = {
    "pot_mean": ("mean pot at stake", lambda s: _mean(s["pot"])),
    "bourre_hands": ("hands with a bourré", lambda s: _mean([b > 0 for b in s["bourre"]])),
    "carried": ("carried (tied) pots", lambda s: _mean(s["carried"])),
    "sole": ("hands won unopposed", lambda s: _mean([a == 1 for a in s["active"]])),
    "dealer": ("dealer: change per hand", lambda s: _position_means(s)[0]),
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
    return _mean([f < below for f in s["final"]])


_RATIO_KEYS = [(key, f"{key}/num", f"{key}/den", g) for key, (_, g) in RATIOS.items()]
_POSITIONAL = ("dealer", "dealer_edge")  # both from the position means (made once)


def scalar_values(
    summaries: Sequence[Summary], below: float | None = None
) -> dict[int, dict[str, float]]:
    """Each session's :data:`SCALARS`, its :data:`RATIOS` as ``key/num`` and
    ``key/den``, and with ``below`` its share of balances under it (``below``), by
    session index: made once per house and shared by :func:`house_metrics` and every
    :func:`paired` difference."""
    scalars = [(key, f) for key, (_, f) in SCALARS.items() if key not in _POSITIONAL]
    out: dict[int, dict[str, float]] = {}
    for s in summaries:
        v = {key: f(s) for key, f in scalars}
        pos = _position_means(s)
        v["dealer"], v["dealer_edge"] = pos[0], _edge(pos)
        for _, num, den, g in _RATIO_KEYS:
            v[num], v[den] = g(s)
        if below is not None:
            v["below"] = _below(s, below)
        out[s["i"]] = v
    return out


def _below_values(
    summaries: Sequence[Summary], v: dict[int, dict[str, float]], below: float
) -> list[float]:
    """Each session's share of balances under ``below``, from ``v`` where made."""
    return [v[s["i"]]["below"] if "below" in v[s["i"]] else _below(s, below) for s in summaries]


def house_metrics(
    summaries: Sequence[Summary],
    below: float = 50.0,
    values: dict[int, dict[str, float]] | None = None,
) -> dict[str, Any]:
    """The statistics of one house from its session summaries (in session order);
    ``values``: their :func:`scalar_values`, where already made."""
    m = len(summaries)
    out: dict[str, Any] = {"sessions": m}
    if not m:
        return out
    pots = [p for s in summaries for p in s["pot"]]
    out["hands"] = sum(s["hands"] for s in summaries)
    out["players"] = summaries[0]["players"]
    v = scalar_values(summaries, below) if values is None else values
    for key in SCALARS:
        out[key] = ci_mean([v[s["i"]][key] for s in summaries])
    out["start_balance"] = start_balance(summaries[0])
    out["below_balance"] = below
    out["hands_per_session"] = max(s["hands"] for s in summaries)
    groups = [s["pot"] for s in summaries]
    ordered = sorted(pots)
    out["pot_median"] = ci_quantile(groups, 0.5, ordered)
    out["pot_p99"] = ci_quantile(groups, 0.99, ordered)
    out["pot_max"] = max(pots) if pots else None
    for key, num, den, _ in _RATIO_KEYS:
        out[key] = ci_ratio(
            [v[s["i"]][num] for s in summaries], [v[s["i"]][den] for s in summaries]
        )
    out["below"] = ci_mean(_below_values(summaries, v, below))
    n = max(s["players"] for s in summaries)
    seats = [_seat_means(s) for s in summaries]
    out["seat"] = [ci_mean([v[k] for v in seats if k < len(v)]) for k in range(n)]
    pos = [_position_means(s) for s in summaries]
    out["position"] = [ci_mean([v[k] for v in pos if k < len(v)]) for k in range(n)]
    hmax = max(s["hands"] for s in summaries)
    out["pot_by_hand"] = [
        ci_mean([s["pot"][h] for s in summaries if h < len(s["pot"])]) for h in range(hmax)
    ]
    labels = sorted({b for s in summaries for b in s["bots"]})
    if len(labels) > 1:
        bots: dict[str, Interval] = {}
        for label in labels:
            vals = []
            for s, sm in zip(summaries, seats, strict=True):
                mine = [sm[k] for k, b in enumerate(s["bots"]) if b == label]
                if mine:
                    vals.append(_mean(mine))
            bots[label] = ci_mean(vals)
        out["bots"] = bots
    return out


def paired(
    first: Sequence[Summary],
    other: Sequence[Summary],
    below: float = 50.0,
    first_below: float | None = None,
    values: tuple[dict[int, dict[str, float]], dict[int, dict[str, float]]] | None = None,
) -> dict[str, Interval]:
    """Paired differences ``other − first`` over the sessions both completed
    (same index, hence the same decks); ``first_below``: the first house's ``below``
    where it is not ``below`` (houses with other starting balances); ``values``: the
    :func:`scalar_values` of both, where already made."""
    fb = below if first_below is None else first_below
    a = {s["i"]: s for s in first}
    b = {s["i"]: s for s in other}
    common = sorted(set(a) & set(b))
    va, vb = (scalar_values(first, fb), scalar_values(other, below)) if values is None else values
    out: dict[str, Interval] = {}
    for key in SCALARS:
        out[key] = ci_mean([vb[i][key] - va[i][key] for i in common])
    for key, num, den, _ in _RATIO_KEYS:
        d = []
        for i in common:
            x, y = va[i], vb[i]
            na, da, nb, db = x[num], x[den], y[num], y[den]
            if da and db:
                d.append(nb / db - na / da)
        out[key] = ci_mean(d)
    ba = _below_values([a[i] for i in common], va, fb)
    bb = _below_values([b[i] for i in common], vb, below)
    out["below"] = ci_mean([y - x for x, y in zip(ba, bb, strict=True)])
    return out


def hands_per_second(summaries: Sequence[Summary]) -> float | None:
    """Hands per second of compute (per core): hands / summed session seconds."""
    secs = math.fsum(s.get("seconds", 0.0) for s in summaries)
    hands = sum(s["hands"] for s in summaries)
    return hands / secs if secs > 0 else None


def compute(result: Any, below: float | Sequence[float] = 50.0) -> dict[str, Any]:
    """The statistics of a :class:`~bourre.compare.runner.RunResult`, JSON-ready.

    ``below``: the balance under which a session ends badly, for every house or one
    per house in the order of the run (``bourre sweep`` across starting balances).
    ``complete`` is false for a run stopped early; ``sessions_completed`` then says
    how many sessions the numbers cover (each house's ``sessions`` too)."""
    cfg = result.config
    one = isinstance(below, int | float)
    belows = [float(below)] * len(cfg.houses) if isinstance(below, int | float) else list(below)
    houses = []
    first: tuple[list[Summary], dict[int, dict[str, float]]] | None = None
    for spec, b in zip(cfg.houses, belows, strict=True):
        ss = result.ordered(spec)
        values = scalar_values(ss, b)
        entry: dict[str, Any] = {"house": spec, **house_metrics(ss, b, values)}
        if first is None:
            first = ss, values
            entry["vs_first"] = None
        else:
            entry["vs_first"] = paired(first[0], ss, b, belows[0], (first[1], values))
        houses.append(entry)
    timing = {
        "wall_seconds": result.wall_seconds,
        "hands_per_second": {spec: hands_per_second(result.ordered(spec)) for spec in cfg.houses},
    }
    return {
        "format": "bourre-compare",
        "version": 1,
        "complete": result.complete,
        "stopped": result.stopped,
        "sessions_planned": cfg.sessions,
        "sessions_completed": min((len(result.ordered(h)) for h in cfg.houses), default=0),
        "seed": cfg.seed,
        "bots": [b.label for b in cfg.bots],
        "rotate": cfg.rotate,
        "below": below if one else belows,
        "houses": houses,
        "timing": timing,
    }


def without_timing(metrics: dict[str, Any]) -> dict[str, Any]:
    """The machine-independent part (for equality checks)."""
    return {k: v for k, v in metrics.items() if k != "timing"}
