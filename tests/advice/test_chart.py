"""``bourre chart HOUSE`` (issue 31, item 4): the strategy chart of a house.  The hand
classes and their sampling against an independent count and a rejection sampler, the
cells against ``advise`` run hand by hand, the command's grid, JSON, HTML, ``--versus``
marking, its refusals, and a house with a third-party variant (its money rule asked
through Python by the kernel: tests/advice/test_plugin_money.py)."""

from __future__ import annotations

import contextlib
import importlib
import io
import json
import math
import os
import random
import re
import shlex
import statistics
import sys
from pathlib import Path
from types import ModuleType

import pytest
from typer.testing import CliRunner

import bourre.houses.house as house_module
from bourre.advice.advise import advise
from bourre.advice.chart import ChartError, HandClass, chart, hand_classes
from bourre.cli import app
from bourre.kernel import rollouts
from bourre.rules.plugins import load_registry

ROOT = Path(__file__).resolve().parents[2]
SPLIT_POT = ROOT / "docs" / "examples" / "bourre-split-pot" / "src"
KERNEL = rollouts._BUILT and os.environ.get("BOURRE_ENGINE", "") != "python"

runner = CliRunner()


# -- the rows: hand classes and their sampling ------------------------------------------


def test_the_rows_a_card_player_reads() -> None:
    rows = hand_classes(5)
    assert 10 <= len(rows) <= 30
    labels = [r.label for r in rows]
    assert len(set(labels)) == len(labels)
    assert labels[0] == "no trump, no ace or king"
    assert "2 trumps: Q or lower, side ace" in labels and labels[-1] == "4+ trumps"
    # every hand of five cards is in exactly one row (whatever the trump suit)
    rng = random.Random(1)
    for _ in range(2000):
        hand = rng.sample(range(52), 5)
        trump = rng.randrange(4)
        assert sum(r.matches(hand, trump) for r in rows) == 1, hand
    assert len(hand_classes(4)) == len(rows)  # four cards: the same rows


def _rejection(cls: HandClass, dealer: bool, rng: random.Random) -> tuple[list[int], int]:
    """A (hand, upcard) of ``cls`` by dealing at random until one fits: the plain way."""
    while True:
        cards = rng.sample(range(52), 6)
        hand, up = cards[:5], cards[5]
        if dealer:
            up = hand[0]  # the dealer's last card dealt is its upcard (R-DEAL)
        if cls.matches(hand, up // 13):
            return hand, up


def _profile(hand: list[int] | tuple[int, ...], up: int) -> tuple[float, ...]:
    t = up // 13
    trumps = [c % 13 for c in hand if c // 13 == t]
    side = [c % 13 for c in hand if c // 13 != t]
    return (
        len(trumps),
        max(trumps, default=-1),
        sum(trumps) / max(1, len(trumps)),
        side.count(12),
        side.count(11),
        sum(side) / max(1, len(side)),
        up % 13,
    )


@pytest.mark.parametrize(
    ("cls", "dealer"),
    [
        (HandClass(1, "Q-", (1, 2, 3)), False),
        (HandClass(2, "K", (0,)), False),
        (HandClass(0, None, (1,)), False),
        (HandClass(2, "A", (0,)), True),
        (HandClass(3, None, (0, 1, 2, 3)), True),
        (HandClass(1, "K", (0,), kings=(1, 2, 3)), False),
        (HandClass(0, None, (0,), kings=(0,)), False),
        (HandClass(2, "Q-", (0,), kings=(0,)), True),
    ],
)
def test_the_sampler_deals_a_row_as_dealing_at_random_would(cls: HandClass, dealer: bool) -> None:
    rng = random.Random(7)
    n = 1500
    ours = [_profile(*cls.sample(rng, 5, dealer)) for _ in range(n)]
    plain = [_profile(*_rejection(cls, dealer, rng)) for _ in range(n)]
    for k in range(len(ours[0])):
        a, b = [x[k] for x in ours], [x[k] for x in plain]
        se = math.sqrt((statistics.pvariance(a) + statistics.pvariance(b)) / n) or 1e-9
        assert abs(statistics.fmean(a) - statistics.fmean(b)) <= 4.5 * se, (k, cls.label)


def test_the_sampler_weighs_four_and_five_trumps_as_the_deal_does() -> None:
    # with the upcard fixed, the other 12 trumps and 39 side cards: C(12,t)·C(39,5−t)
    exact = math.comb(12, 5) / (math.comb(12, 4) * 39 + math.comb(12, 5))
    cls = HandClass(4, None, (0, 1, 2, 3), or_more=True)
    rng = random.Random(3)
    got = [cls.sample(rng, 5, False) for _ in range(20000)]
    assert all(cls.matches(h, up // 13) and up not in h for h, up in got)
    five = sum(sum(c // 13 == up // 13 for c in h) == 5 for h, up in got) / len(got)
    assert abs(five - exact) <= 4 * math.sqrt(exact * (1 - exact) / len(got)), (five, exact)


# -- the cells against advise, hand by hand ---------------------------------------------


def test_a_cell_is_advise_averaged_over_the_hands_of_its_row() -> None:
    """The chart's cell against an independent computation: hands of the row dealt by
    rejection (not the chart's sampler), each asked of ``advise`` (its own deals), the
    gain of the chart's exchange count averaged over them (120 hands: a question of 60
    deals costs milliseconds on the kernel's batches; the first 40 hands of this seed
    average about three standard errors below the row's figure at place 1, with the
    deal-by-deal play-outs of before as with the batches)."""
    cls = HandClass(1, "K", (0,))
    house = "standard+table(players=3)"
    got = chart(house, hands=600, seed=4, classes=[cls])
    rng = random.Random(11)
    for place in (1, 2):  # (not the dealer: advise counts its deals without a choice)
        cell = got.cells[0][place - 1]
        assert cell.gain is not None and cell.throw is not None
        gains = []
        while len(gains) < 120:
            hand, up = _rejection(cls, False, rng)
            a = advise(house, hand, up, place, hands=60, seed=len(gains))
            assert a.passing is not None
            k = next(o for o in a.plays if len(o.throw) == cell.throw)
            gains.append(k.chips.mean - a.passing.chips.mean)
        mean = statistics.fmean(gains)
        half = 1.96 * statistics.stdev(gains) / math.sqrt(len(gains))
        assert abs(mean - cell.gain.mean) <= half + cell.gain.half_width, (place, mean, cell)


def test_play_pass_and_close_follow_the_range() -> None:
    got = chart("standard+table(players=3)", hands=100, seed=2)
    seen = set()
    for row in got.cells:
        for c in row:
            seen.add(c.answer)
            if c.gain is None:
                assert c.answer in ("none", "must play")
                continue
            assert c.gain.low <= c.gain.mean <= c.gain.high
            want = "play" if c.gain.low > 0 else "pass" if c.gain.high < 0 else "close"
            assert c.answer == want
            assert c.play is not None and c.passing is not None
            assert math.isclose(c.gain.mean, c.play.mean - c.passing.mean, abs_tol=1e-9)
    assert {"play", "pass"} <= seen
    labels = [cls.label for cls in got.classes]
    # the plain card sense: no trump at all passes, four trumps or more play
    assert all(c.answer == "pass" for c in got.cells[labels.index("no trump, no ace or king")][:2])
    assert all(c.answer == "play" for c in got.cells[labels.index("4+ trumps")])
    dealer = [row[2] for row in got.cells]
    assert dealer[labels.index("no trump, no ace or king")].answer == "none"  # holds the upcard
    lone_ace = dealer[labels.index("1 trump: A, no side ace or king")]
    assert (lone_ace.answer, lone_ace.forced) == ("must play", "R-ACE-UP")


def test_the_same_seed_gives_the_same_chart() -> None:
    rows = hand_classes(5)[4:10]
    a = chart("standard+table(players=3)", hands=30, seed=5, classes=rows)
    b = chart("standard+table(players=3)", hands=30, seed=5, classes=rows)
    assert a.cells == b.cells
    assert chart("standard+table(players=3)", hands=30, seed=6, classes=rows).cells != a.cells


# -- --versus --------------------------------------------------------------------------


def test_versus_plays_the_same_deals_and_marks_the_changes() -> None:
    rows = hand_classes(5)[:-4]
    alone = chart("standard+table(players=3)", hands=40, seed=1, classes=rows)
    same = chart(
        "standard+table(players=3)",
        hands=40,
        seed=1,
        versus="standard+table(players=3)",
        classes=rows,
    )
    assert same.cells == alone.cells  # the chart itself is the same with or without versus
    assert same.versus is not None and same.versus.cells == alone.cells
    assert not any(same.changed(r, p) for r in range(len(same.classes)) for p in (1, 2, 3))
    # a bourré costs at most 1 chip: weak hands become worth playing
    cheap = chart(
        "standard+table(players=3)",
        hands=40,
        seed=1,
        versus="pot-limit(limit=1)",
        classes=rows,
    )
    assert cheap.cells == alone.cells
    assert cheap.versus is not None
    marked = [(r, p) for r in range(len(cheap.classes)) for p in (1, 2, 3) if cheap.changed(r, p)]
    assert marked
    for r, p in marked:
        assert cheap.cells[r][p - 1].answer != cheap.versus.cells[r][p - 1].answer
        assert any(line.startswith("vs ") for line in cheap.words(r, p)[1])
    gains = [
        (cheap.versus.cells[r][p].gain, cheap.cells[r][p].gain)  # type: ignore[union-attr]
        for r in range(len(cheap.classes))
        for p in range(2)
        if cheap.cells[r][p].gain is not None
    ]
    # playing gains when the bourré costs less: on the same deals, on average, and the
    # answers that change move toward playing
    assert statistics.fmean(x.mean - y.mean for x, y in gains) > 0.05  # type: ignore[union-attr]
    order = {"pass": 0, "close": 1, "play": 2}
    moves = [
        order[cheap.versus.cells[r][p - 1].answer] - order[cheap.cells[r][p - 1].answer]
        for r, p in marked
    ]
    assert sum(m > 0 for m in moves) > 2 * sum(m < 0 for m in moves), moves
    data = cheap.as_dict()
    assert {(c["row"], c["place"]) for c in data["changed"]} == set(marked)


# -- the command ---------------------------------------------------------------------------


def _run(*args: str) -> object:
    return runner.invoke(app, ["chart", *args], env={"COLUMNS": "160", "NO_COLOR": "1"})


def test_the_command_draws_the_grid_with_its_method() -> None:
    r = _run("standard+table(players=3)", "--hands", "20")
    assert r.exit_code == 0, r.output  # type: ignore[attr-defined]
    out = r.output  # type: ignore[attr-defined]
    lines = out.splitlines()
    engine = "played by the kernel" if KERNEL else "played by the Python rules"
    assert lines[0].startswith("Strategy chart of standard+table(players=3): 3 players")
    assert engine in lines[0]
    for label in ("no trump, no ace or king", "3 trumps: A", "4+ trumps"):
        assert any(line.startswith(f"│{label}") for line in lines), label
    assert "must play" in out and "Places: 1 is the dealer's left" in out
    assert (
        "Each cell: 20 hands of the row's kind" in out
        and "19 times in 20" in out
        and "95%" not in out
    )
    # 78 cells, less 4 with no such hand (no trump: the dealer holds the upcard) and 3
    # the dealer must play (the ace of trumps alone, R-ACE-UP), 20 deals each
    assert "Seed 0: 1,420 deals" in out


def test_the_command_writes_json_and_html(tmp_path: Path) -> None:
    page = tmp_path / "chart.html"
    r = _run(
        "standard+table(players=3)",
        "--hands",
        "15",
        "--versus",
        "pot-limit(limit=1)",
        "--json",
        "-",
        "--html",
        str(page),
        "--seed",
        "3",
    )
    assert r.exit_code == 0, r.output  # type: ignore[attr-defined]
    data = json.loads(r.stdout)  # type: ignore[attr-defined]
    assert data["house"] == "standard+table(players=3)" and data["players"] == 3
    assert data["hands_per_cell"] == 15 and data["seed"] == 3
    assert data["places"] == [1, 2, 3] and len(data["rows"]) == len(hand_classes(5))
    cell = data["rows"][-1]["cells"][0]
    assert set(cell) == {
        "answer",
        "hands",
        "throw",
        "gain",
        "play",
        "pass",
        "take",
        "bourre",
        "redealt",
        "forced",
    }
    assert set(cell["gain"]) == {"mean", "low", "high"} and cell["answer"] == "play"
    assert data["versus"]["house"] == "standard+pot-limit(limit=1)+table(players=3)"
    assert data["changed"] and all({"row", "hand", "place"} == set(c) for c in data["changed"])
    assert "Strategy chart" in r.stderr  # type: ignore[attr-defined]  # the grid: not on stdout
    html = page.read_text(encoding="utf-8")
    assert html.count("<tr>") == len(hand_classes(5)) + 1
    assert '<td class="play' in html and '<td class="none' in html and " changed" in html
    assert "Each cell: 15 hands" in html and "3 (dealer)" in html


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["nosuch"], "unknown variant 'nosuch'"),
        (["standard", "--players", "9"], "--players: "),
        (["standard", "--players", "1"], "at least 2 (R-SESSION)"),
        (["standard", "--hands", "0"], "--hands: 0 hands a cell: from 1 to 100,000"),
        (["standard", "--hands", "many"], "--hands: 'many' is not a whole number"),
        (["standard", "--versus", "nosuch"], "--versus: "),
        (["standard", "--engine", "fast"], "--engine: 'fast' is not an engine"),
        (["pot-limit(limit=0)"], "pot-limit"),
    ],
)
def test_bad_input_one_message_exit_2(args: list[str], words: str) -> None:
    r = _run(*args)
    assert r.exit_code == 2, r.output  # type: ignore[attr-defined]
    err = r.stderr  # type: ignore[attr-defined]
    assert words in err and err.startswith("bourre: ") and err.count("\n") == 1, err
    assert "Traceback" not in err and r.stdout == ""  # type: ignore[attr-defined]


def test_the_library_names_the_option() -> None:
    with pytest.raises(ChartError) as e:
        chart("standard", hands=10**6)
    assert e.value.field == "hands"
    with pytest.raises(ChartError) as e:
        chart("standard", players=12)
    assert e.value.field == "players" and "at most 8" in str(e.value)


# -- a house with a third-party variant: the Python rules ---------------------------------


@pytest.fixture
def split_pot(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    """The example third-party plugin (docs/examples/bourre-split-pot), registered in
    process as the default registry."""
    monkeypatch.syspath_prepend(str(SPLIT_POT))
    sys.modules.pop("bourre_split_pot", None)
    module = importlib.import_module("bourre_split_pot")
    registry = load_registry(extra=[("split-pot", module)])
    monkeypatch.setattr(house_module, "default_registry", lambda: registry)
    return module


def test_a_third_party_money_rule_is_charted_on_the_kernel(split_pot: ModuleType) -> None:
    """A plugin's payout (the example split-pot) is asked through Python by the kernel's
    advice deals (issue 41): said before the run, with the path and about how long."""
    r = _run("standard+split-pot", "--players", "3", "--hands", "3", "--json", "-")
    assert r.exit_code == 0, r.output  # type: ignore[attr-defined]
    data = json.loads(r.stdout)  # type: ignore[attr-defined]
    if not KERNEL:
        assert data["engine"] == "python" and data["why_python"]
        return
    assert data["engine"] == "kernel" and data["why_python"] is None
    assert data["asked_through_python"] == ["split-pot (bourre_payout)"]
    said, first = r.stderr.splitlines()[:2]  # type: ignore[attr-defined]
    # said before the run (issue 41): which path, asking which rule, about how long
    assert said.startswith(
        "bourre: standard+split-pot plays on the compiled kernel, asking the"
        " plugin for split-pot's payout once for each different hand result: the chart takes"
    ), said
    assert "with 3 hands a cell (the built-in houses' chart:" in said, said
    assert "played by the kernel, asking split-pot's payout through Python" in first, first


@pytest.mark.slow
def test_the_python_rules_chart_what_the_kernel_charts() -> None:
    """The same law on both engines: each cell's gain within the two ranges."""
    rows = [HandClass(0, None, (0,)), HandClass(2, "A", (0,)), HandClass(1, "K", (1, 2, 3))]
    py = chart("standard+table(players=3)", hands=150, seed=9, engine="python", classes=rows)
    assert py.engine == "python" and py.why_python == "as asked"
    fast = chart("standard+table(players=3)", hands=150, seed=9, classes=rows)
    assert fast.engine == ("kernel" if KERNEL else "python")
    for a, b in zip(
        (c for r in py.cells for c in r), (c for r in fast.cells for c in r), strict=True
    ):
        if a.gain is None or b.gain is None:
            assert a.answer == b.answer
            continue
        assert abs(a.gain.mean - b.gain.mean) <= a.gain.half_width + b.gain.half_width + 0.3


def test_the_readme_commands_run(split_pot: ModuleType) -> None:
    """The README's chart commands, built-in and third-party, as written (with fewer
    hands and players, to be quick)."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    commands = re.findall(r"`(bourre chart [^`]*)`", readme)
    assert any("--versus" in c for c in commands) and any("split-pot" in c for c in commands)
    for command in commands:
        r = _run(*shlex.split(command)[2:], "--hands", "2", "--players", "3")
        assert r.exit_code == 0, (command, r.output)  # type: ignore[attr-defined]
        assert r.output.startswith("Strategy chart of ")  # type: ignore[attr-defined]


def test_the_hands_by_default_follow_the_engine(split_pot: ModuleType) -> None:
    rows = [HandClass(4, None, (0, 1, 2, 3), or_more=True)]
    slow = chart("standard+split-pot", players=2, classes=rows, engine="python")
    assert slow.engine == "python" and slow.hands == 60 == slow.cells[0][0].hands
    plugin = chart("standard+split-pot", players=2, classes=rows)  # (the kernel, asking it)
    assert plugin.hands == (800 if KERNEL else 60)
    fast = chart("standard", players=2, classes=rows)
    assert fast.hands == (800 if KERNEL else 60)


DOCS = ROOT / "docs" / "advice.md"


def test_the_example_of_docs_advice_runs() -> None:
    page = DOCS.read_text(encoding="utf-8").split("## The strategy chart", 1)[1]
    page = page.split("\n## ", 1)[0]  # (the section's own example)
    (code,) = re.findall(r"```python\n(.*?)```", page, re.S)
    with contextlib.redirect_stdout(io.StringIO()) as out:
        exec(compile(code, "docs/advice.md", "exec"), {"__name__": "chart_doc"})
    lines = out.getvalue().splitlines()
    assert lines[0].startswith("Strategy chart of standard+table(players=4): 4 players")
    assert lines[1].startswith("no trump, no ace or king pass Estimate(")


@pytest.mark.slow
def test_the_chart_of_docs_advice_is_the_commands_output() -> None:
    """The page's chart of ``standard`` is what ``bourre chart standard`` prints (but
    the time it took)."""
    page = DOCS.read_text(encoding="utf-8")
    shown = page.split("$ bourre chart standard\n", 1)[1].split("```", 1)[0]
    r = runner.invoke(app, ["chart", "standard"], env={"COLUMNS": "110", "NO_COLOR": "1"})
    assert r.exit_code == 0, r.output
    if not KERNEL:
        pytest.skip("the page shows the kernel's chart")

    def untimed(text: str) -> str:
        return re.sub(r" in \d+ s\.", " in … s.", text)

    assert untimed(r.output) == untimed(shown)


def test_a_page_that_cannot_be_written_is_one_message(tmp_path: Path) -> None:
    where = tmp_path / "no such folder" / "chart.html"
    r = _run("standard", "--players", "2", "--hands", "1", "--html", str(where))
    assert r.exit_code == 2, r.output  # type: ignore[attr-defined]
    # refused before the run (its folder does not exist), in one message
    assert r.stderr.startswith(f"bourre: --html {where}: the folder")  # type: ignore[attr-defined]
    assert r.stderr.count("\n") == 1  # type: ignore[attr-defined]
    assert "Traceback" not in r.stderr  # type: ignore[attr-defined]
