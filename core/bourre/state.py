"""What changes during a hand (:class:`HandState`).  What one player may see of it is
:class:`bourre.observation.Observation`, made by the game; bots never see this.

Every card of the deck is in exactly one place at every step: a seat's hand, the
stock, the discard pile (by owner), a folded hand, played (completed tricks and the
current trick), or, for a hand given by what a table knows, unseen (a hand nobody
showed, the stock below the cards drawn).  :meth:`HandState.places` lists them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from bourre.handlogs import PAIRS, PublicDecision, Reshuffle, TrickLog, keep_order
from bourre.money import Amount

__all__ = ["HandState", "PublicDecision", "Reshuffle", "TrickLog", "keep_order"]


_new: Final = tuple.__new__  # a NamedTuple without its Python-level __new__


def _empty_lists(n: int) -> list[list[int]]:
    return [[] for _ in range(n)]  # compiled: a native loop (cheaper than slicing a literal)


class HandState:
    """The state of one hand.  The engine and the rule components mutate it."""

    __slots__ = (
        "active",
        "balances",
        "chosen",
        "cinch_plays",
        "completed",
        "dealer",
        "decisions",
        "discards",
        "exchanging",
        "folded",
        "gave",
        "got",
        "hand_size",
        "hands",
        "held",
        "hidden",
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
        "step",
        "stock",
        "trick",
        "trick_logs",
        "trick_seats",
        "trump",
        "unseen_stock",
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
        self.n = n
        self.hand_size = hand_size
        self.balances = balances
        # the containers, empty (renew empties them in place for the next hand)
        self.held: list[int] = []
        """While the tricks are played: each seat's hand as a bit mask (bit ``1 <<
        card``, :mod:`bourre.cards`), kept by the game with ``hands``; the follow and
        cinch components are given these.  Empty before the play."""
        self.pile: list[int] = []
        """Discards not yet returned to a stock, in the order they were made."""
        self.discards: list[list[int]] = _empty_lists(n)
        """Each seat's own discards not yet returned to a stock."""
        self.known = [0] * n
        """Bitmask per seat of its own discards not yet returned (for R-SURE)."""
        self.folded: list[list[int]] = _empty_lists(n)
        self.gave: list[tuple[int, ...]] = [()] * n
        """Each seat's discards this hand, in order (never returned: what it knows)."""
        self.got: list[tuple[int, ...]] = [()] * n
        """The replacements each seat received this hand (sorted)."""
        self.active: list[int] = []
        """Playing seats, clockwise from the dealer's left."""
        self.decisions: list[PublicDecision] = []
        self.completed: list[tuple[int, list[int], list[int], int]] = []
        """The completed tricks as ``(leader, seats, cards, winner)`` tuples, in order,
        the seats and their cards in play order: what the game appends (:attr:`tricks`
        reads them as :class:`TrickLog` values; neither list changes once appended)."""
        self.trick_logs: list[TrickLog] = []  # those of ``completed`` read so far
        self.trick: list[int] = []
        self.trick_seats: list[int] = []
        """The seats of the current trick in play order (the first ``len(trick)``
        have played)."""
        self.won = [0] * n
        self.reshuffles: list[list[int]] = []
        """Each new stock made by R-RESHUFFLE (chance events), top first."""
        self.chosen = [-1] * n
        """What the decision procedure keeps (:class:`~bourre.rules.DecisionProcedure`):
        each seat's decision, -1 not yet, 0 pass, 1 play (hidden until public)."""
        self.hidden = [False] * n
        """For a hand given by what a table knows (:class:`~bourre.actions.Dealt`):
        seats whose dealt cards nobody has shown; their hand holds only the cards
        known to be in it (the upcard, for the dealer)."""
        self._begin(number, dealer, hands, upcard, stock, pot, reshuffle)

    def _begin(
        self,
        number: int,
        dealer: int,
        hands: list[list[int]],
        upcard: int,
        stock: list[int],
        pot: Amount,
        reshuffle: Reshuffle,
    ) -> None:
        """The hand's own facts, and its counters at their start (a new hand state
        and a renewed one alike)."""
        self.number = number
        self.dealer = dealer
        self.hands = hands
        """Each seat's cards, sorted ascending (components may rely on it)."""
        self.upcard = upcard
        self.trump = upcard // 13
        self.stock = stock
        """The stock, top first."""
        self.pot = pot
        self.pot_at_stake: Amount = pot
        self.played = 0
        """Bitmask of the cards that stood in a trick this deal (current one included)."""
        self.cinch_plays = 0
        """Cards played so far by a player holding a cinch (R-SURE)."""
        self.leader = -1
        self.reshuffle = reshuffle
        self.step = 0
        """How many seats have decided, in decision order (the decision procedure's)."""
        self.exchanging = -1
        """The seat whose exchange is due, or -1."""
        self.unseen_stock = 0
        """Cards of the stock nobody has seen, below ``stock`` (0 for a known deck)."""

    def renew(
        self,
        number: int,
        dealer: int,
        hands: list[list[int]],
        upcard: int,
        stock: list[int],
        pot: Amount,
        reshuffle: Reshuffle,
    ) -> None:
        """Make this the state of the next hand at the same table, as ``__init__``
        would, emptying its lists in place.  The game does so only when nothing keeps
        the last hand (no result, no third-party component: ``State.spare``)."""
        # only the lists that hold something are cleared: a clear is a slice assignment;
        # ``held`` and a folded hand are let go (the next play and fold make new lists)
        if self.held:
            self.held = []
        if self.pile:
            self.pile.clear()
        known, gave, got, won, chosen, hidden = (
            self.known,
            self.gave,
            self.got,
            self.won,
            self.chosen,
            self.hidden,
        )
        discards, folded = self.discards, self.folded
        for s in range(self.n):  # written only where it changed: a read is cheaper
            if discards[s]:
                discards[s].clear()
            if folded[s]:
                folded[s] = []
            if known[s]:
                known[s] = 0
            if gave[s]:
                gave[s] = ()
            if got[s]:
                got[s] = ()
            if won[s]:
                won[s] = 0
            chosen[s] = -1
            if hidden[s]:
                hidden[s] = False
        if self.active:
            self.active.clear()
        if self.decisions:
            self.decisions.clear()
        if self.completed:
            self.completed.clear()
        if self.trick_logs:
            self.trick_logs.clear()
        if self.trick:
            self.trick.clear()
        if self.trick_seats:  # a trick's seats are a leader's order: not emptied in place
            self.trick_seats = []
        if self.reshuffles:
            self.reshuffles.clear()
        self._begin(number, dealer, hands, upcard, stock, pot, reshuffle)

    def copy(self, balances: list[Amount]) -> HandState:
        """An independent copy (the game's ``clone``); ``balances`` is the copy's
        session ledger."""
        c = HandState(
            number=self.number,
            n=self.n,
            hand_size=self.hand_size,
            dealer=self.dealer,
            hands=[list(h) for h in self.hands],
            upcard=self.upcard,
            stock=list(self.stock),
            pot=self.pot,
            balances=balances,
            reshuffle=self.reshuffle,
        )
        c.held = list(self.held)
        c.pile = list(self.pile)
        c.discards = [list(d) for d in self.discards]
        c.known = list(self.known)
        c.folded = [list(f) for f in self.folded]
        c.gave, c.got = list(self.gave), list(self.got)
        c.active, c.decisions = list(self.active), list(self.decisions)
        c.pot_at_stake = self.pot_at_stake
        c.played, c.cinch_plays = self.played, self.cinch_plays
        c.completed, c.trick_logs = list(self.completed), list(self.trick_logs)
        c.trick = list(self.trick)
        c.trick_seats, c.leader, c.won = list(self.trick_seats), self.leader, list(self.won)
        c.reshuffles = [list(r) for r in self.reshuffles]
        c.step, c.chosen, c.exchanging = self.step, list(self.chosen), self.exchanging
        c.hidden, c.unseen_stock = list(self.hidden), self.unseen_stock
        return c

    @property
    def tricks(self) -> list[TrickLog]:
        """The completed tricks (R-TRICK), each made a :class:`TrickLog` when first
        read: a hand nobody looks back on makes none."""
        logs = self.trick_logs
        done = self.completed
        for i in range(len(logs), len(done)):
            leader, seats, cards, winner = done[i]
            plays: Any = tuple([PAIRS[seats[k]][cards[k]] for k in range(len(cards))])
            logs.append(_new(TrickLog, (leader, plays, winner)))
        return logs

    def hand_mask(self, seat: int) -> int:
        """``seat``'s hand as a bit mask (:mod:`bourre.cards`), made from ``hands``."""
        m = 0
        for c in self.hands[seat]:
            m |= 1 << c
        return m

    def located(self) -> int:
        """Bitmask of every card whose place is known."""
        m = 0
        for lst in (*self.hands, *self.folded, self.stock, self.pile, self.trick):
            for c in lst:
                m |= 1 << c
        for t in self.tricks:
            for _, c in t.plays:
                m |= 1 << c
        return m

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
        unseen = self.unseen_stock + sum(
            self.hand_size - len(self.hands[s]) - len(self.folded[s])
            for s in range(self.n)
            if self.hidden[s]
        )
        if len(where) + unseen != 52:
            missing = sorted(set(range(52)) - set(where))
            raise AssertionError(f"cards missing: {missing}")
        return where
