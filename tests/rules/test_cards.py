"""The cards (``bourre.rules.cards``): R-DECK, parsed and printed, ranked, refused."""

from __future__ import annotations

import pytest
from conftest import T, hand_2111, make_script, run
from hypothesis import given
from hypothesis import strategies as st

from bourre.rules.cards import (
    DECK,
    CardError,
    card_str,
    card_symbol,
    cards_of,
    mask_of,
    parse_card,
    suit_mask,
)
from bourre_variants.standard.tricks import trick_winner
from rules.helpers import CLUBS, refused

# =========================================================================== R-DECK


def test_R_DECK_parse_and_print():
    assert parse_card("AS") == 12
    assert parse_card("2S") == 0
    assert parse_card("TH") == parse_card("10H") == 13 + 8
    assert parse_card("2C") == 39
    assert parse_card("ac") == 51
    assert card_str(parse_card("10H")) == "TH"
    assert card_str(parse_card("10D")) == "TD"
    assert card_symbol(parse_card("JH")) == "J♥"
    assert card_symbol(parse_card("TH")) == "10♥"
    assert len(DECK) == 52 and len(set(DECK)) == 52
    assert sorted(card_str(c) for c in DECK) == sorted(
        r + s for s in "SHDC" for r in "AKQJT98765432"
    )


def test_R_DECK_rank_order_high_to_low():
    for suit in "SHDC":
        ints = [
            parse_card(r + suit)
            for r in ["A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2"]
        ]
        assert ints == sorted(ints, reverse=True)
        assert len({c // 13 for c in ints}) == 1
    # the trick order follows: the ace beats the king, ten beats nine
    assert trick_winner(T("KH AH"), CLUBS) == 1
    assert trick_winner(T("TH 9H"), CLUBS) == 0


@pytest.mark.parametrize(
    "bad", ["1X", "11H", "1H", "AX", "", "ASS", "T", "0H", "10", "XS", "♥J", "J♥♥", "Jſ"]
)
def test_R_DECK_parse_errors(bad):
    with pytest.raises(CardError) as info:
        parse_card(bad)
    assert "R-DECK" in str(info.value)
    assert isinstance(info.value, ValueError)


def test_R_DECK_no_jokers_and_wrong_types():
    for bad in (None, 5, "JK", "JOKER"):
        with pytest.raises(CardError):
            parse_card(bad)  # type: ignore[arg-type]


def test_R_DECK_through_replay_accepts_10_and_prints_T():
    hand = hand_2111()
    deck = hand["deck"]
    tens = [i for i, c in enumerate(deck) if c[0] == "T"]
    assert tens
    for i in tens:
        deck[i] = "10" + deck[i][1]
    for p in hand["plays"]:
        if p["card"] == "TH":
            p["card"] = "10H"
    rec = run(make_script([hand]))
    assert "TH" in rec["hands"][0]["hands_after_draw"][4]
    assert rec["hands"][0]["tricks"][0]["plays"][3]["card"] == "TH"
    assert rec["hands"][0]["tricks_won"] == [0, 2, 1, 1, 1]


def test_R_DECK_through_replay_refuses_bad_decks():
    hand = hand_2111()
    bad = make_script([dict(hand, deck=["1X", *hand["deck"][1:]])])
    refused(bad, "hand 1, card 1 of the deck", "R-DECK")
    dup = make_script([dict(hand, deck=[hand["deck"][1], *hand["deck"][1:]])])
    msg = refused(dup, "hand 1, card 2 of the deck", "R-DECK")
    assert card_symbol(parse_card(hand["deck"][1])) in msg  # names the repeated card
    short = make_script([dict(hand, deck=hand["deck"][:51])])
    refused(short, "hand 1", "deck", "51", "R-DECK")
    long = make_script([dict(hand, deck=[*hand["deck"], "AS"])])
    refused(long, "hand 1", "deck", "R-DECK")


# -------------------------------------------------------------------------- masks


@given(st.sets(st.integers(0, 51)))
def test_a_mask_and_its_cards_convert_both_ways(cards: set[int]) -> None:
    m = mask_of(cards)
    assert cards_of(m) == sorted(cards)
    for s in range(4):
        assert cards_of(m & suit_mask(s)) == [x for x in sorted(cards) if x // 13 == s]
