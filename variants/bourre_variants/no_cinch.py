"""``no-cinch``: the profile names cinch as a choice; this house plays without it."""

from __future__ import annotations

from collections.abc import Callable

from bourre.cards import cards_of
from bourre.components import CinchComponent
from bourre.rules import CinchPolicy, RuleViolation
from bourre.settings import TableSettings
from bourre.variant import Variant, hookimpl

TEXTS = [
    (
        "R-NO-CINCH",
        "There is no cinch: a player sure of the pot has only the ordinary obligations.",
    )
]


class NoCinch(CinchComponent):
    """No cinch and no cinch obligations (R-NO-CINCH)."""

    enabled = False

    def min_won(self, hand: int, trump: int) -> int:
        return 53  # never: more tricks than any hand has cards

    def has_cinch(self, hand: int, trump: int, known: int, won: int) -> bool:
        return False

    def narrow(
        self, legal: int, hand: int, trick: list[int], trump: int, known: int, last: bool
    ) -> int:
        return legal

    def refuse(self, card: int, allowed: int, trick: list[int], trump: int) -> RuleViolation:
        return RuleViolation("R-NO-CINCH", "no cinch obligation applies here", cards_of(allowed))


class NoCinchVariant(Variant):
    name = "no-cinch"
    summary = "No cinch obligations."
    rules = {"bourre_cinch": TEXTS}

    @hookimpl
    def bourre_cinch(self, table: TableSettings) -> CinchPolicy:
        return NoCinch()


@hookimpl
def bourre_register_variants(register: Callable[[type[Variant]], None]) -> None:
    register(NoCinchVariant)
