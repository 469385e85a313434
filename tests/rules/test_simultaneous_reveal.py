"""The simultaneous-reveal variant (``bourre_variants.simultaneous_reveal``): R-SIMULTANEOUS,
R-SIMULTANEOUS-NOBODY, R-ACE-UP in this decision mode, no premature announcement."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import complete, dealt_hands, decisions, make_hand, make_script, run, script_deck

from bourre.game.actions import PASS, PLAY, Deck
from bourre.game.state import State
from bourre.houses.house import House
from bourre.referee import ScriptError
from bourre.rules import RuleViolation
from bourre.rules.hookspec import DECISIONS
from rules.helpers import Scripted, _play_one, agree, deck_ints


def test_simultaneous_decisions_do_not_see_others() -> None:
    """R-SIMULTANEOUS: while anyone decides, no decision is public and nobody has
    exchanged (the stock is whole); under the standard, later players see earlier ones."""
    deck = script_deck({}, 0, 5)
    for spec, blind in (("simultaneous-reveal", True), ("standard", False)):
        log: list[dict[str, Any]] = []
        bots = [Scripted(s, True, dealt_hands(deck, 0, 5)[s][:2], log) for s in range(5)]
        res = _play_one(spec, deck, bots)
        assert [e["seat"] for e in log] == [1, 2, 3, 4, 0]
        if blind:
            assert all(e["decisions"] == () and e["active"] == () for e in log)
            assert all(e["stock"] == 27 for e in log)
        else:
            assert [len(e["decisions"]) for e in log] == [0, 1, 2, 3, 4]
            assert [e["stock"] for e in log] == [27, 25, 23, 21, 19]
        # then the players exchange in turn from the dealer's left
        assert [d.seat for d in res.state.decisions] == [1, 2, 3, 4, 0]
        assert res.state.active == [1, 2, 3, 4, 0]


def test_simultaneous_exchange_order_script() -> None:
    """Seats 1 and 3 play and exchange 2 and 3 cards: seat 1 is served first from the
    top of the stock, then seat 3."""
    deck = script_deck({}, 0, 4, stock_first="AS KS QS JS TS")
    hands = dealt_hands(deck, 0, 4)
    script = make_script(
        [
            make_hand(
                deck,
                decisions(
                    0, 4, {1: ("play", " ".join(hands[1][:2])), 3: ("play", " ".join(hands[3][:3]))}
                ),
            )
        ],
        players=4,
        variants=["simultaneous-reveal"],
    )
    rec = agree(complete(script))
    after = rec["hands"][0]["hands_after_draw"]
    assert set(after[1]) == set(hands[1][2:]) | {"AS", "KS"}
    assert set(after[3]) == set(hands[3][3:]) | {"QS", "JS", "TS"}


def test_simultaneous_nobody_plays_dealer_forced_in_without_exchange() -> None:
    """R-SIMULTANEOUS-NOBODY: everyone passes; the dealer is forced in, does not
    exchange, and takes the pot (R-SOLE)."""
    deck = script_deck({}, 2, 4)
    script = make_script(
        [make_hand(deck, decisions(2, 4, {}), dealer=2)],
        players=4,
        variants=["simultaneous-reveal"],
    )
    h = agree(script)["hands"][0]
    assert h["active"] == [2] and h["winner"] == 2 and h["tricks_won"][2] == 5
    assert set(h["hands_after_draw"][2]) == set(dealt_hands(deck, 2, 4)[2])
    assert h["balances"] == [99, 99, 103, 99]
    # the same with bots: the dealer is never asked to discard
    bots = [Scripted(s, False, ["2C"]) for s in range(4)]
    res = _play_one("simultaneous-reveal+table(players=4)", deck, bots, dealer=2)
    assert res.state.active == [2] and res.outcome.winner == 2
    assert not any(b.discarded for b in bots)
    assert sorted(res.hands_after_draw[2]) == sorted(deck_ints(dealt_hands(deck, 2, 4)[2]))


def test_simultaneous_forced_dealer_may_not_discard() -> None:
    deck = script_deck({}, 0, 3)
    decs = decisions(0, 3, {})
    decs[-1]["discard"] = [dealt_hands(deck, 0, 3)[0][0]]
    with pytest.raises(ScriptError, match="R-PASS"):
        run(make_script([make_hand(deck, decs)], players=3, variants=["simultaneous-reveal"]))


def test_simultaneous_ace_up_dealer_must_play() -> None:
    """R-ACE-UP in every decision mode: with AS up, the dealer must reveal play."""
    deck = script_deck({0: "2C 3C 4C 5C AS"}, 0, 3)
    script = make_script(
        [make_hand(deck, decisions(0, 3, {1: "play"}))], players=3, variants=["simultaneous-reveal"]
    )
    with pytest.raises(ScriptError, match="R-ACE-UP"):
        run(script)
    # bots: the dealer is told, and a pass is refused
    log: list[dict[str, Any]] = []
    bots = [Scripted(s, s != 0, (), log) for s in range(3)]
    with pytest.raises(RuleViolation) as err:
        _play_one("simultaneous-reveal+table(players=3)", deck, bots)
    assert err.value.rule == "R-ACE-UP"
    assert [e["forced"] for e in log if e["seat"] == 0] == ["R-ACE-UP"]
    assert all(e["forced"] is None for e in log if e["seat"] != 0)
    # the game itself offers the dealer only play, and refuses a pass, unchanged
    state = State(House("simultaneous-reveal+table(players=3)"), hands=1)
    state.apply_chance(Deck(tuple(deck_ints(deck))))
    state.apply_action(PLAY)  # seat 1
    state.apply_action(PLAY)  # seat 2
    assert state.current_player() == 0 and state.legal_actions() == [PLAY]
    with pytest.raises(RuleViolation) as err:
        state.apply_action(PASS)
    assert err.value.rule == "R-ACE-UP"
    assert state.current_player() == 0 and state.phase_name == "decide"
    # revealing play is fine, and nobody else playing makes the dealer sole
    ok = make_script(
        [make_hand(deck, decisions(0, 3, {0: "play"}))], players=3, variants=["simultaneous-reveal"]
    )
    assert agree(ok)["hands"][0]["winner"] == 0


def test_simultaneous_premature_events_refused() -> None:
    """No premature announcement can arise (R-SIMULTANEOUS): a script event is refused."""
    deck = script_deck({}, 0, 3)
    script = make_script(
        [make_hand(deck, decisions(0, 3, {0: "play"}), events=[1])],
        players=3,
        variants=["simultaneous-reveal"],
    )
    with pytest.raises(ScriptError) as err:
        run(script)
    assert "premature" in str(err.value).lower() and "hand 1, announcements" in str(err.value)
    assert House("simultaneous-reveal").rules[DECISIONS].announcements is False
    assert House("standard").rules[DECISIONS].announcements is True
