"""Statistics folded as the summaries stream by, in bounded memory, to the same
numbers as the intervals of :mod:`bourre.sim.stats.intervals` computed from every value.

Every interval takes two passes over the sessions (the state file is read twice):
the first sums the values (:class:`ExactSum`: exactly, so the sum is
``math.fsum`` of all of them, in any order), the second sums the squared
deviations from the mean (or the squared residuals of a ratio around it), again
exactly; the formulas are those of :func:`~bourre.sim.stats.intervals.ci_mean` and
:func:`~bourre.sim.stats.intervals.ci_ratio`, so the numbers are identical to the last
bit whatever the order the sessions arrive in (workers, backends, ``--resume``).
A quantile of the pots (:class:`QuantileFold`) is exact from a histogram of the pot
values (pots take few distinct values); its Woodruff interval needs each session's
share of pots at or below it, counted in the second pass.
"""

from __future__ import annotations

import math
from collections import Counter
from typing import Any

from bourre.sim.stats.intervals import Interval, Z, _iv

__all__ = ["ExactSum", "MeanFold", "QuantileFold", "RatioFold", "exact_parts"]

_FOLD = 256
"""Values an :class:`ExactSum` buffers before folding them into a few floats."""


def exact_parts(values: list[float]) -> list[float]:
    """A few floats whose exact sum is the exact sum of ``values``: the correctly
    rounded sum, then the correctly rounded rest, … until nothing is left (each
    ``math.fsum`` is correctly rounded, so every rest is exact)."""
    out: list[float] = []
    for _ in range(80):  # a double's rests vanish long before: 2**-1074 is the unit
        s = math.fsum(values + [-x for x in out])
        if s == 0.0:
            break
        out.append(s)
        if not math.isfinite(s):
            break
    return out


class ExactSum:
    """``math.fsum`` of every value added, in bounded memory (a buffer folded into
    the few floats of :func:`exact_parts`): the same float whatever the order."""

    __slots__ = ("buf", "parts")

    def __init__(self) -> None:
        self.parts: list[float] = []
        self.buf: list[float] = []

    def add(self, x: float) -> None:
        self.buf.append(x)
        if len(self.buf) >= _FOLD:
            self.parts = exact_parts(self.parts + self.buf)
            self.buf = []

    def total(self) -> float:
        return math.fsum(self.parts + self.buf)


class MeanFold:
    """:func:`~bourre.sim.stats.intervals.ci_mean` of the values added, in two passes:
    :meth:`add` the same values in each, :meth:`turn` between them."""

    __slots__ = ("mean", "n", "second", "sq", "sum")

    def __init__(self) -> None:
        self.n = 0
        self.sum = ExactSum()
        self.sq = ExactSum()
        self.second = False
        self.mean = 0.0

    def add(self, x: float) -> None:
        if self.second:
            d = x - self.mean
            self.sq.add(d * d)
        else:
            self.n += 1
            self.sum.add(x)

    def turn(self) -> None:
        self.second = True
        if self.n:
            self.mean = self.sum.total() / self.n

    def interval(self) -> Interval:
        m = self.n
        if not m:
            return _iv(None, None, 0)
        if m < 2:
            return _iv(self.mean, None, m)
        var = self.sq.total() / (m - 1)
        return _iv(self.mean, Z * math.sqrt(var / m), m)


class RatioFold:
    """:func:`~bourre.sim.stats.intervals.ci_ratio` (Σnum/Σden, delta method) of the
    pairs added, in two passes: the sums, then the squared residuals ``num − r·den``."""

    __slots__ = ("den", "n", "num", "r", "second", "sq", "td", "tn")

    def __init__(self) -> None:
        self.n = 0
        self.num = ExactSum()
        self.den = ExactSum()
        self.sq = ExactSum()
        self.second = False
        self.tn = self.td = self.r = 0.0

    def add(self, num: float, den: float) -> None:
        if self.second:
            e = num - self.r * den
            self.sq.add(e * e)
        else:
            self.n += 1
            self.num.add(num)
            self.den.add(den)

    def turn(self) -> None:
        self.second = True
        self.tn, self.td = self.num.total(), self.den.total()
        if self.td != 0:
            self.r = self.tn / self.td

    def interval(self) -> Interval:
        m, td = self.n, self.td
        if not m or td == 0:
            return _iv(None, None, m)
        if m < 2:
            return _iv(self.r, None, m)
        se = math.sqrt(self.sq.total() / (m * (m - 1))) / (td / m)
        return _iv(self.r, Z * se, m)


class QuantileFold:
    """:func:`~bourre.sim.stats.intervals.ci_quantile` of the pots of the sessions added
    (one list a session), for several shares ``ps``: the quantiles from a histogram
    of the values (first pass), Woodruff's interval from each session's count of
    values at or below each quantile (second pass)."""

    def __init__(self, ps: tuple[float, ...]) -> None:
        self.ps = ps
        self.hist: Counter[float] = Counter()
        self.sessions = 0
        self.values = 0
        self.second = False
        self.q: list[float] = []
        self.shares: list[RatioFold] = []
        self.ordered: list[tuple[float, int]] = []  # (value, cumulative count)

    def add(self, pots: list[float]) -> None:
        if self.second:
            for q, share in zip(self.q, self.shares, strict=True):
                share.add(len([x for x in pots if x <= q]), len(pots))
        else:
            self.sessions += 1
            self.values += len(pots)
            self.hist.update(pots)

    def _inverse_cdf(self, p: float) -> float:
        """The smallest value with at least a share ``p`` of all at or below it."""
        total = self.values
        k = min(total, max(1, math.ceil(p * total - 1e-9)))
        for value, cum in self.ordered:
            if cum >= k:
                return value
        return self.ordered[-1][0]

    def turn(self) -> None:
        self.second = True
        cum = 0
        for value in sorted(self.hist):
            cum += self.hist[value]
            self.ordered.append((value, cum))
        if not self.values:
            return
        self.q = [self._inverse_cdf(p) for p in self.ps]
        for q in self.q:
            share = RatioFold()  # its first pass from the histogram: Σcount, Σlen
            share.n = self.sessions
            share.tn = float(sum(c for v, c in self.hist.items() if v <= q))
            share.td = float(self.values)
            share.r = share.tn / share.td
            share.second = True
            self.shares.append(share)

    def interval(self, k: int) -> Interval:
        """The interval of the ``k``-th share of ``ps``."""
        m = self.sessions
        if not self.values:
            return _iv(None, None, m)
        p, q = self.ps[k], self.q[k]
        if m < 2:
            return {"mean": q, "lo": None, "hi": None, "n": m}
        share = self.shares[k].interval()
        half = (share["hi"] - share["lo"]) / 2 if share["lo"] is not None else 0.0
        lo = self._inverse_cdf(max(0.0, p - half))
        hi = self._inverse_cdf(min(1.0, p + half))
        return {"mean": q, "lo": lo, "hi": hi, "n": m}

    def maximum(self) -> Any:
        return self.ordered[-1][0] if self.ordered else None
