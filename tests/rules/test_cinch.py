"""The cinch (``bourre_variants.standard.cinch``): R-SURE, R-EQUIV, R-CINCH-LEAD,
R-CINCH-FOLLOW and R-CINCH-LAST, on the pure component and through ``bourre.referee.replay``."""

from __future__ import annotations

from conftest import (
    M,
    S,
    T,
    complete,
    decisions,
    make_hand,
    make_script,
    normalize,
    play_at,
    plays,
    reference,
    run,
    script_deck,
)

from bourre.rules.cards import parse_card
from bourre_variants.standard.cinch import StandardCinch, highest_trumps, master_count, sure_tricks
from bourre_variants.standard.obligations import follow
from rules.helpers import SPADES

CINCH = StandardCinch()


def known(text: str) -> frozenset[int]:
    """The cards known out, from card texts."""
    return frozenset(parse_card(c) for c in text.split())


NONE: frozenset[int] = frozenset()


# ============================================================================ R-SURE


def test_R_SURE_master_trumps_and_sure_tricks():
    assert master_count(M("AS KS QS 2H"), SPADES, NONE) == 3
    assert master_count(M("AS KS JS"), SPADES, NONE) == 2
    assert master_count(M("AS KS JS"), SPADES, known("QS")) == 3
    assert master_count(M("KS QS"), SPADES, NONE) == 0
    assert master_count(M("KS QS"), SPADES, known("AS")) == 2
    assert sure_tricks(M("AS KS 3H"), SPADES, NONE, 1) == 3
    assert sure_tricks(M("2H"), SPADES, NONE, 2) == 2


def test_R_SURE_cinch_is_three_sure_tricks():
    assert CINCH.has_cinch(M("AS KS QS 2H 3H"), SPADES, NONE, 0)
    assert not CINCH.has_cinch(M("AS KS JS 2H 3H"), SPADES, NONE, 0)
    assert CINCH.has_cinch(M("AS KS JS 2H"), SPADES, NONE, 1)
    assert CINCH.has_cinch(M("2H 3H"), SPADES, NONE, 3)
    assert not CINCH.has_cinch(M("2H 3H"), SPADES, known("AS KS QS"), 2)
    assert CINCH.has_cinch(M("JS 2H"), SPADES, known("AS KS QS"), 2)


def test_R_SURE_own_discards_make_a_trump_master():
    assert CINCH.has_cinch(M("AS QS JS 2H 3H"), SPADES, known("KS"), 0)
    assert not CINCH.has_cinch(M("AS QS JS 2H 3H"), SPADES, NONE, 0)
    # through replay: seat 1 discards KS 2H and draws JS 8C (5 players, no reshuffle)
    deck = script_deck({1: "AS KS QS 2H 3H", 0: "2C 3C 4C 5C 9S"}, 0, 5, stock_first="JS 8C")
    script = complete(
        make_script([make_hand(deck, decisions(0, 5, {1: ("play", "KS 2H"), 2: "play"}))])
    )
    rec = run(script)
    first = play_at(rec, 0, 0)
    assert first["seat"] == 1 and first["cinch"] is True
    assert set(first["legal"]) == {"AS", "QS", "JS"}


def test_R_SURE_a_corrected_card_is_not_played():
    """Hearts led by seat 1; seat 2 plays KS (it holds 7H: illegal) and takes it back
    for 7H; seat 3 (AS QS JS 9S 2C, no heart) must trump.  KS was not played, so AS is
    its only master: no cinch, any trump.  (Counting KS would make a cinch and narrow
    the legal cards to AS QS JS.)"""
    deck = script_deck(
        {
            1: "2H 3H 4H 5H 6H",
            2: "7H KS 2D 3D 4D",
            3: "AS QS JS 9S 2C",
            4: "8H 9H TH 5D 6D",
            0: "2S 3C 4C 5C 8S",
        },
        0,
        5,
    )
    script = make_script(
        [
            make_hand(
                deck,
                decisions(0, 5, {1: "play", 2: "play", 3: "play", 4: "play"}),
                plays("1:2H 2:KS>7H"),
            )
        ]
    )
    script = complete(script)
    rec = run(script)
    p1, p2 = play_at(rec, 0, 1), play_at(rec, 0, 2)
    assert (p1["seat"], p1["card"], p1["corrected"], p1["renege"]) == (2, "7H", True, False)
    assert p2["seat"] == 3 and p2["cinch"] is False
    assert set(p2["legal"]) == {"AS", "QS", "JS", "9S"}
    assert normalize(rec) == reference(script)


def test_R_SURE_tricks_won_count():
    # seat 1 wins three tricks with side aces, then its low trump is "sure"
    deck = script_deck({1: "AH AD AC 2S 2C", 2: "KH KD 3H 3D 4D", 0: "6C 7C 8C 9C 9S"}, 0, 5)
    script = make_script(
        [
            make_hand(
                deck,
                decisions(0, 5, {1: "play", 2: "play"}),
                plays("1:AH 2:KH | 1:AD 2:KD | 1:AC 2:3H | 1:2S 2:3D | 1:2C 2:4D"),
            )
        ]
    )
    rec = run(script)
    assert [play_at(rec, 0, i)["cinch"] for i in (0, 2, 4, 6, 8)] == [
        False,
        False,
        False,
        True,
        True,
    ]


# =========================================================================== R-EQUIV


def test_R_EQUIV_contiguous_trumps_are_equivalent():
    assert S(highest_trumps(M("AS KS"), M("AS KS"), SPADES, frozenset())) == {"AS", "KS"}
    assert S(highest_trumps(M("AS QS"), M("AS QS"), SPADES, known("KS"))) == {"AS", "QS"}
    assert S(highest_trumps(M("AS QS"), M("AS QS"), SPADES, frozenset())) == {"AS"}
    assert S(highest_trumps(M("AS KS 9S"), M("AS KS 9S"), SPADES, known("QS JS TS"))) == {
        "AS",
        "KS",
        "9S",
    }
    assert S(highest_trumps(M("KS 9S"), M("KS 9S 2H"), SPADES, frozenset())) == {"KS"}


def test_R_EQUIV_through_replay():
    # worked example trick 4: A (1 trick + AS KS) leads AS or KS
    from conftest import hand_worked_example

    rec = run(make_script([hand_worked_example()]))
    p = play_at(rec, 0, 9)
    assert (p["seat"], p["cinch"], set(p["legal"])) == (4, True, {"AS", "KS"})


def test_R_EQUIV_is_cited_when_several_trumps_count_as_the_highest():
    """Issue 43: "lead your highest spade (Q♠ K♠ A♠)" named three cards as the highest
    without saying why; the words now cite R-EQUIV, and only when it applies."""
    lead = CINCH.narrow(
        follow(M("AS KS QS 2H"), (), SPADES), M("AS KS QS 2H"), (), SPADES, frozenset(), last=False
    )
    assert lead.reason.rule == "R-CINCH-LEAD"
    assert "or one equal to it" in lead.reason.words and "R-EQUIV" in lead.reason.words
    alone = CINCH.narrow(
        follow(M("AS QS 2H"), (), SPADES), M("AS QS 2H"), (), SPADES, frozenset(), last=False
    )
    assert "R-EQUIV" not in alone.reason.words and alone.reason.words.endswith("(A♠)")


# ====================================================================== R-CINCH-LEAD


def test_R_CINCH_LEAD_highest_trump():
    hand = M("AS KS 9S 2C")
    legal = follow(hand, [], SPADES)
    assert CINCH.has_cinch(hand, SPADES, NONE, 1)
    assert S(CINCH.narrow(legal, hand, (), SPADES, NONE, False)) == {"AS", "KS"}
    assert S(CINCH.narrow(legal, hand, (), SPADES, known("QS JS TS"), False)) == {"AS", "KS", "9S"}


def test_R_CINCH_LEAD_after_three_tricks_no_hiding_a_trump():
    hand = M("2S 2C")
    assert CINCH.has_cinch(hand, SPADES, NONE, 3)
    assert S(CINCH.narrow(follow(hand, [], SPADES), hand, (), SPADES, NONE, False)) == {"2S"}
    # without trumps the lead stays free
    hand = M("2C 3D")
    assert S(CINCH.narrow(follow(hand, [], SPADES), hand, (), SPADES, NONE, False)) == {"2C", "3D"}


def test_R_CINCH_LEAD_through_replay():
    deck = script_deck({1: "AH AD AC 2S 2C", 2: "KH KD 3H 3D 4D", 0: "6C 7C 8C 9C 9S"}, 0, 5)
    base = "1:AH 2:KH | 1:AD 2:KD | 1:AC 2:3H | "
    rec = run(
        make_script(
            [
                make_hand(
                    deck,
                    decisions(0, 5, {1: "play", 2: "play"}),
                    plays(base + "1:2S 2:3D | 1:2C 2:4D"),
                )
            ]
        )
    )
    p = play_at(rec, 0, 6)
    assert (p["seat"], p["cinch"], set(p["legal"]), p["renege"]) == (1, True, {"2S"}, False)
    # hiding the trump (leading 2C) is a renege
    rec = run(
        make_script(
            [
                make_hand(
                    deck,
                    decisions(0, 5, {1: "play", 2: "play"}),
                    plays(base + "1:2C 2:3D | 1:2S 2:4D"),
                )
            ]
        )
    )
    p = play_at(rec, 0, 6)
    assert (p["card"], p["renege"]) == ("2C", True)
    assert rec["hands"][0]["reneges"] == [1]
    assert rec["hands"][0]["winner"] is None  # single most tricks but reneged: carries
    # a cinch from the start: AS KS QS held, 9S not equivalent
    deck = script_deck({1: "AS KS QS 9S 2C", 0: "2H 3H 4H 5H 8S"}, 0, 5)
    script = complete(make_script([make_hand(deck, decisions(0, 5, {1: "play", 2: "play"}))]))
    p = play_at(run(script), 0, 0)
    assert (p["cinch"], set(p["legal"])) == (True, {"AS", "KS", "QS"})


# ==================================================================== R-CINCH-FOLLOW


def test_R_CINCH_FOLLOW_highest_allowed_trump():
    hand = M("AS KS 9S 2C")
    legal = follow(hand, T("3H"), SPADES)
    assert S(legal) == {"AS", "KS", "9S"}
    assert S(CINCH.narrow(legal, hand, T("3H"), SPADES, known("3H"), False)) == {"AS", "KS"}
    # over a trump: the highest of the trumps that beat it
    hand = M("KS QS 9S 2C")
    legal = follow(hand, T("3H TS"), SPADES)
    assert S(legal) == {"KS", "QS"}
    assert S(CINCH.narrow(legal, hand, T("3H TS"), SPADES, known("AS 3H TS"), False)) == {
        "KS",
        "QS",
    }


def test_R_CINCH_FOLLOW_following_suit_keeps_priority():
    hand = M("AS KS QS 5H 2H")
    legal = follow(hand, T("3H"), SPADES)
    assert S(legal) == {"5H"}
    assert CINCH.has_cinch(hand, SPADES, known("3H"), 0)
    assert S(CINCH.narrow(legal, hand, T("3H"), SPADES, known("3H"), False)) == {"5H"}


def test_R_CINCH_FOLLOW_with_optional_undertrump_still_the_highest_trump():
    from bourre_variants.optional_undertrump import follow as follow_optional_undertrump

    hand = M("5S 4S 2C")
    legal = follow_optional_undertrump(hand, T("3H 9S"), SPADES)
    assert S(legal) == {"5S", "4S", "2C"}
    assert S(CINCH.narrow(legal, hand, T("3H 9S"), SPADES, known("3H 9S"), False)) == {"5S", "4S"}


def test_R_CINCH_FOLLOW_through_replay():
    """Seats 2 (leads 3H), 3 (AS KS QS 9S 2C: cinch, no heart) and 4 play."""
    deck = script_deck(
        {2: "3H 4H 5H 6H 7H", 3: "AS KS QS 9S 2C", 4: "8H 9H TH 2D 3D", 0: "2H 3C 4C 5C 8S"}, 0, 5
    )
    script = complete(
        make_script(
            [make_hand(deck, decisions(0, 5, {2: "play", 3: "play", 4: "play"}), plays("2:3H"))]
        )
    )
    rec = run(script)
    p = play_at(rec, 0, 1)
    assert (p["seat"], p["cinch"], set(p["legal"])) == (3, True, {"AS", "KS", "QS"})
    assert normalize(rec) == reference(script)


# ====================================================================== R-CINCH-LAST


def test_R_CINCH_LAST_only_the_ordinary_obligations():
    hand = M("AS KS 9S 2C")
    legal = follow(hand, T("3H 4H"), SPADES)
    assert S(CINCH.narrow(legal, hand, T("3H 4H"), SPADES, known("3H 4H"), True)) == {
        "AS",
        "KS",
        "9S",
    }
    # may over-trump with a lower trump that still wins
    legal = follow(hand, T("3H 5S"), SPADES)
    assert S(legal) == {"AS", "KS", "9S"}
    assert S(CINCH.narrow(legal, hand, T("3H 5S"), SPADES, known("3H 5S"), True)) == {
        "AS",
        "KS",
        "9S",
    }
    assert S(CINCH.narrow(legal, hand, T("3H 5S"), SPADES, known("3H 5S"), False)) == {"AS", "KS"}


def test_R_CINCH_LAST_through_replay():
    """Seat 1 leads 3H, seat 2 trumps 5S, seat 3 (AS KS QS 9S 2C) is last: 9S wins."""
    deck = script_deck(
        {1: "3H 4H 6H 7H 8H", 2: "5S 2D 3D 4D 6D", 3: "AS KS QS 9S 2C", 0: "2H 3C 4C 5C 8S"}, 0, 5
    )
    script = complete(
        make_script(
            [
                make_hand(
                    deck,
                    decisions(0, 5, {1: "play", 2: "play", 3: "play"}),
                    plays("1:3H 2:5S 3:9S"),
                )
            ]
        )
    )
    rec = run(script)
    p = play_at(rec, 0, 2)
    assert (p["seat"], p["cinch"], p["renege"], set(p["legal"])) == (
        3,
        True,
        False,
        {"AS", "KS", "QS", "9S"},
    )
    assert rec["hands"][0]["tricks"][0]["winner"] == 3
    # next trick, seat 3 leads with a cinch: highest trump and equivalents
    p = play_at(rec, 0, 3)
    assert (p["seat"], p["cinch"], set(p["legal"])) == (3, True, {"AS", "KS", "QS"})
    assert normalize(rec) == reference(script)
