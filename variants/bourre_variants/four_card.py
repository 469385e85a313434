"""``four-card`` (seed 004): four cards each, four tricks."""

from __future__ import annotations

from collections.abc import Callable

from bourre.rules.settings import TableSettings
from bourre.rules.variant import Variant, hookimpl


class FourCard(Variant):
    name = "four-card"
    summary = "Four cards each; the dealer's fourth is the upcard; four tricks."
    rules = {
        "bourre_hand_size": [
            (
                "R-FOUR-CARD",
                "Each player is dealt 4 cards (the dealer's fourth is the upcard); 0 to 4 cards"
                " are exchanged; there are 4 tricks. The single most tricks still wins and a"
                " cinch is still 3 sure tricks.",
            )
        ]
    }

    @hookimpl
    def bourre_hand_size(self, table: TableSettings) -> int:
        return 4


@hookimpl
def bourre_register_variants(register: Callable[[type[Variant]], None]) -> None:
    register(FourCard)
