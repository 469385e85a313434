"""``optional-undertrump`` (seed 004's wording): unable to beat a trump already on the
trick, a player without the led suit may discard instead of under-trumping."""

from __future__ import annotations

from collections.abc import Callable

from bourre.rules import FollowFn
from bourre.settings import TableSettings
from bourre.variant import Variant, hookimpl
from bourre_variants.standard.obligations import follow_optional_undertrump


class OptionalUndertrump(Variant):
    name = "optional-undertrump"
    summary = "Unable to beat a trump on the trick, you may discard instead of under-trumping."
    rules = {
        "bourre_follow": [
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
                "R-OPTIONAL-UNDERTRUMP",
                "Without the led suit, play a trump, beating the highest trump on the trick when"
                " you can; unable to beat it, you may play a lower trump or any other card.",
            ),
            ("R-DISCARD", "With neither the led suit nor trumps, any card may be played."),
        ]
    }

    @hookimpl
    def bourre_follow(self, table: TableSettings) -> FollowFn:
        return follow_optional_undertrump


@hookimpl
def bourre_register_variants(register: Callable[[type[Variant]], None]) -> None:
    register(OptionalUndertrump)
