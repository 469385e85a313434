"""The base of the built-in bots (:class:`PlayerBase`) and the refusal of a player's
answer (:class:`IllegalAnswer`); :mod:`bourre.game.players` names both.

A :class:`PlayerBase` answers the three questions of :class:`~bourre.game.playerbase.Player`
with an observation, or, when it says ``needs_view = False`` (a blind bot, such as
the random bot), the questions of :mod:`bourre.game.players` with its legal choices only:
``choose`` (the actions), ``choose_card`` (the cards) and ``choose_discards`` (the
hand and the limit).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar, Protocol, cast, runtime_checkable

from bourre.game.actions import CARDS, Action
from bourre.game.observation import Discards, Observation
from bourre.rules import RuleViolation

__all__ = [
    "Bot",
    "BotError",
    "BotFailed",
    "IllegalAnswer",
    "Player",
    "PlayerBase",
    "SessionStop",
    "bot_name",
    "may_not_pass",
    "not_a_card",
    "not_an_action",
    "wrong_type",
]


@runtime_checkable
class Bot(Protocol):
    """A bot: answers one action of ``view.legal_actions`` for what its seat sees."""

    def act(self, view: Observation) -> Action: ...


@runtime_checkable
class Player(Protocol):
    """A bot or a person at one seat, in three questions; it sees only its
    :class:`~bourre.game.observation.Observation`."""

    def decide(self, view: Observation) -> bool:
        """``True`` to play, ``False`` to pass (``view.forced`` names the rule that
        forbids passing, if any)."""
        ...

    def discard(self, view: Observation) -> Sequence[int]:
        """The cards to exchange (0 … hand size)."""
        ...

    def play(self, view: Observation) -> int:
        """A card of ``view.legal``."""
        ...


class IllegalAnswer(RuleViolation):
    """A player's answer the rules forbid; ``seat`` says whose."""

    def __init__(self, seat: int, rule: str, message: str, legal: Sequence[object] = ()) -> None:
        super().__init__(rule, f"seat {seat}: {message}", legal)
        self.seat = seat
        self.words = message

    def __reduce__(self) -> tuple[object, ...]:
        return (IllegalAnswer, (self.seat, self.rule, self.words, self.legal))


class BotError(RuntimeError):
    """An isolated bot (:mod:`bourre.game.isolate`) that was too slow, crashed or
    answered nonsense: named by the isolation, it passes through
    :func:`~bourre.game.players.ask` as it is."""

    def __init__(self, bot: str, message: str) -> None:
        super().__init__(f"bot {bot!r}: {message}")
        self.bot, self.message = bot, message

    def __reduce__(self) -> tuple[object, ...]:
        return (BotError, (self.bot, self.message))


class SessionStop(Exception):
    """Raised by a player to stop the session (a person who quits, an input that
    ended): it passes through :func:`~bourre.game.players.ask` as it is, not as a
    :class:`BotFailed`."""


class BotFailed(RuntimeError):
    """A bot that raised while it was asked to act (a bug of the bot, not an answer
    the rules refuse): the message names the seat and the bot, the bot's own
    exception is the ``__cause__`` (R-SESSION: a bot only answers)."""

    def __init__(self, seat: int, bot: str, error: str) -> None:
        super().__init__(f"seat {seat}: {bot} failed while asked to act: {error}")
        self.seat, self.bot, self.error = seat, bot, error

    def __reduce__(self) -> tuple[object, ...]:
        return (BotFailed, (self.seat, self.bot, self.error))


def bot_name(player: object) -> str:
    """A bot as a message names it: its ``name`` if it has one, and its class."""
    cls = type(player).__name__
    name = getattr(player, "name", None)
    if isinstance(name, str) and name and name != cls:
        return f"the bot {name[:40]!r} ({cls})"
    return f"the bot {cls}"


def wrong_type(seat: int, rule: str, e: TypeError) -> IllegalAnswer:
    """The refusal of an answer of another type (a Python override's), under ``rule``:
    the question's rule (R-DECK for a card, R-DRAW for discards, R-DECIDE)."""
    return IllegalAnswer(seat, rule, f"answered the wrong type: {e}")


def not_a_card(seat: int, c: object, legal: Sequence[object]) -> IllegalAnswer:
    """The refusal of a card answer that names no card (R-DECK)."""
    return IllegalAnswer(seat, "R-DECK", f"{c!r} is not a card", legal)


def may_not_pass(seat: int, rule: str) -> IllegalAnswer:
    """The refusal of a pass by a seat that must play (``rule``: R-ACE-UP, R-SOLE …)."""
    return IllegalAnswer(seat, rule, "may not pass", ("play",))


def not_an_action(seat: int, a: object) -> IllegalAnswer:
    """The refusal of an answer that is not an :class:`~bourre.game.actions.Action` (R-DECIDE)."""
    return IllegalAnswer(seat, "R-DECIDE", f"answered {a!r}, which is not an action")


class PlayerBase:
    """A base class for bots of the three-question form (:class:`~bourre.game.players.Player`).

    On its own it is the plainest player at the table: it plays every hand, stands
    pat and plays its lowest legal card; a subclass overrides what it does otherwise."""

    asked_when_forced: ClassVar[bool] = True
    """Whether :func:`play_out` asks this bot when it has one legal action (a last
    card, a forced play).  A bot whose answers depend only on the observation, and
    that draws no random number then, may say ``False``: the action is applied
    without an observation made for it (the heuristic and random bots do; a subclass
    of theirs that wants every turn sets it back to ``True``)."""

    needs_view: ClassVar[bool] = True
    """Whether the bot is asked with an observation.  A bot that picks among its
    legal actions without looking at the table (the random bot) says ``False`` and
    answers :meth:`choose` instead: no observation is made for it.  A subclass of such
    a bot that answers with a view (overrides ``act``, ``decide``, ``discard`` or
    ``play``) is asked with one, unless it says ``needs_view = False`` itself."""

    def choose(self, actions: Sequence[Action]) -> Action:
        """For a bot whose ``needs_view`` is false: one of ``actions``, the seat's
        legal actions now (``State.legal_actions``), which is all it is shown.  This
        one answers as the three questions above do."""
        first = actions[0]
        return actions[-1] if first.kind == "pass" else first  # play; stand pat; lowest

    def choose_card(self, cards: tuple[int, ...]) -> int:
        """For a bot whose ``needs_view`` is false, at a card to play with more than
        one legal: one of ``cards``, the legal cards (ascending), answering as
        :meth:`choose` would for their actions.  ``play_out`` and ``ask`` ask this
        instead of :meth:`choose` when the bot's class
        defines it at or below the class that defines its :meth:`choose`: a subclass
        that overrides only :meth:`choose` is asked :meth:`choose`."""
        return self.choose([CARDS[c] for c in cards]).cards[0]

    def choose_discards(self, hand: tuple[int, ...], limit: int) -> Sequence[int]:
        """For a bot whose ``needs_view`` is false, at its exchange: the cards to
        discard (in order; none stands pat), from ``hand`` (ascending), at most
        ``limit`` of them (R-DRAW), answering as :meth:`choose` would among the legal
        discards.  No sequence of the legal discards is made for a bot that answers
        this (the random bot does): ``play_out`` and ``ask`` ask it when the bot's
        class defines it at or below the class that defines its :meth:`choose`; this
        one asks :meth:`choose` with the discards (a
        :class:`~bourre.game.observation.Discards`)."""
        return self.choose(cast("Sequence[Action]", Discards(hand, limit))).cards

    def decide(self, view: Observation) -> bool:
        return True

    def discard(self, view: Observation) -> Sequence[int]:
        return ()

    def play(self, view: Observation) -> int:
        return view.legal[0]  # the legal cards are sorted, lowest first
