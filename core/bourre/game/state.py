"""The game's state, stepped from outside, in the manner of OpenSpiel's
``kuhn_poker.py``: what changes in a session and its current hand (:class:`State`,
the hand itself a :class:`~bourre.rules.hand.HandState`), and what one seat may observe of
it (:func:`observe`).

The static facts are the house's (:class:`bourre.game.Game`, :class:`bourre.rules.house.House`).
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
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING

from bourre.game import course, tablesteps
from bourre.game.actions import CARDS, PASS, PLAY, Action, Dealt, Deck
from bourre.game.chance import Chance
from bourre.game.course import HandResult
from bourre.game.observation import Discards, Observation
from bourre.game.phase import CHANCE, CHANCE_PHASES, TERMINAL, Phase
from bourre.game.tablesteps import HandLog, PlayLog, Told
from bourre.rules import DECIDE, HandOutcome, Reason, RuleViolation, Turn
from bourre.rules.cards import card_symbol
from bourre.rules.hand import HandState, PublicDecision, TrickLog
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
)
from bourre.rules.money import Amount

if TYPE_CHECKING:
    from bourre.game.protocol import GameState
    from bourre.rules.hookspec import CinchRule, FollowRule
    from bourre.rules.house import House

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
    "hand_only",
    "legal_play",
    "observe",
]


def is_amount(x: object) -> bool:
    return (isinstance(x, int) and not isinstance(x, bool)) or isinstance(x, Fraction)


@dataclass(frozen=True)
class Legal:
    """The cards the player to play may play and why (:meth:`State.legal_with_reasons`):
    the ordinary obligations' reason, then the cinch's when the player has one."""

    seat: int
    cards: tuple[int, ...]
    """The legal cards, in the hand's order; never none."""
    reasons: tuple[Reason, ...]
    cinch: bool
    """Whether the player has a cinch (R-SURE)."""
    ordinary: tuple[int, ...]
    """The cards the ordinary obligations allow (before the cinch)."""

    @property
    def rules(self) -> list[str]:
        """The ids of the rules that decided the legal set, in order."""
        return [r.rule for r in self.reasons]

    def reason_for(self, card: int) -> Reason:
        """Why ``card``, held and not legal, may not be played: the reason of the rule
        that left it out (the ordinary obligations', else the cinch's)."""
        return self.reasons[0] if card not in self.ordinary else self.reasons[-1]

    def refusal(self, card: int) -> RuleViolation:
        """The refusal of ``card``, held and not legal, in :meth:`reason_for`'s words."""
        reason = self.reason_for(card)
        return RuleViolation(
            reason.rule,
            f"seat {self.seat} may not play {card_symbol(card)}: {reason.words}",
            self.cards,
        )


def legal_play(
    follow: FollowRule,
    cinch: CinchRule,
    seat: int,
    hand: tuple[int, ...],
    trick: tuple[int, ...],
    trump: int,
    known: frozenset[int],
    won: int,
    last: bool,
) -> Legal:
    """The legal cards of ``seat`` holding ``hand`` on ``trick`` and why: the ordinary
    obligations' answer (R-FOLLOW …), narrowed by the cinch when the player has one
    (R-SURE … R-CINCH-LAST).  ``known``: the cards the player knows are out of every
    opponent's hand; ``won``: its tricks; ``last``: it plays last to the trick."""
    ordinary = follow.legal(hand, trick, trump)
    ruling, reasons = ordinary, [ordinary.reason]
    has = cinch.has_cinch(hand, trump, known, won)
    if has:
        ruling = cinch.narrow(ordinary, hand, trick, trump, known, last)
        if ruling is not ordinary:
            reasons.append(ruling.reason)
    return Legal(seat, ruling.cards, tuple(reasons), has, ordinary.cards)


class State:
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
        course.begin_hand(self)

    # -- public facts (read-only) -----------------------------------------------------

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
    def keep_results(self) -> bool:
        """Whether results are kept."""
        return self._keep_results

    @property
    def announce(self) -> bool:
        """Whether decisions are announced."""
        return self._announce

    @property
    def balances(self) -> tuple[Amount, ...]:
        """Each seat's balance now."""
        return tuple(self._balances)

    @property
    def start(self) -> tuple[Amount, ...]:
        """Each seat's balance at the start."""
        return self._start

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
        """At a seeded deal, the one outcome chance draws next with probability 1 (the
        seed's deck, drawn on a copy); else none: a table or a sampler gives them."""
        if self._phase is not Phase.DEAL or self._chance is None:
            return []
        return [(Deck(tuple(self._chance.copy().deck())), 1.0)]

    # -- stepping ---------------------------------------------------------------------

    def apply_action(self, action: Action) -> None:
        """Apply the current player's action; an illegal one raises
        :class:`~bourre.rules.RuleViolation` naming the rule, the state unchanged."""
        if not isinstance(action, Action):
            raise RuleViolation(
                "R-DECIDE", f"{action!r} is not an action: pass, play, a discard or a card"
            )
        if self._phase is Phase.PLAY:
            seat = self.current_player()
            if action.kind != "card" or len(action.cards) != 1:
                raise RuleViolation("R-LEAD", f"seat {seat} is to play a card")
            card = action.cards[0]
            if card not in self.legal_with_reasons().cards:
                raise tablesteps.refusal(self, card)
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
        course.advance(self)

    def _exchange(self, hs: HandState, seat: int, cards: tuple[int, ...]) -> None:
        """A seat's discards: the house's draw, or a chance node when the stock is unseen."""
        if self._told.after_draw is not None or (cards and (hs.unseen_stock or hs.hidden[seat])):
            tablesteps.exchange_unseen(self, hs, seat, cards)  # what a table tells
            return
        before = set(hs.hands[seat])
        self._draw.draw(hs, seat, cards)  # refuses what is not allowed, unchanged (R-DRAW)
        if cards:
            hs.gave[seat] = cards
            hs.got[seat] = tuple(c for c in hs.hands[seat] if c not in before)
        self._decisions.exchanged(hs, seat, cards)

    def apply_chance(self, outcome: object) -> None:
        """Apply a chance outcome: a :class:`~bourre.game.actions.Deck` at a deal, or
        what a table saw (a ``Dealt`` deal or hand, a ``Drew``, an ``AfterDraw``:
        :func:`bourre.game.tablesteps.table_chance`).  An impossible outcome raises ``RuleViolation``,
        unchanged."""
        if self._phase is Phase.DEAL and isinstance(outcome, (Deck, Dealt)):
            if isinstance(outcome, Deck) and not whole_deck(outcome.cards):
                raise RuleViolation("R-DECK", "a deck holds the 52 cards once each")
            course.deal_hand(self, outcome)  # (the state's own seeded decks need no such check)
        else:
            tablesteps.table_chance(self, outcome)
        self._history.append(outcome)
        course.advance(self)

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
        course.play(self, card, renege, first)  # (for bourre.game.tablesteps.referee_play)


def hand_only(state: GameState, *, keep_results: bool = False) -> State:
    """A private Python copy of ``state`` that ends the session with this hand,
    unsettled and unrecorded, keeping no result nor history (with ``keep_results``:
    those so far, and this hand's): its ``returns()`` at the end less those now are
    exactly this hand's payout (the solver's root)."""
    root = state.python_copy()
    root._hands_total, root._settles, root._record = root._number, False, False
    root._keep_results = keep_results
    if not keep_results:
        root._results, root._history = [], []
    return root


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
            limit = state.exchange_limit()
            legal_actions = state.legal_actions()  # type: ignore[assignment]
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
