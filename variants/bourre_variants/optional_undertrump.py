"""``optional-undertrump`` (seed 004's wording): unable to beat a trump already on the
trick, a player without the led suit may discard instead of under-trumping."""

from __future__ import annotations

from collections.abc import Callable

from bourre.rules import FollowFn
from bourre.settings import TableSettings
from bourre.variant import Variant, hookimpl
from bourre_variants.standard import Standard
from bourre_variants.standard.obligations import follow_optional_undertrump


class OptionalUndertrump(Variant):
    name = "optional-undertrump"
    summary = "Unable to beat a trump on the trick, you may discard instead of under-trumping."
    rules = {
        # The standard obligations, with R-TRUMP (and so R-DISCARD) replaced.
        "bourre_follow": [
            *(rt for rt in Standard.rules["bourre_follow"] if rt[0] in ("R-LEAD", "R-FOLLOW")),
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
