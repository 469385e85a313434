"""Copies of a state made for a search (:func:`hand_only`)."""

from __future__ import annotations

from bourre.game.protocol import GameState
from bourre.game.state import State

__all__ = ["hand_only"]


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
