"""What one seat may know, as an immutable value (:class:`Observation`).

``state.observation(seat)`` makes a new one for each call from the public facts of the
hand and that seat's own cards: its hand and discards, the upcard, the decisions and
exchange counts announced, the cards played, tricks won, the pot and the balances.  It
holds plain ints, strings and tuples of them, never a reference to the game, the
deck, the stock or another player's cards: nothing hidden can be reached from it
(``tests/test_state.py`` walks it with :func:`gc.get_referents`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from bourre.actions import Action
from bourre.money import Amount
from bourre.state import PublicDecision, TrickLog

__all__ = ["Observation"]


class Observation(NamedTuple):
    """What the player at ``seat`` sees now.  The attribute names are those bots
    have always read (``hand``, ``legal``, ``forced``, ``trick`` …)."""

    seat: int
    players: int
    hand_size: int
    number: int
    """The hand's number in the session (1 for the first)."""
    dealer: int
    upcard: int
    trump: int
    hand: tuple[int, ...]
    """This seat's cards, sorted."""
    own_discards: tuple[int, ...]
    """This seat's discards not yet returned to a stock (R-RESHUFFLE)."""
    decisions: tuple[PublicDecision, ...]
    """The decisions announced so far, with each exchange count."""
    active: tuple[int, ...]
    """The seats playing (public ones only while decisions are secret)."""
    tricks: tuple[TrickLog, ...]
    trick: tuple[tuple[int, int], ...]
    """The current trick so far, ``(seat, card)`` in play order."""
    tricks_won: tuple[int, ...]
    pot: Amount
    balances: tuple[Amount, ...]
    stock_size: int
    to_act: int
    """The seat to act now (-1 when chance or nobody acts)."""
    phase: str
    """``"decide"``, ``"exchange"``, ``"play"``, ``"chance"`` or ``"over"``."""
    legal_actions: Sequence[Action]
    """What this seat may do now (empty unless ``to_act == seat``): a tuple, or for
    an exchange an immutable :class:`~bourre.actions.Discards`."""
    legal: tuple[int, ...]
    """The cards this seat may play now (when ``phase == "play"``)."""
    cinch: bool
    """Whether this seat has a cinch now (R-SURE)."""
    forced: str | None
    """When deciding: the rule that forbids passing, if any."""
    my_decision: int
    """This seat's own decision so far: -1 none, 0 pass, 1 play (it knows it even
    while decisions are secret)."""
    gave: tuple[int, ...]
    """The cards this seat discarded this hand, in order."""
    got: tuple[int, ...]
    """The replacements this seat received this hand."""
    exchange_limit: int
    """When exchanging: the most cards this seat may discard (R-DRAW), else 0."""

    def seen(self) -> frozenset[int]:
        """Every card this seat has seen: own hand and discards, the upcard and the
        cards played this deal.  (The upcard belongs to the dealer's hand until
        played: "seen" is not "out of every opponent's hand".)"""
        cards = set(self.hand) | set(self.own_discards) | {self.upcard}
        for t in self.tricks:
            cards.update(c for _, c in t.plays)
        cards.update(c for _, c in self.trick)
        return frozenset(cards)

    def played_mask(self) -> int:
        """Bitmask of the cards played this deal (current trick included)."""
        m = 0
        for t in self.tricks:
            for _, c in t.plays:
                m |= 1 << c
        for _, c in self.trick:
            m |= 1 << c
        return m
