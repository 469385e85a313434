"""Golden transcripts: ``bourre replay`` on each ``tests/golden/<name>.script.json``
must print exactly ``<name>.record.json``.

The records were produced by the independent reference referee
(``tests/golden/regenerate.py``), never by ``bourre``; ``legal`` and
``hands_after_draw`` compare as sets, and the extra top-level key ``house`` is
ignored.  Two of them are also checked here against values worked out by hand from
RULES.md.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import normalize

from bourre.referee import replay, replay_file

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
NAMES = sorted(p.name[: -len(".script.json")] for p in GOLDEN.glob("*.script.json"))
REQUIRED = {
    "plain_2111",  # a plain hand (2-1-1-1 wins)
    "tie_carry",  # a tie: the pot carries
    "renege",
    "correction",
    "premature_dealer",  # a premature announcement changes the dealer
    "sole_participant",
    "reshuffle_8_players",
    "session_fraction",  # a multi-hand session ending with a fractional settlement
}


def load(name: str, kind: str) -> dict:
    return json.loads((GOLDEN / f"{name}.{kind}.json").read_text(encoding="utf-8"))


def test_the_golden_set_is_complete():
    assert set(NAMES) >= REQUIRED
    assert len(NAMES) >= 6
    for name in NAMES:
        assert (GOLDEN / f"{name}.record.json").is_file(), name


@pytest.mark.parametrize("name", NAMES)
def test_golden(name):
    got = replay(load(name, "script")).model_dump(mode="json")
    assert normalize(got) == normalize(load(name, "record"))


@pytest.mark.parametrize("name", NAMES)
def test_golden_from_file(name):
    got = replay_file(GOLDEN / f"{name}.script.json").model_dump(mode="json")
    assert normalize(got) == normalize(load(name, "record"))
    assert got["house"]  # the extra key: the canonical house string


def test_golden_exact_key_order_and_types():
    """Beyond set equality: the record has the public keys of HAND-HISTORY.md, amounts
    are ints or "p/q" strings."""
    got = replay(load("session_fraction", "script")).model_dump(mode="json")
    assert list(got) == ["house", "hands", "final"]
    keys = {
        "number",
        "dealer",
        "trump",
        "upcard",
        "pot_at_stake",
        "active",
        "hands_after_draw",
        "tricks",
        "tricks_won",
        "winner",
        "bourre",
        "reneges",
        "pot_after",
        "balances",
    }
    for h in got["hands"]:
        assert keys <= set(h)
        for t in h["tricks"]:
            assert {"leader", "winner", "plays"} <= set(t)
            for p in t["plays"]:
                assert {"seat", "card", "legal", "cinch", "renege", "corrected"} <= set(p)
    assert got["final"]["balances"] == ["489/5", "474/5", "514/5", "514/5", "509/5"]


# ------------------------------------------------------------- checked by hand


def test_golden_renege_checked_by_hand():
    """Dealer 0 (upcard 9S: spades trump) and seats 3, 4 pass.  B (seat 1) leads AH;
    A (seat 2, AS KS QS JS TS: a cinch) trumps.  On A's KS, B holds 2S but plays KH: a
    renege (R-RENEGE).  A takes all 5 tricks: A takes P = 5; B is bourré (5) and
    reneged (5): the next pot is 10.  B loses the next turn to deal: hand 2 is dealt
    by seat 2, whose antes are all but B's (exempt as bourré): 10 + 4 = 14."""
    rec = load("renege", "record")
    h1, h2 = rec["hands"]
    assert h1["tricks_won"] == [0, 0, 5, 0, 0]
    assert (h1["winner"], h1["bourre"], h1["reneges"]) == (2, [1], [1])
    assert (h1["pot_at_stake"], h1["pot_after"]) == (5, 10)
    assert h1["balances"] == [99, 89, 104, 99, 99]
    renege = h1["tricks"][1]["plays"][1]
    assert (renege["seat"], renege["card"], renege["renege"], renege["legal"]) == (
        1,
        "KH",
        True,
        ["2S"],
    )
    assert (h2["dealer"], h2["pot_at_stake"], h2["winner"]) == (2, 14, 2)
    assert rec["final"] == {"balances": [98, 89, 117, 98, 98], "ranks": [2, 5, 1, 2, 2]}


def test_golden_session_fraction_checked_by_hand():
    """Hand 1 (dealer 0): 2-1-1-1, seat 1 takes 5.  Hand 2 (dealer 1): all ante (5);
    seats 2 and 3 tie on 2 tricks, seat 0 is bourré: P = 5 carries + 5 = 10.
    Hand 3 (dealer 2): only seats 1 and 4 ante (0 bourré, 2 and 3 tied): P = 12; seats
    3 and 4 tie, seat 1 is bourré: 12 + 12 = 24 left.  R-SETTLE: 24/5 each."""
    rec = load("session_fraction", "record")
    assert [h["pot_at_stake"] for h in rec["hands"]] == [5, 5, 12]
    assert [h["pot_after"] for h in rec["hands"]] == [0, 10, 24]
    assert [h["winner"] for h in rec["hands"]] == [1, None, None]
    assert rec["hands"][1]["balances"] == [93, 103, 98, 98, 98]
    assert rec["hands"][2]["balances"] == [93, 90, 98, 98, 97]
    assert rec["final"] == {
        "balances": ["489/5", "474/5", "514/5", "514/5", "509/5"],
        "ranks": [4, 5, 1, 1, 3],
    }


def test_golden_plain_and_tie_checked_by_hand():
    plain = load("plain_2111", "record")["hands"][0]
    assert plain["tricks_won"] == [0, 2, 1, 1, 1] and plain["winner"] == 1
    assert plain["balances"] == [99, 104, 99, 99, 99] and plain["pot_after"] == 0
    tie = load("tie_carry", "record")
    h1, h2 = tie["hands"]
    assert h1["tricks_won"] == [0, 2, 2, 1, 0] and h1["winner"] is None
    assert (h1["bourre"], h1["pot_after"], h2["pot_at_stake"]) == ([4], 10, 12)
