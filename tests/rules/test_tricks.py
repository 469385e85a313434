"""Who takes a trick (``bourre_variants.standard.tricks``): R-TRICK."""

from __future__ import annotations

from conftest import T, hand_2111, make_script, run

from bourre_variants.standard.tricks import trick_winner
from rules.helpers import CLUBS, HEARTS, SPADES

# =========================================================================== R-TRICK


def test_R_TRICK_highest_trump_else_highest_of_the_suit_led():
    assert trick_winner(T("QH KH 2S"), SPADES) == 2
    assert trick_winner(T("QH 2S 3S"), SPADES) == 2
    assert trick_winner(T("QH AD KH"), SPADES) == 2  # off-suit ace does not win
    assert trick_winner(T("3S AS 2H"), SPADES) == 1
    assert trick_winner(T("2C AH AD AS"), CLUBS) == 0
    assert trick_winner(T("2C 3C"), HEARTS) == 1


def test_R_TRICK_through_replay():
    rec = run(make_script([hand_2111()]))
    assert [t["winner"] for t in rec["hands"][0]["tricks"]] == [1, 1, 2, 3, 4]
    from conftest import hand_worked_example

    rec = run(make_script([hand_worked_example()]))
    assert rec["hands"][0]["tricks"][0]["winner"] == 0  # 3S beats JH and 5H
