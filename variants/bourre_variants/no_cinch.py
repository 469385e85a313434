"""``no-cinch``: the profile names cinch as a choice; this house plays without it."""

from __future__ import annotations

from collections.abc import Callable

from bourre.rules import Ruling
from bourre.rules.settings import TableSettings
from bourre.rules.variant import Variant, hookimpl

TEXTS = [
    (
        "R-NO-CINCH",
        "There is no cinch: a player sure of the pot has only the ordinary obligations.",
    )
]


class NoCinch:
    """No cinch and no cinch obligations (R-NO-CINCH)."""

    def has_cinch(self, hand: tuple[int, ...], trump: int, known: frozenset[int], won: int) -> bool:
        return False

    def narrow(
        self,
        ruling: Ruling,
        hand: tuple[int, ...],
        trick: tuple[int, ...],
        trump: int,
        known: frozenset[int],
        last: bool,
    ) -> Ruling:
        return ruling


class NoCinchVariant(Variant):
    name = "no-cinch"
    summary = "No cinch obligations."
    rules = {"bourre_cinch": TEXTS}

    @hookimpl
    def bourre_cinch(self, table: TableSettings) -> NoCinch:
        return NoCinch()


@hookimpl
def bourre_register_variants(register: Callable[[type[Variant]], None]) -> None:
    register(NoCinchVariant)
