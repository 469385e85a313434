"""What the tap page's form carries besides the hand's lines: the tap (a button's
value, ``verb:arg``) and the step under way, which waits in the hidden ``pending``
field until it is whole (a seat that plays: the cards it shows, how many it changes,
which, what it drew; a card the rules forbid: does it stand, or was it taken back).

Cards are ints here; they are written in R-DECK notation only in the form's text.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, replace

from bourre.rules.cards import CardError, card_str, parse_card

from .phases import Phase

__all__ = ["Exchange", "Forbidden", "Pending", "Tap", "TapError", "read_pending"]


class TapError(ValueError):
    """A tap that does not fit the hand (a forged or stale form): shown on the page."""


SEAT = re.compile(r"[0-9]{1,2}")
"""A seat, or a number of cards, as a tap gives it."""


def card(text: str) -> int:
    """A card in R-DECK notation (:class:`TapError` if it is not one)."""
    try:
        return parse_card(text)
    except CardError as e:
        raise TapError(str(e)) from None


def cards(text: str) -> tuple[int, ...]:
    return tuple(card(t) for t in text.split())


def words(cs: Iterable[int]) -> str:
    """Cards in R-DECK notation, as the hand notation writes them."""
    return " ".join(card_str(c) for c in cs)


@dataclass(frozen=True)
class Tap:
    """One tap: a button's value, ``verb`` or ``verb:arg``."""

    verb: str
    arg: str = ""

    @staticmethod
    def read(value: str) -> Tap:
        verb, _, arg = value.strip().partition(":")
        return Tap(verb, arg)

    def card(self) -> int:
        return card(self.arg)

    def number(self) -> int | None:
        """The seat or the count the tap gives, if it gives one."""
        return int(self.arg) if SEAT.fullmatch(self.arg) else None


@dataclass(frozen=True)
class Exchange:
    """A seat that plays, being tapped: at its decision, or (``sole``) at the end of a
    hand it took without play, when its dealt cards are needed (R-SOLE)."""

    seat: int
    sole: bool = False
    dealt: tuple[int, ...] = ()
    """The cards it was dealt, as far as tapped (the dealer's upcard first)."""
    change: int | None = None
    throw: tuple[int, ...] = ()
    drew: tuple[int, ...] = ()
    deck: bool = False
    """The hand's deck is given: the seat's cards and its replacements follow from it."""
    show: bool = False
    """The seat shows the cards it was dealt (else its tricks will show its hand)."""

    def phase(self, size: int) -> Phase:
        """What the exchange still needs."""
        if self.show and len(self.dealt) < size:
            return Phase.DEALT
        if self.change is None:
            return Phase.CHANGE
        if len(self.throw) < self.change:
            return Phase.THROW
        return Phase.DRAW

    @property
    def gives_drawn(self) -> bool:
        """Whether its line gives the cards it drew: it showed its cards, and no deck
        gives its replacements."""
        return self.show and not self.deck

    def undone(self, fixed: int) -> Exchange | None:
        """The exchange with its last tap taken back (``None``: none left of it);
        ``fixed``: the dealt cards known before the seat showed them."""
        if self.drew:
            return replace(self, drew=self.drew[:-1])
        if self.throw and not self.sole:
            return replace(self, throw=self.throw[:-1])
        if self.change is not None and not self.sole:
            return replace(self, change=None)
        if self.show and len(self.dealt) > fixed:
            return replace(self, dealt=self.dealt[:-1])
        if self.show and not self.sole and not self.deck:
            return replace(self, show=False)
        return None

    def text(self) -> str:
        parts = [
            f"seat {self.seat}",
            "sole" if self.sole else "decide",
            f"dealt {words(self.dealt)}",
        ]
        if self.deck:
            parts.append("deck")
        if self.show:
            parts.append("show")
        if self.change is not None:
            parts += [
                f"change {self.change}",
                f"throw {words(self.throw)}",
                f"drew {words(self.drew)}",
            ]
        return "; ".join(parts)


@dataclass(frozen=True)
class Forbidden:
    """A card the rules forbid, played: the table says whether it stands (R-RENEGE) or
    was taken back (``back``, R-CORRECTED: the card played instead comes next)."""

    seat: int
    card: int
    back: bool = False

    def undone(self) -> Forbidden | None:
        return replace(self, back=False) if self.back else None

    def text(self) -> str:
        return f"seat {self.seat}; card {card_str(self.card)}" + ("; back" if self.back else "")


Pending = Exchange | Forbidden
"""The step under way."""

_NOT_OURS = "the step under way is not one this page wrote: start it again"


def read_pending(text: str) -> Pending | None:
    """The step under way the form carries (``None`` if none); :class:`TapError` if it
    is not one this page writes."""
    text = text.strip()
    if not text:
        return None
    parts = [p.strip() for p in text.split(";")]
    head = parts[0].split()
    if len(head) != 2 or head[0] != "seat" or not SEAT.fullmatch(head[1]) or len(parts) < 2:
        raise TapError(_NOT_OURS)
    seat, kind = int(head[1]), "decide"
    dealt: tuple[int, ...] = ()
    throw: tuple[int, ...] = ()
    drew: tuple[int, ...] = ()
    change: int | None = None
    forbidden: int | None = None
    flags: set[str] = set()
    keys: set[str] = set()
    for part in parts[1:]:
        key, _, rest = part.partition(" ")
        keys.add(key)
        if key in ("decide", "sole"):
            kind = key
        elif key == "dealt":
            dealt = cards(rest)
        elif key == "change" and SEAT.fullmatch(rest):
            change = int(rest)
        elif key == "throw":
            throw = cards(rest)
        elif key == "drew":
            drew = cards(rest)
        elif key == "card":
            forbidden = card(rest)
        elif key in ("back", "deck", "show"):
            flags.add(key)
        else:
            raise TapError(_NOT_OURS)
    if forbidden is not None:  # a card forbidden: nothing of an exchange
        if keys - {"card", "back"}:
            raise TapError(_NOT_OURS)
        return Forbidden(seat, forbidden, back="back" in flags)
    if "back" in keys:
        raise TapError(_NOT_OURS)
    return Exchange(
        seat,
        sole=kind == "sole",
        dealt=dealt,
        change=change,
        throw=throw,
        drew=drew,
        deck="deck" in flags,
        show="show" in flags,
    )
