"""The compiled kernel against the Python rules: the same sessions, the same money.

For every built-in variant alone and combined, tables of 2 to 8, table settings and
several seeds, with the random and heuristic bots (and seats of both), the kernel's
``final`` balances (exact, of the same types) and ``ranks`` equal those of
:func:`bourre.game.simulate.play_session`.  Skipped, with the reason, when the extension
is not built (``BOURRE_NO_KERNEL=1`` or no C++ compiler at install).
"""

from __future__ import annotations

import os
import random
from collections.abc import Callable, Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from conftest import plugin
from hookkit import mixed_bots, same_summaries
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bourre import kernel
from bourre.game.players import make_bot
from bourre.game.simulate import SessionResult, play_session
from bourre.game.xoshiro import stream
from bourre.houses.house import House
from bourre.rules.plugins import load_registry
from bourre.rules.variant import Variant, hookimpl
from bourre.sim.runs.sessions import BotSpec, parse_bots
from bourre_bots.random_bot import RandomPlayer
from bourre_variants.pot_limit import PotLimit

_kernel = pytest.importorskip(
    "bourre.kernel._kernel",
    reason="the compiled kernel is not built (BOURRE_NO_KERNEL=1, or no C++ compiler)",
)


# -- the Python rules' sessions, as the kernel must reproduce them --------------------


def python_session(house: House, seed: int | str, bots: str | Sequence[Any]) -> SessionResult:
    """``simulate.play_session`` with the players ``kernel.play_session`` promises."""
    if bots == "random":
        return play_session(house, seed, keep_hands=False)
    specs = parse_bots(bots) if isinstance(bots, str) else list(bots)
    if len(specs) == 1:
        specs = specs * house.table.players

    def make(seat: int, rng: random.Random) -> Any:
        s = specs[seat]
        if isinstance(s, str):
            return make_bot(s, rng, house=house)
        return make_bot(s.name, rng, house=house, **dict(s.options))

    return play_session(house, seed, make, keep_hands=False)


def assert_same(house: House, seeds: Sequence[int | str], bots: str | Sequence[Any]) -> None:
    got = kernel.play_sessions(house, seeds, bots)
    assert len(got) == len(seeds)
    for seed, k in zip(seeds, got, strict=True):
        p = python_session(house, seed, bots)
        where = f"{house.spec}, seed {seed!r}, bots {bots!r}"
        assert (k.engine, p.engine) == ("kernel", "python"), where
        assert k.seed == seed
        assert k.final == p.final, where
        assert [type(x) for x in k.final] == [type(x) for x in p.final], where
        assert k.ranks == p.ranks, where
        assert sum(k.final) == house.table.players * house.table.balance, where  # R-SETTLE


HOUSES = [
    "standard",
    "double-ante",
    "pot-limit(limit=3)",
    "pot-limit(limit=5/2)",
    "four-card",
    "simultaneous-reveal",
    "optional-undertrump",
    "no-cinch",
    "double-ante+pot-limit(limit=4)+optional-undertrump",
    "four-card+simultaneous-reveal+no-cinch",
    "simultaneous-reveal+double-ante",
    "four-card+optional-undertrump+pot-limit(limit=1)",
    "standard+table(ante=5/2,balance=7/3,first_dealer=random,hands=9)",
    "double-ante+table(ante=1/3,first_dealer=2)",
    *(f"standard+table(players={n})" for n in range(2, 9)),
    *(f"four-card+table(players={n})" for n in (2, 6, 8)),
    "simultaneous-reveal+four-card+table(players=8)",
    "no-cinch+table(players=8,first_dealer=random)",
]

MIXED = (
    "random,heuristic(keep_trump=9),random,heuristic(play_threshold=0.1,per_opponent=0.2),random"
)


@pytest.mark.parametrize("spec", HOUSES)
def test_the_kernel_plays_the_python_sessions(spec: str) -> None:
    house = House(spec)
    assert kernel.can_play(house, "random") is None
    assert_same(house, [0, 1, 2, "a", "b:7", 12345], "random")
    assert_same(house, [0, 1, 2, "a"], "heuristic")
    n = house.table.players
    per_seat = [BotSpec("random") if s % 2 else BotSpec("heuristic") for s in range(n)]
    assert_same(house, [3, "c"], per_seat)  # each random bot its own stream (compare's)


def test_mixed_seats_and_bot_options() -> None:
    assert_same(House("standard"), list(range(6)), MIXED)
    assert_same(House("standard"), [1, 2], "heuristic(keep_trump=14)")
    assert_same(House("standard"), [1, 2], ["random"])  # one for every seat, compare's streams


def test_reshuffles_are_played_alike() -> None:
    """R-RESHUFFLE: 8 players of 5 cards leave 12 in the stock; the stock runs out often."""
    house = House("standard+table(players=8,hands=40)")
    assert_same(house, list(range(8)), "random")
    assert_same(house, list(range(4)), "heuristic")


def test_the_results_differ_by_seed() -> None:
    """The comparison above is not of constants: seeds give different sessions."""
    got = kernel.play_sessions(House("standard"), list(range(20)), "random")
    assert len({tuple(r.final) for r in got}) > 10
    assert all(r.hands == [] for r in got)


def test_streams_are_those_of_the_python_rules() -> None:
    for name in ["", "bourre-deck:0", "bourre-bots:x", "é" * 40, "n" * 64, "m" * 65, "z" * 200]:
        assert _kernel.stream_words(name) == list(stream(name).state()), name


# -- what the kernel refuses ----------------------------------------------------------


class Quiet(Variant):
    """A third-party variant that answers no rule hook (the house plays as standard)."""

    name = "quiet"
    summary = "Nothing changes."


class MyLimit(PotLimit):
    """A third-party subclass of a built-in variant: not the built-in class itself."""

    name = "my-limit"


def _third_party_registry() -> Any:
    return load_registry(extra=[("quiet", plugin("quiet", Quiet, MyLimit))])


def test_a_third_party_variant_is_refused_by_name() -> None:
    registry = _third_party_registry()
    house = House("standard+quiet", registry=registry)
    why = kernel.can_play(house, "random", hooks=True)
    assert why is not None and "'quiet'" in why and "built-in" in why
    with pytest.raises(kernel.KernelError, match="'quiet'"):
        kernel.play_session(house, 0, "random")
    # a plugin's penalty (a subclass of a built-in variant's) is called through Python
    # (tests/kernel/test_plugin_hooks.py); the solver and rollouts still refuse it
    house = House("my-limit(limit=3)", registry=registry)
    assert kernel.python_hooks(house) == ("my-limit (bourre_penalty)",)
    assert kernel.can_play(house, "random", hooks=True) is None
    assert "my-limit (bourre_penalty)" in (kernel.can_play(house, "random") or "")
    got, python = kernel.play_session(house, 0, "random"), play_session(house, 0, keep_hands=False)
    assert (got.engine, got.final, got.ranks) == ("kernel", python.final, python.ranks)


def test_bots_it_cannot_play_are_refused_by_name() -> None:
    house = House("standard")
    why = kernel.can_play(house, "montecarlo")
    assert why is not None and "'montecarlo'" in why
    assert "has no option" in (kernel.can_play(house, "heuristic(nope=1)") or "")
    assert "unknown bot" in (kernel.can_play(house, "nobody") or "")
    assert "3 bots" in (kernel.can_play(house, ["random"] * 3) or "")
    assert kernel.can_play(house, [object()]) is not None
    sub = f"{__name__}:my_random"
    why = kernel.can_play(house, [sub])
    assert why is not None and "MyRandom" in why


class MyRandom(RandomPlayer):
    """A third-party bot built on the random bot: its own class, so not played."""


def my_random(rng: random.Random, **_: Any) -> MyRandom:
    return MyRandom(rng)


def test_keep_hands_needs_the_python_rules() -> None:
    with pytest.raises(kernel.KernelError, match="keep_hands"):
        kernel.play_session(House("standard"), 0, "random", keep_hands=True)


def test_a_session_out_of_range_is_played_by_the_python_rules(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A session the kernel reports (its money outside 128 bits) is played on the
    Python rules: the same result."""

    class Reporting:
        def play_shared(
            self, house: Any, bots: Any, seeds: list[str], fraction: Any, fast: bool
        ) -> list[int]:
            return [_kernel.OVERFLOW for _ in seeds]

    monkeypatch.setattr(kernel, "_kernel", Reporting())
    house = House("standard")
    (got,) = kernel.play_sessions(house, [5], "random")
    want = play_session(house, 5, keep_hands=False)
    assert (got.final, got.ranks) == (want.final, want.ranks)


def test_fractions_are_exact_fractions() -> None:
    house = House("standard+table(ante=5/2,balance=7/3)")
    got = kernel.play_sessions(house, list(range(10)), "random")
    values = [x for r in got for x in r.final]
    assert any(isinstance(x, Fraction) for x in values)
    for x in values:
        if isinstance(x, Fraction):
            assert x.denominator > 1 and x == Fraction(x.numerator, x.denominator)
            assert hash(x) == hash(Fraction(x.numerator, x.denominator))
    plan = kernel._plan(house, "random")  # the constructor's way (another Python's Fraction)
    for fast in (False, True):
        slow = _kernel.play_shared(
            plan.house, plan.bots, [str(i) for i in range(10)], Fraction, fast
        )
        assert [list(f) for f, _ in slow] == [r.final for r in got]


# -- a property over random houses ----------------------------------------------------

VARIANTS = ["double-ante", "four-card", "simultaneous-reveal", "optional-undertrump", "no-cinch"]


@st.composite
def houses(draw: Callable[..., Any]) -> str:
    chosen = [v for v in VARIANTS if draw(st.booleans())]
    if draw(st.booleans()):
        chosen.append(f"pot-limit(limit={draw(st.sampled_from(['1', '3', '7/2', '50']))})")
    table = {
        "players": draw(st.integers(2, 8)),
        "hands": draw(st.integers(1, 15)),
        "ante": draw(st.sampled_from(["1", "2", "1/2", "3/4"])),
        "balance": draw(st.sampled_from(["100", "0", "-5", "10/3"])),
        "first_dealer": draw(st.sampled_from(["0", "1", "random"])),
    }
    settings_text = ",".join(f"{k}={v}" for k, v in table.items())
    return "+".join(["standard", *chosen, f"table({settings_text})"])


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    spec=houses(),
    seed=st.one_of(st.integers(-(10**6), 10**6), st.text(max_size=12)),
    bots=st.sampled_from(["random", "heuristic", "random,heuristic"]),
)
def test_random_houses_play_alike(spec: str, seed: int | str, bots: str) -> None:
    house = House(spec)
    players = house.table.players
    if bots == "random,heuristic":  # alternating seats
        bots = ",".join((["random", "heuristic"] * 4)[:players])
    assert kernel.can_play(house, bots) is None
    assert_same(house, [seed], bots)


@pytest.mark.slow
@pytest.mark.parametrize("spec", HOUSES)
def test_many_sessions_play_alike(spec: str) -> None:
    house = House(spec)
    assert_same(house, list(range(300)), "random")
    assert_same(house, [f"s{i}" for i in range(150)], "heuristic")
    n = house.table.players
    assert_same(house, list(range(50)), ",".join((["heuristic", "random"] * 4)[:n]))
    from bourre.sim.runs.sessions import run_session

    for bots in ("heuristic", ",".join((["random", "heuristic"] * 4)[:n])):
        for i in range(20):
            k = run_session(house, parse_bots(bots), "slow", i, rotate=True, engine="kernel")
            p = run_session(house, parse_bots(bots), "slow", i, rotate=True, engine="python")
            for x in (k, p):
                del x["seconds"], x["engine"]
            assert k == p, (spec, bots, i)


def test_a_simulated_session_goes_to_the_kernel_when_it_can_and_says_so() -> None:
    """``bourre.kernel.simulate_session``: the kernel plays a session of random bots
    with no hand kept (``auto``), the same as the Python rules'; otherwise ``None`` (the
    Python rules), and ``engine="kernel"`` names what it cannot play."""
    house = House("standard+table(players=6)")
    auto = kernel.simulate_session(house, 9, True, False, "auto")
    python = play_session(house, 9, keep_hands=False)
    assert auto is not None and (auto.engine, python.engine) == ("kernel", "python")
    assert (auto.final, auto.ranks) == (python.final, python.ranks)
    assert kernel.simulate_session(house, 9, True, True, "auto") is None  # hands kept
    with pytest.raises(kernel.KernelError, match="keep_hands"):
        kernel.simulate_session(house, 9, True, True, "kernel")
    with pytest.raises(kernel.KernelError, match="factory"):
        kernel.simulate_session(house, 9, False, False, "kernel")
    registry = _third_party_registry()
    other = House("standard+quiet", registry=registry)
    assert kernel.simulate_session(other, 1, True, False, "auto") is None
    with pytest.raises(kernel.KernelError, match="'quiet'"):
        kernel.simulate_session(other, 1, True, False, "kernel")


COMPARE_BOTS = ["heuristic", "random", "random,heuristic,heuristic,random,heuristic"]


@pytest.mark.parametrize(
    "spec",
    [
        "standard",
        "four-card+double-ante",
        "simultaneous-reveal+no-cinch",
        "pot-limit(limit=5/2)+table(ante=1/2)",
        "standard+table(players=8)",
    ],
)
def test_compare_sessions_are_summarised_alike(spec: str) -> None:
    """``bourre compare``'s summary of a session (every per-hand tally) is the same
    played by the kernel or by the Python rules."""
    house = House(spec)
    n = house.table.players
    fits = [b if len(parse_bots(b)) in (1, n) else mixed_bots(house) for b in COMPARE_BOTS]
    same_summaries(house, tuple(fits))


def test_the_report_says_which_engine_played(monkeypatch: pytest.MonkeyPatch) -> None:
    from bourre.sim.reports.labels import title
    from bourre.sim.runs.sessions import run_session

    metrics: dict[str, Any] = {"sessions_completed": 2, "seed": "0", "bots": ["heuristic"]}
    assert "engine" not in title(metrics)
    metrics["timing"] = {"engines": {"standard": ["kernel"], "four-card": ["kernel", "python"]}}
    assert title(metrics).endswith("bots heuristic, engine kernel and python")
    monkeypatch.setenv("BOURRE_ENGINE", "python")
    assert run_session(House("standard"), parse_bots("heuristic"), "t", 0)["engine"] == "python"
    monkeypatch.setenv("BOURRE_ENGINE", "kernel")
    assert run_session(House("standard"), parse_bots("heuristic"), "t", 0)["engine"] == "kernel"
    # a bot the kernel does not play itself: asked in Python on the kernel's state
    got = run_session(House("standard+table(hands=2)"), parse_bots("montecarlo"), "t", 0)
    assert got["engine"] == "kernel"


def test_bad_input_is_refused_not_crashed() -> None:
    """The wrapper validates; the extension refuses what it is given wrong, with an
    exception (never a crash or a read out of bounds)."""
    house = House("standard")
    assert "not a House" in (kernel.can_play("standard", "random") or "")  # type: ignore[arg-type]
    assert "bot name" in (kernel.can_play(house, None) or "")  # type: ignore[arg-type]
    plan = kernel._plan(house, "random")
    assert not isinstance(plan, str)
    good = dict(plan.house)
    bots = list(plan.bots)
    bad_houses = [
        {**good, "players": 9},
        {**good, "players": 1},
        {**good, "hand_size": 6},
        {**good, "hands": 0},
        {**good, "first_dealer": 5},
        {**good, "ante": 0},
        {**good, "ante": 2**70},
        {k: v for k, v in good.items() if k != "scale"},
    ]
    for h in bad_houses:
        with pytest.raises((ValueError, TypeError, KeyError, OverflowError)):
            _kernel.play_shared(h, bots, ["0"], Fraction, False)
    for b in (
        [(0, 0.0, 0.0, 2)] * 4,
        [(7, 0.0, 0.0, 2)] * 5,
        [(1, 0.0, 0.0, 15)] * 5,
        [(1,)] * 5,
        [("x", 0.0, 0.0, 2)] * 5,
    ):
        with pytest.raises((ValueError, TypeError)):
            _kernel.play_shared(good, b, ["0"], Fraction, False)
    for words in ([[1, 2, 3]] * 5, [[0, 0, 0, 0]] * 5, [[1, 2, 3, 4]] * 3):
        with pytest.raises(ValueError):
            _kernel.play_streams(good, bots, "0", words, Fraction, False)
    with pytest.raises(ValueError):
        _kernel.play_shared(good, bots, ["0"], object(), True)
    (ok,) = _kernel.play_shared(good, bots, ["x" * 1000], Fraction, False)  # any seed text
    assert len(ok[0]) == 5


def test_the_engine_option_chooses_and_says_so(tmp_path: Path) -> None:
    """``--engine``: the same numbers on either engine, the JSON saying which played;
    ``kernel`` on bots it cannot play, or an unknown engine, is one message, exit 2."""
    import json as json_module

    from typer.testing import CliRunner

    from bourre.cli import app

    runner = CliRunner()
    before = os.environ.get("BOURRE_ENGINE")  # (the suite may run with BOURRE_ENGINE=python)
    got = {}
    for engine in ("python", "kernel"):
        out = tmp_path / f"{engine}.json"
        r = runner.invoke(
            app,
            [
                "simulate",
                "standard",
                "--sessions",
                "12",
                "--engine",
                engine,
                "--json",
                str(out),
                "--no-progress",
            ],
        )
        assert r.exit_code == 0, r.output
        metrics = json_module.loads(out.read_text())
        assert metrics["timing"]["engines"] == {"standard": [engine]}
        got[engine] = {k: v for k, v in metrics.items() if k != "timing"}
    assert got["python"] == got["kernel"]
    r = runner.invoke(
        app,
        ["simulate", "standard", "--sessions", "2", "--engine", "kernel", "--bots", "montecarlo"],
    )
    assert r.exit_code == 2 and "--engine kernel" in r.stderr and "montecarlo" in r.stderr
    r = runner.invoke(app, ["simulate", "standard", "--sessions", "2", "--engine", "fast"])
    assert r.exit_code == 2 and "--engine must be" in r.stderr
    r = runner.invoke(
        app,
        [
            "sweep",
            "pot-limit(limit={5,10})",
            "--sessions",
            "2",
            "--engine",
            "kernel",
            "--bots",
            "montecarlo",
        ],
    )
    assert r.exit_code == 2 and "--engine kernel" in r.stderr and "montecarlo" in r.stderr
    assert os.environ.get("BOURRE_ENGINE") == before  # the run's choice is put back


class Copycat(RandomPlayer):
    """A plugin's bot that copies the built-in random bot's mark."""

    kernel_bot = "random"


def test_a_plugin_bot_copying_the_mark_is_still_played_by_the_python_rules() -> None:
    """The kernel plays only bots registered by bourre's own entry points: a plugin's
    bot whose class says ``kernel_bot = "random"`` is refused (the Python rules play it)."""

    class Plugin:
        @staticmethod
        @hookimpl
        def bourre_register_bots(register: Any) -> None:
            register("copycat", lambda rng, **kw: Copycat(rng))

    registry = load_registry(extra=[("copycat", Plugin)])
    house = House("standard", registry=registry)
    why = kernel.can_play(house, "copycat")
    assert why is not None and "'copycat'" in why
    assert kernel.can_play(house, "random") is None
