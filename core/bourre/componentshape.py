"""The shape a rule component must have before a house takes it
(:func:`check_component`): an answer at all, the methods its field calls, a function
where a function is called, a hand size in range."""

from __future__ import annotations

from typing import Any

from bourre.components import undefined

__all__ = ["check_component"]


_NEEDS: dict[str, tuple[str, ...]] = {
    "ante": ("hand_antes", "play_ante"),
    "decisions": ("announcements", "turn", "decide", "exchanged"),
    "cinch": ("enabled", "min_won", "has_cinch", "narrow"),
}


def check_component(field: str, value: Any) -> str | None:
    """What is wrong with a component's shape, or ``None``."""
    if value is None:
        return "no answer (None)"
    if field == "hand_size":
        if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= 26:
            return f"hand size must be an int 1…26, got {value!r}"
        return None
    empty = undefined(field, value)  # a compiled base subclassed without its methods
    if empty:
        return (
            f"{type(value).__name__} subclasses a compiled base but defines no {', '.join(empty)}"
        )
    if field in _NEEDS:
        missing = [a for a in _NEEDS[field] if not hasattr(value, a)]
        if missing:
            return f"answered {value!r}, which lacks {', '.join(missing)}"
        return None
    if field == "follow" and hasattr(value, "legal"):
        return None
    if not callable(value):
        return f"must answer a function, got {value!r}"
    return None
