"""The standard deal (``bourre_variants.standard.deal``): R-DEAL, card by card."""

from __future__ import annotations

import random

import pytest
from conftest import (
    ALL_CARDS,
    complete,
    dealt_hands,
    decisions,
    make_hand,
    make_script,
    run,
    script_deck,
)

from bourre.houses.house import House
from bourre.rules.cards import parse_card
from bourre_variants.standard.deal import StandardDeal
from rules.helpers import state_for

# =========================================================================== R-DEAL


@pytest.mark.parametrize("n", range(2, 9))
def test_R_DEAL_card_i_goes_to_dealer_plus_1_plus_i(n):
    deck = list(range(51, -1, -1))
    for dealer in range(n):
        hands, up, stock = StandardDeal(5).deal(deck, dealer, n)
        for i in range(5 * n):
            assert deck[i] in hands[(dealer + 1 + i) % n]
        assert all(len(h) == 5 for h in hands)
        assert up == deck[5 * n - 1] and up in hands[dealer]
        assert stock == deck[5 * n :]
        assert len(stock) == 52 - 5 * n


def test_R_DEAL_27_cards_left_and_upcard_names_trump():
    deck = [parse_card(c) for c in ALL_CARDS]
    hands, up, stock = StandardDeal(5).deal(deck, 0, 5)
    assert len(stock) == 27 and sum(len(h) for h in hands) == 25
    assert up == deck[24] and up in hands[0]
    st = state_for(ALL_CARDS, 0, 5)
    assert st.trump == st.upcard // 13 == deck[24] // 13
    st.places()


def test_R_DEAL_four_card_upcard_is_card_4n_minus_1():
    deck = list(range(52))
    hands, up, stock = StandardDeal(4).deal(deck, 1, 6)
    assert up == deck[23] and up in hands[1] and len(stock) == 28
    assert House("four-card").rules.hand_size == 4


def test_R_DEAL_through_replay():
    deck = script_deck({0: "2C 3C 4C 5C 7D"}, 0, 5)
    script = make_script([make_hand(deck, decisions(0, 5, {1: "play", 2: "play", 0: "play"}))])
    script = complete(script)
    rec = run(script)
    h = rec["hands"][0]
    assert h["upcard"] == "7D" and h["trump"] == "D"
    dealt = dealt_hands(deck, 0, 5)
    for s in (0, 1, 2):
        assert set(h["hands_after_draw"][s]) == set(dealt[s])
    assert "7D" in h["hands_after_draw"][0]
    assert h["hands_after_draw"][3] == [] and h["hands_after_draw"][4] == []


def _reference(deck: list[int], hand_size: int, dealer: int, n: int) -> object:
    m = hand_size * n
    hands = [sorted(deck[(s - dealer - 1) % n : m : n]) for s in range(n)]
    return hands, deck[m - 1], deck[m:]


def test_the_deal_is_card_i_to_seat_dealer_plus_1_plus_i() -> None:
    rng = random.Random(7)
    for hand_size, n in ((5, 5), (5, 8), (4, 6), (5, 2)):
        for _ in range(50):
            deck = list(range(52))
            rng.shuffle(deck)
            dealer = rng.randrange(n)
            assert StandardDeal(hand_size).deal(tuple(deck), dealer, n) == _reference(
                deck, hand_size, dealer, n
            )
