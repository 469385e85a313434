"""The static facts of a session every engine's state answers alike (the house, the
seats, the hand size, how it keeps results and decisions, the balances it started
from): one mixin, so the Python rules' :class:`~bourre.game.state.State` and the
kernel's :class:`~bourre.kernel.state.KernelState` read them the same way without one
being the other (:class:`bourre.game.protocol.GameState`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bourre.houses.house import House
    from bourre.rules.money import Amount

__all__ = ["SessionFacts"]


class SessionFacts:
    """Read-only facts set once when a state is made (its own fields, private)."""

    _house: House
    _n: int
    _h: int
    _keep_results: bool
    _announce: bool
    _settles: bool
    _start: tuple[Amount, ...]

    @property
    def house(self) -> House:
        """The house played."""
        return self._house

    @property
    def n(self) -> int:
        """The number of seats."""
        return self._n

    @property
    def hand_size(self) -> int:
        """The cards of a hand (R-DEAL)."""
        return self._h

    @property
    def keep_results(self) -> bool:
        """Whether results are kept."""
        return self._keep_results

    @property
    def announce(self) -> bool:
        """Whether decisions are announced."""
        return self._announce

    @property
    def settles(self) -> bool:
        """Whether the session ends with the settlement (R-SETTLE); ``False`` for one
        hand from a given position (:meth:`bourre.game.Game.new_hand`, a world)."""
        return self._settles

    @property
    def start(self) -> tuple[Amount, ...]:
        """Each seat's balance at the start."""
        return self._start
