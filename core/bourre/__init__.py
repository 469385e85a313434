"""bourre: the rules-variant framework for Bourré (Booray).

A minimal core runs sessions and asks variant plugins, at hook points
(:mod:`bourre.rules.hookspec`), for the rules of a house.  Typical use::

    from bourre import Game
    state = Game("standard+pot-limit(limit=10)").new_session(seed=1)
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    state.returns()

Import what you need from the submodules; this module keeps the command line fast by
loading them lazily.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from bourre.rules.variant import Variant, hookimpl

__version__ = "0.1.0"

__all__ = [
    "CHANCE",
    "TERMINAL",
    "Game",
    "House",
    "HouseRules",
    "State",
    "Variant",
    "hookimpl",
    "play_session",
    "replay",
    "solve",
]

_LAZY = {
    "CHANCE": "bourre.game.state",
    "TERMINAL": "bourre.game.state",
    "Game": "bourre.game",
    "House": "bourre.houses.house",
    "HouseRules": "bourre.houses.models",
    "State": "bourre.game.state",
    "play_session": "bourre.game.simulate",
    "replay": "bourre.referee",
    "solve": "bourre.advice.solver",
}

if TYPE_CHECKING:
    from bourre.advice.solver import solve
    from bourre.game import Game
    from bourre.game.simulate import play_session
    from bourre.game.state import CHANCE, TERMINAL, State
    from bourre.houses.house import House
    from bourre.houses.models import HouseRules
    from bourre.referee import replay


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'bourre' has no attribute {name!r}")
