"""Guards of the third-party components that answer a seat: the trick's winner must be
a position in the trick, the next dealer a seat at the table."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bourre.pluginerror import PluginError


def guarded_trick_winner(value: Any, plugin: str, hook: str, call: Callable[..., Any]) -> Any:
    def trick_winner(trick: list[int], trump: int) -> int:
        i = call(value, trick, trump)
        if not isinstance(i, int) or isinstance(i, bool) or not 0 <= i < len(trick):
            raise PluginError(plugin, hook, f"the winner must be an index of the trick, got {i!r}")
        return i

    return trick_winner


def guarded_next_dealer(value: Any, plugin: str, hook: str, call: Callable[..., Any]) -> Any:
    def next_dealer(dealer: int, marks: list[bool]) -> int:
        s = call(value, dealer, marks)
        if not isinstance(s, int) or isinstance(s, bool) or not 0 <= s < len(marks):
            raise PluginError(plugin, hook, f"the next dealer must be a seat, got {s!r}")
        return s

    return next_dealer
