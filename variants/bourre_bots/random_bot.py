"""The random bot: uniform over the legal answers (the benchmark's players)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import ClassVar

from bourre.game.actions import PASS, PLAY, Action, discard
from bourre.game.observation import Discards, Observation
from bourre.game.playerbase import PlayerBase
from bourre.game.xoshiro import Xoshiro128, from_bits

__all__ = ["RandomPlayer"]


class RandomPlayer(PlayerBase):
    """Uniform over the legal answers: pass or play, how many and which cards to
    exchange (every subset within the house's limit equally likely), which card.  It
    draws a number only when it has a choice, so it need not be asked otherwise, and
    it looks at nothing but its legal actions (``needs_view = False``: ``play_out``
    makes it no observation).  Asked the three questions, it answers the same.

    Its numbers come from a :class:`~bourre.game.xoshiro.Xoshiro128` stream: the one it is
    given (``play_session`` gives the one bot it seats at every seat the stream named
    ``bourre-bots:{seed}``), else one whose four words it draws, once, from the
    ``random.Random`` (or the seed) it is made with."""

    asked_when_forced: ClassVar[bool] = False  # it draws a number only for a choice
    needs_view: ClassVar[bool] = False  # it reads only its legal actions
    kernel_bot: ClassVar[str] = "random"
    """The compiled kernel (:mod:`bourre.kernel`) plays this class as its ``random``
    bot, the same draws in the same order (tests/kernel/test_sessions.py); read off the class
    itself, so a subclass is played by the Python rules unless it says so again."""

    def __init__(self, rng: random.Random | Xoshiro128 | int | None = None) -> None:
        if isinstance(rng, Xoshiro128):
            self.gen = rng
        else:
            r = rng if isinstance(rng, random.Random) else random.Random(rng)
            self.gen = from_bits(r.getrandbits(128))

    def coin(self) -> bool:
        """Heads or tails: a word's top bit."""
        return self.gen.next32() >> 31 == 1

    def choose(self, actions: Sequence[Action]) -> Action:
        if isinstance(actions, Discards):  # an exchange: the hand and the limit
            return discard(self._exchange(actions.hand, actions.limit, actions))
        if len(actions) == 1:  # no choice: no number drawn
            return actions[0]
        if actions[0].kind == "pass":  # pass or play
            return PLAY if self.coin() else PASS
        return actions[self.gen.below(len(actions))]

    def choose_card(self, cards: tuple[int, ...]) -> int:
        return cards[0] if len(cards) == 1 else cards[self.gen.below(len(cards))]

    def choose_discards(self, hand: tuple[int, ...], limit: int) -> tuple[int, ...]:
        return self._exchange(hand, limit, None)  # as choose: the same draws

    def decide(self, view: Observation) -> bool:
        return view.forced is not None or self.coin()

    def discard(self, view: Observation) -> Sequence[int]:
        return self._exchange(view.hand, view.exchange_limit, view.legal_actions)

    def play(self, view: Observation) -> int:
        return self.choose_card(view.legal)

    def _exchange(
        self, hand: tuple[int, ...], limit: int, options: Sequence[Action] | None
    ) -> tuple[int, ...]:
        """Every subset of the hand equally likely (a coin for each card, the bits of
        one word per 32 cards); a house that caps the exchange below the hand's size
        draws among its legal discards instead (``options``, or made here)."""
        word = self.gen.next32()
        kept = []
        for k, c in enumerate(hand):
            if k and k % 32 == 0:
                word = self.gen.next32()
            if (word >> (k % 32)) & 1:
                kept.append(c)
        if len(kept) > limit:
            legal = options if options is not None else Discards(hand, limit)
            return legal[self.gen.below(len(legal))].cards
        return tuple(kept)
