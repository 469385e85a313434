"""One figure as compare's table prints it (:func:`cell`), the one mark of a
difference from the first house that luck does not explain (:data:`MARK`), what the
mark and every ± mean, and the names of the places at the table."""

from __future__ import annotations

from typing import Any

from bourre.sim.reports import fmt

__all__ = ["MARK", "PLUS_MINUS", "cell", "mark_note", "mark_of", "position_label"]

MARK = "*"
"""The one significance mark: differs from the first house on the same deals."""
PLUS_MINUS = "±: the range where the true figure lies 19 times in 20; more sessions narrow it."
"""What every ± means (the notes of the table, of ``bourre sweep`` and of the report)."""

_POSITIONS = {0: "dealer (decides last)", 1: "1st (dealer's left)"}


def _ordinal(k: int) -> str:
    return f"{k}{'th' if 10 <= k % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(k % 10, 'th')}"


def position_label(p: int, players: int) -> str:
    """The place ``p`` hands from the dealer, in words."""
    if p in _POSITIONS:
        return _POSITIONS[p]
    if p == players - 1:
        return f"{_ordinal(p)} (dealer's right)"
    return f"{_ordinal(p)} to decide"


def mark_of(diff: dict[str, Any]) -> str:
    """The mark of a paired difference's interval: `` *`` when it excludes 0, else
    room for it (so numbers line up)."""
    lo, hi = diff.get("lo"), diff.get("hi")
    return f" {MARK}" if lo is not None and hi is not None and (lo > 0 or hi < 0) else "  "


def _mark(h: dict[str, Any], key: str) -> str:
    vs = h.get("vs_first")
    if not vs or key not in vs:
        return ""
    return mark_of(vs[key])


def cell(h: dict[str, Any], key: str, kind: str, sep: str = "\n") -> str:
    """One house's figure ``key`` as the table prints it: ``kind`` is ``chips`` or
    ``percent`` (with the mark of a difference from the first house), ``quantile``
    (its range after ``sep``) or ``max``."""
    iv = h.get(key)
    if kind == "quantile":
        return fmt.quantile(iv, sep=sep)
    if kind == "max":
        return fmt.chips(iv)
    return fmt.value(iv, kind) + _mark(h, key)


def mark_note(first: str) -> str:
    """What the mark means, against the first house (or point) ``first``."""
    return (
        f"{MARK}: differs from {first} on the same deals by more than luck explains"
        " (19 times in 20)."
    )
