"""The standard payout (``bourre_variants.standard.payout``): R-FIRST-POT, R-DEALER's
rotation, R-PREMATURE, R-SOLE's payout, R-WIN, R-BOURRE, R-ANTE, R-SETTLE, R-RENEGE and
R-CORRECTED, one test (or a few) per rule id.

Each rule is tested on the pure component and through ``bourre.referee.replay`` on
hand-made table scripts.  Expected values are worked out from RULES.md by hand.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from conftest import (
    ALL_CARDS,
    complete,
    hand_2111,
    hand_forfeit,
    hand_renege,
    hand_tie,
    hand_two_bourre,
    legal_of,
    make_script,
    normalize,
    play_at,
    reference,
    run,
    sole_dealer_hand,
)
from hypothesis import given
from hypothesis import strategies as st

from bourre.game.actions import CARDS, PASS, PLAY, Deck, discard
from bourre.game.state import HandResult, State
from bourre.game.tablesteps import dealing, mark_premature, set_hand
from bourre.houses.house import House
from bourre.rules import HandOutcome, PlayResult
from bourre.rules.cards import parse_card
from bourre_variants.standard.payout import (
    StandardAnte,
    full_pot,
    make_next_dealer,
    payout,
    ranks_of,
    settle,
)
from rules.helpers import Recorder, refused


def play_hand(
    state: State, deck, agents: Recorder, *, dealer=None, pot=None, premature=()
) -> HandResult:
    """Play the next hand of an unseeded ``state`` from ``deck`` (card texts or ints)
    with ``agents`` answering; ``premature`` lists seats that announced out of turn."""
    if dealer is not None or pot is not None:
        set_hand(state, dealer=dealer, pot=pot)
    done = len(state.results) + 1
    state.apply_chance(Deck(tuple(parse_card(c) if isinstance(c, str) else c for c in deck)))
    for seat in premature:
        mark_premature(state, seat)
    while len(state.results) < done:
        seat, hs = state.current_player(), state.hand
        if state.phase_name == "decide":
            forced = state.observation(seat).forced
            state.apply_action(PLAY if agents.decide(hs, seat, forced) else PASS)
        elif state.phase_name == "exchange":
            state.apply_action(discard(agents.discard(hs, seat)))
        else:
            state.apply_action(
                CARDS[agents.play(hs, seat, state.legal_cards(), state.legal_with_reasons().cinch)]
            )
    return state.results[-1]


def result(n, P, active, won, forfeits=(), reneges=(), sole=False) -> PlayResult:
    return PlayResult(n, P, list(active), list(won), set(forfeits), list(reneges), sole)


# ======================================================================= R-FIRST-POT


def test_R_FIRST_POT_every_player_antes_1():
    assert StandardAnte().hand_antes(5, 1, None, 0) == [1] * 5
    assert StandardAnte().hand_antes(7, 2, None, 3) == [2] * 7
    assert StandardAnte().play_ante(1) == 0
    rec = run(make_script([sole_dealer_hand(0, 5)]))
    h = rec["hands"][0]
    assert h["pot_at_stake"] == 5
    assert h["balances"] == [104, 99, 99, 99, 99]


def test_R_FIRST_POT_is_n_times_ante():
    rec = run(make_script([sole_dealer_hand(0, 7)], players=7, table={"ante": 2}))
    h = rec["hands"][0]
    assert h["pot_at_stake"] == 14
    assert h["balances"] == [112] + [98] * 6
    state = State(House("standard+table(players=3)"))
    res = play_hand(state, ALL_CARDS, Recorder({0: True}))
    assert res.antes == [1, 1, 1] and res.pot_at_stake == 3


# ============================================================================= R-DEALER


def test_R_DEALER_rotation_goes_left():
    hands = [sole_dealer_hand(d, 5) for d in (0, 1, 2, 3, 4, 0)]
    rec = run(make_script(hands))
    assert [h["dealer"] for h in rec["hands"]] == [0, 1, 2, 3, 4, 0]
    rec = run(
        make_script(
            [sole_dealer_hand(d, 3) for d in (2, 0, 1)], players=3, table={"first_dealer": 2}
        )
    )
    assert [h["dealer"] for h in rec["hands"]] == [2, 0, 1]


def test_R_DEALER_next_dealer_skips_and_uses_up_a_lost_turn():
    nd = make_next_dealer(5)
    marks = [False, True, False, False, False]
    assert nd(0, marks) == 2
    assert marks == [False] * 5  # used up
    marks = [True, False, False, False, True]
    assert nd(3, marks) == 1  # 4 and 0 skipped
    assert marks == [False] * 5
    marks = [False, False, True, False, False]
    assert nd(0, marks) == 1
    assert marks == [False, False, True, False, False]  # still pending


# =============================================================================== R-SOLE


def test_R_SOLE_pure_payout():
    out = payout(result(5, 7, [3], [0, 0, 0, 5, 0], sole=True), full_pot)
    assert out.winner == 3
    assert out.takes == [0, 0, 0, 7, 0] and out.paid == [0] * 5
    assert out.pot_after == 0 and out.bourre == [] and out.ante_exempt == frozenset()


# ===================================================================== R-PREMATURE


def test_R_PREMATURE_costs_the_next_turn_to_deal():
    hands = [sole_dealer_hand(0, 5, events=[1]), sole_dealer_hand(2, 5), sole_dealer_hand(3, 5)]
    rec = run(make_script(hands))
    assert [h["dealer"] for h in rec["hands"]] == [0, 2, 3]
    # nothing else changes: no money moves for it
    assert rec["hands"][0]["balances"] == [104, 99, 99, 99, 99]


def test_R_PREMATURE_is_a_pending_mark_used_up_when_the_deal_comes():
    dealers = [0, 1, 2, 4, 0, 1, 2, 3]
    hands = [sole_dealer_hand(d, 5, events=[3] if k == 0 else ()) for k, d in enumerate(dealers)]
    rec = run(make_script(hands))
    assert [h["dealer"] for h in rec["hands"]] == dealers


def test_R_PREMATURE_is_not_a_count():
    dealers = [0, 2, 3, 4, 0, 1]
    hands = [sole_dealer_hand(d, 5, events=[1, 1] if k == 0 else ()) for k, d in enumerate(dealers)]
    rec = run(make_script(hands))
    assert [h["dealer"] for h in rec["hands"]] == dealers


def test_R_PREMATURE_marks_through_the_session():
    house = House("standard")
    s = State(house)
    deck = [parse_card(c) for c in ALL_CARDS]
    play_hand(s, deck, Recorder({0: True}), premature=[1, 2])
    assert dealing(s) == (3, (1, 2))  # the next by rotation, seats 1 and 2 passed over
    assert dealing(s) == (3, (1, 2))  # asking uses nothing up
    res = play_hand(s, deck, Recorder({3: True}))
    assert res.dealer == 3 and dealing(s) == (4, ())


# ============================================================================ R-WIN


def test_R_WIN_single_most_tricks_takes_P():
    out = payout(result(5, 5, [0, 3, 4], [0, 0, 0, 3, 2]), full_pot)
    assert out.winner == 3 and out.takes == [0, 0, 0, 5, 0]
    out = payout(result(5, 5, [1, 2, 3, 4], [0, 2, 1, 1, 1]), full_pot)
    assert out.winner == 1 and out.takes == [0, 5, 0, 0, 0] and out.pot_after == 0


def test_R_WIN_tie_carries_the_whole_pot():
    out = payout(result(5, 5, [1, 2, 3, 4], [0, 2, 2, 1, 0]), full_pot)
    assert out.winner is None and out.takes == [0] * 5
    assert out.pot_after == 5 + 5
    assert set(out.tied) == {1, 2}


def test_R_WIN_2_1_1_1_through_replay():
    rec = run(make_script([hand_2111()]))
    h = rec["hands"][0]
    assert h["tricks_won"] == [0, 2, 1, 1, 1]
    assert (h["winner"], h["bourre"], h["pot_after"]) == (1, [], 0)
    assert h["balances"] == [99, 104, 99, 99, 99]


def test_R_WIN_tie_through_replay():
    rec = run(make_script([hand_tie()]))
    h = rec["hands"][0]
    assert h["tricks_won"] == [0, 2, 2, 1, 0]
    assert h["winner"] is None
    assert h["pot_after"] == 10  # P carries whole + D's penalty
    assert h["balances"] == [99, 99, 99, 99, 94]


# ========================================================================= R-BOURRE


def test_R_BOURRE_same_old_P():
    out = payout(result(5, 5, [1, 2, 3], [0, 5, 0, 0, 0]), full_pot)
    assert out.paid == [0, 0, 5, 5, 0]
    assert out.pot_after == 10  # not 5 + 10
    assert out.winner == 1 and out.takes[1] == 5
    assert out.bourre == [2, 3]
    assert full_pot(7) == 7


def test_R_BOURRE_same_old_P_through_replay():
    rec = run(make_script([hand_two_bourre(), sole_dealer_hand(1, 5)]))
    h = rec["hands"][0]
    assert (h["winner"], h["bourre"], h["pot_at_stake"], h["pot_after"]) == (1, [2, 3], 5, 10)
    assert h["balances"] == [99, 104, 94, 94, 99]
    assert rec["hands"][1]["pot_at_stake"] == 13  # B and C exempt, three antes


def test_R_BOURRE_with_a_tie_P_stays_and_payments_add():
    out = payout(result(5, 6, [1, 2, 3, 4], [0, 2, 2, 0, 1]), full_pot)
    assert out.winner is None and out.pot_after == 12 and out.paid == [0, 0, 0, 6, 0]


# =========================================================================== R-ANTE


def test_R_ANTE_exemptions_pure():
    prev = HandOutcome(None, [0] * 5, [0] * 5, 10, [4], [], frozenset({1, 2, 4}), (1, 2))
    assert StandardAnte().hand_antes(5, 1, prev, 0) == [1, 0, 0, 1, 0]
    out = payout(result(5, 5, [1, 2, 3, 4], [0, 2, 2, 1, 0]), full_pot)
    assert out.ante_exempt == frozenset({1, 2, 4})
    out = payout(result(5, 5, [1, 2], [0, 5, 0, 0, 0], reneges=[2]), full_pot)
    assert out.ante_exempt == frozenset({2})  # bourré; the winner is not exempt


def test_R_ANTE_tied_and_bourre_skip_the_next_ante():
    rec = run(make_script([hand_tie(), sole_dealer_hand(1, 5)]))
    h2 = rec["hands"][1]
    assert h2["pot_at_stake"] == 12  # 10 carried + seats 0 (passed) and 3 ante
    # after hand 2 (seat 1 takes 12): seats 2 (tied) and 4 (bourré) did not ante
    assert h2["balances"] == [98, 111, 99, 98, 94]


def test_R_ANTE_winner_and_passers_pay():
    rec = run(make_script([hand_2111(), sole_dealer_hand(1, 5)]))
    assert rec["hands"][1]["pot_at_stake"] == 5
    assert rec["hands"][1]["balances"] == [98, 108, 98, 98, 98]


def test_R_ANTE_renege_gives_no_exemption():
    # seat 2 reneges with the single most tricks: no tie exemption, everyone antes
    rec = run(
        make_script(
            [
                hand_forfeit(0, "1:AH 2:AS | 2:KS 1:2S | 2:QS 1:KH | 2:JS 1:QH | 2:3H 1:JH"),
                sole_dealer_hand(1, 5),
            ]
        )
    )
    assert rec["hands"][0]["pot_after"] == 10
    assert rec["hands"][1]["pot_at_stake"] == 15


# ========================================================================= R-SETTLE


def test_R_SETTLE_exact_fractions():
    final, ranks = settle([100] * 5, 7)
    assert final == [Fraction(507, 5)] * 5 and ranks == [1] * 5
    final, ranks = settle([100, 90, 110], 0)
    assert final == [100, 90, 110] and ranks == [2, 3, 1]
    assert all(type(x) is int for x in final)
    final, _ = settle([1, 2, 3, 4, 5], 10)
    assert final == [3, 4, 5, 6, 7] and all(type(x) is int for x in final)


def test_R_SETTLE_shared_ranks_1_2_2_4():
    assert ranks_of([10, 5, 5, 0]) == [1, 2, 2, 4]
    assert ranks_of([5, 10, 5, 10]) == [3, 1, 3, 1]
    assert ranks_of([Fraction(1, 3), Fraction(1, 3), 0]) == [1, 1, 3]
    _, ranks = settle([100, 95, 95, 90, 100], Fraction(3, 2))
    assert ranks == [1, 3, 3, 5, 1]


def test_R_SETTLE_through_replay():
    rec = run(make_script([hand_2111(0), hand_tie(1), hand_tie(2)]))
    assert rec["hands"][-1]["pot_after"] == 24
    assert rec["final"] == {
        "balances": ["489/5", "474/5", "514/5", "514/5", "509/5"],
        "ranks": [4, 5, 1, 1, 3],
    }
    # no new ante at the end: the last hand's balances + pot/5
    total = sum(Fraction(b) for b in rec["final"]["balances"])
    assert total == 500


# ========================================================================= R-RENEGE


def test_R_RENEGE_costs_P_and_the_card_stands():
    rec = run(make_script([hand_renege(), sole_dealer_hand(2, 5)]))
    h = rec["hands"][0]
    p = play_at(rec, 0, 3)
    assert (p["seat"], p["card"], p["renege"], p["corrected"], set(p["legal"])) == (
        1,
        "KH",
        True,
        False,
        {"2S"},
    )
    assert h["reneges"] == [1] and h["bourre"] == [1]
    assert h["winner"] == 2
    assert h["pot_after"] == 10  # bourré 5 + renege 5, both the old P
    assert h["balances"] == [99, 89, 104, 99, 99]
    # loses the next turn to deal: hand 2 is dealt by seat 2, not 1
    assert rec["hands"][1]["dealer"] == 2
    assert rec["hands"][1]["pot_at_stake"] == 14  # seat 1 exempt as bourré, not as renege


def test_R_RENEGE_each_renege_costs_P_again():
    rec = run(
        make_script([hand_renege(0, "1:AH 2:AS | 2:KS 1:KH | 2:QS 1:QH | 2:JS 1:2S | 2:TS 1:JH")])
    )
    h = rec["hands"][0]
    assert h["reneges"] == [1, 1]
    assert h["pot_after"] == 15
    assert h["balances"][1] == 84
    out = payout(result(3, 6, [0, 1, 2], [2, 2, 1], forfeits=[2], reneges=[2, 2]), full_pot)
    assert out.paid == [0, 0, 12] and out.pot_after == 18 and out.winner is None


def test_R_RENEGE_single_most_tricks_forfeits_the_pot():
    rec = run(
        make_script([hand_forfeit(0, "1:AH 2:AS | 2:KS 1:2S | 2:QS 1:KH | 2:JS 1:QH | 2:3H 1:JH")])
    )
    h = rec["hands"][0]
    assert h["tricks_won"] == [0, 1, 4, 0, 0]
    assert (h["winner"], h["reneges"], h["bourre"], h["pot_after"]) == (None, [2], [], 10)
    assert h["balances"] == [99, 99, 94, 99, 99]
    assert set(legal_of(rec, 0, 1)) == {"3H"}


def test_R_RENEGE_pure_payout():
    out = payout(result(5, 5, [1, 2], [0, 0, 5, 0, 0], forfeits=[2], reneges=[2]), full_pot)
    assert out.winner is None and out.takes == [0] * 5
    assert out.paid == [0, 5, 5, 0, 0] and out.pot_after == 15  # P + bourré + renege
    assert out.ante_exempt == frozenset({1})
    assert out.tied == ()


# ====================================================================== R-CORRECTED


def test_R_CORRECTED_no_penalty_but_loses_the_pot_and_the_deal():
    rec = run(
        make_script(
            [
                hand_forfeit(0, "1:AH 2:AS>3H | 1:KH 2:AS | 2:KS 1:2S | 2:QS 1:QH | 2:JS 1:JH"),
                sole_dealer_hand(1, 5),
                sole_dealer_hand(3, 5),
            ]
        )
    )
    h = rec["hands"][0]
    p = play_at(rec, 0, 1)
    assert (p["seat"], p["card"], p["corrected"], p["renege"], set(p["legal"])) == (
        2,
        "3H",
        True,
        False,
        {"3H"},
    )
    assert h["tricks_won"] == [0, 1, 4, 0, 0]
    assert (h["winner"], h["reneges"], h["bourre"], h["pot_after"]) == (None, [], [], 5)
    assert h["balances"] == [99, 99, 99, 99, 99]
    # no tie exemption: everyone antes; seat 2 loses its turn to deal
    assert rec["hands"][1]["pot_at_stake"] == 10
    assert [x["dealer"] for x in rec["hands"]] == [0, 1, 3]


def test_R_CORRECTED_zero_tricks_still_bourre():
    rec = run(
        make_script(
            [
                hand_renege(0, "1:AH 2:AS | 2:KS 1:KH>2S | 2:QS 1:KH | 2:JS 1:QH | 2:TS 1:JH"),
                sole_dealer_hand(2, 5),
            ]
        )
    )
    h = rec["hands"][0]
    assert (h["winner"], h["bourre"], h["reneges"], h["pot_after"]) == (2, [1], [], 5)
    assert h["balances"] == [99, 94, 104, 99, 99]
    assert rec["hands"][1]["dealer"] == 2


def test_R_CORRECTED_to_another_illegal_card_stands_as_a_renege():
    script = complete(make_script([hand_forfeit(0, "1:AH 2:AS>KS")]))
    rec = run(script)
    p = play_at(rec, 0, 1)
    assert (p["card"], p["corrected"], p["renege"], set(p["legal"])) == ("KS", True, True, {"3H"})
    h = rec["hands"][0]
    assert h["reneges"] == [2] and h["winner"] is None
    assert h["pot_after"] == 10
    assert normalize(rec) == reference(script)


def test_R_CORRECTED_a_legal_card_cannot_be_corrected():
    refused(make_script([hand_forfeit(0, "1:AH>KH")]), "hand 1, play 1", "R-CORRECTED")
    refused(make_script([hand_forfeit(0, "1:AH 2:3H>AS")]), "hand 1, play 2", "R-CORRECTED")


def test_R_CORRECTED_tied_for_most_uses_the_tie_rules():
    out = payout(result(4, 8, [0, 1, 2, 3], [2, 2, 1, 0], forfeits=[1]), full_pot)
    assert out.winner is None and out.pot_after == 16
    assert set(out.tied) == {0, 1} and out.ante_exempt == frozenset({0, 1, 3})


def test_R_CORRECTED_single_most_carries_without_tie_exemption():
    out = payout(result(4, 8, [0, 1, 2, 3], [3, 1, 1, 0], forfeits=[0]), full_pot)
    assert out.winner is None and out.pot_after == 16
    assert out.tied == () and out.ante_exempt == frozenset({3})


def test_R_CORRECTED_correction_must_be_held():
    hand = hand_forfeit(0, "1:AH 2:AS>2D")
    refused(make_script([hand]), "hand 1, play 2", "R-CORRECTED")


# ============================================== the payout's records and the settlement


def test_the_payout_records_behave_as_values() -> None:
    """PlayResult and HandOutcome: keyword construction,
    field-wise equality, a readable repr, pickling; mutable, so unhashable."""
    import pickle

    from bourre.rules import HandOutcome, PlayResult

    out = HandOutcome(winner=None, takes=[0, 5], paid=[0, 0], pot_after=5, bourre=[], reneges=[])
    assert out == HandOutcome(None, [0, 5], [0, 0], 5, [], [], frozenset(), ())
    assert out != HandOutcome(None, [0, 5], [0, 0], 6, [], [])
    assert pickle.loads(pickle.dumps(out)) == out
    assert repr(out).startswith("HandOutcome(winner=None, takes=[0, 5]")
    res = PlayResult(2, 5, [0, 1], [3, 2], set(), [], False)
    assert pickle.loads(pickle.dumps(res)) == res and res != out
    assert "tricks_won=[3, 2]" in repr(res)
    with pytest.raises(TypeError):
        hash(out)
    # every field survives pickling and shows in the repr (none left out of either)
    full = HandOutcome(2, [0, 5], [1, 0], 7, [0], [0], frozenset({0}), (1, 2))
    back = pickle.loads(pickle.dumps(full))
    assert (back.winner, back.ante_exempt, back.tied, back.pot_after) == (
        2, frozenset({0}), (1, 2), 7,
    )  # fmt: skip
    for name in (
        "winner",
        "takes",
        "paid",
        "pot_after",
        "bourre",
        "reneges",
        "ante_exempt",
        "tied",
    ):
        assert f"{name}=" in repr(full)
    assert full != HandOutcome(2, [0, 5], [1, 0], 7, [0], [0], frozenset({0}), (2, 1))
    back_res = pickle.loads(pickle.dumps(PlayResult(2, 5, [0, 1], [3, 2], {1}, [1], True)))
    assert (back_res.forfeits, back_res.reneges, back_res.sole) == ({1}, [1], True)


@given(
    st.lists(st.integers(-500, 500), min_size=2, max_size=8),
    st.integers(0, 200),
    st.booleans(),
)
def test_settlement_shares_the_pot_exactly(balances, pot, halves) -> None:
    """R-SETTLE: each final balance is the balance plus pot/n exactly (a whole number
    stays an int), and the places rank the final balances."""
    from fractions import Fraction

    from bourre_variants.standard.payout import settle

    start = [Fraction(b, 2) if halves and i == 0 else b for i, b in enumerate(balances)]
    final, ranks = settle(list(start), pot)
    n = len(start)
    assert final == [b + Fraction(pot, n) for b in start]
    assert all(isinstance(x, int) for x in final if Fraction(x).denominator == 1)
    assert ranks == [1 + sum(1 for o in final if o > x) for x in final]
