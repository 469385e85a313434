"""The small public values of a hand: a decision everyone sees, a completed trick,
and the reshuffle's form (R-RESHUFFLE).  :class:`bourre.state.HandState` holds them
(and ``bourre.state`` names them too)."""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

__all__ = ["PublicDecision", "Reshuffle", "TrickLog", "keep_order"]


class PublicDecision(NamedTuple):
    """A decision everyone at the table sees: who played and how many they exchanged."""

    seat: int
    play: bool
    exchanged: int


class TrickLog(NamedTuple):
    """A completed trick: its leader, the ``(seat, card)`` plays and the winner."""

    leader: int
    plays: tuple[tuple[int, int], ...]
    winner: int


Reshuffle = Callable[[list[int]], list[int]]
"""A chance event: the order of a new stock made from discards (R-RESHUFFLE)."""


def keep_order(pile: list[int]) -> list[int]:
    """The scripted reshuffle: discards in the order made, first discarded on top."""
    return list(pile)
