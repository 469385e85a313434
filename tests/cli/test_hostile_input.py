"""Inputs built to break things: strict and hostile table scripts, files not in UTF-8,
hostile and fuzzed house strings, bad bot options, huge amounts.  Each case gets one clear
refusal (exit status 2 on the command line, one line naming the place and the rule) or is
harmless; never a traceback, never money created.  Hostile bots and plugins:
``tests/game/test_hostile_bots.py``, ``tests/plugins/test_hostile_plugins.py``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from bourre.cli import app

GOLDEN = Path(__file__).parents[1] / "golden"
runner = CliRunner()


def refused(*args: str, input: str | None = None) -> str:
    """The command fails cleanly: exit 2, nothing on stdout, one line on stderr."""
    r = runner.invoke(app, list(args), input=input)
    assert r.exit_code == 2, (r.exit_code, r.stdout[:300], r.stderr[:300], r.exception)
    assert r.stdout == ""
    lines = r.stderr.strip().splitlines()
    assert len(lines) >= 1 and lines[0].startswith("bourre: ")
    return r.stderr


# -- input ----------------------------------------------------------------------------------


def _script(tmp_path: Path, text: str, name: str = "s.json") -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def _golden() -> dict[str, Any]:
    return json.loads((GOLDEN / "worked_example.script.json").read_text())


@pytest.mark.parametrize(
    ("mutate", "words"),
    [
        (lambda s: s.update(rules={"table": {"first_dealer": True}}), "table.first_dealer"),
        (lambda s: s.update(rules={"table": {"players": "5"}}), "table.players"),
        (lambda s: s.update(rules={"table": {"players": 5.0}}), "table.players"),
        (lambda s: s.update(rules={"variants": {"use": ["standard", "standard"]}}), "named twice"),
        (lambda s: s["hands"][0]["deck"].__setitem__(0, "Aſ"), "R-DECK"),
        (lambda s: s["hands"][0].update(reshuffles=[["2S"]]), "hand 1, reshuffle 1: given"),
    ],
)
def test_strict_scripts(tmp_path: Path, mutate: Any, words: str) -> None:
    script = _golden()
    mutate(script)
    assert words in refused("replay", _script(tmp_path, json.dumps(script)))


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
        ('{"hands": [], "balances": [' + "9" * 5000 + "]}", "not valid JSON"),
        ('{"hands": [], "hands": []}', "given twice"),
        ("\x00garbage", "not valid JSON"),
    ],
)
def test_hostile_script_files(tmp_path: Path, text: str, words: str) -> None:
    assert words in refused("replay", _script(tmp_path, text))


def test_non_utf8_files(tmp_path: Path) -> None:
    path = tmp_path / "s.json"
    path.write_bytes(b"\xff\xfe{}")
    assert "UTF-8" in refused("replay", str(path))
    house = tmp_path / "h.toml"
    house.write_bytes(b"\xff\xfe[table]")
    refused("rules", str(house))


@pytest.mark.parametrize(
    "house",
    [
        "x" * 5000,
        "standard+pot-limit(limit=1,limit=2)",
        "standard+table(players=5)+table(players=6)",
        "table(balance=" + "9" * 5000 + ")",
        "table(players=true)",
    ],
)
def test_hostile_house_strings(house: str) -> None:
    refused("rules", house)


def test_unknown_bot_options_and_bad_bench_times() -> None:
    assert "foo" in refused("simulate", "standard", "--bots", "heuristic(foo=1)", "--sessions", "2")
    refused("bench", "--seconds", "nan")
    refused("bench", "--seconds", "-1")


# -- fuzz -----------------------------------------------------------------------------------

GOLDEN_TEXT = (GOLDEN / "worked_example.script.json").read_text()


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    edits=st.lists(
        st.tuples(
            st.integers(0, len(GOLDEN_TEXT) - 1),
            st.sampled_from(list('{}[]",:0123456789 -ASHDCKQJT9x')),
        ),
        min_size=1,
        max_size=6,
    )
)
def test_fuzzed_scripts_never_crash(edits: list[tuple[int, str]], tmp_path_factory: Any) -> None:
    text = list(GOLDEN_TEXT)
    for pos, ch in edits:
        text[pos] = ch
    path = tmp_path_factory.mktemp("fuzz") / "s.json"
    path.write_text("".join(text), encoding="utf-8")
    r = runner.invoke(app, ["replay", str(path), "--json"])
    assert r.exit_code in (0, 2), r.exception
    if r.exit_code == 2:
        assert r.stdout == "" and r.stderr.startswith("bourre: ")
    else:
        json.loads(r.stdout)


@settings(max_examples=80, deadline=None)
@given(st.text(alphabet="standrdpotlimi-()+=,.0123456789 table/ayers\"'", min_size=0, max_size=60))
def test_fuzzed_house_strings_never_crash(text: str) -> None:
    r = runner.invoke(app, ["rules", "--", text])
    assert r.exit_code in (0, 2), (text, r.exception)
    if r.exit_code == 2:
        assert r.stdout == "" and r.stderr.startswith("bourre: ")


def test_huge_amounts_and_a_non_utf8_state_file(tmp_path: Path) -> None:
    refused("rules", 'table(balance="1e5000")')
    refused("rules", "table(ante=" + "9" * 40 + ")")
    state = tmp_path / "s.jsonl"
    state.write_bytes(b"\xff\xfe")
    assert "not UTF-8" in refused("simulate", "standard", "--resume", str(state))
