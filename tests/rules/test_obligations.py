"""The standard obligations (``bourre_variants.standard.obligations``): R-FOLLOW, R-TRUMP and
R-DISCARD, on the pure component and through ``bourre.referee.replay``."""

from __future__ import annotations

from conftest import (
    C,
    M,
    S,
    T,
    complete,
    decisions,
    hand_2111,
    hand_tie,
    legal_of,
    make_hand,
    make_script,
    normalize,
    play_at,
    plays,
    reference,
    run,
    script_deck,
)

from bourre_variants.standard.obligations import follow
from bourre_variants.standard.tricks import trick_winner
from rules.helpers import SPADES

# ========================================================================= R-FOLLOW


def test_R_FOLLOW_must_follow_suit():
    assert S(follow(M("KH 2H AS 3C"), T("QH"), SPADES)) == {"KH"}
    assert S(follow(M("2H AS 3C"), T("QH"), SPADES)) == {"2H"}


def test_R_FOLLOW_must_beat_when_possible():
    assert S(follow(M("KH AH 2H AS"), T("QH"), SPADES)) == {"KH", "AH"}
    # beat the current winning card, not the card led
    assert S(follow(M("AH JH 2H"), T("5H KH"), SPADES)) == {"AH"}
    assert S(follow(M("QH 2H"), T("5H KH"), SPADES)) == {"QH", "2H"}
    # trumps led: follow and beat
    assert S(follow(M("AS 3S 4H"), T("QS"), SPADES)) == {"AS"}


def test_R_FOLLOW_cannot_beat_any_card_of_the_suit():
    assert S(follow(M("JH 2H AS"), T("QH"), SPADES)) == {"JH", "2H"}
    assert S(follow(M("3S 2S AH"), T("QS"), SPADES)) == {"3S", "2S"}


def test_R_FOLLOW_after_a_trump_any_card_of_the_suit():
    assert S(follow(M("KH 2H AS"), T("QH 2S"), SPADES)) == {"KH", "2H"}
    assert S(follow(M("AH 5H 8S"), T("JH 3S"), SPADES)) == {"AH", "5H"}  # seeds 08
    assert T("QH 2S")[trick_winner(T("QH 2S"), SPADES)] == C("2S")  # R-TRICK, the one copy
    assert T("QH KH 3D")[trick_winner(T("QH KH 3D"), SPADES)] == C("KH")


def test_R_FOLLOW_through_replay_a_card_that_does_not_beat_is_a_renege():
    # seat 1 leads 5H; seat 2 holds 2H and 9H and must beat: 9H only
    deck = script_deck({1: "5H 6C 7C 8C 9C", 2: "2H 9H 2D 3D 4D", 0: "2C 3C 4C 5C 8S"}, 0, 5)
    legal = complete(
        make_script([make_hand(deck, decisions(0, 5, {1: "play", 2: "play"}), plays("1:5H 2:9H"))])
    )
    rec = run(legal)
    p = play_at(rec, 0, 1)
    assert (p["card"], p["renege"], set(p["legal"])) == ("9H", False, {"9H"})
    bad = complete(
        make_script([make_hand(deck, decisions(0, 5, {1: "play", 2: "play"}), plays("1:5H 2:2H"))])
    )
    rec = run(bad)
    p = play_at(rec, 0, 1)
    assert (p["card"], p["renege"], set(p["legal"])) == ("2H", True, {"9H"})
    assert rec["hands"][0]["reneges"] == [2]
    assert rec["hands"][0]["tricks"][0]["winner"] == 1
    assert normalize(rec) == reference(bad)


def test_R_FOLLOW_through_replay_any_card_when_unable_to_beat():
    # tie deal, trick 4: AD led, C (KD 3D) cannot beat it: any diamond; a heart is a renege
    rec = run(make_script([hand_tie()]))
    assert legal_of(rec, 0, 13) == {"KD", "3D"}
    assert legal_of(rec, 0, 17) == {"KD"}
    hand = hand_tie()
    hand["plays"][10] = {"seat": 3, "card": "3D"}  # trick 3 (clubs): C discards 3D
    hand["plays"][13] = {"seat": 3, "card": "6H"}  # trick 4: holds KD, plays a heart
    rec = run(make_script([hand]))
    p = play_at(rec, 0, 13)
    assert (p["card"], p["renege"], set(p["legal"])) == ("6H", True, {"KD"})
    h = rec["hands"][0]
    assert h["tricks_won"] == [0, 2, 2, 1, 0] and h["reneges"] == [3]
    assert h["winner"] is None and h["pot_after"] == 15  # P + D bourré + C renege


# ========================================================================== R-TRUMP


def test_R_TRUMP_must_trump_without_the_suit():
    assert S(follow(M("3S 9S 4C"), T("QH"), SPADES)) == {"3S", "9S"}


def test_R_TRUMP_must_overtrump_when_possible():
    assert S(follow(M("AS 3S 4C"), T("QH 5S"), SPADES)) == {"AS"}
    assert S(follow(M("AS KS 3S"), T("QH 5S 9S"), SPADES)) == {"AS", "KS"}


def test_R_TRUMP_undertrump_obligatory():
    assert S(follow(M("3S 4C"), T("QH 5S"), SPADES)) == {"3S"}
    assert S(follow(M("2S 3S 4C 5D"), T("QH AS"), SPADES)) == {"2S", "3S"}


def test_R_TRUMP_through_replay():
    # worked example: B has no hearts and must play his only trump
    from conftest import hand_worked_example

    rec = run(make_script([hand_worked_example()]))
    p = play_at(rec, 0, 1)
    assert p["seat"] == 0 and set(p["legal"]) == {"3S"} and p["renege"] is False


# ======================================================================== R-DISCARD


def test_R_DISCARD_any_card_with_neither_suit_nor_trump():
    assert S(follow(M("4C 5D"), T("QH"), SPADES)) == {"4C", "5D"}
    assert S(follow(M("4C 5D AD"), T("QH 2S"), SPADES)) == {"4C", "5D", "AD"}


def test_R_DISCARD_through_replay():
    rec = run(make_script([hand_2111()]))
    # trick 1: AS led, B C D hold no spade: anything
    assert legal_of(rec, 0, 1) == {"AC", "2D", "3D", "4D", "5D"}
    assert legal_of(rec, 0, 3) == {"AH", "KH", "QH", "JH", "TH"}
