"""A worker process that dies (kill -9, the OOM killer) in a process-pool run (issue
42): the run ends in one message and the partial summary of what finished, never a
``BrokenProcessPool`` traceback, and it resumes to the numbers of a run that was
never stopped.  The pool can break anywhere: while a task runs (its future fails)
or between tasks (``submit`` refuses the next one)."""

from __future__ import annotations

import os
import signal
import textwrap
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from bourre.cli import app
from bourre.sim.runs import backends
from bourre.sim.runs import runner as R
from bourre.sim.runs.statefile import scan_state

HOUSES = ["standard", "standard+double-ante"]


def config() -> R.RunConfig:
    return R.RunConfig(HOUSES, 8, "dying", R.parse_bots("random"))


def numbers(result: R.RunResult) -> dict[str, list[Any]]:
    return {
        h: [{k: v for k, v in s.items() if k != "seconds"} for s in result.ordered(h)]
        for h in HOUSES
    }


def dying_chunk(
    house: str, bots: Any, seed: str, indices: list[int], rotate: bool
) -> list[dict[str, Any]]:
    """A worker task that kills its own process (once: a marker file) at session 5."""
    marker = Path(os.environ["BOURRE_TEST_DIE_ONCE"])
    if 5 in indices:
        try:
            fd = os.open(marker, os.O_WRONLY | os.O_CREAT | os.O_EXCL)
        except FileExistsError:
            pass
        else:
            os.close(fd)
            os.kill(os.getpid(), signal.SIGKILL)
    return R.run_chunk(house, bots, seed, indices, rotate)


def test_a_worker_killed_while_playing_stops_the_run_resumably(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("BOURRE_TEST_DIE_ONCE", str(tmp_path / "died"))
    state = tmp_path / "s.jsonl"
    part = R.run(config(), workers=2, chunk=1, state=state, task=dying_chunk)
    assert not part.complete and part.stopped is not None
    assert "a worker process died" in part.stopped
    assert part.completed() < 8 * len(HOUSES)
    resumed = R.run(config(), workers=2, chunk=1, state=state, resume=scan_state(state))
    assert resumed.complete
    assert numbers(resumed) == numbers(R.run(config(), workers=1))


def test_a_pool_broken_between_tasks_stops_the_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Before: ``executor.submit`` raised ``BrokenProcessPool`` outside the run's
    guard, a traceback with no partial summary."""
    real, calls = backends.ProcessPoolExecutor.submit, [0]

    def submit(self: Any, *args: Any, **kw: Any) -> Any:
        calls[0] += 1
        if calls[0] > 12:  # after a first window of tasks, some completed
            raise BrokenProcessPool("a process in the pool was terminated abruptly")
        return real(self, *args, **kw)

    monkeypatch.setattr(backends.ProcessPoolExecutor, "submit", submit)
    state = tmp_path / "s.jsonl"
    part = R.run(config(), workers=2, chunk=1, state=state)
    assert not part.complete and "a worker process died" in (part.stopped or "")
    monkeypatch.undo()
    _, done = R.load_state(state)
    assert sum(len(d) for d in done.values()) == part.completed() >= 1
    resumed = R.run(config(), workers=2, chunk=1, state=state, resume=scan_state(state))
    assert resumed.complete and resumed.completed() == 8 * len(HOUSES)


KILLER = """
import os, signal
from bourre_bots.random_bot import RandomPlayer

MARKER = __MARKER__
CALLS = [0]

class Killer(RandomPlayer):
    def play(self, view):
        CALLS[0] += 1
        if CALLS[0] == 800:  # some sessions in: then this worker process dies, once
            try:
                os.close(os.open(MARKER, os.O_WRONLY | os.O_CREAT | os.O_EXCL))
            except FileExistsError:
                pass
            else:
                os.kill(os.getpid(), signal.SIGKILL)
        return super().play(view)

def make(rng=None):
    return Killer(rng)
"""


def test_simulate_with_a_dying_worker_says_so_once_and_resumes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "killerbot.py").write_text(
        textwrap.dedent(KILLER).replace("__MARKER__", repr(str(tmp_path / "died")))
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    state = tmp_path / "s.jsonl"
    args = ["simulate", "standard", "--bots", "killerbot:make", "--no-progress"]
    r = CliRunner().invoke(
        app, [*args, "--sessions", "60", "--workers", "2", "--chunk", "1", "--state", str(state)]
    )
    assert r.exit_code == 1, (r.stderr, r.exception)
    assert "Traceback" not in r.stderr and "BrokenProcessPool" not in r.stderr
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 2, r.stderr
    assert "PARTIAL (worker failed: a worker process died" in lines[0]
    assert f"continue with --resume {state}" in lines[1]
    assert "sessions" in r.stdout  # the partial summary of what finished
    r = CliRunner().invoke(app, [*args, "--workers", "2", "--resume", str(state)])
    assert r.exit_code == 0, r.stderr
    _, done = R.load_state(state)
    assert sorted(done["standard"]) == list(range(60))
