"""The generator of the decks: xoshiro128** (Blackman and Vigna, "Scrambled linear
pseudorandom number generators", 2018; reference code at
https://prng.di.unimi.it/xoshiro128starstar.c), seeded from a BLAKE2s hash of a text.

Four 32-bit words of state, one 32-bit word a step, period 2**128 - 1; it passes
the BigCrush battery, and every implementation (the compiled kernel included)
computes the same words from the same name.  Python's Mersenne Twister, by
comparison, costs about 27,000 instructions to seed and a method call per draw:
:mod:`bourre.game.chance` seeds two streams a session and draws 51 words a deal.  The
players' generators stay :class:`random.Random` (the bots' API).
"""

from __future__ import annotations

import hashlib
import struct
from typing import final

__all__ = ["Xoshiro128", "from_bits", "stream"]

_M32 = 0xFFFFFFFF
_WORDS = struct.Struct("<4I").unpack
"""Four 32-bit words from 16 bytes, lowest first: :func:`from_bits` of the bytes read
as one little-endian number, without the 128-bit number."""
_BLAKE2S = hashlib.blake2s(digest_size=16)
"""An empty BLAKE2s of 16 bytes, copied for each name (never updated itself): cheaper
than making one with its parameters."""


@final
class Xoshiro128:
    """A xoshiro128** stream from its four 32-bit words of state (not all zero);
    :func:`stream` names one by a text."""

    def __init__(self, s0: int, s1: int, s2: int, s3: int) -> None:
        every = s0 | s1 | s2 | s3  # plain ints: a word of any size is refused alike
        if not every or every >> 32:  # (a negative word shifts to -1)
            words = (s0, s1, s2, s3)
            raise ValueError(f"xoshiro128** needs four 32-bit words, not all zero: {words}")
        self.s0 = s0
        self.s1 = s1
        self.s2 = s2
        self.s3 = s3

    def next32(self) -> int:
        """The next 32-bit word (the reference's ``next()``)."""
        s0 = self.s0
        s1 = self.s1
        s2 = self.s2 ^ s0
        s3 = self.s3 ^ s1
        x = (s1 * 5) & _M32
        x = (((x << 7) & _M32) | (x >> 25)) * 9 & _M32
        self.s0 = s0 ^ s3
        self.s1 = s1 ^ s2
        self.s2 = s2 ^ ((s1 << 9) & _M32)
        self.s3 = ((s3 << 11) & _M32) | (s3 >> 21)
        return x

    def below(self, n: int) -> int:
        """A draw in ``0 … n - 1`` (``0 < n <= 2**20``): the top bits of ``word × n``,
        a bias below ``n / 2**32`` (Lemire's multiply-shift, without rejection)."""
        return (self.next32() * n) >> 32

    def state(self) -> tuple[int, int, int, int]:
        """The four words of the state (for tests and copies)."""
        return (self.s0, self.s1, self.s2, self.s3)

    def copy(self) -> Xoshiro128:
        """An independent stream at the same point."""
        return Xoshiro128(self.s0, self.s1, self.s2, self.s3)

    def shuffle(self, cards: list[object]) -> None:
        """Fisher–Yates in place, from the last position down: position ``i`` takes
        the card at ``below(i + 1)``.  The steps of :meth:`next32` are written out
        on local words (a method call and eight attribute writes a card saved;
        tests check it against ``below``)."""
        s0, s1, s2, s3 = self.s0, self.s1, self.s2, self.s3
        i = len(cards) - 1
        while i > 0:
            x = (s1 * 5) & _M32
            x = (((x << 7) & _M32) | (x >> 25)) * 9 & _M32
            t = (s1 << 9) & _M32
            s2 ^= s0
            s3 ^= s1
            s1 ^= s2
            s0 ^= s3
            s2 ^= t
            s3 = ((s3 << 11) & _M32) | (s3 >> 21)
            j = (x * (i + 1)) >> 32
            cards[i], cards[j] = cards[j], cards[i]
            i -= 1
        self.s0, self.s1, self.s2, self.s3 = s0, s1, s2, s3


def from_bits(w: int) -> Xoshiro128:
    """The stream whose state is the 128 bits of ``w`` (``0 <= w < 2**128``), lowest
    word first, the last word made odd (so never all zero)."""
    return Xoshiro128(w & _M32, (w >> 32) & _M32, (w >> 64) & _M32, (w >> 96) | 1)


def stream(name: str) -> Xoshiro128:
    """The stream named by ``name``: its state is the first 128 bits of the name's
    BLAKE2s hash read as one little-endian number (:func:`from_bits`); the same name
    gives the same words on every machine and build."""
    h = _BLAKE2S.copy()
    h.update(name.encode())
    s0, s1, s2, s3 = _WORDS(h.digest())
    return Xoshiro128(s0, s1, s2, s3 | 1)
