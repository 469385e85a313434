"""What a session allows now (:class:`Legality`, a base of
:class:`~bourre.engine.State`): who acts, and what they may do, asked without
changing anything: the legal set (the follow and cinch components, R-FOLLOW …
R-CINCH-LAST), a decision's pass or play (R-DECIDE), an exchange's discards (R-DRAW),
the only legal action, and why an action is not legal, in the words of the rule
component that forbids it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, cast

from bourre.actions import CARDS, PASS_OR_PLAY, PLAY, PLAY_ONLY, Action
from bourre.cardplay import legal as legal_set
from bourre.cardplay import legal_mask, refusal
from bourre.flow import (
    DEAL,
    DECIDE,
    DECIDE_PHASE,
    DRAW,
    OVER,
    PHASE_NAMES,
    PLAY_PHASE,
    REVEAL,
)
from bourre.observation import Discards
from bourre.rules import RuleViolation, Turn
from bourre.tablepath import TablePath

__all__ = ["CHANCE", "TERMINAL", "Legality"]

CHANCE: Final = -1
"""``current_player()`` at a chance node (OpenSpiel's ``kChancePlayerId``)."""
TERMINAL: Final = -4
"""``current_player()`` once the session is over (OpenSpiel's ``kTerminalPlayerId``)."""

_CARDS: Final = CARDS
_PLAY_A: Final = PLAY  # read as constants by compiled code, not from the globals
_PASS_PLAY: Final = PASS_OR_PLAY
_ONLY_PLAY: Final = PLAY_ONLY


def _decision(t: Turn) -> tuple[Action, ...]:
    """A decision's actions: play only when the rules forbid the pass (``t.forced``)."""
    return _ONLY_PLAY if t.forced is not None else _PASS_PLAY


class Legality(TablePath):
    """Who acts now and what they may do (see :class:`~bourre.engine.State`, which
    adds the stepping)."""

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
