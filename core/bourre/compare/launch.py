"""What ``compare``, ``simulate`` and ``sweep`` share on the command line: the run
options checked, the houses played with :func:`bourre.compare.runner.run` (in worker
processes or on a Dask cluster) with a progress bar, SIGTERM/SIGHUP stopping like
Ctrl-C, the state file, ``--resume``, and the exit of a run stopped early.

Heavy modules (the runner, rich, distributed) are imported by the functions that use
them.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

import typer

__all__ = ["Launched", "check_bot_options", "check_outputs", "finish", "launch"]


def cpus() -> int:
    """The CPUs this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def check_outputs(**paths: Path | None) -> None:
    """Refuse, before the run, an output that could not be written after it."""
    from bourre.cliutil import fail

    for option, path in paths.items():
        if path is None:
            continue
        flag = f"--{option}"
        if option == "plot":
            if path.exists() and not path.is_dir():
                fail(f"{flag} {path}: not a folder")
            if not path.parent.is_dir():
                fail(f"{flag} {path}: the folder {path.parent} does not exist")
            continue
        if path.is_dir():
            fail(f"{flag} {path}: a folder, not a file")
        if option == "resume":
            if not path.is_file():
                fail(f"{flag} {path}: no such state file")
            continue
        if not path.parent.is_dir():
            fail(f"{flag} {path}: the folder {path.parent} does not exist")


def check_numbers(
    sessions: int | None, workers: int | None, chunk: int | None, scheduler: str | None
) -> None:
    """The run options that are numbers, and --scheduler against --workers."""
    from bourre.cliutil import fail

    if sessions is not None and sessions < 1:
        fail(f"--sessions must be at least 1, not {sessions}")
    if workers is not None and workers < 1:
        fail(f"--workers must be at least 1, not {workers}")
    if chunk is not None and chunk < 1:
        fail(f"--chunk must be at least 1, not {chunk}")
    if scheduler is not None and workers is not None:
        fail("--scheduler and --workers exclude each other: the cluster has its own workers")


def check_bot_options(bots: list[Any], house: Any) -> None:
    """Build each bot once so that bad options fail now, with one message."""
    import random

    from bourre.cliutil import fail
    from bourre.players import make_bot

    for b in bots:
        try:
            make_bot(b.name, random.Random(0), house=house, **dict(b.options))
        except (TypeError, ValueError) as e:
            fail(f"--bots: {b.label}: {e}")


@contextlib.contextmanager
def stop_on_signals() -> Any:
    """SIGTERM and SIGHUP stop the run like Ctrl-C: the partial summary is written
    and the completed sessions are kept."""
    import signal

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
    """The :class:`~bourre.compare.runner.RunResult`."""
    state: Path
    temporary: bool
    """The state file was made for this run only (removed when it completes)."""
    then: Any = None
    """What the ``then`` step returned (``None`` without one, or when the run stopped)."""


@dataclass(frozen=True)
class RunOptions:
    """The options every command that plays a run shares (``compare``, ``simulate``,
    ``sweep``), as given on the command line (``None``: not given)."""

    sessions: int | None = None
    seed: str | None = None
    bots: str | None = None
    rotate: bool = False
    isolate: bool = False
    workers: int | None = None
    scheduler: str | None = None
    chunk: int | None = None
    resume: Path | None = None
    state: Path | None = None
    progress: bool = True

    @classmethod
    def pick(cls, options: Mapping[str, Any]) -> RunOptions:
        """The run options among a command's parameters (its ``locals()``)."""
        return cls(**{f.name: options[f.name] for f in fields(cls)})

    def check(self) -> None:
        """Refuse numbers out of range (exit status 2)."""
        check_numbers(self.sessions, self.workers, self.chunk, self.scheduler)


def launch(
    houses: list[Any],
    run: RunOptions,
    *,
    plot: bool = False,
    report: bool = False,
    default_sessions: int = 5000,
    then: Callable[[Callable[..., Any], Any], Any] | None = None,
) -> Launched:
    """Play ``houses`` (built :class:`~bourre.house.House` objects, all different) on
    common random numbers, resuming ``run.resume`` if given: the run options are taken
    from the state file where not given, and checked against it."""
    from bourre.cliutil import fail
    from bourre.compare import runner, statefile
    from bourre.compare import sessions as sessions_
    from bourre.plugins import default_registry

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
    done: dict[str, dict[int, dict[str, Any]]] | None = None
    if resume is not None:
        try:
            header, done = statefile.load_state(resume)
        except statefile.StateError as e:
            fail(str(e))
        seed = seed if seed is not None else str(header.get("seed", "0"))
        bots = bots if bots is not None else ",".join(header.get("bots", ["heuristic"]))
        rotate = rotate or bool(header.get("rotate", False))
        isolate = isolate or bool(header.get("isolate", False))
        sessions = (
            sessions if sessions is not None else int(header.get("sessions", default_sessions))
        )
    seed = seed if seed is not None else "0"
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
    check_bot_options(specs_bots, houses[0])
    config = runner.RunConfig([h.spec for h in houses], sessions, seed, specs_bots, rotate, isolate)
    if header is not None:
        try:
            statefile.check_resume(config, header, resume)  # type: ignore[arg-type]
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
        import tempfile

        fd, name = tempfile.mkstemp(prefix="bourre-compare-", suffix=".jsonl")
        os.close(fd)
        state_path = Path(name)
        temporary = True

    nworkers = workers if workers is not None else cpus()

    def run_one(cfg: Any, label: str = "simulating", task: Any = None) -> Any:
        with stop_on_signals():
            return _run_with_progress(
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
    finally:
        if client is not None:
            client.close()  # type: ignore[no-untyped-call]
    return Launched(result, state_path, temporary, extra)


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
        return
    sys.stderr.write(
        f"bourre: {note}\nbourre: completed sessions are in {launched.state};"
        f" continue with --resume {launched.state}\n"
    )
    raise typer.Exit(130 if stopped == "interrupted" else 1)


def _run_with_progress(
    runner: Any,
    config: Any,
    houses: list[Any],
    workers: int,
    client: Any,
    chunk: int | None,
    state: Path,
    done: Any,
    show: bool,
    label: str = "simulating",
    task: Any = None,
) -> Any:
    import time

    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    hands = sum(h.table.hands for h in houses) / len(houses)
    console = Console(stderr=True)
    columns = (
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("sessions"),
        TextColumn("{task.fields[rate]}"),
        TimeElapsedColumn(),
        TextColumn("ETA"),
        TimeRemainingColumn(),
    )
    start = time.perf_counter()
    first: list[int] = []
    with Progress(*columns, console=console, disable=not show, transient=False) as bar:
        bar_id = bar.add_task(label, total=config.sessions * len(config.houses), rate="")

        def on_progress(n: int, total: int) -> None:
            if not first:
                first.append(n)
            el = time.perf_counter() - start
            rate = (n - first[0]) * hands / el if el > 0 else 0.0
            bar.update(bar_id, completed=n, rate=f"{rate:,.0f} hands/s")

        return runner.run(
            config,
            workers=workers,
            scheduler=client,
            chunk=chunk,
            progress=on_progress,
            state=state,
            resume=done,
            **({} if task is None else {"task": task}),
        )
