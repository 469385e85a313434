"""Readable messages for pydantic validation errors: the place, the dotted key, what
is allowed there and the rule ids the field's description names (`` (R-…)``)."""

from __future__ import annotations

import re
from typing import Any, get_args

from pydantic import BaseModel, ValidationError

__all__ = ["allowed_keys", "error_words", "validation_message"]


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


_WORDS: dict[str, str] = {
    "missing": "missing: it is required",
    "int_type": "should be a whole number",
    "int_parsing": "should be a whole number",
    "int_from_float": "should be a whole number",
    "bool_type": "should be true or false",
    "bool_parsing": "should be true or false",
    "string_type": "should be text",
    "float_type": "should be a number",
    "float_parsing": "should be a number",
    "list_type": "should be a list",
    "tuple_type": "should be a list",
    "dict_type": "should be an object of keys and values",
    "model_type": "should be an object of keys and values",
    "model_attributes_type": "should be an object of keys and values",
}
"""Players' words for pydantic's error types (never its own phrases)."""

_BOUNDS: dict[str, tuple[str, str]] = {
    "less_than_equal": ("le", "at most"),
    "greater_than_equal": ("ge", "at least"),
    "less_than": ("lt", "less than"),
    "greater_than": ("gt", "more than"),
}

_LONG = re.compile(r"[^\s'\"]{41,}")


def error_words(e: Any) -> str:
    """What one pydantic error says, in the words of a card table (a long value cut,
    never echoed whole)."""
    return _LONG.sub(lambda m: m.group(0)[:20] + "…", _words(e))


def _words(e: Any) -> str:
    kind, ctx = e["type"], e.get("ctx") or {}
    if kind in _WORDS:
        return _WORDS[kind]
    if kind in _BOUNDS:
        key, words = _BOUNDS[kind]
        return f"should be {words} {ctx.get(key)}"
    if kind == "literal_error":
        return f"should be one of {ctx.get('expected')}"
    if kind in ("too_long", "too_short"):
        n = ctx.get("max_length" if kind == "too_long" else "min_length")
        return f"should hold {'at most' if kind == 'too_long' else 'at least'} {n}"
    if kind == "string_too_long":
        return f"should be at most {ctx.get('max_length')} characters"
    if kind == "value_error" and "error" in ctx:
        return str(ctx["error"])
    msg = str(e["msg"])
    for phrase, words in (
        ("Value error, ", ""),
        ("Assertion failed, ", ""),
        ("Input should", "should"),
    ):
        msg = msg.replace(phrase, words)
    return msg


def validation_message(
    err: ValidationError, place: str, prefix: str = "", model: type[BaseModel] | None = None
) -> str:
    """One readable message for a pydantic error: place, dotted key, what is allowed
    (one line per problem; a long value is cut, never echoed whole)."""
    lines = []
    for e in err.errors():
        key = ".".join(str(p) for p in (prefix, *e["loc"]) if p != "")
        if e["type"] == "extra_forbidden":
            allowed = allowed_keys(model, tuple(e["loc"]))
            msg = "unknown key" + (f"; allowed: {', '.join(allowed)}" if allowed else "")
        else:
            msg = error_words(e)
            if "(R-" not in msg:
                msg += _field_rule(model, tuple(e["loc"]))
        lines.append(f"{place}: {key or '(top)'}: {msg}")
    return "\n".join(lines)
