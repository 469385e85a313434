"""``bourre bench --components`` (:mod:`bourre.sim.speed.rulecost`): where a hand's time goes
on the Python rules, rule component by rule component.  The recording changes no
session, counts every call the state makes, and a slow third-party component is the
one the measure names first."""

from __future__ import annotations

import pickle
import re
from collections.abc import Iterator
from typing import Any

import pytest
from typer.testing import CliRunner

from bourre.cli import app
from bourre.game.simulate import play_session
from bourre.houses.house import House
from bourre.rules import Ruling, plugins
from bourre.rules.plugins import load_registry
from bourre.rules.settings import TableSettings
from bourre.rules.variant import Variant, hookimpl
from bourre.sim.speed import rulecost
from bourre_variants.standard import obligations
from tests.conftest import plugin

runner = CliRunner()


def _recorded(house: House, seeds: range) -> tuple[rulecost._Log, list[Any]]:
    log = rulecost._Log()
    rec = rulecost._recording(house, log)
    return log, [play_session(rec, seed=s) for s in seeds]


def test_recording_changes_no_session() -> None:
    house = House("standard")
    _, recorded = _recorded(house, range(4))
    for s, got in enumerate(recorded):
        plain = play_session(house, seed=s)
        assert got.final == plain.final and got.ranks == plain.ranks
        assert [h.outcome for h in got.hands] == [h.outcome for h in plain.hands]


def test_every_call_the_state_makes_is_counted_once() -> None:
    log, sessions = _recorded(House("standard"), range(3))
    hands = [h for s in sessions for h in s.hands]
    tricks = [t for h in hands for t in h.tricks]
    assert len(log.calls["trick_winner"]) == len(tricks)
    assert len(log.calls["follow"]) == sum(len(t.plays) for t in tricks)  # a legal set a card
    assert len(log.calls["payout"]) == len(hands)
    assert len(log.calls["settle"]) == len(sessions)
    # the payout asks the penalties itself: that call is the payout's, not counted twice
    assert "penalty" not in log.calls


def test_calls_are_made_again_on_their_arguments_as_they_were() -> None:
    """A call that changes its arguments (a decision changes the hand) is kept as it
    was asked, so each round makes the same calls on fresh copies."""
    log, _ = _recorded(House("standard"), range(2))
    first = log.calls["decisions"][0][1].fresh()[0][0]  # the hand as the first turn was asked
    assert first.step == 0 and first.chosen == [-1] * 5 and not first.decisions
    kept = pickle.dumps([k.fresh() for _, k in log.calls["decisions"]])
    log.on = False
    for _ in range(2):
        assert rulecost._timed(log.calls["decisions"]) >= 0.0
    assert pickle.dumps([k.fresh() for _, k in log.calls["decisions"]]) == kept
    # made again, the legal sets are the ones the game had
    fn, kept_follow = log.calls["follow"][0]
    args, kw = kept_follow.fresh()
    assert fn(*args, **kw) == obligations.follow(*args)


def test_arguments_that_cannot_be_pickled_are_copied() -> None:
    hand = [3, 9]
    kept = rulecost._Kept((hand, lambda: 0), {})
    hand.append(17)
    assert kept.blob is None
    (again, fn), _ = kept.fresh()
    assert again == [3, 9] and fn() == 0


class SlowFollow:
    """The standard obligations, asked each time with a long detour."""

    def legal(self, hand: tuple[int, ...], trick: tuple[int, ...], trump: int) -> Ruling:
        sum(i * i for i in range(4000))
        return obligations.follow(hand, trick, trump)


def follow_variant(variant: str, words: str, follow: type[Any]) -> type[Variant]:
    """A third-party variant on standard whose follow rule is ``follow()``."""

    class FollowVariant(Variant):
        name = variant
        summary = words
        builds_on = ("standard",)
        rules = {"bourre_follow": obligations.TEXTS}

        @hookimpl
        def bourre_follow(self, table: TableSettings) -> Any:
            return follow()

    return FollowVariant


Slow = follow_variant("slow-follow", "The standard obligations, slowly.", SlowFollow)


def test_a_slow_third_party_component_is_named_first() -> None:
    registry = load_registry(extra=[("slow-follow", plugin("slow-follow", Slow))])
    costs = rulecost.measure(House("slow-follow", registry=registry), 0.2, rounds=3)
    first = max(costs.components, key=lambda c: c.per_hand)
    assert (first.what, first.by) == ("follow", "slow-follow")
    assert first.per_hand > costs.rest and first.per_hand > costs.deck.per_hand
    lines = costs.lines()
    assert re.match(r"  follow \(slow-follow\) +\d+\.\d +\d+\.\d +\d+\.\d%$", lines[2])
    plain = rulecost.measure(House("standard"), 0.2, rounds=3)
    follow = next(c for c in plain.components if c.what == "follow")
    assert first.per_hand > 3 * follow.per_hand  # the detour, not the obligations


def test_the_yardstick_gives_the_best_case() -> None:
    costs = rulecost.measure(House("four-card"), 0.1, rounds=3, reference=lambda s: 50_000.0)
    assert costs.reference == [50_000.0] * 3
    assert {c.what for c in costs.components} >= {"follow", "cinch", "decisions", "payout"}
    lines = costs.lines()
    whole = next(x for x in lines if "a whole hand" in x)
    assert f"{costs.whole.per_hand:9.1f}  100.0%" in whole
    rest = next(x for x in lines if "(the rest)" in x)
    left = costs.whole.per_hand - costs.rules - costs.deck.per_hand
    assert f"{max(left, 0.0):9.1f}" in rest
    text = "\n".join(lines)
    assert "the yardstick: 20.0 µs a hand (50,000 hands/s)" in text
    best = re.search(r"nothing: ([\d.]+)× it with the deck, ([\d.]+)× with the rule", text)
    assert best is not None
    assert abs(float(best.group(1)) - 20.0 / (costs.rules + costs.deck.per_hand)) < 0.0006
    assert abs(float(best.group(2)) - 20.0 / costs.rules) < 0.0006


def test_the_command_prints_a_line_per_component() -> None:
    result = runner.invoke(app, ["bench", "--components", "--seconds", "0.2", "no-cinch"])
    assert result.exit_code == 0, result.stderr
    out = result.stdout
    assert out.startswith("machine: ")
    assert "standard+no-cinch: where a hand's time goes on the Python rules" in out
    assert re.search(r"  cinch \(no-cinch\) ", out)
    for piece in ("follow (standard)", "the deck", "the rest", "a whole hand"):
        assert piece in out


def test_the_command_refuses_what_it_does_not_time() -> None:
    for extra, words in (
        (["--bots", "heuristic"], "--bots"),
        (["--parallel"], "--parallel"),
        (["--engine", "kernel"], "--engine"),
        (["--solver"], "one measure at a time"),
        (["--reference", "/no/such/yardstick.py"], "not a file"),
        (["standard+turbo"], "turbo"),
    ):
        result = runner.invoke(app, ["bench", "--components", *extra])
        assert result.exit_code == 2 and result.stdout == "", extra
        assert words in result.stderr and "Traceback" not in result.stderr


class BrokenFollow:
    def legal(self, hand: tuple[int, ...], trick: tuple[int, ...], trump: int) -> Ruling:
        if trick:
            raise KeyError("no such card")
        return obligations.follow(hand, trick, trump)


Broken = follow_variant(
    "broken-follow", "The standard obligations, until a card is on the trick.", BrokenFollow
)


@pytest.fixture
def broken_installed(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """``broken-follow`` installed as a third-party plugin (the command line's registry)."""
    real = plugins._entry_points

    def with_broken() -> Iterator[tuple[str, str, bool, Any]]:
        yield from real()
        yield "broken-follow", "broken-follow 1.0", False, lambda: plugin("broken-follow", Broken)

    monkeypatch.setattr(plugins, "_entry_points", with_broken)
    plugins._process.cache_clear()
    yield
    plugins._process.cache_clear()


def test_a_plugin_that_raises_is_one_message(broken_installed: None) -> None:
    for args in (
        ["bench", "--components", "--seconds", "0.1", "broken-follow"],
        ["bench", "--engine", "python", "--bots", "random", "--seconds", "0.1", "broken-follow"],
    ):
        result = runner.invoke(app, args)
        assert result.exit_code == 2 and result.stdout.count("\n") <= 1, args
        assert "broken-follow" in result.stderr and "bourre_follow" in result.stderr, args
        assert "Traceback" not in result.stderr
