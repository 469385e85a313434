"""The deal (R-DEAL): one card at a time clockwise from the dealer's left; the dealer's
last card is the upcard and names trump."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from mypy_extensions import mypyc_attr

from bourre.components import DealComponent
from bourre.rules import DealFn

TEXTS = [
    (
        "R-DEAL",
        "The player to the dealer's right cuts; deal one at a time clockwise from the"
        " dealer's left. The dealer's last card is dealt face up: its suit is trump and"
        " it belongs to the dealer's hand.",
    )
]
"""The rules of this module, as ``bourre rules`` prints them."""


_NONE: Final[list[int]] = []
"""A placeholder, replaced at every seat before the hands are returned."""


def make_deal(hand_size: int) -> DealFn:
    """A deal of ``hand_size`` cards each: card i of the deck (top first) goes to seat
    ``(dealer + 1 + i) mod n``; the upcard is card ``hand_size × n − 1`` (R-DEAL).
    Hands come out sorted (the :class:`~bourre.state.HandState` invariant)."""
    return StandardDeal(hand_size)


@mypyc_attr(allow_interpreted_subclasses=True)  # compiled (setup.py); subclass freely
class StandardDeal(DealComponent):
    """The deal of :func:`make_deal`: a deal function, called through the compiled
    base (:class:`~bourre.components.DealComponent`) by the game."""

    def __init__(self, hand_size: int) -> None:
        super().__init__()
        self.hand_size = hand_size

    def __call__(
        self, deck: Sequence[int], dealer: int, n: int
    ) -> tuple[list[list[int]], int, list[int]]:
        hand_size = self.hand_size
        m = hand_size * n
        # the i-th seat from the dealer's left gets cards i, i + n …: into a list of
        # the table's size, made at once (no list grown by appends, none reordered)
        hands: list[list[int]] = [_NONE] * n
        if hand_size == 5:  # the usual hand: read off and sorted natively, no slice
            t = deck if isinstance(deck, tuple) else tuple(deck)  # a Deck's own tuple
            for i in range(n):
                hands[(dealer + 1 + i) % n] = sorted_five(
                    t[i], t[i + n], t[i + 2 * n], t[i + 3 * n], t[i + 4 * n]
                )
            upcard, stock = t[m - 1], list(t[m:])
        else:
            cards = list(deck)  # a list: sliced natively when compiled
            for i in range(n):
                hand = cards[i:m:n]
                hand.sort()
                hands[(dealer + 1 + i) % n] = hand
            upcard, stock = cards[m - 1], cards[m:]
        return hands, upcard, stock


def sorted_five(a: int, b: int, c: int, d: int, e: int) -> list[int]:
    """Five cards in ascending order: a sorting network of nine compare-exchanges
    (compiled, on machine integers: cheaper than a list sort)."""
    if a > b:
        a, b = b, a
    if d > e:
        d, e = e, d
    if c > e:
        c, e = e, c
    if c > d:
        c, d = d, c
    if a > d:
        a, d = d, a
    if a > c:
        a, c = c, a
    if b > e:
        b, e = e, b
    if b > d:
        b, d = d, b
    if b > c:
        b, c = c, b
    return [a, b, c, d, e]
