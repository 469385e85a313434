"""The Monte Carlo bot's worlds of a house whose plugin answers the decisions (R-DECIDE …)
or the draw (R-DRAW, R-RESHUFFLE), on the compiled kernel (issue 41, "the solver,
advise, chart and --review use the same path"): a world of the Python rules
(``sample_world``, which honours the plugin's rules) in the tricks of its one hand is
loaded into the kernel and rolled out there (``heuristic_rollouts``): no card of the
tricks asks the decisions or the draw, so the kernel is told the house without them
(``rollouts.TRICKS_HOOKS``).  Each candidate's money is the Python rollout's
(``MonteCarloPlayer._rollout``) exactly, with a money plugin beside too.  A world still
in the decisions or the exchange is the Python rules' (``None``), and the kernel's own
sampling and replay, which step the decisions in C++, refuse such a house.  Skipped
when the extension is not built."""

from __future__ import annotations

import random

import pytest
from conftest import plugin

from bourre import kernel
from bourre.game.worlds import sample_world
from bourre.houses.house import House
from bourre.kernel import rollouts
from bourre.kernel.rollouts import heuristic_outcomes, heuristic_rollouts, sample_worlds
from bourre.rules.plugins import load_registry
from bourre_bots.heuristic import fold_weight, keep_weight
from bourre_bots.montecarlo import MonteCarloPlayer
from tests.kernel.test_plugin_decisions import VARIANTS
from tests.kernel.test_plugin_hooks import split_pot
from tests.kernel.test_worlds_plugin_follow import _candidates, _views

pytestmark = pytest.mark.skipif(
    not rollouts._OUTCOMES, reason="the compiled kernel is not built (or older than its worlds)"
)

REGISTRY = load_registry(
    extra=[("split-pot", split_pot()), *[(c.name, plugin(c.name, c)) for c in VARIANTS]]
)


def house(spec: str) -> House:
    return House(spec, registry=REGISTRY)


@pytest.mark.parametrize(
    "spec",
    [
        "standard+their-reveal+table(players=4)",
        "standard+three-max+table(players=5)",
        "dealer-capped+split-pot+table(players=6)",
    ],
)
def test_a_worlds_rollouts_in_the_tricks_are_the_python_rollouts(spec: str) -> None:
    h = house(spec)
    assert kernel.can_play(h, hooks=rollouts.LOAD_HOOKS) is not None
    assert kernel.can_play(h, hooks=rollouts.TRICKS_HOOKS) is None
    compared = 0
    for i, (state, seat) in enumerate(_views(h, range(3))):
        view = state.observation(seat)
        rng = random.Random(i)
        world = sample_world(
            h, view, rng, keep=keep_weight(view.trump), fold=fold_weight(view.trump)
        )
        if world is None:
            continue
        cards = _candidates(world, seat)
        mc = MonteCarloPlayer(1, house=h, engine="python")
        python = [mc._rollout(world, a, seat) for a in cards]
        got = heuristic_rollouts(world, cards, seat, rng)
        assert got is not None, (spec, i)  # (the kernel's rollouts, not handed over)
        assert got == python, (spec, i)
        outcomes = heuristic_outcomes(world, cards, seat, rng)
        assert outcomes is not None and [o.chips for o in outcomes] == python
        compared += 1
    assert compared > 5


def test_a_world_before_the_tricks_is_the_python_rules() -> None:
    """In the decisions or the exchange the plugin's rules are still to be asked: the
    kernel does not roll such a world out, nor sample worlds of its own for the house."""
    h = house("standard+three-max+table(players=4)")
    seen = 0
    for phase in ("decide", "exchange"):
        for i, (state, seat) in enumerate(_views(h, range(2), phase)):
            view = state.observation(seat)
            world = sample_world(h, view, random.Random(i))
            if world is None:
                continue
            assert (
                heuristic_rollouts(world, _candidates(world, seat), seat, random.Random(i)) is None
            )
            keep, fold = keep_weight(view.trump), fold_weight(view.trump)
            assert sample_worlds(h, view, 2, random.Random(i), keep=keep, fold=fold) is None
            seen += 1
    assert seen > 2
