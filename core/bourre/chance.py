"""The seeded source of chance outcomes (:class:`Chance`): the deck of each hand,
reshuffles, a random first dealer."""

from __future__ import annotations

import random
from typing import Final, cast

from mypy_extensions import i64, mypyc_attr

from bourre.cards import DECK

_CARDS: Final = DECK  # a constant: compiled, no lookup in the globals

__all__ = ["Chance"]


@mypyc_attr(allow_interpreted_subclasses=True)  # compiled (setup.py); subclass freely
class Chance:
    """The seeded source of chance outcomes: the deck of each hand (shuffled and cut),
    reshuffles, a random first dealer.  Independent of the players' own randomness,
    so every house given one seed sees the same decks (common random numbers)."""

    def __init__(self, seed: int | str) -> None:
        self.seed = seed
        self._rng = random.Random(f"bourre-deck:{seed}")
        self._reshuffle_rng: random.Random | None = None  # made when first needed

    def deck(self) -> list[int]:
        """A shuffled and cut deck, top first: Fisher–Yates, each draw the top bits
        of ``30-bit word × (i + 1)`` (a bias below 1 in 20 million).  The 51 words
        are one ``getrandbits`` call read four bytes at a time: the same words, in
        the same order, as 51 calls of ``getrandbits(30)`` (one step of the Mersenne
        Twister each), without 51 method calls (compiled, the bytes are read
        natively; a pure build pays a few microseconds for it)."""
        cards: list[object] = list(_CARDS)  # moved as they are: no unboxing when compiled
        data = self._rng.getrandbits(1632).to_bytes(204, "little")
        k: i64 = 0  # machine integers when compiled (plain ints otherwise): no overflow
        i: i64 = 51  # checks, and the words stay below 2**38
        while i > 0:
            b0: i64 = data[k]
            b1: i64 = data[k + 1]
            b2: i64 = data[k + 2]
            b3: i64 = data[k + 3]
            j = (((b0 | b1 << 8 | b2 << 16 | b3 << 24) >> 2) * (i + 1)) >> 30
            cards[i], cards[j] = cards[j], cards[i]
            k += 4
            i -= 1
        return cast("list[int]", cards)

    def reshuffle(self, pile: list[int]) -> list[int]:
        """A new stock from discards (R-RESHUFFLE)."""
        if self._reshuffle_rng is None:  # its own stream: decks never depend on play
            self._reshuffle_rng = random.Random(f"bourre-reshuffle:{self.seed}")
        new = list(pile)
        self._reshuffle_rng.shuffle(new)
        return new

    def seat(self, n: int) -> int:
        return self._rng.randrange(n)

    def copy(self) -> Chance:
        c = Chance.__new__(Chance)
        c.seed = self.seed
        c._rng = random.Random()
        c._rng.setstate(self._rng.getstate())
        if self._reshuffle_rng is None:
            c._reshuffle_rng = None
        else:
            c._reshuffle_rng = random.Random()
            c._reshuffle_rng.setstate(self._reshuffle_rng.getstate())
        return c
