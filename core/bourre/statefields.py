"""What a stepped session holds (:class:`StateFields`): the fields of
:class:`~bourre.engine.State`, set up for a new session or copied for ``clone``.

The API that steps them is :class:`bourre.engine.State`; the course of a hand
:mod:`bourre.flow` and the tricks :mod:`bourre.cardplay` read and change these fields
(so they take a ``StateFields``).  Static facts (the house, its rule components, read
off once) and what changes (balances, the hand, the public facts shared by
observations) are set here, nowhere else.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final

from bourre.chance import Chance
from bourre.components import (
    AnteComponent,
    CinchComponent,
    DealComponent,
    DecisionComponent,
    DrawComponent,
    FollowComponent,
    NextDealerComponent,
    TrickComponent,
    compiled_form,
)
from bourre.flow import DEAL, begin_hand
from bourre.house import House
from bourre.housemodels import TableSettings
from bourre.money import Amount
from bourre.observation import Discards
from bourre.results import HandResult, PlayLog
from bourre.rules import HandOutcome, PayoutFn, Rules, Turn
from bourre.state import HandState, PublicDecision, Reshuffle, TrickLog, keep_order

__all__ = ["HouseFacts", "StateFields", "house_facts"]


class HouseFacts:
    """What a session reads off its house before the first deal: the table's settings
    and the rule components the hot path calls, in their compiled form
    (:func:`bourre.components.compiled_form`).  Each read of a settings field or of a
    :class:`~bourre.rules.Rules` field is a dictionary-backed lookup, so they are read
    once for a house's rules and table (:func:`house_facts`), not once a session."""

    def __init__(self, rules: Rules, table: TableSettings) -> None:
        self.rules = rules
        self.table = table
        self.n: int = table.players
        self.h: int = rules.hand_size
        self.balance: Amount = table.balance
        self.table_ante: Amount = table.ante
        self.first_dealer: int | str = table.first_dealer
        self.hands: int = table.hands
        self.follow: FollowComponent = compiled_form("follow", rules.follow)
        self.cinch: CinchComponent = compiled_form("cinch", rules.cinch)
        self.decisions: DecisionComponent = compiled_form("decisions", rules.decisions)
        self.draw: DrawComponent = compiled_form("draw", rules.draw)
        self.trick_winner: TrickComponent = compiled_form("trick_winner", rules.trick_winner)
        self.deal_fn: DealComponent = compiled_form("deal", rules.deal)
        self.ante: AnteComponent = compiled_form("ante", rules.ante)
        self.next_dealer_fn: NextDealerComponent = compiled_form("next_dealer", rules.next_dealer)
        self.payout: PayoutFn = rules.payout
        self.announce: bool = rules.decisions.announcements


_KEPT: Final = 8
_FACTS: Final[list[tuple[HouseFacts, ...]]] = [()]
"""The facts of the last houses' rules and tables, oldest first (a comparison
alternates a few houses): one tuple, replaced whole, so a thread reading it never
sees it change."""


def house_facts(rules: Rules, table: TableSettings) -> HouseFacts:
    """The :class:`HouseFacts` of ``rules`` and ``table`` (both immutable), made once
    and kept for the next sessions of the same house."""
    kept = _FACTS[0]
    for f in kept:
        if f.rules is rules and f.table is table:
            return f
    f = HouseFacts(rules, table)
    _FACTS[0] = (*kept[len(kept) - _KEPT + 1 :], f) if len(kept) >= _KEPT else (*kept, f)
    return f


class StateFields:
    """The fields of a stepped session (see :class:`~bourre.engine.State`, which
    adds the API): made for a new session, or as a copy of another (``_copy_of``)."""

    def __init__(
        self,
        house: House,
        *,
        seed: int | str | None = None,
        hands: int | None = None,
        balances: Sequence[Amount] | None = None,
        pot: Amount = 0,
        dealer: int | None = None,
        previous: HandOutcome | None = None,
        settle: bool = True,
        record: bool = False,
        keep_results: bool = True,
        _copy_of: StateFields | None = None,
    ) -> None:
        if _copy_of is not None:
            self._copy(_copy_of)
            return
        self.house = house
        rules = self.rules = house.rules
        table = self.table = house.table
        facts = house_facts(rules, table)
        n = self.n = facts.n
        self.h = facts.h
        self._components(facts)
        self.balances: list[Amount] = (
            list(balances) if balances is not None else [facts.balance] * n
        )
        if len(self.balances) != n:
            raise ValueError(f"balances: {len(self.balances)} given for {n} players (R-SESSION)")
        self.start: list[Amount] = list(self.balances)
        self.pot: Amount = pot
        self.total: Amount = sum(self.balances) + pot
        """The money at the table: balances and the pot always add up to it."""
        self.checked = bool(house.guarded)
        self.previous = previous
        self.marks = [False] * n
        self.chance: Chance | None = Chance(seed) if seed is not None else None
        self.table_ante: Amount = facts.table_ante
        """The table's ante, read once (each read of a settings field is a lookup)."""
        self.reshuffle: Reshuffle = self.chance.reshuffle if self.chance is not None else keep_order
        """Each deal's reshuffle when none is given: the seeded stream's, else the
        scripted one (made once: a bound method made per deal costs a call)."""
        fd = facts.first_dealer if dealer is None else dealer
        if not isinstance(fd, int) and self.chance is not None:
            fd = self.chance.seat(n)  # drawn before the first deck (the seed's order)
        self.first_dealer: int | None = fd if isinstance(fd, int) else None
        self.last_dealer: int | None = None
        self.hands_total = facts.hands if hands is None else hands
        self.settles = settle
        self.record = record
        self.keep_results = keep_results or record
        """Whether each hand's :class:`~bourre.results.HandResult` is kept in
        ``results`` (a play log is kept in it, so ``record`` keeps them too)."""
        self.spare: HandState | None = None
        """The last hand's state, for the next deal to renew in place, when nothing
        keeps it (``keep_results`` false and only built-in components)."""
        self.number = 0
        self.results: list[HandResult] = []
        self.history_: list[object] = []
        self.final: tuple[list[Amount], list[int]] | None = None
        self.hs: HandState | None = None
        self.phase = DEAL
        self.turn: Turn | None = None
        self.pending: tuple[int, ...] = ()
        self.pending_seat = -1
        self.given_dealer: int | None = None
        self.given_pot: Amount | None = None
        self.given_reshuffle: Callable[[list[int]], list[int]] | None = None
        self.premature: list[int] = []
        self.antes: list[Amount] = []
        self.hands_after: list[list[int]] = []
        self.plays: list[PlayLog] = []
        self.forfeits: set[int] = set()
        self.reneges: list[int] = []
        self.seats: list[int] = []
        """The current trick's seats in play order (shared with ``rotations``: never
        changed in place)."""
        self.rotations: list[list[int] | None] = []
        """Each seat's trick order as leader this hand, made when it first leads."""
        self.cinch_from: list[int] | None = None
        self.legal: tuple[int, ...] | None = None
        self.legal_mask = 0
        """The legal cards as a mask, computed once per turn (``legal_ready``);
        ``legal`` is their tuple, made from it when asked (:mod:`bourre.cardplay`)."""
        self.legal_ready = False
        self.discards: Discards | None = None
        self.has_cinch = False
        # immutable public facts shared by observations until they change (bourre.observe)
        self.pub_decisions: tuple[PublicDecision, ...] = ()
        self.pub_tricks: tuple[TrickLog, ...] = ()
        self.pub_won: tuple[int, ...] = ()
        self.pub_balances: tuple[Amount, ...] = ()
        self.pub_money = -1
        self.pub_trick: tuple[tuple[int, int], ...] = ()
        """The current trick's ``(seat, card)`` plays as far as last asked for
        (:func:`bourre.cardplay.public_trick` extends it)."""
        self.pub_active: tuple[int, ...] = ()
        self.pub_hands: list[tuple[int, ...] | None] = [None] * n
        """Each seat's hand as a tuple, made again after it changes."""
        self.money = 0
        """Counts the changes of balances and pot (antes, payouts): observations
        copy the balances again only after one."""
        begin_hand(self)

    def _components(self, f: HouseFacts) -> None:
        """The house's components the hot path calls, from its :class:`HouseFacts`."""
        self.follow: FollowComponent = f.follow
        self.cinch: CinchComponent = f.cinch
        self.decisions: DecisionComponent = f.decisions
        self.draw: DrawComponent = f.draw
        self.trick_winner: TrickComponent = f.trick_winner
        self.deal_fn: DealComponent = f.deal_fn
        self.ante: AnteComponent = f.ante
        self.next_dealer_fn: NextDealerComponent = f.next_dealer_fn
        self.payout: PayoutFn = f.payout
        self.announce: bool = f.announce

    def _copy(self, o: StateFields) -> None:
        self.house, self.rules, self.table, self.n, self.h = o.house, o.rules, o.table, o.n, o.h
        self._components(house_facts(o.rules, o.table))
        self.balances, self.start, self.pot = list(o.balances), list(o.start), o.pot
        self.total, self.checked = o.total, o.checked
        self.previous, self.marks = o.previous, list(o.marks)
        self.chance = o.chance.copy() if o.chance is not None else None
        self.table_ante = o.table_ante
        self.reshuffle = self.chance.reshuffle if self.chance is not None else keep_order
        self.first_dealer, self.last_dealer = o.first_dealer, o.last_dealer
        self.hands_total, self.settles, self.record = o.hands_total, o.settles, o.record
        self.keep_results, self.spare = o.keep_results, None
        self.number, self.results, self.history_ = o.number, list(o.results), list(o.history_)
        self.final = o.final
        hs = self.hs = o.hs.copy(self.balances) if o.hs is not None else None
        if hs is not None and self.chance is not None and o.given_reshuffle is None:
            hs.reshuffle = self.reshuffle  # the copy's own stream, not the original's
        self.phase, self.turn, self.pending, self.pending_seat = (
            o.phase,
            o.turn,
            o.pending,
            o.pending_seat,
        )
        self.given_dealer, self.given_pot = o.given_dealer, o.given_pot
        self.given_reshuffle = o.given_reshuffle
        self.premature, self.antes = list(o.premature), list(o.antes)
        self.hands_after = [list(x) for x in o.hands_after]
        self.plays, self.forfeits, self.reneges = list(o.plays), set(o.forfeits), list(o.reneges)
        self.seats, self.rotations = o.seats, list(o.rotations)
        self.cinch_from = list(o.cinch_from) if o.cinch_from is not None else None
        self.legal = o.legal
        self.legal_mask = o.legal_mask
        self.legal_ready = o.legal_ready
        self.discards = None  # made again from this copy's own hand when asked
        self.has_cinch = o.has_cinch
        self.pub_decisions, self.pub_tricks = o.pub_decisions, o.pub_tricks
        self.pub_won, self.pub_balances = o.pub_won, o.pub_balances
        self.pub_money, self.money = o.pub_money, o.money
        self.pub_trick, self.pub_active = o.pub_trick, o.pub_active
        self.pub_hands = [None] * o.n
        if hs is not None:
            hs.trick_seats = self.seats
