"""The standard decisions (``bourre_variants.standard.decisions``): R-DECIDE, R-PASS,
R-ACE-UP, R-LAST-STANDS and R-SOLE's sole participant, on the decision procedure and
through ``bourre.referee.replay`` on hand-made table scripts."""

from __future__ import annotations

import pytest
from conftest import (
    ALL_CARDS,
    dealt_hands,
    decisions,
    hand_2111,
    make_hand,
    make_script,
    run,
    script_deck,
    sole_dealer_hand,
)

from bourre.houses.house import House
from bourre.rules import RuleViolation
from bourre_variants.simultaneous_reveal import Simultaneous
from bourre_variants.standard.decisions import Sequential, fold
from rules.helpers import Recorder, refused, run_decisions, state_for

# ========================================================================= R-DECIDE


def test_R_DECIDE_order_and_the_dealer_last():
    rules = House("standard").rules
    for dealer in range(5):
        rec = Recorder({s: True for s in range(5)})
        st = state_for(ALL_CARDS, dealer, 5)
        run_decisions(Sequential(), st, rec, rules)
        assert [s for s, _ in rec.asked] == [(dealer + k) % 5 for k in range(1, 6)]
        assert st.active == [(dealer + k) % 5 for k in range(1, 6)]
        assert [d.seat for d in st.decisions] == st.active


def test_R_DECIDE_every_player_decides_once():
    hand = hand_2111()
    missing = dict(hand, decisions=hand["decisions"][:4])
    refused(make_script([missing, hand_2111()]), "hand 1", "decisions", "R-DECIDE")
    stopped = run(make_script([dict(missing, plays=[])]))  # the last hand may stop
    assert stopped["hands"][0]["next"]["seat"] == hand["decisions"][4]["seat"]
    extra = dict(hand, decisions=[*hand["decisions"], {"seat": 1, "action": "pass"}])
    refused(make_script([extra]), "hand 1, decision 6", "R-DECIDE")


# =========================================================================== R-PASS


def test_R_PASS_gives_up_the_hand_and_the_ante_only():
    rec = run(make_script([hand_2111()]))
    h = rec["hands"][0]
    assert 0 not in h["active"]
    assert h["hands_after_draw"][0] == []
    assert h["tricks_won"][0] == 0
    assert 0 not in h["bourre"]
    assert h["balances"][0] == 99  # the ante, nothing else
    st = state_for(ALL_CARDS, 0, 5)
    held = list(st.hands[2])
    fold(st, 2)
    assert st.hands[2] == [] and st.folded[2] == held
    assert st.decisions[-1].play is False
    st.places()


def test_R_PASS_cannot_exchange():
    hand = hand_2111()
    dealt = dealt_hands(hand["deck"], 0, 5)
    hand["decisions"][4] = {"seat": 0, "action": "pass", "discard": [dealt[0][0]]}
    refused(make_script([hand]), "hand 1, decision 5", "R-PASS")


# ========================================================================= R-ACE-UP


def test_R_ACE_UP_dealer_must_play():
    deck = script_deck({0: "2C 3C 4C 5C AD"}, 0, 5)
    rules = House("standard").rules
    st = state_for(deck, 0, 5)
    rec = Recorder({1: True, 2: True, 0: True})
    run_decisions(Sequential(), st, rec, rules)
    assert rec.asked[-1] == (0, "R-ACE-UP")
    assert all(f is None for s, f in rec.asked[:-1])
    st = state_for(deck, 0, 5)
    with pytest.raises(RuleViolation) as info:
        run_decisions(Sequential(), st, Recorder({1: True}), rules)
    assert info.value.rule == "R-ACE-UP"
    script = make_script([make_hand(deck, decisions(0, 5, {1: "play", 2: "play"}))])
    refused(script, "hand 1, decision 5", "R-ACE-UP")


def test_R_ACE_UP_in_every_decision_mode():
    deck = script_deck({0: "2C 3C 4C 5C AD"}, 0, 3)
    rules = House("simultaneous-reveal+table(players=3)").rules
    st = state_for(deck, 0, 3)
    rec = Recorder({1: True, 0: True})
    run_decisions(Simultaneous(), st, rec, rules)
    assert (0, "R-ACE-UP") in rec.asked
    st = state_for(deck, 0, 3)
    with pytest.raises(RuleViolation) as info:
        run_decisions(Simultaneous(), st, Recorder({1: True}), rules)
    assert info.value.rule == "R-ACE-UP"
    script = make_script(
        [make_hand(deck, decisions(0, 3, {1: "play"}))], players=3, variants=["simultaneous-reveal"]
    )
    refused(script, "hand 1", "R-ACE-UP")


def test_R_ACE_UP_only_the_ace_of_trumps():
    deck = script_deck({0: "2C 3C 4C 5C KD", 1: "AS AH AC 2D 3D"}, 0, 5)
    rules = House("standard").rules
    st = state_for(deck, 0, 5)
    rec = Recorder({1: True})
    run_decisions(Sequential(), st, rec, rules)
    assert rec.asked[-1] == (0, None)
    assert st.active == [1]


# ==================================================================== R-LAST-STANDS


def test_R_LAST_STANDS_dealer_may_not_pass():
    rules = House("standard").rules
    st = state_for(ALL_CARDS, 2, 5)
    rec = Recorder({2: True})
    run_decisions(Sequential(), st, rec, rules)
    assert rec.asked[-1] == (2, "R-LAST-STANDS")
    assert st.active == [2]
    with pytest.raises(RuleViolation) as info:
        run_decisions(Sequential(), state_for(ALL_CARDS, 2, 5), Recorder({}), rules)
    assert info.value.rule == "R-LAST-STANDS"
    script = make_script([make_hand(ALL_CARDS, decisions(0, 5, {}))])
    refused(script, "hand 1, decision 5", "R-LAST-STANDS")


def test_R_LAST_STANDS_dealer_takes_the_pot():
    rec = run(make_script([sole_dealer_hand(0, 5)]))
    h = rec["hands"][0]
    assert h["active"] == [0] and h["winner"] == 0
    assert h["tricks"] == [] and h["tricks_won"] == [5, 0, 0, 0, 0]
    assert h["pot_after"] == 0 and h["balances"] == [104, 99, 99, 99, 99]


def test_R_LAST_STANDS_not_forced_when_someone_plays():
    rules = House("standard").rules
    st = state_for(ALL_CARDS, 0, 5)
    rec = Recorder({3: True})
    run_decisions(Sequential(), st, rec, rules)
    assert rec.asked[-1] == (0, None) and st.active == [3]


# =========================================================================== R-SOLE


def sole_seat2_script():
    deck = script_deck({}, 0, 5)
    return make_script([make_hand(deck, decisions(0, 5, {2: "play"})), sole_dealer_hand(1, 5)])


def test_R_SOLE_sole_participant_wins_without_play():
    rec = run(sole_seat2_script())
    h = rec["hands"][0]
    assert h["active"] == [2]
    assert h["tricks"] == []
    assert h["tricks_won"] == [0, 0, 5, 0, 0]
    assert h["winner"] == 2 and h["bourre"] == [] and h["reneges"] == []
    assert h["pot_after"] == 0
    assert h["balances"] == [99, 99, 104, 99, 99]
    # nobody is exempt next hand: everyone antes
    assert rec["hands"][1]["pot_at_stake"] == 5


def test_R_SOLE_no_tricks_may_be_played():
    script = sole_seat2_script()
    dealt = dealt_hands(script["hands"][0]["deck"], 0, 5)
    script["hands"][0]["plays"] = [{"seat": 2, "card": dealt[2][0]}]
    refused(script, "hand 1, play 1", "R-SOLE")
