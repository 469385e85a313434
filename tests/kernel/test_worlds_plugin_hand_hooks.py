"""The Monte Carlo bot's and the charts' worlds of a house whose plugin answers a
per-hand hook (issue 41): a Python world of one hand (``sample_world``, never settled)
is loaded into the kernel and rolled out there with a plugin's ante (its play ante asked
through Python when the tricks start, R-DOUBLE-ANTE), next dealer (never asked: no hand
follows, R-DEALER) and settlement (never asked of a world that does not settle,
R-SETTLE; a one-hand session that settles is the Python rules'):
``rollouts.ONE_HAND_HOOKS``.  Each candidate's money is the Python rollout's
(``MonteCarloPlayer._rollout`` of the world with the kernel's draws) exactly, at a
decision, an exchange and in the tricks.  Skipped when the extension is not built."""

from __future__ import annotations

import random
from typing import Any

import pytest
from conftest import plugin

from bourre import kernel
from bourre.game import Game
from bourre.game.state import State
from bourre.houses.house import House
from bourre.kernel import rollouts
from bourre.kernel.rollouts import heuristic_rollouts
from bourre.rules.money import Amount
from bourre.rules.plugins import load_registry
from bourre.rules.settings import TableSettings
from bourre.rules.variant import Variant, hookimpl
from bourre_bots.montecarlo import MonteCarloPlayer
from tests.kernel.test_plugin_hand_hooks import (
    DealerAntesTwo,
    LeaderTakesPot,
    TwoLeft,
    WinnerPaysThird,
)
from tests.kernel.test_worlds_plugin_decisions import _known
from tests.kernel.test_worlds_plugin_follow import replayed_rollouts, sampled_worlds

pytestmark = pytest.mark.skipif(
    not rollouts._OUTCOMES, reason="the compiled kernel is not built (or older than its worlds)"
)


class NeverSettles(Variant):
    """A settlement that fails the test if it is ever asked (a world is never settled,
    R-SETTLE; the sessions that make the views end before it)."""

    name = "never-asked"
    summary = "A settlement never asked of a world."
    builds_on = ("standard",)

    @hookimpl
    def bourre_settle(self, table: TableSettings) -> Any:
        def settle(balances: list[Amount], pot: Amount) -> Any:
            raise AssertionError("a world of one hand was settled")

        return settle


REGISTRY = load_registry(
    extra=[
        (c.name, plugin(c.name, c))
        for c in (DealerAntesTwo, WinnerPaysThird, TwoLeft, LeaderTakesPot, NeverSettles)
    ]
)


def house(spec: str) -> House:
    return House(spec, registry=REGISTRY)


@pytest.mark.parametrize(
    "spec",
    [
        "standard+winner-pays+table(players=4)",
        "standard+dealer-antes+two-left+leader-takes+table(players=5)",
        "pot-limit(limit=3)+winner-pays+leader-takes+table(players=3)",
    ],
)
def test_a_worlds_rollouts_with_a_plugins_hand_hooks_are_the_python_rollouts(spec: str) -> None:
    """R-DOUBLE-ANTE, R-DEALER, R-SETTLE: at a decision, an exchange and in the tricks,
    each candidate's money is the Python rollout's exactly (the play ante of half a
    chip, winner-pays, moves it: the plugin's, asked through Python)."""
    h = house(spec)
    assert kernel.can_play(h, hooks=rollouts.LOAD_HOOKS) is not None
    assert kernel.can_play(h, hooks=(*rollouts.LOAD_HOOKS, *rollouts.ONE_HAND_HOOKS)) is None
    phases: set[str] = set()
    for world, seat, rng in sampled_worlds(h, range(2), ("decide", "exchange", "play")):
        assert not world.settles and world.hands_total == 1
        cards = world.legal_actions()[:8]
        make = _known(world, rng)
        mc = MonteCarloPlayer(1, house=h, engine="python")
        python = [mc._rollout(make(), a, seat) for a in cards]
        got = heuristic_rollouts(world, cards, seat, rng)
        assert got is not None, (spec, world.phase_name)  # (the kernel's, not handed over)
        assert got == python, (spec, world.phase_name)
        phases.add(world.phase_name)
    assert phases == {"decide", "exchange", "play"}


def test_a_one_hand_session_that_settles_is_the_python_rules() -> None:
    """R-SETTLE: a one-hand session settles at its end (its returns share the pot left,
    or the plugin's settlement decides them), which the kernel's rollouts of a hand's
    money do not: ``None``, the Python rules roll it out.  A hand from a given position
    never settles: the kernel's, a plugin's settlement never asked."""
    for spec in ("standard+leader-takes", "standard"):
        h = house(f"{spec}+table(players=4,hands=1)")
        state = Game(h, engine="python").new_session(seed=3)
        assert type(state) is State and state.settles and state.hands_total == 1
        hand = Game(h, engine="python").new_hand(seed=3)
        assert type(hand) is State and not hand.settles
        for s in (state, hand):
            while s.is_chance_node():
                s.apply_chance(s.chance_outcomes()[0][0])
        seat = state.current_player()
        assert heuristic_rollouts(state, state.legal_actions(), seat, random.Random(0)) is None
        seat = hand.current_player()
        assert heuristic_rollouts(hand, hand.legal_actions(), seat, random.Random(0)) is not None


@pytest.mark.parametrize(
    "spec",
    [
        "standard+winner-pays+table(players=4)",
        "standard+dealer-antes+two-left+leader-takes+table(players=5)",
        "winner-pays+never-asked+table(players=3)",
    ],
)
def test_kernel_replayed_worlds_are_the_python_worlds(spec: str) -> None:
    """The same samples replayed by the kernel (the plugin's play ante asked when the
    replayed tricks start, its next dealer and settlement never: WORLD_HOOKS) and by the
    Python rules: refused alike, and in the tricks the same rollouts exactly; the kernel
    samples worlds of its own."""
    h = house(spec)
    assert kernel.can_play(h, hooks=rollouts.WORLD_HOOKS) is None
    compared, _ = replayed_rollouts(h)
    assert compared > 5
