"""What the tests of the kernel's double-dummy solver share (``tests/kernel/test_solver*.py``):
two solutions compared as equal, and pairs of states (the kernel's stepped one, the
Python one) at the same random positions of a session, for the Python reference to
solve quickly."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from bourre.advice import Solution
from bourre.game import Game
from bourre.game.state import State
from bourre.houses.house import House
from bourre.rules.hookspec import PluginError


def same(a: Solution, b: Solution) -> None:
    """Everything but the count of positions remembered: the seat, every card's values
    (each seat's chips of the same type too: ``int`` when whole, else ``Fraction``),
    the best cards, the most tricks and the choice."""
    assert a.seat == b.seat
    assert a.values == b.values
    assert [type(x) for v in a.values for x in v.chips_by_seat] == [
        type(x) for v in b.values for x in v.chips_by_seat
    ]
    assert (a.best, a.most_tricks, a.choice) == (b.best, b.most_tricks, b.choice)


def merged_left(active: int) -> int:
    """The most cards left for the merging Python search to solve quickly."""
    return 5 if active <= 3 else 4 if active <= 5 else 3


def plain_left(active: int) -> int:
    """The most cards left for the Python plain search (every card searched) to solve
    quickly."""
    return 4 if active <= 3 else 3 if active <= 5 else 2


def positions(
    house: House,
    seed: int,
    rng: random.Random,
    *,
    most: int = 3,
    fewest_left: int = 2,
    most_left: Callable[[int], int] = merged_left,
    chance: float = 0.35,
    stop_at_plugin_error: bool = False,
) -> list[tuple[Any, State]]:
    """Up to ``most`` pairs (stepped state, Python state) at the same random positions of
    a session of ``house`` from ``seed``: in the play phase with ``fewest_left`` to
    ``most_left(players)`` cards left, each taken with ``chance``; the session played by
    random legal actions from ``rng`` (three decisions in four a play).
    ``stop_at_plugin_error``: a hostile plugin's error ends the walk there."""
    from bourre.kernel.state import KernelState  # lazy: the extension may not be built

    k = Game(house, engine="kernel").new_session(seed)
    p = Game(house, engine="python").new_session(seed)
    assert isinstance(k, KernelState) and type(p) is State
    out: list[tuple[Any, State]] = []
    while not p.is_terminal() and len(out) < most:
        if p.phase_name == "play":
            hs = p.hand
            left = hs.hand_size - len(hs.tricks)
            if fewest_left <= left <= most_left(len(hs.active)) and rng.random() < chance:
                out.append((k.clone(), p.clone()))
        actions = list(p.legal_actions())
        if p.phase_name == "decide" and len(actions) == 2:
            action = actions[1] if rng.random() < 0.75 else actions[0]
        else:
            action = rng.choice(actions)
        try:
            k.apply_action(action)
            p.apply_action(action)
        except PluginError:
            if not stop_at_plugin_error:
                raise
            break
    return out
