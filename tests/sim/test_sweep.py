"""``bourre sweep``: every point on the same decks, its numbers those of ``bourre
compare`` for the same house and seed, printed in compare's words (the summary of
each point, a table fitted to the console, no ``±0.0``); grids; the JSON record, the
figures and compare's HTML report are written; a stopped sweep resumes to the
numbers of an uninterrupted one; bad input exits 2 naming the problem."""

from __future__ import annotations

import json
import re
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from bourre.cli import app
from bourre.sim.reports.summary import summary_lines
from bourre.sim.runs import runner as R
from bourre.sim.stats.metrics import compute
from bourre.sim.sweeps.points import METRICS, SweepRecord

cli = CliRunner()
LIMITS = "standard+pot-limit(limit={5,10})"


def invoke(*args: str) -> Any:
    return cli.invoke(app, ["sweep", *args, "--no-progress"])


def sweep_json(tmp_path: Path, *args: str, name: str = "s.json") -> dict[str, Any]:
    out = tmp_path / name
    r = invoke(*args, "--workers", "1", "--json", str(out))
    assert r.exit_code == 0, r.stderr
    data: dict[str, Any] = json.loads(out.read_text())
    SweepRecord.model_validate(data)
    return data


def test_a_point_is_compares_house_on_the_same_decks(tmp_path: Path) -> None:
    run = ["--sessions", "4", "--seed", "eq", "--bots", "heuristic,random,random,random,random"]
    sw = sweep_json(tmp_path, LIMITS, *run, "--rotate", *(f"--metric={m}" for m in METRICS))
    out = tmp_path / "c.json"
    r = cli.invoke(
        app,
        ["compare", "pot-limit(limit=5)", "pot-limit(limit=10)", *run, "--rotate"]
        + ["--workers", "1", "--no-progress", "--json", str(out)],
    )
    assert r.exit_code == 0, r.stderr
    cmp = json.loads(out.read_text())
    assert [p["house"] for p in sw["points"]] == [h["house"] for h in cmp["houses"]]
    for point, house in zip(sw["points"], cmp["houses"], strict=True):
        assert point["sessions"] == house["sessions"] == 4 and point["hands"] == house["hands"]
        for name, metric in METRICS.items():
            assert point["metrics"][name] == house[metric.key], name
    # the paired differences from the first point are compare's from the first house
    assert sw["points"][0]["vs_first"] is None
    vs = sw["points"][1]["vs_first"]
    paired = {n for n, m in METRICS.items() if m.key in cmp["houses"][1]["vs_first"]}
    assert set(vs) == paired and {"pot", "down", "edge", "swing"} <= paired
    for name in vs:
        assert vs[name] == cmp["houses"][1]["vs_first"][METRICS[name].key], name


def test_every_point_plays_the_same_decks(tmp_path: Path) -> None:
    state = tmp_path / "s.jsonl"
    r = invoke(LIMITS, "--sessions", "3", "--seed", "d", "--bots", "random", "--state", str(state))
    assert r.exit_code == 0, r.stderr
    header, done = R.load_state(state)
    assert header["houses"] == ["standard+pot-limit(limit=5)", "standard+pot-limit(limit=10)"]
    seeds = [[done[h][i]["seed"] for i in range(3)] for h in header["houses"]]
    assert seeds[0] == seeds[1] == ["d:0", "d:1", "d:2"]


def test_a_grid_is_every_combination(tmp_path: Path) -> None:
    data = sweep_json(
        tmp_path,
        "pot-limit(limit={5,20})+table(players={4,5,6})",
        "--sessions",
        "2",
        "--bots",
        "random",
    )
    assert [p["label"] for p in data["points"]] == [
        f"limit={a}, players={b}" for a in (5, 20) for b in (4, 5, 6)
    ]
    assert data["points"][0]["house"] == "standard+pot-limit(limit=5)+table(players=4)"
    assert data["points"][1]["house"] == "standard+pot-limit(limit=5)"  # 5 players: the default
    assert [(a["label"], a["unit"]) for a in data["axes"]] == [
        ("pot-limit limit", "chips"),
        ("table players", None),
    ]
    assert [p["hands"] for p in data["points"]] == [2 * 12] * 6  # 2 sessions of 12 hands
    assert data["metrics"] == ["pot", "bourre", "down"]


def test_summary_json_figures_and_report(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    seed = "<b>&'"
    report = tmp_path / "r.html"
    r = invoke(
        "standard+pot-limit(limit={5,10,80})",
        "--sessions",
        "3",
        "--seed",
        seed,
        "--bots",
        "random",
        "--workers",
        "1",
        "--metric",
        "pot",
        "--metric",
        "bourre-hands",
        "--plot",
        str(tmp_path / "fig"),
        "--report",
        str(report),
        "--json",
        str(tmp_path / "s.json"),
    )
    assert r.exit_code == 0, r.stderr
    for words in ("limit=5", "limit=80", "pot on", "hands with", "a bourré", "(chips)", "±"):
        assert words in r.stdout
    rec = SweepRecord.model_validate_json((tmp_path / "s.json").read_text())
    for name in ("pot", "bourre_hands"):
        for ext in ("png", "svg"):
            assert (tmp_path / "fig" / f"sweep_{name}.{ext}").stat().st_size > 1000
    assert sorted(p.name for p in (tmp_path / "fig").iterdir()) == [
        "sweep_bourre_hands.png",
        "sweep_bourre_hands.svg",
        "sweep_pot.png",
        "sweep_pot.svg",
    ]
    page = report.read_text(encoding="utf-8")
    assert page.count('<img src="data:image/png;base64,') == 2
    assert not re.search(r"""(src|href)=["'](?!data:)""", page)  # nothing outside the page
    assert "<script" not in page and "<link" not in page
    assert "Content-Security-Policy" in page  # compare's page, not a second generator
    assert seed not in page and "&lt;b&gt;&amp;" in page  # escaped
    assert rec.bourre_version in page and "random" in page
    assert "standard+pot-limit(limit=80)" in page and "limit=10" in page
    assert "bourre sweep" in page and "--seed" in page
    from bourre.sim.sweeps.plots import caption

    for section in ("In plain words", "Point by point", "The rules of each point"):
        assert section in page
    assert page.count("Pots: half the hands are played for") == 3  # each point's summary
    assert "R-POT-LIMIT" in page
    for name in ("pot", "bourre-hands"):
        assert f'id="figure-{name}"' in page and caption(rec, name) in page
    assert "±0.0" not in page


def test_figure_axes(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    from bourre.sim.sweeps.plots import figure

    wide = SweepRecord.model_validate(
        sweep_json(tmp_path, "pot-limit(limit={5,20,80})", "--sessions", "2", "--bots", "random")
    )
    from bourre.sim.sweeps.plots import caption

    ax = figure(wide, "pot").axes[0]
    assert ax.get_xscale() == "log"
    assert ax.get_xlabel() == "pot-limit limit (chips, log scale)"
    assert [t.get_text() for t in ax.get_xticklabels()] == ["5", "20", "80"]
    assert ax.get_ylabel() == "pot on average (chips)"
    assert "in chips, on a log scale" in caption(wide, "pot")
    assert "19 times in 20" in caption(wide, "pot") and "95%" not in caption(wide, "pot")
    ax = figure(wide, "bourre").axes[0]
    assert "per cent" in ax.get_ylabel()
    narrow = SweepRecord.model_validate(
        sweep_json(
            tmp_path, "table(players={3,4})", "--sessions", "2", "--bots", "random", name="n.json"
        )
    )
    ax = figure(narrow, "pot").axes[0]
    assert ax.get_xscale() == "linear" and ax.get_xlabel() == "table players"
    assert "log" not in caption(narrow, "pot")
    items = SweepRecord.model_validate(
        sweep_json(
            tmp_path,
            "standard+{four-card,no-cinch}",
            "--sessions",
            "2",
            "--bots",
            "random",
            name="i.json",
        )
    )
    ax = figure(items, "down").axes[0]
    assert [t.get_text() for t in ax.get_xticklabels()] == ["four-card", "no-cinch"]
    assert "over 50 chips down" in ax.get_ylabel()
    assert "bar" in caption(items, "down") and "band" not in caption(items, "down")


# -- what it prints: compare's words ------------------------------------------------------

GRID = "pot-limit(limit={5,20,80})+table(players={4,5})"


def _printed(width: int, *args: str) -> str:
    r = cli.invoke(
        app,
        ["sweep", *args, "--no-progress", "--workers", "1"],
        env={"COLUMNS": str(width)},
        terminal_width=width,
    )
    assert r.exit_code == 0, r.stderr
    return str(r.stdout)


def _words(text: str) -> str:
    return " ".join(text.split())


def test_each_point_is_summed_up_as_compare_sums_up_its_house() -> None:
    houses = ["standard+pot-limit(limit=5)", "standard+pot-limit(limit=10)"]
    out = _printed(80, LIMITS, "--sessions", "3", "--seed", "p", "--bots", "random")
    m = compute(R.run(R.RunConfig(houses, 3, "p", R.parse_bots("random")), workers=1))
    text = _words(out)
    for label, house in zip(("limit=5", "limit=10"), m["houses"], strict=True):
        assert f"{label} " + _words(" ".join(summary_lines(house))) in text, label
    lines = out.splitlines()
    assert "limit=5" in lines and "limit=10" in lines  # each point's name on its own line
    assert out.index("Pots: half the hands") < out.index("±: the range where")  # then the table
    assert "*: differs from limit=5 on the same deals" in text
    assert "±: the range where the true figure lies 19 times in 20" in text


def test_no_meaningless_plus_minus() -> None:
    """Heuristic bots never leave a player unopposed (docs/comparing.md) and nobody
    ends 50 chips down with a limit of 1: exact zeros, shown without a ±."""
    out = _printed(
        80,
        "pot-limit(limit={1,80})",
        "--sessions",
        "3",
        "--metric",
        "unopposed",
        "--metric",
        "down",
        "--metric",
        "bourre",
    )
    rows = [line for line in out.splitlines() if line.startswith("limit=") and "%" in line]
    assert len(rows) == 2
    assert rows[0].split()[1:3] == ["0.0%", "0.0%"]  # limit=1: no ± on an exact zero
    assert not re.search(r"±0(\.0+)?%?(?![\d.])", out)  # no ±0.0, ±0.0%, ±0
    assert not re.search(r"±[\d.]+%", out)  # a share as 21.5% ±1.6, not 21.5% ±1.6%
    assert not re.search(r"\d\.00\b", out)  # no .00 noise
    assert "┃" not in out and "│" not in out  # no box drawing: compare's plain table


@pytest.mark.parametrize("width", [80, 60, 40])
def test_table_fits_the_console(width: int) -> None:
    metrics = ["pot", "pot-median", "bourre", "down", "edge", "swing"]
    out = _printed(
        width,
        GRID,
        "--sessions",
        "3",
        "--bots",
        "random",
        *(x for m in metrics for x in ("--metric", m)),
    )
    lines = out.splitlines()
    assert max(len(line) for line in lines) <= width
    assert not [line for line in lines if line != line.rstrip()]  # piped: no padding left
    rules = [line for line in lines if line.strip() and set(line.strip()) == {"─"}]
    labels = [f"limit={a}, players={b}" for a in (5, 20, 80) for b in (4, 5)]
    # in blocks of metrics, each with every point's row; names and headings whole
    for label in labels:
        assert sum(line.startswith(label + " ") for line in lines) == len(rules), label
    assert 1 < len(rules) <= len(metrics)  # six metrics do not fit side by side
    if width == 40:
        assert len(rules) >= 3
    assert "(chips)" in out and "dealer's" in out
    assert out.count("Pots: half the hands") == 6


def test_a_sweep_of_starting_balances_counts_down_from_each(tmp_path: Path) -> None:
    """``down`` is below each point's own start, and so is its paired difference:
    the same deals with a larger balance play alike, a difference of exactly 0."""
    args = ["table(balance={100,200})", "--sessions", "4", "--bots", "random"]
    out = _printed(80, *args)
    assert re.search(r"fewer than 50 of (one's|their) 100 chips", _words(out))
    assert re.search(r"fewer than 150 of (one's|their) 200 chips", _words(out))
    a, b = sweep_json(tmp_path, *args)["points"]
    assert (a["below"], b["below"]) == (50, 150)
    assert a["metrics"]["down"] == b["metrics"]["down"]
    assert b["vs_first"]["down"]["mean"] == 0


def test_help_names_the_metrics() -> None:
    r = cli.invoke(app, ["sweep", "--help"], terminal_width=200, env={"COLUMNS": "200"})
    assert r.exit_code == 0
    text = re.sub(r"[\s│]+", " ", r.stdout)
    for name in METRICS:
        assert name in text, name
    assert "Default: pot, bourre, down" in text


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (
            [LIMITS, "--metric", "pots"],
            ["--metric 'pots'", "pot, pot-median, pot-p99, bourre", "edge"],
        ),
        (["pot-limit(limit={})"], ["is empty"]),
        (["pot-limit(limit={5,{6,7}})"], ["nested"]),
        (["pot-limit(limit={5,10)"], ["never closed"]),
        (["pot-limit(limit=5,10})"], ["closes no"]),
        (["pot-limit(limit={5,x})"], ["sweep point limit=x", "not a house", "an amount"]),
        (["standard+{four-card,turbo}"], ["sweep point turbo", "unknown variant 'turbo'"]),
        (["pot-limit(limit=5)"], ["nothing to sweep"]),
        (['pot-limit(limit={5,"5"})'], ['limit=5 and limit="5" are the same house']),
        ([LIMITS, "--down", "-1"], ["--down"]),
        ([LIMITS, "--down", "nan"], ["--down"]),
        ([LIMITS, "--sessions", "0"], ["--sessions"]),
        ([LIMITS, "--bots", "nobody"], ["unknown bot"]),
        ([LIMITS, "--json", "/nonexistent/dir/s.json"], ["does not exist"]),
        ([LIMITS, "--report", "/nonexistent/dir/r.html"], ["--report", "does not exist"]),
        ([LIMITS, "--resume", "/nonexistent/state.jsonl"], ["no such state file"]),
    ],
)
def test_bad_input_exits_2(args: list[str], words: list[str]) -> None:
    r = invoke(*args)
    assert r.exit_code == 2, (r.stdout, r.stderr)
    assert r.stdout == ""
    for w in words:
        assert w in r.stderr


def test_resume_of_another_sweep_exits_2(tmp_path: Path) -> None:
    state = tmp_path / "s.jsonl"
    r = invoke(LIMITS, "--sessions", "1", "--bots", "random", "--state", str(state))
    assert r.exit_code == 0, r.stderr
    r = invoke("standard+pot-limit(limit={5,20})", "--resume", str(state))
    assert r.exit_code == 2 and "another run" in r.stderr


def test_stopped_sweep_resumes_to_the_same_numbers(tmp_path: Path) -> None:
    """SIGTERM stops a sweep like Ctrl-C: the partial summary and JSON, the state
    file; --resume then finishes to the numbers of an uninterrupted sweep."""
    state, part = tmp_path / "s.jsonl", tmp_path / "part.json"
    args = [LIMITS, "--bots", "random", "--seed", "r", "--no-progress"]
    proc = subprocess.Popen(
        [sys.executable, "-m", "bourre.cli", "sweep", *args, "--sessions", "200000"]
        + ["--workers", "1", "--chunk", "5", "--state", str(state), "--json", str(part)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.time() + 60
    while time.time() < deadline:
        if state.exists() and len(state.read_text().splitlines()) > 21:
            break
        time.sleep(0.05)
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode in (1, 130), err
    assert "PARTIAL" in err and f"--resume {state}" in err
    partial = json.loads(part.read_text())
    assert partial["complete"] is False and partial["stopped"] == "interrupted"
    done = [p["sessions"] for p in partial["points"]]
    assert sum(done) >= 20
    n = str(max(done) + 3)
    resumed = sweep_json(tmp_path, *args, "--sessions", n, "--resume", str(state), name="a.json")
    fresh = sweep_json(tmp_path, *args, "--sessions", n, name="b.json")
    assert resumed["complete"] and resumed["sessions_completed"] == int(n)
    assert resumed["points"] == fresh["points"]
    _, kept = R.load_state(state)
    assert all(len(d) == int(n) for d in kept.values())


def test_the_same_numbers_on_workers_and_on_a_cluster(tmp_path: Path, local_cluster: Any) -> None:
    args = [LIMITS, "--sessions", "4", "--seed", "w", "--bots", "random", "--no-progress"]
    one = sweep_json(tmp_path, *args, name="one.json")
    for name, extra in (
        ("two.json", ["--workers", "2"]),
        ("dask.json", ["--scheduler", local_cluster.scheduler_address]),
    ):
        out = tmp_path / name
        r = cli.invoke(app, ["sweep", *args, *extra, "--json", str(out)])
        assert r.exit_code == 0, r.stderr
        assert json.loads(out.read_text())["points"] == one["points"], name


def test_the_speed_is_a_line_of_its_own_after_the_table() -> None:
    """As compare: the speed of the run is not a figure of the game."""
    lines = _printed(80, LIMITS, "--sessions", "3", "--bots", "random").strip().splitlines()
    assert re.fullmatch(r"Speed: [\d,]+ hands per second per core, over the points\.", lines[-1])
    assert sum("hands per second" in line for line in lines) == 1
