"""The ordinary obligations of a player (R-FOLLOW, R-TRUMP, R-DISCARD; a lead is free,
R-LEAD): their
text, their code, and the reason of every legal set in the table's words.

A pure function of the hand, the trick so far and the trump suit: the legal cards
are never none and always within the hand, and the reason that decided them is also
the refusal of every other card.
"""

from __future__ import annotations

from bourre.rules import Reason, Ruling
from bourre.rules.cards import SUIT_NAMES, card_symbol, suit_of

TEXTS = [
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


def names(cards: tuple[int, ...]) -> str:
    """Cards as a player sees them: ``A♥ 5♥``."""
    return " ".join(card_symbol(c) for c in cards)


def highest(trick: tuple[int, ...], suit: int) -> int | None:
    """The highest card of ``suit`` on the trick, if any."""
    return max((c for c in trick if suit_of(c) == suit), default=None)


def follow(hand: tuple[int, ...], trick: tuple[int, ...], trump: int) -> Ruling:
    """The legal cards of ``hand`` on ``trick`` under the ordinary obligations, and why.

    Leading is free (R-LEAD).  R-FOLLOW: holding the led suit, play it, and beat the
    trick's winning card when it is of the led suit and you can.  R-TRUMP: without
    it, trump, beating the highest trump on the trick when you can, else
    under-trump.  R-DISCARD: with neither, any card.
    """
    if not trick:
        return Ruling(hand, Reason("R-LEAD", "leading is free: any card may be led"))
    led = suit_of(trick[0])
    led_name, trumps_name = SUIT_NAMES[led], SUIT_NAMES[trump]
    trumped = led != trump and highest(trick, trump) is not None
    of_led = tuple(c for c in hand if suit_of(c) == led)
    if of_led:
        if trumped:
            return Ruling(
                of_led,
                Reason(
                    "R-FOLLOW",
                    f"{led_name} were led and you hold {led_name}: play one; the trick is"
                    f" trumped, so any of them will do ({names(of_led)})",
                ),
            )
        winning = highest(trick, led)
        assert winning is not None
        beating = tuple(c for c in of_led if c > winning)
        if beating:
            return Ruling(
                beating,
                Reason(
                    "R-FOLLOW",
                    f"{led_name} were led and {card_symbol(winning)} is winning: holding a higher"
                    f" {led_name[:-1]}, you must beat it ({names(beating)})",
                ),
            )
        return Ruling(
            of_led,
            Reason(
                "R-FOLLOW",
                f"{led_name} were led and you hold {led_name}: play one ({names(of_led)})",
            ),
        )
    trumps = tuple(c for c in hand if suit_of(c) == trump)
    if not trumps:
        return Ruling(
            hand,
            Reason(
                "R-DISCARD", f"with neither {led_name} nor {trumps_name}, any card may be played"
            ),
        )
    top = highest(trick, trump) if trumped else None
    if top is None:
        return Ruling(
            trumps,
            Reason(
                "R-TRUMP",
                f"without {led_name} you must play one of your {trumps_name} ({names(trumps)})",
            ),
        )
    over = tuple(c for c in trumps if c > top)
    if over:
        return Ruling(
            over,
            Reason(
                "R-TRUMP",
                f"without {led_name} you must trump, beating {card_symbol(top)} when you can"
                f" ({names(over)})",
            ),
        )
    return Ruling(
        trumps,
        Reason(
            "R-TRUMP",
            f"without {led_name} you must trump, and under-trump when you cannot beat"
            f" {card_symbol(top)} ({names(trumps)})",
        ),
    )


class StandardFollow:
    """The follow rule of the standard profile (R-LEAD, R-FOLLOW, R-TRUMP, R-DISCARD)."""

    def legal(self, hand: tuple[int, ...], trick: tuple[int, ...], trump: int) -> Ruling:
        return follow(hand, trick, trump)
