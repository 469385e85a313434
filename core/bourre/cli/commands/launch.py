"""What ``compare``, ``simulate`` and ``sweep`` share on the command line: the run
options checked, the houses played with :func:`bourre.sim.runs.runner.run` (in worker
processes or on a Dask cluster) with a progress bar, SIGTERM/SIGHUP stopping like
Ctrl-C, the state file, ``--resume``, and the exit of a run stopped early.

The run options and their checks are :mod:`bourre.cli.commands.options`, the progress bar
:mod:`bourre.sim.runs.progress`.  Heavy modules (the runner, rich, distributed) are
imported by the functions that use them.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import signal
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import typer

from bourre.cli.commands.options import RunOptions, check_bot_options, check_outputs
from bourre.cli.util import fail
from bourre.sim.runs.progress import run_with_progress
from bourre.sim.runs.statefile import key_path

__all__ = [
    "Launched",
    "RunOptions",
    "check_bot_options",
    "check_outputs",
    "finish",
    "launch",
    "writing",
]


def cpus() -> int:
    """The CPUs this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


@contextlib.contextmanager
def stop_on_signals() -> Any:
    """SIGTERM and SIGHUP stop the run like Ctrl-C: the partial summary is written
    and the completed sessions are kept."""

    def stop(signum: int, frame: Any) -> None:
        raise KeyboardInterrupt(signal.Signals(signum).name)

    saved = {}
    for sig in (signal.SIGTERM, getattr(signal, "SIGHUP", None)):
        if sig is not None:
            saved[sig] = signal.signal(sig, stop)
    try:
        yield
    finally:
        for sig, handler in saved.items():
            signal.signal(sig, handler)


@dataclass
class Launched:
    """A run played (perhaps stopped early) and where its sessions are kept."""

    result: Any
    """The :class:`~bourre.sim.runs.runner.RunResult`."""
    state: Path
    temporary: bool
    """The state file was made for this run only (removed when it completes)."""
    then: Any = None
    """What the ``then`` step returned (``None`` without one, or when the run stopped)."""


def launch(
    houses: list[Any],
    run: RunOptions,
    *,
    plot: bool = False,
    report: bool = False,
    default_sessions: int = 5000,
    then: Callable[[Callable[..., Any], Any], Any] | None = None,
) -> Launched:
    """Play ``houses`` (built :class:`~bourre.houses.house.House` objects, all different) on
    common random numbers, resuming ``run.resume`` if given: the run options are taken
    from the state file where not given, and checked against it."""
    # lazy: loaded when this command runs (`bourre --help` and the other commands start without it)
    from bourre.rules.plugins import default_registry
    from bourre.sim.runs import runner, statefile
    from bourre.sim.runs import sessions as sessions_

    sessions, seed, bots, rotate, isolate = (
        run.sessions,
        run.seed,
        run.bots,
        run.rotate,
        run.isolate,
    )
    workers, scheduler, chunk = run.workers, run.scheduler, run.chunk
    resume, state, progress = run.resume, run.state, run.progress
    header: dict[str, Any] | None = None
    done: Any = None
    if resume is not None:
        try:  # streamed: the sessions it holds, not their summaries
            done = statefile.scan_state(resume)
            header = done.header
        except statefile.StateError as e:
            fail(str(e))
        seed = seed if seed is not None else str(header.get("seed", "0"))
        bots = bots if bots is not None else ",".join(header.get("bots", ["heuristic"]))
        rotate = rotate or bool(header.get("rotate", False))
        isolate = isolate or bool(header.get("isolate", False))
        sessions = (
            sessions if sessions is not None else int(header.get("sessions", default_sessions))
        )
    if isolate and seed is None:  # a seed nobody can guess: bots cannot replay the deals
        seed = secrets.token_hex(16)
    seed = seed if seed is not None else "0"
    if isolate:
        from bourre.game.isolate import hide_seed

        hide_seed(seed)  # not on this process's command line for a bot to read
    sessions = sessions if sessions is not None else default_sessions
    try:
        specs_bots = sessions_.parse_bots(bots or "heuristic", default_registry().bots)
    except ValueError as e:
        fail(f"--bots: {e}")
    for h in houses:
        try:
            sessions_.seat_bots(specs_bots, h.table.players, 0, rotate)
        except ValueError as e:
            fail(f"--bots: {e} ({h.spec})")
    check_bot_options(specs_bots, houses[0], isolate)
    config = runner.RunConfig([h.spec for h in houses], sessions, seed, specs_bots, rotate, isolate)
    try:
        if header is not None:
            statefile.check_resume(config, header, resume)  # type: ignore[arg-type]
        if state is not None:  # another run's file, or this run's not resumed
            statefile.check_state(state, config.header(), resume)
    except statefile.StateError as e:
        fail(str(e))
    for flag, wanted in (("--plot", plot), ("--report", report)):
        if not wanted:
            continue
        try:
            import matplotlib  # noqa: F401

            if flag == "--report":
                import jinja2  # noqa: F401
        except ImportError as e:
            fail(f"{flag} needs {e.name}: pip install 'bourre[plot]'")

    client = None
    if scheduler is not None:
        try:
            from distributed import Client
        except ImportError:
            fail("--scheduler needs Dask: pip install 'bourre[dask]'")
        try:
            client = Client(scheduler, timeout="10s")  # type: ignore[no-untyped-call]
        except (OSError, TimeoutError, ValueError) as e:
            fail(f"--scheduler {scheduler}: cannot connect: {e}")

    temporary = False
    state_path = state if state is not None else resume
    if state_path is None:
        state_path = private_folder() / "state.jsonl"
        temporary = True

    nworkers = workers if workers is not None else cpus()
    if not isolate and client is None:  # said before the run: a house on the Python rules
        from bourre.sim.speed.forecast import python_path_notices

        engine = os.environ.get("BOURRE_ENGINE", "auto") or "auto"
        for line in python_path_notices(houses, specs_bots, sessions, nworkers, engine):
            print(f"bourre: {line}", file=sys.stderr)

    def run_one(cfg: Any, label: str = "simulating", task: Any = None) -> Any:
        with stop_on_signals():
            return run_with_progress(
                runner,
                cfg,
                houses,
                nworkers,
                client,
                chunk,
                state_path,
                done,
                progress,
                label,
                task,
            )

    extra = None
    try:
        result = run_one(config)
        if then is not None and result.complete:  # more runs on the same path and deals
            extra = then(run_one, config)
    except statefile.StateError as e:  # taken by another run meanwhile (its lock)
        fail(str(e))
    finally:
        if client is not None:
            client.close()  # type: ignore[no-untyped-call]
    return Launched(result, state_path, temporary, extra)


def private_folder() -> Path:
    """A new folder of this run's only (mode 0700, a name nobody can guess) for the
    state file of a run not given ``--state``: in ``XDG_RUNTIME_DIR`` (the user's
    own) when there is one, else in the temporary folder.  An isolated bot cannot
    read it (docs/security.md)."""
    runtime = os.environ.get("XDG_RUNTIME_DIR")
    where = runtime if runtime and os.path.isdir(runtime) else None
    try:
        return Path(tempfile.mkdtemp(prefix="bourre-run-", dir=where))
    except OSError:
        return Path(tempfile.mkdtemp(prefix="bourre-run-"))


@contextlib.contextmanager
def writing(launched: Launched, flag: str, path: Path) -> Any:
    """Write an output after the run: a failure (a full disk) is one message, and the
    state file is kept so that the run's sessions are not lost (exit status 1)."""
    try:
        yield
    except OSError as e:
        sys.stderr.write(
            f"bourre: {flag} {path}: cannot be written: {e.strerror or e}\n"
            f"bourre: the completed sessions are in {launched.state};"
            f" write the outputs again with --resume {launched.state}\n"
        )
        raise typer.Exit(1) from None


def finish(launched: Launched, note: str | None, then_stopped: str | None = None) -> None:
    """After the outputs are written: a complete run removes its temporary state
    file; a run stopped early (or its ``then`` step: ``then_stopped``) says what it
    covers (``note``) and how to continue, and exits 130 (interrupted) or 1 (a
    worker failed)."""
    result = launched.result
    stopped = then_stopped if result.complete else result.stopped
    if stopped is None:
        if launched.temporary:
            launched.state.unlink(missing_ok=True)
            key_path(launched.state).unlink(missing_ok=True)
            with contextlib.suppress(OSError):
                launched.state.parent.rmdir()  # its private folder, now empty
        return
    sys.stderr.write(
        f"bourre: {note}\nbourre: completed sessions are in {launched.state};"
        f" continue with --resume {launched.state}\n"
    )
    raise typer.Exit(130 if stopped == "interrupted" else 1)
