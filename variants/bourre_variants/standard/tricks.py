"""Who wins a trick (R-TRICK)."""

from __future__ import annotations

from bourre.rules.cards import suit_of

TEXTS = [
    (
        "R-TRICK",
        "The highest trump wins the trick; with no trump, the highest card of the led suit.",
    )
]
"""The rules of this module, as ``bourre rules`` prints them."""


def trick_winner(trick: tuple[int, ...], trump: int) -> int:
    """The index of the winning card: the highest trump, else the highest card of the
    led suit (R-TRICK)."""
    led = suit_of(trick[0])
    trumps = [c for c in trick if suit_of(c) == trump]
    best = max(trumps) if trumps else max(c for c in trick if suit_of(c) == led)
    return trick.index(best)
