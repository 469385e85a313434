"""The double-ante variant (``bourre_variants.double_ante``): R-DOUBLE-ANTE, with R-LAST-STANDS.

Expected values are worked out from RULES.md (in the docstrings) and, where a script is
refereed, also checked against the independent reference referee (``tests/reference``)."""

from __future__ import annotations

import copy

import pytest
from conftest import decisions, hand_tie, make_hand, make_script, script_deck

from bourre.game.simulate import play_session
from bourre.houses.house import House
from bourre.rules.hookspec import ANTE
from rules.helpers import agree

# =============================================================================== double-ante


def test_double_ante_forced_dealer_adds_second_ante() -> None:
    """R-DOUBLE-ANTE with R-LAST-STANDS: 3 players ante 1 (pot 3); both others pass,
    the dealer is forced in and adds a second ante: P = 4; he takes it (R-SOLE)."""
    deck = script_deck({}, 0, 3)
    script = make_script(
        [make_hand(deck, decisions(0, 3, {0: "play"}))], players=3, variants=["double-ante"]
    )
    rec = agree(script)
    h = rec["hands"][0]
    assert h["pot_at_stake"] == 4 and h["winner"] == 0 and h["active"] == [0]
    assert h["balances"] == [102, 99, 99]


def test_double_ante_no_exemptions_and_p_includes_second_antes() -> None:
    """Hand 1 (hand_tie): everyone antes 1 (5), the four players add 1 each: P = 9.
    A and B tie (P carries), D is bourré and pays 9: next pot 18.  Hand 2: no
    exemptions, all five ante again and the sole dealer adds 1: P = 18 + 5 + 1 = 24.
    Under the standard, A, B and D would skip the ante: P = 10 + 2 = 12."""
    hands = [hand_tie(0), make_hand(script_deck({}, 1, 5), decisions(1, 5, {1: "play"}))]
    rec = agree(make_script(copy.deepcopy(hands), variants=["double-ante"]))
    h1, h2 = rec["hands"]
    assert h1["pot_at_stake"] == 9 and h1["winner"] is None and h1["bourre"] == [4]
    assert h1["balances"] == [99, 98, 98, 98, 89] and h1["pot_after"] == 18
    assert h2["dealer"] == 1 and h2["pot_at_stake"] == 24
    assert h2["balances"] == [98, 97 - 1 + 24, 97, 97, 88]
    std = agree(make_script(copy.deepcopy(hands)))
    assert std["hands"][0]["pot_at_stake"] == 5
    assert std["hands"][1]["pot_at_stake"] == 10 + 2


@pytest.mark.parametrize(
    "spec",
    [
        "double-ante",
        "double-ante+table(players=7,ante=2)",
        'double-ante+table(players=3,ante="1/2")',
    ],
)
def test_double_ante_every_hand_with_bots(spec: str) -> None:
    """R-DOUBLE-ANTE: every hand, every seat antes; P = carried pot + n antes + one
    more ante per active player (the forced dealer included)."""
    house = House(spec)
    n, ante = house.table.players, house.table.ante
    for seed in range(4):
        res = play_session(house, seed=seed)
        pot = 0
        for hand in res.hands:
            assert hand.antes == [ante] * n
            assert hand.pot_at_stake == pot + n * ante + len(hand.state.active) * ante
            pot = hand.outcome.pot_after
        assert sum(res.final) == n * house.table.balance


def test_double_ante_is_only_the_ante_hook() -> None:
    house = House("double-ante")
    assert {h for h, v in house.answered_by.items() if v.name == "double-ante"} == {"bourre_ante"}
    assert house.rules[ANTE].play_ante(3) == 3
    assert House("standard").rules[ANTE].play_ante(3) == 0
