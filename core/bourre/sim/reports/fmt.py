"""Numbers as a card player reads them: chips and per cents, each with its ± at a
sensible precision (``27.5 ±3.4``, ``62% ±2``, ``5,712``), for the summary, the
table, the HTML report and the figures alike."""

from __future__ import annotations

import math
from typing import Any

__all__ = ["chips", "decimals", "half_width", "percent", "quantile", "value"]

DASH = "–"


def decimals(half: float) -> int:
    """Decimals that show an uncertainty ``half`` with one significant digit, or two
    when it begins with 1, 2 or 3 up to 3.5 (``±3.4``, ``±8``, ``±0.4``, ``±1.1``),
    from 0 to 2."""
    if not half > 0 or not math.isfinite(half):
        return 0
    e = math.floor(math.log10(half))
    lead = half / 10**e
    d = -e + (1 if lead < 3.55 else 0)
    return max(0, min(2, d))


def _plain(x: float) -> int:
    """Decimals for a value shown without an uncertainty."""
    if abs(x - round(x)) < 1e-9 or abs(x) >= 100:
        return 0
    return 1 if abs(x) >= 1 else 2


def _num(x: float, d: int) -> str:
    s = f"{x:,.{d}f}"
    return s[1:] if s.startswith("-") and not s.strip("-0.,") else s  # no "-0.0"


def chips(x: float | None, half: float | None = None, sign: bool = False, more: int = 0) -> str:
    """Chips: ``27.5 ±3.4``, ``5,712``, ``-1.2 ±0.3``; ``sign`` writes ``+`` too;
    ``more`` decimals than usual (for figures that would print the same)."""
    if x is None or not math.isfinite(x):
        return DASH
    if half is None or not half > 0:
        d = _plain(x) + more
        return ("+" if sign and x > 0 else "") + _num(x, d)
    d = decimals(half) + more
    return ("+" if sign and round(x, d) > 0 else "") + f"{_num(x, d)} ±{_num(half, d)}"


def percent(x: float | None, half: float | None = None, more: int = 0) -> str:
    """A share as per cent, at most one decimal: ``62.3% ±1.9``, ``13% ±5``, ``0.0%``;
    a ± below 0.05 points is shown as ``±0.1`` (never ``±0.0``); ``more`` decimals
    than that (for figures that would print the same)."""
    if x is None or not math.isfinite(x):
        return DASH
    if half is None or not half > 0:
        return f"{_num(100 * x, 1 + more)}%"
    d = min(1, decimals(100 * half)) + more
    shown = max(100 * half, 10.0**-d)  # no "±0.0": a smaller ± is shown as ±0.1
    return f"{_num(100 * x, d)}% ±{_num(shown, d)}"


def half_width(iv: Any) -> float | None:
    """The half-width of an interval dict, or ``None``."""
    if not isinstance(iv, dict) or iv.get("lo") is None or iv.get("hi") is None:
        return None
    return float(iv["hi"] - iv["lo"]) / 2


def value(iv: Any, kind: str = "chips", sign: bool = False, more: int = 0) -> str:
    """An interval dict (or a bare number) as ``chips`` or ``percent`` (``more``
    decimals than usual)."""
    if isinstance(iv, dict):
        x, half = iv.get("mean"), half_width(iv)
    else:
        x, half = iv, None
    if kind == "percent":
        return percent(x, half, more)
    return chips(x, half, sign, more)


def quantile(iv: Any, sep: str = " ") -> str:
    """A quantile in chips with its range when it has one: ``13``, ``150 (140–165)``
    (``sep``: between the value and its range)."""
    if not isinstance(iv, dict) or iv.get("mean") is None:
        return DASH
    q, lo, hi = iv["mean"], iv.get("lo"), iv.get("hi")
    if lo is None or hi is None or lo == hi:
        return chips(q)
    return f"{chips(q)}{sep}({chips(lo)}–{chips(hi)})"
