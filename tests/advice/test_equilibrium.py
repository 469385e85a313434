"""The equilibrium chart (issue 44, item 1): the kernel's decision table drives the
seats still to decide, a best response never loses to the strategy it answers on its
deals, the heuristic's decisions are easier to beat than the equilibrium's, a converged
chart is its own best response on fresh deals, and the command (``--equilibrium``,
``--json``, its refusals).  Tiny budgets (3 players, a few hundred deals); the long run
is marked ``slow``."""

from __future__ import annotations

import contextlib
import io
import json
import os
import random
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bourre.advice.advise import advise
from bourre.advice.chart import hand_classes
from bourre.advice.deals import interval
from bourre.advice.equilibrium import (
    AGAINST_EQUILIBRIUM,
    EquilibriumChart,
    Strategy,
    _best,
    _cells,
    _sample,
    equilibrium_chart,
    exploitability,
)
from bourre.cli import app
from bourre.game import Game
from bourre.game.actions import PLAY, Deck
from bourre.game.state import State
from bourre.game.tablesteps import set_hand
from bourre.houses.house import House
from bourre.kernel import rollouts

KERNEL = rollouts._CHARTS and os.environ.get("BOURRE_ENGINE", "") != "python"
pytestmark = pytest.mark.skipif(not KERNEL, reason="the equilibrium chart plays on the kernel")

THREE = "standard+table(players=3)"
runner = CliRunner()


@pytest.fixture(scope="module")
def small() -> EquilibriumChart:
    """A tiny equilibrium chart of 3 players (deterministic: every draw is seeded)."""
    return equilibrium_chart(THREE, rounds=8, deals=1000, check=1500, seed=4, measure_start=True)


def test_the_kernel_decision_table_drives_the_later_seats() -> None:
    """R-DECIDE, R-SOLE: the first seat plays and the table makes every later seat pass:
    it takes the pot alone, every deal; the same deals with the heuristic deciding do not
    always end so."""
    h = House.from_arg(THREE)
    game = Game(h, engine="python")
    alone, heuristic = [], []
    for i in range(20):
        rng = random.Random(i)
        state = game.new_hand(dealer=0, engine="python")
        assert isinstance(state, State)
        set_hand(state, dealer=0, pot=3)
        deck = list(range(52))
        rng.shuffle(deck)
        state.apply_chance(Deck(tuple(deck)))
        seat = state.current_player()
        told = rollouts.heuristic_outcomes(state, [PLAY], seat, rng, chart=[[1, 1, 1]] * 3)
        free = rollouts.heuristic_outcomes(state, [PLAY], seat, rng)
        assert told is not None and free is not None
        alone.append(told[0].winner == seat and told[0].chips == 3)
        heuristic.append(free[0].winner == seat and free[0].chips == 3)
    assert all(alone)
    assert not all(heuristic)


def test_a_best_response_never_loses_to_what_it_answers() -> None:
    """On the deals it was found on, the best response gains at least nothing over the
    strategy in every cell and so at every seat (an iteration never lowers the best
    responder's value)."""
    h = House.from_arg(THREE)
    game = Game(h, engine="python")
    rows = hand_classes(game.hand_size)
    for strategy in (
        Strategy(rows, None),
        Strategy(rows, tuple(tuple((0.5,) * p for p in range(1, 4)) for _ in rows)),
    ):
        sampled = _sample(game, strategy, 150, "t", None)
        br = _best(sampled, 3, len(rows), strategy)
        per_cell: dict[tuple[int, int, int], float] = {}
        for deal in sampled:
            for pt in deal:
                key = (pt.row, pt.place, pt.k)
                gain = (br[pt.row][pt.place - 1][pt.k] - pt.share) * pt.delta
                per_cell[key] = per_cell.get(key, 0.0) + gain
        assert per_cell and all(g >= -1e-9 for g in per_cell.values())
        assert sum(per_cell.values()) > 0  # (the strategies are not already best)


def test_the_heuristic_is_easier_to_beat_than_the_equilibrium(small: EquilibriumChart) -> None:
    e, start = small.exploitability, small.start
    assert e is not None and start is not None
    assert start.worst.mean > e.worst.mean
    assert len(e.seats) == 3 and e.deals == 1500
    assert all(s.low <= s.mean <= s.high for s in e.seats)


def test_a_converged_chart_is_its_own_best_response(small: EquilibriumChart) -> None:
    """Fed back on fresh deals, a cell the chart plays or passes outright, met often and
    clearly decided there (the range of the chips playing minus passing away from 0), is
    answered the same by the best response."""
    h = House.from_arg(THREE)
    game = Game(h, engine="python")
    strategy = small.strategy
    sampled = _sample(game, strategy, 600, "fresh", None)
    br = _best(sampled, 3, len(strategy.classes), strategy)
    deltas: dict[tuple[int, int, int], list[float]] = {}
    for deal in sampled:
        for pt in deal:
            deltas.setdefault((pt.row, pt.place, pt.k), []).append(pt.delta)
    checked = 0
    for r, p, k in _cells(3, len(strategy.classes)):
        share = strategy.share(r, p, k)
        got = deltas.get((r, p, k), [])
        if share not in (0.0, 1.0) or len(got) < 30:
            continue
        est = interval(got)
        if est.low > 0 or est.high < 0:
            checked += 1
            assert br[r][p - 1][k] == share, (strategy.classes[r].label, p, k, est)
    assert checked >= 5


def test_every_seat_deciding_by_the_chart_is_what_the_chart_says(small: EquilibriumChart) -> None:
    """The words and the JSON say against whom, and agree with the table."""
    lines = small.lines()
    assert AGAINST_EQUILIBRIUM in lines[0]
    d = small.as_dict()
    assert d["against"] == AGAINST_EQUILIBRIUM
    assert d["exploitability"]["worst_seat"]["mean"] == small.exploitability.worst.mean  # type: ignore[union-attr]
    cell = d["rows"][0]["cells"][0]
    assert cell["play_share"] == small.strategy.share(0, 1, 0)
    assert any("19 times in 20" in line for line in lines)


def test_exploitability_of_a_pure_chart_is_measured_on_fresh_deals() -> None:
    """Always passing is easy to beat: a best response gains clearly at some seat."""
    h = House.from_arg(THREE)
    rows = hand_classes(5)
    never = Strategy(rows, tuple(tuple((0.0,) * p for p in range(1, 4)) for _ in rows))
    e = exploitability(h, never, 200, 9)
    assert e.worst.low > 0.2


def test_the_command(tmp_path: object) -> None:
    r = runner.invoke(
        app,
        [
            "chart",
            THREE,
            "--equilibrium",
            "--rounds",
            "2",
            "--deals",
            "60",
            "--check",
            "60",
            "--no-progress",
            "--json",
            "-",
        ],
        env={"COLUMNS": "160", "NO_COLOR": "1"},
    )
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout[: r.stdout.rindex("}") + 1])
    assert d["against"] == AGAINST_EQUILIBRIUM and d["rounds"] == 2
    assert d["exploitability"]["deals"] == 60
    assert d["heuristic_exploitability"] is not None


@pytest.mark.parametrize(
    ("args", "word"),
    [
        (["--equilibrium", "--versus", "double-ante"], "--versus"),
        (["--equilibrium", "--hands", "10"], "--hands"),
        (["--rounds", "3"], "--rounds"),
        (["--equilibrium", "--rounds", "0"], "--rounds"),
    ],
)
def test_the_command_refuses(args: list[str], word: str) -> None:
    r = runner.invoke(app, ["chart", THREE, *args, "--no-progress"], env={"NO_COLOR": "1"})
    assert r.exit_code == 2 and word in r.output, r.output
    assert "Traceback" not in r.output


@pytest.mark.slow
def test_the_standard_chart_is_beaten_by_at_most_a_twentieth_of_a_chip() -> None:
    got = equilibrium_chart("standard", seed=0)
    assert got.exploitability is not None
    assert got.exploitability.worst.mean <= 0.05


# -- advise --opponents ------------------------------------------------------------------


def _cache(monkeypatch: pytest.MonkeyPatch, tmp: Path, share: float) -> House:
    """A chart of 3 players where every cell plays ``share`` of its hands, put in a cache
    directory of its own; making one anew fails the test."""
    import bourre.advice.equilibrium as eq

    monkeypatch.setenv("BOURRE_CACHE_DIR", str(tmp))
    h = House.from_arg(THREE)
    rows = hand_classes(5)
    table = [[[share] * p for p in range(1, 4)] for _ in rows]
    got = EquilibriumChart(THREE, 3, 5, eq._frozen(rows, table), 1, 1, 0, 0.0, None)
    path = eq.cache_path(h)
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps(eq._to_cache(got)), encoding="utf-8")

    def no(*a: object, **k: object) -> None:
        raise AssertionError("made again")

    monkeypatch.setattr(eq, "equilibrium_chart", no)
    return h


def test_advise_against_the_equilibrium_reads_the_cached_chart(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """R-SOLE: with a chart where everyone passes, the first seat that plays takes the
    pot alone in every deal: playing is worth the pot exactly, whatever the hand."""
    h = _cache(monkeypatch, tmp_path, 0.0)
    got = advise(h, ["2C", "3D", "4S", "5C", "7D"], "9H", 1, hands=40, opponents="equilibrium")
    assert got.opponents == "equilibrium" and got.edge is not None
    assert got.edge.mean == got.edge.low == 3.0
    assert AGAINST_EQUILIBRIUM in got.words()[0]
    assert got.as_dict()["against"] == AGAINST_EQUILIBRIUM
    plain = advise(h, ["2C", "3D", "4S", "5C", "7D"], "9H", 1, hands=40)
    assert "against heuristic opponents" in plain.words()[0]
    assert plain.edge is not None and plain.edge.mean < 3.0


def test_a_cache_of_another_version_is_made_again(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    import bourre.advice.equilibrium as eq

    h = _cache(monkeypatch, tmp_path, 1.0)
    path = eq.cache_path(h)
    d = json.loads(path.read_text(encoding="utf-8"))
    d["method"] = "older"
    path.write_text(json.dumps(d), encoding="utf-8")
    with pytest.raises(AssertionError, match="made again"):
        eq.cached_equilibrium(h)


def test_advise_opponents_on_the_command_line(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    _cache(monkeypatch, tmp_path, 0.0)
    args = ["advise", "--house", THREE, "--hand", "2C 3D 4S 5C 7D", "--upcard", "9H"]
    r = runner.invoke(app, [*args, "--place", "1", "--hands", "30", "--opponents", "equilibrium"])
    assert r.exit_code == 0, r.output
    assert AGAINST_EQUILIBRIUM in r.output and "PLAY" in r.output
    bad = runner.invoke(app, [*args, "--place", "1", "--opponents", "sharks"])
    assert bad.exit_code == 2 and "--opponents" in bad.output


def test_the_example_of_docs_advice_runs() -> None:
    page = (Path(__file__).parents[2] / "docs" / "advice.md").read_text(encoding="utf-8")
    page = page.split("## The equilibrium chart", 1)[1].split("\n## ", 1)[0]
    (code,) = re.findall(r"```python\n(.*?)```", page, re.S)
    with contextlib.redirect_stdout(io.StringIO()) as out:
        exec(compile(code, "docs/advice.md", "exec"), {"__name__": "equilibrium_doc"})
    lines = out.getvalue().splitlines()
    assert lines[0].startswith("Equilibrium chart of standard+table(players=3): 3 players")
    assert AGAINST_EQUILIBRIUM in lines[0]
    assert any(line.startswith("Estimate(mean=") for line in lines)


def test_every_hand_has_one_row_found_by_its_shape() -> None:
    """The rows cover every hand once (R-DEAL), and the row found by the hand's shape
    is the one the classes' own test finds."""
    rows = hand_classes(5)
    strategy = Strategy(rows, None)
    rng = random.Random(1)
    for _ in range(3000):
        hand, trump = rng.sample(range(52), 5), rng.randrange(4)
        assert [j for j, c in enumerate(rows) if c.matches(hand, trump)] == [
            strategy.row(hand, trump)
        ]


def test_opponents_that_are_no_opponents_are_refused() -> None:
    from bourre.advice.advise import AdviceError

    with pytest.raises(AdviceError, match="heuristic or equilibrium") as e:
        advise(THREE, ["2C", "3D", "4S", "5C", "7D"], "9H", 1, hands=5, opponents="sharks")
    assert e.value.field == "opponents"
    r = runner.invoke(app, ["advise", "--script", "x.json", "--opponents", "equilibrium"])
    assert r.exit_code == 2 and "--opponents: before the hand only" in r.output
