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

The intervals are :mod:`bourre.sim.intervals` and each session's values
:mod:`bourre.sim.scalars`; their public names are importable from here too.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from bourre.sim.intervals import (
    Interval,
    Z,
    ci_mean,
    ci_median,
    ci_quantile,
    ci_ratio,
)
from bourre.sim.scalars import (
    RATIO_KEYS,
    RATIOS,
    SCALARS,
    Summary,
    below_values,
    mean_of,
    position_means,
    scalar_values,
    seat_means,
    start_balance,
)

__all__ = [
    "RATIOS",
    "SCALARS",
    "Z",
    "ci_mean",
    "ci_median",
    "ci_quantile",
    "ci_ratio",
    "compute",
    "hands_per_second",
    "house_metrics",
    "paired",
    "scalar_values",
    "start_balance",
    "without_timing",
]


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
    for key, num, den, _ in RATIO_KEYS:
        out[key] = ci_ratio(
            [v[s["i"]][num] for s in summaries], [v[s["i"]][den] for s in summaries]
        )
    out["below"] = ci_mean(below_values(summaries, v, below))
    n = max(s["players"] for s in summaries)
    seats = [seat_means(s) for s in summaries]
    out["seat"] = [ci_mean([v[k] for v in seats if k < len(v)]) for k in range(n)]
    pos = [position_means(s) for s in summaries]
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
                    vals.append(mean_of(mine))
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
    for key, num, den, _ in RATIO_KEYS:
        d = []
        for i in common:
            x, y = va[i], vb[i]
            na, da, nb, db = x[num], x[den], y[num], y[den]
            if da and db:
                d.append(nb / db - na / da)
        out[key] = ci_mean(d)
    ba = below_values([a[i] for i in common], va, fb)
    bb = below_values([b[i] for i in common], vb, below)
    out["below"] = ci_mean([y - x for x, y in zip(ba, bb, strict=True)])
    return out


def hands_per_second(summaries: Sequence[Summary]) -> float | None:
    """Hands per second of compute (per core): hands / summed session seconds."""
    secs = math.fsum(s.get("seconds", 0.0) for s in summaries)
    hands = sum(s["hands"] for s in summaries)
    return hands / secs if secs > 0 else None


def compute(result: Any, below: float | Sequence[float] = 50.0) -> dict[str, Any]:
    """The statistics of a :class:`~bourre.sim.runner.RunResult`, JSON-ready.

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
        # which engine played each house's sessions (the compiled kernel where it can:
        # the same numbers, so it is told with the timing, not compared)
        "engines": {
            spec: sorted({str(s.get("engine", "python")) for s in result.ordered(spec)})
            for spec in cfg.houses
        },
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
