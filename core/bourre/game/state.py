"""The game's state, stepped from outside, in the manner of OpenSpiel's
``kuhn_poker.py``: what changes in a session and its current hand (:class:`State`,
the hand itself a :class:`~bourre.rules.hand.HandState`), and what one seat may observe of
it (:func:`observe`).

The static facts are the house's (:class:`bourre.game.Game`, :class:`bourre.houses.house.House`).
A hand flows antes → deal (a chance node) → decisions and exchanges → tricks →
payout → next dealer; the session ends with the settlement (R-SESSION, R-SETTLE).
The state knows no rule itself: at each step it asks the house's rule component for
that step (:mod:`bourre.rules.hookspec`), and every refusal and every explanation is the
component's own.  Randomness enters only as chance outcomes (:mod:`bourre.game.actions`):
drawn from the seed, or given at each chance node (the whole deck, or what a table
saw), so any hand can be replayed or refereed from a real table.

Bots and people step it with :meth:`State.legal_actions` and :meth:`State.apply_action`.
Its fields are private; what a consumer reads is a method or a read-only property
(:class:`bourre.game.protocol.GameState`).  What a real table adds (a hand's position
given before its deal, reneges, corrections, premature announcements: R-PREMATURE,
R-RENEGE, R-CORRECTED) is :class:`bourre.referee.table.TableState`'s, stepped through
the few primitives of :mod:`bourre.game.tablesteps`.

After the class come its private half, as functions of the state: the course of a hand
(:func:`deal_hand`, :func:`advance`, :func:`play` …) and what a table saw instead of a
deck (:func:`table_chance`: a ``Dealt`` hand, a ``Drew``, an ``AfterDraw`` read through
:func:`bourre.game.unseen.split`); nothing outside :mod:`bourre.game` calls them.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from fractions import Fraction
from itertools import combinations
from math import comb
from typing import TYPE_CHECKING

from bourre.game.actions import (
    CARDS,
    PASS,
    PLAY,
    Action,
    AfterDraw,
    Dealt,
    Deck,
    Drew,
    canonical,
)
from bourre.game.chance import Chance
from bourre.game.facts import SessionFacts
from bourre.game.legal import Legal, legal_play
from bourre.game.log import HandLog, HandResult, PlayLog, Told
from bourre.game.observation import Discards, Observation
from bourre.game.phase import CHANCE, CHANCE_PHASES, TERMINAL, Phase
from bourre.game.unseen import split, unplaced
from bourre.rules import DECIDE, HandOutcome, PlayResult, RuleViolation, Turn
from bourre.rules.cards import card_symbol
from bourre.rules.hand import HandState, PublicDecision, Reshuffle, TrickLog, keep_order
from bourre.rules.hookspec import (
    ANTE,
    CINCH,
    DEAL,
    DECISIONS,
    DRAW,
    FOLLOW,
    HAND_SIZE,
    LEAD,
    NEXT_DEALER,
    PAYOUT,
    PENALTY,
    SETTLE,
    TRICK_WINNER,
    DecisionRule,
    DrawRule,
    PluginError,
)
from bourre.rules.money import Amount

if TYPE_CHECKING:
    from bourre.houses.house import House

__all__ = [
    "CHANCE",
    "TERMINAL",
    "HandResult",
    "HandState",
    "Legal",
    "Phase",
    "PlayLog",
    "PublicDecision",
    "State",
    "TrickLog",
    "legal_play",
    "observe",
]


MAX_LISTED = 5000
"""The most chance outcomes :meth:`State.chance_outcomes` lists."""


def is_amount(x: object) -> bool:
    return (isinstance(x, int) and not isinstance(x, bool)) or isinstance(x, Fraction)


class State(SessionFacts):
    """A session at one house (or one hand of it), stepped from outside.

    Made by :meth:`bourre.game.Game.new_session` / :meth:`~bourre.game.Game.new_hand`.
    Ask :meth:`current_player` (a seat, :data:`CHANCE` or :data:`TERMINAL`), then
    :meth:`legal_actions` and :meth:`apply_action`, or at a chance node
    :meth:`apply_chance`.  A seeded state draws its own chance outcomes.
    """

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
    ) -> None:
        # the static facts, read off the house once
        self._house, rules, table = house, house.rules, house.table
        self._n = n = table.players
        self._h = rules[HAND_SIZE]
        self._ante, self._deal, self._decisions = rules[ANTE], rules[DEAL], rules[DECISIONS]
        self._draw, self._lead = rules[DRAW], rules[LEAD]
        self._follow, self._cinch = rules[FOLLOW], rules[CINCH]
        self._trick_winner, self._penalty = rules[TRICK_WINNER], rules[PENALTY]
        self._payout, self._next_dealer = rules[PAYOUT], rules[NEXT_DEALER]
        self._settle = rules[SETTLE]
        self._announce = bool(self._decisions.announcements)
        self._checked = bool(house.guarded)  # components not built in: cards checked
        # the session
        self._balances: list[Amount] = checked_balances(balances, table.balance, n)
        if not is_amount(pot) or pot < 0:
            raise ValueError(f"pot: {pot!r} is not an amount ≥ 0 (R-ANTE)")
        if dealer is not None and (not isinstance(dealer, int) or not 0 <= dealer < n):
            raise ValueError(f"dealer: no seat {dealer!r} at a table of {n} (R-SEAT)")
        if hands is not None and (not isinstance(hands, int) or hands < 1):
            raise ValueError(f"hands: {hands!r} is not a number of hands ≥ 1 (R-SESSION)")
        self._start: tuple[Amount, ...] = tuple(self._balances)
        self._pot: Amount = pot
        self._total: Amount = sum(self._balances) + pot  # balances + pot, always
        self._previous = previous
        self._marks = [False] * n  # lost their next turn to deal (R-PREMATURE, R-CORRECTED)
        self._chance: Chance | None = Chance(seed) if seed is not None else None
        first = table.first_dealer if dealer is None else dealer
        if not isinstance(first, int) and self._chance is not None:
            first = self._chance.seat(n)  # drawn before the first deck (the seed's order)
        self._first_dealer: int | None = first if isinstance(first, int) else None
        self._last_dealer: int | None = None
        self._hands_total: int = table.hands if hands is None else hands
        self._settles, self._record = settle, record
        self._keep_results = keep_results or record
        self._number = 0
        self._results: list[HandResult] = []
        self._history: list[object] = []
        self._final: tuple[list[Amount], list[int]] | None = None
        # the hand
        self._hs: HandState | None = None
        self._phase = Phase.DEAL
        self._turn: Turn | None = None
        self._steps = 0  # decisions and exchanges applied this hand (a procedure ends)
        self._told = Told()  # what a table told of this hand (bourre.game.tablesteps)
        self._log = HandLog()  # this hand's antes and plays, as the record reports them
        self._legal: Legal | None = None
        begin_hand(self)

    # -- public facts (read-only) -----------------------------------------------------

    @property
    def pot(self) -> Amount:
        """The pot now."""
        return self._pot

    @property
    def number(self) -> int:
        """Hands dealt so far."""
        return self._number

    @property
    def hands_total(self) -> int:
        """The session's hands."""
        return self._hands_total

    @property
    def balances(self) -> tuple[Amount, ...]:
        """Each seat's balance now."""
        return tuple(self._balances)

    @property
    def results(self) -> list[HandResult]:
        """The finished hands' results (none with ``keep_results=False``): a new list."""
        return list(self._results)

    @property
    def final(self) -> tuple[list[Amount], list[int]] | None:
        """The settlement (R-SETTLE) once a settled session is over."""
        return self._final

    @property
    def hand(self) -> HandState:
        """The current (or last) hand's full state: the referee's and the tests' view,
        with every hidden card (the state's own: read it, do not change it).  Bots get
        :meth:`observation` instead."""
        if self._hs is None:
            raise RuleViolation("R-DEAL", "no hand has been dealt yet")
        return self._hs

    # -- who acts, and what they may do -----------------------------------------------

    def current_player(self) -> int:
        """The seat to act, :data:`CHANCE` at a chance node, :data:`TERMINAL` at the end."""
        if self._phase is Phase.PLAY:
            hs = self.hand
            return hs.trick_seats[len(hs.trick)]
        if self._phase is Phase.DECIDE:
            assert self._turn is not None
            return self._turn.seat
        return TERMINAL if self._phase is Phase.OVER else CHANCE

    def is_terminal(self) -> bool:
        return self._phase is Phase.OVER

    def is_chance_node(self) -> bool:
        return self._phase in CHANCE_PHASES

    @property
    def chance_wants(self) -> str:
        """At a chance node, the outcome it wants: ``"deal"`` (a Deck or Dealt), ``"hand"``
        (a Dealt naming the waiting seat's hand, or an AfterDraw, the hand it held after
        its exchange) or ``"draw"`` (a Drew for its exchange); else ``""``
        (:func:`bourre.game.tablesteps.waiting` names the seat)."""
        return {Phase.DEAL: "deal", Phase.REVEAL: "hand", Phase.DRAW: "draw"}.get(self._phase, "")

    @property
    def phase_name(self) -> str:
        """``"decide"``, ``"exchange"``, ``"play"``, ``"chance"`` or ``"over"``."""
        if self._phase is Phase.DECIDE:
            assert self._turn is not None
            return "decide" if self._turn.kind == DECIDE else "exchange"
        return "chance" if self._phase in CHANCE_PHASES else self._phase.value

    def cards_of(self, seat: int) -> tuple[int, ...]:
        """``seat``'s cards now, sorted (none before the deal)."""
        return self._hs.hand_of(seat) if self._hs is not None else ()

    def exchange_limit(self) -> int:
        """The most cards the seat to exchange may discard now (R-DRAW), else 0."""
        if self.phase_name != "exchange":
            return 0
        assert self._turn is not None
        return self._draw.limit(self.hand, self._turn.seat)

    def legal_with_reasons(self) -> Legal:
        """The cards the player to play may play, and why: the ordinary obligations'
        reason (R-LEAD, R-FOLLOW, R-TRUMP, R-DISCARD …), then the cinch's when the
        player has one (R-CINCH-LEAD, R-CINCH-FOLLOW, R-CINCH-LAST).  Computed once
        per turn; the one answer ``check``, the referee, the web page and the record
        use."""
        if self._phase is not Phase.PLAY:
            raise RuleViolation("R-LEAD", "no card is to be played now")
        if self._legal is None:
            hs = self.hand
            seat = hs.trick_seats[len(hs.trick)]
            last = len(hs.trick) == len(hs.trick_seats) - 1
            self._legal = legal_play(
                self._follow, self._cinch, seat, hs.hand_of(seat), tuple(hs.trick),
                hs.trump, hs.known_to(seat), hs.won[seat], last,
            )  # fmt: skip
        return self._legal

    def legal_cards(self) -> list[int]:
        """The cards the player to act may play (R-FOLLOW … R-CINCH-LAST): a new list."""
        return list(self.legal_with_reasons().cards)

    def legal_actions(self) -> Sequence[Action]:
        """What the player to act may do; empty at a chance node or the end.  An
        exchange's discards are every subset of the hand within the limit, smallest
        first: an immutable :class:`~bourre.game.observation.Discards` sequence (it equals
        the list of those actions)."""
        if self._phase is Phase.PLAY:
            return [CARDS[c] for c in self.legal_with_reasons().cards]
        if self._phase is not Phase.DECIDE:
            return []
        t = self._turn
        assert t is not None
        if t.kind == DECIDE:
            return [PLAY] if t.forced is not None else [PASS, PLAY]
        return Discards(self.hand.hand_of(t.seat), self.exchange_limit())

    def only_action(self) -> Action | None:
        """The player's only legal action when there is just one (a last card, a
        single card that follows, a play the rules force: R-ACE-UP, R-LAST-STANDS),
        else ``None``; nothing changes."""
        if self._phase is Phase.PLAY:
            cards = self.legal_with_reasons().cards
            return CARDS[cards[0]] if len(cards) == 1 else None
        t = self._turn
        if self._phase is Phase.DECIDE and t is not None and t.kind == DECIDE and t.forced:
            return PLAY
        return None

    def why_not(self, action: Action) -> RuleViolation | None:
        """``None`` if ``action`` is legal now, else the refusal ``apply_action``
        would raise (the rule component's rule id and words); nothing changes."""
        try:
            self.clone().apply_action(action)
        except RuleViolation as e:
            return e
        return None

    def chance_outcomes(self) -> list[tuple[object, float]]:
        """The chance outcomes now with their probabilities, where they can be listed:
        the replacements of an exchange from an unseen stock (a ``Drew`` of each set of
        cards nobody has placed, equally likely; at most :data:`MAX_LISTED`).  A deal
        (52! decks), a hidden hand and a stock run out are given, not listed: ``[]``."""
        if self._phase is not Phase.DRAW:
            return []
        hs, k = self.hand, len(self._told.discards)
        pool = [c for c in unplaced(hs) if c not in hs.hands[self._told.seat]]
        if k > hs.unseen_stock or hs.stock or comb(len(pool), k) > MAX_LISTED:
            return []
        return [(Drew(cards), 1 / comb(len(pool), k)) for cards in combinations(pool, k)]

    # -- stepping ---------------------------------------------------------------------

    def apply_action(self, action: Action) -> None:
        """Apply the current player's action; an illegal one raises
        :class:`~bourre.rules.RuleViolation` naming the rule, the state unchanged."""
        given = action
        if not isinstance(action, Action) or (action := canonical(action)) is None:  # type: ignore[assignment]
            what = f"{given!r}" if not isinstance(given, Action) else f"{tuple(given)!r}"
            raise RuleViolation(
                "R-DECIDE", f"{what} is not an action: pass, play, a discard or a card"
            )
        if self._phase is Phase.PLAY:
            seat = self.current_player()
            if action.kind != "card" or len(action.cards) != 1:
                raise RuleViolation("R-LEAD", f"seat {seat} is to play a card")
            card = action.cards[0]
            if card not in self.legal_with_reasons().cards:
                raise refusal(self, card)
            self._play(card)
            return
        if self._phase is not Phase.DECIDE:
            what = "the session is over" if self._phase is Phase.OVER else "chance acts now"
            if self._phase is not Phase.OVER:
                what += " (apply_chance)"
            raise RuleViolation("R-SESSION", f"no player acts: {what}")
        t, hs = self._turn, self.hand
        assert t is not None
        if t.kind == DECIDE:
            if action.kind not in ("pass", "play") or action.cards:
                raise RuleViolation("R-DECIDE", f"seat {t.seat} is to say pass or play")
            self._decisions.decide(hs, t.seat, action.kind == "play")
        else:
            if action.kind != "discard":
                raise RuleViolation("R-DRAW", f"seat {t.seat} is to discard (or stand pat)")
            self._exchange(hs, t.seat, action.cards)
        self._history.append(action)
        advance(self)

    def _exchange(self, hs: HandState, seat: int, cards: tuple[int, ...]) -> None:
        """A seat's discards: the house's draw, or a chance node when the stock is unseen."""
        if self._told.after_draw is not None or (cards and (hs.unseen_stock or hs.hidden[seat])):
            exchange_unseen(self, hs, seat, cards)  # what a table tells
            return
        exchange_from_stock(self._draw, self._decisions, hs, seat, cards)

    def apply_chance(self, outcome: object) -> None:
        """Apply a chance outcome: a :class:`~bourre.game.actions.Deck` at a deal, or
        what a table saw (a ``Dealt`` deal or hand, a ``Drew``, an ``AfterDraw``:
        :func:`bourre.game.tablesteps.table_chance`).  An impossible outcome raises ``RuleViolation``,
        unchanged."""
        well_formed(outcome)
        if self._phase is Phase.DEAL and isinstance(outcome, (Deck, Dealt)):
            if isinstance(outcome, Deck) and not whole_deck(outcome.cards):
                raise RuleViolation("R-DECK", "a deck holds the 52 cards once each")
            deal_hand(self, outcome)  # (the state's own seeded decks need no such check)
        else:
            table_chance(self, outcome)
        self._history.append(outcome)
        advance(self)

    # -- results ----------------------------------------------------------------------

    def returns(self) -> list[Amount]:
        """Each seat's money change so far (exact); once a session is settled they
        sum to zero."""
        balances = self._final[0] if self._final is not None else self._balances
        return [b - s for b, s in zip(balances, self._start, strict=True)]

    def history(self) -> list[object]:
        """Every action and chance outcome applied, in order (replayable); a state
        made with ``keep_results=False`` keeps those of the current hand only, from
        its deal (a long session needs the memory of one hand)."""
        return list(self._history)

    def holdings(self) -> tuple[object, ...]:
        """What no bot may change while it is asked (:func:`~bourre.game.players.play_out`
        checks it around every answer): the balances, the pot, the hands."""
        hands = tuple(map(tuple, self._hs.hands)) if self._hs is not None else ()
        return (tuple(self._balances), self._pot, hands)

    def observation(self, seat: int) -> Observation:
        """What ``seat`` may know now, as a new immutable value (:func:`observe`)."""
        return observe(self, seat)

    def python_copy(self) -> State:
        """An independent copy on the Python rules (:meth:`clone`)."""
        return self.clone()

    def clone(self) -> State:
        """An independent copy: playing both the same way gives the same returns.
        Rule components, the house and finished hands' results are shared."""
        c = copy.copy(self)
        c._balances, c._marks = list(self._balances), list(self._marks)
        c._results, c._history = list(self._results), list(self._history)
        c._told, c._log = self._told.copy(), self._log.copy()
        c._chance = self._chance.copy() if self._chance is not None else None
        if self._hs is not None:
            c._hs = self._hs.copy()
            if c._chance is not None and self._told.reshuffle is None:
                c._hs.reshuffle = c._chance.reshuffle  # the copy's own stream
        return c

    def __str__(self) -> str:
        where = f"hand {self._number}/{self._hands_total}, {self.phase_name}"
        if self._hs is None:
            return f"State({self._house.spec}: before hand {self._number + 1}, pot {self._pot})"
        hs = self._hs
        to_act = self.current_player()
        who = f", seat {to_act} to act" if to_act >= 0 else ""
        return (
            f"State({self._house.spec}: {where}{who}; dealer {hs.dealer}, upcard"
            f" {card_symbol(hs.upcard)}, tricks {hs.won}, pot {self._pot})"
        )

    def _play(self, card: int, renege: bool = False, first: int | None = None) -> None:
        play(self, card, renege, first)  # (for bourre.game.tablesteps.referee_play)


# -- the course of a hand (the state's private half: nothing outside bourre.game calls it)


def begin_hand(state: State) -> None:
    """A new hand: its position is open until the deal; a seeded state deals at once."""
    state._phase, state._hs, state._told = Phase.DEAL, None, Told()
    if not state._keep_results:
        state._history.clear()  # a lean session: this hand's actions only
    if state._chance is not None:
        deck = Deck(tuple(state._chance.deck()))
        deal_hand(state, deck)
        state._history.append(deck)
        advance(state)


def _dealer(state: State) -> int:
    """The given dealer, else the first, else the house's next dealer (R-DEALER)."""
    if state._told.dealer is not None:
        return state._told.dealer
    if state._last_dealer is None:
        if state._first_dealer is None:
            raise RuleViolation("R-DEALER", "no dealer: table.first_dealer is 'random'")
        return state._first_dealer
    return state._next_dealer(state._last_dealer, state._marks)


def deal_hand(state: State, outcome: Deck | Dealt) -> None:
    """The deal (a chance outcome: R-DEAL, R-DECK), then the antes (R-FIRST-POT,
    R-ANTE), told the dealer; the decisions begin."""
    n, dealer = state._n, _dealer(state)
    reshuffle = state._told.reshuffle
    if reshuffle is None:
        reshuffle = state._chance.reshuffle if state._chance is not None else keep_order
    if isinstance(outcome, Dealt):
        hs = dealt_hand(state, outcome, dealer, reshuffle)
    else:
        hands, upcard, stock = state._deal.deal(outcome.cards, dealer, n)
        if any(len(hand) != state._h for hand in hands) or len(hands) != n:
            who = state._house.answered_by[DEAL.name].name
            raise PluginError(
                who, DEAL.name, f"the deal must give {n} hands of {state._h} cards (R-DEAL)"
            )
        hs = HandState(
            number=state._number + 1, n=n, hand_size=state._h, dealer=dealer, hands=hands,
            upcard=upcard, stock=stock, pot=state._pot, reshuffle=reshuffle,
        )  # fmt: skip
    state._last_dealer = dealer
    state._number += 1
    log = state._log = HandLog()
    if state._told.pot is not None:  # a pot already in the middle: nobody antes
        state._total += state._told.pot - state._pot
        state._pot = state._told.pot
        log.antes = [0] * n
    else:
        ante, rule = state._house.table.ante, state._ante
        log.antes = rule.hand_antes(n, ante, state._previous, dealer)
        if state._record:
            log.ante_reasons = rule.reasons(n, ante, state._previous, dealer)
        for s in range(n):
            state._balances[s] -= log.antes[s]
        state._pot += sum(log.antes)
    hs.pot = state._pot
    state._hs, state._phase, state._turn, state._steps = hs, Phase.DECIDE, None, 0


def advance(state: State) -> None:
    """Run the hand on until someone (or chance) must act."""
    if state._phase is not Phase.DECIDE:
        return
    hs = state.hand
    state._steps += 1
    if state._steps > 4 * state._n + 4:  # each seat decides once and exchanges once
        who = state._house.answered_by[DECISIONS.name].name
        raise PluginError(
            who, DECISIONS.name, "the decisions do not end: no progress after every seat acted"
        )
    t = state._turn = state._decisions.turn(hs)
    if t is not None:
        if t.kind != DECIDE and hs.hidden[t.seat] and state._told.after_draw is None:
            state._told.seat, state._phase = t.seat, Phase.REVEAL
        return
    if not hs.active:  # (a plugin's decisions that let everyone pass)
        who = state._house.answered_by[DECISIONS.name].name
        raise PluginError(
            who, DECISIONS.name, "the decisions ended with nobody playing (R-LAST-STANDS)"
        )
    for s in hs.active:
        if hs.hidden[s]:  # a seat forced in whose hand nobody showed
            state._told.seat, state._phase = s, Phase.REVEAL
            return
    _start_play(state, hs)


def _start_play(state: State, hs: HandState) -> None:
    """The decisions are over: the play ante, R-SOLE, the first lead (R-LEAD)."""
    extra = state._ante.play_ante(state._house.table.ante)  # double-ante
    for s in hs.active:
        state._balances[s] -= extra
    state._pot += extra * len(hs.active)
    hs.pot = hs.pot_at_stake = state._pot
    state._log.start_play([list(cards) for cards in hs.hands] if state._record else [])
    if len(hs.active) == 1:  # R-SOLE
        hs.won[hs.active[0]] = state._h
        _end_hand(state)
        return
    _new_trick(state, hs, None)
    state._phase = Phase.PLAY


def _new_trick(state: State, hs: HandState, winner: int | None) -> None:
    """A new trick: who leads it and plays to it in what order is the house's lead
    (R-LEAD), told the winner of the last trick (``None``: the first)."""
    hs.trick_seats = list(state._lead(tuple(hs.active), hs.dealer, winner))
    hs.trick, hs.leader, state._legal = [], hs.trick_seats[0], None


def play(state: State, card: int, renege: bool = False, first: int | None = None) -> None:
    """The player to play plays ``card`` (a renege, or a correction of ``first``, on
    a table's path: :func:`bourre.game.tablesteps.referee_play`); a full trick goes
    to its winner, who leads the next (R-TRICK); after the last trick the hand ends."""
    hs, legal = state.hand, state.legal_with_reasons()
    seat = legal.seat
    if legal.cinch:
        hs.cinch_plays += 1
    state._history.append(state._log.played(legal, card, renege, first, state._record))
    hs.hands[seat].remove(card)
    hs.trick.append(card)
    hs.played.add(card)
    state._legal = None
    if len(hs.trick) < len(hs.trick_seats):
        return
    winner = hs.trick_seats[state._trick_winner(tuple(hs.trick), hs.trump)]
    hs.won[winner] += 1
    hs.tricks.append(
        TrickLog(hs.leader, tuple(zip(hs.trick_seats, hs.trick, strict=False)), winner)
    )
    if len(hs.tricks) < state._h:
        _new_trick(state, hs, winner)
        return
    hs.trick, hs.trick_seats = [], []
    _end_hand(state)


def _end_hand(state: State) -> None:
    """The payout (R-WIN, R-BOURRE, R-ANTE …), the hand's result, then the next hand
    or the settlement (R-SESSION, R-SETTLE)."""
    hs, log, n = state.hand, state._log, state._n
    result = PlayResult(
        n, hs.pot_at_stake, list(hs.active), list(hs.won), set(log.forfeits),
        list(log.reneges), len(hs.active) == 1,
    )  # fmt: skip
    outcome = state._payout(result, state._penalty)
    for s in range(n):
        state._balances[s] += outcome.takes[s] - outcome.paid[s]
    state._pot = hs.pot = outcome.pot_after
    state._previous = outcome
    _check_conserved(
        state._house, state._checked, sum(state._balances) + state._pot, state._total, hs
    )
    for s in (*log.forfeits, *state._told.premature):
        state._marks[s] = True  # the next turn to deal is lost (R-CORRECTED, R-PREMATURE)
    if state._keep_results:
        state._results.append(
            HandResult(
                hs.number, hs.dealer, hs, outcome, list(state._balances), log.antes,
                log.hands_after, log.plays, log.ante_reasons,
            )
        )  # fmt: skip
    if state._number < state._hands_total:
        begin_hand(state)
        return
    state._phase = Phase.OVER
    if state._settles:
        state._final = state._settle(list(state._balances), state._pot)


def _check_conserved(
    house: House, checked: bool, money: Amount, total: Amount, hs: HandState
) -> None:
    """After every hand the money at the table is whole, and with components not
    built in the cards too; else the game stops naming those components."""
    problem = ""
    if money != total:
        problem = f"money not conserved: the table holds {money}, not {total}"
    elif checked and not hs.unseen_stock and not any(hs.hidden):
        try:
            hs.places()
        except AssertionError as e:
            problem = f"cards not conserved: {e}"
    if problem:
        who = ", ".join(house.guarded) or "the house's components"
        raise PluginError(who, f"hand {hs.number}", problem)


def refusal(state: State, card: int) -> RuleViolation:
    """Why the player to play may not play ``card``: the deciding component's words."""
    legal = state.legal_with_reasons()
    if not isinstance(card, int) or card not in state.hand.hands[legal.seat]:
        what = card_symbol(card) if isinstance(card, int) and 0 <= card < 52 else repr(card)
        return RuleViolation("R-DEAL", f"seat {legal.seat} does not hold {what}", legal.cards)
    return legal.refusal(card)


# -- what a table saw instead of a deck ----------------------------------------------


def table_chance(state: State, outcome: object) -> None:
    """Apply what a table saw at ``state``'s chance node (a ``Dealt`` deal or hand, an
    ``AfterDraw``, a ``Drew``); the state then goes on (:meth:`State.apply_chance`).
    An impossible outcome raises ``RuleViolation``, unchanged."""
    phase, told = state._phase, state._told
    if phase is Phase.REVEAL and isinstance(outcome, Dealt):
        _reveal(state, state.hand, told.seat, outcome)
        state._phase = Phase.DECIDE
    elif phase is Phase.REVEAL and isinstance(outcome, AfterDraw):
        hs, seat, t = state.hand, told.seat, state._turn
        if t is not None and t.kind != DECIDE and t.seat == seat:
            told.after_draw = tuple(outcome.cards)  # read with the discards it names
        else:  # no exchange follows: the hand it was dealt
            _reveal(state, hs, seat, Dealt.of(hs.upcard, {seat: outcome.cards}))
        state._phase = Phase.DECIDE
    elif phase is Phase.DRAW and isinstance(outcome, Drew):
        hs, seat, discards = state.hand, told.seat, told.discards
        exchange_told(state._draw, state._decisions, hs, seat, discards, outcome.cards)
        state._phase = Phase.DECIDE
    else:
        want = {
            Phase.DEAL: "a Deck or Dealt",
            Phase.REVEAL: "a Dealt hand or an AfterDraw",
            Phase.DRAW: "a Drew",
        }
        raise RuleViolation(
            "R-DEAL",
            f"chance does not act now, or wants {want.get(phase, 'nothing')}: got {outcome!r}",
        )


def exchange_from_stock(
    draw: DrawRule, decisions: DecisionRule, hs: HandState, seat: int, cards: tuple[int, ...]
) -> None:
    """A seat's exchange from a stock the state holds (R-DRAW): the house's ``draw``
    (which refuses what is not allowed, the hand unchanged), what it gave and got, then
    its ``decisions`` told the exchange is made.  The one way an exchange is stepped, by
    the state and by the kernel's hand runs (:mod:`bourre.kernel.decisions`)."""
    before = set(hs.hands[seat])
    draw.draw(hs, seat, cards)
    if cards:
        hs.gave[seat] = cards
        hs.got[seat] = tuple(c for c in hs.hands[seat] if c not in before)
    decisions.exchanged(hs, seat, cards)


def exchange_told(
    draw: DrawRule,
    decisions: DecisionRule,
    hs: HandState,
    seat: int,
    cards: tuple[int, ...],
    drew: Sequence[int],
) -> None:
    """A seat's exchange whose replacements a table tells (R-DRAW: its discards already
    checked, :func:`exchange_unseen`): the house's ``drawn``, what it gave and got, then
    its ``decisions`` told.  As the state takes a ``Drew``, and the kernel's replay of
    a sample (:meth:`bourre.kernel.decisions.HandDecisions.drawn`)."""
    draw.drawn(hs, seat, cards, drew)
    hs.gave[seat], hs.got[seat] = cards, tuple(sorted(drew))
    decisions.exchanged(hs, seat, cards)


def exchange_unseen(state: State, hs: HandState, seat: int, cards: tuple[int, ...]) -> None:
    """The exchange of a seat when the table has not shown what it drew: after its hand
    after the exchange was shown (an ``AfterDraw``), or a chance node for its
    replacements (a ``Drew``: the stock, or its hand, unseen)."""
    told = state._told
    if told.after_draw is not None:
        _exchange_shown(state, hs, seat, cards, told.after_draw)
        told.after_draw = None
        return
    state._draw.check(hs, seat, cards)
    told.discards, told.seat = cards, seat
    state._phase = Phase.DRAW  # what a table knows: the replacements are told


def _exchange_shown(
    state: State, hs: HandState, seat: int, cards: tuple[int, ...], after: tuple[int, ...]
) -> None:
    """The exchange of a seat whose hand after it was shown (its plays): the hand it
    was dealt and what it drew read from them (:func:`bourre.game.unseen.split`), the
    deal checks that hand (R-DEAL), and the draw judges the exchange as one a table
    tells (R-DRAW, R-RESHUFFLE)."""
    dealt, drew = split(hs, seat, cards, after, state._draw.limit(hs, seat))
    _check_hand(state, seat, dealt, hs.dealer, hs.upcard)
    before, hidden = hs.hands[seat], hs.hidden[seat]
    hs.hands[seat], hs.hidden[seat] = sorted(dealt), False
    try:
        state._draw.drawn(hs, seat, cards, drew)
    except RuleViolation:
        hs.hands[seat], hs.hidden[seat] = before, hidden
        raise
    if cards:
        hs.gave[seat], hs.got[seat] = cards, tuple(sorted(drew))
    state._decisions.exchanged(hs, seat, cards)


def _check_hand(state: State, seat: int, cards: Sequence[int], dealer: int, upcard: int) -> None:
    n = state._n
    if not isinstance(seat, int) or not 0 <= seat < n:
        raise RuleViolation("R-SEAT", f"no seat {seat} at a table of {n}")
    if not all(type(c) is int and 0 <= c < 52 for c in cards):
        raise RuleViolation("R-DECK", f"seat {seat} was dealt something that is not a card")
    state._deal.check_hand(seat, cards, dealer, upcard)


def well_formed(outcome: object) -> None:
    """A table's outcome has the shape its type says, else one refusal naming it: a
    ``Dealt``'s hands a mapping of seats to cards (R-DEAL), a ``Drew``'s or an
    ``AfterDraw``'s cards a sequence (R-DRAW); which cards they may be is the rules'."""
    if isinstance(outcome, Dealt):
        hands = outcome.hands
        if not isinstance(hands, Mapping) or not all(
            isinstance(cards, (tuple, list)) for cards in hands.values()
        ):
            raise RuleViolation(
                "R-DEAL", f"a deal seen gives the hands as {{seat: cards}}, not {hands!r:.80}"
            )
    elif isinstance(outcome, (Drew, AfterDraw)) and not isinstance(outcome.cards, (tuple, list)):
        raise RuleViolation("R-DRAW", f"the cards are a list of cards, not {outcome.cards!r:.80}")


def dealt_hand(state: State, outcome: Dealt, dealer: int, reshuffle: Reshuffle) -> HandState:
    """A deal given by what the table saw: the upcard, the hands shown (R-DEAL)."""
    n, up = state._n, outcome.upcard
    if type(up) is not int or not 0 <= up < 52:
        raise RuleViolation("R-DEAL", "the upcard is required: it names trump")
    hands: list[list[int]] = [[] for _ in range(n)]
    hidden = [True] * n
    seen: dict[int, int] = {}
    for seat, cards in outcome.hands.items():
        _check_hand(state, seat, cards, dealer, up)
        for c in cards:
            if c in seen:
                raise RuleViolation(
                    "R-DECK", f"{card_symbol(c)} is dealt to seats {seen[c]} and {seat}"
                )
            seen[c] = seat
        hands[seat] = sorted(cards)
        hidden[seat] = False
    if hidden[dealer]:
        hands[dealer] = [up]  # the upcard is known to be in the dealer's hand
    hs = HandState(
        number=state._number + 1, n=n, hand_size=state._h, dealer=dealer, hands=hands,
        upcard=up, stock=[], pot=state._pot, reshuffle=reshuffle,
    )  # fmt: skip
    hs.hidden = hidden
    hs.unseen_stock = 52 - n * state._h
    return hs


def _reveal(state: State, hs: HandState, seat: int, outcome: Dealt) -> None:
    """The hand of ``seat``, who plays, shown after the deal (R-DEAL)."""
    if seat not in outcome.hands:
        raise RuleViolation("R-DEAL", f"seat {seat} plays: the cards it was dealt are required")
    cards = outcome.hands[seat]
    _check_hand(state, seat, cards, hs.dealer, hs.upcard)
    placed = hs.located()
    for c in cards:
        if c in placed and not (seat == hs.dealer and c == hs.upcard):
            raise RuleViolation(
                "R-DECK", f"{card_symbol(c)} is already elsewhere: seat {seat} cannot hold it"
            )
    hs.hands[seat] = sorted(cards)
    hs.hidden[seat] = False


def whole_deck(cards: Sequence[object]) -> bool:
    """Whether ``cards`` are the 52 cards, once each, as ints (R-DECK)."""
    return len(cards) == 52 and all(type(c) is int for c in cards) and set(cards) == set(range(52))


def checked_balances(balances: Sequence[Amount] | None, start: Amount, n: int) -> list[Amount]:
    """The session's starting balances: one exact amount per seat (R-SESSION)."""
    if balances is None:
        return [start] * n
    out = list(balances)
    if len(out) != n:
        raise ValueError(f"balances: {len(out)} given for {n} players (R-SESSION)")
    for s, b in enumerate(out):
        if not is_amount(b):
            raise ValueError(
                f"balances: seat {s}'s balance {b!r} is not a whole or exact amount (R-SESSION)"
            )
    return out


def observe(state: State, seat: int) -> Observation:
    """What ``seat`` may know of ``state`` now, as a new value: the public facts of
    the hand and that seat's own cards, never a reference to the state, the deck,
    the stock or another player's cards."""
    if not isinstance(seat, int) or not 0 <= seat < state.n:
        raise ValueError(f"no seat {seat!r} at a table of {state._n} (R-SEAT)")
    to_act = state.current_player()
    phase = state.phase_name
    legal_actions: tuple[Action, ...] | Discards = ()
    legal: tuple[int, ...] = ()
    cinch = False
    forced: str | None = None
    limit = 0
    hs = state._hs
    if to_act == seat:
        if phase == "play":
            got = state.legal_with_reasons()
            legal, cinch = got.cards, got.cinch
            legal_actions = tuple(CARDS[c] for c in legal)
        elif phase == "exchange":
            limit = state.exchange_limit()  # (the draw's limit asked once a view)
            legal_actions = Discards(state.cards_of(seat), limit)
        elif state._turn is not None:  # to say pass or play (R-DECIDE)
            forced = state._turn.forced
            legal_actions = (PLAY,) if forced is not None else (PASS, PLAY)
    to_act = max(to_act, -1)
    balances = tuple(state._balances)
    if hs is None:  # before the first deal
        n = state._n
        return Observation(
            seat, n, state._h, state._number + 1, -1, -1, -1, (), (), (), (), (), (),
            (0,) * n, state._pot, balances, 0, to_act, phase, (), (), False, None, -1,
            (), (), 0, 0,
        )  # fmt: skip
    secret = not state._announce and phase == "decide"
    trick = tuple(zip(hs.trick_seats, hs.trick, strict=False))
    played = 0
    for c in hs.played:
        played |= 1 << c
    return Observation(
        seat,
        hs.n,
        hs.hand_size,
        hs.number,
        hs.dealer,
        hs.upcard,
        hs.trump,
        hs.hand_of(seat),
        tuple(hs.discards[seat]),
        tuple(hs.decisions),
        () if secret else tuple(hs.active),
        tuple(hs.tricks),
        trick,
        tuple(hs.won),
        hs.pot,
        balances,
        len(hs.stock) + hs.unseen_stock,
        to_act,
        phase,
        legal_actions,
        legal,
        cinch,
        forced,
        hs.chosen[seat],
        hs.gave[seat],
        hs.got[seat],
        limit,
        played,
    )
