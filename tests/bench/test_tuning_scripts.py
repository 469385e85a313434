"""The measurement scripts of issue 12 run end to end on tiny sizes and write what
the docs quote from them (bench/tune_heuristic.py, bench/variance.py)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "bench"


def run(script: str, *args: str) -> str:
    done = subprocess.run(
        [sys.executable, str(BENCH / script), *args],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_tune_heuristic_chooses_among_the_finalists(tmp_path: Path) -> None:
    out = tmp_path / "tune.json"
    finalists = "heuristic(play_threshold=0.5,per_opponent=0.32,keep_trump=2)"
    args = ["--sessions", "5", "--robin-sessions", "5", "--stages", "keep,robin"]
    run("tune_heuristic.py", *args, "--finalists", finalists, "--json", str(out))
    r = json.loads(out.read_text())
    assert set(r["finalists"]) == {finalists, r["baseline"]}
    assert r["chosen"] in r["finalists"]
    assert len(r["keep"]) == 3 and all(iv["n"] == 5 for iv in r["keep"].values())
    assert 0 < r["self_play"][finalists]["playing"]["mean"] < 1


def test_variance_compares_common_and_independent_decks(tmp_path: Path) -> None:
    out = tmp_path / "v.json"
    args = ["--sessions", "10", "--skill-sessions", "10", "--replicates", "2"]
    run("variance.py", *args, "--mu-decks", "20", "--json", str(out))
    r = json.loads(out.read_text())
    row = r["crn"]["standard+no-cinch"]["pot_mean"]
    assert row["common"]["n"] == row["independent"]["n"] == 10
    assert set(r["dup"]) == {
        "heuristic among random",
        "heuristic(play_threshold=1) among heuristic",
    }
    assert 0 <= r["cv"]["standard+double-ante"]["pot_mean"]["r2"] <= 1
