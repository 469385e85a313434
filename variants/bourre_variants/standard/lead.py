"""Who leads each trick (R-LEAD): its text and its code."""

from __future__ import annotations

from bourre.rules.hookspec import LeadFn

TEXTS = [
    (
        "R-LEAD",
        "The first active player to the dealer's left leads; the trick's winner leads next.",
    ),
]
"""The rules of this module, as ``bourre rules`` prints them."""


def make_lead(n: int) -> LeadFn:
    """R-LEAD at a table of ``n``: the first active seat to the dealer's left leads the
    first trick, the winner of a trick leads the next; the others follow clockwise."""

    def lead(active: tuple[int, ...], dealer: int, winner: int | None) -> tuple[int, ...]:
        clockwise = sorted(active, key=lambda seat: (seat - dealer - 1) % n)
        i = 0 if winner is None else clockwise.index(winner)
        return tuple(clockwise[i:] + clockwise[:i])

    return lead
