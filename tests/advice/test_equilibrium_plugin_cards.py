"""The equilibrium chart of a house whose plugin answers the lead (R-LEAD), the cinch
(R-SURE … R-CINCH-LAST) or the trick winner (R-TRICK; issue 41, "one engine, open to
plugins"): its deals are the kernel's worlds loaded from a Python state
(``heuristic_outcomes`` with the decision table, ``rollouts.LOAD_HOOKS``), which ask the
plugin's checked lead at every trick's start, its cinch for every card played and its
trick winner at every trick's end and for every card the heuristic bot weighs
(``bourre.advice.equilibrium.HOOKS``).

The differential: a plugin whose lead and cinch are the standard ones (``Spy``) gives
the built-in house's chart exactly, cell for cell and figure for figure, on the same
seed (the kernel asked the plugin all along: its calls are written down).  A plugin's
own lead (dealer-last: an order no rotation gives), cinch (low-cinch) and trick winner
(low-wins) give charts of their own, which say which plugin rule was asked, on the command line too.  A cinch
whose cards come out of the hand's order is one clear ChartError (exit 2).  The advice
batches ask the same rules (``rollouts.ADVICE_HOOKS``): their rows are the Python rules'
on the same deals.  Tiny budgets (3 players, a few hundred deals)."""

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
from bourre.kernel.hooks import HAND_HOOKS, SESSION_HOOKS
from tests.advice.test_equilibrium_plugin_money import _figures
from tests.advice.test_plugin_money import _batch, python_rows
from tests.kernel.test_plugin_card_hooks import SEEN, CinchBackwards, DealerLast, LowCinch, Spy
from tests.kernel.test_plugin_hooks import LowWins

KERNEL = rollouts._CHARTS and os.environ.get("BOURRE_ENGINE", "") != "python"
pytestmark = pytest.mark.skipif(not KERNEL, reason="the equilibrium chart plays on the kernel")

THREE = "+table(players=3)"
runner = CliRunner()


@pytest.fixture
def registry(monkeypatch: pytest.MonkeyPatch) -> Any:
    """The lead and cinch plugins, registered in process as the default registry (as an
    installed plugin is)."""
    return install(monkeypatch, Spy, DealerLast, LowCinch, CinchBackwards, LowWins)


def _chart(spec: str) -> EquilibriumChart:
    return equilibrium_chart(spec + THREE, rounds=2, deals=120, check=120, seed=5)


def test_a_lead_and_cinch_that_are_the_built_in_ones_give_the_same_chart(
    registry: Any,
) -> None:
    """The standard lead and cinch asked through Python at every trick's start and for
    every card of every played-out hand give every cell, every count of decisions met and
    every figure of how far the chart can be beaten of the built-in house, exactly."""
    h = House.from_arg(f"spy{THREE}")
    assert python_hooks(h) == ("spy (bourre_lead)", "spy (bourre_cinch)")
    SEEN.clear()
    got = equilibrium_chart(h, rounds=2, deals=120, check=120, seed=5)
    assert {x[0] for x in SEEN} >= {"lead", "has"}  # (asked, not the built-in rules)
    assert got.asked == ("spy (bourre_lead)", "spy (bourre_cinch)")
    assert got.lines()[1] == (
        "Played out on the compiled kernel, which asks the plugin for spy's lead at every"
        " trick's start and for spy's cinch for every card played."
    )
    assert _figures(got) == _figures(_chart("standard"))


@pytest.mark.parametrize(
    ("spec", "words"),
    [
        ("dealer-last", "asks the plugin for dealer-last's lead at every trick's start."),
        ("standard+low-cinch", "asks the plugin for low-cinch's cinch for every card played."),
        (
            "standard+low-wins",
            "asks the plugin for low-wins's trick winner for every trick and for every card a"
            " player weighs.",
        ),
    ],
)
def test_the_command_charts_a_lead_cinch_or_winner_house(
    registry: Any, spec: str, words: str
) -> None:
    """``bourre chart HOUSE --equilibrium`` plays a plugin's lead, cinch or trick winner
    on the kernel and says which plugin rule it asked."""
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
    assert r.exit_code == 0, r.output
    assert words in r.stdout, r.output
    assert "Traceback" not in r.output


def test_a_cinch_out_of_the_hands_order_is_one_clear_error(registry: Any) -> None:
    """R-SURE: a cinch whose cards come highest first is not the kernel's to hold: no
    chart made with another order, one ChartError saying why; exit 2 on the command line."""
    with pytest.raises(ChartError) as e:
        _chart("cinch-backwards")
    assert e.value.field == "equilibrium"
    assert str(e.value).startswith(
        "cinch-backwards's cinch answered what the kernel does not hold in a played-out"
        " hand: legal cards out of the hand's order (R-SURE); the equilibrium chart"
    )
    r = runner.invoke(
        app,
        ["chart", f"cinch-backwards{THREE}", "--equilibrium", "--deals", "30", "--no-progress"],
    )
    assert r.exit_code == 2 and "cinch-backwards's cinch answered" in r.stderr, r.output
    assert "Traceback" not in r.output


@pytest.mark.parametrize(
    "spec",
    [
        "dealer-last+table(players=4)",
        "standard+low-cinch+table(players=3)",
        "spy+four-card",
        "low-wins+table(players=3)",
    ],
)
def test_the_kernels_advice_rows_of_a_plugins_lead_or_cinch_are_the_python_rules(
    registry: Any, spec: str
) -> None:
    """The advice batches (``bourre advise``, the strategy chart) ask the same rules
    (ADVICE_HOOKS): every option of every deal, the same pot taker, bourré and chips as
    the same deals played card by card on the Python rules."""
    h = House(spec)
    # (and a plugin's decisions and draw: tests/advice/test_plugin_decisions_rows.py; its
    # ante, next dealer and settlement: tests/advice/test_plugin_hand_hooks_rows.py)
    assert rollouts.ADVICE_HOOKS == (*rollouts.LOAD_HOOKS, *SESSION_HOOKS, *HAND_HOOKS)
    args = _batch(h, 40)
    k = rollouts.decision_rows(h, *args)
    assert k is not None
    p = python_rows(h, *args)
    assert k.status == p.status and k.flat == p.flat


def test_advice_rows_of_a_cinch_out_of_the_hands_order_are_the_python_rules(
    registry: Any,
) -> None:
    """R-SURE: a batch whose played-out hands meet a cinch given highest card first is
    handed to the Python rules (``None``), never played on with another order."""
    h = House("cinch-backwards+table(players=3)")
    assert rollouts.decision_rows(h, *_batch(h, 40)) is None
