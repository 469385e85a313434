"""The ordinary obligations of a player (R-LEAD, R-FOLLOW, R-TRUMP, R-DISCARD): their
text, their code and the words of their refusals.

Pure functions of the hand, the trick so far and the trump suit; the legal set is
never empty and always within the hand.  The hand and the legal set are bit masks
(:mod:`bourre.cards`): a suit is ``hand & (0x1FFF << 13 * suit)`` and the cards above
``c`` are ``m >> (c + 1) << (c + 1)``, a few integer operations for every card played,
compiled (setup.py).  :func:`follow_cards` answers for a list of cards.
"""

from __future__ import annotations

from typing import Final

from mypy_extensions import i64, mypyc_attr

from bourre.cards import SUIT_NAMES, card_str, cards_of, mask_of
from bourre.components import FollowComponent
from bourre.rules import RuleViolation

_SUIT: Final = 0x1FFF

TEXTS = [
    (
        "R-LEAD",
        "The first active player to the dealer's left leads; the trick's winner leads next.",
    ),
    (
        "R-FOLLOW",
        "Holding the led suit, play it; if the winning card is of the led suit, beat it"
        " when you can. After a trump on the trick, any card of the led suit.",
    ),
    (
        "R-TRUMP",
        "Without the led suit, play a trump; beat the highest trump on the trick when you"
        " can, else under-trump (obligatory).",
    ),
    ("R-DISCARD", "Only with neither the led suit nor trumps may any card be played."),
]
"""The rules of this module, as ``bourre rules`` prints them."""

OPTIONAL_UNDERTRUMP_TEXTS = [
    *TEXTS[:2],
    (
        "R-OPTIONAL-UNDERTRUMP",
        "Without the led suit, play a trump, beating the highest trump on the trick when"
        " you can; unable to beat it, you may play a lower trump or any other card.",
    ),
    ("R-DISCARD", "With neither the led suit nor trumps, any card may be played."),
]
"""``optional-undertrump``: R-TRUMP (and so R-DISCARD) replaced."""


def _facts(trick: list[int], trump: int) -> tuple[int, int, int]:
    """The first card of the led suit, the highest card of it on the trick and the
    highest trump on the trick when another suit was led (-1 if none)."""
    # machine integers, compiled (cards and suits are small): no tagged-int checks
    lo: i64 = trick[0] // 13 * 13
    t0: i64 = trump * 13
    win: i64 = -1  # the highest card of the led suit on the trick (trumps, if trumps led)
    top: i64 = -1  # the highest trump on the trick, when another suit was led
    for x in trick:
        c: i64 = x
        if lo <= c < lo + 13:
            if c > win:
                win = c
        elif t0 <= c < t0 + 13 and c > top:
            top = c
    return lo, win, top


def follow(hand: int, trick: list[int], trump: int) -> int:
    """The legal cards (a mask) of ``hand`` (a mask) under the ordinary obligations.

    Leading is free.  R-FOLLOW: holding the led suit, play it, and beat the winning
    card when it is of the led suit and you can.  R-TRUMP: without it, trump, beating
    the highest trump on the trick when you can, else under-trump.  R-DISCARD: with
    neither, any card.
    """
    if not trick:
        return hand
    lo, win, top = _facts(trick, trump)
    led = hand & (_SUIT << lo)
    if led:  # R-FOLLOW
        if top >= 0:
            return led  # trumped: any card of the led suit
        above = led >> (win + 1) << (win + 1)
        return above if above else led
    trumps = hand & (_SUIT << (trump * 13))
    if not trumps:
        return hand  # R-DISCARD
    if top < 0:
        return trumps  # R-TRUMP
    above = trumps >> (top + 1) << (top + 1)
    return above if above else trumps  # beat it, else under-trump


def follow_optional_undertrump(hand: int, trick: list[int], trump: int) -> int:
    """As :func:`follow`, but without the led suit and unable to beat a trump already
    on the trick, a player may discard instead of under-trumping."""
    if not trick:
        return hand
    lo, _, top = _facts(trick, trump)
    if hand & (_SUIT << lo):
        return follow(hand, trick, trump)
    trumps = hand & (_SUIT << (trump * 13))
    if not trumps:
        return hand
    if top < 0:
        return trumps
    above = trumps >> (top + 1) << (top + 1)
    return above if above else hand


def follow_cards(hand: list[int], trick: list[int], trump: int) -> list[int]:
    """:func:`follow` for a list of cards: the legal ones, in the hand's order."""
    legal = follow(mask_of(hand), trick, trump)
    return [c for c in hand if (legal >> c) & 1]


def refusal(
    hand: int, trick: list[int], trump: int, card: int, optional_undertrump: bool = False
) -> RuleViolation:
    """Why ``card`` (held, not legal) may not be played, in the table's words."""
    lo, win, top = _facts(trick, trump)
    lead = lo // 13
    led = SUIT_NAMES[lead]
    legal = cards_of(
        (follow_optional_undertrump if optional_undertrump else follow)(hand, trick, trump)
    )
    allowed = " ".join(card_str(c) for c in legal)
    if hand & (_SUIT << lo):
        if card // 13 == lead:
            return RuleViolation(
                "R-FOLLOW",
                f"{card_str(card)} does not beat {card_str(win)}: holding a higher {led[:-1]},"
                f" you must beat it ({allowed})",
                legal,
            )
        return RuleViolation(
            "R-FOLLOW", f"{led} were led and you hold {led}: play one ({allowed})", legal
        )
    trumps = SUIT_NAMES[trump]
    if card // 13 == trump:
        return RuleViolation(
            "R-OPTIONAL-UNDERTRUMP" if optional_undertrump else "R-TRUMP",
            f"{card_str(card)} does not beat {card_str(top)}: holding a higher trump, you must"
            f" beat it ({allowed})",
            legal,
        )
    if top >= 0:
        return RuleViolation(
            "R-TRUMP",
            f"without {led} you must trump, and under-trump when you cannot beat"
            f" {card_str(top)} ({allowed})",
            legal,
        )
    return RuleViolation(
        "R-OPTIONAL-UNDERTRUMP" if optional_undertrump else "R-TRUMP",
        f"without {led} you must play one of your {trumps} ({allowed})",
        legal,
    )


@mypyc_attr(allow_interpreted_subclasses=True)  # compiled (setup.py); subclass freely
class StandardFollow(FollowComponent):
    """The follow rule of the standard profile (R-FOLLOW, R-TRUMP, R-DISCARD)."""

    def legal(self, hand: int, trick: list[int], trump: int) -> int:
        return follow(hand, trick, trump)

    def refuse(self, hand: int, trick: list[int], trump: int, card: int) -> RuleViolation:
        return refusal(hand, trick, trump, card)


@mypyc_attr(allow_interpreted_subclasses=True)  # compiled (setup.py); subclass freely
class OptionalUndertrumpFollow(FollowComponent):
    """``optional-undertrump``'s follow rule (R-FOLLOW, R-OPTIONAL-UNDERTRUMP)."""

    def legal(self, hand: int, trick: list[int], trump: int) -> int:
        return follow_optional_undertrump(hand, trick, trump)

    def refuse(self, hand: int, trick: list[int], trump: int, card: int) -> RuleViolation:
        return refusal(hand, trick, trump, card, optional_undertrump=True)
