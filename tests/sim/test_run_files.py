"""A run's files are its own (issue 42): a state file opens with the run's identity
and is refused to any other run, with ``--resume`` or without; its key is made
afresh (``O_EXCL|O_NOFOLLOW``, mode 0600) and never written over another file; a key
that is a link, a pipe, empty or open to others is refused; a run locks its state
file; every field of a signed line is type-checked.  Each case is one message
(exit status 2), never a traceback, and leaves the files as they were."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bourre.cli import app
from bourre.houses.house import House
from bourre.sim.runs import runner as R
from bourre.sim.runs.statefile import StateError, StateLog, key_path, load_state

cli = CliRunner()


def simulate(*args: str) -> tuple[int, str]:
    r = cli.invoke(
        app,
        [
            "simulate",
            "standard",
            "--bots",
            "random",
            "--sessions",
            "2",
            "--workers",
            "1",
            "--no-progress",
            *args,
        ],
    )
    return r.exit_code, r.stderr


def refused(*args: str) -> str:
    """Exit status 2 and one line on the standard error."""
    code, err = simulate(*args)
    assert code == 2, err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("bourre: "), err
    return err


@pytest.fixture
def run_a(tmp_path: Path) -> Path:
    path = tmp_path / "a.jsonl"
    code, err = simulate("--seed", "a", "--state", str(path))
    assert code == 0, err
    return path


def snapshot(*paths: Path) -> list[bytes]:
    return [p.read_bytes() for p in paths]


# -- the run's identity -------------------------------------------------------------------


def test_state_naming_another_runs_file_is_refused(run_a: Path) -> None:
    """Before: the other run's sessions were appended under the first run's header,
    and a resume took them as its own (or found 'session 0 twice')."""
    before = snapshot(run_a, key_path(run_a))
    err = refused("--seed", "b", "--state", str(run_a))
    assert "of another run: seed 'a' there, 'b' here" in err
    err = refused("--seed", "a", "--bots", "heuristic", "--state", str(run_a))
    assert "of another run: bots ['random'] there, ['heuristic'] here" in err
    with pytest.raises(StateError, match="of another run: seed 'a' there, 'b' here"):  # the API
        R.run(R.RunConfig(["standard"], 2, "b", R.parse_bots("random")), state=run_a)
    assert snapshot(run_a, key_path(run_a)) == before
    _, done = load_state(run_a)
    assert sorted(done["standard"]) == [0, 1]


def test_resume_of_another_runs_file_is_refused(run_a: Path, tmp_path: Path) -> None:
    before = snapshot(run_a)
    assert "of another run" in refused("--seed", "b", "--resume", str(run_a))
    b = tmp_path / "b.jsonl"
    assert simulate("--seed", "b", "--state", str(b))[0] == 0
    # resuming b into a (another run's file) is refused too
    assert "of another run" in refused("--resume", str(b), "--state", str(run_a))
    assert snapshot(run_a) == before


def test_this_runs_own_file_without_resume_is_refused(run_a: Path) -> None:
    """Played again into its own file, every session would be there twice."""
    err = refused("--seed", "a", "--state", str(run_a))
    assert f"continue it with --resume {run_a}" in err
    code, err = simulate("--seed", "a", "--state", str(run_a), "--resume", str(run_a))
    assert code == 0, err
    assert simulate("--resume", str(run_a), "--sessions", "3")[0] == 0
    _, done = load_state(run_a)
    assert sorted(done["standard"]) == [0, 1, 2]


def test_a_file_that_is_no_state_file_is_left_alone(tmp_path: Path) -> None:
    """Before: its last line was cut (taken for a torn line) before anything was checked."""
    notes = tmp_path / "notes.txt"
    notes.write_text("my notes\nnot a state file, and no newline at the end")
    before = notes.read_bytes()
    assert "line 1 is not JSON" in refused("--state", str(notes))
    assert notes.read_bytes() == before


# -- the key ------------------------------------------------------------------------------


def test_an_unrelated_key_file_is_never_written_over(tmp_path: Path) -> None:
    """``--state server`` next to another program's ``server.key``."""
    server, key = tmp_path / "server", tmp_path / "server.key"
    key.write_text("-----BEGIN PRIVATE KEY-----\nsomeone else's\n")
    before = key.read_bytes()
    err = refused("--state", str(server))
    assert f"{key} exists already" in err and "not this run's key" in err
    assert key.read_bytes() == before and not server.exists()
    with pytest.raises(StateError, match="exists already"):  # the API too
        StateLog(server, R.RunConfig(["standard"], 2).header())
    assert key.read_bytes() == before and not server.exists()


def test_a_symlinked_key_is_not_followed(tmp_path: Path, run_a: Path) -> None:
    target = tmp_path / "precious"
    target.write_text("precious")
    fresh = tmp_path / "st.jsonl"
    key_path(fresh).symlink_to(target)
    assert "exists already" in refused("--state", str(fresh))
    assert target.read_text() == "precious"
    key = key_path(run_a)
    real = tmp_path / "real.key"
    key.rename(real)
    key.symlink_to(real)
    assert "is a symbolic link" in refused("--resume", str(run_a))


def test_new_keys_are_the_owners_only_whatever_the_umask(tmp_path: Path) -> None:
    old = os.umask(0)
    try:
        path = tmp_path / "s.jsonl"
        StateLog(path, R.RunConfig(["standard"], 2).header()).close()
    finally:
        os.umask(old)
    assert stat.S_IMODE(key_path(path).stat().st_mode) == 0o600
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


@pytest.mark.parametrize(
    ("spoil", "words"),
    [
        (lambda k: k.chmod(0o644), "is open to others (mode 0644)"),
        (lambda k: k.chmod(0o640), "is open to others (mode 0640)"),
        (lambda k: k.write_text(""), "is empty"),
        (lambda k: k.write_text("zz" * 32), "is not a key (64 hex digits)"),
        (lambda k: k.write_text("ab" * 8), "is not a key (64 hex digits)"),
    ],
)
def test_a_spoilt_key_is_refused(run_a: Path, spoil: object, words: str) -> None:
    """Before: a 0644 key was used as it was, an empty one was a zero-length key."""
    spoil(key_path(run_a))  # type: ignore[operator]
    assert words in refused("--resume", str(run_a))


def test_a_key_that_is_a_pipe_is_refused_without_waiting(tmp_path: Path, run_a: Path) -> None:
    """Before: ``--resume`` waited for ever on a FIFO key."""
    key = key_path(run_a)
    key.unlink()
    os.mkfifo(key, 0o600)
    r = subprocess.run(
        [
            sys.executable,
            "-m",
            "bourre.cli",
            "simulate",
            "standard",
            "--bots",
            "random",
            "--no-progress",
            "--resume",
            str(run_a),
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert r.returncode == 2 and "is not a regular file" in r.stderr, r.stderr
    assert len(r.stderr.strip().splitlines()) == 1


# -- one run at a time --------------------------------------------------------------------


def test_a_second_run_on_the_same_file_is_refused(run_a: Path) -> None:
    """Before: two runs appended to one file, which no longer resumed."""
    header = R.RunConfig(["standard"], 2, "a", R.parse_bots("random")).header()
    holder = StateLog(run_a, header)  # a run under way
    try:
        before = snapshot(run_a)
        assert "another run is using this state file" in refused("--resume", str(run_a))
        with pytest.raises(StateError, match="another run is using"):
            StateLog(run_a, header)
        assert snapshot(run_a) == before
    finally:
        holder.close()
    assert simulate("--resume", str(run_a), "--sessions", "3")[0] == 0  # free again


# -- every field of a signed line ---------------------------------------------------------


def _signed_file(tmp_path: Path, edit: object) -> Path:
    """A state file whose second line, signed with the run's key, is ``edit``ed."""
    config = R.RunConfig(["standard"], 3, "s", R.parse_bots("random"))
    summary = R.run_session(House("standard"), config.bots, "s", 0)
    line = {"house": "standard", "summary": summary}
    edit(line)  # type: ignore[operator]
    path = tmp_path / "signed.jsonl"
    log = StateLog(path, config.header())
    log.write([json.dumps(line)])
    log.close()
    return path


@pytest.mark.parametrize(
    ("edit", "words"),
    [
        (
            lambda e: e.__setitem__("house", ["standard"]),
            "line 2: the line's 'house' should be a house string",
        ),
        (
            lambda e: e["summary"].__setitem__("pot", "5"),
            "line 2: the summary's 'pot' should be a list of numbers",
        ),
        (
            lambda e: e["summary"]["pot"].__setitem__(0, "5"),
            "line 2: the summary's 'pot' should be a list of numbers",
        ),
        (
            lambda e: e["summary"].__setitem__("hands", 2.5),
            "line 2: the summary's 'hands' should be a whole number",
        ),
        (
            lambda e: e["summary"].__setitem__("final", None),
            "the summary's 'final' should be a list of numbers",
        ),
        (lambda e: e["summary"].pop("players"), "line 2: the summary has no 'players'"),
        (
            lambda e: e["summary"].__setitem__("extra", 1),
            "the summary has 'extra', which is none of its fields",
        ),
        (lambda e: e["summary"]["final"].pop(), "one entry a seat or a hand"),
        (
            lambda e: e["summary"].__setitem__("players", 10**6),
            "'players' or 'hands' is out of range",
        ),
        (lambda e: e.__setitem__("summary", []), "the line's 'summary' should be an object"),
        (lambda e: e.pop("summary"), "line 2: the line has no 'summary'"),
    ],
)
def test_every_field_of_a_signed_line_is_checked(tmp_path: Path, edit: object, words: str) -> None:
    """Before: ``house`` as a list or a string ``pot`` ended in a traceback."""
    path = _signed_file(tmp_path, edit)
    assert words in refused("--resume", str(path))
    with pytest.raises(StateError, match="line 2"):
        load_state(path)


def test_a_plan_line_of_the_wrong_types_is_refused(tmp_path: Path) -> None:
    config = R.RunConfig(["standard"], 3, "s", R.parse_bots("random"))
    path = tmp_path / "plan.jsonl"
    log = StateLog(path, config.header())
    log.write([json.dumps({"sessions": "9", "houses": ["standard"]})])
    log.close()
    assert "line 2: the line's 'sessions' should be a whole number" in refused(
        "--resume", str(path)
    )


def test_the_summaries_of_both_engines_pass_their_check() -> None:
    from bourre.sim.runs.statefile import Summary

    for engine in ("python", "auto"):
        for bots in ("random", "heuristic"):
            s = R.run_session(House("standard"), R.parse_bots(bots), "e", 1, engine=engine)
            Summary.model_validate(s)
