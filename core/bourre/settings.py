"""House rules as frozen pydantic models, their files (TOML, JSON) and house strings.

A house-rules file (``docs/house-rules.md``)::

    [table]
    players = 5
    [variants]
    use = ["standard", "pot-limit"]
    pot-limit = {limit = 10}

A house string says the same on one line (like OpenSpiel's game strings)::

    standard+pot-limit(limit=10)+table(players=7)

Variant settings are kept here as given; each variant's own model validates them when
the house is built (:mod:`bourre.house`).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, Literal, get_args

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictInt,
    ValidationError,
    ValidationInfo,
    field_validator,
)

from bourre.money import AmountField

__all__ = [
    "HouseError",
    "HouseRules",
    "TableSettings",
    "VariantSection",
    "format_house_string",
    "load_house",
    "parse_house_string",
    "validation_message",
]


class HouseError(ValueError):
    """House rules that cannot be used: the message names the place, key and rule."""


class TableSettings(BaseModel):
    """The table: settings that are not variants (R-SESSION, R-DEALER; docs/house-rules.md)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    players: StrictInt = Field(
        5, ge=2, le=8, description="Players at the table, 2 to 8 (R-SESSION)."
    )
    hands: StrictInt = Field(12, gt=0, le=10_000, description="Hands in a session (R-SESSION).")
    ante: AmountField = Field(1, gt=0, description="The ante (R-FIRST-POT, R-ANTE).")
    balance: AmountField = Field(100, description="Each player's starting balance (R-SESSION).")
    first_dealer: StrictInt | Literal["random"] = Field(
        0, description="Seat that deals hand 1, or 'random' (R-DEALER)."
    )

    @field_validator("first_dealer")
    @classmethod
    def _dealer_at_table(cls, fd: int | str, info: ValidationInfo) -> int | str:
        players = info.data.get("players", 5)
        if fd != "random" and not (
            isinstance(fd, int) and not isinstance(fd, bool) and 0 <= fd < players
        ):
            raise ValueError(f"must be a seat 0…{players - 1} or 'random' (R-DEALER)")
        return fd


class VariantSection(BaseModel):
    """``[variants]``: the plugins in use, in order, and each one's settings under
    its own name."""

    model_config = ConfigDict(frozen=True, extra="allow")

    use: tuple[str, ...] = Field(("standard",), description="Variant plugins, in order.")

    def settings_for(self) -> dict[str, dict[str, Any]]:
        """The per-variant settings given (``{name: {key: value}}``)."""
        extra = self.model_extra or {}
        return {k: dict(v) if isinstance(v, dict) else v for k, v in extra.items()}


class HouseRules(BaseModel):
    """A house's rules as written: ``table`` and ``variants`` (every key optional)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    table: TableSettings = TableSettings()
    variants: VariantSection = VariantSection()


def _model_in(annotation: Any) -> type[BaseModel] | None:
    """The pydantic model inside an annotation (``list[M]``, ``M | None`` …)."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    for arg in get_args(annotation):
        found = _model_in(arg)
        if found is not None:
            return found
    return None


def allowed_keys(model: type[BaseModel] | None, loc: tuple[int | str, ...]) -> list[str] | None:
    """The keys allowed beside the last key of ``loc`` in ``model``, if known."""
    cur = model
    for step in loc[:-1]:
        if isinstance(step, int):
            continue
        if cur is None or step not in cur.model_fields:
            return None
        cur = _model_in(cur.model_fields[step].annotation)
    return list(cur.model_fields) if cur is not None else None


def _field_rule(model: type[BaseModel] | None, loc: tuple[int | str, ...]) -> str:
    """The rule ids named in the description of the field at ``loc`` (`` (R-…)``)."""
    cur = model
    for i, step in enumerate(loc):
        if isinstance(step, int):
            continue
        if cur is None or step not in cur.model_fields:
            return ""
        info = cur.model_fields[step]
        if i == len(loc) - 1:
            ids = re.findall(r"R-[A-Z][A-Z-]*[A-Z]", info.description or "")
            return f" ({', '.join(ids)})" if ids else ""
        cur = _model_in(info.annotation)
    return ""


def validation_message(
    err: ValidationError, place: str, prefix: str = "", model: type[BaseModel] | None = None
) -> str:
    """One readable message for a pydantic error: place, dotted key, what is allowed."""
    lines = []
    for e in err.errors():
        key = ".".join(str(p) for p in (prefix, *e["loc"]) if p != "")
        msg = e["msg"]
        if e["type"] == "extra_forbidden":
            allowed = allowed_keys(model, tuple(e["loc"]))
            msg = "unknown key" + (f"; allowed: {', '.join(allowed)}" if allowed else "")
        elif "(R-" not in msg:
            msg += _field_rule(model, tuple(e["loc"]))
        lines.append(f"{place}: {key or '(top)'}: {msg}")
    return "\n".join(lines)


def load_house(path: str | Path) -> HouseRules:
    """Read a house-rules file (``.toml`` or ``.json``); :class:`HouseError` names the
    file and key of any mistake."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as e:
        raise HouseError(f"{p}: cannot read: {e.strerror or e}") from None
    except UnicodeDecodeError as e:
        raise HouseError(f"{p}: not UTF-8 text: {e}") from None
    data: Any
    if p.suffix.lower() == ".toml":
        import tomllib

        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as e:
            raise HouseError(f"{p}: not valid TOML: {e}") from None
    else:
        data = load_json(text, str(p), HouseError)
    return house_from_data(data, str(p))


def house_from_data(data: Any, place: str) -> HouseRules:
    """Validate house rules given as data (a parsed file, or a script's ``rules``)."""
    if not isinstance(data, dict):
        raise HouseError(f"{place}: house rules must be a table/object with 'table' and 'variants'")
    try:
        return HouseRules.model_validate(data)
    except ValidationError as e:
        raise HouseError(validation_message(e, place, model=HouseRules)) from None


_ITEM = re.compile(r"\s*([A-Za-z0-9][A-Za-z0-9_.-]*)\s*(?:\((.*?)\))?\s*$", re.S)
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*$")


def split_top(text: str, sep: str) -> list[str]:
    """Split ``text`` on ``sep`` outside parentheses; unbalanced ones are a
    ``ValueError``."""
    parts: list[str] = []
    cur: list[str] = []
    depth = 0
    for ch in text:
        if ch == "(":
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


MAX_NUMBER = 100
"""The longest value a house string or setting may hold."""
MAX_HOUSE = 2000
"""The longest house string."""


def unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object's keys, refused when one repeats (``json.loads`` hook)."""
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise ValueError(f"the key {key!r} is given twice")
        out[key] = value
    return out


def load_json(text: str, place: str, error: type[ValueError]) -> Any:
    """Strict JSON: no repeated keys, bounded nesting and numbers; ``error(message)``
    names ``place`` otherwise."""
    try:
        return json.loads(text, object_pairs_hook=unique_keys)
    except RecursionError:
        raise error(f"{place}: not valid JSON: nested too deeply") from None
    except json.JSONDecodeError as e:
        raise error(f"{place}: not valid JSON: {e}") from None
    except ValueError as e:  # a repeated key, an integer over 4300 digits
        raise error(f"{place}: not valid JSON: {e}") from None


def parse_calls(text: str, sep: str) -> list[tuple[str, dict[str, Any]]]:
    """Parse ``name(key=value, …)`` items separated by ``sep`` (``+`` in house
    strings, ``,`` in bot lists) into ``(name, settings)`` pairs; values are JSON
    literals or bare words.  A ``ValueError`` says what cannot be read."""
    out: list[tuple[str, dict[str, Any]]] = []
    for item in split_top(text, sep):
        m = _ITEM.match(item)
        if not m or item.count("(") != item.count(")"):
            raise ValueError(f"{item.strip()!r} is not 'name' or 'name(key=value, …)'")
        name, args = m.group(1), m.group(2)
        kv: dict[str, Any] = {}
        for arg in split_top(args, ",") if args and args.strip() else []:
            key, eq, val = arg.partition("=")
            if not eq or not _NAME.match(key.strip()):
                raise ValueError(f"{arg.strip()!r} is not key=value")
            if key.strip() in kv:
                raise ValueError(f"{name}: the setting {key.strip()!r} is given twice")
            kv[key.strip()] = _value(val)
        out.append((name, kv))
    return out


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
