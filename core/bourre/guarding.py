"""Wrapping a third-party rule component in the checks of its field (:func:`guard`):
whatever it raises, other than a :class:`~bourre.rules.RuleViolation`, becomes a
:class:`~bourre.pluginerror.PluginError` naming the plugin and the hook, and each
field's answers are checked (:mod:`bourre.cardguards`, :mod:`bourre.moneyguards`,
:mod:`bourre.seatguards`); any other component has each call guarded."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bourre.cardguards import GuardedCinch, GuardedDraw, GuardedFollow, guarded_deal
from bourre.moneyguards import GuardedAnte, guarded_payout, guarded_penalty, guarded_settle
from bourre.pluginerror import PluginError
from bourre.rules import RuleViolation
from bourre.seatguards import guarded_next_dealer, guarded_trick_winner

__all__ = ["guard"]

_CHECKED: dict[str, Callable[[Any, str, str, Callable[..., Any]], Any]] = {
    "follow": GuardedFollow,
    "cinch": GuardedCinch,
    "payout": guarded_payout,
    "penalty": guarded_penalty,
    "ante": GuardedAnte,
    "deal": guarded_deal,
    "draw": GuardedDraw,
    "trick_winner": guarded_trick_winner,
    "next_dealer": guarded_next_dealer,
    "settle": guarded_settle,
}
"""Each field whose answers are checked: its guard, made with the component, the
plugin, the hook and the guarded call."""


def guard(field: str, value: Any, plugin: str, hook: str) -> Any:
    """Wrap a component so that misbehaviour is reported naming plugin and hook."""

    def call(fn: Callable[..., Any], *args: Any) -> Any:
        try:
            return fn(*args)
        except (PluginError, RuleViolation):
            raise
        except Exception as e:
            raise PluginError(plugin, hook, f"raised {e!r}") from e

    make = _CHECKED.get(field)
    if make is not None:
        return make(value, plugin, hook, call)
    if field == "decisions":
        return _GuardedObject(value, call)
    if callable(value) and field != "hand_size":
        return _GuardedCall(value, call)
    return value


class _GuardedCall:
    """A guarded function or procedure."""

    def __init__(self, inner: Any, call: Callable[..., Any]) -> None:
        self._inner, self._call = inner, call

    def __call__(self, *args: Any) -> Any:
        return self._call(self._inner, *args)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)


class _GuardedObject(_GuardedCall):
    """A guarded component object: each method call is guarded; plain attributes
    (a decision procedure's ``announcements``) are the inner component's."""

    def __getattr__(self, name: str) -> Any:
        attr = getattr(self._inner, name)
        if not callable(attr):
            return attr
        call = self._call
        return lambda *args: call(attr, *args)
