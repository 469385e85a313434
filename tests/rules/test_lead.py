"""R-LEAD is the lead component's (``bourre_lead``): who leads each trick and in what
order the others play to it, which a variant may change and the guard checks."""

from __future__ import annotations

from itertools import pairwise
from typing import Any

import pytest
from conftest import (
    M,
    S,
    complete,
    decisions,
    hand_2111,
    make_hand,
    make_script,
    plugin,
    run,
    script_deck,
)
from hypothesis import given, settings
from hypothesis import strategies as st
from widdershins import Widdershins

from bourre.game import Game
from bourre.game.simulate import play_session
from bourre.houses.house import House
from bourre.kernel import can_play
from bourre.rules.hookspec import LEAD, PluginError
from bourre.rules.plugins import load_registry
from bourre.rules.settings import TableSettings
from bourre.rules.variant import Variant, hookimpl
from bourre_variants.standard.obligations import follow
from rules.helpers import SPADES, refused


def _clockwise_from(dealer: int, n: int) -> list[int]:
    return [(dealer + 1 + k) % n for k in range(n)]


@settings(max_examples=25, deadline=None)
@given(
    spec=st.sampled_from(["standard", "four-card", "simultaneous-reveal", "no-cinch"]),
    players=st.integers(2, 8),
    seed=st.integers(0, 10**6),
)
def test_the_first_active_seat_left_of_the_dealer_leads_then_each_winner(
    spec: str, players: int, seed: int
) -> None:
    house = House(f"{spec}+table(players={players},hands=3)")
    for hand in play_session(house, seed=seed).hands:
        hs = hand.state
        if len(hs.active) < 2:
            continue
        order = [s for s in _clockwise_from(hand.dealer, players) if s in hs.active]
        leader = order[0]  # R-LEAD: the first active player to the dealer's left
        for trick in hs.tricks:
            seats = [seat for seat, _ in trick.plays]
            i = order.index(leader)
            assert trick.leader == leader and seats == order[i:] + order[:i]  # clockwise
            leader = trick.winner  # the winner leads next


def _house(cls: type[Variant], spec: str) -> House:
    return House(spec, registry=load_registry(extra=[(cls.name, plugin(cls.name, cls))]))


def test_a_variant_changes_the_lead_and_only_the_python_rules_play_it() -> None:
    house = _house(Widdershins, "widdershins")
    assert house.answered_by[LEAD.name].name == "widdershins"
    assert can_play(house) is not None  # (a use asking no plugin; the worlds: built-in lead only)
    tricks = 0
    for hand in play_session(house, seed=11).hands:
        hs = hand.state
        right = [(hand.dealer - 1 - k) % 5 for k in range(5)]
        order = [s for s in right if s in hs.active]
        for t, trick in enumerate(hs.tricks):
            assert trick.leader == (order[0] if t == 0 else hs.tricks[t - 1].winner)
            tricks += 1
    assert tricks > 0
    assert "Play goes to the right" in Game(house).rules_text


class TwiceLead(Variant):
    """A broken lead: the first active seat plays twice and the last never."""

    name = "twice"
    summary = "broken"
    builds_on = ("standard",)

    @hookimpl
    def bourre_lead(self, table: TableSettings) -> Any:
        return lambda active, dealer, winner: (active[0], *active[:-1])


def test_a_lead_that_is_not_the_active_seats_is_stopped_naming_the_plugin() -> None:
    state = Game(_house(TwiceLead, "twice")).new_session(seed=2)
    with pytest.raises(PluginError) as e:
        while not state.is_terminal():
            state.apply_action(state.legal_actions()[-1])  # play every hand
    assert e.value.plugin == "twice" and e.value.hook == "bourre_lead"
    assert "active seats" in str(e.value)


# =========================================================================== R-LEAD


def test_R_LEAD_first_active_left_of_dealer_then_the_winner():
    rec = run(make_script([hand_2111()]))
    tricks = rec["hands"][0]["tricks"]
    assert tricks[0]["leader"] == 1
    for a, b in pairwise(tricks):
        assert b["leader"] == a["winner"]
        assert b["plays"][0]["seat"] == a["winner"]
    assert [t["winner"] for t in tricks] == [1, 1, 2, 3, 4]
    # seat 1 passes: seat 2 is the first active to the dealer's left
    deck = script_deck({}, 0, 5)
    script = complete(make_script([make_hand(deck, decisions(0, 5, {2: "play", 4: "play"}))]))
    rec = run(script)
    assert rec["hands"][0]["tricks"][0]["leader"] == 2


def test_R_LEAD_only_active_players_play():
    rec = run(make_script([hand_2111()]))
    for t in rec["hands"][0]["tricks"]:
        assert [p["seat"] for p in t["plays"]] == [(t["leader"] - 1 + k) % 4 + 1 for k in range(4)]
    hand = hand_2111()
    hand["plays"][1] = {"seat": 0, "card": "6C"}  # the dealer passed
    refused(make_script([hand]), "hand 1, play 2", "R-LEAD")


def test_R_LEAD_leading_is_free():
    assert S(follow(M("AS 2H 3D 4C"), [], SPADES)) == {"AS", "2H", "3D", "4C"}
