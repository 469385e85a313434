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


def _random(rng: random.Random | None = None, *, house: Any = None) -> Player:
    """``random``: no options (``house`` is accepted and unused)."""
    from bourre_bots.random_bot import RandomPlayer

    return RandomPlayer(rng)


def _heuristic(rng: random.Random | None = None, *, house: Any = None) -> Player:
    """``heuristic``: no options (``house`` is accepted and unused)."""
    from bourre_bots.heuristic import HeuristicPlayer

    return HeuristicPlayer(rng)


def _montecarlo(
    rng: random.Random | None = None,
    *,
    house: Any = None,
    budget: int = 16,
    margin: float = 1.0,
) -> Any:
    """``montecarlo(budget=16, margin=1)``."""
    from bourre_bots.montecarlo import MonteCarloPlayer

    if isinstance(budget, bool) or not isinstance(budget, int):
        raise ValueError(f"montecarlo: budget must be a whole number, not {budget!r}")
    if isinstance(margin, bool) or not isinstance(margin, (int, float)):
        raise ValueError(f"montecarlo: margin must be a number, not {margin!r}")
    return MonteCarloPlayer(rng, house=house, budget=budget, margin=float(margin))


@hookimpl
def bourre_register_bots(register: Callable[[str, Callable[..., Any]], None]) -> None:
    register("random", _random)
    register("heuristic", _heuristic)
    register("montecarlo", _montecarlo)
