"""The optional-undertrump variant (``bourre_variants.optional_undertrump``):
R-OPTIONAL-UNDERTRUMP, and a cinch still obliging the highest trump (R-CINCH-FOLLOW)."""

from __future__ import annotations

import copy

import pytest
from conftest import M, S, T, complete, decisions, make_hand, make_script, plays, script_deck

from bourre.houses.house import House
from bourre.rules.hookspec import CINCH, FOLLOW
from rules.helpers import SPADES, agree

# ====================================================================== optional-undertrump


@pytest.mark.parametrize(
    ("hand", "trick", "standard", "optional"),
    [
        # unable to beat the trump on the trick: under-trump (standard) or anything (optional)
        ("3S 4C", "QH 5S", "3S", "3S 4C"),
        ("2S 3S 4C 5D", "QH 9S", "2S 3S", "2S 3S 4C 5D"),
        # able to beat it: must still beat it
        ("AS 3S 4C", "QH 5S", "AS", "AS"),
        # no trump on the trick: must trump
        ("3S 9S 4C", "QH", "3S 9S", "3S 9S"),
        # holding the led suit: follow (R-FOLLOW unchanged)
        ("KH 2H AS", "QH 5S", "KH 2H", "KH 2H"),
        ("KH 2H AS", "QH", "KH", "KH"),
        # neither led suit nor trumps: any card
        ("4C 5D", "QH 5S", "4C 5D", "4C 5D"),
        # leading is free
        ("4C 5D AS", "", "4C 5D AS", "4C 5D AS"),
    ],
)
def test_optional_undertrump_follow(hand: str, trick: str, standard: str, optional: str) -> None:
    """R-OPTIONAL-UNDERTRUMP (trump S): only the under-trump obligation changes."""
    std = House("standard").rules[FOLLOW]
    opt = House("optional-undertrump").rules[FOLLOW]
    assert S(std.legal(M(hand), T(trick), SPADES)) == set(standard.split())
    assert S(opt.legal(M(hand), T(trick), SPADES)) == set(optional.split())


def test_optional_undertrump_cinch_still_forces_highest_trump() -> None:
    """R-CINCH-FOLLOW: where a variant makes a trump optional, a cinch still obliges
    the highest trump; the last player only has the ordinary obligations."""
    rules = House("optional-undertrump").rules
    hand, trick = M("5S 4S 2C"), T("3H 9S")
    legal = rules[FOLLOW].legal(hand, trick, SPADES)
    assert S(legal) == {"5S", "4S", "2C"}
    assert rules[CINCH].has_cinch(hand, SPADES, frozenset(), 3)
    assert S(rules[CINCH].narrow(legal, hand, trick, SPADES, frozenset(), False)) == {"5S", "4S"}
    assert S(rules[CINCH].narrow(legal, hand, trick, SPADES, frozenset(), True)) == {
        "5S",
        "4S",
        "2C",
    }


def test_optional_undertrump_script() -> None:
    """Dealer 0 (upcard 9S), 3 players.  Seat 1 leads 2H, seat 2 (no hearts) trumps KS;
    the dealer, without hearts and unable to beat KS, discards 2C: legal under
    optional-undertrump, a renege under the standard (he had to play 9S)."""
    deck = script_deck({1: "2H 3H 4H 5H 6H", 2: "KS 2D 3D 4D 5D", 0: "2C 3C 4C 5C 9S"}, 0, 3)
    hand = make_hand(
        deck, decisions(0, 3, {1: "play", 2: "play", 0: "play"}), plays("1:2H 2:KS 0:2C")
    )
    opt = complete(make_script([copy.deepcopy(hand)], players=3, variants=["optional-undertrump"]))
    rec = agree(opt)
    first = rec["hands"][0]["tricks"][0]["plays"][2]
    assert first["card"] == "2C" and first["renege"] is False
    assert set(first["legal"]) == {"2C", "3C", "4C", "5C", "9S"}
    std = copy.deepcopy(opt)
    std["rules"]["variants"]["use"] = ["standard"]
    rec = agree(std)
    first = rec["hands"][0]["tricks"][0]["plays"][2]
    assert first["renege"] is True and set(first["legal"]) == {"9S"}
    assert rec["hands"][0]["reneges"] == [0]
