"""The no-cinch variant (``bourre_variants.no_cinch``): R-NO-CINCH, no lead or follow forced
by sure tricks.  Refereed scripts are also checked against the reference referee."""

from __future__ import annotations

import copy

from conftest import M, complete, decisions, make_hand, make_script, plays, script_deck

from bourre.game.simulate import play_session
from bourre.houses.house import House
from bourre.rules.hookspec import CINCH
from bourre_variants.standard.obligations import follow
from rules.helpers import SPADES, agree

# ================================================================================= no-cinch


def test_no_cinch_policy() -> None:
    cinch = House("no-cinch").rules[CINCH]
    assert not cinch.has_cinch(M("AS KS QS JS TS"), SPADES, frozenset(), 5)
    hand = M("AS KS 9S 2C")
    legal = follow(hand, (), SPADES)
    assert cinch.narrow(legal, hand, (), SPADES, frozenset(), False) is legal


def test_no_cinch_script() -> None:
    """Seat 1 holds AS KS QS (3 masters): under the standard he must lead a top trump
    with a cinch; under no-cinch he leads 2H freely and no play has a cinch."""
    deck = script_deck({1: "AS KS QS 2H 3H", 0: "2C 3C 4C 5C 9S"}, 0, 3)
    hand = make_hand(deck, decisions(0, 3, {1: "play", 2: "play"}), plays("1:2H"))
    script = complete(make_script([copy.deepcopy(hand)], players=3, variants=["no-cinch"]))
    rec = agree(script)
    plays_ = [p for t in rec["hands"][0]["tricks"] for p in t["plays"]]
    assert not any(p["cinch"] for p in plays_)
    assert set(plays_[0]["legal"]) == {"AS", "KS", "QS", "2H", "3H"}
    assert not any(p["renege"] for p in plays_)
    std = copy.deepcopy(script)
    std["rules"]["variants"]["use"] = ["standard"]
    srec = agree(std)
    first = srec["hands"][0]["tricks"][0]["plays"][0]
    assert first["cinch"] is True and set(first["legal"]) == {"AS", "KS", "QS"}
    assert first["renege"] is True


def test_no_cinch_sessions_never_flag_a_cinch() -> None:
    for seed in range(5):
        res = play_session(House("no-cinch+table(players=3)"), seed=seed, record=True)
        assert all(not p.cinch for h in res.hands for p in h.plays)
    flagged = sum(
        p.cinch
        for seed in range(5)
        for h in play_session(House("standard+table(players=3)"), seed=seed, record=True).hands
        for p in h.plays
    )
    assert flagged > 0
