"""Where in a table script an error is, in the players' words: the line and column of
the hand notation it was written on, or, for a JSON script, the place as a table
counts it ("hand 2, play 3": hands, plays and cards counted from 1; seats keep the
numbers the script uses) with the file's line when it is known.

A parsed script that knows where its places were written is a
:class:`~bourre.referee.located.Located` dict."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from bourre.referee.located import Loc
from bourre.referee.scripts import ScriptError

__all__ = ["HandPlace", "Places", "table_words"]


_FIELDS = {
    "seat": "seat",
    "card": "card",
    "corrected_to": "the card it was corrected to",
    "action": "action",
    "type": "what happened",
    "dealer": "dealer",
    "pot": "pot",
    "upcard": "upcard",
    "deck": "deck",
    "dealt": "the cards dealt",
    "decisions": "decisions",
    "plays": "plays",
    "events": "announcements",
    "reshuffles": "reshuffles",
    "balances": "balances",
    "hands": "hands",
    "rules": "rules",
}


def _hand_words(rest: Sequence[int | str]) -> list[str]:
    """The words of a place inside one hand (``plays``, 2, ``card`` → play 3, card)."""
    if not rest:
        return []
    head, tail = rest[0], list(rest[1:])
    index = tail[0] if tail and isinstance(tail[0], int) else None
    if head in ("decisions", "plays", "events", "reshuffles") and index is not None:
        noun = {
            "decisions": "decision",
            "plays": "play",
            "events": "announcement",
            "reshuffles": "reshuffle",
        }[str(head)]
        words = [f"{noun} {index + 1}"]
        tail = tail[1:]
        if head == "reshuffles" and tail and isinstance(tail[0], int):
            return [*words, f"card {tail[0] + 1}"]
        if tail and tail[0] in ("discard", "drew"):
            what = "card discarded" if tail[0] == "discard" else "card drawn"
            if len(tail) > 1 and isinstance(tail[1], int):
                return [*words, f"{what} {tail[1] + 1}"]
            return [*words, "the cards discarded" if tail[0] == "discard" else "the cards drawn"]
        return words + [_FIELDS.get(str(t), str(t)) for t in tail if not isinstance(t, int)]
    if head == "dealt" and tail:
        seat = tail[0]
        if len(tail) > 1 and isinstance(tail[1], int):
            return [f"card {tail[1] + 1} dealt to seat {seat}"]
        if len(tail) > 1:  # the seat itself is wrong
            return [f"the cards dealt to {seat!r}"]
        return [f"the cards dealt to seat {seat}"]
    if head == "deck" and index is not None:
        return [f"card {index + 1} of the deck"]
    return [_FIELDS.get(str(head), str(head))] + [
        f"item {t + 1}" if isinstance(t, int) else str(t) for t in tail
    ]


def table_words(loc: Sequence[int | str]) -> str:
    """A place in a script as a table says it: ``hands[1].plays[2].card`` → ``hand 2,
    play 3, card``; a house rule keeps its dotted key (``rules: table.players``)."""
    loc = list(loc)
    if not loc:
        return ""
    if loc[0] == "hands" and len(loc) > 1 and isinstance(loc[1], int):
        return ", ".join([f"hand {loc[1] + 1}", *_hand_words(loc[2:])])
    if loc[0] == "balances" and len(loc) > 1 and isinstance(loc[1], int):
        return f"the balance of seat {loc[1]}"
    if loc[0] == "rules" and len(loc) > 1:
        return "rules: " + ".".join(str(x) for x in loc[1:])
    return ", ".join(
        _FIELDS.get(str(x), str(x)) if isinstance(x, str) else f"item {x + 1}" for x in loc
    )


class Places:
    """The places of one script: what an error at a place of it is prefixed with."""

    def __init__(self, place: str, data: Any = None) -> None:
        self.place = place
        self.find: Callable[[Loc], tuple[int, int, bool] | None] | None = getattr(
            data, "find", None
        )
        self.columns: bool = getattr(data, "columns", True)

    def at(self, loc: Loc) -> str:
        """``session.hand, line 7, column 8`` for a notation script, ``s.json, line 4:
        hand 1, play 2`` for a JSON one (``s.json: hand 1, play 2`` without lines)."""
        found = self.find(loc) if self.find is not None else None
        words = table_words(loc)
        if found is None:
            return f"{self.place}: {words}" if words else self.place
        line, col, exact = found
        head = f"{self.place}, line {line}" + (f", column {col}" if self.columns else "")
        if self.columns and exact:
            return head
        return f"{head}: {words}" if words else head

    def rules(self) -> tuple[str, str, Callable[[Sequence[int | str]], int | None] | None]:
        """Where the script's house rules are, for the house's own messages: the
        place, the key they stand under and the line of a key of theirs (a JSON
        script's), or the line and column of a notation's ``house`` line."""
        if self.find is None or self.columns:
            return self.at(("rules",)), "", None
        find = self.find

        def locate(steps: Sequence[int | str]) -> int | None:
            found = find(tuple(steps))
            return found[0] if found is not None else None

        return self.place, "rules", locate

    def error(self, loc: Loc, message: str) -> ScriptError:
        """A :class:`ScriptError` at ``loc``."""
        return ScriptError(f"{self.at(loc)}: {message}")

    def hand(self, index: int) -> HandPlace:
        """The places of hand ``index`` (0-based)."""
        return HandPlace(self, index)


class HandPlace:
    """The places of one hand of a script."""

    def __init__(self, places: Places, index: int) -> None:
        self.places = places
        self.index = index

    def at(self, *rest: int | str) -> str:
        return self.places.at(("hands", self.index, *rest))

    def error(self, *rest: int | str, message: str) -> ScriptError:
        """A :class:`ScriptError` at a place of the hand (``"plays", 2, "card"``)."""
        return self.places.error(("hands", self.index, *rest), message)

    def __str__(self) -> str:
        return self.at()
