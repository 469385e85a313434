"""``bourre replay`` in plain words: who played, every illegal card with the rule
that forbids it, who takes the pot and why, who pays what, the next pot and who skips
the ante; the JSON record stays the default when the output is not a terminal."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from bourre.cli import app

GOLDEN = Path(__file__).parents[1] / "golden"
runner = CliRunner()


def words(name: str) -> str:
    r = runner.invoke(app, ["replay", str(GOLDEN / f"{name}.script.json"), "--words"])
    assert r.exit_code == 0, r.stderr
    return r.stdout


def test_json_by_default_when_piped_and_with_json() -> None:
    path = str(GOLDEN / "worked_example.script.json")
    for args in ([path], [path, "--json"]):
        r = runner.invoke(app, ["replay", *args])
        assert r.exit_code == 0 and json.loads(r.stdout)["hands"]


def test_the_worked_example_in_words() -> None:
    out = words("worked_example")
    assert "Seat 4 took the most tricks (3) and takes the pot of 5 chips. (R-WIN:" in out
    assert "Tricks taken: 2 by seat 0, none by seat 1, 3 by seat 4." in out
    assert "Seat 1 took no trick: bourré, pays 5 chips into the next pot. (R-BOURRE:" in out
    assert "Antes: seat 1 does not ante (bourré or tied for the most tricks last hand)" in out
    assert "(R-SOLE:" in out and "(R-SETTLE:" in out
    assert "The session goes on (2 of 12 hands): nothing is settled yet" in out  # a dispute
    assert "Settled" not in out


def test_a_renege_is_told_with_the_rule_that_forbids_the_card() -> None:
    out = words("renege")
    line = next(x for x in out.splitlines() if "renege" in x)
    assert "Seat 1 played K♥" in line and "(R-FOLLOW)" in line
    assert "Seat 1 reneged: pays 5 chips into the next pot. (R-RENEGE" in out
    assert "loses the right to the pot and their next turn to deal. (R-RENEGE" in out


def test_a_tie_and_a_correction() -> None:
    assert "tied for the most tricks (2): nobody takes the pot" in words("tie_carry")
    out = words("correction")
    assert "corrected an illegal card" in out and "(R-CORRECTED" in out


def test_a_hand_that_stops_says_who_acts(tmp_path: Path) -> None:
    script = json.loads((GOLDEN / "worked_example.script.json").read_text())
    script["hands"] = script["hands"][:1]
    script["hands"][0]["plays"] = script["hands"][0]["plays"][:2]
    path = tmp_path / "s.json"
    path.write_text(json.dumps(script))
    r = runner.invoke(app, ["replay", str(path), "--words"])
    assert r.exit_code == 0
    assert "The hand stops here. Seat" in r.stdout and "is to act and may:" in r.stdout


def test_a_whole_session_is_settled_in_words(tmp_path: Path) -> None:
    """A script that covers the whole session ends with the settlement (R-SETTLE)."""
    script = json.loads((GOLDEN / "worked_example.script.json").read_text())
    script.setdefault("rules", {}).setdefault("table", {})["hands"] = len(script["hands"])
    path = tmp_path / "whole.json"
    path.write_text(json.dumps(script))
    r = runner.invoke(app, ["replay", str(path), "--words"])
    assert r.exit_code == 0, r.stderr
    assert "Settled (what was left in the pot shared equally)" in r.stdout
    assert "The session goes on" not in r.stdout


def test_a_hand_stopped_during_the_decisions_says_who_has_decided(tmp_path: Path) -> None:
    """Stopped after two passes: who has decided and how, not 'passed: everyone'."""
    path = tmp_path / "part.hand"
    path.write_text("house standard\nhand dealer 0\nupcard 2S\ndecide 1 pass\ndecide 2 pass\n")
    r = runner.invoke(app, ["replay", str(path), "--words"])
    assert r.exit_code == 0, r.stderr
    assert "Decided so far: seat 1 passes, seat 2 passes." in r.stdout
    assert "passed: seat 0" not in r.stdout and "Seat 3 is to act" in r.stdout
