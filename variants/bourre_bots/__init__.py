"""The built-in bots, an ordinary plugin package registered through the ``bourre``
entry-point group exactly like third-party bots (entry point ``bots``):

- ``random``: uniform over the legal answers (:mod:`bourre_bots.random_bot`);
- ``heuristic``: hand-strength rules of thumb (:mod:`bourre_bots.heuristic`; options
  ``play_threshold``, ``per_opponent``, ``keep_trump``);
- ``montecarlo``: samples worlds from its observation and rolls them out through the
  game state (:mod:`bourre_bots.montecarlo`; options ``budget``, ``margin``);
- ``pimc``: samples worlds from its observation and solves each exactly
  (:mod:`bourre_bots.pimc`; options ``worlds``, ``decide``, ``doubt``).

The engine imports none of them.
"""

from __future__ import annotations

import importlib
import math
import random
import sys
from collections.abc import Callable
from typing import Any

from bourre.game.playerbase import Player
from bourre.game.xoshiro import Xoshiro128
from bourre.rules.variant import hookimpl


def _module(name: str) -> Any:
    """A bot's module, imported when its first bot is made (registering the bots
    imports none) and then read from ``sys.modules``: an import statement in a
    factory costs about a microsecond for each bot made, several per session."""
    module = sys.modules.get(name)
    return module if module is not None else importlib.import_module(name)


def _random(rng: random.Random | Xoshiro128 | None = None, *, house: Any = None) -> Player:
    """``random``: no options (``house`` is accepted and unused); ``rng`` a
    ``random.Random`` or its own stream."""
    player: Player = _module("bourre_bots.random_bot").RandomPlayer(rng)
    return player


def _number(bot: str, name: str, value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise ValueError(f"{bot}: {name} must be a number, not {value!r}")
    return float(value)


def _heuristic(
    rng: random.Random | None = None,
    *,
    house: Any = None,
    play_threshold: float | None = None,
    per_opponent: float | None = None,
    keep_trump: int | None = None,
) -> Player:
    """``heuristic(play_threshold=…, per_opponent=…, keep_trump=…)``, defaults in
    :mod:`bourre_bots.heuristic`; it plays by ``house``'s trick-winner rule."""
    h = _module("bourre_bots.heuristic")
    if keep_trump is not None and (
        isinstance(keep_trump, bool) or not isinstance(keep_trump, int) or not 2 <= keep_trump <= 14
    ):
        raise ValueError(f"heuristic: keep_trump must be a card rank 2…14, not {keep_trump!r}")
    player: Player = h.HeuristicPlayer(
        rng,
        play_threshold=h.PLAY_THRESHOLD
        if play_threshold is None
        else _number("heuristic", "play_threshold", play_threshold),
        per_opponent=h.PER_OPPONENT
        if per_opponent is None
        else _number("heuristic", "per_opponent", per_opponent),
        keep_trump=h.KEEP_TRUMP if keep_trump is None else keep_trump,
        winner=h.house_winner(house),
    )
    return player


def _montecarlo(
    rng: random.Random | None = None,
    *,
    house: Any = None,
    budget: int = 16,
    margin: float = 1.0,
) -> Any:
    """``montecarlo(budget=16, margin=1)``."""
    if isinstance(budget, bool) or not isinstance(budget, int):
        raise ValueError(f"montecarlo: budget must be a whole number, not {budget!r}")
    return _module("bourre_bots.montecarlo").MonteCarloPlayer(
        rng, house=house, budget=budget, margin=_number("montecarlo", "margin", margin)
    )


def _pimc(
    rng: random.Random | None = None,
    *,
    house: Any = None,
    worlds: int = 16,
    decide: str = "solve",
    doubt: float = 1.0,
) -> Any:
    """``pimc(worlds=16, decide="solve", doubt=1)``."""
    if isinstance(worlds, bool) or not isinstance(worlds, int):
        raise ValueError(f"pimc: worlds must be a whole number, not {worlds!r}")
    if not isinstance(decide, str):
        raise ValueError(f"pimc: decide must be 'solve' or 'rollouts', not {decide!r}")
    return _module("bourre_bots.pimc").PimcPlayer(
        rng, house=house, worlds=worlds, decide=decide, doubt=_number("pimc", "doubt", doubt)
    )


@hookimpl
def bourre_register_bots(register: Callable[[str, Callable[..., Any]], None]) -> None:
    register("random", _random)
    register("heuristic", _heuristic)
    register("montecarlo", _montecarlo)
    register("pimc", _pimc)
