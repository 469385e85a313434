"""``--isolate`` keeps the run's files out of a bot's reach (issue 42).  Before, an
isolated bot listed the temporary folder, read the run's default state file there,
found the seed in its header and predicted every hand it was dealt (36 of 36).  Now
the run's files are in a private folder (0700, a name nobody can guess) and, where
Linux offers Landlock, the bot's process reads nothing but what Python needs: the
same attack, even told where the state file and its key are, finds nothing and
predicts no hand."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from bourre.cli.commands.launch import private_folder
from bourre.game.isolate import IsolatedBot, landlock_abi, readable_paths

HOSTILE = """
import json, os, re, stat
from bourre_bots.random_bot import RandomPlayer

REPORT = __REPORT__
KNOWN = __KNOWN__  # the worst case: the bot is told where the run's files are
HOUSE = None


def _read(path, out):
    try:  # without waiting on a pipe
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except OSError:
        return
    with os.fdopen(fd, "rb") as f:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return
        data = f.read(1 << 16)
    out["read"].append(path)
    for m in re.finditer(rb'"seed": "([^"]+)"', data):
        seed = m.group(1).decode().split(":")[0]
        if seed not in out["seeds"]:
            out["seeds"].append(seed)


def _candidates(top, out):
    # the state files and keys in top and its folders, newest first
    try:
        names = os.listdir(top)
    except OSError:
        return []
    out["listed"].append(top)
    found = []
    for name in names:
        path = os.path.join(top, name)
        try:
            inner = [os.path.join(path, n) for n in os.listdir(path)] if os.path.isdir(path) else [path]
        except OSError:
            continue
        for p in inner:
            if p.endswith((".jsonl", ".key")):
                try:
                    found.append((os.stat(p).st_mtime, p))
                except OSError:
                    pass
    return [p for _, p in sorted(found, reverse=True)]


def _look():
    out = {"read": [], "seeds": [], "listed": []}
    folders = {"/tmp", "/var/tmp", "/dev/shm", os.path.dirname(os.environ.get("TMPDIR", "/tmp"))}
    for top in sorted(folders):
        for path in _candidates(top, out)[:6]:
            _read(path, out)
    for path in KNOWN:
        _read(path, out)
    ppid = os.getppid()
    for name in ("cmdline", "environ"):
        _read(f"/proc/{ppid}/{name}", out)
    try:
        fds = os.listdir(f"/proc/{ppid}/fd")
    except OSError:
        fds = []
    for fd in fds:
        _read(f"/proc/{ppid}/fd/{fd}", out)
    return out


FOUND = []


class Hostile(RandomPlayer):
    needs_view = True

    def decide(self, view):
        if view.number != 1:
            return super().decide(view)
        global HOUSE
        from bourre.game.state import State
        from bourre.houses.house import House

        HOUSE = HOUSE or House("standard")
        if not FOUND:
            FOUND.append(_look())
        out = FOUND[0]
        hits = 0
        for seed in out["seeds"][:12]:
            for i in range(4):
                s = State(HOUSE, seed=f"{seed}:{i}")
                if sorted(s.observation(view.seat).hand) == sorted(view.hand):
                    hits += 1
        known = set()
        for path in KNOWN:  # stat is not reading: it answers
            try:
                st = os.stat(path)
                known.add((st.st_dev, st.st_ino))
            except OSError:
                pass
        inherited = []
        for fd in range(3, 256):  # a descriptor of the run's own files, left open?
            try:
                st = os.fstat(fd)
            except OSError:
                continue
            if (st.st_dev, st.st_ino) in known:
                inherited.append(fd)
        report = {"read": out["read"], "listed": out["listed"], "seeds": out["seeds"],
                  "known": len(known), "inherited": inherited,
                  "hits": hits, "cwd": os.getcwd(), "here": os.listdir(".")}
        fd = os.open(REPORT, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        os.write(fd, (json.dumps(report) + "\\n").encode())  # one write: whole lines
        os.close(fd)
        return super().decide(view)


def make(rng=None):
    return Hostile(rng)
"""

needs_landlock = pytest.mark.skipif(
    landlock_abi() < 1, reason="no Landlock here: the documented fallback (docs/security.md)"
)


def _hostile(tmp_path: Path, known: list[Path]) -> tuple[Path, dict[str, str]]:
    pkg = tmp_path / "botpkg"
    pkg.mkdir()
    report = tmp_path / "out" / "report.jsonl"
    report.parent.mkdir()
    (pkg / "hostile.py").write_text(
        textwrap.dedent(HOSTILE)
        .replace("__REPORT__", repr(str(report)))
        .replace("__KNOWN__", repr([str(p) for p in known]))
    )
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(pkg), env.get("PYTHONPATH", "")])
    return report, env


def _run(env: dict[str, str], *extra: str) -> subprocess.CompletedProcess[str]:
    args = [
        sys.executable,
        "-c",
        "from bourre.cli import main; main()",
        "simulate",
        "standard",
        "--bots",
        "hostile:make",
        "--sessions",
        "3",
        "--isolate",
        "--workers",
        "1",
        "--no-progress",
        *extra,
    ]
    return subprocess.run(args, capture_output=True, text=True, timeout=300, env=env)


@needs_landlock
def test_an_isolated_bot_cannot_read_the_default_state_file(tmp_path: Path) -> None:
    """The issue's attack: the run's default state file, in the temporary folder."""
    report, env = _hostile(tmp_path, [])
    r = _run(env)
    assert r.returncode == 0, r.stderr
    reports = [json.loads(x) for x in report.read_text().splitlines()]
    assert len(reports) >= 3 * 5  # every seat of every session looked
    assert sum(rep["hits"] for rep in reports) == 0
    assert all(not rep["seeds"] and not rep["read"] and not rep["listed"] for rep in reports)


@needs_landlock
def test_an_isolated_bot_told_where_the_files_are_reads_none(tmp_path: Path) -> None:
    run = tmp_path / "run"
    run.mkdir()
    state = run / "s.jsonl"
    report, env = _hostile(tmp_path, [state, Path(f"{state}.key"), run / "m.json"])
    r = _run(
        env, "--seed", "kept-from-the-bots", "--state", str(state), "--json", str(run / "m.json")
    )
    assert r.returncode == 0, r.stderr
    reports = [json.loads(x) for x in report.read_text().splitlines()]
    assert len(reports) >= 3 * 5
    assert sum(rep["hits"] for rep in reports) == 0
    assert all(not rep["read"] and not rep["seeds"] for rep in reports), reports[0]
    assert all(rep["known"] >= 2 and rep["inherited"] == [] for rep in reports)
    # its own working folder: private, empty, not the run's
    assert all(rep["cwd"] != os.getcwd() and rep["here"] == [] for rep in reports)
    # the run resumes from its files as ever
    r = _run(env, "--resume", str(state), "--sessions", "4")
    assert r.returncode == 0, r.stderr


@needs_landlock
def test_the_bot_is_confined_and_its_folder_removed() -> None:
    bot = IsolatedBot("random")
    try:
        bot.reset()
        assert bot.landlock == landlock_abi() >= 1
        folder = Path(bot.folder)
        assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    finally:
        bot.close()
    assert not folder.exists()


def test_readable_paths_hold_python_and_not_the_run() -> None:
    paths = readable_paths()
    assert sys.prefix in paths and sys.base_prefix in paths
    folder = private_folder()
    try:
        assert stat.S_IMODE(folder.stat().st_mode) == 0o700
        assert not any(str(folder).startswith(p.rstrip("/") + "/") for p in paths if p != "/")
    finally:
        folder.rmdir()


def test_without_landlock_confine_changes_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    """The fallback: where the kernel has no Landlock, ``confine`` says so (0) and
    the bot runs unconfined (in its private folder, with no descriptor of the run's)."""
    import bourre.game.isolate as iso

    monkeypatch.setattr(iso, "_LANDLOCK_SYSCALLS", {})
    assert iso.landlock_abi() == 0 and iso.confine(["/"]) == 0
