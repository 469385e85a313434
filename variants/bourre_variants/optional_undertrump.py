"""``optional-undertrump`` (seed 004's wording): unable to beat a trump already on the
trick, a player without the led suit may discard instead of under-trumping
(R-OPTIONAL-UNDERTRUMP, which replaces R-TRUMP)."""

from __future__ import annotations

from collections.abc import Callable

from bourre.rules import Reason, Ruling
from bourre.rules.cards import SUIT_NAMES, card_symbol, suit_of
from bourre.rules.settings import TableSettings
from bourre.rules.variant import Variant, hookimpl
from bourre_variants.standard import obligations
from bourre_variants.standard.obligations import highest, names

TEXTS = [
    obligations.TEXTS[0],  # R-FOLLOW
    (
        "R-OPTIONAL-UNDERTRUMP",
        "Without the led suit, play a trump, beating the highest trump on the trick when"
        " you can; unable to beat it, you may play a lower trump or any other card.",
    ),
    ("R-DISCARD", "With neither the led suit nor trumps, any card may be played."),
]
"""The obligations of this house, as ``bourre rules`` prints them: R-TRUMP replaced."""


def follow(hand: tuple[int, ...], trick: tuple[int, ...], trump: int) -> Ruling:
    """The standard obligations, except that a player without the led suit who cannot
    beat a trump already on the trick may play any card (R-OPTIONAL-UNDERTRUMP)."""
    ordinary = obligations.follow(hand, trick, trump)
    if ordinary.reason.rule != "R-TRUMP":
        return ordinary  # a lead, the led suit held, or neither it nor trumps
    led = SUIT_NAMES[suit_of(trick[0])]
    trumps = tuple(c for c in hand if suit_of(c) == trump)
    top = highest(trick, trump)
    if top is None:
        words = f"without {led} you must play one of your {SUIT_NAMES[trump]} ({names(trumps)})"
        return Ruling(trumps, Reason("R-OPTIONAL-UNDERTRUMP", words))
    over = tuple(c for c in trumps if c > top)
    if over:
        words = (
            f"without {led} you must trump, beating {card_symbol(top)} when you can ({names(over)})"
        )
        return Ruling(over, Reason("R-OPTIONAL-UNDERTRUMP", words))
    words = (
        f"without {led} and unable to beat {card_symbol(top)}, you may under-trump or play"
        " any other card"
    )
    return Ruling(hand, Reason("R-OPTIONAL-UNDERTRUMP", words))


class OptionalUndertrumpFollow:
    """The follow rule of :func:`follow`."""

    def legal(self, hand: tuple[int, ...], trick: tuple[int, ...], trump: int) -> Ruling:
        return follow(hand, trick, trump)


class OptionalUndertrump(Variant):
    name = "optional-undertrump"
    summary = "Unable to beat a trump on the trick, you may discard instead of under-trumping."
    rules = {"bourre_follow": TEXTS}

    @hookimpl
    def bourre_follow(self, table: TableSettings) -> OptionalUndertrumpFollow:
        return OptionalUndertrumpFollow()


@hookimpl
def bourre_register_variants(register: Callable[[type[Variant]], None]) -> None:
    register(OptionalUndertrump)
