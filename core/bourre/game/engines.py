"""Which engine steps a :class:`~bourre.game.Game`'s states: the Python rules
(:class:`~bourre.game.state.State`, every house) or an accelerator registered under the
entry-point group ``bourre.engines`` (bourre's own: ``kernel``, the compiled kernel's
:class:`~bourre.kernel.state.KernelState`, for houses made only of built-in components).

The game never imports an engine: it finds them as it finds plugins, by entry point.
An engine is a callable ``new_session(house, *, seed, balances, first_dealer, record,
keep_results, hands, pot, settle, previous)`` (the arguments of
:class:`~bourre.game.state.State`: ``Game.new_session`` gives ``hands=None, pot=0,
settle=True, previous=None``, ``Game.new_hand`` one hand from a given position,
``hands=1, settle=False``) that gives a :class:`~bourre.game.state.State` (the same API,
the same refusals), or a text saying why it cannot play that session or hand (naming
the component).

``engine`` is ``"auto"`` (an engine that can play it, else the Python rules; the
default), ``"python"`` or the name of an engine (``"kernel"``: a session it cannot
play is a ``ValueError`` with its reason).  With no ``engine`` given, the environment's
``BOURRE_ENGINE=python`` asks for the Python rules (any other value: ``auto``).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from importlib.metadata import entry_points
from typing import Any

__all__ = ["GROUP", "choose", "engines"]

GROUP = "bourre.engines"
"""The entry-point group of the engines."""

Engine = Callable[..., Any]

_ENGINES: dict[str, Engine] | None = None


def engines() -> dict[str, Engine]:
    """The installed engines by name, loaded once (one that fails to load is left out:
    the Python rules play every house)."""
    global _ENGINES
    if _ENGINES is None:
        found: dict[str, Engine] = {}
        for ep in entry_points(group=GROUP):
            try:
                found[ep.name] = ep.load()
            except Exception:  # (an engine that does not import: the Python rules)
                continue
        _ENGINES = found
    return _ENGINES


def choose(engine: str | None) -> str:
    """``engine`` checked, or the environment's choice (``BOURRE_ENGINE``) when ``None``."""
    if engine is None:
        return "python" if os.environ.get("BOURRE_ENGINE", "") == "python" else "auto"
    if engine in ("auto", "python") or engine in engines():
        return engine
    names = ", ".join(["auto", "python", *sorted(engines())])
    raise ValueError(f"engine {engine!r}: one of {names}")
