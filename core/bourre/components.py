"""Compiled base classes of the rule components the game calls for every card and
decision: :class:`FollowComponent`, :class:`CinchComponent` and
:class:`DecisionComponent`.

The protocols of :mod:`bourre.rules` say what a component does; these classes are how
the game calls it.  A component that subclasses one (the built-in ones do, and so may
a plugin's, in Python) is called through the compiled method table, without Python's
argument passing or the boxing of the card masks.  Any other object that follows the
protocol is wrapped once, when the house is built (:func:`compiled_form`), in a
``Foreign…`` adapter that calls it the ordinary way.  A Python subclass's overrides
are honoured either way.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from mypy_extensions import mypyc_attr

from bourre.rules import RuleViolation, Turn
from bourre.state import HandState

__all__ = [
    "CinchComponent",
    "DecisionComponent",
    "FollowComponent",
    "ForeignCinch",
    "ForeignDecisions",
    "ForeignFollow",
    "compiled_form",
]


@mypyc_attr(allow_interpreted_subclasses=True)
class FollowComponent:
    """The ordinary obligations (:class:`~bourre.rules.FollowRule`): card sets are masks."""

    def legal(self, hand: int, trick: list[int], trump: int) -> int:
        raise NotImplementedError

    def refuse(self, hand: int, trick: list[int], trump: int, card: int) -> RuleViolation:
        raise NotImplementedError


@mypyc_attr(allow_interpreted_subclasses=True)
class CinchComponent:
    """The cinch (:class:`~bourre.rules.CinchPolicy`): card sets are masks."""

    enabled: bool = True

    def min_won(self, hand: int, trump: int) -> int:
        raise NotImplementedError

    def has_cinch(self, hand: int, trump: int, known: int, won: int) -> bool:
        raise NotImplementedError

    def narrow(
        self, legal: int, hand: int, trick: list[int], trump: int, known: int, last: bool
    ) -> int:
        raise NotImplementedError

    def refuse(self, card: int, allowed: int, trick: list[int], trump: int) -> RuleViolation:
        raise NotImplementedError


@mypyc_attr(allow_interpreted_subclasses=True)
class DecisionComponent:
    """The decisions and the order of exchanges (:class:`~bourre.rules.DecisionProcedure`)."""

    announcements: bool = True

    def turn(self, state: HandState) -> Turn | None:
        raise NotImplementedError

    def decide(self, state: HandState, seat: int, play: bool) -> None:
        raise NotImplementedError

    def exchanged(self, state: HandState, seat: int, discards: Sequence[int]) -> None:
        raise NotImplementedError


class ForeignFollow(FollowComponent):
    """A follow rule that is not a :class:`FollowComponent`, called the ordinary way."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    def legal(self, hand: int, trick: list[int], trump: int) -> int:
        out: int = self.inner.legal(hand, trick, trump)
        return out

    def refuse(self, hand: int, trick: list[int], trump: int, card: int) -> RuleViolation:
        out: RuleViolation = self.inner.refuse(hand, trick, trump, card)
        return out


class ForeignCinch(CinchComponent):
    """A cinch policy that is not a :class:`CinchComponent`, called the ordinary way."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.enabled = bool(inner.enabled)

    def min_won(self, hand: int, trump: int) -> int:
        out: int = self.inner.min_won(hand, trump)
        return out

    def has_cinch(self, hand: int, trump: int, known: int, won: int) -> bool:
        return bool(self.inner.has_cinch(hand, trump, known, won))

    def narrow(
        self, legal: int, hand: int, trick: list[int], trump: int, known: int, last: bool
    ) -> int:
        out: int = self.inner.narrow(legal, hand, trick, trump, known, last)
        return out

    def refuse(self, card: int, allowed: int, trick: list[int], trump: int) -> RuleViolation:
        out: RuleViolation = self.inner.refuse(card, allowed, trick, trump)
        return out


class ForeignDecisions(DecisionComponent):
    """A decision procedure that is not a :class:`DecisionComponent`."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.announcements = bool(inner.announcements)

    def turn(self, state: HandState) -> Turn | None:
        out: Turn | None = self.inner.turn(state)
        return out

    def decide(self, state: HandState, seat: int, play: bool) -> None:
        self.inner.decide(state, seat, play)

    def exchanged(self, state: HandState, seat: int, discards: Sequence[int]) -> None:
        self.inner.exchanged(state, seat, discards)


def compiled_form(field: str, value: Any) -> Any:
    """The component of :class:`~bourre.rules.Rules` field ``field`` in the form the
    game calls: itself when it subclasses the compiled base, else wrapped."""
    if field == "follow" and not isinstance(value, FollowComponent):
        return ForeignFollow(value)
    if field == "cinch" and not isinstance(value, CinchComponent):
        return ForeignCinch(value)
    if field == "decisions" and not isinstance(value, DecisionComponent):
        return ForeignDecisions(value)
    return value
