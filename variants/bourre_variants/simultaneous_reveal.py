"""``simultaneous-reveal`` (seed 004): everyone decides at once, then those who play
exchange in turn from the dealer's left."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from bourre.rules import DECIDE, EXCHANGE, Turn
from bourre.rules.hand import HandState, PublicDecision
from bourre.rules.settings import TableSettings
from bourre.rules.variant import Variant, hookimpl
from bourre_variants.standard.decisions import ace_up, fold, refuse_pass

TEXTS = [
    (
        "R-SIMULTANEOUS",
        "Everyone decides at once, knowing only their own hand and the upcard; then"
        " those who play exchange in turn from the dealer's left. No premature"
        " announcement can arise.",
    ),
    ("R-PASS", "Passing gives up the hand and the ante already paid, with no other penalty."),
    ("R-ACE-UP", "With the ace of trumps up, the dealer must reveal play."),
    (
        "R-SIMULTANEOUS-NOBODY",
        "If nobody plays, the dealer is forced in without an exchange and takes the pot.",
    ),
    ("R-SOLE", "A sole participant takes the pot without play; nobody is bourré."),
]
"""The rules of this module, as ``bourre rules`` prints them."""


class Simultaneous:
    """All decide at once knowing only their hand and the upcard (each decision stays
    secret until everyone has decided); then the players exchange in turn.  If nobody
    plays, the dealer is forced in without an exchange (R-SIMULTANEOUS-NOBODY)."""

    announcements = False
    """Nobody announces in turn: no premature announcement can arise."""

    def turn(self, state: HandState) -> Turn | None:
        n, dealer = state.n, state.dealer
        k = state.step
        if k < n:  # the secret decisions, from the dealer's left
            s = (dealer + 1 + k) % n
            forced = "R-ACE-UP" if s == dealer and ace_up(state) else None
            return Turn(s, DECIDE, forced)
        if state.exchanging >= 0:
            return Turn(state.exchanging, EXCHANGE, None)
        return None

    def decide(self, state: HandState, seat: int, play: bool) -> None:
        dealer = state.dealer
        if not play and seat == dealer and ace_up(state):
            raise refuse_pass(seat, "R-ACE-UP")
        state.chosen[seat] = 1 if play else 0
        state.step += 1
        if state.step == state.n:  # everyone has decided: reveal
            if not any(c == 1 for c in state.chosen):
                state.chosen[dealer] = 1  # forced in, no exchange
                state.step = state.n + 1
            self._next(state, 0)

    def exchanged(self, state: HandState, seat: int, discards: Sequence[int]) -> None:
        state.decisions.append(PublicDecision(seat, True, len(discards)))
        state.exchanging = -1
        n = state.n
        self._next(state, (seat - state.dealer - 1) % n + 1)

    def _next(self, state: HandState, i: int) -> None:
        """Reveal seats from decision position ``i`` on: fold those who passed, up to
        the next who exchanges."""
        n, dealer = state.n, state.dealer
        nobody = state.step > n
        while i < n:
            s = (dealer + 1 + i) % n
            i += 1
            if state.chosen[s] == 1:
                state.active.append(s)
                if nobody and s == dealer:
                    state.decisions.append(PublicDecision(s, True, 0))
                    continue
                state.exchanging = s
                return
            fold(state, s)


class SimultaneousReveal(Variant):
    name = "simultaneous-reveal"
    summary = "Everyone decides at once (a chip in a closed fist); then players exchange in turn."
    rules = {"bourre_decisions": TEXTS}

    @hookimpl
    def bourre_decisions(self, table: TableSettings) -> Simultaneous:
        return Simultaneous()


@hookimpl
def bourre_register_variants(register: Callable[[type[Variant]], None]) -> None:
    register(SimultaneousReveal)
