"""What changes during one hand (:class:`HandState`), and its small public values: a
decision everyone sees, a completed trick and its plays, the reshuffle's form.

The rule components that step a hand (the decisions, the draw) change a
:class:`HandState`; the game (:class:`bourre.game.state.State`) holds one for the current
hand.  Every card of the deck is in exactly one place at every step: a seat's hand,
the stock, the discard pile (by owner), a folded hand, a completed trick or the
current trick, or, for a hand given by what a table knows, unseen (a hand nobody
showed, the stock below the cards drawn).  :meth:`HandState.places` lists them.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence
from typing import NamedTuple

from bourre.rules.money import Amount

__all__ = ["HandState", "PublicDecision", "Reshuffle", "TrickLog", "keep_order"]


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


class HandState:
    """What changes during one hand.  The game and the rule components change it;
    bots never see it (they get :func:`observe`'s :class:`~bourre.game.observation.Observation`)."""

    def __init__(
        self,
        *,
        number: int,
        n: int,
        hand_size: int,
        dealer: int,
        hands: list[list[int]],
        upcard: int,
        stock: list[int],
        pot: Amount,
        reshuffle: Reshuffle = keep_order,
    ) -> None:
        self.number = number
        self.n = n
        self.hand_size = hand_size
        self.dealer = dealer
        self.hands = hands
        """Each seat's cards, sorted ascending."""
        self.upcard = upcard
        self.trump = upcard // 13
        self.stock = stock
        """The stock, top first."""
        self.unseen_stock = 0
        """Cards of the stock nobody has seen, below ``stock`` (0 for a known deck)."""
        self.hidden = [False] * n
        """For a hand given by what a table knows: seats whose dealt cards nobody has
        shown; their hand holds only the cards known to be in it (the dealer's upcard)."""
        self.pot = pot
        self.pot_at_stake: Amount = pot
        self.reshuffle = reshuffle
        """The order of a new stock made from discards: chance's, or the table's."""
        self.pile: list[int] = []
        """Discards not yet returned to a stock, in the order they were made."""
        self.discards: list[list[int]] = [[] for _ in range(n)]
        """Each seat's own discards not yet returned to a stock."""
        self.folded: list[list[int]] = [[] for _ in range(n)]
        self.gave: list[tuple[int, ...]] = [()] * n
        """Each seat's discards this hand, in order (never returned: what it knows)."""
        self.got: list[tuple[int, ...]] = [()] * n
        """The replacements each seat received this hand."""
        self.reshuffles: list[list[int]] = []
        """Each new stock made by R-RESHUFFLE (chance events), top first."""
        # the decisions component's progress (bourre.rules.hookspec.DecisionRule)
        self.step = 0
        """How many seats have decided, in decision order."""
        self.chosen = [-1] * n
        """Each seat's decision: -1 not yet, 0 pass, 1 play (hidden until public)."""
        self.exchanging = -1
        """The seat whose exchange is due, or -1."""
        self.active: list[int] = []
        """Playing seats, clockwise from the dealer's left."""
        self.decisions: list[PublicDecision] = []
        """The decisions everyone has seen, with each exchange count."""
        # the tricks
        self.tricks: list[TrickLog] = []
        """The completed tricks, in order."""
        self.trick: list[int] = []
        """The current trick's cards, in play order."""
        self.trick_seats: list[int] = []
        """The seats of the current trick in play order (the first ``len(trick)``
        have played)."""
        self.leader = -1
        self.won = [0] * n
        self.played: set[int] = set()
        """The cards that stood in a trick this deal (current one included)."""
        self.cinch_plays = 0
        """Cards played so far by a player holding a cinch (R-SURE)."""

    def hand_of(self, seat: int) -> tuple[int, ...]:
        """``seat``'s cards, sorted."""
        return tuple(self.hands[seat])

    def known_to(self, seat: int) -> frozenset[int]:
        """The cards ``seat`` knows no opponent holds: the cards played this deal and
        its own discards not returned to a stock (R-SURE)."""
        return frozenset(self.played.union(self.discards[seat]))

    def copy(self) -> HandState:
        """An independent copy (the game's ``clone``)."""
        c = copy.copy(self)
        c.hands = [list(h) for h in self.hands]
        c.stock, c.hidden, c.pile = list(self.stock), list(self.hidden), list(self.pile)
        c.discards = [list(d) for d in self.discards]
        c.folded = [list(f) for f in self.folded]
        c.gave, c.got = list(self.gave), list(self.got)
        c.reshuffles = [list(r) for r in self.reshuffles]
        c.chosen, c.active, c.decisions = list(self.chosen), list(self.active), list(self.decisions)
        c.tricks, c.trick, c.trick_seats = (
            list(self.tricks),
            list(self.trick),
            list(self.trick_seats),
        )
        c.won, c.played = list(self.won), set(self.played)
        return c

    def located(self) -> set[int]:
        """Every card whose place is known."""
        out = set(self.stock) | set(self.pile) | set(self.trick) | self.played
        for cards in (*self.hands, *self.folded):
            out.update(cards)
        return out

    def places(self) -> dict[int, str]:
        """Where every card is: ``{card: place}``; raises ``AssertionError`` if a card
        is in two places or missing (the one-place invariant)."""
        where: dict[int, str] = {}

        def put(cards: Sequence[int], place: str) -> None:
            for c in cards:
                if c in where:
                    raise AssertionError(f"card {c} in {where[c]} and {place}")
                where[c] = place

        for s in range(self.n):
            put(self.hands[s], f"hand {s}")
            put(self.folded[s], f"folded {s}")
        put(self.stock, "stock")
        put(self.pile, "discards")
        for t in self.tricks:
            put([c for _, c in t.plays], "tricks")
        put(self.trick, "trick")
        unseen = self.unseen_stock + sum(
            self.hand_size - len(self.hands[s]) - len(self.folded[s])
            for s in range(self.n)
            if self.hidden[s]
        )
        if len(where) + unseen != 52:
            missing = sorted(set(range(52)) - set(where))
            raise AssertionError(f"cards missing: {missing}")
        return where
