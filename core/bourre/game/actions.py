"""What a player does and what chance does, as small immutable values.

A player's :class:`Action` is one of: ``PASS``, ``PLAY`` (R-DECIDE), a discard of a
set of cards (R-DRAW; the empty set stands pat) or a card (R-FOLLOW …).  Chance
outcomes are given instead of drawn when a hand comes from a real table:
:class:`Deck` (the whole deck order), :class:`Dealt` (the upcard and the hands the
table saw), :class:`Drew` (the replacements a seat received) and :class:`AfterDraw`
(the hand a seat held after its exchange, read from the tricks).  All are hashable
and compare by value; ``str()`` gives the table's words (``pass``, ``discard 2C 3D``,
``JH``) and :func:`parse_action` reads them back.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import NamedTuple

from bourre.rules.cards import card_str, parse_card

__all__ = [
    "CARDS",
    "PASS",
    "PASS_OR_PLAY",
    "PLAY",
    "PLAY_ONLY",
    "STAND_PAT",
    "Action",
    "AfterDraw",
    "Dealt",
    "Deck",
    "Drew",
    "TablePlay",
    "canonical",
    "card",
    "discard",
    "parse_action",
]


class Action(NamedTuple):
    """A player's action: ``kind`` is ``"pass"``, ``"play"``, ``"discard"`` or
    ``"card"``; ``cards`` the cards it names (one for a card; for a discard, in the
    order discarded, which is the order a scripted reshuffle returns them in)."""

    kind: str
    cards: tuple[int, ...] = ()

    @property
    def card(self) -> int:
        """The card of a ``"card"`` action."""
        return self.cards[0]

    def __str__(self) -> str:
        if self.kind == "card" and len(self.cards) == 1:
            return _text(self.cards[0])
        if self.kind == "discard":
            return (
                "discard " + " ".join(_text(c) for c in self.cards) if self.cards else ("stand pat")
            )
        return self.kind

    def __repr__(self) -> str:
        return f"Action({str(self)!r})"


PASS = Action("pass")
PLAY = Action("play")
STAND_PAT = Action("discard")
CARDS: tuple[Action, ...] = tuple(Action("card", (c,)) for c in range(52))
"""The 52 card actions, made once (``CARDS[c]``)."""
PASS_OR_PLAY: tuple[Action, ...] = (PASS, PLAY)
"""A decision's actions (R-DECIDE), shared: what ``State.choices`` shows."""
PLAY_ONLY: tuple[Action, ...] = (PLAY,)
"""A decision's actions when the rules forbid the pass (R-ACE-UP, R-LAST-STANDS)."""


def canonical(action: Action) -> Action | None:
    """``action`` with its cards as a tuple, or ``None`` when its cards are not a
    sequence (``None``, a number, text).  An action built with a list names the same
    cards, and is applied and recorded as the tuple both engines keep in their history;
    what the cards are is the rules' to judge (R-DECIDE, R-DRAW, R-LEAD)."""
    cards = action.cards
    if type(cards) is tuple:
        return action
    if isinstance(cards, str | bytes) or not isinstance(cards, Sequence):
        return None
    return Action(action.kind, tuple(cards))


def card(c: int) -> Action:
    """The action of playing card ``c``."""
    return CARDS[c]


def discard(cards: Iterable[int]) -> Action:
    """The action of discarding ``cards`` in this order (R-DRAW); none stands pat."""
    return Action("discard", tuple(cards))


def parse_action(text: str) -> Action:
    """``pass``, ``play``, ``stand pat``, ``discard 2C 3D`` or a card such as ``JH``."""
    words = text.strip().split()
    if not words:
        raise ValueError("an action is pass, play, discard CARDS, stand pat or a card")
    head = words[0].lower()
    if head in ("pass", "play") and len(words) == 1:
        return PASS if head == "pass" else PLAY
    if head == "discard":
        return discard(parse_card(w) for w in words[1:])
    if head == "stand" and [w.lower() for w in words] == ["stand", "pat"]:
        return STAND_PAT
    if len(words) == 1:
        return CARDS[parse_card(words[0])]
    raise ValueError(f"{text!r} is not an action: pass, play, discard CARDS, stand pat or a card")


# -- chance outcomes -----------------------------------------------------------------------


class Deck(NamedTuple):
    """The whole deck, top first, after shuffle and cut (R-DEAL): it fixes the deal,
    the stock and so every replacement."""

    cards: tuple[int, ...]


def _text(card: object) -> str:
    """A card's text, or what was given instead (an action may name anything until the
    state refuses it, R-DECK)."""
    return card_str(card) if type(card) is int and 0 <= card < 52 else repr(card)


class Dealt(NamedTuple):
    """What a table saw of the deal: the upcard and the hands dealt to some seats
    (``{seat: cards}``; the dealer's hand holds the upcard).  Seats left out hold
    unknown cards; the stock stays unknown, so each exchange asks for :class:`Drew`.
    Given again later with more seats, it reveals the hand of a seat that plays."""

    upcard: int | None
    hands: Mapping[int, tuple[int, ...]]

    @staticmethod
    def of(upcard: int | None, hands: Mapping[int, Iterable[int]]) -> Dealt:
        return Dealt(upcard, {int(s): tuple(sorted(cs)) for s, cs in hands.items()})


class TablePlay(NamedTuple):
    """A card refereed at a real table (``TableState.referee_play``): ``card`` as played,
    ``corrected_to`` when it was taken back (R-RENEGE, R-CORRECTED)."""

    card: int
    corrected_to: int | None


class Drew(NamedTuple):
    """The replacements a seat received in its exchange, in order (R-DRAW)."""

    cards: tuple[int, ...]


class AfterDraw(NamedTuple):
    """The hand a seat held after its exchange, shown in the tricks (every card it
    played), given instead of the hand it was dealt: its discards, which the seat then
    names, and these tell the rest (R-DRAW, R-RESHUFFLE; docs/table-scripts.md "What the
    tricks show")."""

    cards: tuple[int, ...]
