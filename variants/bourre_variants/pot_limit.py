"""``pot-limit`` (seeds 001, 004): a zero-trick or renege payment is capped."""

from __future__ import annotations

from collections.abc import Callable

from pydantic import BaseModel, ConfigDict, Field

from bourre.rules.hookspec import PenaltyFn
from bourre.rules.money import Amount, AmountField
from bourre.rules.settings import TableSettings
from bourre.rules.variant import Variant, hookimpl


class PotLimitSettings(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    limit: AmountField = Field(
        gt=0,
        description="The most a bourré or renege payment can be, e.g. 10 or '5/2' (R-POT-LIMIT).",
    )


class PotLimit(Variant):
    name = "pot-limit"
    summary = "A bourré or renege payment is min(P, limit)."
    Settings = PotLimitSettings
    rules = {
        "bourre_penalty": [
            (
                "R-POT-LIMIT",
                "Each active player with 0 tricks is bourré, and each renege costs: the pot at"
                " stake P, but never more than the limit {settings.limit}: min(P, {settings.limit}).",
            )
        ]
    }

    @hookimpl
    def bourre_penalty(self, table: TableSettings) -> PenaltyFn:
        limit: Amount = self.settings.limit  # type: ignore[attr-defined]

        def capped(pot_at_stake: Amount) -> Amount:
            return min(pot_at_stake, limit)

        return capped


@hookimpl
def bourre_register_variants(register: Callable[[type[Variant]], None]) -> None:
    register(PotLimit)
