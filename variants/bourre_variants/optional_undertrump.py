"""``optional-undertrump`` (seed 004's wording): unable to beat a trump already on the
trick, a player without the led suit may discard instead of under-trumping."""

from __future__ import annotations

from collections.abc import Callable

from bourre.rules import FollowRule
from bourre.settings import TableSettings
from bourre.variant import Variant, hookimpl
from bourre_variants.standard.obligations import OPTIONAL_UNDERTRUMP_TEXTS, OptionalUndertrumpFollow


class OptionalUndertrump(Variant):
    name = "optional-undertrump"
    summary = "Unable to beat a trump on the trick, you may discard instead of under-trumping."
    rules = {"bourre_follow": OPTIONAL_UNDERTRUMP_TEXTS}

    @hookimpl
    def bourre_follow(self, table: TableSettings) -> FollowRule:
        return OptionalUndertrumpFollow()


@hookimpl
def bourre_register_variants(register: Callable[[type[Variant]], None]) -> None:
    register(OptionalUndertrump)
