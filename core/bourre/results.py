"""What a finished hand did, as the game keeps it: every card played
(:class:`PlayLog`) and the hand's result (:class:`HandResult`), from which the hand
records of :mod:`bourre.records` are made."""

from __future__ import annotations

import math
from typing import NamedTuple

from bourre.money import Amount
from bourre.rules import HandOutcome
from bourre.state import HandState, TrickLog

__all__ = ["HandResult", "PlayLog", "SessionTally"]


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


class SessionTally:
    """What a comparison keeps of each hand of a session (``bourre compare``'s
    summary): pass it as ``on_hand``, one compiled call per hand.  Per hand: the pot
    at stake, the players, the bourré players (R-BOURRE), whether the pot carried (no
    winner), the dealer and each seat's change; over the session: cards played and
    those played with a cinch (R-SURE)."""

    def __init__(self, start: float, n: int) -> None:
        self.prev: list[float] = [start] * n
        self.pots: list[float] = []
        self.active: list[int] = []
        self.bourre: list[int] = []
        self.carried: list[int] = []
        self.dealers: list[int] = []
        self.deltas: list[list[float]] = []
        self.plays = 0
        self.cinch = 0

    def __call__(self, h: HandResult) -> None:
        hs = h.state
        for _, _, cards, _ in hs.completed:  # the tricks as played: no TrickLog made
            self.plays += len(cards)
        self.cinch += hs.cinch_plays
        self.pots.append(float(hs.pot_at_stake))
        self.active.append(len(hs.active))
        self.bourre.append(len(h.outcome.bourre))
        self.carried.append(1 if h.outcome.winner is None else 0)
        self.dealers.append(h.dealer)
        prev = self.prev
        now = [float(b) for b in h.balances]
        self.deltas.append([now[s] - prev[s] for s in range(len(now))])
        self.prev = now

    def places(self) -> list[float]:
        """Chips won over the session by place from the dealer (0 = the dealer, 1 =
        the dealer's left …), each an exactly rounded sum (``math.fsum``)."""
        n = len(self.prev)
        deltas, dealers = self.deltas, self.dealers
        return [
            math.fsum([deltas[k][(dealers[k] + p) % n] for k in range(len(deltas))])
            for p in range(n)
        ]
