"""Making an :class:`~bourre.observation.Observation` from a game state: only the
public facts of the hand and the seat's own cards are copied out (nothing hidden)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Final

from bourre.actions import PASS, PLAY, Action
from bourre.cardplay import legal as legal_set
from bourre.cardplay import public_trick
from bourre.observation import Discards, Observation

if TYPE_CHECKING:
    from bourre.engine import State

__all__ = ["observe"]

_NONE: Final[tuple[Action, ...]] = ()
_NOCARD: Final[tuple[int, ...]] = ()
_EITHER: Final[tuple[Action, ...]] = (PASS, PLAY)
_PLAY_ONLY: Final[tuple[Action, ...]] = (PLAY,)


def observe(state: State, seat: int) -> Observation:
    """What ``seat`` may know of ``state`` now, as a new value."""
    hs = state.hs
    if not 0 <= seat < state.n:
        raise ValueError(f"no seat {seat} at a table of {state.n} (R-SEAT)")
    to_act = state.current_player()
    phase = state.phase_name
    legal_actions: Sequence[Action] | None = _NONE
    legal = _NOCARD
    cinch = False
    forced: str | None = None
    limit = 0
    if to_act == seat:
        if phase == "play":
            legal = legal_set(state)  # computed once per turn
            legal_actions = None  # the cards' actions, made if read (Observation)
            cinch = state.has_cinch
        elif phase == "exchange" and hs is not None:
            got = state.legal_actions()
            limit = got.limit if isinstance(got, Discards) else 0
            legal_actions = got
        elif state.turn is not None:  # to say pass or play (R-DECIDE)
            forced = state.turn.forced
            legal_actions = _PLAY_ONLY if forced is not None else _EITHER
    if to_act < 0:
        to_act = -1
    if hs is None:  # before the first deal
        n = state.n
        return Observation(
            seat, n, state.h, state.number + 1, -1, -1, -1, (), (), (), (), (), (),
            (0,) * n, state.pot, tuple(state.balances), 0, to_act, phase, _NONE, _NOCARD,
            False, None, -1, (), (), 0, 0,
        )  # fmt: skip
    secret = not state.announce and phase == "decide"
    if len(state.pub_active) != len(hs.active):
        state.pub_active = tuple(hs.active)
    public_active = state.pub_active if not secret else ()
    hand = state.pub_hands[seat]
    if hand is None or len(hand) != len(hs.hands[seat]):  # played, folded: made again
        hand = state.pub_hands[seat] = tuple(hs.hands[seat])
    # the public facts, copied once each time they change and shared (they are values)
    if len(state.pub_decisions) != len(hs.decisions):
        state.pub_decisions = tuple(hs.decisions)
    if len(state.pub_tricks) != len(hs.completed):
        state.pub_tricks = tuple(hs.tricks)
        state.pub_won = tuple(hs.won)
    if state.pub_money != state.money:
        state.pub_balances = tuple(state.balances)
        state.pub_money = state.money
    return Observation(
        seat,
        hs.n,
        hs.hand_size,
        hs.number,
        hs.dealer,
        hs.upcard,
        hs.trump,
        hand,
        tuple(hs.discards[seat]) if hs.discards[seat] else (),
        state.pub_decisions,
        public_active,
        state.pub_tricks,
        public_trick(state),
        state.pub_won,
        hs.pot,
        state.pub_balances,
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
        hs.played,
    )
