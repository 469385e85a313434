"""The equilibrium chart of a house whose plugin answers the decisions (R-DECIDE), the
draw (R-DRAW), the ante (R-FIRST-POT, R-DOUBLE-ANTE), the next dealer (R-DEALER) or the
settlement (R-SETTLE) (issue 41, "the solver, advise, chart and --review use the same
path"): its deals are the kernel's worlds loaded from a Python state
(``heuristic_outcomes`` with the decision table), a world at a decision loaded with the
hand's run, which asks the plugin's decisions at every decision and its draw at every
exchange (the table chooses a seat's play or pass, the plugin judges it); the ante's
first pot is the deals' stake and its play ante is asked when the tricks start; a next
dealer and a settlement are never asked (a deal is one hand, never settled:
``rollouts.ONE_HAND_HOOKS``).

The differential: plugins whose rules are the built-in ones (counted, so asked) give
the built-in house's chart exactly, cell for cell and figure for figure, on the same
seed: the standard decisions and draw, a third-party simultaneous reveal against the
built-in one, a third-party double ante against the built-in one.  A plugin's own rule
gives a chart of its own (three-max, ace-may-pass, the dealer antes two more, half a
chip to play).  The seats already in are the ones a seat sees (R-DECIDE): under a
simultaneous reveal, none.  A plugin's decisions in another order, or that raise, give
one clear error.  Tiny budgets (3 players, a few hundred deals)."""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Sequence
from typing import Any

import pytest
from conftest import install
from typer.testing import CliRunner

from bourre.advice.chart import ChartError, chart
from bourre.advice.deals import first_pot
from bourre.advice.equilibrium import EquilibriumChart, equilibrium_chart
from bourre.cli import app
from bourre.houses.house import House
from bourre.kernel import rollouts
from bourre.rules import HandOutcome
from bourre.rules.hand import HandState
from bourre.rules.hookspec import PluginError
from bourre.rules.money import Amount
from bourre.rules.settings import TableSettings
from bourre.rules.variant import Variant, hookimpl
from bourre_variants.double_ante import DoubleAnte
from bourre_variants.standard.decisions import Sequential
from bourre_variants.standard.draw import Draw
from tests.advice.test_equilibrium_plugin_money import _figures
from tests.kernel.test_plugin_decisions import VARIANTS, _decisions, _draw
from tests.kernel.test_plugin_hand_hooks import DealerAntesTwo, WinnerPaysThird

KERNEL = rollouts._CHARTS and os.environ.get("BOURRE_ENGINE", "") != "python"
pytestmark = pytest.mark.skipif(not KERNEL, reason="the equilibrium chart plays on the kernel")

THREE = "+table(players=3)"
runner = CliRunner()

CALLS: Counter[str] = Counter()
"""How many times each plugin rule below was asked (the differential's proof that the
plugin was asked, not the built-in rule; a next dealer and a settlement: never)."""


class CountedDecisions(Sequential):
    """The standard decisions (R-DECIDE), counted."""

    def decide(self, hand: HandState, seat: int, play: bool) -> None:
        CALLS["decide"] += 1
        super().decide(hand, seat, play)


class CountedDraw(Draw):
    """The standard draw (R-DRAW), counted."""

    def draw(self, hand: HandState, seat: int, discards: Sequence[int]) -> None:
        CALLS["draw"] += 1
        super().draw(hand, seat, discards)


class CountedDoubleAnte(DoubleAnte):
    """The built-in double ante (R-DOUBLE-ANTE), counted."""

    def hand_antes(
        self, n: int, ante: Amount, previous: HandOutcome | None, dealer: int
    ) -> list[Amount]:
        CALLS["hand_antes"] += 1
        return super().hand_antes(n, ante, previous, dealer)

    def play_ante(self, ante: Amount) -> Amount:
        CALLS["play_ante"] += 1
        return super().play_ante(ante)


class TheirDoubleAnte(Variant):
    name = "their-double-ante"
    summary = "The double ante, from a plugin."
    builds_on = ("standard",)

    @hookimpl
    def bourre_ante(self, table: TableSettings) -> Any:
        return CountedDoubleAnte()


class SpiedDealerAndSettle(Variant):
    """The standard next dealer and settlement (R-DEALER, R-SETTLE), counted."""

    name = "spied-end"
    summary = "The standard next dealer and settlement, from a plugin."
    builds_on = ("standard",)

    @hookimpl
    def bourre_next_dealer(self, table: TableSettings) -> Any:
        n = table.players

        def next_dealer(dealer: int, marks: list[bool]) -> int:
            CALLS["next_dealer"] += 1
            return (dealer + 1) % n

        return next_dealer

    @hookimpl
    def bourre_settle(self, table: TableSettings) -> Any:
        def settle(balances: list[Amount], pot: Amount) -> tuple[list[Amount], list[int]]:
            CALLS["settle"] += 1
            raise AssertionError("a deal of the chart is never settled")

        return settle


class RaisingDecisions(Sequential):
    def decide(self, hand: HandState, seat: int, play: bool) -> None:
        raise KeyError("the plugin's own bug")


SAME = [
    _decisions("same-decisions", CountedDecisions),
    _draw("same-draw", CountedDraw),
    _decisions("raising-decisions", RaisingDecisions),
    TheirDoubleAnte,
    SpiedDealerAndSettle,
    DealerAntesTwo,
    WinnerPaysThird,
]


@pytest.fixture
def registry(monkeypatch: pytest.MonkeyPatch) -> Any:
    """The plugins above and the decisions and draw variants of the kernel's tests,
    registered in process as the default registry (as an installed plugin is)."""
    CALLS.clear()
    return install(monkeypatch, *SAME, *VARIANTS)


def _chart(spec: str) -> EquilibriumChart:
    return equilibrium_chart(spec + THREE, rounds=2, deals=120, check=120, seed=5)


def test_decisions_and_a_draw_that_are_the_built_in_ones_give_the_same_chart(
    registry: Any,
) -> None:
    """R-DECIDE, R-DRAW: the standard decisions and draw, asked through Python at every
    decision and exchange of every played-out hand (the hand's run), give every cell,
    every count of decisions met and every figure of the built-in house, exactly."""
    got = _chart("standard+same-decisions+same-draw")
    assert CALLS["decide"] > 1000 and CALLS["draw"] > 100  # (asked, not the built-in rules)
    assert got.asked == ("same-decisions (bourre_decisions)", "same-draw (bourre_draw)")
    assert got.lines()[1] == (
        "Played out on the compiled kernel, which asks the plugins for same-decisions's"
        " decisions at every decision and for same-draw's draw at every exchange."
    )
    assert _figures(got) == _figures(_chart("standard"))


def test_a_third_party_simultaneous_reveal_gives_the_built_in_chart(registry: Any) -> None:
    """R-DECIDE under a simultaneous reveal: a plugin answering the built-in component
    gives the built-in house's chart; a seat sees nobody in before the reveal, so every
    decision met is of a cell with no seat already in (none is charted that no player
    could know)."""
    theirs = _chart("standard+their-reveal")
    built_in = _chart("simultaneous-reveal")
    assert _figures(theirs) == _figures(built_in)
    assert built_in.seen and all(k == 0 for (_, _, k), _m in built_in.seen)


def test_a_plugins_own_decisions_or_draw_give_a_chart_of_their_own(registry: Any) -> None:
    """A capped draw (R-DRAW: three cards at most) and a dealer who may pass with the ace
    of trumps up (no R-ACE-UP) change the chart: the dealer's decisions with the ace up
    are met (the built-in dealer must play them), and the command says what it asked."""
    standard = _chart("standard")
    capped = _chart("standard+three-max")
    assert capped.strategy.table != standard.strategy.table or capped.seen != standard.seen
    ace = _chart("standard+ace-may-pass")

    def dealers(c: EquilibriumChart) -> int:
        return sum(m for (_, place, _k), m in c.seen if place == 3)

    assert dealers(ace) > dealers(standard)
    r = runner.invoke(
        app,
        [
            "chart",
            f"standard+three-max{THREE}",
            "--equilibrium",
            *("--rounds", "2", "--deals", "60", "--check", "60", "--no-progress"),
        ],
        env={"COLUMNS": "160", "NO_COLOR": "1"},
    )
    assert r.exit_code == 0, r.output
    assert "asks the plugin for three-max's draw at every exchange." in r.stdout, r.output


def test_decisions_in_another_order_are_one_clear_error(registry: Any) -> None:
    """R-DECIDE: a plugin whose dealer decides first plays out of the order the chart's
    cells and the kernel's worlds take (one seat at a time from the dealer's left): one
    ChartError naming the plugin, no chart made; exit 2 on the command line."""
    with pytest.raises(ChartError) as e:
        _chart("standard+dealer-first")
    assert e.value.field == "equilibrium"
    assert str(e.value).startswith("dealer-first's decisions "), str(e.value)
    assert "the strategy chart (without --equilibrium) plays this house" in str(e.value)
    r = runner.invoke(
        app,
        ["chart", f"standard+dealer-first{THREE}", "--equilibrium", "--deals", "30"],
    )
    assert r.exit_code == 2 and r.stderr.startswith("bourre: --equilibrium: dealer-first's")
    assert "Traceback" not in r.output


def test_decisions_that_raise_are_the_plugins_own_error(registry: Any) -> None:
    """The plugin's bug is the checked component's PluginError, naming the plugin and
    the hook, as on the Python rules."""
    with pytest.raises(PluginError, match="plugin 'raising-decisions', hook bourre_decisions"):
        _chart("standard+raising-decisions")


def test_a_plugins_ante_sets_the_stake_and_the_play_ante(registry: Any) -> None:
    """R-DOUBLE-ANTE: a third-party double ante gives the built-in double ante's chart
    exactly (its play ante asked when the tricks start, through Python).  R-FIRST-POT: the
    deals' stake is the plugin's first pot (the dealer antes two more: 5 at three
    players), for the strategy chart too; half a chip to play (winner-pays) is asked."""
    theirs = _chart("standard+their-double-ante")
    assert CALLS["play_ante"] > 100 and CALLS["hand_antes"] >= 1
    assert _figures(theirs) == _figures(_chart("double-ante"))
    assert theirs.lines()[1] == (
        "Played out on the compiled kernel, which asks the plugin for their-double-ante's"
        " ante for the first pot and when the tricks start."
    )
    dealer_antes = House(f"standard+dealer-antes{THREE}")
    assert first_pot(dealer_antes) == 5 and first_pot(House(f"standard{THREE}")) == 3
    assert _figures(_chart("standard+dealer-antes")) != _figures(_chart("standard"))
    assert chart(dealer_antes, hands=2, classes=None).pot == 5
    assert _chart("standard+winner-pays").asked == ("winner-pays (bourre_ante)",)


def test_a_next_dealer_and_a_settlement_are_never_asked(registry: Any) -> None:
    """R-DEALER, R-SETTLE: a deal of the chart is one hand, never settled: a plugin's
    next dealer and settlement are never asked (its settlement would fail the chart),
    the chart is the built-in house's, and it says so."""
    got = _chart("standard+spied-end")
    assert CALLS["next_dealer"] == 0 and CALLS["settle"] == 0
    assert _figures(got) == _figures(_chart("standard"))
    assert got.lines()[1] == (
        "Played out on the compiled kernel. Never spied-end's next dealer nor spied-end's"
        " settle: each deal is one hand."
    )
