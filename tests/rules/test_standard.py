"""The standard profile's general rules (``bourre_variants.standard``): R-SEAT, R-SESSION and
the first dealer of R-DEALER, on the pure components and through ``bourre.referee.replay``
on hand-made table scripts.  Expected values are worked out from RULES.md by hand."""

from __future__ import annotations

import pytest
from conftest import (
    ALL_CARDS,
    decisions,
    hand_2111,
    hand_renege,
    make_hand,
    make_script,
    run,
    sole_dealer_hand,
)

from bourre.game.actions import Deck
from bourre.game.simulate import play_session
from bourre.game.state import State
from bourre.game.tablesteps import dealing
from bourre.houses.house import House
from bourre.rules.cards import DECK
from bourre_variants.standard.deal import StandardDeal
from bourre_variants.standard.decisions import Sequential
from bourre_variants.standard.payout import make_next_dealer
from rules.helpers import Recorder, refused, run_decisions, state_for

# =========================================================================== R-SEAT


def test_R_SEAT_left_of_dealer_is_next_seat_for_deal_and_rotation():
    deck = list(range(52))
    hands, _, _ = StandardDeal(5).deal(deck, 4, 5)
    assert 0 in hands[0]  # card 0 goes to the dealer's left: (4 + 1) mod 5 = 0
    assert 1 in hands[1] and 4 in hands[4]
    assert make_next_dealer(5)(4, [False] * 5) == 0
    assert make_next_dealer(8)(3, [False] * 8) == 4


def test_R_SEAT_decisions_clockwise_from_the_dealers_left():
    rec = Recorder({})
    rules = House("standard").rules
    st = state_for(ALL_CARDS, 3, 5)
    rec.answers = {4: True, 0: True}
    run_decisions(Sequential(), st, rec, rules)
    assert [s for s, _ in rec.asked] == [4, 0, 1, 2, 3]
    # counter-clockwise decisions are refused
    hand = hand_2111()
    hand["decisions"] = list(reversed(hand["decisions"]))
    refused(make_script([hand]), "hand 1, decision 1", "R-DECIDE")


def test_R_SEAT_play_goes_clockwise():
    hand = hand_2111()
    p = hand["plays"]
    p[1], p[2] = p[2], p[1]  # seat 3 plays before seat 2
    refused(make_script([hand]), "hand 1, play 2", "R-LEAD")


# ======================================================================== R-SESSION


def test_R_SESSION_defaults(house):
    t = house.table
    assert (t.players, t.balance, t.hands, t.ante, t.first_dealer) == (5, 100, 12, 1, 0)
    assert house.rules.hand_size == 5
    res = play_session(house, seed=11)
    assert len(res.hands) == 12
    assert len(res.final) == 5


def test_R_SESSION_negative_balances_allowed():
    script = make_script([hand_renege()], balances=[0, 0, 0, 0, 0])
    rec = run(script)
    # seat 1 antes 1, is bourré (5) and reneged (5): 0 - 1 - 10
    assert rec["hands"][0]["balances"] == [-1, -11, 4, -1, -1]
    assert rec["final"]["balances"] == [1, -9, 6, 1, 1]  # pot 10 shared: +2 each


def test_R_SESSION_no_more_hands_than_the_session():
    hands = [sole_dealer_hand(k % 5, 5) for k in range(13)]
    refused(make_script(hands), "hands", "13", "R-SESSION")
    rec = run(make_script(hands[:12]))
    assert [h["dealer"] for h in rec["hands"]] == [k % 5 for k in range(12)]
    short = make_script(hands[:3], table={"hands": 2})
    refused(short, "R-SESSION")


# ========================================================================= R-DEALER


def test_R_DEALER_first_dealer_is_seat_0_by_default():
    rec = run(make_script([sole_dealer_hand(0, 5)]))
    assert rec["hands"][0]["dealer"] == 0
    state = State(House("standard"))
    assert dealing(state) == (0, ())
    state.apply_chance(Deck(tuple(DECK)))
    assert state.hand.dealer == 0


def test_R_DEALER_first_dealer_setting():
    rec = run(make_script([sole_dealer_hand(3, 5)], table={"first_dealer": 3}))
    assert rec["hands"][0]["dealer"] == 3


def test_R_DEALER_random_first_dealer_needs_a_dealer_in_the_script():
    refused(
        make_script([sole_dealer_hand(0, 5)], table={"first_dealer": "random"}),
        "hand 1",
        "dealer",
        "R-DEALER",
    )
    rec = run(
        make_script(
            [make_hand(ALL_CARDS, decisions(2, 5, {2: "play"}), dealer=2)],
            table={"first_dealer": "random"},
        )
    )
    assert rec["hands"][0]["dealer"] == 2
    firsts = {
        play_session(House("standard+table(first_dealer=random,hands=1)"), seed=s).hands[0].dealer
        for s in range(30)
    }
    assert firsts <= set(range(5)) and len(firsts) > 1


# ============================================================================= table sizes


@pytest.mark.parametrize("n", range(2, 9))
def test_table_sizes_sessions(n: int) -> None:
    """2 to 8 players: the first pot is n (R-FIRST-POT), money is conserved, every card
    is in one place at the end of each hand."""
    house = House(f"standard+table(players={n})")
    for seed in range(3):
        res = play_session(house, seed=seed)
        assert res.hands[0].pot_at_stake == n + 0 * seed
        for hand in res.hands:
            hand.state.places()
            assert sum(hand.state.won) == 5
        assert sum(res.final) == 100 * n
