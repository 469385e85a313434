"""Where a session stands (:class:`Phase`) and the two player ids that are not seats
(OpenSpiel's): :data:`CHANCE` and :data:`TERMINAL`."""

from __future__ import annotations

import enum

__all__ = ["CHANCE", "CHANCE_PHASES", "TERMINAL", "Phase"]

CHANCE = -1
"""``current_player()`` at a chance node (OpenSpiel's ``kChancePlayerId``)."""
TERMINAL = -4
"""``current_player()`` once the session is over (OpenSpiel's ``kTerminalPlayerId``)."""


class Phase(enum.Enum):
    """Where a session stands."""

    DEAL = "deal"
    """Chance deals the next hand (a :class:`~bourre.game.actions.Deck` or ``Dealt``)."""
    DECIDE = "decide"
    """A seat decides or exchanges (the decisions component says who)."""
    REVEAL = "reveal"
    """Chance shows the hand of a seat that plays, nobody having shown it (``Dealt``), or
    the hand it held after its exchange (``AfterDraw``: the cards it played)."""
    DRAW = "draw"
    """Chance tells a seat's replacements, the stock being unknown (``Drew``)."""
    PLAY = "play"
    """A seat plays a card to the trick."""
    OVER = "over"
    """The session is over."""


CHANCE_PHASES = (Phase.DEAL, Phase.REVEAL, Phase.DRAW)
"""The phases where chance acts."""
