"""What the payout is given and what it answers (:class:`PlayResult`,
:class:`HandOutcome`): plain records, compiled (setup.py) so that the game and the
built-in payout read their fields directly.  :mod:`bourre.rules` exports both."""

from __future__ import annotations

from dataclasses import dataclass, field

from bourre.money import Amount

__all__ = ["HandOutcome", "PlayResult"]


@dataclass(slots=True)
class PlayResult:
    """What the payout needs to know of a hand once it is played."""

    n: int
    pot_at_stake: Amount
    active: list[int]
    tricks_won: list[int]
    forfeits: set[int]
    """Seats that lost the right to the pot (R-CORRECTED, R-RENEGE)."""
    reneges: list[int]
    """One seat per renege, in play order (R-RENEGE)."""
    sole: bool
    """A sole participant (R-SOLE): no trick was played."""


@dataclass(slots=True)
class HandOutcome:
    """The payout of a hand (see :func:`bourre.hookspec.bourre_payout`)."""

    winner: int | None
    """The seat that takes the pot at stake, or ``None`` (tie, forfeit)."""
    takes: list[Amount]
    """What each seat takes from the pot at stake."""
    paid: list[Amount]
    """What each seat pays into the next pot (R-BOURRE, R-RENEGE)."""
    pot_after: Amount
    """The pot carried into the next hand, before its antes."""
    bourre: list[int]
    reneges: list[int]
    ante_exempt: frozenset[int] = field(default_factory=frozenset)
    """Seats that skip the ordinary ante of the next hand (R-ANTE)."""
    tied: tuple[int, ...] = ()
    """Seats tied for the most tricks, when nobody took the pot for a tie."""
