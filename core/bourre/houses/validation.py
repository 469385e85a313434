"""Readable messages for pydantic validation errors: the place (and the file's line
when known), the dotted key, what would be right there and the rule ids the field's
description names (`` (R-…)``).  None of the validation library's own phrases, types
or internal names reach a player: a union is one message ("a seat number, or
"random""), an unknown key comes before what it leaves missing, with the key meant."""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Mapping, Sequence
from types import UnionType
from typing import Annotated, Any, Union, get_args, get_origin

from pydantic import BaseModel, ValidationError

__all__ = ["allowed_keys", "error_words", "plain_words", "union_tag", "validation_message"]


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


_NOUNS: dict[str, str] = {
    "int_type": "a whole number",
    "int_parsing": "a whole number",
    "int_from_float": "a whole number",
    "bool_type": "true or false",
    "bool_parsing": "true or false",
    "string_type": "text",
    "float_type": "a number",
    "float_parsing": "a number",
    "list_type": "a list",
    "tuple_type": "a list",
    "set_type": "a list",
    "dict_type": "a table of keys and values",
    "model_type": "a table of keys and values",
    "model_attributes_type": "a table of keys and values",
    "none_required": "left out",
}
"""What would be right, in a card table's words, for pydantic's error types."""

_BOUNDS: dict[str, tuple[str, str]] = {
    "less_than_equal": ("le", "at most"),
    "greater_than_equal": ("ge", "at least"),
    "less_than": ("lt", "less than"),
    "greater_than": ("gt", "more than"),
}

_LONG = re.compile(r"[^\s'\"]{41,}")

_LIBRARY = (
    ("Value error, ", ""),
    ("Assertion failed, ", ""),
    ("Input should be a valid ", "should be "),
    ("Input should be ", "should be "),
    ("Input should", "should"),
    ("Field required", "missing: it is required"),
    ("dictionary", "table of keys and values"),
    ("string", "text"),
    ("integer", "whole number"),
    ("boolean", "true or false"),
)


def plain_words(msg: str) -> str:
    """A message with the validation library's phrases put in a table's words."""
    for phrase, words in _LIBRARY:
        msg = msg.replace(phrase, words)
    return re.sub(r"\s*\[type=.*$", "", msg, flags=re.S)


def _quoted(expected: str) -> str:
    """pydantic's ``'play' or 'pass'`` as a player reads it: ``"play" or "pass"``."""
    return re.sub(r"'([^']*)'", r'"\1"', str(expected))


def _noun(e: Any) -> str:
    """What would be right where ``e`` failed, as a noun phrase ("a whole number")."""
    kind, ctx = e["type"], e.get("ctx") or {}
    if kind in _NOUNS:
        return _NOUNS[kind]
    if kind in _BOUNDS:
        key, words = _BOUNDS[kind]
        return f"{words} {ctx.get(key)}"
    if kind == "literal_error":
        return _quoted(ctx.get("expected", ""))
    if kind in ("too_long", "too_short"):
        n = ctx.get("max_length" if kind == "too_long" else "min_length")
        return f"a list of {'at most' if kind == 'too_long' else 'at least'} {n}"
    if kind == "string_too_long":
        return f"at most {ctx.get('max_length')} characters"
    if kind == "value_error" and "error" in ctx:
        return str(ctx["error"])
    return plain_words(str(e["msg"])).removeprefix("should be ")


def error_words(e: Any) -> str:
    """What one pydantic error says, in the words of a card table (a long value cut,
    never echoed whole)."""
    return _LONG.sub(lambda m: m.group(0)[:20] + "…", _words(e))


def _words(e: Any) -> str:
    kind = e["type"]
    if kind == "missing":
        return "missing: it is required"
    if kind == "value_error" and "error" in (e.get("ctx") or {}):
        return plain_words(str(e["ctx"]["error"]))
    if kind in _NOUNS or kind in _BOUNDS or kind in ("literal_error", "too_long", "too_short"):
        return "should be " + _noun(e)
    if kind == "string_too_long":
        return "should be " + _noun(e)
    return plain_words(str(e["msg"]))


_TAG = re.compile(
    r"(int|str|bool|float|bytes|none|decimal|list|dict|tuple|set|frozenset"
    r"|constrained-[a-z]+|[a-z][a-z-]*\[.*\])"
)
"""How pydantic names a union's member in an error's place."""


def union_tag(step: int | str, model: type[BaseModel] | None = None) -> bool:
    """Whether a step of an error's place may name a member of a union (``int``,
    ``literal['random']``, ``function-after[…]``), not a key."""
    return (
        isinstance(step, str)
        and _TAG.fullmatch(step) is not None
        and (model is None or step not in model.model_fields)
    )


def _members(annotation: Any) -> list[Any]:
    """The members of a union annotation (``None`` left out); one for any other."""
    while get_origin(annotation) is Annotated:
        annotation = get_args(annotation)[0]
    if get_origin(annotation) in (Union, UnionType):
        return [a for a in get_args(annotation) if a is not type(None)]
    return [annotation]


def _is_union(model: type[BaseModel] | None, loc: Sequence[Any]) -> bool | None:
    """Whether the value at ``loc`` in ``model`` is a union of several forms (its next
    step then names a member); ``None`` when the model does not say."""
    if model is None:
        return None
    ann: Any = model
    for step in loc:
        members = _members(ann)
        if len(members) != 1:
            return None  # inside a union's member: not followed
        ann = members[0]
        if isinstance(ann, type) and issubclass(ann, BaseModel):
            if not isinstance(step, str) or step not in ann.model_fields:
                return None
            ann = ann.model_fields[step].annotation
        elif get_origin(ann) in (dict, Mapping) and len(get_args(ann)) == 2:
            ann = get_args(ann)[1]
        elif get_origin(ann) in (list, tuple, set, frozenset, Sequence) and get_args(ann):
            ann = get_args(ann)[0]
        else:
            return None
    return len(_members(ann)) > 1


def _tags(
    locs: Sequence[tuple[Any, ...]], model: type[BaseModel] | None = None
) -> set[tuple[int, tuple[Any, ...]]]:
    """The steps of the places that name union members: where the model has a union,
    else a step that looks like a tag and has a sibling tag in another error at the
    same place (a union reports every member); never a key a player wrote (``int`` in
    a table of seats)."""
    out = set()
    for loc in locs:
        for i, step in enumerate(loc):
            if i + 1 < len(loc) and loc[i + 1] == "[key]":  # a key written, refused
                continue
            known = _is_union(model, loc[:i])
            if known is not None:
                if known and union_tag(step):
                    out.add((i, loc[: i + 1]))
                continue
            if union_tag(step) and any(
                len(other) > i and other[:i] == loc[:i] and other[i] != step and union_tag(other[i])
                for other in locs
            ):
                out.add((i, loc[: i + 1]))
    return out


def merged_errors(errors: Sequence[Any], model: type[BaseModel] | None = None) -> list[Any]:
    """pydantic's errors with a union's members merged: one error per place (the tags
    of the members dropped), whose words say every form that would be right."""
    out: list[Any] = []
    groups: dict[tuple[Any, ...], dict[str, Any]] = {}
    tags = _tags([tuple(e["loc"]) for e in errors if e["type"] != "extra_forbidden"], model)
    for e in errors:
        full = tuple(e["loc"])
        loc = tuple(s for i, s in enumerate(full) if (i, full[: i + 1]) not in tags)
        cut = len(loc)
        if cut == len(full):
            out.append(e)
            continue
        place = loc[:cut]
        if place in groups:
            groups[place]["nouns"].append(_noun(e))
            continue
        merged = {**e, "loc": place, "type": "union", "nouns": [_noun(e)]}
        groups[place] = merged
        out.append(merged)
    for g in groups.values():
        nouns = list(dict.fromkeys(g["nouns"]))
        g["msg"] = "should be " + (
            nouns[0] if len(nouns) == 1 else ", ".join(nouns[:-1]) + ", or " + nouns[-1]
        )
    return out


def _suggest(key: str, allowed: Sequence[str] | None) -> str | None:
    hits = difflib.get_close_matches(key, list(allowed or ()), n=1, cutoff=0.6)
    return hits[0] if hits else None


def unknown_key_words(key: str, allowed: Sequence[str] | None) -> str:
    """An unknown key in words: the key meant, else the keys allowed."""
    meant = _suggest(key, allowed)
    if meant is not None:
        return f"unknown key — did you mean {meant}?"
    return "unknown key" + (f"; allowed: {', '.join(allowed)}" if allowed else "")


def ordered_errors(
    errors: Sequence[Any], model: type[BaseModel] | None
) -> list[tuple[Any, str | None]]:
    """The errors to report, in order: unknown keys first (with the key meant, if one
    is close), then the others, without a missing key an unknown one explains."""
    unknown, rest, explained = [], [], set()
    for e in merged_errors(errors, model):
        loc = tuple(e["loc"])
        if e["type"] == "extra_forbidden":
            allowed = allowed_keys(model, loc)
            meant = _suggest(str(loc[-1]), allowed) if loc else None
            if meant is not None:
                explained.add((*loc[:-1], meant))
            unknown.append((e, unknown_key_words(str(loc[-1]) if loc else "", allowed)))
        else:
            rest.append(e)
    return unknown + [
        (e, None) for e in rest if not (e["type"] == "missing" and tuple(e["loc"]) in explained)
    ]


def validation_message(
    err: ValidationError,
    place: str,
    prefix: str = "",
    model: type[BaseModel] | None = None,
    locate: Callable[[Sequence[int | str]], int | None] | None = None,
) -> str:
    """One readable message for a pydantic error: place (with the file's line when
    ``locate`` finds it), dotted key, what would be right (one line per problem, an
    unknown key first; a long value is cut, never echoed whole)."""
    lines = []
    for e, unknown in ordered_errors(err.errors(), model):
        loc = tuple(e["loc"])
        steps = [*(p for p in prefix.split(".") if p), *loc]
        key = ""
        for p in steps:
            key += f", item {p + 1}" if isinstance(p, int) else (f".{p}" if key else str(p))
        if unknown is not None:
            msg = unknown
        else:
            msg = e["msg"] if e["type"] == "union" else error_words(e)
            msg = _LONG.sub(lambda m: m.group(0)[:20] + "…", msg)
            if "(R-" not in msg:
                msg += _field_rule(model, loc)
        line = locate(steps) if locate is not None else None
        at = f"{place}, line {line}" if line is not None else place
        lines.append(f"{at}: {key or '(top)'}: {msg}")
    return "\n".join(lines)
