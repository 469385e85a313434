"""The random bot: uniform over the legal answers (the benchmark's players)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import ClassVar

from mypy_extensions import mypyc_attr

from bourre.observation import Observation
from bourre.players import PlayerBase

__all__ = ["RandomPlayer"]


@mypyc_attr(allow_interpreted_subclasses=True)  # compiled (setup.py); subclass freely
class RandomPlayer(PlayerBase):
    """Uniform over the legal answers: pass or play, how many and which cards to
    exchange (every subset within the house's limit equally likely), which card.  It
    draws a number only when it has a choice, so it need not be asked otherwise."""

    asked_when_forced: ClassVar[bool] = False  # it draws a number only for a choice

    def __init__(self, rng: random.Random | int | None = None) -> None:
        self.rng = rng if isinstance(rng, random.Random) else random.Random(rng)
        self._r = self.rng.random

    def decide(self, view: Observation) -> bool:
        return view.forced is not None or self._r() < 0.5

    def discard(self, view: Observation) -> Sequence[int]:
        r = self._r  # every subset of the hand equally likely
        out = [c for c in view.hand if r() < 0.5]
        if len(out) > view.exchange_limit:
            options = view.legal_actions  # a house that caps the exchange
            return options[int(r() * len(options))].cards
        return out

    def play(self, view: Observation) -> int:
        legal = view.legal
        if len(legal) == 1:  # no choice: no number drawn (and not asked by play_out)
            return legal[0]
        return legal[int(self._r() * len(legal))]
