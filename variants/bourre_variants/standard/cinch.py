"""The cinch: sure tricks and what a cinch obliges (R-SURE, R-EQUIV, R-CINCH-LEAD,
R-CINCH-FOLLOW, R-CINCH-LAST).

Hands and card sets are bit masks (:mod:`bourre.cards`).  ``known`` is the mask of
the cards the player knows no opponent holds: cards played this deal (current trick
included) and the player's own unreturned discards.
"""

from __future__ import annotations

from typing import Final

from mypy_extensions import mypyc_attr

from bourre.cards import card_str, cards_of
from bourre.components import CinchComponent
from bourre.rules import RuleViolation

_SUIT: Final = 0x1FFF
CINCH: Final = 3
"""Sure tricks that make a cinch (R-SURE)."""

TEXTS = [
    (
        "R-SURE",
        "Sure tricks = tricks won + master trumps held (every higher trump held, played,"
        " or in one's own discards). A cinch is 3 sure tricks.",
    ),
    ("R-EQUIV", "Trumps with no opponent's card between them are equivalent."),
    ("R-CINCH-LEAD", "With a cinch, lead the highest trump if you hold any."),
    (
        "R-CINCH-FOLLOW",
        "With a cinch, when the ordinary obligations allow a trump, play the highest"
        " allowed trump; following suit keeps priority.",
    ),
    ("R-CINCH-LAST", "The last player of a trick only has to win under the ordinary obligations."),
]
"""The rules of this module, as ``bourre rules`` prints them."""


def cinch_refusal(card: int, allowed: int, trick: list[int]) -> RuleViolation:
    """Why a card the ordinary obligations allow is refused to a player with a cinch
    (``allowed``: the mask of the cards the cinch allows)."""
    cards = cards_of(allowed)
    best = " ".join(card_str(c) for c in cards)
    if not trick:
        return RuleViolation(
            "R-CINCH-LEAD",
            f"you have a cinch: lead your highest trump ({best}), not {card_str(card)}",
            cards,
        )
    return RuleViolation(
        "R-CINCH-FOLLOW",
        f"you have a cinch: play your highest allowed trump ({best}), not {card_str(card)}",
        cards,
    )


def master_count(hand: int, trump: int, known: int) -> int:
    """Master trumps held: every higher trump is in the hand or known out (R-SURE)."""
    count = 0
    c = trump * 13 + 12
    low = trump * 13
    while c >= low:
        if (hand >> c) & 1:
            count += 1
        elif not (known >> c) & 1:
            break
        c -= 1
    return count


def sure_tricks(hand: int, trump: int, known: int, won: int) -> int:
    """Tricks already won plus master trumps held (R-SURE)."""
    return won + master_count(hand, trump, known)


def highest_trumps(allowed: int, hand: int, trump: int, known: int) -> int:
    """The highest trump of ``allowed`` (a mask of trumps) and those equivalent to it:
    lower ones reached with only own or known-out trumps in between (R-EQUIV)."""
    low = trump * 13
    c = low + 12
    while c >= low and not (allowed >> c) & 1:
        c -= 1
    out = 1 << c
    c -= 1
    while c >= low:
        if (allowed >> c) & 1:
            out |= 1 << c
        elif not ((known | hand) >> c) & 1:
            break
        c -= 1
    return out


@mypyc_attr(allow_interpreted_subclasses=True)  # compiled (setup.py); subclass freely
class StandardCinch(CinchComponent):
    """R-SURE with the obligations R-CINCH-LEAD, R-CINCH-FOLLOW and R-CINCH-LAST."""

    enabled = True

    def min_won(self, hand: int, trump: int) -> int:
        # Masters are trumps held, and no trump joins a hand after the draw.
        trumps = (hand >> (trump * 13)) & _SUIT
        held = 0
        while trumps:
            trumps &= trumps - 1
            held += 1
        return CINCH - held if held < CINCH else 0

    def has_cinch(self, hand: int, trump: int, known: int, won: int) -> bool:
        if won >= CINCH:
            return True
        need = CINCH - won
        c = trump * 13 + 12
        low = trump * 13
        while c >= low:
            if (hand >> c) & 1:
                need -= 1
                if not need:
                    return True
            elif not (known >> c) & 1:
                return False
            c -= 1
        return False

    def narrow(
        self,
        legal: int,
        hand: int,
        trick: list[int],
        trump: int,
        known: int,
        last: bool,
    ) -> int:
        if last and trick:
            return legal  # R-CINCH-LAST: the ordinary obligations only
        trumps = legal & (_SUIT << (trump * 13))
        if not trumps:
            return legal  # following suit keeps priority; no trump allowed
        return highest_trumps(trumps, hand, trump, known)

    def refuse(self, card: int, allowed: int, trick: list[int], trump: int) -> RuleViolation:
        return cinch_refusal(card, allowed, trick)
