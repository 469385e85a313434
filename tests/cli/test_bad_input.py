"""Bad input to the command line: state files edited by hand, bounds on every option, hostile
notation, house files and scripts.  Each case gets one clear refusal (exit status 2,
one line naming the place and the rule) or is harmless; never a traceback."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bourre.cli import app
from bourre.sim.runs import runner as R
from bourre.sim.runs.statefile import StateLog, key_path

cli = CliRunner()


def refused(*args: str, input: str | None = None) -> str:
    """The command fails cleanly: exit 2, nothing on stdout, one line on stderr."""
    r = cli.invoke(app, list(args), input=input)
    assert r.exit_code == 2, (r.exit_code, r.stdout[:300], r.stderr[:300], r.exception)
    assert r.stdout == ""
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("bourre: "), r.stderr
    return r.stderr


# -- state files ------------------------------------------------------------------------


@pytest.fixture
def state(tmp_path: Path) -> Path:
    path = tmp_path / "s.jsonl"
    r = cli.invoke(
        app,
        [
            "simulate",
            "standard",
            "--bots",
            "random",
            "--sessions",
            "4",
            "--seed",
            "s",
            "--workers",
            "1",
            "--state",
            str(path),
            "--no-progress",
        ],
    )
    assert r.exit_code == 0, r.stderr
    assert key_path(path).exists() and len(path.read_text().splitlines()) == 5
    return path


def _resume(path: Path) -> str:
    return refused("simulate", "standard", "--resume", str(path), "--no-progress")


@pytest.mark.parametrize(
    ("edit", "line"),
    [
        (lambda ls: ls.__setitem__(2, ls[2].replace('"hands": ', '"hands": 1', 1)), 3),
        (lambda ls: ls.insert(3, ls[2]), 4),  # a line twice
        (lambda ls: ls.__setitem__(slice(2, 4), [ls[3], ls[2]]), 3),  # two swapped
        (lambda ls: ls.pop(2), 3),  # one dropped in the middle
        (lambda ls: ls.__setitem__(0, ls[0].replace('"sessions": 4', '"sessions": 9')), 1),
    ],
)
def test_an_edited_state_file_is_refused_with_its_line(
    state: Path, edit: object, line: int
) -> None:
    lines = state.read_text().splitlines()
    edit(lines)  # type: ignore[operator]
    state.write_text("\n".join(lines) + "\n")
    assert f"line {line} does not match its digest" in _resume(state)


def test_a_line_recomputed_with_a_plain_digest_is_refused(state: Path) -> None:
    """The digest of the older files (a SHA-256 of the line) could be recomputed by
    anyone; a keyed one cannot."""
    import hashlib

    lines = state.read_text().splitlines()
    e = json.loads(lines[1])
    e["summary"]["final"] = [500.0, 0, 0, 0, 0]
    body = json.dumps({"house": e["house"], "summary": e["summary"]})
    lines[1] = body[:-1] + f', "mac": "{hashlib.sha256(body.encode()).hexdigest()[:32]}"}}'
    state.write_text("\n".join(lines) + "\n")
    assert "line 2 does not match its digest" in _resume(state)


def test_a_line_of_another_run_is_refused(state: Path, tmp_path: Path) -> None:
    other = tmp_path / "o.jsonl"
    R.run(R.RunConfig(["standard"], 4, "s", R.parse_bots("random"), False), state=other)
    lines = state.read_text().splitlines()
    lines[2] = other.read_text().splitlines()[2]
    state.write_text("\n".join(lines) + "\n")
    assert "line 3 does not match" in _resume(state)


def test_out_of_range_and_twice_are_refused_even_with_the_key(tmp_path: Path) -> None:
    """Lines signed with the key (a bug, or its owner) are still checked for range."""
    config = R.RunConfig(["standard"], 3, "s", R.parse_bots("random"), False)
    from bourre.houses.house import House

    summary = R.run_session(House("standard"), R.parse_bots("random"), "s", 0)
    for bad, words in (
        (-5, "session -5 is not one of the run's 3 (0 to 2)"),
        (3, "session 3 is not one of the run's 3"),
        (True, "line 3: the summary's 'i' should be a whole number"),
        (0, "session 0 of standard twice"),
    ):
        path = tmp_path / f"{bad}.jsonl"
        log = StateLog(path, config.header())
        log.summaries("standard", [summary, {**summary, "i": bad}])
        log.close()
        assert words in _resume(path)
        path.unlink()
    path = tmp_path / "h.jsonl"
    log = StateLog(path, config.header())
    log.summaries("four-card", [summary])
    log.close()
    assert "line 2: 'four-card' is not a house of this run" in _resume(path)


@pytest.mark.parametrize(
    ("key", "value", "words"),
    [
        ("sessions", "4", "'sessions' should be a whole number"),
        ("sessions", True, "'sessions' should be a whole number"),
        ("sessions", 0, "'sessions' should be from 1 to 1,000,000,000"),
        ("houses", "standard", "'houses' should be a list"),
        ("bots", [1], "'bots' should be a list of bot names"),
        ("seed", 5, "'seed' should be a string"),
        ("rotate", "yes", "'rotate' should be true or false"),
    ],
)
def test_headers_of_the_wrong_type_are_refused(
    tmp_path: Path, key: str, value: object, words: str
) -> None:
    header = R.RunConfig(["standard"], 3, "s", R.parse_bots("random"), False).header()
    header[key] = value
    path = tmp_path / "s.jsonl"
    StateLog(path, header).close()
    assert f"line 1: the header's {words}" in _resume(path)


def test_a_torn_last_line_is_cut_and_the_run_resumes(state: Path) -> None:
    whole = state.read_text()
    state.write_text(whole + whole.splitlines()[1][:40])
    r = cli.invoke(
        app,
        ["simulate", "standard", "--resume", str(state), "--sessions", "6", "--no-progress"],
    )
    assert r.exit_code == 0, r.stderr
    _, done = R.load_state(state)
    assert sorted(done["standard"]) == list(range(6))
    assert state.read_text().startswith(whole)


def test_a_state_file_without_its_key_is_refused(state: Path) -> None:
    key_path(state).unlink()
    assert "is missing" in _resume(state)


# -- bounds and output paths ------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--workers", "10000"], "--workers must be from 1 to"),
        (["--sessions", "2000000000"], "--sessions must be from 1 to 1,000,000,000"),
        (["--chunk", "0"], "--chunk must be from 1 to"),
        (["--bots", "montecarlo(budget=1000000000)"], "budget must be from 1 to 10,000"),
        (["--state", "/dev/full"], "--state /dev/full: not a regular file"),
        (["--json", "/dev/full"], "--json /dev/full: not a regular file"),
        (["--report", "/proc/nowhere/r.html"], "the folder /proc/nowhere does not exist"),
        (["--csv", "/proc/r.csv"], "--csv /proc/r.csv: cannot be written"),
        (["--plot", "/proc/figures"], "--plot /proc/figures: cannot be written"),
    ],
)
def test_run_options_are_bounded_and_outputs_checked_first(args: list[str], words: str) -> None:
    import time

    t0 = time.monotonic()
    assert words in refused("simulate", "standard", "--no-progress", *args)
    assert time.monotonic() - t0 < 10  # before the run, not after it


@pytest.mark.parametrize("value", ["1e30", "1" + "0" * 30, "²", "-5", "five"])
def test_whole_number_options_are_read_in_words(value: str) -> None:
    assert "--sessions: " in refused("simulate", "standard", "--sessions", value, "--no-progress")


def test_a_huge_session_count_is_never_listed(monkeypatch: pytest.MonkeyPatch) -> None:
    """The indices of a run are made as tasks are taken: a run of 10^9 sessions
    stopped after a few has held only those few."""
    from bourre.sim.runs.backends import chunk_tasks

    tasks = chunk_tasks({"a": R._missing(10**9, {}), "b": R._missing(10**9, {0: {}})}, 3)
    assert [next(tasks) for _ in range(4)] == [
        ("a", [0, 1, 2]),
        ("b", [1, 2, 3]),
        ("a", [3, 4, 5]),
        ("b", [4, 5, 6]),
    ]


def test_an_output_that_fails_after_the_run_keeps_the_sessions(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import bourre.sim.reports.files as report

    def full(*args: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(report, "write_json", full)
    state = tmp_path / "s.jsonl"
    r = cli.invoke(
        app,
        [
            "simulate",
            "standard",
            "--bots",
            "random",
            "--sessions",
            "2",
            "--no-progress",
            "--workers",
            "1",
            "--state",
            str(state),
            "--json",
            str(tmp_path / "m.json"),
        ],
    )
    assert r.exit_code == 1
    assert "cannot be written: No space left on device" in r.stderr and "--resume" in r.stderr
    _, done = R.load_state(state)
    assert sorted(done["standard"]) == [0, 1]


def test_an_entry_point_named_like_a_built_in_is_reported_in_one_line(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``bourre variants`` names the clash, not pluggy's dump of every plugin."""
    from types import SimpleNamespace

    import bourre.rules.plugins as plugins
    from bourre.rules.variant import Variant, hookimpl

    class Other(Variant):
        name = "other-standard"

    def variants(register: object) -> None:
        register(Other)  # type: ignore[operator]

    plugin = SimpleNamespace(bourre_register_variants=hookimpl(variants))
    real = plugins._entry_points

    def with_clash() -> object:
        yield from real()
        yield "standard", "impostor 1.0", False, lambda: plugin

    monkeypatch.setattr(plugins, "_entry_points", with_clash)
    monkeypatch.setattr(plugins, "default_registry", plugins.load_registry)
    reg = plugins.load_registry()
    assert "other-standard" not in reg.variants
    [error] = [e for e in reg.errors if e.package == "impostor 1.0"]
    assert "named 'standard', like a plugin loaded before it" in error.message
    assert "\n" not in error.message and "<module" not in error.message
    r = cli.invoke(app, ["variants"])
    shown = " ".join((r.stdout + r.stderr).split())
    assert "named 'standard', like a plugin loaded before it" in shown
    assert "<module" not in shown and "namespace(" not in shown


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (
            [
                "replay",
                str(Path(__file__).parents[1] / "golden" / "worked_example.script.json"),
                "--indent",
                "99999999",
            ],
            "--indent must be from 0 to 16",
        ),
        (["play", "--hands", "0"], "--hands must be 1 or more"),
        (["bench", "--parallel", "--workers", "500"], "--workers must be from 1 to"),
    ],
)
def test_other_numbers_are_bounded(args: list[str], words: str) -> None:
    assert words in refused(*args)


@pytest.mark.parametrize(
    "args",
    [
        ["serve", "--port", "x"],
        ["play", "--seed", "1e3"],
        ["check", "--won", "²"],
        ["replay", "x.json", "--indent", "1" * 30],
        ["bench", "--workers", "--5"],
    ],
)
def test_every_whole_number_option_is_read_in_words(args: list[str]) -> None:
    assert "is not a whole number" in refused(*args)


@pytest.mark.parametrize(
    "args",
    [
        ["compare", "standard", "double-ante", "--below", "x"],
        ["bench", "--seconds", "nan"],
        ["sweep", "standard+pot-limit(limit={5,10})", "--down", "1e999"],
    ],
)
def test_number_options_are_read_in_words(args: list[str]) -> None:
    assert "is not a" in refused(*args) and "number" in refused(*args)


@pytest.mark.parametrize("seed", ["x" * 201, "", "a\nb"])
def test_a_seed_is_a_short_line(seed: str) -> None:
    assert "--seed: a seed is 1 to 200 printable characters" in refused(
        "simulate", "standard", "--seed", seed, "--no-progress"
    )


def test_bots_given_as_module_and_factory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``--bots package.module:factory`` (docs/security.md): a bot not installed."""
    (tmp_path / "mybots.py").write_text(
        "from bourre_bots.random_bot import RandomPlayer\n\ndef make(rng=None):\n    return RandomPlayer(rng)\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    r = cli.invoke(
        app,
        [
            "simulate",
            "standard",
            "--bots",
            "mybots:make",
            "--sessions",
            "1",
            "--workers",
            "1",
            "--no-progress",
        ],
    )
    assert r.exit_code == 0, r.stderr
    assert "cannot be loaded" in refused(
        "simulate", "standard", "--bots", "nosuchmodule:make", "--sessions", "1", "--no-progress"
    )
    assert "not 'name'" in refused("simulate", "standard", "--bots", "a:b:c", "--no-progress")


# -- hand notation, scripts, house files ----------------------------------------------------


@pytest.mark.parametrize(
    ("line", "words"),
    [
        ("hand dealer ²", "line 2, column 13: '²' is not a seat number (R-SEAT)"),
        ("balances --5", "line 2, column 10: '--5' is not an amount of chips"),
        ("rules " + "[" * 5000, "line 2, column 7: rules: not valid JSON: nested too deeply"),
        (
            "balances " + "9" * 5000,
            "line 2, column 10: '99999999999999999999…' chips is more than a table holds",
        ),
        ("hand pot 1e999", "line 2, column 10: '1e999' is not an amount of chips"),
        (
            'rules {"table": {"players": ' + "9" * 5000 + "}}",
            "line 2, column 7: rules: not valid JSON: the number",
        ),
        ("decide ³ play", "line 2, column 1: decide: comes after a 'hand' line"),
    ],
)
@pytest.mark.parametrize("command", [["replay"], ["check", "--script"], ["convert"]])
def test_hostile_notation_in_every_command(
    tmp_path: Path, line: str, words: str, command: list[str]
) -> None:
    path = tmp_path / "hand.txt"
    body = line if line.startswith(("hand", "decide")) else f"{line}\nhand"
    path.write_text(f"house standard\n{body}\nupcard 7S\n", encoding="utf-8")
    if line.startswith("decide"):
        path.write_text(f"house standard\n{line}\n", encoding="utf-8")
        words = "line 2, column 1: decide: comes after a 'hand' line"
    message = refused(*command, str(path))
    assert words in message and len(message) < 500


def test_convert_checks_a_json_script_first(tmp_path: Path) -> None:
    path = tmp_path / "s.json"
    path.write_text(
        json.dumps({"hands": [{"plays": [{"seat": "x", "card": "AS"}]}]}), encoding="utf-8"
    )
    message = refused("convert", str(path))
    assert "hand 1, play 1, seat: should be a whole number (R-SEAT)" in message
    assert "Input should" not in message


def test_a_house_file_with_a_huge_number_in_every_command(tmp_path: Path) -> None:
    house = tmp_path / "h.toml"
    house.write_text("[table]\nballance = 1\nbalance = " + "9" * 5000 + "\n", encoding="utf-8")
    for args in (
        ["rules", str(house)],
        ["simulate", str(house), "--no-progress"],
        ["compare", "standard", str(house), "--no-progress"],
        ["play", str(house)],
        ["bench", str(house)],
    ):
        assert "not valid TOML: a number too long" in refused(*args)


@pytest.mark.parametrize("workers", ["1", "2"])
def test_a_state_file_that_fills_up_stops_the_run_in_words(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, workers: str
) -> None:
    from bourre.sim.runs import statefile

    real, calls = statefile.StateLog.write, [0]

    def write(self: statefile.StateLog, bodies: list[str]) -> None:
        calls[0] += 1
        if calls[0] > 2:
            raise statefile.StateError(
                f"--state {self.path}: cannot be written: No space left on device"
            )
        real(self, bodies)

    monkeypatch.setattr(statefile.StateLog, "write", write)
    state = tmp_path / "s.jsonl"
    r = cli.invoke(
        app,
        [
            "simulate",
            "standard",
            "--bots",
            "random",
            "--sessions",
            "40",
            "--chunk",
            "1",
            "--workers",
            workers,
            "--no-progress",
            "--state",
            str(state),
        ],
    )
    assert r.exit_code == 1, (r.exception, r.stderr)
    assert "PARTIAL (--state" in r.stderr and "No space left on device" in r.stderr
    assert "worker failed" not in r.stderr


@pytest.mark.parametrize(
    "args",
    [
        ["rules", "standard"],
        ["convert", str(Path(__file__).parents[1] / "golden" / "worked_example.script.json")],
        [
            "simulate",
            "standard",
            "--sessions",
            "2",
            "--bots",
            "random",
            "--no-progress",
            "--workers",
            "1",
        ],
    ],
)
def test_a_full_standard_output_is_one_line_not_a_traceback(args: list[str]) -> None:
    import subprocess
    import sys

    with open("/dev/full", "w") as full:
        r = subprocess.run(
            [sys.executable, "-c", "from bourre.cli import main; main()", *args],
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            timeout=120,
        )
    assert r.returncode == 1
    assert r.stderr == "bourre: the output cannot be written: No space left on device\n"
