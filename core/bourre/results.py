"""What a finished hand did, as the game keeps it: every card played
(:class:`PlayLog`) and the hand's result (:class:`HandResult`), from which the hand
records of :mod:`bourre.records` are made."""

from __future__ import annotations

from typing import NamedTuple

from bourre.money import Amount
from bourre.rules import HandOutcome
from bourre.state import HandState, TrickLog

__all__ = ["HandResult", "PlayLog"]


class PlayLog(NamedTuple):
    """One card played, as the hand record reports it."""

    seat: int
    card: int
    legal: tuple[int, ...]
    cinch: bool
    renege: bool
    corrected: bool
    played_first: int | None = None
    """The illegal card taken back, for a corrected play."""


class HandResult:
    """What a hand did (the hand record is made from it, :mod:`bourre.records`).
    A plain compiled class (setup.py): made once per hand on the hot path."""

    number: int
    dealer: int
    state: HandState
    outcome: HandOutcome
    balances: list[Amount]
    """Balances after the hand's payments, before the next antes."""
    antes: list[Amount]
    hands_after_draw: list[list[int]]
    plays: list[PlayLog]
    """Every card played, in order (kept when the state records)."""

    def __init__(
        self,
        number: int,
        dealer: int,
        state: HandState,
        outcome: HandOutcome,
        balances: list[Amount],
        antes: list[Amount],
        hands_after_draw: list[list[int]],
        plays: list[PlayLog] | None = None,
    ) -> None:
        self.number, self.dealer, self.state, self.outcome = number, dealer, state, outcome
        self.balances, self.antes, self.hands_after_draw = balances, antes, hands_after_draw
        self.plays = [] if plays is None else plays

    def __repr__(self) -> str:
        return f"HandResult(number={self.number}, dealer={self.dealer}, outcome={self.outcome!r})"

    @property
    def pot_at_stake(self) -> Amount:
        return self.state.pot_at_stake

    @property
    def tricks(self) -> list[TrickLog]:
        return self.state.tricks


def tally(h: HandResult) -> tuple[int, int, float, int, int, bool, list[float]]:
    """The figures a comparison keeps of a hand, in one compiled call: cards played,
    those played with a cinch (R-SURE), the pot at stake, the players, the bourré
    players (R-BOURRE), whether the pot carried (no winner) and the balances after."""
    hs = h.state
    plays = 0
    for t in hs.tricks:
        plays += len(t.plays)
    return (
        plays,
        hs.cinch_plays,
        float(hs.pot_at_stake),
        len(hs.active),
        len(h.outcome.bourre),
        h.outcome.winner is None,
        [float(b) for b in h.balances],
    )
