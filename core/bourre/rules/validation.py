"""Readable messages for pydantic validation errors: the place, the dotted key, what
is allowed there and the rule ids the field's description names (`` (R-…)``)."""

from __future__ import annotations

import re
from typing import Any, get_args

from pydantic import BaseModel, ValidationError

__all__ = ["allowed_keys", "validation_message"]


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
