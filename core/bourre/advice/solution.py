"""What the double-dummy solvers give (:func:`bourre.advice.solve`): each legal card's
values (:class:`CardValue`) and the whole answer (:class:`Solution`), shared by the
Python reference (:mod:`bourre.advice.solver`) and the kernel's solver
(:mod:`bourre.advice.kernel_solver`)."""

from __future__ import annotations

from dataclasses import dataclass

from bourre.rules.cards import card_str
from bourre.rules.money import Amount

__all__ = ["CardValue", "Solution"]


@dataclass(frozen=True)
class CardValue:
    """The values of one legal card of the seat to play."""

    card: int
    sure_tricks: int
    """(a) The tricks of the whole hand the seat is sure of after this card, whatever
    the others play (R-SURE's count: tricks already won included)."""
    chips: Amount
    """(b) The seat's money change from here to the end of the hand after this card,
    every seat playing for itself (the payout: R-WIN, R-BOURRE …), exact."""
    chips_by_seat: tuple[Amount, ...]
    """(b) for every seat of the table, in seat order, on the same line of play."""
    same_as: int
    """The card searched for it: itself, or the first equivalent card before it."""


@dataclass(frozen=True)
class Solution:
    """The values of the legal cards of ``seat``, the seat to play."""

    seat: int
    values: tuple[CardValue, ...]
    """One per legal card, in the state's order of the legal cards."""
    best: tuple[int, ...]
    """The cards of the most chips (b)."""
    most_tricks: tuple[int, ...]
    """The cards of the most sure tricks (a)."""
    choice: int
    """The card the seat plays when every seat plays for itself: the first of ``best``."""
    positions: int
    """How many positions the search remembered (0 with the Python search's
    ``plain=True``; the kernel's plain search remembers them by exact keys)."""

    def value(self, card: int) -> CardValue:
        """The values of ``card``, a legal card of the seat."""
        for v in self.values:
            if v.card == card:
                return v
        raise KeyError(f"{card_str(card)} is not a legal card of seat {self.seat}")

    def __str__(self) -> str:
        lines = [f"seat {self.seat} to play: card, sure tricks, chips"]
        for v in self.values:
            mark = " *" if v.card in self.best else ""
            lines.append(f"  {card_str(v.card)}  {v.sure_tricks}  {v.chips}{mark}")
        return "\n".join(lines)
