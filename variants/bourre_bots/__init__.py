"""The built-in bots, an ordinary plugin package registered through the ``bourre``
entry-point group exactly like third-party bots (entry point ``bots``):

- ``random``: uniform over the legal answers (:mod:`bourre_bots.random_bot`);
- ``heuristic``: hand-strength rules of thumb (:mod:`bourre_bots.heuristic`);
- ``montecarlo``: samples worlds from its observation and rolls them out through the
  game state (:mod:`bourre_bots.montecarlo`; options ``budget``, ``margin``).

The engine imports none of them.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from bourre.rules import Player
from bourre.variant import hookimpl


def _random(rng: random.Random | None = None, **_: Any) -> Player:
    from bourre_bots.random_bot import RandomPlayer

    return RandomPlayer(rng)


def _heuristic(rng: random.Random | None = None, **_: Any) -> Player:
    from bourre_bots.heuristic import HeuristicPlayer

    return HeuristicPlayer(rng)


def _montecarlo(rng: random.Random | None = None, **options: Any) -> Any:
    from bourre_bots.montecarlo import make

    return make(rng, **options)


@hookimpl
def bourre_register_bots(register: Callable[[str, Callable[..., Any]], None]) -> None:
    register("random", _random)
    register("heuristic", _heuristic)
    register("montecarlo", _montecarlo)
