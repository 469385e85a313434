"""95% confidence intervals over sessions, normal approximations without bootstrap:
a mean (:func:`ci_mean`), a ratio of totals by the delta method (:func:`ci_ratio`), a
median from order statistics (:func:`ci_median`) and a quantile with the sessions as
the unit (:func:`ci_quantile`, Woodruff's interval)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

__all__ = ["Interval", "Z", "ci_mean", "ci_median", "ci_quantile", "ci_ratio"]

Z = 1.959963984540054
"""The 97.5% normal quantile (95% two-sided intervals)."""

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
