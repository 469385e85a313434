"""The states of the tap page: the one thing the page asks for next.

Where the hand is (the referee's answer on the lines so far) and the step under way
(:mod:`bourre.web.tap.form`) give the phase; each phase has one step
(:mod:`bourre.web.tap.steps`): what the page shows, and what a tap does.
"""

from __future__ import annotations

from enum import Enum

__all__ = ["Phase"]


class Phase(Enum):
    """What the page asks for next."""

    BROKEN = "broken"
    """The lines cannot go on (the referee refuses them): only undo."""
    DEALER = "dealer"
    """Who deals (R-DEALER)."""
    UPCARD = "upcard"
    """The dealer's last card, face up: trump."""
    DECIDE = "decide"
    """Whether the seat to decide passes or plays (R-DECIDE)."""
    DEALT = "dealt"
    """The cards a seat that plays was dealt: when it shows them, or at the end of a
    hand it took without play (R-SOLE)."""
    CHANGE = "change"
    """How many cards a seat that plays changes (R-DRAW)."""
    THROW = "throw"
    """Which cards it threw."""
    DRAW = "drew"
    """Which cards it drew (only where the script needs them)."""
    PLAY = "play"
    """The card a seat played (or the one instead of a card taken back)."""
    RULE = "rule"
    """A card the rules forbid: does it stand (R-RENEGE) or was it taken back
    (R-CORRECTED)?"""
    FOUND = "found"
    """The hand is over and its tricks show a card that was not allowed: did it stand?"""
    OVER = "over"
    """The hand is over: its ruling, and the next hand if the session has one."""
