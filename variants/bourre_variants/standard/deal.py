"""The deal (R-DEAL): one card at a time clockwise from the dealer's left; the dealer's
last card is the upcard, names trump and belongs to the dealer's hand."""

from __future__ import annotations

from collections.abc import Sequence

from bourre.rules import RuleViolation
from bourre.rules.cards import card_symbol

TEXTS = [
    (
        "R-DEAL",
        "The player to the dealer's right cuts; deal one at a time clockwise from the"
        " dealer's left. The dealer's last card is dealt face up: its suit is trump and"
        " it belongs to the dealer's hand.",
    )
]
"""The rules of this module, as ``bourre rules`` prints them."""


class StandardDeal:
    """``hand_size`` cards each: card i of the deck (top first) goes to seat
    ``(dealer + 1 + i) mod n``; the upcard is card ``hand_size × n − 1`` (R-DEAL)."""

    def __init__(self, hand_size: int) -> None:
        self.hand_size = hand_size

    def deal(
        self, deck: Sequence[int], dealer: int, n: int
    ) -> tuple[list[list[int]], int, list[int]]:
        dealt = self.hand_size * n
        hands: list[list[int]] = [[] for _ in range(n)]
        for i in range(n):  # the i-th seat from the dealer's left gets cards i, i + n …
            hands[(dealer + 1 + i) % n] = sorted(deck[i:dealt:n])
        return hands, deck[dealt - 1], list(deck[dealt:])

    def check_hand(self, seat: int, cards: Sequence[int], dealer: int, upcard: int) -> None:
        """A hand a table says ``seat`` was dealt: ``hand_size`` different cards, the
        upcard in the dealer's and nobody else's (R-DEAL)."""
        size = len(set(cards))
        if len(cards) != self.hand_size or size != self.hand_size:
            raise RuleViolation(
                "R-DEAL", f"seat {seat} was dealt {size} different cards, not {self.hand_size}"
            )
        up = card_symbol(upcard)
        if seat == dealer and upcard not in cards:
            raise RuleViolation("R-DEAL", f"the dealer (seat {seat}) holds the upcard {up}")
        if seat != dealer and upcard in cards:
            raise RuleViolation(
                "R-DEAL", f"seat {seat} cannot hold the upcard {up}: it is the dealer's"
            )
