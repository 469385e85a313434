"""Who wins a trick (R-TRICK)."""

from __future__ import annotations

from mypy_extensions import mypyc_attr

from bourre.components import TrickComponent

TEXTS = [
    (
        "R-TRICK",
        "The highest trump wins the trick; with no trump, the highest card of the led suit.",
    )
]
"""The rules of this module, as ``bourre rules`` prints them."""


def trick_winner(trick: list[int], trump: int) -> int:
    """The index of the winning card: the highest trump, else the highest card of the
    led suit (R-TRICK)."""
    best = 0
    bc = trick[0]
    bs = bc // 13
    for i in range(1, len(trick)):
        c = trick[i]
        s = c // 13
        if s == bs:
            if c > bc:
                best, bc = i, c
        elif s == trump:
            best, bc, bs = i, c, s
    return best


@mypyc_attr(allow_interpreted_subclasses=True)  # compiled (setup.py); subclass freely
class StandardTricks(TrickComponent):
    """:func:`trick_winner` as the game calls it (natively, when compiled)."""

    def winner(self, trick: list[int], trump: int) -> int:
        return trick_winner(trick, trump)
