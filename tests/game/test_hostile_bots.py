"""Bots that spy and steal in process: a thief changes nothing it is shown, a spy finds no
hidden card, an illegal answer is refused with its rule."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bourre.game.players import IllegalAnswer, play_out
from bourre.game.state import State
from bourre.houses.house import House
from bourre_bots.random_bot import RandomPlayer

# -- bots ---------------------------------------------------------------------------------


class Thief(RandomPlayer):
    """Tries to change what it is shown: balances, its hand, the legal set."""

    attempts = 0

    def play(self, view: Any) -> int:
        for attack in (
            lambda: view.balances.__setitem__(view.seat, 1000),
            lambda: setattr(view, "balances", (1000,) * view.players),
            lambda: view.hand.append(0),
            lambda: setattr(view, "legal", tuple(range(52))),
        ):
            try:
                attack()
            except (TypeError, AttributeError):
                Thief.attempts += 1
        return super().play(view)


def test_a_thieving_bot_changes_nothing() -> None:
    house = House("standard")
    state = State(house, seed="thief")
    play_out(state, [Thief(random.Random(s)) for s in range(5)])
    assert Thief.attempts > 100
    assert sum(state.final[0]) == 500  # type: ignore[index]
    honest = State(house, seed="thief")
    play_out(honest, [RandomPlayer(random.Random(s)) for s in range(5)])
    assert state.final == honest.final  # the same game as honest bots with the same rng


def test_a_spying_bot_finds_no_hidden_card() -> None:
    import gc

    state = State(House("standard"), seed="spy")
    while state.phase_name != "play":
        state.apply_action(state.legal_actions()[-1])
    me = state.current_player()
    view = state.observation(me)
    reachable, todo = set(), [view]
    while todo:
        x = todo.pop()
        if id(x) in reachable or isinstance(x, type):
            continue
        reachable.add(id(x))
        todo.extend(gc.get_referents(x))
    assert id(state) not in reachable and id(state.hand) not in reachable
    for s in range(5):
        assert id(state.hand.hands[s]) not in reachable
    with pytest.raises(AttributeError):
        view.legal = tuple(range(52))  # type: ignore[misc]


def test_an_illegal_answer_is_refused_with_its_rule() -> None:
    class Cheat(RandomPlayer):
        def play(self, view: Any) -> int:
            return (
                next(c for c in range(52) if c not in view.legal and c in view.hand)
                if len(view.legal) < len(view.hand)
                else view.legal[0]
            )

    with pytest.raises(IllegalAnswer) as e:
        for seed in range(50):
            play_out(
                State(House("standard"), seed=seed), [Cheat(random.Random(s)) for s in range(5)]
            )
    assert e.value.rule.startswith("R-")


# -- a bot that raises (issue 42): named with its seat, its error kept as the cause ----------


class Boom(RandomPlayer):
    def play(self, view: Any) -> int:
        raise RuntimeError("bot boom")


class NamedBoom(RandomPlayer):
    name = "boomer"

    def choose(self, legal: Any) -> Any:
        raise ZeroDivisionError("blind boom")


@pytest.mark.parametrize(
    ("bot", "words"), [(Boom, "the bot Boom"), (NamedBoom, "the bot 'boomer' (NamedBoom)")]
)
def test_a_bot_that_raises_is_named_with_its_seat(bot: Any, words: str) -> None:
    import pickle

    from bourre.game.players import BotFailed

    state = State(House("standard"), seed="boom")
    players = [RandomPlayer(random.Random(s)) for s in range(5)]
    players[2] = bot(random.Random(2))
    with pytest.raises(BotFailed) as e:
        for _ in range(20):  # until seat 2 is asked
            play_out(state, players)
    assert f"seat 2: {words} failed while asked to act" in str(e.value)
    assert "boom" in str(e.value) and e.value.seat == 2
    assert isinstance(e.value.__cause__, (RuntimeError, ZeroDivisionError))
    assert str(pickle.loads(pickle.dumps(e.value))) == str(e.value)  # across processes
