"""House strings: a house on one line, like OpenSpiel's game strings
(``standard+pot-limit(limit=10)+table(players=7)``), read into
:class:`~bourre.houses.models.HouseRules` and written back in canonical form."""

from __future__ import annotations

import json
import re
from typing import Any

from bourre.houses.callsyntax import parse_calls
from bourre.houses.models import HouseError, HouseRules, house_from_data
from bourre.rules.settings import TableSettings

__all__ = ["MAX_HOUSE", "format_house_string", "parse_house_string"]

MAX_HOUSE = 2000
"""The longest house string."""


def parse_house_string(text: str) -> HouseRules:
    """Parse ``standard+pot-limit(limit=10)+table(players=7)`` into house rules.

    Each ``+`` item is a variant (in order) with optional ``key=value`` settings;
    ``table(...)`` sets table settings.  A bare variant name is a house.
    """
    if not text.strip():
        raise HouseError("house string is empty: name a variant, e.g. 'standard'")
    if len(text) > MAX_HOUSE:
        raise HouseError(f"house string of {len(text)} characters: at most {MAX_HOUSE}")
    use: list[str] = []
    settings: dict[str, dict[str, Any]] = {}
    table: dict[str, Any] = {}
    try:
        items = parse_calls(text, "+")
    except ValueError as e:
        raise HouseError(f"house string {text!r}: {e}") from None
    for name, kv in items:
        if name == "table":
            twice = sorted(set(table) & set(kv))
            if twice:
                raise HouseError(f"house string {text!r}: table {twice[0]!r} is given twice")
            table.update(kv)
            continue
        if name in use:
            raise HouseError(f"house string {text!r}: variant {name!r} is named twice")
        use.append(name)
        if kv:
            settings[name] = kv
    data: dict[str, Any] = {"variants": {"use": use, **settings}}
    if table:
        data["table"] = table
    return house_from_data(data, f"house string {text!r}")


def _fmt(value: Any) -> str:
    if (
        isinstance(value, str)
        and re.fullmatch(r"[A-Za-z_][A-Za-z0-9_.-]*", value)
        and value not in ("true", "false", "null")
    ):
        return value
    return json.dumps(value)


def format_house_string(
    use: list[str], settings: dict[str, dict[str, Any]], table: TableSettings
) -> str:
    """The canonical house string: variants in order, settings that differ from the
    defaults, then ``table(...)`` when the table is not the default one."""
    items = []
    for name in use:
        kv = settings.get(name) or {}
        args = ",".join(f"{k}={_fmt(v)}" for k, v in kv.items())
        items.append(f"{name}({args})" if args else name)
    tdiff = table.model_dump(exclude_defaults=True)
    if tdiff:
        items.append("table(" + ",".join(f"{k}={_fmt(v)}" for k, v in tdiff.items()) + ")")
    return "+".join(items)
