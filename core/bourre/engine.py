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

Bots and people drive it with :meth:`State.legal_actions` and :meth:`State.apply_action`;
the referee adds :meth:`State.referee_play` (R-RENEGE, R-CORRECTED).  The front door is
:mod:`bourre.game` (``Game(house).new_session(seed=…)``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, cast

from bourre.actions import CARDS, PASS_OR_PLAY, PLAY, PLAY_ONLY, Action, Dealt, Deck, Drew
from bourre.build import warn_if_stale
from bourre.cardplay import legal as legal_set
from bourre.cardplay import legal_mask, play_card, refusal
from bourre.chance import Chance
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
    deal,
    drew,
    end_hand,
    exchange,
    forget_hands,
)
from bourre.given import reveal
from bourre.money import Amount
from bourre.observation import Discards, Observation
from bourre.observe import observe
from bourre.results import HandResult, PlayLog
from bourre.rules import RuleViolation, Turn
from bourre.state import HandState
from bourre.tablepath import TablePath

__all__ = ["CHANCE", "TERMINAL", "Chance", "HandResult", "PlayLog", "State"]

warn_if_stale()  # an edited source shadowed by its compiled module (editable install)

CHANCE: Final = -1
"""``current_player()`` at a chance node (OpenSpiel's ``kChancePlayerId``)."""
TERMINAL: Final = -4
"""``current_player()`` once the session is over (OpenSpiel's ``kTerminalPlayerId``)."""

_CARDS: Final = CARDS
_DECK: Final = Deck
_PLAY_A: Final = PLAY  # read as constants by compiled code, not from the globals
_PASS_PLAY: Final = PASS_OR_PLAY
_ONLY_PLAY: Final = PLAY_ONLY


def _decision(t: Turn) -> tuple[Action, ...]:
    """A decision's actions: play only when the rules forbid the pass (``t.forced``)."""
    return _ONLY_PLAY if t.forced is not None else _PASS_PLAY


class State(TablePath):
    """A session at one house (or one hand of it), stepped from outside.

    Made by :meth:`bourre.game.Game.new_session` / :meth:`~bourre.game.Game.new_hand`.
    Ask :meth:`current_player` (a seat, :data:`CHANCE` or :data:`TERMINAL`), then
    :meth:`legal_actions` and :meth:`apply_action`, or at a chance node
    :meth:`apply_chance`.  A seeded state draws its own chance outcomes.
    """

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
        """At a chance node, the outcome it wants: ``"deal"`` (a Deck or Dealt), ``"hand"``
        (a Dealt naming ``pending_seat``'s hand) or ``"draw"`` (a Drew for its exchange);
        else ``""``."""
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
        return list(legal_set(self))  # (the set computed once per turn)

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
            return list(_decision(t))
        got = self.discards
        if got is None:
            limit = self.draw.limit(self.hs, t.seat)
            got = self.discards = Discards(tuple(self.hs.hands[t.seat]), limit)
        return cast("Sequence[Action]", got)  # a registered Sequence (mypy can't see it)

    def choices(self) -> Sequence[Action]:
        """``legal_actions()``, a decision's as a shared tuple (what ``play_out``
        shows a bot that picks among its legal actions: no new list)."""
        t = self.turn
        if self.phase == DECIDE_PHASE and t is not None and t.kind == DECIDE:
            return _decision(t)
        return self.legal_actions()

    def only_action(self) -> Action | None:
        """The player's only legal action when there is just one (a last card, a
        single card that follows, a play the rules force: R-ACE-UP, R-LAST-STANDS),
        else ``None``; nothing changes."""
        ph = self.phase
        if ph == PLAY_PHASE:
            lm = legal_mask(self)
            return _CARDS[lm.bit_length() - 1] if lm and not lm & (lm - 1) else None
        t = self.turn
        if ph == DECIDE_PHASE and t is not None and t.kind == DECIDE and t.forced is not None:
            return _PLAY_A
        return None

    def apply_only_action(self) -> bool:
        """When the player to act has just one legal action, apply it and answer True
        (what ``apply_action(only_action())`` does, in one step); else change nothing
        and answer False.  ``play_out`` steps so for a bot it need not ask."""
        if self.phase == PLAY_PHASE:
            lm = self.legal_mask if self.legal_ready else legal_mask(self)
            if not lm or lm & (lm - 1):  # none, or more than one
                return False
            if play_card(self, lm.bit_length() - 1, None, False, False, None):
                end_hand(self)  # that was the last trick
            return True
        only = self.only_action()
        if only is None:
            return False
        self.apply_action(only)
        return True

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
        who = self.current_player()
        return RuleViolation("R-DECIDE", f"{action} is not something seat {who} may do now")

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
            lm = self.legal_mask if self.legal_ready else legal_mask(self)
            if 0 <= c < 52 and (lm >> c) & 1:
                if play_card(self, c, None, False, False, None):
                    end_hand(self)  # that was the last trick
                return
            raise refusal(self, c, legal_set(self))
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
            forget_hands(self.pub_hands)  # a reveal may fold every seat at once
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
        forget_hands(self.pub_hands)
        advance(self)

    # -- results -----------------------------------------------------------------------

    def returns(self) -> list[Amount]:
        """Each seat's money change so far (exact); once a session is settled they
        sum to zero."""
        bal = self.final[0] if self.final is not None else self.balances
        return [b - s for b, s in zip(bal, self.start, strict=True)]

    def history(self) -> list[object]:
        """Every action and chance outcome applied, in order (replayable); a state
        made with ``keep_results=False`` keeps those of the current hand only, from
        its deal (a long session needs the memory of one hand)."""
        # a seeded deal is kept as its tuple of cards: its Deck is made here
        return [_DECK(x) if type(x) is tuple else x for x in self.history_]

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
