"""Brace lists in a house string: the points of a sweep.

``standard+pot-limit(limit={5,10,20})`` is three houses, one per value in the braces;
two or more lists make a grid, every combination of their values (the first list
varies slowest)::

    >>> [p.house for p in expand("pot-limit(limit={5,10})+table(players={4,5})").points]
    ['pot-limit(limit=5)+table(players=4)', 'pot-limit(limit=5)+table(players=5)', \
'pot-limit(limit=10)+table(players=4)', 'pot-limit(limit=10)+table(players=5)']

A list may stand for a setting's value or for whole items of the house string
(``standard+{double-ante,four-card}``).  This module only rewrites text: whether
each point is a house is for :mod:`bourre.houses` to say.
Mistakes (empty, nested or unbalanced braces, an empty or repeated value) are a
:class:`SweepError` naming the place.
"""

from __future__ import annotations

import itertools
import math
import re
from dataclasses import dataclass
from fractions import Fraction

__all__ = ["MAX_POINTS", "Axis", "Point", "Sweep", "SweepError", "expand", "number"]

MAX_POINTS = 1000
"""The most points one sweep may have."""
MAX_TEXT = 4000
"""The longest sweep string."""

_KEY = re.compile(r"([A-Za-z0-9][A-Za-z0-9_.-]*)\s*=\s*$")
_OWNER = re.compile(r"([A-Za-z0-9][A-Za-z0-9_.-]*)\s*$")
_NUMBER = re.compile(r"""(['"]?)(-?\d+(?:\.\d+)?(?:/\d+)?)\1$""")


def number(value: str) -> float | None:
    """``5``, ``2.5``, ``'5/2'`` as a number; ``None`` for anything else."""
    m = _NUMBER.match(value)
    if not m:
        return None
    try:
        x = float(Fraction(m.group(2)))
    except (ValueError, ZeroDivisionError, OverflowError):
        return None
    return x if math.isfinite(x) else None


class SweepError(ValueError):
    """A sweep string that cannot be expanded; the message names the place."""


@dataclass(frozen=True)
class Axis:
    """One brace list: its values as written, and the setting they stand for."""

    values: tuple[str, ...]
    key: str = ""
    """The setting (``limit``), or ``""`` for a list of house items."""
    owner: str = ""
    """The variant (``pot-limit``) or ``table`` whose setting it is."""

    @property
    def label(self) -> str:
        """``pot-limit limit``, ``table players``, or ``house`` for a list of items."""
        return f"{self.owner} {self.key}".strip() if self.key else "house"

    def number(self, value: str) -> float | None:
        """A value of a setting as a number (``5``, ``2.5``, ``'5/2'``), or ``None``."""
        return number(value) if self.key else None

    @property
    def numeric(self) -> bool:
        """Every value is a number: the axis of a figure can be numeric."""
        return all(self.number(v) is not None for v in self.values)


@dataclass(frozen=True)
class Point:
    """One house of a sweep: its house string and its value on each axis."""

    house: str
    values: tuple[str, ...]


@dataclass(frozen=True)
class Sweep:
    """A sweep string expanded: its lists (axes) and its points, in order."""

    text: str
    axes: tuple[Axis, ...]
    points: tuple[Point, ...]

    def label(self, point: Point) -> str:
        """A point as a figure or the summary names it: ``limit=5``, ``double-ante``."""
        return ", ".join(
            f"{a.key}={v}" if a.key else v for a, v in zip(self.axes, point.values, strict=True)
        )


def _split(body: str) -> list[str]:
    """The values of a brace list: split on commas outside parentheses."""
    parts: list[str] = []
    cur: list[str] = []
    depth = 0
    for ch in body:
        depth += (ch == "(") - (ch == ")")
        if ch == "," and depth == 0:
            parts.append("".join(cur))
            cur = []
        else:
            cur.append(ch)
    parts.append("".join(cur))
    return parts


def _context(before: str) -> tuple[str, str]:
    """The setting a list at the end of ``before`` stands for: (owner, key)."""
    m = _KEY.search(before)
    if not m:
        return "", ""
    depth = 0
    for k in range(len(before) - 1, -1, -1):
        ch = before[k]
        if ch == ")":
            depth += 1
        elif ch == "(":
            if depth == 0:
                o = _OWNER.search(before[:k])
                return (o.group(1) if o else ""), m.group(1)
            depth -= 1
    return "", m.group(1)


def expand(text: str) -> Sweep:
    """The points of a sweep string; :class:`SweepError` says what is wrong."""
    if len(text) > MAX_TEXT:
        raise SweepError(f"sweep of {len(text)} characters: at most {MAX_TEXT}")
    pieces: list[str] = []  # the text between the lists
    axes: list[Axis] = []
    start = 0
    opened: int | None = None
    for k, ch in enumerate(text):
        if ch == "{":
            if opened is not None:
                raise SweepError(
                    f"{text!r}: a brace list inside another at character {k + 1}:"
                    " lists cannot be nested; write two lists for a grid"
                )
            opened = k
        elif ch == "}":
            if opened is None:
                raise SweepError(f"{text!r}: a '}}' at character {k + 1} closes no '{{'")
            before = text[start:opened]
            pieces.append(before)
            axes.append(_axis(text, text[opened + 1 : k], "".join(pieces)))
            start, opened = k + 1, None
    if opened is not None:
        raise SweepError(f"{text!r}: the '{{' at character {opened + 1} is never closed")
    pieces.append(text[start:])
    if not axes:
        raise SweepError(
            f"{text!r}: nothing to sweep: put the values in braces,"
            " e.g. 'standard+pot-limit(limit={5,10,20})'"
        )
    count = math.prod(len(a.values) for a in axes)
    if count > MAX_POINTS:
        raise SweepError(f"{text!r}: {count} points: at most {MAX_POINTS}")
    points = []
    for combo in itertools.product(*(a.values for a in axes)):
        house = pieces[0] + "".join(v + p for v, p in zip(combo, pieces[1:], strict=True))
        points.append(Point(house, combo))
    return Sweep(text, tuple(axes), tuple(points))


def _axis(text: str, body: str, before: str) -> Axis:
    where = f"{text!r}: the list {{{body}}}"
    if not body.strip():
        raise SweepError(f"{where} is empty: give one value or more, e.g. {{5,10}}")
    values = [v.strip() for v in _split(body)]
    for v in values:
        if not v:
            raise SweepError(f"{where} has an empty value")
        if v.count("(") != v.count(")"):
            raise SweepError(f"{where}: unbalanced parentheses in the value {v!r}")
    twice = [v for v in values if values.count(v) > 1]
    if twice:
        raise SweepError(f"{where} gives the value {twice[0]!r} twice")
    owner, key = _context(before)
    return Axis(tuple(values), key, owner)
