"""Making an :class:`~bourre.observation.Observation` from a game state: only the
public facts of the hand and the seat's own cards are copied out (nothing hidden)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bourre.actions import Action
from bourre.observation import Observation
from bourre.rules import DECIDE

if TYPE_CHECKING:
    from bourre.engine import State

__all__ = ["observe"]

_new = tuple.__new__  # builds the NamedTuple without its Python-level __new__ (hot path)
_NONE: tuple[Action, ...] = ()
_NOCARD: tuple[int, ...] = ()


def observe(state: State, seat: int) -> Observation:
    """What ``seat`` may know of ``state`` now, as a new value."""
    hs = state.hs
    if not 0 <= seat < state.n:
        raise ValueError(f"no seat {seat} at a table of {state.n} (R-SEAT)")
    to_act = state.current_player()
    phase = state.phase_name
    legal_actions = _NONE
    legal = _NOCARD
    cinch = False
    forced: str | None = None
    if to_act == seat:
        legal_actions = tuple(state.legal_actions())  # made once per turn (cached)
        if phase == "play":
            legal = tuple(state.legal_cards())
            cinch = state.has_cinch
        elif state.turn is not None and state.turn.kind == DECIDE:
            forced = state.turn.forced
    if to_act < 0:
        to_act = -1
    if hs is None:  # before the first deal
        n = state.n
        return Observation(
            seat, n, state.h, state.number + 1, -1, -1, -1, (), (), (), (), (), (),
            (0,) * n, state.pot, tuple(state.balances), 0, to_act, phase, _NONE, _NOCARD,
            False, None, -1, (), (),
        )  # fmt: skip
    secret = not state.rules.decisions.announcements and state.phase_name == "decide"
    public_active = tuple(hs.active) if not secret else ()
    return _new(
        Observation,
        (
            seat,
            hs.n,
            hs.hand_size,
            hs.number,
            hs.dealer,
            hs.upcard,
            hs.trump,
            tuple(hs.hands[seat]),
            tuple(hs.discards[seat]),
            tuple(hs.decisions),
            public_active,
            tuple(hs.tricks),
            tuple(zip(hs.trick_seats, hs.trick, strict=False)),
            tuple(hs.won),
            hs.pot,
            tuple(state.balances),
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
        ),
    )
