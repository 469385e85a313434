"""The equilibrium chart of a house whose only plugin rules are money rules (issue 41,
"the solver, advise, chart and --review use the same path"): its deals are the kernel's
worlds (``heuristic_outcomes`` with the decision table), which ask a plugin's penalty
(R-BOURRE) or payout (R-WIN, R-SOLE, R-BOURRE) through Python at the end of every
played-out hand, so the chart plays such a house (``bourre.advice.equilibrium.HOOKS``).

The differential: a plugin whose payout (or penalty) is the built-in one gives the
built-in house's chart exactly, cell for cell and figure for figure, on the same seed
(the kernel asked the plugin all along: its calls are counted).  The example plugin
split-pot (docs/examples/bourre-split-pot, R-SPLIT-POT: a tie splits the pot) gives a
chart of its own, which says the plugin was asked.  A plugin's rule the deals do not ask
(a deal, R-DEAL: a deal of the chart is dealt from its own shuffle) is refused naming
the option and the hook (a follow rule is asked: test_equilibrium_plugin_follow; a
lead, a cinch and a trick winner: test_equilibrium_plugin_cards; the decisions, the
draw, an ante, a next dealer and a settlement: test_equilibrium_plugin_decisions); a hostile plugin (raising, or
answering an amount the kernel's units do not hold) gives one clear error, never a
traceback nor a chart made with a rounded amount.  Tiny budgets (3 players, a few
hundred deals)."""

from __future__ import annotations

import importlib
import json
import os
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from conftest import install
from hookkit import Elevenths
from typer.testing import CliRunner

from bourre.advice.chart import ChartError
from bourre.advice.equilibrium import HOOKS, EquilibriumChart, equilibrium_chart
from bourre.cli import app
from bourre.houses.house import House
from bourre.kernel import python_hooks, rollouts
from bourre.rules import HandOutcome, PlayResult
from bourre.rules.hookspec import PayoutFn, PenaltyFn, PluginError
from bourre.rules.money import Amount
from bourre.rules.settings import TableSettings
from bourre.rules.variant import Variant, hookimpl
from bourre_variants.standard.deal import StandardDeal
from bourre_variants.standard.payout import full_pot
from bourre_variants.standard.payout import payout as standard_payout
from tests.hookkit import boom

KERNEL = rollouts._CHARTS and os.environ.get("BOURRE_ENGINE", "") != "python"
pytestmark = pytest.mark.skipif(not KERNEL, reason="the equilibrium chart plays on the kernel")

ROOT = Path(__file__).resolve().parents[2]
SPLIT_POT = ROOT / "docs" / "examples" / "bourre-split-pot" / "src"
THREE = "+table(players=3)"
runner = CliRunner()

CALLS = {"payout": 0, "penalty": 0}
"""How many times the kernel asked the plugins below (the differential's proof that
they were asked, not the built-in rule)."""


class SamePayout(Variant):
    """The standard payout, answered by a plugin (R-WIN, R-SOLE, R-BOURRE)."""

    name = "same-payout"
    summary = "The standard payout, from a plugin."
    builds_on = ("standard",)

    @hookimpl
    def bourre_payout(self, table: TableSettings) -> PayoutFn:
        def payout(result: PlayResult, penalty: PenaltyFn) -> HandOutcome:
            CALLS["payout"] += 1
            return standard_payout(result, penalty)

        return payout


class SamePenalty(Variant):
    """The standard penalty (a bourré player pays the pot, R-BOURRE), from a plugin."""

    name = "same-penalty"
    summary = "A bourré player pays the pot, from a plugin."
    builds_on = ("standard",)

    @hookimpl
    def bourre_penalty(self, table: TableSettings) -> PenaltyFn:
        def penalty(pot: Amount) -> Amount:
            CALLS["penalty"] += 1
            return full_pot(pot)

        return penalty


class AnyDeal(Variant):
    """The standard deal, from a plugin (R-DEAL): a rule the chart's deals do not ask."""

    name = "any-deal"
    summary = "The standard deal, from a plugin."
    builds_on = ("standard",)

    @hookimpl
    def bourre_deal(self, table: TableSettings, hand_size: int) -> Any:
        return StandardDeal(hand_size)


class Boom(Variant):
    """A payout with a bug of its own."""

    name = "boom"
    summary = "A payout that raises."
    builds_on = ("standard",)

    @hookimpl
    def bourre_payout(self, table: TableSettings) -> PayoutFn:
        return boom


@pytest.fixture
def registry(monkeypatch: pytest.MonkeyPatch) -> Any:
    """The example plugin split-pot and the variants above, registered in process as the
    default registry (as an installed plugin is)."""
    monkeypatch.syspath_prepend(str(SPLIT_POT))
    sys.modules.pop("bourre_split_pot", None)
    module: ModuleType = importlib.import_module("bourre_split_pot")
    variants = (SamePayout, SamePenalty, Boom, Elevenths, AnyDeal)
    return install(monkeypatch, *variants, modules=[("split-pot", module)])


def _chart(spec: str) -> EquilibriumChart:
    return equilibrium_chart(spec + THREE, rounds=3, deals=150, check=150, seed=5)


def _figures(c: EquilibriumChart) -> tuple[Any, ...]:
    """Everything a chart says but its house, its plugin and its time of work."""
    d = c.as_dict()
    for key in ("house", "seconds", "asked_through_python"):
        del d[key]
    return (c.strategy.table, c.seen, d)


@pytest.fixture(scope="module")
def builtin() -> EquilibriumChart:
    return _chart("standard")


@pytest.mark.parametrize(("spec", "hook"), [("same-payout", "payout"), ("same-penalty", "penalty")])
def test_a_plugin_that_is_the_built_in_rule_gives_the_same_chart(
    registry: Any, builtin: EquilibriumChart, spec: str, hook: str
) -> None:
    """The plugin's payout (or penalty) asked through Python at every played-out hand's
    end gives every cell, every count of decisions met and every figure of how far the
    chart can be beaten of the built-in house, exactly."""
    h = House.from_arg(f"standard+{spec}{THREE}")
    assert python_hooks(h) == (f"{spec} (bourre_{hook})",)
    CALLS[hook] = 0
    got = equilibrium_chart(h, rounds=3, deals=150, check=150, seed=5)
    assert CALLS[hook] > 0  # (asked, not the built-in rule: each different result once)
    assert got.asked == (f"{spec} (bourre_{hook})",)
    assert _figures(got) == _figures(builtin)
    assert builtin.asked == () and builtin.as_dict()["asked_through_python"] == []


def test_the_split_pot_chart_is_its_own_and_says_the_plugin_was_asked(
    registry: Any, builtin: EquilibriumChart
) -> None:
    """R-SPLIT-POT: a tie for the most tricks splits the pot instead of carrying it, so
    the chips of the played-out deals differ, and the chart with them; it is a whole
    chart (every share a share), and it says the kernel asked the plugin."""
    got = _chart("standard+split-pot")
    assert got.asked == ("split-pot (bourre_payout)",)
    assert got.strategy.table is not None
    assert all(0.0 <= x <= 1.0 for row in got.strategy.table for place in row for x in place)
    assert got.exploitability is not None and builtin.exploitability is not None
    assert got.strategy.table != builtin.strategy.table or (
        got.exploitability.worst != builtin.exploitability.worst
    )
    lines = got.lines()
    assert lines[0].startswith("Equilibrium chart of standard+split-pot+table(players=3)")
    assert lines[1] == (
        "Played out on the compiled kernel, which asks the plugin for split-pot's payout at"
        " the end of every hand played out (once for each different result of a hand)."
    )
    assert got.as_dict()["asked_through_python"] == ["split-pot (bourre_payout)"]
    assert not any(line.startswith("Played out on") for line in builtin.lines())


def test_a_plugins_deal_is_refused_naming_it(registry: Any) -> None:
    """R-DEAL: the chart's deals do not ask a plugin's deal (only the rules of HOOKS: a
    deal of the chart is dealt from its own shuffle): one ChartError naming the option
    and the hook."""
    assert HOOKS == (
        "bourre_penalty", "bourre_payout", "bourre_lead", "bourre_follow", "bourre_cinch",
        "bourre_trick_winner", "bourre_decisions", "bourre_draw", "bourre_ante",
        "bourre_next_dealer", "bourre_settle",
    )  # fmt: skip
    with pytest.raises(ChartError) as e:
        _chart("standard+any-deal")
    assert e.value.field == "equilibrium"
    msg = str(e.value)
    assert msg.startswith("the equilibrium chart is worked out on the compiled kernel only")
    assert "its decisions, its draw, its ante, its lead, its follow rule" in msg
    assert "variant 'any-deal'" in msg and "answers bourre_deal" in msg
    assert msg.endswith("; the strategy chart (without --equilibrium) plays this house")


def test_an_amount_the_kernel_does_not_hold_is_one_clear_error(registry: Any) -> None:
    """R-BOURRE: a penalty of the pot and an eleventh is not a whole number of the
    kernel's units: no chart made with it rounded, one ChartError saying why."""
    with pytest.raises(ChartError) as e:
        _chart("standard+elevenths")
    assert e.value.field == "equilibrium"
    assert str(e.value).startswith(
        "elevenths's penalty answered an amount that is not a whole number of the kernel's chips"
    )


def test_a_plugin_that_raises_is_its_own_error(registry: Any) -> None:
    """The plugin's bug is the checked component's PluginError (as on the Python rules),
    naming the plugin and the hook."""
    with pytest.raises(PluginError, match="plugin 'boom', hook bourre_payout: raised"):
        _chart("standard+boom")


def _cli(spec: str) -> Any:
    return runner.invoke(
        app,
        [
            "chart",
            spec + THREE,
            "--equilibrium",
            *("--rounds", "2", "--deals", "60", "--check", "60"),
            *("--no-progress", "--json", "-"),
        ],
        env={"COLUMNS": "160", "NO_COLOR": "1"},
    )


def test_the_command_charts_a_plugin_house(registry: Any) -> None:
    r = _cli("standard+split-pot")
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout[: r.stdout.rindex("}") + 1])
    assert d["asked_through_python"] == ["split-pot (bourre_payout)"] and d["rounds"] == 2
    assert "asks the plugin for split-pot's payout" in r.stderr  # (the chart, beside --json -)


@pytest.mark.parametrize(
    ("spec", "words"),
    [
        ("standard+any-deal", "--equilibrium: the equilibrium chart is worked out on the"),
        ("standard+elevenths", "--equilibrium: elevenths's penalty answered an amount"),
        ("standard+boom", "plugin 'boom', hook bourre_payout: raised ZeroDivisionError"),
    ],
)
def test_the_command_refuses_in_one_message(registry: Any, spec: str, words: str) -> None:
    r = _cli(spec)
    assert r.exit_code == 2, r.output
    assert r.stderr.startswith(f"bourre: {words}") and r.stderr.count("\n") == 1, r.stderr
    assert "Traceback" not in r.output and r.stdout == ""


def test_advise_against_the_equilibrium_names_its_own_option(
    registry: Any, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """``advise --opponents equilibrium`` works the chart out first: a house it refuses
    is refused under advise's option (``--opponents``), not the chart's."""
    from bourre.advice.advise import AdviceError, advise

    monkeypatch.setenv("BOURRE_CACHE_DIR", str(tmp_path))
    with pytest.raises(AdviceError) as e:
        advise(
            f"standard+any-deal{THREE}",
            ["2C", "3D", "4S", "5C", "7D"],
            "9H",
            1,
            hands=5,
            opponents="equilibrium",
        )
    assert e.value.field == "opponents" and "answers bourre_deal" in str(e.value)
    assert not (tmp_path / "equilibrium").exists()  # (no chart kept)
