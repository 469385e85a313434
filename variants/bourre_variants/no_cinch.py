"""``no-cinch``: the profile names cinch as a choice; this house plays without it."""

from __future__ import annotations

from collections.abc import Callable

from bourre.rules import CinchPolicy
from bourre.settings import TableSettings
from bourre.variant import Variant, hookimpl
from bourre_variants.standard.cinch import NoCinch


class NoCinchVariant(Variant):
    name = "no-cinch"
    summary = "No cinch obligations."
    rules = {
        "bourre_cinch": [
            (
                "R-NO-CINCH",
                "There is no cinch: a player sure of the pot has only the ordinary obligations.",
            )
        ]
    }

    @hookimpl
    def bourre_cinch(self, table: TableSettings) -> CinchPolicy:
        return NoCinch()


@hookimpl
def bourre_register_variants(register: Callable[[type[Variant]], None]) -> None:
    register(NoCinchVariant)
