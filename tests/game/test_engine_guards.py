"""The game owns the balances and the hands, checks every component's answers and
refuses garbage at its API (issue 29: in process, a bot cannot move chips or cards
unnoticed; a component that breaks the rules is stopped, named; the state API answers
bad arguments with a refusal or a ValueError and stays as it was)."""

from __future__ import annotations

import gc
import random
from fractions import Fraction
from typing import Any

import pytest
from conftest import plugin

from bourre.game import Game
from bourre.game.actions import PLAY, Deck
from bourre.game.observation import Observation
from bourre.game.players import IllegalAnswer, play_out
from bourre.game.state import State
from bourre.houses.house import House
from bourre.referee.table import TableState
from bourre.rules import DECIDE, Turn
from bourre.rules.hand import HandState
from bourre.rules.hookspec import PluginError
from bourre.rules.plugins import load_registry
from bourre.rules.settings import TableSettings
from bourre.rules.variant import Variant, hookimpl
from bourre_bots.random_bot import RandomPlayer


class Thief:
    """A bot that finds the game through the garbage collector and moves a chip from
    seat 1 to itself before answering (the total stays the same)."""

    def __init__(self) -> None:
        self.stole = False

    def act(self, view: Observation) -> Any:
        if not self.stole:
            for obj in gc.get_objects():
                if (
                    type(obj) is State
                    and obj.chance_wants != "deal"
                    and tuple(obj.hand.hands[view.seat]) == view.hand
                    and tuple(obj.balances) == view.balances
                ):
                    held = vars(obj)["_balances"]  # (what a cheat reaches with gc)
                    held[view.seat] += 1
                    held[(view.seat + 1) % obj.n] -= 1
                    self.stole = True
                    break
        return view.legal_actions[-1]


def test_a_bot_that_moves_chips_in_process_is_stopped_and_named() -> None:
    # the Python rules' state (the kernel's keeps its chips in C++, out of a bot's reach)
    gc.collect()  # (the states earlier tests left: the thief finds this one)
    state = Game("standard", engine="python").new_session(seed=3)
    bots: list[Any] = [RandomPlayer(random.Random(s)) for s in range(5)]
    bots[2] = Thief()
    with pytest.raises(IllegalAnswer) as e:
        play_out(state, bots)
    assert e.value.seat == 2 and "Thief" in str(e.value) and "balances" in str(e.value)


class CardSwapper:
    """A bot that swaps a card of its hand with one of another seat's."""

    def act(self, view: Observation) -> Any:
        for obj in gc.get_objects():
            if type(obj) is HandState and tuple(obj.hands[view.seat]) == view.hand:
                other = (view.seat + 1) % obj.n
                if obj.hands[other]:
                    obj.hands[view.seat][0], obj.hands[other][0] = (
                        obj.hands[other][0],
                        obj.hands[view.seat][0],
                    )
                    break
        return view.legal_actions[-1]


def test_a_bot_that_swaps_cards_in_process_is_stopped() -> None:
    state = Game("standard", engine="python").new_session(seed=4)
    bots: list[Any] = [RandomPlayer(random.Random(s)) for s in range(5)]
    bots[0] = CardSwapper()
    with pytest.raises(IllegalAnswer) as e:
        play_out(state, bots)
    assert e.value.seat == 0 and "hands" in str(e.value)


def _house(hook: str, component: Any) -> House:
    def answer(self: Variant, table: TableSettings) -> Any:
        return component

    cls = type("Odd", (Variant,), {"name": "odd", "summary": "test", hook: hookimpl(answer)})
    return House("odd", registry=load_registry(extra=[("odd", plugin("odd", cls))]))


class SixCards:
    """A deal that gives six cards each in a five-card house."""

    def deal(self, deck: Any, dealer: int, n: int) -> Any:
        hands = [sorted(deck[6 * s : 6 * s + 6]) for s in range(n)]
        up = hands[dealer][-1]
        return hands, up, list(deck[6 * n :])

    def check_hand(self, *args: Any) -> None:
        return None


def test_a_deal_of_the_wrong_size_is_stopped_naming_the_plugin() -> None:
    with pytest.raises(PluginError) as e:
        Game(_house("bourre_deal", SixCards())).new_session(seed=1)
    assert e.value.plugin == "odd" and e.value.hook == "bourre_deal"


class Stuck:
    """Decisions that never let the hand go on: always seat 1's turn, never moving."""

    announcements = True

    def turn(self, hand: HandState) -> Turn:
        return Turn(1, DECIDE)

    def decide(self, hand: HandState, seat: int, play: bool) -> None:
        return None

    def exchanged(self, hand: HandState, seat: int, discards: Any) -> None:
        return None


def test_decisions_that_never_end_are_stopped_naming_the_plugin() -> None:
    state = Game(_house("bourre_decisions", Stuck())).new_session(seed=1)
    with pytest.raises(PluginError, match=r"odd.*bourre_decisions.*do not end"):
        for _ in range(1000):
            state.apply_action(PLAY)


class Floats:
    """Antes as floats (money would no longer be exact)."""

    def hand_antes(self, n: int, ante: Any, previous: Any, dealer: int) -> list[Any]:
        return [1.0] * n

    def play_ante(self, ante: Any) -> Any:
        return 0

    def reasons(self, *args: Any) -> tuple[Any, ...]:
        return ()


def test_floats_are_not_money() -> None:
    with pytest.raises(PluginError, match="amounts"):
        Game(_house("bourre_ante", Floats())).new_session(seed=1)


@pytest.mark.parametrize(
    "deck",
    [
        tuple(range(52, 104)),  # cards that do not exist (trump suit 5)
        tuple(range(51)),  # a card short
        (*range(51), 0),  # a card twice
        (*range(51), True),  # a bool is no card
        (*range(51), 51.0),  # nor is a float
    ],
)
def test_the_state_refuses_a_deck_that_is_not_the_52_cards(deck: tuple[Any, ...]) -> None:
    state = Game("standard").new_session()
    with pytest.raises(Exception) as e:
        state.apply_chance(Deck(deck))
    assert getattr(e.value, "rule", None) == "R-DECK"
    assert state.history() == [] and state.is_chance_node()


@pytest.mark.parametrize(
    ("kwargs", "words"),
    [
        ({"first_dealer": 99}, "no seat 99"),
        ({"balances": [100.0] * 5}, "exact amount"),
        ({"balances": [100] * 4}, "4 given for 5"),
    ],
)
def test_new_session_refuses_bad_arguments(kwargs: dict[str, Any], words: str) -> None:
    with pytest.raises(ValueError, match=words):
        Game("standard").new_session(**kwargs)


def test_new_hand_refuses_a_negative_pot() -> None:
    with pytest.raises(ValueError, match="pot"):
        Game("standard").new_hand(pot=-5)
    assert Game("standard").new_hand(pot=Fraction(5, 2)).pot == Fraction(5, 2)


@pytest.mark.parametrize("garbage", [999999, "AS", None, ("card", 3)])
def test_apply_action_refuses_a_non_action_unchanged(garbage: object) -> None:
    state = Game("standard").new_session(seed=1)
    before = state.history()
    with pytest.raises(Exception) as e:
        state.apply_action(garbage)  # type: ignore[arg-type]
    assert getattr(e.value, "rule", "").startswith("R-")
    assert state.history() == before


def test_mark_premature_refuses_a_seat_that_is_not_there() -> None:
    table = TableState(Game("standard", engine="python").new_session(seed=1))
    with pytest.raises(Exception) as e:
        table.mark_premature(99)
    assert getattr(e.value, "rule", None) == "R-SEAT"


class RaisingFollow:
    def legal(self, hand: Any, trick: Any, trump: int) -> Any:
        raise KeyError("no such suit")


def test_check_with_a_plugin_that_raises_is_one_message(monkeypatch: pytest.MonkeyPatch) -> None:
    """``bourre check`` on a house whose plugin raises: one message naming the plugin and
    the hook, exit status 2, no traceback."""
    from typer.testing import CliRunner

    import bourre.houses.house as house_module
    from bourre.cli import app

    def answer(self: Variant, table: TableSettings) -> Any:
        return RaisingFollow()

    cls = type(
        "Raising",
        (Variant,),
        {"name": "raising", "summary": "t", "bourre_follow": hookimpl(answer)},
    )
    registry = load_registry(extra=[("raising", plugin("raising", cls))])
    monkeypatch.setattr(house_module, "default_registry", lambda: registry)
    r = CliRunner().invoke(app, ["check", "--house", "raising", "--trump", "S", "--hand", "AH 2C"])
    assert r.exit_code == 2, r.output
    assert "plugin 'raising'" in r.stderr and "bourre_follow" in r.stderr
    assert "Traceback" not in r.output + r.stderr
