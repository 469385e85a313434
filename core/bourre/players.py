"""Players: bots and people answer what the engine asks, seeing only a
:class:`~bourre.state.PlayerView`.

A :class:`Player` answers three questions: play or pass, which cards to discard, which
card to play.  :class:`BotAgents` seats players at a hand and refuses any answer the
rules forbid, naming the rule and the legal answers.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from mypy_extensions import mypyc_attr

from bourre.cards import card_str, cards_str
from bourre.rules import Player, RuleViolation
from bourre.state import HandState, PlayerView

__all__ = ["BotAgents", "IllegalAnswer", "Player", "RandomPlayer"]


class IllegalAnswer(RuleViolation):
    """A player's answer the rules forbid; ``seat`` says whose."""

    def __init__(self, seat: int, rule: str, message: str, legal: Sequence[object] = ()) -> None:
        super().__init__(rule, f"seat {seat}: {message}", legal)
        self.seat = seat


@mypyc_attr(allow_interpreted_subclasses=True)  # compiled (setup.py); subclass freely
class RandomPlayer:
    """Uniform over the legal answers: pass or play, how many and which cards to
    exchange, which legal card."""

    def __init__(self, rng: random.Random | int | None = None) -> None:
        self.rng = rng if isinstance(rng, random.Random) else random.Random(rng)
        self._r = self.rng.random

    def decide(self, view: PlayerView) -> bool:
        return view.forced is not None or self._r() < 0.5

    def discard(self, view: PlayerView) -> Sequence[int]:
        r = self._r  # every subset of the hand equally likely
        return [c for c in view.hand if r() < 0.5]

    def play(self, view: PlayerView) -> int:
        legal = view.legal
        return legal[int(self._r() * len(legal))]


@mypyc_attr(allow_interpreted_subclasses=True)  # compiled (setup.py); subclass freely
class BotAgents:
    """Seats :class:`Player` objects at a hand (the :class:`~bourre.rules.Agents` of
    the engine); each player sees only its own view."""

    def __init__(self, players: Sequence[Player]) -> None:
        self.players = list(players)
        self.views: list[PlayerView] = []
        self._play = [p.play for p in self.players]

    def begin(self, state: HandState) -> None:
        views = self.views
        if views:
            for v in views:
                v._rebind(state)
            return
        if len(self.players) != state.n:
            raise ValueError(f"{len(self.players)} players for a table of {state.n}")
        self.views = [PlayerView(state, s) for s in range(state.n)]

    def decide(self, state: HandState, seat: int, forced: str | None) -> bool:
        view = self.views[seat]
        if forced is None:
            return bool(self.players[seat].decide(view))
        view.forced = forced
        answer = self.players[seat].decide(view)
        view.forced = None
        if not answer:
            raise IllegalAnswer(seat, forced, "may not pass", ("play",))
        return True

    def discard(self, state: HandState, seat: int) -> Sequence[int]:
        return tuple(self.players[seat].discard(self.views[seat]))

    def play(self, state: HandState, seat: int, legal: list[int], cinch: bool) -> tuple[int, None]:
        view = self.views[seat]
        view.legal = allowed = tuple(legal)  # a copy: the bot cannot change the engine's set
        view.cinch = cinch
        card = self._play[seat](view)
        if card in allowed:
            return card, None
        raise IllegalAnswer(
            seat,
            explain_rule(state.hands[seat], state.trick, state.trump, legal, cinch),
            f"{card_str(card) if isinstance(card, int) and 0 <= card < 52 else card!r}"
            f" is not allowed; legal: {' '.join(cards_str(legal))}",
            legal,
        )


def explain_rule(
    hand: Sequence[int], trick: Sequence[int], trump: int, legal: Sequence[int], cinch: bool
) -> str:
    """The id of the rule that narrows ``legal`` for a player holding ``hand`` when
    ``trick`` has been played (for refusals)."""
    if cinch and len(legal) < len(hand) and all(c // 13 == trump for c in legal):
        return "R-CINCH-LEAD" if not trick else "R-CINCH-FOLLOW"
    if not trick:
        return "R-LEAD"
    lead = trick[0] // 13
    if any(c // 13 == lead for c in hand):
        return "R-FOLLOW"
    return "R-TRUMP"


def explain(rule: str) -> str:
    """The reason of a refusal in words."""
    return {
        "R-FOLLOW": "you hold the led suit: play it, and beat the winning card when you can",
        "R-TRUMP": "without the led suit you must trump, beating the highest trump when you can",
        "R-CINCH-LEAD": "with a cinch you must lead your highest trump",
        "R-CINCH-FOLLOW": "with a cinch you must play your highest allowed trump",
        "R-LEAD": "leading is free",
        "R-ACE-UP": "the upcard is the ace of trumps: the dealer must play",
        "R-LAST-STANDS": "everyone before you passed: the dealer must play",
    }.get(rule, rule)


BotFactory = Callable[..., Player]
"""``factory(rng, **options)`` → a player (see the ``bourre_register_bots`` hook)."""


def make_bot(name: str, rng: random.Random, **options: Any) -> Player:
    """A bot from the installed plugins by name (``random``, …)."""
    from bourre.plugins import default_registry

    reg = default_registry()
    if name not in reg.bots:
        raise ValueError(f"unknown bot {name!r}; installed: {', '.join(sorted(reg.bots))}")
    factory, _ = reg.bots[name]
    player: Player = factory(rng, **options)
    return player
