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


def test_the_draw_replaces_the_discards_with_the_top_of_the_stock() -> None:
    from bourre.state import HandState
    from bourre_variants.standard.draw import Draw

    rng = random.Random(11)
    for hand_size in (5, 4, 6):
        for _ in range(100):
            deck = list(range(52))
            rng.shuffle(deck)
            n = 4
            hands = [sorted(deck[s * hand_size : (s + 1) * hand_size]) for s in range(n)]
            stock = deck[n * hand_size :]
            hs = HandState(
                number=1, n=n, hand_size=hand_size, dealer=0, hands=hands,
                upcard=hands[0][0], stock=list(stock), pot=0, balances=[0] * n,
            )  # fmt: skip
            seat = rng.randrange(n)
            before = list(hands[seat])
            discards = tuple(rng.sample(before, rng.randrange(hand_size + 1)))
            Draw(hand_size)(hs, seat, discards)
            k = len(discards)
            kept = [c for c in before if c not in discards]
            assert hs.hands[seat] == sorted(kept + stock[:k])
            assert hs.stock == stock[k:]
            assert hs.pile == list(discards) == hs.discards[seat]
            assert hs.known[seat] == sum(1 << c for c in discards)
