"""One figure as compare's table prints it (:func:`cell`), the one mark of a
difference from the first house that luck does not explain (:data:`MARK`), what the
mark and every ± mean, and the names of the places at the table."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bourre.sim.reports import fmt

__all__ = [
    "MARK",
    "PLUS_MINUS",
    "cell",
    "figures",
    "mark_note",
    "mark_of",
    "position_label",
    "row",
]

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


def mark_of(diff: Mapping[str, Any]) -> str:
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


MORE = 2
"""At most this many decimals more than usual, to tell apart two marked figures."""


def _figure(text: str) -> str:
    """The figure of a printed cell, without its ± (``13.9% ±0.4`` → ``13.9%``)."""
    return text.split(" ±", 1)[0]


def figures(
    ivs: Sequence[Any], diffs: Sequence[Mapping[str, Any] | None], kind: str, sign: bool = False
) -> list[str]:
    """One row of figures (``chips`` or ``percent``), the first house's first, each
    later one with the mark of its paired difference from the first (``diffs``, one
    per figure, ``None`` for the first).

    A player never sees the mark between two figures printed alike (``13.9%`` and
    ``13.9% *``): the mark says the difference is real, yet it may be smaller than
    the figures' last decimal.  Then the whole row is printed with one more decimal,
    or two (``13.92%`` and ``13.88% *``), so the figures show which house is higher
    and by about how much, in the row's own units.  This is clearer at the table than
    a difference printed beside the mark (``13.9% * -0.04``): a player compares two
    figures he can read, with no new notation and no sign to interpret.  A difference
    still hidden at two more decimals (under 0.005 chips or points) changes nothing a
    player could notice: that figure keeps no mark rather than a mark between equals.
    """
    marked = [i for i, d in enumerate(diffs) if i > 0 and d is not None and mark_of(d).strip()]
    more = 0
    for more in range(MORE + 1):
        texts = [fmt.value(iv, kind, sign, more) for iv in ivs]
        if all(_figure(texts[i]) != _figure(texts[0]) for i in marked):
            break
    out = []
    for i, (text, diff) in enumerate(zip(texts, diffs, strict=True)):
        told = i in marked and _figure(text) != _figure(texts[0])
        out.append(text + ("" if diff is None else f" {MARK}" if told else "  "))
    return out


def row(houses: Sequence[Mapping[str, Any]], key: str, kind: str, sep: str = "\n") -> list[str]:
    """The cells of the figure ``key`` for every house, as :func:`cell` prints them;
    for ``chips`` and ``percent``, the houses' figures told apart where marked
    (:func:`figures`)."""
    if kind not in ("chips", "percent"):
        return [cell(dict(h), key, kind, sep) for h in houses]
    diffs = [(h.get("vs_first") or {}).get(key) if h.get("vs_first") else None for h in houses]
    return figures([h.get(key) for h in houses], diffs, kind)


def mark_note(first: str) -> str:
    """What the mark means, against the first house (or point) ``first``."""
    return (
        f"{MARK}: differs from {first} on the same deals by more than luck explains"
        " (19 times in 20)."
    )
