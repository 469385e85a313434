"""The random bot: uniform over the legal answers (the benchmark's players)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import ClassVar, Final, cast

from mypy_extensions import i64, mypyc_attr

from bourre.actions import PASS, PASS_OR_PLAY, PLAY, Action
from bourre.observation import Discards, Observation
from bourre.playerbase import PlayerBase
from bourre.xoshiro import Xoshiro128, from_bits

__all__ = ["RandomPlayer"]

_PASS_A: Final = PASS  # read as constants by compiled code, not from the globals
_PLAY_A: Final = PLAY
_PASS_PLAY: Final = PASS_OR_PLAY
_new: Final = tuple.__new__  # builds a NamedTuple without its Python-level __new__
_ACTION: Final = Action  # the class as a constant: compiled, no lookup in the globals


@mypyc_attr(allow_interpreted_subclasses=True)  # compiled (setup.py); subclass freely
class RandomPlayer(PlayerBase):
    """Uniform over the legal answers: pass or play, how many and which cards to
    exchange (every subset within the house's limit equally likely), which card.  It
    draws a number only when it has a choice, so it need not be asked otherwise, and
    it looks at nothing but its legal actions (``needs_view = False``: ``play_out``
    makes it no observation).  Asked the three questions, it answers the same.

    Its numbers come from a :class:`~bourre.xoshiro.Xoshiro128` stream: the one it is
    given (``play_session`` gives the one bot it seats at every seat the stream named
    ``bourre-bots:{seed}``), else one whose four words it draws, once, from the
    ``random.Random`` (or the seed) it is made with.  A draw is a native step, not a
    method call of the Mersenne Twister."""

    asked_when_forced: ClassVar[bool] = False  # it draws a number only for a choice
    needs_view: ClassVar[bool] = False  # it reads only its legal actions
    kernel_bot: ClassVar[str] = "random"
    """The compiled kernel (:mod:`bourre.kernel`) plays this class as its ``random``
    bot, the same draws in the same order (tests/test_kernel.py); read off the class
    itself, so a subclass is played by the Python rules unless it says so again."""

    def __init__(self, rng: random.Random | Xoshiro128 | int | None = None) -> None:
        if isinstance(rng, Xoshiro128):
            self.gen = rng
        else:
            r = rng if isinstance(rng, random.Random) else random.Random(rng)
            self.gen = from_bits(r.getrandbits(128))

    def choose(self, actions: Sequence[Action]) -> Action:
        got: object = actions  # narrowed below to the class itself: its fields read natively
        if isinstance(got, Discards):  # an exchange: the hand and the limit
            return _new(_ACTION, ("discard", self._exchange(got.hand, got.limit, actions)))
        if got is _PASS_PLAY:  # the engine's shared decision (State.choices): a coin,
            return _PLAY_A if self.gen.next32() >> 31 else _PASS_A  # a word's top bit
        # else a list of the engine's, indexed natively (another sequence is copied)
        listed: list[Action] = got if isinstance(got, list) else list(actions)
        n = len(listed)
        if n == 1:  # no choice: no number drawn
            return listed[0]
        if listed[0].kind == "pass":  # pass or play: a word's top bit
            return _PLAY_A if self.gen.next32() >> 31 else _PASS_A
        return listed[self.gen.below(n)]

    def choose_card(self, cards: tuple[int, ...]) -> int:
        n = len(cards)
        return cards[0] if n == 1 else cards[self.gen.below(n)]  # as choose: the same draw

    def choose_card_mask(self, legal: int) -> int:
        # as choose_card: the same draw, the k-th card counted up the mask (machine
        # integers, compiled: no tuple of cards made)
        m: i64 = legal
        n: i64 = 0
        while m:
            m &= m - 1
            n += 1
        m = legal
        if n > 1:
            k = self.gen.below(n)
            while k:
                m &= m - 1
                k -= 1
        return int(m & -m).bit_length() - 1

    def choose_discards(self, hand: tuple[int, ...], limit: int) -> tuple[int, ...]:
        return self._exchange(hand, limit, None)  # as choose: the same draws

    def decide(self, view: Observation) -> bool:
        return view.forced is not None or self.gen.next32() >> 31 == 1

    def discard(self, view: Observation) -> Sequence[int]:
        return self._exchange(view.hand, view.exchange_limit, view.legal_actions)

    def play(self, view: Observation) -> int:
        legal = view.legal
        if len(legal) == 1:  # no choice: no number drawn (and not asked by play_out)
            return legal[0]
        return legal[self.gen.below(len(legal))]

    def _exchange(
        self, hand: tuple[int, ...], limit: int, options: Sequence[Action] | None
    ) -> tuple[int, ...]:
        """Every subset of the hand equally likely; a house that caps the exchange
        below the hand's size draws among its legal discards instead (``options``, or
        made here: every subset within the limit, smallest first)."""
        gen = self.gen
        w = gen.next32()  # a coin for each card: a bit of one word (a word per 32 cards)
        kept = []
        k = 0
        for c in hand:
            if k == 32:
                w, k = gen.next32(), 0
            if (w >> k) & 1:
                kept.append(c)
            k += 1
        out = tuple(kept)
        if len(out) > limit:
            legal = (
                options if options is not None else cast("Sequence[Action]", Discards(hand, limit))
            )
            return legal[gen.below(len(legal))].cards
        return out
