"""Making a bot by name (:func:`make_bot`): from the installed plugins' bots (the
``bourre_register_bots`` hook), or from a module not installed.  :mod:`bourre.game.players`
names these too."""

from __future__ import annotations

import contextlib
import importlib
import inspect
import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from bourre.game.playerbase import Player
from bourre.game.xoshiro import Xoshiro128
from bourre.houses.callsyntax import parse_calls, split_top
from bourre.rules import plugins

__all__ = ["BotFactory", "BotSpec", "make_bot", "parse_bots", "takes_house"]


BotFactory = Callable[..., Player]
"""``factory(rng, **options)`` → a player (see the ``bourre_register_bots`` hook)."""


def make_bot(
    name: str, rng: random.Random | Xoshiro128, *, house: Any = None, **options: Any
) -> Player:
    """A bot from the installed plugins by name (``random``, …), or from a module not
    installed as ``package.module:factory``; ``rng`` is its generator (a
    ``random.Random``; the ``random`` bot also takes a
    :class:`~bourre.game.xoshiro.Xoshiro128` stream as its own).  ``house`` goes to factories that take
    it; an option the bot does not have is refused with its options."""
    reg = _registry()
    if name in reg.bots:
        factory = reg.bots[name][0]
    elif ":" in name:
        module, _, attr = name.partition(":")
        try:
            factory = getattr(importlib.import_module(module), attr)
        except (ImportError, AttributeError) as e:
            raise ValueError(f"bot {name!r} cannot be loaded: {e}") from None
    else:
        raise ValueError(f"unknown bot {name!r}; installed: {', '.join(sorted(reg.bots))}")
    if house is not None and takes_house(factory):
        options["house"] = house
    try:
        player: Player = factory(rng, **options)
    except TypeError as e:  # an option the bot does not have
        known = _options_of(factory)
        unknown = ", ".join(sorted(k for k in options if k not in known and k != "house"))
        if not unknown:  # (its own options, of a type it refused)
            raise ValueError(f"bot {name!r} refused its options: {e}") from None
        raise ValueError(
            f"bot {name!r} has no option {unknown}"
            + (f"; its options: {', '.join(known)}" if known else "; it takes no options")
        ) from None
    return player


def _registry() -> Any:
    """The process's registry, looked up where it lives (tests replace it there)."""
    return plugins.default_registry()


_TAKES_HOUSE: dict[Callable[..., Any], bool] = {}
"""Factories already looked at (a signature costs more than a short session's play)."""


def takes_house(factory: Callable[..., Any]) -> bool:
    """Whether a bot factory takes a ``house`` option (or any option)."""
    try:
        return _TAKES_HOUSE[factory]
    except (KeyError, TypeError):  # not seen yet, or not hashable
        pass

    try:
        params = inspect.signature(factory).parameters.values()
    except (TypeError, ValueError):
        return False
    takes = any(p.kind is p.VAR_KEYWORD or p.name == "house" for p in params)
    with contextlib.suppress(TypeError):
        _TAKES_HOUSE[factory] = takes
    return takes


def _options_of(factory: Callable[..., Any]) -> list[str]:
    try:
        params = inspect.signature(factory).parameters.values()
    except (TypeError, ValueError):
        return []
    return [p.name for p in params if p.kind is p.KEYWORD_ONLY and p.name != "house"]


@dataclass(frozen=True)
class BotSpec:
    """A bot by name with its factory options: ``montecarlo(budget=8)``."""

    name: str
    options: tuple[tuple[str, Any], ...] = ()

    @property
    def label(self) -> str:
        if not self.options:
            return self.name
        return f"{self.name}({','.join(f'{k}={v}' for k, v in self.options)})"

    def __str__(self) -> str:
        return self.label


def parse_bots(text: str, known: Iterable[str] | None = None) -> list[BotSpec]:
    """``random``, ``heuristic,random,random,random,random`` or with options
    ``montecarlo(budget=8),heuristic``, or a bot not installed as
    ``package.module:factory``.  One bot means every seat; otherwise one per seat.
    ``known``: the installed bot names (unknown ones are refused)."""
    names = set(known) if known is not None else None
    if any(not part.strip() for part in split_top(text, ",")):
        raise ValueError(f"{text!r}: an empty bot name")
    calls = parse_calls(text, ",")
    out = []
    for name, options in calls:
        if names is not None and name not in names and ":" not in name:
            raise ValueError(f"unknown bot {name!r}; installed: {', '.join(sorted(names))}")
        out.append(BotSpec(name, tuple(options.items())))
    return out
