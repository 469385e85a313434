"""A parsed table script that knows where each of its places was written, for the
messages (:mod:`bourre.referee.places`): the hand notation keeps a source map while
it is parsed (:func:`bourre.referee.notation.parse_script`); a JSON text is searched
for the place when a message needs it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bourre.houses.locate import json_position, line_col

__all__ = ["Loc", "Located", "json_script", "notation_map"]

Loc = tuple[int | str, ...]
"""A place in a script: its keys and list indexes (``("hands", 0, "plays", 2)``)."""


class Located(dict[str, Any]):
    """A parsed script that knows where each of its places was written:
    ``find(loc)`` is ``(line, column, exact)`` for the place or the nearest place
    that holds it, or ``None``; ``columns`` whether columns are meaningful."""

    find: Callable[[Loc], tuple[int, int, bool] | None]
    columns: bool = True


def json_script(data: Any, text: str) -> Any:
    """``data`` parsed from the JSON ``text``, knowing its places' lines."""
    if not isinstance(data, dict) or "\n" not in text.strip():
        return data
    located = Located(data)

    def find(loc: Loc) -> tuple[int, int, bool] | None:
        for n in range(len(loc), -1, -1):
            pos = json_position(text, loc[:n])
            if pos is not None:
                line, col = line_col(text, pos)
                return line, col, n == len(loc)
        return None

    located.find = find
    located.columns = False
    return located


def notation_map(source: dict[Loc, tuple[int, int]]) -> Callable[[Loc], Any]:
    """The ``find`` of a source map: the place, else the nearest one that holds it."""

    def find(loc: Loc) -> tuple[int, int, bool] | None:
        for n in range(len(loc), -1, -1):
            if loc[:n] in source:
                line, col = source[loc[:n]]
                return line, col, n == len(loc)
        return None

    return find
