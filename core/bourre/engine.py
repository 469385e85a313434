"""The one game loop, turned inside out: :class:`State`, a session (or one hand)
stepped from outside, in the manner of OpenSpiel's ``State``.

A hand flows antes → deal (a chance node) → decisions and exchanges → tricks →
payout → next dealer; the session ends with the settlement (R-SESSION, R-SETTLE).
The engine knows no rule itself: every rule is a component of the house's
:class:`~bourre.rules.Rules`, and every refusal is the component's own words.
Randomness enters only as chance outcomes (:mod:`bourre.actions`): drawn from the
seed, or given by the caller at each chance node, so any hand can be replayed.  This
module holds the state and its API; the course of a hand it steps is
:mod:`bourre.flow`, and the tricks :mod:`bourre.cardplay`.

Bots and people drive it with :meth:`State.legal_actions` and
:meth:`State.apply_action`; the referee of a real table adds the explicit path
:meth:`State.referee_play` (R-RENEGE, R-CORRECTED).  :mod:`bourre.game` is the
front door (``Game(house).new_session(seed=…)``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final, cast

from bourre.actions import CARDS, PASS, PLAY, Action, Dealt, Deck, Drew
from bourre.build import warn_if_stale
from bourre.cardplay import legal as legal_set
from bourre.cardplay import play_card, refusal
from bourre.cards import card_str
from bourre.chance import Chance
from bourre.components import (
    CinchComponent,
    DecisionComponent,
    FollowComponent,
    compiled_form,
)
from bourre.flow import (
    DEAL,
    DECIDE,
    DECIDE_PHASE,
    DRAW,
    OVER,
    PHASE_NAMES,
    PLAY_PHASE,
    REVEAL,
    advance,
    begin_hand,
    deal,
    drew,
    end_hand,
    exchange,
)
from bourre.given import reveal
from bourre.house import House
from bourre.money import Amount
from bourre.observation import Discards, Observation
from bourre.observe import observe
from bourre.results import HandResult, PlayLog
from bourre.rules import (
    DrawRule,
    HandOutcome,
    Rules,
    RuleViolation,
    TrickWinnerFn,
    Turn,
)
from bourre.state import HandState, PublicDecision, TrickLog

__all__ = ["CHANCE", "TERMINAL", "Chance", "HandResult", "PlayLog", "State"]

warn_if_stale()  # an edited source shadowed by its compiled module (editable install)

CHANCE: Final = -1
"""``current_player()`` at a chance node (OpenSpiel's ``kChancePlayerId``)."""
TERMINAL: Final = -4
"""``current_player()`` once the session is over (OpenSpiel's ``kTerminalPlayerId``)."""

_CARDS: Final = CARDS
_PASS_A: Final = PASS  # read as constants by compiled code, not from the globals
_PLAY_A: Final = PLAY


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
        _copy_of: State | None = None,
    ) -> None:
        if _copy_of is not None:
            self._copy(_copy_of)
            return
        self.house = house
        self.rules = house.rules
        table = self.table = house.table
        n = self.n = table.players
        self.h = self.rules.hand_size
        self._components(self.rules)
        self.balances: list[Amount] = (
            list(balances) if balances is not None else [table.balance] * n
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
        fd = table.first_dealer if dealer is None else dealer
        if not isinstance(fd, int) and self.chance is not None:
            fd = self.chance.seat(n)  # drawn before the first deck (the seed's order)
        self.first_dealer: int | None = fd if isinstance(fd, int) else None
        self.last_dealer: int | None = None
        self.hands_total = table.hands if hands is None else hands
        self.settles = settle
        self.record = record
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
        """The legal cards as a mask (with ``legal``, made once per turn)."""
        self.discards: Discards | None = None
        self.has_cinch = False
        # immutable public facts shared by observations until they change (bourre.observe)
        self.pub_decisions: tuple[PublicDecision, ...] = ()
        self.pub_tricks: tuple[TrickLog, ...] = ()
        self.pub_won: tuple[int, ...] = ()
        self.pub_balances: tuple[Amount, ...] = ()
        self.pub_money = -1
        self.pub_trick: tuple[tuple[int, int], ...] = ()
        """The current trick's ``(seat, card)`` pairs, grown by one tuple per card."""
        self.pub_active: tuple[int, ...] = ()
        self.pub_hands: list[tuple[int, ...] | None] = [None] * n
        """Each seat's hand as a tuple, made again after it changes."""
        self.money = 0
        """Counts the changes of balances and pot (antes, payouts): observations
        copy the balances again only after one."""
        begin_hand(self)

    # -- who acts --------------------------------------------------------------------

    def current_player(self) -> int:
        """The seat to act, :data:`CHANCE` at a chance node, :data:`TERMINAL` at the end."""
        ph = self.phase
        if ph == PLAY_PHASE:
            hs = self.hs
            assert hs is not None
            return self.seats[len(hs.trick)]
        if ph == DECIDE_PHASE:
            t = self.turn
            assert t is not None
            return t.seat
        return TERMINAL if ph == OVER else CHANCE

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def is_chance_node(self) -> bool:
        return self.phase in (DEAL, REVEAL, DRAW)

    @property
    def chance_wants(self) -> str:
        """At a chance node, the outcome it wants: ``"deal"`` (a Deck or Dealt),
        ``"hand"`` (a Dealt naming the hand of ``pending_seat``, who plays) or
        ``"draw"`` (a Drew for ``pending_seat``'s exchange); else ``""``."""
        ph = self.phase
        return "deal" if ph == DEAL else "hand" if ph == REVEAL else "draw" if ph == DRAW else ""

    @property
    def phase_name(self) -> str:
        """``"decide"`` (or an exchange), ``"play"``, ``"chance"`` or ``"over"``."""
        if self.phase == DECIDE_PHASE and self.turn is not None and self.turn.kind != DECIDE:
            return "exchange"
        return PHASE_NAMES[self.phase]

    def exchange_limit(self) -> int:
        """The most cards the seat to exchange may discard now (R-DRAW), else 0."""
        t = self.turn
        if self.phase != DECIDE_PHASE or t is None or t.kind == DECIDE or self.hs is None:
            return 0
        return self.draw.limit(self.hs, t.seat)

    def legal_cards(self) -> list[int]:
        """The cards the player to act may play (R-FOLLOW … R-CINCH-LAST): a new list."""
        legal = self.legal
        if legal is None:
            legal = legal_set(self)
        return list(legal)

    def legal_actions(self) -> Sequence[Action]:
        """What the player to act may do; empty at a chance node or the end.  A list,
        except an exchange's discards (every subset of the hand within the limit,
        smallest first): an immutable :class:`~bourre.observation.Discards` sequence
        whose actions are made only when read (it equals the list of them)."""
        ph = self.phase
        if ph == PLAY_PHASE:
            return [_CARDS[c] for c in legal_set(self)]  # the set computed once per turn
        if ph != DECIDE_PHASE:
            return []
        t = self.turn
        assert t is not None and self.hs is not None
        if t.kind == DECIDE:
            return [_PLAY_A] if t.forced is not None else [_PASS_A, _PLAY_A]
        got = self.discards
        if got is None:
            limit = self.draw.limit(self.hs, t.seat)
            got = self.discards = Discards(tuple(self.hs.hands[t.seat]), limit)
        return cast("Sequence[Action]", got)  # a registered Sequence (mypy can't see it)

    def only_action(self) -> Action | None:
        """The player's only legal action when there is just one (a last card, a
        single card that follows, a play the rules force: R-ACE-UP, R-LAST-STANDS),
        else ``None``; nothing changes."""
        ph = self.phase
        if ph == PLAY_PHASE:
            legal = legal_set(self)
            return _CARDS[legal[0]] if len(legal) == 1 else None
        t = self.turn
        if ph == DECIDE_PHASE and t is not None and t.kind == DECIDE and t.forced is not None:
            return _PLAY_A
        return None

    def why_not(self, action: Action) -> RuleViolation | None:
        """``None`` if ``action`` is legal now, else the refusal ``apply_action``
        would raise (the rule component's rule id and words); nothing changes."""
        if action in self.legal_actions():
            return None
        if self.phase == PLAY_PHASE and action.kind == "card":
            return refusal(self, action.cards[0], legal_set(self))
        if self.phase == DECIDE_PHASE and self.turn is not None and self.hs is not None:
            t = self.turn
            if t.kind == DECIDE and action.kind == "pass" and t.forced is not None:
                try:
                    self.decisions.decide(self.hs.copy(list(self.balances)), t.seat, False)
                except RuleViolation as e:
                    return e
            if t.kind != DECIDE and action.kind == "discard":
                try:
                    self.draw.check(self.hs, t.seat, action.cards)
                except RuleViolation as e:
                    return e
                return None  # legal, in another order than legal_actions lists it
        seat = self.current_player()
        return RuleViolation("R-DECIDE", f"{action} is not something seat {seat} may do now")

    # -- stepping ----------------------------------------------------------------------

    def apply_action(self, action: Action) -> None:
        """Apply the current player's action; an illegal one raises
        :class:`~bourre.rules.RuleViolation` naming the rule, the state unchanged."""
        ph = self.phase
        hs = self.hs
        if ph == PLAY_PHASE:
            assert hs is not None
            if action.kind != "card":
                raise RuleViolation("R-LEAD", f"seat {self.current_player()} is to play a card")
            c = action.cards[0]
            legal = self.legal
            if legal is None:
                legal = legal_set(self)
            if 0 <= c < 52 and (self.legal_mask >> c) & 1:
                if play_card(self, c, legal, False, False, None):
                    end_hand(self)  # that was the last trick
                return
            raise refusal(self, c, legal)
        if ph != DECIDE_PHASE:
            what = "the session is over" if ph == OVER else "chance acts now (apply_chance)"
            raise RuleViolation("R-SESSION", f"no player acts: {what}")
        t = self.turn
        assert t is not None and hs is not None
        self.history_.append(action)
        try:
            if t.kind == DECIDE:
                if action.kind not in ("pass", "play"):
                    raise RuleViolation("R-DECIDE", f"seat {t.seat} is to say pass or play")
                self.decisions.decide(hs, t.seat, action.kind == "play")
            else:
                if action.kind != "discard":
                    raise RuleViolation("R-DRAW", f"seat {t.seat} is to discard (or stand pat)")
                exchange(self, hs, t.seat, action.cards)
        except RuleViolation:
            self.history_.pop()
            raise
        if self.announce:
            self.pub_hands[t.seat] = None  # only the seat that acted changed its hand
        else:
            self.pub_hands = [None] * self.n  # a reveal may fold every seat at once
        advance(self)

    def apply_chance(self, outcome: object) -> None:
        """Apply a chance outcome: a :class:`~bourre.actions.Deck` or
        :class:`~bourre.actions.Dealt` at a deal, a :class:`~bourre.actions.Dealt`
        naming the hand of a seat that plays, a :class:`~bourre.actions.Drew` after
        an exchange.  An impossible outcome raises ``RuleViolation``, unchanged."""
        ph = self.phase
        if ph == DEAL and isinstance(outcome, (Deck, Dealt)):
            deal(self, outcome)
        elif ph == REVEAL and isinstance(outcome, Dealt):
            assert self.hs is not None
            reveal(self.hs, self.pending_seat, outcome)
            self.phase = DECIDE_PHASE
        elif ph == DRAW and isinstance(outcome, Drew):
            drew(self, outcome)
        else:
            want = {DEAL: "a Deck or Dealt", REVEAL: "a Dealt hand", DRAW: "a Drew"}
            raise RuleViolation(
                "R-DEAL",
                f"chance does not act now, or wants {want.get(ph, 'nothing')}: got {outcome!r}",
            )
        self.history_.append(outcome)
        self.pub_hands = [None] * self.n
        advance(self)

    def set_hand(
        self,
        *,
        dealer: int | None = None,
        pot: Amount | None = None,
        reshuffle: Callable[[list[int]], list[int]] | None = None,
    ) -> None:
        """Give the next hand's position as a real table has it, before its deal:
        the dealer, the pot already in the middle (nobody antes), the order of a
        reshuffled stock (R-RESHUFFLE; by default the discards in the order made)."""
        if self.phase != DEAL:
            raise RuleViolation("R-DEAL", "a hand's position is given before its deal")
        if dealer is not None and not 0 <= dealer < self.n:
            raise RuleViolation("R-SEAT", f"no seat {dealer} at a table of {self.n}")
        self.given_dealer, self.given_pot, self.given_reshuffle = dealer, pot, reshuffle

    def mark_premature(self, seat: int) -> None:
        """The referee's path: ``seat`` announced out of turn (R-PREMATURE)."""
        if not self.decisions.announcements:
            raise RuleViolation(
                "R-PREMATURE", "no announcement out of turn can arise when everyone decides at once"
            )
        self.premature.append(seat)

    def referee_play(self, card: int, corrected_to: int | None = None) -> None:
        """The referee's path for a card played at a real table: an illegal card
        stands as a renege (R-RENEGE), or is taken back for ``corrected_to``
        (R-CORRECTED).  A legal card is simply played."""
        if self.phase != PLAY_PHASE:
            raise RuleViolation("R-LEAD", "no card is to be played now")
        hs = self.hs
        assert hs is not None
        s = self.current_player()
        legal = legal_set(self)
        hand = hs.hands[s]
        if card not in hand:
            raise RuleViolation("R-DEAL", f"seat {s} does not hold {card_str(card)}")
        if corrected_to is None:
            if play_card(self, card, legal, card not in legal, False, None):
                end_hand(self)  # that was the last trick
            return
        if card in legal:
            raise RuleViolation(
                "R-CORRECTED", f"{card_str(card)} was legal: correcting a legal card is impossible"
            )
        if corrected_to == card:
            raise RuleViolation(
                "R-CORRECTED", f"a correction must name another card than {card_str(card)}"
            )
        if corrected_to not in hand:
            raise RuleViolation("R-CORRECTED", f"seat {s} does not hold {card_str(corrected_to)}")
        if play_card(self, corrected_to, legal, corrected_to not in legal, True, card):
            end_hand(self)  # that was the last trick

    # -- results -----------------------------------------------------------------------

    def returns(self) -> list[Amount]:
        """Each seat's money change so far (exact); once a session is settled they
        sum to zero."""
        bal = self.final[0] if self.final is not None else self.balances
        return [b - s for b, s in zip(bal, self.start, strict=True)]

    def history(self) -> list[object]:
        """Every action and chance outcome applied, in order (replayable)."""
        return list(self.history_)

    @property
    def hand(self) -> HandState:
        """The current (or last) hand's full state: the referee's and the tests'
        view, with every hidden card.  Bots get :meth:`observation` instead."""
        assert self.hs is not None
        return self.hs

    def observation(self, seat: int) -> Observation:
        """What ``seat`` may know now, as a new immutable value."""
        return observe(self, seat)

    def clone(self) -> State:
        """An independent copy: playing both the same way gives the same returns.
        Rule components, the house and finished hands' results are shared."""
        return State(self.house, _copy_of=self)

    def _components(self, rules: Rules) -> None:
        """The house's components the hot path calls, read off ``rules`` once (each
        read of a field of ``Rules`` is a dictionary-backed lookup), in their compiled
        form (:func:`bourre.components.compiled_form`: a house built by
        :class:`~bourre.house.House` already gives them so)."""
        self.follow: FollowComponent = compiled_form("follow", rules.follow)
        self.cinch: CinchComponent = compiled_form("cinch", rules.cinch)
        self.decisions: DecisionComponent = compiled_form("decisions", rules.decisions)
        self.draw: DrawRule = rules.draw
        self.trick_winner: TrickWinnerFn = rules.trick_winner
        self.deal_fn = rules.deal
        self.ante = rules.ante
        self.payout = rules.payout
        self.announce = rules.decisions.announcements

    def _copy(self, o: State) -> None:
        self.house, self.rules, self.table, self.n, self.h = o.house, o.rules, o.table, o.n, o.h
        self._components(o.rules)
        self.balances, self.start, self.pot = list(o.balances), list(o.start), o.pot
        self.total, self.checked = o.total, o.checked
        self.previous, self.marks = o.previous, list(o.marks)
        self.chance = o.chance.copy() if o.chance is not None else None
        self.first_dealer, self.last_dealer = o.first_dealer, o.last_dealer
        self.hands_total, self.settles, self.record = o.hands_total, o.settles, o.record
        self.number, self.results, self.history_ = o.number, list(o.results), list(o.history_)
        self.final = o.final
        hs = self.hs = o.hs.copy(self.balances) if o.hs is not None else None
        if hs is not None and self.chance is not None and o.given_reshuffle is None:
            hs.reshuffle = self.chance.reshuffle  # the copy's own stream, not the original's
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
        self.discards = None  # made again from this copy's own hand when asked
        self.has_cinch = o.has_cinch
        self.pub_decisions, self.pub_tricks = o.pub_decisions, o.pub_tricks
        self.pub_won, self.pub_balances = o.pub_won, o.pub_balances
        self.pub_money, self.money = o.pub_money, o.money
        self.pub_trick, self.pub_active = o.pub_trick, o.pub_active
        self.pub_hands = [None] * o.n
        if hs is not None:
            hs.trick_seats = self.seats

    # -- the hand ----------------------------------------------------------------------
