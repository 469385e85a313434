"""A plugin's decisions or draw on the compiled kernel (issue 41, "open to plugins":
per-decision hooks): a house whose ``bourre_decisions`` (R-DECIDE, R-PASS, R-ACE-UP,
R-LAST-STANDS …) or ``bourre_draw`` (R-DRAW, R-RESHUFFLE) is a plugin's plays its whole
sessions on the kernel, and the kernel hands each hand's decisions and exchanges to
the house's checked components here, on a :class:`~bourre.rules.hand.HandState`, as
the Python state steps them (:func:`bourre.game.state.advance`, ``State._exchange``).
The bots stay in C++: the kernel asks them and passes their answers on.

The protocol of those components hands them the whole mutable hand, so the kernel does
not read their progress: it is told, at each turn, who acts, whether the seat may pass,
how many cards it may exchange (the draw's ``limit``, which the kernel's bots respect as
the Python bots do), the seat's cards and the decisions everyone has seen; when the
decisions are over it reads the hand back (who plays, in what order; every seat's
cards; each seat's own discards, which R-SURE counts as known; the public decisions;
the reshuffle stream).  Anything it does not hold (a hand of another size, a card in
two places, a trick already played, a refusal of a bot's legal answer, decisions that
do not end) answers ``False``: the kernel stops, and the Python rules play the session
from its start, so the result is theirs, word for word.

Whole sessions (``simulate``, ``compare``, ``sweep``, ``bench``) and the stepped state
(:class:`bourre.kernel.state.KernelState`: a clone copies the hand's run,
:meth:`HandDecisions.copy`; an answer the plugin refuses is refused, nothing changed, in
the Python rules' words; the observations during the decisions are made from the run's
hand state) play such a house, and so do the rollouts of a Python world at a decision
point (:meth:`HandDecisions.resume`: the Monte Carlo bot's, advice's deals; each rollout
on its own copy), and advice's batches (:func:`bourre.kernel.rollouts.decision_rows`:
each deal's run made with the pot in the middle, each option on its own copy), and the
Monte Carlo bot's worlds that the kernel samples and replays itself (:func:`told_hook`:
each sample's run made as the Python replay makes its hand, the replacements told,
:meth:`HandDecisions.drawn`; at a decision point the unseen cards its stock,
:meth:`HandDecisions.stocked`; :data:`bourre.kernel.rollouts.WORLD_HOOKS`).
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

from bourre.game.state import exchange_from_stock, exchange_told
from bourre.game.xoshiro import Xoshiro128
from bourre.houses.house import House
from bourre.rules import DECIDE, RuleViolation, Turn
from bourre.rules.hand import HandState, keep_order
from bourre.rules.hookspec import DEAL, DECISIONS, DRAW

__all__ = ["HandDecisions", "decisions_hook", "told_hook"]

Turned = tuple[int, int, bool, int, int, int, int] | bool | None
"""A turn as the kernel reads it: ``(kind, seat, forced, limit, cards, decided,
playing)`` (``kind`` 1 decide, 2 exchange; ``forced``: the seat may not pass; ``limit``:
the most cards it may exchange, 0 for a decision; ``cards``: its hand as a mask;
``decided`` and ``playing``: the public decisions so far and how many said play),
``None`` when the decisions are over, ``False`` when it is not the kernel's to hold; to
an answer, the rules' :class:`~bourre.rules.RuleViolation` itself when they refuse it
(the hand unchanged: the stepped state refuses the action in the Python rules' words,
whole sessions leave the session to the Python rules)."""


_DECK = frozenset(range(52))


def _mask(cards: list[int]) -> int:
    """The cards as a mask, or -1 when one is not a card of the deck (a plugin's)."""
    m = 0
    for c in cards:
        if type(c) is not int or not 0 <= c < 52:
            return -1
        m |= 1 << c
    return m


def _table(hs: HandState) -> tuple[int, ...]:
    """What the kernel holds of a hand for its whole course: the table, the hand's size,
    the dealer, the upcard and trump (R-DEAL); a plugin's decisions that change one are
    the Python rules'."""
    return (hs.n, hs.hand_size, hs.dealer, hs.upcard, hs.trump)


class HandDecisions:
    """One hand's decisions and exchanges, played by the house's checked decisions and
    draw on a :class:`~bourre.rules.hand.HandState` made as
    :func:`bourre.game.state.deal_hand` makes it.  Called by the kernel with each
    answer of its bots: ``run(play)`` for a decision (a bool), ``run(discards)`` for an
    exchange (a tuple, in the order discarded), ``run(None)`` once the decisions are
    over (:meth:`end`)."""

    __slots__ = (
        "_decisions",
        "_draw",
        "_gen",
        "_h",
        "_hs",
        "_limit",
        "_reshuffled",
        "_steps",
        "_table",
        "_turn",
    )

    def __init__(self, rules: Any, hs: HandState, h: int, gen: Xoshiro128 | None) -> None:
        self._decisions, self._draw = rules
        self._hs, self._h, self._gen = hs, h, gen
        self._turn: Turn | None = None
        self._steps = 0
        self._limit = 0
        self._reshuffled = False
        self._table = _table(hs)
        # (no stream: an unseeded state's scripted reshuffle, as the Python state's)
        hs.reshuffle = self._reshuffle if gen is not None else keep_order

    def copy(self) -> HandDecisions:
        """An independent copy (the stepped state's ``clone``): the hand state, the
        reshuffle stream (the copy's hand reshuffles on the copy's own), the turn."""
        gen = self._gen.copy() if self._gen is not None else None
        c = HandDecisions((self._decisions, self._draw), self._hs.copy(), self._h, gen)
        c._stand(self._turn, self._steps, self._limit, self._reshuffled)
        return c

    def _stand(self, turn: Turn | None, steps: int, limit: int, reshuffled: bool) -> None:
        """Where this run stands: its turn, steps, exchange limit, whether it reshuffled."""
        self._turn, self._steps, self._limit, self._reshuffled = turn, steps, limit, reshuffled

    @property
    def hand(self) -> HandState:
        """The hand state the decisions and draw are played on (the stepped state's
        observations during the decisions are made from it: read, never change)."""
        return self._hs

    @property
    def forced(self) -> str | None:
        """The rule that forbids the seat to act to pass (its ``Turn.forced``: R-ACE-UP,
        R-LAST-STANDS or the plugin's own), ``None`` if it may."""
        t = self._turn
        return t.forced if t is not None else None

    @property
    def limit(self) -> int:
        """The most cards the seat to exchange may discard (the draw's ``limit``, asked
        once a turn), 0 at a decision."""
        t = self._turn
        return self._limit if t is not None and t.kind != DECIDE else 0

    def _reshuffle(self, pile: list[int]) -> list[int]:
        """A new stock from discards (R-RESHUFFLE), on the session's reshuffle stream
        (:meth:`bourre.game.chance.Chance.reshuffle`), which the kernel keeps between hands."""
        assert self._gen is not None
        self._reshuffled = True
        new: list[object] = list(pile)
        self._gen.shuffle(new)
        return new  # type: ignore[return-value]

    @classmethod
    def resume(
        cls, rules: Any, hs: HandState, h: int, gen: Xoshiro128, turn: Turn
    ) -> tuple[HandDecisions, Turned]:
        """A run from a Python world at a decision point (the Monte Carlo bot's and
        advice's rollouts, :func:`bourre.kernel.rollouts._world`): ``hs`` a copy of the
        world's hand state whose stock is the order the rollouts draw (nothing unseen),
        ``gen`` the reshuffle stream (R-RESHUFFLE), ``turn`` where the Python state
        stands (the turn not asked again).  Its steps count from there (a plugin's
        decisions that do not end stop the run after 4 n + 4 more: the Python rules
        then raise its error).  The run and that turn as the kernel reads it."""
        run = cls(rules, hs, h, gen)
        return run, run._told(turn)

    def drawn(self, cards: tuple[int, ...], drew: tuple[int, ...]) -> Any:
        """An exchange whose replacements a sampled world tells (the kernel's replay of
        the public history, :func:`told_hook`), as the Python state takes a table's:
        standing pat is the draw's ``draw``; discards are the draw's ``check``, then its
        ``drawn`` of ``drew`` (``State._exchange``, ``exchange_unseen``, ``table_chance``:
        R-DRAW).  The next turn, or the rules' refusal (:meth:`__call__`)."""
        t, hs = self._turn, self._hs
        if t is None or t.kind == DECIDE:
            return False
        seat = t.seat
        try:
            if not cards:
                exchange_from_stock(self._draw, self._decisions, hs, seat, cards)
            else:
                self._draw.check(hs, seat, cards)
                exchange_told(self._draw, self._decisions, hs, seat, cards, drew)
        except RuleViolation as e:
            return e
        return self.next()

    def stocked(self, stock: bytes, words: tuple[int, int, int, int]) -> bool:
        """A sampled world reached at a decision point (the kernel's replay): its unseen
        cards become the stock, in the order the kernel's rollouts draw (``stock``, top
        first; nothing left unseen), reshuffled on the world's stream (``words``,
        R-RESHUFFLE), as :func:`bourre.kernel.rollouts._run` makes a Python world's run.
        ``False`` when those cards are not the hand's unseen ones (a plugin that moved
        cards the kernel does not follow: the Python rules then)."""
        hs = self._hs
        cards = list(stock)
        if hs.unseen_stock != len(cards) or hs.stock or hs.located() & set(cards):
            return False
        hs.stock, hs.unseen_stock = cards, 0
        self._gen = Xoshiro128(*words)
        hs.reshuffle = self._reshuffle
        return True

    def next(self) -> Turned:
        """The next turn (:func:`bourre.game.state.advance`: the house's checked
        ``turn``, at most ``4 n + 4`` steps a hand), and for an exchange the draw's
        ``limit``, asked as ``State.exchange_limit`` asks it."""
        hs = self._hs
        self._steps += 1
        if self._steps > 4 * hs.n + 4:
            return False  # (the Python rules raise the plugin's error)
        return self._told(self._decisions.turn(hs))

    def _told(self, t: Turn | None) -> Turned:
        """The turn ``t`` as the kernel reads it (:meth:`next`)."""
        hs = self._hs
        self._turn = t
        if t is None:
            return None
        seat = t.seat
        cards = hs.hands[seat]
        mask = _mask(cards)
        if mask < 0 or len(cards) != self._h or cards != sorted(cards) or _table(hs) != self._table:
            return False  # (the kernel's hands: sorted cards; the table as dealt)
        limit = 0
        if t.kind != DECIDE:
            limit = self._limit = self._draw.limit(hs, seat)
        decisions = hs.decisions
        playing = 0
        for d in decisions:
            if d.play:
                playing += 1
        return (
            1 if t.kind == DECIDE else 2,
            seat,
            t.forced is not None,
            limit,
            mask,
            len(decisions),
            playing,
        )

    def __call__(self, answer: bool | tuple[int, ...] | None) -> Any:
        t, hs = self._turn, self._hs
        if answer is None:
            return self.end()
        assert t is not None
        seat = t.seat
        try:
            if t.kind == DECIDE:
                self._decisions.decide(hs, seat, answer is True)
            else:
                cards: tuple[int, ...] = answer  # type: ignore[assignment]
                exchange_from_stock(self._draw, self._decisions, hs, seat, cards)
        except RuleViolation as e:  # refused: the stepped state says so in the rules' words
            return e  # (whole sessions: a bot's legal answer refused, the Python rules')
        return self.next()

    def end(
        self,
    ) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], tuple[int, ...], Any] | bool:
        """The hand when the decisions are over, as the kernel holds it: ``(active,
        cards, discards, decisions, reshuffle)``: the playing seats in order, each
        seat's cards and its own discards not yet returned (R-SURE) as masks, the
        public decisions as ``seat, play, exchanged`` triples, the reshuffle stream's
        four words (``None``: not drawn this hand); ``False`` for a hand it does not
        hold (the tricks cannot start from it as the Python state would: among others,
        players not in clockwise order from the dealer's left, which the kernel's
        order of play assumes)."""
        hs, n, h = self._hs, self._hs.n, self._h
        active = hs.active
        if (
            not active
            or len(active) > n
            or hs.tricks
            or hs.trick
            or hs.played
            or any(hs.won)
            or hs.cinch_plays
            or _table(hs) != self._table
            or len(hs.decisions) > 8
        ):
            return False
        seen, place = 0, -1
        for s in active:
            if type(s) is not int or not 0 <= s < n or seen >> s & 1:
                return False
            seen |= 1 << s
            here = (s - hs.dealer - 1) % n
            if here < place:  # (the kernel's order of play is clockwise: R-LEAD)
                return False
            place = here
        # every card in one place (HandState.places, which the Python state checks at the
        # hand's end): the hands, folded hands, stock and discards hold the deck once
        hands, lists = hs.hands, (*hs.hands, *hs.folded, hs.stock, hs.pile)
        every: set[int] = set()
        total = 0
        for cards in lists:
            total += len(cards)
            every.update(cards)
        # (a sampled world's replay: the stock nobody has seen is held nowhere yet)
        unseen = hs.unseen_stock
        if type(unseen) is not int or unseen < 0 or total + unseen != 52:
            return False
        if len(every) != total or not every <= _DECK:
            return False
        held: list[int] = []
        for s in range(n):
            cards = hands[s]
            if len(cards) != (h if seen >> s & 1 else 0):
                return False
            m = 0
            for c in cards:
                if type(c) is not int:  # (5.0 is card 5 to a set, not to a mask)
                    return False
                m |= 1 << c
            held.append(m)
        discards: list[int] = []
        for own in hs.discards:
            if len(own) > 5 or not every.issuperset(own):
                return False
            m = 0
            for c in own:
                if type(c) is not int:
                    return False
                m |= 1 << c
            if m.bit_count() != len(own) or any(m & x for x in held):
                return False
            discards.append(m)
        told: list[int] = []
        for d in hs.decisions:
            seat, play, k = d
            if type(seat) is not int or not 0 <= seat < n or type(k) is not int or not 0 <= k <= 52:
                return False
            told += (seat, 1 if play else 0, k)
        words = self._gen.state() if self._reshuffled and self._gen is not None else None
        return tuple(active), tuple(held), tuple(discards), tuple(told), words


def told_hook(house: House, dealer: int, upcard: int, pot: Any) -> Callable[..., Any]:
    """The kernel's call at the deal of each sampled world of a house whose decisions or
    draw is a plugin's (worlds.cpp ``replay_spec``; :func:`bourre.kernel.rollouts.sample_worlds`,
    :func:`~bourre.kernel.rollouts.replay_world`): ``told(hands)`` (each seat's cards
    as the sample deals them) → ``(run, turn)``: the hand state made as
    :func:`bourre.game.worlds._replay` makes it (a table's ``Dealt``: every hand shown,
    sorted, the stock unseen; ``pot`` in the middle, nobody antes: ``set_hand``; the
    order of a reshuffle the discards', R-RESHUFFLE), its first turn.  The deal's
    ``check_hand`` is the built-in deal's, which the kernel checks itself (R-DEAL)."""
    rules = house.rules
    both = (rules[DECISIONS], rules[DRAW])
    n, h = house.table.players, rules.hand_size

    def told(hands: list[list[int]]) -> tuple[HandDecisions, Turned]:
        hs = HandState(
            number=1, n=n, hand_size=h, dealer=dealer, hands=[sorted(c) for c in hands],
            upcard=upcard, stock=[], pot=0,
        )  # fmt: skip
        hs.unseen_stock = 52 - n * h
        hs.pot = pot
        run = HandDecisions(both, hs, h, None)
        return run, run.next()

    return told


def decisions_hook(house: House, scale: int) -> Callable[..., Any]:
    """The kernel's call at each deal of a house whose decisions or draw is a plugin's:
    ``begin(number, dealer, deck, pot_before, pot, words)`` (the hand's number, its
    dealer, the deck top first as bytes, the pot before and after the antes in
    1/``scale`` chips, the session's reshuffle stream as four words, ``None`` for an
    unseeded state's scripted reshuffle) → ``(run, turn)``:
    the hand's :class:`HandDecisions` and its first turn (:data:`Turned`).  The deal is
    the house's (built in: the kernel dealt the same deck), the hand state is made as
    :func:`bourre.game.state.deal_hand` makes it."""
    rules = house.rules
    deal = rules[DEAL].deal
    both = (rules[DECISIONS], rules[DRAW])
    n, h = house.table.players, rules.hand_size

    def amount(x: int) -> Any:
        return x // scale if x % scale == 0 else Fraction(x, scale)

    def begin(
        number: int,
        dealer: int,
        deck: bytes,
        pot_before: int,
        pot: int,
        words: tuple[int, ...] | None,
    ) -> tuple[HandDecisions, Turned]:
        hands, upcard, stock = deal(list(deck), dealer, n)
        hs = HandState(
            number=number, n=n, hand_size=h, dealer=dealer, hands=hands,
            upcard=upcard, stock=stock, pot=amount(pot_before),
        )  # fmt: skip
        hs.pot = amount(pot)
        run = HandDecisions(both, hs, h, Xoshiro128(*words) if words is not None else None)
        return run, run.next()

    return begin
