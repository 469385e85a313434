"""Where a key stands in a file a person wrote: the line of a key in a TOML file or a
place in a JSON text, so that an error names the line as well as the key.  Cheap and
forgiving: ``None`` when the place cannot be found (the message then names the key only).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence

__all__ = ["Locate", "json_locator", "json_position", "line_col", "toml_line", "toml_locator"]

Locate = Callable[[Sequence[int | str]], int | None]
"""The line (1-based) of a place (its keys and list indexes) in a file, if known."""

_HEADER = re.compile(r"^\s*\[\[?\s*([^\]]+?)\s*\]\]?\s*(?:#.*)?$")
_ASSIGN = re.compile(r"^\s*([A-Za-z0-9_\-.\"' ]+?)\s*=")


def _keys(dotted: str) -> list[str]:
    return [k.strip().strip("\"'") for k in dotted.split(".")]


def toml_line(text: str, loc: Sequence[int | str]) -> int | None:
    """The line of ``loc`` (list indexes ignored) in a TOML text: the line that sets the
    key, else the line of the deepest table or key that holds it."""
    path = [str(k) for k in loc if isinstance(k, str)]
    best, best_len = None, 0
    table: list[str] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        m = _HEADER.match(raw)
        if m:
            table = _keys(m.group(1))
            full = table
        else:
            a = _ASSIGN.match(raw)
            if not a:
                continue
            full = table + _keys(a.group(1))
        if full == path[: len(full)] and len(full) > best_len:
            best, best_len = number, len(full)
            if best_len == len(path):
                return best
    return best


def json_position(text: str, loc: Sequence[int | str]) -> int | None:
    """The offset in a JSON text of the value at ``loc``, or of the deepest object or
    array that holds it; ``None`` if the text is not JSON there."""
    decoder = json.JSONDecoder()
    ws = re.compile(r"[ \t\n\r]*")

    def skip(i: int) -> int:
        m = ws.match(text, i)
        return m.end() if m else i

    try:
        i = skip(0)
        for step in loc:
            if i >= len(text) or text[i] not in "{[":
                return i
            opening, i = text[i], skip(i + 1)
            k = 0
            while i < len(text) and text[i] not in "}]":
                if opening == "{":
                    key, i = json.decoder.scanstring(text, i + 1)  # type: ignore[attr-defined]
                    i = skip(skip(i) + 1)  # the colon
                    hit = key == str(step)
                else:
                    hit = k == step
                if hit:
                    break
                _, i = decoder.raw_decode(text, i)
                i = skip(i)
                if i < len(text) and text[i] == ",":
                    i = skip(i + 1)
                k += 1
            else:
                return None
            if not hit:
                return None
        return i
    except (ValueError, IndexError):
        return None


def line_col(text: str, offset: int) -> tuple[int, int]:
    """The line and column (1-based) of an offset in a text."""
    line = text.count("\n", 0, offset) + 1
    return line, offset - (text.rfind("\n", 0, offset) + 1) + 1


def json_locator(text: str) -> Locate:
    """The line of a place in a JSON text (the deepest part of it found)."""

    def locate(loc: Sequence[int | str]) -> int | None:
        for n in range(len(loc), -1, -1):
            pos = json_position(text, loc[:n])
            if pos is not None:
                return line_col(text, pos)[0] if "\n" in text else None
        return None

    return locate


def toml_locator(text: str) -> Locate:
    """The line of a key in a TOML text."""
    return lambda loc: toml_line(text, loc)
