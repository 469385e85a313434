"""The random bot: uniform over the legal answers (the benchmark's players)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import ClassVar, Final

from mypy_extensions import mypyc_attr

from bourre.actions import PASS, PLAY, Action
from bourre.observation import Discards, Observation
from bourre.players import PlayerBase

__all__ = ["RandomPlayer"]

_PASS_A: Final = PASS  # read as constants by compiled code, not from the globals
_PLAY_A: Final = PLAY
_new: Final = tuple.__new__  # builds a NamedTuple without its Python-level __new__
_ACTION: Final = Action  # the class as a constant: compiled, no lookup in the globals


@mypyc_attr(allow_interpreted_subclasses=True)  # compiled (setup.py); subclass freely
class RandomPlayer(PlayerBase):
    """Uniform over the legal answers: pass or play, how many and which cards to
    exchange (every subset within the house's limit equally likely), which card.  It
    draws a number only when it has a choice, so it need not be asked otherwise, and
    it looks at nothing but its legal actions (``needs_view = False``: ``play_out``
    makes it no observation).  Asked the three questions, it answers the same."""

    asked_when_forced: ClassVar[bool] = False  # it draws a number only for a choice
    needs_view: ClassVar[bool] = False  # it reads only its legal actions

    def __init__(self, rng: random.Random | int | None = None) -> None:
        self.rng = rng if isinstance(rng, random.Random) else random.Random(rng)
        self._r = self.rng.random

    def choose(self, actions: Sequence[Action]) -> Action:
        got: object = actions  # narrowed below to the class itself: its fields read natively
        if isinstance(got, Discards):  # an exchange: the hand and the limit
            return self._exchange(got.hand, got.limit, actions)
        # the engine's legal actions are a list, indexed natively (any other sequence is
        # copied into one)
        listed: list[Action] = got if isinstance(got, list) else list(actions)
        n = len(listed)
        if n == 1:  # no choice: no number drawn
            return listed[0]
        if listed[0].kind == "pass":  # pass or play
            return _PLAY_A if self._r() < 0.5 else _PASS_A
        return listed[int(self._r() * n)]

    def decide(self, view: Observation) -> bool:
        return view.forced is not None or self._r() < 0.5

    def discard(self, view: Observation) -> Sequence[int]:
        return self._exchange(view.hand, view.exchange_limit, view.legal_actions).cards

    def play(self, view: Observation) -> int:
        legal = view.legal
        if len(legal) == 1:  # no choice: no number drawn (and not asked by play_out)
            return legal[0]
        return legal[int(self._r() * len(legal))]

    def _exchange(self, hand: tuple[int, ...], limit: int, options: Sequence[Action]) -> Action:
        """Every subset of the hand equally likely; a house that caps the exchange
        below the hand's size draws among its legal discards instead."""
        r = self._r
        out = tuple([c for c in hand if r() < 0.5])
        if len(out) > limit:
            return options[int(r() * len(options))]
        return _new(_ACTION, ("discard", out))
