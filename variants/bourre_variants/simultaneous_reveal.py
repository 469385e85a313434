"""``simultaneous-reveal`` (seed 004): everyone decides at once, then those who play
exchange in turn from the dealer's left."""

from __future__ import annotations

from collections.abc import Callable

from bourre.rules import Agents, DecisionProcedure, Rules
from bourre.settings import TableSettings
from bourre.state import HandState
from bourre.variant import Variant, hookimpl
from bourre_variants.standard.draw import ACE, fold, join


class Simultaneous:
    """All decide at once knowing only their hand and the upcard; then the players
    exchange in turn.  If nobody plays, the dealer is forced in without an exchange
    (R-SIMULTANEOUS)."""

    announcements = False
    """Nobody announces in turn: no premature announcement can arise."""

    def __call__(self, state: HandState, agents: Agents, rules: Rules) -> None:
        n, dealer = state.n, state.dealer
        ace_up = state.upcard % 13 == ACE
        order = [(dealer + k) % n for k in range(1, n + 1)]
        chose = {
            s: agents.decide(state, s, "R-ACE-UP" if s == dealer and ace_up else None)
            for s in order
        }
        if ace_up and not chose[dealer]:
            from bourre.rules import RuleViolation

            raise RuleViolation(
                "R-ACE-UP", f"the dealer (seat {dealer}) must reveal play", ("play",)
            )
        nobody = not any(chose.values())
        for s in order:
            if chose[s]:
                join(state, agents, rules, s)
            elif nobody and s == dealer:
                join(state, agents, rules, s, exchange=False)  # forced in, no exchange
            else:
                fold(state, s)


class SimultaneousReveal(Variant):
    name = "simultaneous-reveal"
    summary = "Everyone decides at once (a chip in a closed fist); then players exchange in turn."
    rules = {
        "bourre_decisions": [
            (
                "R-SIMULTANEOUS",
                "Everyone decides at once, knowing only their own hand and the upcard; then"
                " those who play exchange in turn from the dealer's left. No premature"
                " announcement can arise.",
            ),
            (
                "R-PASS",
                "Passing gives up the hand and the ante already paid, with no other penalty.",
            ),
            ("R-ACE-UP", "With the ace of trumps up, the dealer must reveal play."),
            (
                "R-SIMULTANEOUS-NOBODY",
                "If nobody plays, the dealer is forced in without an exchange and takes the pot.",
            ),
            ("R-SOLE", "A sole participant takes the pot without play; nobody is bourré."),
        ]
    }

    @hookimpl
    def bourre_decisions(self, table: TableSettings) -> DecisionProcedure:
        return Simultaneous()


@hookimpl
def bourre_register_variants(register: Callable[[type[Variant]], None]) -> None:
    register(SimultaneousReveal)
