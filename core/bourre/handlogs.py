"""The small public values of a hand: a decision everyone sees, a completed trick and
its plays, and the reshuffle's form (R-RESHUFFLE).  :class:`bourre.state.HandState` holds them
(and ``bourre.state`` names them too)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Final, NamedTuple

__all__ = ["PAIRS", "PublicDecision", "Reshuffle", "TrickLog", "keep_order"]


class PublicDecision(NamedTuple):
    """A decision everyone at the table sees: who played and how many they exchanged."""

    seat: int
    play: bool
    exchanged: int


PAIRS: Final[tuple[tuple[object, ...], ...]] = tuple(
    [tuple([(s, c) for c in range(52)]) for s in range(8)]
)
"""Every ``(seat, card)`` play at a table of up to 8 (R-SESSION), made once: a trick's
plays are tuples of these, shared (typed as objects: compiled, a pair typed as such
would be unboxed, and made again when stored)."""


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
