"""``double-ante`` (seed 004): everyone antes every hand, and each player who plays
adds another ante before playing."""

from __future__ import annotations

from collections.abc import Callable

from bourre.rules import HandOutcome, Reason
from bourre.rules.money import Amount, chips
from bourre.rules.settings import TableSettings
from bourre.rules.variant import Variant, hookimpl


class DoubleAnte:
    """R-DOUBLE-ANTE: no exemptions; a second ante from each player who plays."""

    def hand_antes(
        self, n: int, ante: Amount, previous: HandOutcome | None, dealer: int
    ) -> list[Amount]:
        return [ante] * n

    def play_ante(self, ante: Amount) -> Amount:
        return ante

    def reasons(
        self, n: int, ante: Amount, previous: HandOutcome | None, dealer: int
    ) -> tuple[Reason, ...]:
        words = (
            f"every player antes {chips(ante)}, whatever the last hand; each player who"
            f" plays adds {chips(ante)} more"
        )
        return (Reason("R-DOUBLE-ANTE", words, ante),)


class DoubleAnteVariant(Variant):
    name = "double-ante"
    summary = "Everyone antes every hand; each player who plays adds a second ante."
    rules = {
        "bourre_ante": [
            (
                "R-DOUBLE-ANTE",
                "Every player antes {table.ante} at the start of every hand, whatever the last"
                " result (no exemptions); each player who plays (a dealer forced in included)"
                " adds another {table.ante} before playing. The pot at stake includes these.",
            )
        ]
    }

    @hookimpl
    def bourre_ante(self, table: TableSettings) -> DoubleAnte:
        return DoubleAnte()


@hookimpl
def bourre_register_variants(register: Callable[[type[Variant]], None]) -> None:
    register(DoubleAnteVariant)
