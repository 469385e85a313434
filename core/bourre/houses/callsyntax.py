"""The ``name(key=value, …)`` syntax shared by house strings (items joined by ``+``)
and bot lists (joined by ``,``): splitting outside parentheses and reading the
settings, whose values are JSON literals or bare words."""

from __future__ import annotations

import json
import re
from typing import Any

__all__ = ["MAX_NUMBER", "parse_calls", "split_top"]

_ITEM = re.compile(
    r"\s*([A-Za-z0-9][A-Za-z0-9_.-]*(?::[A-Za-z_][A-Za-z0-9_]*)?)\s*(?:\((.*?)\))?\s*$", re.S
)
"""``name``, or ``package.module:factory`` (a bot not installed), with settings."""
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*$")

MAX_NUMBER = 100
"""The longest value a house string or setting may hold."""


def split_top(text: str, sep: str) -> list[str]:
    """Split ``text`` on ``sep`` outside parentheses and outside JSON strings
    (``"a,b(c)"``, with ``\\"`` escapes); unbalanced parentheses or an unclosed
    string are a ``ValueError``."""
    parts: list[str] = []
    cur: list[str] = []
    depth = 0
    quoted = escaped = False
    for ch in text:
        if quoted:
            cur.append(ch)
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                quoted = False
            continue
        if ch == '"':
            quoted = True
        elif ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
            if depth < 0:
                raise ValueError(f"unbalanced ')' in {text!r}")
        if ch == sep and depth == 0:
            parts.append("".join(cur))
            cur = []
        else:
            cur.append(ch)
    if quoted:
        raise ValueError(f"a value opened with '\"' and not closed in {text!r}")
    if depth:
        raise ValueError(f"unbalanced '(' in {text!r}")
    parts.append("".join(cur))
    return parts


def _value(text: str) -> Any:
    text = text.strip()
    if len(text) > MAX_NUMBER:
        raise ValueError(f"a value of {len(text)} characters is too long (at most {MAX_NUMBER})")
    try:
        return json.loads(text)
    except (ValueError, RecursionError):  # not JSON: a bare word
        return text


def parse_calls(text: str, sep: str) -> list[tuple[str, dict[str, Any]]]:
    """Parse ``name(key=value, …)`` items separated by ``sep`` (``+`` in house
    strings, ``,`` in bot lists) into ``(name, settings)`` pairs; values are JSON
    literals or bare words.  A ``ValueError`` says what cannot be read."""
    out: list[tuple[str, dict[str, Any]]] = []
    for item in split_top(text, sep):
        m = _ITEM.match(item)
        if not m:
            raise ValueError(f"{item.strip()!r} is not 'name' or 'name(key=value, …)'")
        name, args = m.group(1), m.group(2)
        kv: dict[str, Any] = {}
        try:
            listed = split_top(args, ",") if args and args.strip() else []
        except ValueError:  # 'a(b=1)(c=2)': more than one pair of parentheses
            raise ValueError(f"{item.strip()!r} is not 'name' or 'name(key=value, …)'") from None
        for arg in listed:
            key, eq, val = arg.partition("=")
            if not eq or not _NAME.match(key.strip()):
                raise ValueError(f"{arg.strip()!r} is not key=value")
            if key.strip() in kv:
                raise ValueError(f"{name}: the setting {key.strip()!r} is given twice")
            kv[key.strip()] = _value(val)
        out.append((name, kv))
    return out
