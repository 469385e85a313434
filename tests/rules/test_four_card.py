"""The four-card variant (``bourre_variants.four_card``): R-FOUR-CARD with R-DEAL, the
exchange and the cinch.  Refereed scripts are also checked against the reference referee."""

from __future__ import annotations

import pytest
from conftest import M, complete, dealt_hands, decisions, make_hand, make_script, run, script_deck

from bourre.game.simulate import play_session
from bourre.houses.house import House
from bourre.referee import ScriptError
from bourre.rules.hookspec import CINCH, DEAL
from rules.helpers import SPADES, agree

# ================================================================================ four-card


def test_four_card_deal() -> None:
    """R-FOUR-CARD with R-DEAL: 4 cards each, card i to seat (dealer+1+i) mod n, the
    upcard is card 4n-1 (the dealer's 4th), the stock is the other 52 - 4n."""
    house = House("four-card+table(players=6)")
    assert house.rules.hand_size == 4
    deck = list(range(51, -1, -1))
    hands, up, stock = house.rules[DEAL].deal(deck, 2, 6)
    assert all(len(h) == 4 for h in hands)
    assert sorted(hands[3]) == sorted([deck[0], deck[6], deck[12], deck[18]])
    assert up == deck[4 * 6 - 1] and up in hands[2]
    assert stock == deck[24:]


def test_four_card_script_tricks_exchange_and_cinch() -> None:
    """Dealer 0 (upcard 9S: spades trump), 3 players.  Seat 1 holds AS KS QS 2H and
    leads with a cinch (3 masters): legal = AS KS QS (R-CINCH-LEAD, R-EQUIV; a cinch
    is still 3).  Seat 2 exchanges all 4 cards (0–4 exchanged); 4 tricks."""
    deck = script_deck(
        {1: "AS KS QS 2H", 2: "2C 3C 4C 5C", 0: "6C 7C 8C 9S"},
        0,
        3,
        hand_size=4,
        stock_first="AH KH QH JH",
    )
    script = make_script(
        [make_hand(deck, decisions(0, 3, {1: "play", 2: ("play", "2C 3C 4C 5C"), 0: "play"}))],
        players=3,
        variants=["four-card"],
    )
    script = complete(script)
    rec = agree(script)
    h = rec["hands"][0]
    assert h["upcard"] == "9S" and deck[4 * 3 - 1] == "9S" and h["trump"] == "S"
    assert len(h["tricks"]) == 4 and sum(h["tricks_won"]) == 4
    assert all(len(c) == 4 for c in h["hands_after_draw"])
    assert sorted(h["hands_after_draw"][2]) == sorted(["AH", "KH", "QH", "JH"])
    first = h["tricks"][0]["plays"][0]
    assert first["seat"] == 1 and first["cinch"] is True
    assert set(first["legal"]) == {"AS", "KS", "QS"}


def test_four_card_exchange_more_than_four_refused() -> None:
    deck = script_deck({}, 0, 3, hand_size=4)
    hands = dealt_hands(deck, 0, 3, hand_size=4)
    bad = hands[1] + ["AS" if "AS" not in hands[1] else "KS"]
    script = make_script(
        [make_hand(deck, [{"seat": 1, "action": "play", "discard": bad}])],
        players=3,
        variants=["four-card"],
    )
    with pytest.raises(ScriptError, match="R-DRAW"):
        run(script)


def test_four_card_cinch_is_still_three() -> None:
    cinch = House("four-card").rules[CINCH]
    assert cinch.has_cinch(M("AS KS QS 2H"), SPADES, frozenset(), 0)
    assert not cinch.has_cinch(M("AS KS 2H 3H"), SPADES, frozenset(), 0)
    assert cinch.has_cinch(M("AS 2H"), SPADES, frozenset(), 2)
    assert cinch.has_cinch(M("2H"), SPADES, frozenset(), 3)


@pytest.mark.parametrize("n", range(2, 9))
def test_four_card_sessions(n: int) -> None:
    house = House(f"four-card+table(players={n})")
    res = play_session(house, seed=n)
    for hand in res.hands:
        assert sum(hand.state.won) == 4
        assert len(hand.state.tricks) in (0, 4)
    assert sum(res.final) == 100 * n
