"""The one game loop, turned inside out: :class:`State`, a session (or one hand)
stepped from outside, in the manner of OpenSpiel's ``State``.

A hand flows antes → deal (a chance node) → decisions and exchanges → tricks →
payout → next dealer; the session ends with the settlement (R-SESSION, R-SETTLE).
The engine knows no rule itself: every rule is a component of the house's
:class:`~bourre.rules.Rules`, and every refusal is the component's own words.
Randomness enters only as chance outcomes (:mod:`bourre.actions`): drawn from the
seed, or given by the caller at each chance node, so any hand can be replayed.  This
module holds the state and its stepping; who acts and what they may do is
:mod:`bourre.legality`, the course of a hand it steps :mod:`bourre.flow`, and the
tricks :mod:`bourre.cardplay`.

Bots and people drive it with :meth:`State.legal_actions` and :meth:`State.apply_action`;
the referee adds :meth:`State.referee_play` (R-RENEGE, R-CORRECTED).  The front door is
:mod:`bourre.game` (``Game(house).new_session(seed=…)``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from bourre.actions import STAND_PAT, Action, Dealt, Deck, Drew, discard
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
from bourre.legality import CHANCE, TERMINAL, Legality
from bourre.money import Amount
from bourre.observation import Observation
from bourre.observe import observe
from bourre.results import HandResult, PlayLog
from bourre.rules import RuleViolation, Turn
from bourre.state import HandState

__all__ = ["CHANCE", "TERMINAL", "Chance", "HandResult", "PlayLog", "State"]

warn_if_stale()  # an edited source shadowed by its compiled module (editable install)

_DECK: Final = Deck
_DISCARD: Final = discard
_new: Final = tuple.__new__  # a NamedTuple without its Python-level __new__


def _made(cards: tuple[int, ...]) -> object:
    """A history entry kept as a tuple of cards: a deal's 52, else discards."""
    if len(cards) == 52:
        return _DECK(cards)
    return _new(Action, ("discard", cards)) if cards else STAND_PAT


class State(Legality):
    """A session at one house (or one hand of it), stepped from outside.

    Made by :meth:`bourre.game.Game.new_session` / :meth:`~bourre.game.Game.new_hand`.
    Ask :meth:`current_player` (a seat, :data:`CHANCE` or :data:`TERMINAL`), then
    :meth:`legal_actions` and :meth:`apply_action`, or at a chance node
    :meth:`apply_chance`.  A seeded state draws its own chance outcomes.
    """

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
        assert t is not None
        if t.kind == DECIDE:
            if action.kind not in ("pass", "play"):
                raise RuleViolation("R-DECIDE", f"seat {t.seat} is to say pass or play")
        elif action.kind != "discard":
            raise RuleViolation("R-DRAW", f"seat {t.seat} is to discard (or stand pat)")
        self._decided(t, action, action.cards, action.kind == "play")

    def apply_discards(self, cards: Sequence[int]) -> None:
        """``apply_action(discard(cards))`` at the exchange of the seat to act, the
        action kept as its cards until the history is read (what ``play_out`` does
        with a blind bot's discards: no action is made)."""
        t = self.turn
        got = cards if type(cards) is tuple else tuple(cards)
        if self.phase == DECIDE_PHASE and t is not None and t.kind != DECIDE:
            self._decided(t, got, got, False)
        else:
            self.apply_action(_DISCARD(got))

    def _decided(self, t: Turn, entry: object, cards: tuple[int, ...], play: bool) -> None:
        """The decision (``play``) or the exchange (``cards``) of ``t``'s seat, kept
        in the history as ``entry``; refused by the rules, the state unchanged."""
        hs = self.hs
        assert hs is not None
        self.history_.append(entry)
        try:
            if t.kind == DECIDE:
                self.decisions.decide(hs, t.seat, play)
            else:
                exchange(self, hs, t.seat, cards)
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
        # a seeded deal is kept as its tuple of cards, a blind bot's discards as theirs
        # (apply_discards): their Deck and Action are made here
        return [_made(x) if type(x) is tuple else x for x in self.history_]

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
