"""What the tap page shows (``tap.html``): the one thing it still needs, the buttons
that give it, and the 52-card picker, whose cards are ints until it is drawn."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from bourre.rules.cards import SUITS, card_str, card_symbol

__all__ = ["Button", "Picker", "Step", "count", "seats", "symbols"]


@dataclass(frozen=True)
class Button:
    value: str
    """The tap it posts (``verb`` or ``verb:arg``)."""
    label: str
    css: str = ""
    disabled: bool = False
    title: str = ""


@dataclass(frozen=True)
class Picker:
    """The 52-card picker: ``enabled`` cards can be tapped (the others are greyed
    out), ``picked`` ones are shown chosen, ``marks`` gives others a css class
    (``legal``, ``illegal``, ``played``, ``back``)."""

    verb: str
    enabled: frozenset[int]
    picked: frozenset[int] = frozenset()
    marks: Mapping[int, str] = field(default_factory=dict)

    def rows(self) -> list[list[Button]]:
        """The picker drawn: a row per suit, ace high, each card a button."""
        rows = []
        for s in range(4):
            red = " red" if SUITS[s] in "HD" else ""
            row = []
            for r in reversed(range(13)):
                c = s * 13 + r
                style = self.marks.get(c, "")
                if c in self.picked:
                    css, on = "picked", c in self.enabled
                elif c in self.enabled:
                    css, on = style or "free", True
                else:
                    css, on = style or "off", False
                row.append(
                    Button(
                        f"{self.verb}:{card_str(c)}",
                        card_symbol(c),
                        css + red,
                        disabled=not on,
                        title=card_str(c),
                    )
                )
            rows.append(row)
        return rows


@dataclass(frozen=True)
class Step:
    """What the page shows: the one thing it still needs, and how to give it."""

    ask: str
    help: tuple[str, ...] = ()
    buttons: tuple[Button, ...] = ()
    picker: Picker | None = None
    question: str | None = None
    """A card the rules forbid: why, for the table to rule on."""
    aside: tuple[Button, ...] = ()
    """Table events the step also takes, apart from its question: an announcement
    out of turn (R-PREMATURE), one button a seat."""
    aside_ask: str = ""
    over: bool = False
    more: bool = False
    """At the end of a hand: whether the session has hands left."""


def symbols(cards: Iterable[int]) -> str:
    return " ".join(card_symbol(c) for c in cards)


def seats(ss: list[int]) -> str:
    """``seat 1``, ``seat 1 and seat 3``, ``seat 1, seat 2 and seat 3``."""
    names = [f"seat {s}" for s in ss]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def count(k: int, what: str = "card") -> str:
    return f"{k} {what}" if k == 1 else f"{k} {what}s"
