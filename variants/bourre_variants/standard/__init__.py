"""The documented profile (R-SESSION …): 5 players, single ante, obligatory play and
cinch.  An ordinary plugin: every other built-in variant builds on it.  Each rule's
text lives in the module that enforces it (``obligations.TEXTS`` beside ``follow`` …)."""

from __future__ import annotations

from collections.abc import Callable

from bourre.rules.hookspec import LeadFn, NextDealerFn, PayoutFn, PenaltyFn, SettleFn, TrickWinnerFn
from bourre.rules.settings import TableSettings
from bourre.rules.variant import Variant, hookimpl
from bourre_variants.standard import (
    cinch,
    deal,
    decisions,
    draw,
    lead,
    obligations,
    payout,
    tricks,
)


class Standard(Variant):
    """The documented 5-player profile."""

    name = "standard"
    summary = "The documented profile: single ante, obligatory play, cinch."
    builds_on = ()
    rules = {
        "general": [
            ("R-SEAT", "Seats 0…{last_seat} clockwise; play, dealing and decisions go clockwise."),
            ("R-DECK", "52 cards, no jokers; A K Q J 10 9 … 2 high to low."),
            (
                "R-SESSION",
                "{table.players} players, each starting with a balance of {table.balance}"
                " (negative balances allowed); a session is {table.hands} hands.",
            ),
            ("R-DEALER", "Seat {table.first_dealer} deals hand 1; then the left neighbour deals."),
        ],
        "bourre_hand_size": [("R-DEAL-SIZE", "Each player is dealt 5 cards; there are 5 tricks.")],
        "bourre_ante": payout.ANTE_TEXTS,
        "bourre_deal": deal.TEXTS,
        "bourre_decisions": decisions.TEXTS,
        "bourre_draw": draw.TEXTS,
        "bourre_lead": lead.TEXTS,
        "bourre_follow": obligations.TEXTS,
        "bourre_cinch": cinch.TEXTS,
        "bourre_trick_winner": tricks.TEXTS,
        "bourre_penalty": payout.PENALTY_TEXTS,
        "bourre_payout": payout.PAYOUT_TEXTS,
        "bourre_next_dealer": payout.DEALER_TEXTS,
        "bourre_settle": payout.SETTLE_TEXTS,
    }

    @hookimpl
    def bourre_hand_size(self, table: TableSettings) -> int:
        return 5

    @hookimpl
    def bourre_ante(self, table: TableSettings) -> payout.StandardAnte:
        return payout.StandardAnte()

    @hookimpl
    def bourre_deal(self, table: TableSettings, hand_size: int) -> deal.StandardDeal:
        return deal.StandardDeal(hand_size)

    @hookimpl
    def bourre_decisions(self, table: TableSettings) -> decisions.Sequential:
        return decisions.Sequential()

    @hookimpl
    def bourre_draw(self, table: TableSettings, hand_size: int) -> draw.Draw:
        return draw.Draw(hand_size)

    @hookimpl
    def bourre_lead(self, table: TableSettings) -> LeadFn:
        return lead.make_lead(table.players)

    @hookimpl
    def bourre_follow(self, table: TableSettings) -> obligations.StandardFollow:
        return obligations.StandardFollow()

    @hookimpl
    def bourre_cinch(self, table: TableSettings) -> cinch.StandardCinch:
        return cinch.StandardCinch()

    @hookimpl
    def bourre_trick_winner(self, table: TableSettings) -> TrickWinnerFn:
        return tricks.trick_winner

    @hookimpl
    def bourre_penalty(self, table: TableSettings) -> PenaltyFn:
        return payout.full_pot

    @hookimpl
    def bourre_payout(self, table: TableSettings) -> PayoutFn:
        return payout.payout

    @hookimpl
    def bourre_next_dealer(self, table: TableSettings) -> NextDealerFn:
        return payout.make_next_dealer(table.players)

    @hookimpl
    def bourre_settle(self, table: TableSettings) -> SettleFn:
        return payout.settle


@hookimpl
def bourre_register_variants(register: Callable[[type[Variant]], None]) -> None:
    register(Standard)
