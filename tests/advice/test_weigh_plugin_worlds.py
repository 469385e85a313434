"""The deals of the review and of advice during the hand (:mod:`bourre.advice.weigh`) for
a house with a plugin's rule (issue 41, "the solver, advise, chart and --review use the
same path"): the kernel draws them (``sample_worlds``: a plugin's rules of the play, its
decisions or draw, its ante, next dealer or settlement, ``rollouts.WORLD_HOOKS``) and
its solver solves each where it was drawn (``dd_solve_stepper``: the plain search for a
plugin's follow rule, cinch or trick winner, asking them through Python).

The differential: each deal the kernel drew, rebuilt on the Python rules
(``weigh._python_world``), has the same cards in every playing hand, and the Python
search gives every legal card the same chips as the kernel's solver.  ``weigh`` then
draws every deal on the kernel (a spy)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from conftest import plugin

from bourre import kernel
from bourre.advice import kernel_solver
from bourre.advice import weigh as weigh_module
from bourre.advice.solver import solve
from bourre.advice.weigh import _alike, _python_world, engine_of, weigh
from bourre.houses.house import House
from bourre.kernel import _kernel, rollouts
from bourre.kernel.rollouts import sample_worlds
from bourre.kernel.state import _money
from bourre.rules.plugins import load_registry
from tests.kernel.test_plugin_card_hooks import DealerLast
from tests.kernel.test_plugin_decisions import VARIANTS
from tests.kernel.test_plugin_hand_hooks import WinnerPaysThird
from tests.kernel.test_plugin_hooks import LowWins, SuitOnly
from tests.kernel.test_worlds_plugin_follow import _views

pytestmark = pytest.mark.skipif(not kernel.available(), reason="the compiled kernel is not built")

REGISTRY = load_registry(
    extra=[
        (c.name, plugin(c.name, c))
        for c in (DealerLast, WinnerPaysThird, LowWins, SuitOnly, *VARIANTS)
    ]
)

HOUSES = [
    "standard+suit-only+table(players=4)",
    "low-wins+table(players=3)",
    "dealer-last+table(players=4)",
    "standard+three-max+ace-may-pass+table(players=5)",
    "standard+winner-pays+table(players=4)",
]


@pytest.mark.parametrize("spec", [x for x in HOUSES if "three-max" not in x])
def test_the_kernels_deals_rebuilt_on_the_python_rules_are_the_same_deals(spec: str) -> None:
    """Every playing hand the same cards, and every legal card the same chips from the
    Python search (plain for a plugin's rule of the play) as from the kernel's solver.
    (A plugin's decisions or draw: its worlds are the Python replay's,
    tests/kernel/test_worlds_plugin_decisions.py, and the solver starts at the tricks;
    the kernel does not keep which cards each seat drew there, so the deal is not
    rebuilt on the Python rules: weigh solves it on the kernel, below.)"""
    h = House(spec, registry=REGISTRY)
    assert kernel.can_play(h, hooks=rollouts.LOAD_HOOKS) is None or "+" in spec
    assert kernel.can_play(h, hooks=rollouts.WORLD_HOOKS) is None
    facts = kernel_solver._facts(h)
    assert isinstance(facts, dict)
    amount = _money(facts["scale"])
    checked = 0
    for k, (st, seat) in enumerate(_views(h, range(3))):
        if k % 2:
            continue
        view = st.observation(seat)
        plain = engine_of(st).endswith("-plain")
        worlds = sample_worlds(h, view, 2, random.Random(k), keep=_alike, fold=_alike)
        if worlds is None:  # (a replacement from reshuffled discards: the Python rules')
            continue
        for w in worlds:
            python = _python_world(h, view, w)
            assert python is not None
            for s in python.hand.active:
                assert tuple(sorted(python.hand.hands[s])) == tuple(w.hand(s)), (k, s)  # type: ignore[attr-defined]
            solved = _kernel.dd_solve_stepper(w)
            assert solved is not None
            by_kernel = [(c, amount(chips[seat])) for c, _, _, chips in solved[0]]
            by_python = [(v.card, v.chips) for v in solve(python, plain=plain).values]
            assert by_kernel == by_python, (spec, k)
            checked += 1
    assert checked >= 4


def test_weigh_draws_every_deal_on_the_kernel(monkeypatch: pytest.MonkeyPatch) -> None:
    """``weigh`` (the review, advice during the hand) of a plugin's follow rule and of a
    plugin's draw: every deal drawn by the kernel, none by the Python rules."""
    python: list[Any] = []
    real = weigh_module.sample_world
    monkeypatch.setattr(
        weigh_module, "sample_world", lambda *a, **k: python.append(a) or real(*a, **k)
    )
    for spec in (HOUSES[0], HOUSES[3]):
        h = House(spec, registry=REGISTRY)
        st, _seat = _views(h, range(1))[0]
        got = weigh(st, deals=30, key="weigh", need_known=False)
        assert got.found > 0 and got.tried == 30, spec
        assert got.engine.startswith("kernel") and got.known is not None, spec
        # (every deal's values from the kernel's solver, beside the values with every
        # hand known: the true deal is one of those the seat could imagine)
        assert set(got.each) == set(got.legal), spec
    assert python == []
