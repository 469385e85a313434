"""Compiled base classes of the rule components the game calls for every card,
decision, exchange and deal: :class:`FollowComponent`, :class:`CinchComponent`,
:class:`DecisionComponent`, :class:`DrawComponent`, :class:`TrickComponent`,
:class:`AnteComponent`, :class:`DealComponent` and :class:`NextDealerComponent`.

The protocols of :mod:`bourre.rules` say what a component does; these classes are how
the game calls it.  A component that subclasses one and overrides its methods (the
built-in ones do) is called through the compiled method table, without Python's
argument passing or the boxing of the card masks.  Any other object that follows the
protocol (a plugin's component behind its guard, :mod:`bourre.guards`) is wrapped
once, when the house is built (:func:`compiled_form`): the base class made with that
object (``inner``) forwards each call to it the ordinary way.  A Python subclass's
overrides are honoured.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from mypy_extensions import mypyc_attr

from bourre.money import Amount
from bourre.outcome import HandOutcome
from bourre.rules import RuleViolation, Turn
from bourre.state import HandState

__all__ = [
    "AnteComponent",
    "CinchComponent",
    "DealComponent",
    "DecisionComponent",
    "DrawComponent",
    "FollowComponent",
    "NextDealerComponent",
    "TrickComponent",
    "compiled_form",
    "undefined",
]


@mypyc_attr(allow_interpreted_subclasses=True)
class FollowComponent:
    """The ordinary obligations (:class:`~bourre.rules.FollowRule`), card sets as masks:
    override :meth:`legal` and :meth:`refuse`, or wrap a follow rule as ``inner``."""

    inner: Any = None
    """The wrapped follow rule, for one that does not subclass this class."""

    def __init__(self, inner: Any = None) -> None:
        self.inner = inner

    def legal(self, hand: int, trick: list[int], trump: int) -> int:
        out: int = self.inner.legal(hand, trick, trump)
        return out

    def refuse(self, hand: int, trick: list[int], trump: int, card: int) -> RuleViolation:
        out: RuleViolation = self.inner.refuse(hand, trick, trump, card)
        return out


@mypyc_attr(allow_interpreted_subclasses=True)
class CinchComponent:
    """The cinch (:class:`~bourre.rules.CinchPolicy`), card sets as masks: override its
    methods, or wrap a cinch policy as ``inner``."""

    inner: Any = None
    """The wrapped cinch policy, for one that does not subclass this class."""
    enabled: bool = True

    def __init__(self, inner: Any = None) -> None:
        self.inner = inner
        if inner is not None:
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


@mypyc_attr(allow_interpreted_subclasses=True)
class DecisionComponent:
    """The decisions and the order of exchanges (:class:`~bourre.rules.DecisionProcedure`):
    override its methods, or wrap a decision procedure as ``inner``."""

    inner: Any = None
    """The wrapped decision procedure, for one that does not subclass this class."""
    announcements: bool = True

    def __init__(self, inner: Any = None) -> None:
        self.inner = inner
        if inner is not None:
            self.announcements = bool(inner.announcements)

    def turn(self, state: HandState) -> Turn | None:
        out: Turn | None = self.inner.turn(state)
        return out

    def decide(self, state: HandState, seat: int, play: bool) -> None:
        self.inner.decide(state, seat, play)

    def exchanged(self, state: HandState, seat: int, discards: Sequence[int]) -> None:
        self.inner.exchanged(state, seat, discards)


@mypyc_attr(allow_interpreted_subclasses=True)
class DrawComponent:
    """The exchange with the stock (:class:`~bourre.rules.DrawRule`): override
    :meth:`limit`, :meth:`check` and ``__call__``, or wrap a draw rule as ``inner``."""

    inner: Any = None
    """The wrapped draw rule, for one that does not subclass this class."""

    def __init__(self, inner: Any = None) -> None:
        self.inner = inner

    def limit(self, state: HandState, seat: int) -> int:
        out: int = self.inner.limit(state, seat)
        return out

    def check(self, state: HandState, seat: int, discards: Sequence[int]) -> None:
        self.inner.check(state, seat, discards)

    def __call__(self, state: HandState, seat: int, discards: Sequence[int]) -> None:
        self.inner(state, seat, discards)


@mypyc_attr(allow_interpreted_subclasses=True)
class TrickComponent:
    """Who wins a complete trick (:data:`~bourre.rules.TrickWinnerFn`): override
    :meth:`winner`, or wrap a trick-winner function as ``inner``.  Calling it is
    calling :meth:`winner`, so it is itself a trick-winner function."""

    inner: Any = None
    """The wrapped trick-winner function, for one that does not subclass this class."""

    def __init__(self, inner: Any = None) -> None:
        self.inner = inner

    def winner(self, trick: list[int], trump: int) -> int:
        out: int = self.inner(trick, trump)
        return out

    def __call__(self, trick: list[int], trump: int) -> int:
        return self.winner(trick, trump)


@mypyc_attr(allow_interpreted_subclasses=True)
class AnteComponent:
    """The antes (:class:`~bourre.rules.AntePolicy`): override :meth:`hand_antes` and
    :meth:`play_ante`, or wrap an ante policy as ``inner``."""

    inner: Any = None
    """The wrapped ante policy, for one that does not subclass this class."""

    def __init__(self, inner: Any = None) -> None:
        self.inner = inner

    def hand_antes(
        self, n: int, ante: Amount, previous: HandOutcome | None, dealer: int
    ) -> list[Amount]:
        out: list[Amount] = self.inner.hand_antes(n, ante, previous, dealer)
        return out

    def play_ante(self, ante: Amount) -> Amount:
        out: Amount = self.inner.play_ante(ante)
        return out


@mypyc_attr(allow_interpreted_subclasses=True)
class DealComponent:
    """The deal (:data:`~bourre.rules.DealFn`): override ``__call__``, or wrap a deal
    function as ``inner``; called as a deal function is."""

    inner: Any = None
    """The wrapped deal function, for one that does not subclass this class."""

    def __init__(self, inner: Any = None) -> None:
        self.inner = inner

    def __call__(
        self, deck: Sequence[int], dealer: int, n: int
    ) -> tuple[list[list[int]], int, list[int]]:
        out: tuple[list[list[int]], int, list[int]] = self.inner(deck, dealer, n)
        return out


@mypyc_attr(allow_interpreted_subclasses=True)
class NextDealerComponent:
    """The next dealer (:data:`~bourre.rules.NextDealerFn`): override ``__call__``, or
    wrap a next-dealer function as ``inner``; called as that function is."""

    inner: Any = None
    """The wrapped next-dealer function, for one that does not subclass this class."""

    def __init__(self, inner: Any = None) -> None:
        self.inner = inner

    def __call__(self, dealer: int, marks: list[bool]) -> int:
        out: int = self.inner(dealer, marks)
        return out


_BASES: dict[str, tuple[type[Any], tuple[str, ...]]] = {
    "follow": (FollowComponent, ("legal", "refuse")),
    "cinch": (CinchComponent, ("min_won", "has_cinch", "narrow", "refuse")),
    "decisions": (DecisionComponent, ("turn", "decide", "exchanged")),
    "draw": (DrawComponent, ("limit", "check", "__call__")),
    "trick_winner": (TrickComponent, ("winner",)),
    "ante": (AnteComponent, ("hand_antes", "play_ante")),
    "deal": (DealComponent, ("__call__",)),
    "next_dealer": (NextDealerComponent, ("__call__",)),
}


def compiled_form(field: str, value: Any) -> Any:
    """The component of :class:`~bourre.rules.Rules` field ``field`` in the form the
    game calls: itself when it subclasses the compiled base, else the base wrapping it."""
    entry = _BASES.get(field)
    if entry is None or isinstance(value, entry[0]):
        return value
    return entry[0](value)


def undefined(field: str, value: Any) -> list[str]:
    """The methods a subclass of the compiled base neither overrides nor forwards (it
    wraps no component): what :func:`bourre.guards.check_component` refuses."""
    entry = _BASES.get(field)
    if entry is None or not isinstance(value, entry[0]) or value.inner is not None:
        return []
    base, methods = entry
    return [m for m in methods if getattr(type(value), m) is getattr(base, m)]
