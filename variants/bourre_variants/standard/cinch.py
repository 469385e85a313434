"""The cinch: sure tricks and what a cinch obliges (R-SURE, R-EQUIV, R-CINCH-LEAD,
R-CINCH-FOLLOW, R-CINCH-LAST).

``known`` is the bitmask of cards the player knows no opponent holds: cards played
this deal (current trick included) and the player's own unreturned discards.
"""

from __future__ import annotations

from typing import Final

from mypy_extensions import mypyc_attr

from bourre.cards import card_str
from bourre.rules import RuleViolation

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


def cinch_refusal(card: int, allowed: list[int], trick: list[int]) -> RuleViolation:
    """Why a card the ordinary obligations allow is refused to a player with a cinch."""
    best = " ".join(card_str(c) for c in allowed)
    if not trick:
        return RuleViolation(
            "R-CINCH-LEAD",
            f"you have a cinch: lead your highest trump ({best}), not {card_str(card)}",
            allowed,
        )
    return RuleViolation(
        "R-CINCH-FOLLOW",
        f"you have a cinch: play your highest allowed trump ({best}), not {card_str(card)}",
        allowed,
    )


def master_count(hand: list[int], trump: int, known: int) -> int:
    """Master trumps held: every higher trump is in the hand or known out (R-SURE)."""
    count = 0
    c = trump * 13 + 12
    low = trump * 13
    while c >= low:
        if c in hand:
            count += 1
        elif not (known >> c) & 1:
            break
        c -= 1
    return count


def sure_tricks(hand: list[int], trump: int, known: int, won: int) -> int:
    """Tricks already won plus master trumps held (R-SURE)."""
    return won + master_count(hand, trump, known)


def highest_trumps(allowed: list[int], hand: list[int], trump: int, known: int) -> list[int]:
    """The highest trump of ``allowed`` and those equivalent to it: lower ones reached
    with only own or known-out trumps in between (R-EQUIV)."""
    hi = max(allowed)
    out = [hi]
    c = hi - 1
    low = trump * 13
    while c >= low:
        if c in allowed:
            out.append(c)
        elif not ((known >> c) & 1 or c in hand):
            break
        c -= 1
    return out


@mypyc_attr(allow_interpreted_subclasses=True)  # compiled (setup.py); subclass freely
class StandardCinch:
    """R-SURE with the obligations R-CINCH-LEAD, R-CINCH-FOLLOW and R-CINCH-LAST."""

    enabled = True

    def min_won(self, hand: list[int], trump: int) -> int:
        # Masters are trumps held, and no trump joins a hand after the draw.
        low = trump * 13
        held = 0
        for c in hand:  # five cards: a native scan beats two calls of bisect
            if low <= c < low + 13:
                held += 1
        return CINCH - held if held < CINCH else 0

    def has_cinch(self, hand: list[int], trump: int, known: int, won: int) -> bool:
        if won >= CINCH:
            return True
        need = CINCH - won
        c = trump * 13 + 12
        low = trump * 13
        while c >= low:
            if c in hand:
                need -= 1
                if not need:
                    return True
            elif not (known >> c) & 1:
                return False
            c -= 1
        return False

    def narrow(
        self,
        legal: list[int],
        hand: list[int],
        trick: list[int],
        trump: int,
        known: int,
        last: bool,
    ) -> list[int]:
        if last and trick:
            return legal  # R-CINCH-LAST: the ordinary obligations only
        trumps = [c for c in legal if c // 13 == trump]
        if not trumps:
            return legal  # following suit keeps priority; no trump allowed
        return highest_trumps(trumps, hand, trump, known)

    def refuse(self, card: int, allowed: list[int], trick: list[int], trump: int) -> RuleViolation:
        return cinch_refusal(card, allowed, trick)
