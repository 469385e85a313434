"""The bots' base (:class:`PlayerBase`): its own answers, a wrong type refused, a
subclass of a built-in bot asked its own way."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from bourre.game.observation import Observation
from bourre.game.players import IllegalAnswer, PlayerBase, play_out
from bourre.game.state import State
from bourre.houses.house import House
from bourre_bots.heuristic import HeuristicPlayer

# -------------------------------------------------------------------- PlayerBase


def test_the_player_base_alone_plays_every_hand_pat_and_low() -> None:
    """PlayerBase's own answers: play, stand pat, the lowest legal card."""
    seen = []

    class Watching(PlayerBase):
        def play(self, view: Observation) -> int:
            seen.append((view.legal, super().play(view)))
            return super().play(view)

    state = State(House("standard"), seed=7)
    play_out(state, [PlayerBase(), PlayerBase(), Watching(), PlayerBase(), PlayerBase()])
    assert state.is_terminal() and sum(state.returns()) == 0
    for r in state.results:
        assert len(r.state.active) == 5 and r.state.gave == [()] * 5  # all play, stand pat
    assert seen and all(card == min(legal) for legal, card in seen)


class WrongType(PlayerBase):
    def decide(self, view: Observation) -> bool:
        return True

    def discard(self, view: Observation) -> Sequence[int]:
        return ()

    def play(self, view: Observation) -> int:
        return "AS"  # type: ignore[return-value]


def test_a_player_base_answering_the_wrong_type_is_refused_not_crashed() -> None:
    state = State(House("standard"), seed=3)
    with pytest.raises(IllegalAnswer) as err:
        play_out(state, [WrongType() for _ in range(5)])
    assert err.value.rule == "R-DECK" and "is not a card" in str(err.value)


class Stubborn(HeuristicPlayer):
    """A subclass of a built-in bot: always plays, else the heuristic."""

    def decide(self, view: Observation) -> bool:
        return True


def test_a_subclass_of_a_built_in_bot_is_asked_its_own_way() -> None:
    house = House("standard")
    state = State(house, seed=5)
    play_out(state, [Stubborn(random.Random(s)) for s in range(5)])
    for r in state.results:
        assert len(r.state.active) == 5  # nobody ever passed
