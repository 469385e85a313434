"""The decks' generator (bourre.game.xoshiro): xoshiro128** word for word as its reference
C code (https://prng.di.unimi.it/xoshiro128starstar.c), streams named by texts."""

from __future__ import annotations

import hashlib

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bourre.game.xoshiro import Xoshiro128, stream

WORD = st.integers(0, 2**32 - 1)


def test_the_words_are_the_reference_codes():
    """Outputs of the reference ``next()`` compiled with gcc -O2, from two states."""
    g = Xoshiro128(1, 2, 3, 4)
    assert [g.next32() for _ in range(8)] == [
        11520,
        0,
        5927040,
        70819200,
        2031721883,
        1637235492,
        1287239034,
        3734860849,
    ]
    g = Xoshiro128(0x9E3779B9, 0xDEADBEEF, 0x12345678, 0xFFFFFFFF)
    for _ in range(1000):
        g.next32()
    assert [g.next32() for _ in range(4)] == [1634835592, 1244369546, 2927946238, 903118948]


def _reference_step(s: list[int]) -> int:
    """The reference's ``next()`` as plain Python on 32-bit words (``& M``)."""
    m = 0xFFFFFFFF
    rotl = lambda x, k: ((x << k) | (x >> (32 - k))) & m  # noqa: E731
    result = rotl(s[1] * 5 & m, 7) * 9 & m
    t = s[1] << 9 & m
    s[2] ^= s[0]
    s[3] ^= s[1]
    s[1] ^= s[2]
    s[0] ^= s[3]
    s[2] ^= t
    s[3] = rotl(s[3], 11)
    return result


@given(words=st.tuples(WORD, WORD, WORD, WORD).filter(any))
def test_every_state_steps_as_the_reference(words):
    g, ref = Xoshiro128(*words), list(words)
    for _ in range(5):
        assert g.next32() == _reference_step(ref)
        assert g.state() == tuple(ref)


@given(words=st.tuples(WORD, WORD, WORD, WORD).filter(any), n=st.integers(1, 2**20))
def test_a_draw_below_n_is_below_n(words, n):
    g = Xoshiro128(*words)
    for _ in range(5):
        assert 0 <= g.below(n) < n


def test_a_stream_is_named_by_the_blake2s_of_its_name():
    w = int.from_bytes(hashlib.blake2s(b"bourre-deck:7", digest_size=16).digest(), "little")
    got = stream("bourre-deck:7").state()
    assert got == (w & 0xFFFFFFFF, w >> 32 & 0xFFFFFFFF, w >> 64 & 0xFFFFFFFF, w >> 96 | 1)
    assert stream("bourre-deck:8").state() != got


@given(st.text(max_size=40))
def test_any_name_gives_the_words_of_its_hash_read_as_one_number(name: str) -> None:
    """``stream`` reads the hash's four words directly: the same stream as
    ``from_bits`` of the hash read as one little-endian number."""
    from bourre.game.xoshiro import from_bits

    w = int.from_bytes(hashlib.blake2s(name.encode(), digest_size=16).digest(), "little")
    assert stream(name).state() == from_bits(w).state()


def test_a_copy_goes_on_alike_and_alone():
    g = stream("copy")
    g.next32()
    c = g.copy()
    assert [c.next32() for _ in range(10)] == [g.next32() for _ in range(10)]
    c.next32()
    assert c.state() != g.state()


@pytest.mark.parametrize(
    "words",
    [(0, 0, 0, 0), (2**32, 0, 0, 1), (-1, 0, 0, 1), (2**70, 0, 0, 1)],
    ids=["zero", "wide", "negative", "huge"],
)
def test_a_state_that_is_not_four_words_is_refused(words):
    with pytest.raises(ValueError, match="four 32-bit words, not all zero"):
        Xoshiro128(*words)


def test_a_shuffle_is_a_permutation_and_follows_the_words():
    g, ref = stream("shuffle"), stream("shuffle")
    cards: list[object] = list(range(30))
    g.shuffle(cards)
    want: list[object] = list(range(30))
    for i in range(29, 0, -1):
        j = ref.below(i + 1)
        want[i], want[j] = want[j], want[i]
    assert cards == want and sorted(cards) == list(range(30))  # type: ignore[type-var]


@given(st.integers(0, 2**128 - 1))
def test_a_stream_from_128_bits_takes_them_lowest_word_first(w: int) -> None:
    """``from_bits``: the four words of ``w``, lowest first, the last made odd (never
    all zero); ``stream`` is it on the name's hash."""
    from bourre.game.xoshiro import from_bits

    s0, s1, s2, s3 = from_bits(w).state()
    assert (s0, s1, s2) == (w & 0xFFFFFFFF, (w >> 32) & 0xFFFFFFFF, (w >> 64) & 0xFFFFFFFF)
    assert s3 == (w >> 96) | 1
