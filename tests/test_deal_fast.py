"""The fast paths of the standard deal and draw give what the plain definitions give."""

from __future__ import annotations

import itertools
import random

from bourre_variants.standard.deal import _sorted5, make_deal


def _reference(deck: list[int], hand_size: int, dealer: int, n: int) -> object:
    m = hand_size * n
    hands = [sorted(deck[(s - dealer - 1) % n : m : n]) for s in range(n)]
    return hands, deck[m - 1], deck[m:]


def test_five_cards_are_sorted_whatever_their_order() -> None:
    for values in itertools.product(range(5), repeat=5):
        assert _sorted5(*values) == sorted(values)


def test_the_deal_is_card_i_to_seat_dealer_plus_1_plus_i() -> None:
    rng = random.Random(7)
    for hand_size, n in ((5, 5), (5, 8), (4, 6), (5, 2)):
        for _ in range(50):
            deck = list(range(52))
            rng.shuffle(deck)
            dealer = rng.randrange(n)
            assert make_deal(hand_size)(tuple(deck), dealer, n) == _reference(
                deck, hand_size, dealer, n
            )
