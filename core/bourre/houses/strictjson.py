"""Strict JSON for house files and table scripts: a repeated key, nesting too deep or
an integer too long is refused with a message that names the place."""

from __future__ import annotations

import json
import re
from typing import Any

__all__ = ["MAX_DEPTH", "MAX_DIGITS", "load_json", "unique_keys"]


def unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object's keys, refused when one repeats (``json.loads`` hook)."""
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise ValueError(f"the key {key!r} is given twice")
        out[key] = value
    return out


MAX_DIGITS = 18
"""The most digits a whole number in a file may have (amounts stop at 10^15)."""


def _integer(text: str) -> int:
    if len(text.lstrip("-")) > MAX_DIGITS:
        shown = text if len(text) <= 24 else text[:20] + "…"
        raise ValueError(f"the number {shown} is too long (at most {MAX_DIGITS} digits)")
    return int(text)


MAX_DEPTH = 100
"""The deepest nesting of arrays and objects a file may have (a house needs 4)."""


_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')
_BRACKET = re.compile(r"[\[\]{}]")


def _depth(text: str) -> int:
    """How deeply ``text`` nests ``[`` and ``{`` outside strings (linear: the strings
    are dropped by one regular expression, then only the brackets are looked at)."""
    depth = deepest = 0
    for m in _BRACKET.finditer(_STRING.sub("", text)):
        if m.group() in "[{":
            depth += 1
            deepest = max(deepest, depth)
        else:
            depth -= 1
    return deepest


def load_json(text: str, place: str, error: type[ValueError]) -> Any:
    """Strict JSON: no repeated keys, bounded nesting and numbers (at most
    :data:`MAX_DIGITS` digits); ``error(message)`` names ``place`` otherwise."""
    if _depth(text) > MAX_DEPTH:
        raise error(f"{place}: not valid JSON: nested too deeply (at most {MAX_DEPTH} levels)")
    try:
        return json.loads(text, object_pairs_hook=unique_keys, parse_int=_integer)
    except RecursionError:
        raise error(f"{place}: not valid JSON: nested too deeply") from None
    except json.JSONDecodeError as e:
        raise error(
            f"{place}, line {e.lineno}, column {e.colno}: not valid JSON:"
            f" {e.msg[:1].lower()}{e.msg[1:]}"
        ) from None
    except ValueError as e:  # a repeated key, an integer over 4300 digits
        raise error(f"{place}: not valid JSON: {e}") from None
