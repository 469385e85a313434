"""Said before the run (issue 41): a house the kernel cannot play is named before the
run, with what forces the Python rules and about how long it takes
(:mod:`bourre.sim.speed.forecast`, called by compare, simulate and sweep through
``launch``, and by chart)."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import plugin

from bourre import kernel
from bourre.houses.house import House
from bourre.rules.plugins import load_registry
from bourre.rules.settings import TableSettings
from bourre.rules.variant import Variant, hookimpl
from bourre.sim.runs.sessions import BotSpec
from bourre.sim.speed import forecast
from bourre_variants.standard.deal import StandardDeal


class CopiedDeal(Variant):
    """A plugin's copy of a built-in rule (the deal: a hook the kernel does not ask
    through Python): the kernel never plays it."""

    name = "copied-deal"
    builds_on = ("standard",)

    @hookimpl
    def bourre_deal(self, table: TableSettings, hand_size: int) -> StandardDeal:
        return StandardDeal(hand_size)


def plugin_house() -> House:
    reg = load_registry(extra=[("copied-deal", plugin("copied-deal", CopiedDeal))])
    assert not reg.errors, reg.errors
    return House("standard+copied-deal", registry=reg)


HEURISTIC = [BotSpec("heuristic")]


def test_duration_in_a_players_words() -> None:
    assert forecast.duration(0.3) == "under a second"
    assert forecast.duration(9.2) == "about 9 s"
    assert forecast.duration(118) == "about 2 min"
    assert forecast.duration(2 * 3600 + 5 * 60) == "about 2 h 05 min"


def test_a_built_in_house_says_nothing() -> None:
    if not kernel.available():
        pytest.skip("the compiled kernel is not built: every house is on the Python rules")
    assert forecast.python_path_notices([House("standard+double-ante")], HEURISTIC, 100, 2) == []


@pytest.mark.skipif(
    not kernel.available(),
    reason="the compiled kernel is not built: every house plays on the Python rules, nothing to single out",
)
def test_the_hooks_of_a_plugin_are_named_with_the_time(monkeypatch: pytest.MonkeyPatch) -> None:
    house = plugin_house()
    why = forecast.why_python(house, "heuristic")
    assert why == "its bourre_deal is copied-deal's, a plugin's" or not kernel.available()
    seen: list[tuple[str, int]] = []

    def per_session(h: House, bots: object, engine: str) -> float:
        seen.append((engine, h.table.players))
        return 0.12 if engine == "python" else 0.0009

    monkeypatch.setattr(forecast, "_per_session", per_session)
    lines = forecast.python_path_notices([House("standard"), house], HEURISTIC, 1000, 1)
    assert len(lines) == 1
    line = lines[0]
    assert line.startswith("standard+copied-deal plays on the Python rules (")
    assert "about 2 min for 1,000 sessions" in line
    if kernel.available():
        assert "bourre_deal is copied-deal's, a plugin's" in line
        assert line.endswith("against under a second for built-in houses")
        assert seen == [("python", 5), ("kernel", 5)]
    # two workers share the sessions
    two = forecast.python_path_notices([house], HEURISTIC, 1000, 2)
    assert "about 60 s for 1,000 sessions" in two[0]
    # asked for the Python rules: nothing to say
    assert forecast.python_path_notices([house], HEURISTIC, 1000, 1, engine="python") == []


def test_the_sample_is_timed_on_sessions_of_its_own() -> None:
    """A real (small) sample: a positive time, the run's seeds untouched."""
    seconds = forecast._per_session(plugin_house(), HEURISTIC, "python")
    assert 0 < seconds < 30


def test_a_plugins_bot_is_never_sampled(monkeypatch: pytest.MonkeyPatch) -> None:
    """Bots a plugin gives run only in the run's workers: nothing sampled, nothing said."""

    def never(*a: object) -> float:
        raise AssertionError("sampled")

    monkeypatch.setattr(forecast, "_per_session", never)
    assert forecast.python_path_notices([plugin_house()], [BotSpec("montecarlo")], 10, 1) == []


def test_a_plugins_money_rule_on_the_kernel_is_named_with_the_time(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A plugin's penalty or payout plays on the kernel, asked through Python once for
    each different hand result (bourre.kernel.hooks): said before the run, with the time
    on the kernel."""
    if not kernel.available():
        pytest.skip("the compiled kernel is not built: every house is on the Python rules")
    reg = load_registry(extra=[("my-penalty", plugin("my-penalty", MyPenalty))])
    house = House("standard+my-penalty", registry=reg)
    assert forecast.why_python(house, "heuristic", hooks=True) is None
    # rollouts and the solver play it on the Python rules, and say so
    assert (
        forecast.why_python(house, "heuristic") == "its bourre_penalty is my-penalty's, a plugin's"
    )
    seen: list[str] = []

    def per_session(h: House, bots: object, engine: str) -> float:
        seen.append(engine)
        return 0.003 if h is house else 0.001

    monkeypatch.setattr(forecast, "_per_session", per_session)
    (line,) = forecast.python_path_notices([House("standard"), house], HEURISTIC, 10_000, 1)
    assert line == (
        "standard+my-penalty plays on the compiled kernel, asking the plugin for my-penalty's"
        " penalty when someone is bourré, once for each different pot: about 30 s for 10,000"
        " sessions, against about 10 s"
        " for built-in houses"
    )
    assert seen == ["kernel", "kernel"]


class MyPenalty(Variant):
    """A plugin's penalty: a bourré player pays the pot plus one."""

    name = "my-penalty"
    builds_on = ("standard",)

    @hookimpl
    def bourre_penalty(self, table: TableSettings) -> Any:
        return lambda pot: pot + 1


def test_the_chart_of_a_plugins_money_rule_says_the_kernel_and_the_time() -> None:
    """``bourre chart`` of a house whose only plugin rule is a penalty: the kernel's
    advice deals ask it through Python; said before the run, with the path and the time:
    the built-in house's chart and what the plugin adds a hand a cell (``extra``)."""
    if not kernel.available():
        pytest.skip("the compiled kernel is not built: every house is on the Python rules")
    reg = load_registry(extra=[("my-penalty", plugin("my-penalty", MyPenalty))])
    house = House("standard+my-penalty", registry=reg)
    assert forecast.why_python(house, "heuristic", hooks=forecast.ADVICE_HOOKS) is None
    line = forecast.chart_notice([house], 5, None, extra=lambda h: 0.01 if h is house else 0.0)
    assert line == (
        "standard+my-penalty plays on the compiled kernel, asking the plugin for my-penalty's"
        " penalty when someone is bourré, once for each different pot: the chart takes about"
        " 15 s with 800 hands a cell (the built-in houses' chart: about 7 s)"
    )
    # against a built-in house (--versus): both charted, the plugin's 4 s more for 400 hands
    line = forecast.chart_notice([house, House("standard")], 5, 400, extra=lambda h: 0.01)
    assert line is not None and "about 11 s with 400 hands a cell" in line, line
    # no time to say (the kernel handed the quick chart to the Python rules, or it failed)
    for extra in (None, lambda h: None, lambda h: 1 / 0):
        line = forecast.chart_notice([house], 5, None, extra=extra)
        assert line is not None and line.endswith(
            "or on the Python rules where the kernel cannot hold its answers"
        ), line
    assert forecast.chart_notice([house], 5, None, engine="python") is None
    assert forecast.chart_notice([House("standard")], 5, None) is None


def test_the_quick_chart_is_real_and_refuses_what_the_kernel_does_not_play() -> None:
    """``bourre.advice.chart.extra_seconds`` times real quick charts (a plugin's penalty
    adds time, never less than none) for a house the kernel's advice deals play, and
    gives none for one they do not (a plugin's deal), whose notice names the Python
    rules instead."""
    if not kernel.available():
        pytest.skip("the compiled kernel is not built: every house is on the Python rules")
    from bourre.advice.chart import extra_seconds

    reg = load_registry(extra=[("my-penalty", plugin("my-penalty", MyPenalty))])
    extra = extra_seconds(House("standard+my-penalty+table(players=3)", registry=reg))
    assert extra is not None and extra >= 0
    assert extra_seconds(plugin_house()) is None
    line = forecast.chart_notice([plugin_house()], 5, None, extra=extra_seconds)
    assert line is not None and line.startswith("standard+copied-deal plays on the Python rules (")
    assert "its bourre_deal is copied-deal's, a plugin's" in line
