"""What the payout is given and what it answers (:class:`PlayResult`,
:class:`HandOutcome`): plain records, compiled (setup.py) so that the game and the
built-in payout read their fields directly.  :mod:`bourre.rules` exports both.

Plain classes with their own ``__init__``, not dataclasses: a compiled dataclass
keeps the interpreted ``__init__`` that ``dataclasses`` writes, a Python call per
hand.  They compare equal field by field and print like dataclasses."""

from __future__ import annotations

from bourre.money import Amount

__all__ = ["HandOutcome", "PlayResult"]

_NOBODY: frozenset[int] = frozenset()


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

    def __init__(
        self,
        n: int,
        pot_at_stake: Amount,
        active: list[int],
        tricks_won: list[int],
        forfeits: set[int],
        reneges: list[int],
        sole: bool,
    ) -> None:
        self.n, self.pot_at_stake, self.active, self.tricks_won = (
            n,
            pot_at_stake,
            active,
            tricks_won,
        )
        self.forfeits, self.reneges, self.sole = forfeits, reneges, sole

    def _fields(self) -> tuple[object, ...]:
        return (
            self.n, self.pot_at_stake, self.active, self.tricks_won, self.forfeits,
            self.reneges, self.sole,
        )  # fmt: skip

    def __eq__(self, other: object) -> bool:
        return isinstance(other, PlayResult) and self._fields() == other._fields()

    def __reduce__(self) -> tuple[type[PlayResult], tuple[object, ...]]:
        return (PlayResult, self._fields())

    __hash__ = None  # type: ignore[assignment]  # mutable, like the dataclass it was

    def __repr__(self) -> str:
        return (
            f"PlayResult(n={self.n!r}, pot_at_stake={self.pot_at_stake!r}, active="
            f"{self.active!r}, tricks_won={self.tricks_won!r}, forfeits={self.forfeits!r},"
            f" reneges={self.reneges!r}, sole={self.sole!r})"
        )


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
    ante_exempt: frozenset[int]
    """Seats that skip the ordinary ante of the next hand (R-ANTE)."""
    tied: tuple[int, ...]
    """Seats tied for the most tricks, when nobody took the pot for a tie."""

    def __init__(
        self,
        winner: int | None,
        takes: list[Amount],
        paid: list[Amount],
        pot_after: Amount,
        bourre: list[int],
        reneges: list[int],
        ante_exempt: frozenset[int] = _NOBODY,
        tied: tuple[int, ...] = (),
    ) -> None:
        self.winner, self.takes, self.paid, self.pot_after = winner, takes, paid, pot_after
        self.bourre, self.reneges, self.ante_exempt, self.tied = bourre, reneges, ante_exempt, tied

    def _fields(self) -> tuple[object, ...]:
        return (
            self.winner, self.takes, self.paid, self.pot_after, self.bourre, self.reneges,
            self.ante_exempt, self.tied,
        )  # fmt: skip

    def __eq__(self, other: object) -> bool:
        return isinstance(other, HandOutcome) and self._fields() == other._fields()

    def __reduce__(self) -> tuple[type[HandOutcome], tuple[object, ...]]:
        return (HandOutcome, self._fields())

    __hash__ = None  # type: ignore[assignment]  # mutable, like the dataclass it was

    def __repr__(self) -> str:
        return (
            f"HandOutcome(winner={self.winner!r}, takes={self.takes!r}, paid={self.paid!r},"
            f" pot_after={self.pot_after!r}, bourre={self.bourre!r}, reneges="
            f"{self.reneges!r}, ante_exempt={self.ante_exempt!r}, tied={self.tied!r})"
        )
