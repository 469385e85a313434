"""What the payout is given and what it answers (:class:`PlayResult`,
:class:`HandOutcome`): plain records, compiled (setup.py) so that the game and the
built-in payout read their fields directly.  :mod:`bourre.rules` exports both.

Plain classes with their own ``__init__``, not dataclasses: a compiled dataclass
keeps the interpreted ``__init__`` that ``dataclasses`` writes, a Python call per
hand.  They compare equal field by field and print like dataclasses."""

from __future__ import annotations

from typing import ClassVar

from bourre.money import Amount

__all__ = ["HandOutcome", "PlayResult"]

_NOBODY: frozenset[int] = frozenset()


class _Record:
    """What the records below share: equality field by field, a dataclass-like repr
    and pickling, all from ``_names`` (never on the hot path)."""

    _names: ClassVar[tuple[str, ...]] = ()

    def _fields(self) -> tuple[object, ...]:
        return tuple([getattr(self, name) for name in self._names])

    def __eq__(self, other: object) -> bool:
        return isinstance(other, type(self)) and self._fields() == other._fields()

    __hash__ = None  # type: ignore[assignment]  # mutable, like the dataclasses they were

    def __reduce__(self) -> tuple[type[_Record], tuple[object, ...]]:
        return (type(self), self._fields())

    def __repr__(self) -> str:
        pairs = [f"{k}={v!r}" for k, v in zip(self._names, self._fields(), strict=True)]
        return f"{type(self).__name__}({', '.join(pairs)})"


class PlayResult(_Record):
    """What the payout needs to know of a hand once it is played."""

    _names = ("n", "pot_at_stake", "active", "tricks_won", "forfeits", "reneges", "sole")

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


class HandOutcome(_Record):
    """The payout of a hand (see :func:`bourre.hookspec.bourre_payout`)."""

    _names = (
        "winner", "takes", "paid", "pot_after", "bourre", "reneges", "ante_exempt", "tied",
    )  # fmt: skip

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
