"""What a hand logs as it is played: each card with its legal set and why
(:class:`PlayLog`), the antes and plays of the hand under way (:class:`HandLog`), what
a table told of it (:class:`Told`), and a finished hand's result (:class:`HandResult`,
what the hand record is made from: :mod:`bourre.referee.records`)."""

from __future__ import annotations

import copy
from dataclasses import dataclass, field

from bourre.game.actions import CARDS, TablePlay
from bourre.game.legal import Legal
from bourre.rules import HandOutcome, Reason
from bourre.rules.hand import HandState, Reshuffle, TrickLog
from bourre.rules.money import Amount

__all__ = ["HandLog", "HandResult", "PlayLog", "Told"]


@dataclass
class Told:
    """What a table told the state of the hand now, besides its actions."""

    dealer: int | None = None
    pot: Amount | None = None
    reshuffle: Reshuffle | None = None
    seat: int = -1
    """The seat chance waits on (its hand, or its replacements)."""
    discards: tuple[int, ...] = ()
    """That seat's discards, while chance waits for its replacements."""
    after_draw: tuple[int, ...] | None = None
    """The hand that seat held after its exchange, shown before it: its discards then
    tell its deal (R-DRAW)."""
    premature: list[int] = field(default_factory=list)
    """Seats that announced out of turn this hand (R-PREMATURE)."""

    def copy(self) -> Told:
        c = copy.copy(self)
        c.premature = list(self.premature)
        return c


@dataclass(frozen=True)
class PlayLog:
    """One card played, as the hand record reports it."""

    seat: int
    card: int
    legal: tuple[int, ...]
    cinch: bool
    renege: bool
    corrected: bool
    played_first: int | None = None
    """The illegal card taken back, for a corrected play."""
    why: Reason | None = None
    """For a renege or a correction: why the illegal card was not allowed."""


@dataclass
class HandLog:
    """A hand's antes and plays as its record reports them; the reneges and forfeits
    the payout reads (R-RENEGE, R-CORRECTED)."""

    antes: list[Amount] = field(default_factory=list)
    ante_reasons: tuple[Reason, ...] = ()
    """Why the seats anted what they did (kept when the state records)."""
    hands_after: list[list[int]] = field(default_factory=list)
    """The hands after the draw (kept when the state records)."""
    plays: list[PlayLog] = field(default_factory=list)
    """Every card played, in order (kept when the state records)."""
    forfeits: set[int] = field(default_factory=set)
    reneges: list[int] = field(default_factory=list)

    def copy(self) -> HandLog:
        return HandLog(
            list(self.antes), self.ante_reasons, [list(h) for h in self.hands_after],
            list(self.plays), set(self.forfeits), list(self.reneges),
        )  # fmt: skip

    def start_play(self, hands_after: list[list[int]]) -> None:
        self.hands_after, self.plays, self.forfeits, self.reneges = hands_after, [], set(), []

    def played(
        self, legal: Legal, card: int, renege: bool, first: int | None, record: bool
    ) -> object:
        """A card played (a renege, or a correction of ``first``): logged; the history's
        item for it."""
        seat, corrected = legal.seat, first is not None
        if record:
            illegal = first if first is not None else card if renege else None
            why = legal.reason_for(illegal) if illegal is not None else None
            self.plays.append(
                PlayLog(seat, card, legal.cards, legal.cinch, renege, corrected, first, why)
            )
        if not (corrected or renege):
            return CARDS[card]
        self.forfeits.add(seat)
        if renege:
            self.reneges.append(seat)
        return TablePlay(card, None) if first is None else TablePlay(first, card)


@dataclass
class HandResult:
    """What a hand did (the hand record is made from it, :mod:`bourre.referee.records`)."""

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
    ante_reasons: tuple[Reason, ...] = ()
    """Why the seats anted what they did (kept when the state records)."""

    def __repr__(self) -> str:
        return f"HandResult(number={self.number}, dealer={self.dealer}, outcome={self.outcome!r})"

    @property
    def pot_at_stake(self) -> Amount:
        return self.state.pot_at_stake

    @property
    def tricks(self) -> list[TrickLog]:
        return self.state.tricks
