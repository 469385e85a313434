"""The equilibrium chart of a house whose plugin answers the follow rule (R-FOLLOW,
R-TRUMP, R-DISCARD; issue 41, "the solver, advise, chart and --review use the same
path"): its deals are the kernel's worlds loaded from a Python state
(``heuristic_outcomes`` with the decision table, ``rollouts.LOAD_HOOKS``), which ask the
plugin's checked follow rule through Python for every card played, as the advice
batches do (``bourre.advice.equilibrium.HOOKS``).

The differential: a plugin that is the standard obligations gives the built-in house's
chart exactly, cell for cell and figure for figure, on the same seed (the kernel asked
the plugin all along: its calls are counted).  The plugin suit-only (follow suit, no
obligation to trump or to beat) gives a chart of its own, which says the follow rule was
asked.  A follow rule whose cards come out of the hand's order (``hookkit.Backwards``)
is one clear ChartError (the chart has no Python path), on the command line too (exit
2).  Tiny budgets (3 players, a few hundred deals)."""

from __future__ import annotations

import os
from typing import Any

import pytest
from conftest import install
from typer.testing import CliRunner

from bourre.advice.chart import ChartError
from bourre.advice.equilibrium import EquilibriumChart, equilibrium_chart
from bourre.cli import app
from bourre.houses.house import House
from bourre.kernel import python_hooks, rollouts
from tests.advice.test_equilibrium_plugin_money import _figures
from tests.hookkit import FOLLOW_CALLS, Backwards, SameFollow
from tests.kernel.test_plugin_hooks import SuitOnly, split_pot

KERNEL = rollouts._CHARTS and os.environ.get("BOURRE_ENGINE", "") != "python"
pytestmark = pytest.mark.skipif(not KERNEL, reason="the equilibrium chart plays on the kernel")

THREE = "+table(players=3)"
runner = CliRunner()


@pytest.fixture
def registry(monkeypatch: pytest.MonkeyPatch) -> Any:
    """The follow plugins and split-pot, registered in process as the default registry
    (as an installed plugin is)."""
    return install(
        monkeypatch, SameFollow, SuitOnly, Backwards, modules=[("split-pot", split_pot())]
    )


def _chart(spec: str) -> EquilibriumChart:
    return equilibrium_chart(spec + THREE, rounds=3, deals=150, check=150, seed=5)


@pytest.fixture(scope="module")
def builtin() -> EquilibriumChart:
    return _chart("standard")


def test_a_follow_rule_that_is_the_built_in_one_gives_the_same_chart(
    registry: Any, builtin: EquilibriumChart
) -> None:
    """The standard obligations asked through Python for every card of every played-out
    hand give every cell, every count of decisions met and every figure of how far the
    chart can be beaten of the built-in house, exactly."""
    h = House.from_arg(f"standard+same-follow{THREE}")
    assert python_hooks(h) == ("same-follow (bourre_follow)",)
    FOLLOW_CALLS[0] = 0
    got = equilibrium_chart(h, rounds=3, deals=150, check=150, seed=5)
    assert FOLLOW_CALLS[0] > 1000  # (asked for every card, not the built-in rule)
    assert got.asked == ("same-follow (bourre_follow)",)
    assert _figures(got) == _figures(builtin)


def test_the_suit_only_chart_is_its_own_and_says_the_follow_rule_was_asked(
    registry: Any, builtin: EquilibriumChart
) -> None:
    """R-FOLLOW without R-TRUMP: nobody must trump or beat, so the played-out hands and
    the chart differ; a whole chart (every share a share) that says the kernel asked the
    plugin's follow rule for every card (and split-pot's payout beside it)."""
    got = _chart("standard+suit-only")
    assert got.asked == ("suit-only (bourre_follow)",)
    assert got.strategy.table is not None
    assert all(0.0 <= x <= 1.0 for row in got.strategy.table for place in row for x in place)
    assert got.exploitability is not None and builtin.exploitability is not None
    assert _figures(got) != _figures(builtin)
    lines = got.lines()
    assert lines[0].startswith("Equilibrium chart of standard+suit-only+table(players=3)")
    assert lines[1] == (
        "Played out on the compiled kernel, which asks the plugin for suit-only's follow"
        " rule for every card played."
    )
    assert got.as_dict()["asked_through_python"] == ["suit-only (bourre_follow)"]
    both = equilibrium_chart(f"suit-only+split-pot{THREE}", rounds=1, deals=60, check=None)
    assert both.lines()[1] == (
        "Played out on the compiled kernel, which asks the plugins for suit-only's follow"
        " rule for every card played and for split-pot's payout at the end of every hand"
        " played out (once for each different result of a hand)."
    )


def test_a_follow_rule_out_of_the_hands_order_is_one_clear_error(registry: Any) -> None:
    """R-FOLLOW: the standard obligations given highest card first are not the kernel's
    to hold: no chart made with another order, one ChartError saying why."""
    with pytest.raises(ChartError) as e:
        _chart("standard+backwards")
    assert e.value.field == "equilibrium"
    assert str(e.value).startswith(
        "backwards's follow answered what the kernel does not hold in a played-out hand:"
        " legal cards out of the hand's order (R-FOLLOW); the equilibrium chart"
    )


@pytest.mark.parametrize(
    ("spec", "code", "words"),
    [
        ("standard+suit-only", 0, "asks the plugin for suit-only's follow rule"),
        ("standard+backwards", 2, "bourre: --equilibrium: backwards's follow answered"),
    ],
)
def test_the_command(registry: Any, spec: str, code: int, words: str) -> None:
    r = runner.invoke(
        app,
        [
            "chart",
            spec + THREE,
            "--equilibrium",
            *("--rounds", "2", "--deals", "60", "--check", "60", "--no-progress"),
        ],
        env={"COLUMNS": "160", "NO_COLOR": "1"},
    )
    assert r.exit_code == code, r.output
    assert words in (r.stdout if code == 0 else r.stderr), r.output
    assert "Traceback" not in r.output
