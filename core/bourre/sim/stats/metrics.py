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

Everything here is a pure function of the summaries, whatever their order, so the
numbers are identical for any worker count, chunking or backend.  Only ``timing``
(hands per second) depends on the machine.  :func:`compute` folds the summaries as
they stream by (two passes, exact sums: :mod:`bourre.sim.stats.folding`), in memory that
does not grow with the sessions; :func:`house_metrics` and :func:`paired` compute
the same numbers from lists of summaries.

The intervals are :mod:`bourre.sim.stats.intervals` and each session's values
:mod:`bourre.sim.stats.scalars`; their public names are importable from here too.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from bourre.sim.stats.folding import ExactSum, MeanFold, QuantileFold, RatioFold
from bourre.sim.stats.intervals import (
    Interval,
    Z,
    ci_mean,
    ci_median,
    ci_quantile,
    ci_ratio,
)
from bourre.sim.stats.scalars import (
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


class _HouseFold:
    """What :func:`house_metrics` says of one house, folded session by session
    (:mod:`bourre.sim.stats.folding`, two passes); and the paired differences of this
    house against the first, session by session as both have one."""

    def __init__(self, below: float) -> None:
        self.below = below
        self.first: tuple[int, Summary] | None = None  # the lowest session index
        self.hands = 0
        self.hmax = 0
        self.players = 0
        self.seconds = ExactSum()
        self.engines: set[str] = set()
        self.means: dict[Any, MeanFold] = {}
        self.ratios = {key: RatioFold() for key, *_ in RATIO_KEYS}
        self.pots = QuantileFold((0.5, 0.99))
        self.labels: set[str] = set()
        self.pairs: dict[str, MeanFold] = {}
        self.second = False

    def _mean(self, key: Any, x: float) -> None:
        acc = self.means.get(key)
        if acc is None:
            acc = self.means[key] = MeanFold()
        acc.add(x)

    def add(self, s: Summary, v: dict[str, float]) -> None:
        """Session ``s`` and its :func:`scalar_values` ``v``."""
        if not self.second:
            if self.first is None or s["i"] < self.first[0]:
                self.first = s["i"], {k: s[k] for k in ("players", "start", "final") if k in s}
            self.hands += s["hands"]
            self.hmax = max(self.hmax, s["hands"])
            self.players = max(self.players, s["players"])
            self.seconds.add(s.get("seconds", 0.0))
            self.engines.add(str(s.get("engine", "python")))
            self.labels.update(s["bots"])
        for key in SCALARS:
            self._mean(key, v[key])
        for key, num, den, _ in RATIO_KEYS:
            self.ratios[key].add(v[num], v[den])
        self.pots.add(s["pot"])
        self._mean("below", v["below"])
        sm = seat_means(s)
        for k, x in enumerate(sm):
            self._mean(("seat", k), x)
        for k, x in enumerate(position_means(s)):
            self._mean(("position", k), x)
        for h, x in enumerate(s["pot"]):
            self._mean(("hand", h), x)
        mine: dict[str, list[float]] = {}
        for k, b in enumerate(s["bots"]):
            mine.setdefault(b, []).append(sm[k])
        for label, xs in mine.items():
            self._mean(("bot", label), mean_of(xs))

    def pair(self, va: dict[str, float], vb: dict[str, float]) -> None:
        """The differences of one session, this house (``vb``) minus the first (``va``)."""
        for key in SCALARS:
            self._pair(key, vb[key] - va[key])
        for key, num, den, _ in RATIO_KEYS:
            na, da, nb, db = va[num], va[den], vb[num], vb[den]
            if da and db:
                self._pair(key, nb / db - na / da)
        self._pair("below", vb["below"] - va["below"])

    def _pair(self, key: str, x: float) -> None:
        acc = self.pairs.get(key)
        if acc is None:
            acc = self.pairs[key] = MeanFold()
        acc.add(x)

    def turn(self) -> None:
        self.second = True
        for acc in (*self.means.values(), *self.pairs.values()):
            acc.turn()
        for ratio in self.ratios.values():
            ratio.turn()
        self.pots.turn()

    def metrics(self, sessions: int) -> dict[str, Any]:
        out: dict[str, Any] = {"sessions": sessions}
        if not sessions or self.first is None:
            return out
        none = MeanFold()

        def mean(key: Any) -> Interval:
            return self.means.get(key, none).interval()

        out["hands"] = self.hands
        out["players"] = self.first[1]["players"]
        for key in SCALARS:
            out[key] = mean(key)
        out["start_balance"] = start_balance(self.first[1])
        out["below_balance"] = self.below
        out["hands_per_session"] = self.hmax
        out["pot_median"] = self.pots.interval(0)
        out["pot_p99"] = self.pots.interval(1)
        out["pot_max"] = self.pots.maximum()
        for key, *_ in RATIO_KEYS:
            out[key] = self.ratios[key].interval()
        out["below"] = mean("below")
        n = self.players
        out["seat"] = [mean(("seat", k)) for k in range(n)]
        out["position"] = [mean(("position", k)) for k in range(n)]
        out["pot_by_hand"] = [mean(("hand", h)) for h in range(self.hmax)]
        labels = sorted(self.labels)
        if len(labels) > 1:
            out["bots"] = {label: mean(("bot", label)) for label in labels}
        return out

    def paired(self) -> dict[str, Interval]:
        none = MeanFold()
        out = {key: self.pairs.get(key, none).interval() for key in SCALARS}
        for key, *_ in RATIO_KEYS:
            out[key] = self.pairs.get(key, none).interval()
        out["below"] = self.pairs.get("below", none).interval()
        return out


def _fold(result: Any, folds: dict[str, _HouseFold], first: str) -> None:
    """One pass over the sessions of ``result`` (streamed): each house's fold, and
    the paired differences against ``first`` once both houses have the session (a
    small buffer: the sessions of every house arrive together, so few wait)."""
    others = [h for h in folds if h != first]
    waiting: dict[int, dict[str, dict[str, float]]] = {}  # session -> house -> values
    paired_: dict[int, int] = {}  # session -> houses paired with the first
    for house, s in result.entries():
        fold = folds.get(house)
        if fold is None:
            continue
        i = s["i"]
        v = scalar_values([s], fold.below)[i]
        fold.add(s, v)
        if not others:
            continue
        w = waiting.setdefault(i, {})
        if house == first:
            for h in others:
                if h in w:
                    folds[h].pair(v, w.pop(h))
                    paired_[i] = paired_.get(i, 0) + 1
            w[first] = v
        elif first in w:
            fold.pair(w[first], v)
            paired_[i] = paired_.get(i, 0) + 1
        else:
            w[house] = v
        if paired_.get(i, 0) == len(others):
            del waiting[i], paired_[i]


def compute(result: Any, below: float | Sequence[float] = 50.0) -> dict[str, Any]:
    """The statistics of a :class:`~bourre.sim.runs.runner.RunResult`, JSON-ready, folded
    as its sessions stream by (two passes over the state file; the numbers are those
    of :func:`house_metrics` and :func:`paired` over every summary, to the last bit).

    ``below``: the balance under which a session ends badly, for every house or one
    per house in the order of the run (``bourre sweep`` across starting balances).
    ``complete`` is false for a run stopped early; ``sessions_completed`` then says
    how many sessions the numbers cover (each house's ``sessions`` too)."""
    cfg = result.config
    one = isinstance(below, int | float)
    belows = [float(below)] * len(cfg.houses) if isinstance(below, int | float) else list(below)
    folds = {spec: _HouseFold(b) for spec, b in zip(cfg.houses, belows, strict=True)}
    first = cfg.houses[0] if cfg.houses else ""
    _fold(result, folds, first)
    for f in folds.values():
        f.turn()
    _fold(result, folds, first)
    houses = []
    for spec in cfg.houses:
        f = folds[spec]
        entry: dict[str, Any] = {"house": spec, **f.metrics(result.count(spec))}
        entry["vs_first"] = None if spec == first else f.paired()
        houses.append(entry)
    timing = {
        "wall_seconds": result.wall_seconds,
        "hands_per_second": {
            spec: (folds[spec].hands / secs if (secs := folds[spec].seconds.total()) > 0 else None)
            for spec in cfg.houses
        },
        # which engine played each house's sessions (the compiled kernel where it can:
        # the same numbers, so it is told with the timing, not compared)
        "engines": {spec: sorted(folds[spec].engines) for spec in cfg.houses},
    }
    return {
        "format": "bourre-compare",
        "version": 1,
        "complete": result.complete,
        "stopped": result.stopped,
        "sessions_planned": cfg.sessions,
        "sessions_completed": min((result.count(h) for h in cfg.houses), default=0),
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
