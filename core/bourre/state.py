"""What changes during a hand (:class:`HandState`) and what one player may see of it
(:class:`PlayerView`).

Every card of the deck is in exactly one place at every step: a seat's hand, the
stock, the discard pile (by owner), a folded hand, or played (completed tricks and the
current trick).  :meth:`HandState.places` lists them for checks.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import NamedTuple

from bourre.money import Amount


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


def _empty_lists(n: int) -> list[list[int]]:
    if n <= 8:  # tables have 2 to 8 seats: a literal is cheaper than a comprehension
        lists: list[list[int]] = [[], [], [], [], [], [], [], []]
        return lists[:n]
    return [[] for _ in range(n)]


class HandState:
    """The state of one hand.  The engine and the rule components mutate it."""

    __slots__ = (
        "active",
        "balances",
        "cinch_plays",
        "dealer",
        "decisions",
        "discards",
        "folded",
        "hand_size",
        "hands",
        "known",
        "leader",
        "n",
        "number",
        "pile",
        "played",
        "pot",
        "pot_at_stake",
        "reshuffle",
        "reshuffles",
        "stock",
        "trick",
        "trick_seats",
        "tricks",
        "trump",
        "upcard",
        "won",
    )

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
        balances: list[Amount],
        reshuffle: Reshuffle = keep_order,
    ) -> None:
        self.number = number
        self.n = n
        self.hand_size = hand_size
        self.dealer = dealer
        self.hands = hands
        """Each seat's cards, sorted ascending (components may rely on it)."""
        self.upcard = upcard
        self.trump = upcard // 13
        self.stock = stock
        """The stock, top first."""
        self.pile: list[int] = []
        """Discards not yet returned to a stock, in the order they were made."""
        self.discards: list[list[int]] = _empty_lists(n)
        """Each seat's own discards not yet returned to a stock."""
        self.known = [0] * n
        """Bitmask per seat of its own discards not yet returned (for R-SURE)."""
        self.folded: list[list[int]] = _empty_lists(n)
        self.active: list[int] = []
        """Playing seats, clockwise from the dealer's left."""
        self.decisions: list[PublicDecision] = []
        self.pot = pot
        self.pot_at_stake: Amount = pot
        self.balances = balances
        self.played = 0
        """Bitmask of the cards that stood in a trick this deal (current one included)."""
        self.cinch_plays = 0
        """Cards played so far by a player holding a cinch (R-SURE)."""
        self.tricks: list[TrickLog] = []
        self.trick: list[int] = []
        self.trick_seats: list[int] = []
        """The seats of the current trick in play order (the first ``len(trick)``
        have played)."""
        self.leader = -1
        self.won = [0] * n
        self.reshuffle = reshuffle
        self.reshuffles: list[list[int]] = []
        """Each new stock made by R-RESHUFFLE (chance events), top first."""

    def places(self) -> dict[int, str]:
        """Where every card is: ``{card: place}``; raises if a card is in two places
        or missing (the one-place invariant)."""
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
        if len(where) != 52:
            missing = sorted(set(range(52)) - set(where))
            raise AssertionError(f"cards missing: {missing}")
        return where


class PlayerView:
    """What the player at ``seat`` sees: their own hand and discards, the upcard,
    the public decisions and tricks, the pot and balances (nothing hidden is exposed).

    Bots and people receive this, never the :class:`HandState`.
    """

    __slots__ = ("__state", "cinch", "forced", "legal", "seat")

    def __init__(self, state: HandState, seat: int) -> None:
        self.__state = state
        self.seat = seat
        self.legal: tuple[int, ...] = ()
        """The cards this player may play now (set when a card is asked)."""
        self.cinch = False
        """Whether this player has a cinch now (R-SURE)."""
        self.forced: str | None = None
        """When deciding: the rule that forbids passing, if any."""

    def _rebind(self, state: HandState) -> None:
        """Point this view at a new hand (seating agents reuse their views)."""
        self.__state = state

    @property
    def hand(self) -> tuple[int, ...]:
        return tuple(self.__state.hands[self.seat])

    @property
    def own_discards(self) -> tuple[int, ...]:
        return tuple(self.__state.discards[self.seat])

    @property
    def upcard(self) -> int:
        return self.__state.upcard

    @property
    def trump(self) -> int:
        return self.__state.trump

    @property
    def dealer(self) -> int:
        return self.__state.dealer

    @property
    def players(self) -> int:
        return self.__state.n

    @property
    def hand_size(self) -> int:
        return self.__state.hand_size

    @property
    def number(self) -> int:
        return self.__state.number

    @property
    def decisions(self) -> tuple[PublicDecision, ...]:
        return tuple(self.__state.decisions)

    @property
    def active(self) -> tuple[int, ...]:
        return tuple(self.__state.active)

    @property
    def tricks(self) -> tuple[TrickLog, ...]:
        return tuple(self.__state.tricks)

    @property
    def trick(self) -> tuple[tuple[int, int], ...]:
        """The current trick so far, ``(seat, card)`` in play order."""
        s = self.__state
        return tuple(zip(s.trick_seats, s.trick, strict=False))  # seats not yet played drop

    @property
    def tricks_won(self) -> tuple[int, ...]:
        return tuple(self.__state.won)

    @property
    def pot(self) -> Amount:
        return self.__state.pot

    @property
    def balances(self) -> tuple[Amount, ...]:
        return tuple(self.__state.balances)

    @property
    def stock_size(self) -> int:
        return len(self.__state.stock)

    def seen(self) -> frozenset[int]:
        """Every card this player has seen: own hand and discards, the upcard and
        the cards played this deal.  (The upcard belongs to the dealer's hand until
        played: "seen" is not "out of every opponent's hand".)"""
        s = self.__state
        cards = set(s.hands[self.seat]) | set(s.discards[self.seat]) | {s.upcard}
        for t in s.tricks:
            cards.update(c for _, c in t.plays)
        cards.update(s.trick)
        return frozenset(cards)
