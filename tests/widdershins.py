"""A third-party variant for the tests: play goes to the right (R-LEAD changed by a
plugin: whole sessions, the stepped state, the solver's plain search, the Monte Carlo
bot's worlds and their rollouts ask it through Python on the kernel)."""

from __future__ import annotations

from typing import Any

from bourre.rules.settings import TableSettings
from bourre.rules.variant import Variant, hookimpl


class Widdershins(Variant):
    """A third-party house where play goes to the right: the dealer's right-hand
    neighbour among the active seats leads first, and the others follow anticlockwise."""

    name = "widdershins"
    summary = "play goes to the right"
    builds_on = ("standard",)
    rules = {"bourre_lead": [("R-LEAD", "Play goes to the right, the dealer's right first.")]}

    @hookimpl
    def bourre_lead(self, table: TableSettings) -> Any:
        n = table.players

        def lead(active: tuple[int, ...], dealer: int, winner: int | None) -> tuple[int, ...]:
            right = sorted(active, key=lambda s: (dealer - 1 - s) % n)
            i = 0 if winner is None else right.index(winner)
            return tuple(right[i:] + right[:i])

        return lead
