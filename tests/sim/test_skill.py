"""``bourre compare --skill``: the chips per hand a better bot wins among weaker ones,
per house, on the same deals in every house (issue 12 item 5)."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from bourre.cli import app
from bourre.sim import skill as S
from bourre.sim.runs import runner as R
from bourre.sim.stats.metrics import ci_mean

FAST = S._match("heuristic", "random")


def run_fast(houses: list[str], sessions: int, workers: int = 1, **kw: Any) -> Any:
    cfg = S.config(FAST, houses, sessions, "sk")
    return R.run(cfg, workers=workers, task=S.skill_chunk, **kw)


def test_the_gain_is_the_final_balance_against_the_table_per_hand() -> None:
    s = {"i": 7, "players": 5, "hands": 12, "final": [124.0, 88.0, 100.0, 94.0, 94.0]}
    assert S.session_gain(s, 0) == pytest.approx(2.0)
    assert S.session_gain(s, 1) == pytest.approx(-1.0)
    # deal g = sessions 5g … 5g+4, the bot at seat i % 5: the mean of its five seatings
    deal = [{**s, "i": i} for i in range(5, 10)]  # seats 0…4: 2, -1, 0, -0.5, -0.5
    assert S.gains(deal) == {1: pytest.approx(0.0)}
    assert S.gains(deal[:4]) == {}  # a deal not played at every seat is left out


def test_every_deal_is_played_once_with_the_bot_at_each_seat() -> None:
    houses = ["standard", "standard+table(players=3)"]
    cfg = S.config(FAST, houses, 12, "sk")
    assert cfg.sessions == 15  # whole deals at both tables: a multiple of 3 and 5
    res = R.run(cfg, task=S.skill_chunk)
    for h in houses:
        ss = res.ordered(FAST.key(h))
        n = ss[0]["players"]
        assert [s["i"] for s in ss] == list(range(15))
        assert [s["seed"] for s in ss] == [R.session_seed("sk", i // n) for i in range(15)]
        for s in ss:  # the bot at seat i % n, the field everywhere else
            assert s["bots"][s["i"] % n] == "heuristic"
            assert s["bots"].count("random") == n - 1


def test_identical_houses_differ_by_exactly_zero_and_a_better_bot_gains() -> None:
    """Two spellings of one house play the same sessions (common random numbers):
    the paired difference is exactly 0; the heuristic bot wins chips from random
    ones."""
    houses = ["standard", "standard+table(balance=100)"]
    res = run_fast(houses, 40)
    m = S.compute(res, houses, FAST)
    a, b = m["houses"]
    assert a["gain"] == b["gain"]
    assert b["vs_first"]["mean"] == b["vs_first"]["lo"] == b["vs_first"]["hi"] == 0
    assert a["gain"]["lo"] > 0 and a["sessions"] == 40 and a["deals"] == 8


@pytest.mark.parametrize("bot", ["heuristic", "random"])
def test_a_bot_among_its_own_kind_gains_nothing_in_every_deal(bot: str) -> None:
    """The answer is known: a bot among its own kind has no edge.  With duplicate
    seating the five seatings of a deal are the same game, so every deal's gain is 0
    (up to rounding; one seating per deal would leave the luck of the seat)."""
    same = S._match(bot, bot)
    res = R.run(S.config(same, ["standard"], 30, "zero"), task=S.skill_chunk)
    ss = res.ordered(same.key("standard"))
    assert any(S.session_gain(s, s["i"] % 5) != 0 for s in ss)  # seats do differ
    assert len(S.gains(ss)) == 6
    assert all(abs(g) < 1e-12 for g in S.gains(ss).values())
    iv = S.compute(res, ["standard"], same)["houses"][0]["gain"]
    assert abs(iv["lo"]) < 1e-12 and abs(iv["hi"]) < 1e-12


def test_duplicate_seating_agrees_with_one_seating_per_deal() -> None:
    """No bias: the same match with one seating per deal (seats rotated, a new deal
    every session) estimates the same gain, within the intervals."""
    dup = S.compute(run_fast(["standard"], 300), ["standard"], FAST)["houses"][0]["gain"]
    bots = S.lineup([FAST.bot, FAST.field], 5)
    one = R.run(R.RunConfig(["standard"], 300, "sk-one", bots, True))
    plain = ci_mean([S.session_gain(s, s["i"] % 5) for s in one.ordered("standard")])
    half = math.hypot(dup["hi"] - dup["mean"], plain["hi"] - plain["mean"])
    assert abs(dup["mean"] - plain["mean"]) < half


def test_the_same_numbers_for_any_worker_count() -> None:
    houses = ["standard", "double-ante"]
    one = S.compute(run_fast(houses, 15), houses, FAST)
    two = S.compute(run_fast(houses, 15, workers=2, chunk=4), houses, FAST)
    assert one == two


cli = CliRunner()


def test_cli_skill_in_the_table_json_and_csv_and_resumed(tmp_path: Path, monkeypatch: Any) -> None:
    # A cheap stand-in for the Monte Carlo match (the real one is the slow test below).
    monkeypatch.setattr(S, "MATCHES", (S._match("heuristic(play_threshold=1)", "heuristic"), FAST))
    out, state = tmp_path / "o.json", tmp_path / "s.jsonl"
    args = ["compare", "standard", "double-ante", "--sessions", "10", "--workers", "1"]
    args += ["--no-progress", "--json", str(out), "--csv", str(tmp_path / "o.csv")]
    wide = {"COLUMNS": "250"}
    r = cli.invoke(
        app, [*args, "--skill", "--skill-sessions", "8", "--state", str(state)], env=wide
    )
    assert r.exit_code == 0, r.stderr
    assert "Does skill pay? Chips a hand won by one bot" in r.stdout  # the table's group
    assert "heuristic among random" in r.stdout  # its row
    assert "Does skill pay? Chips a hand won by one better bot: a heuristic bot" in r.stdout
    assert "a heuristic bot among random bots +" in r.stdout.replace("\n  ", " ")  # summary
    m = json.loads(out.read_text())
    sk = m["skill"]
    assert sk["complete"] and sk["sessions_planned"] == 10 and sk["budget"] == S.SKILL_BUDGET
    assert [x["bot"] for x in sk["matches"]] == ["heuristic(play_threshold=1)", "heuristic"]
    assert all(e["deals"] == 2 for x in sk["matches"] for e in x["houses"])
    assert sk["matches"][1]["houses"][1]["vs_first"] is not None
    assert "skill:heuristic among random" in (tmp_path / "o.csv").read_text()
    lines = state.read_text().splitlines()
    assert len(lines) == 1 + 2 * 10 + 2 * (1 + 2 * 10)  # each match: its plan, its sessions
    # resumed from the state file: nothing left to play, the same numbers
    r = cli.invoke(app, [*args, "--skill", "--skill-sessions", "8", "--resume", str(state)])
    assert r.exit_code == 0, r.stderr
    assert json.loads(out.read_text())["skill"] == sk
    assert len(state.read_text().splitlines()) == len(lines)
    # without --skill: nothing of it
    r = cli.invoke(app, args)
    assert r.exit_code == 0 and "skill" not in json.loads(out.read_text())
    assert "Does skill pay?" not in r.stdout and "among random" not in r.stdout


@pytest.mark.parametrize(
    ("extra", "words"),
    [(["--skill-sessions", "5"], ["--skill-sessions", "--skill"]),
     (["--skill", "--skill-sessions", "0"], ["at least 1"])],
)  # fmt: skip
def test_cli_bad_skill_options_exit_2(extra: list[str], words: list[str]) -> None:
    r = cli.invoke(app, ["compare", "standard", "double-ante", "--no-progress", *extra])
    assert r.exit_code == 2, (r.stdout, r.stderr)
    for w in words:
        assert w in r.stderr


def test_help_names_the_budget() -> None:
    r = cli.invoke(app, ["compare", "--help"], env={"COLUMNS": "200"})
    assert f"montecarlo(budget={S.SKILL_BUDGET})" in r.stdout
