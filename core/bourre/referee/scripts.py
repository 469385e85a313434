"""Reading a table script: a file or text, JSON or the hand notation
(:mod:`bourre.referee.notation`), and :class:`ScriptError`, the one error of a script."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bourre.houses.strictjson import load_json
from bourre.houses.textfile import read_text
from bourre.referee.located import json_script
from bourre.referee.notation import NotationError, looks_like_notation, parse_script

__all__ = ["MAX_SCRIPT", "ScriptError", "load_script", "parse_text"]


MAX_SCRIPT = 4_000_000
"""The longest script read (a session of many hands is a few hundred kB)."""


class ScriptError(ValueError):
    """A script that cannot describe a real hand (or names bad house rules)."""


def load_script(path: str | Path) -> Any:
    """Read a script file: JSON, or the hand notation (:mod:`bourre.referee.notation`);
    :class:`ScriptError` names the file on failure."""
    return parse_text(read_text(path, ScriptError), str(Path(path)))


def parse_text(text: str, place: str) -> Any:
    """A script from text: JSON, or the hand notation; it knows where its places were
    written (:mod:`bourre.referee.located`), for the messages."""
    if len(text) > MAX_SCRIPT:
        raise ScriptError(f"{place}: {len(text)} characters: a script holds at most {MAX_SCRIPT}")
    if looks_like_notation(text):
        try:
            return parse_script(text, place)
        except NotationError as e:
            raise ScriptError(str(e)) from None
    if not text.strip():
        raise ScriptError(
            f"{place}: the script is empty: a table script (JSON) or hands in the notation"
            " (docs/table-scripts.md)"
        )
    if not text.lstrip().startswith(("{", "[")):
        raise ScriptError(f"{place}: not valid JSON (nor hand notation)")
    return json_script(load_json(text, place, ScriptError), text)
