"""The deal (R-DEAL): one card at a time clockwise from the dealer's left; the dealer's
last card is the upcard and names trump."""

from __future__ import annotations

from collections.abc import Sequence

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


def make_deal(hand_size: int) -> DealFn:
    """A deal of ``hand_size`` cards each: card i of the deck (top first) goes to seat
    ``(dealer + 1 + i) mod n``; the upcard is card ``hand_size × n − 1`` (R-DEAL).
    Hands come out sorted (the :class:`~bourre.state.HandState` invariant)."""

    def deal(deck: Sequence[int], dealer: int, n: int) -> tuple[list[list[int]], int, list[int]]:
        m = hand_size * n
        cards = list(deck)  # a list: sliced natively when compiled
        dealt: list[list[int]] = []  # the i-th from the dealer's left: cards i, i + n …
        for i in range(n):
            hand = cards[i:m:n]
            hand.sort()
            dealt.append(hand)
        hands = [dealt[(s - dealer - 1) % n] for s in range(n)]
        return hands, cards[m - 1], cards[m:]

    return deal
