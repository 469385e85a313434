"""``bourre simulate HOUSE`` and ``bourre compare HOUSE_A HOUSE_B …``.

Only typer is imported at module level (the command line starts fast); the runner,
rich, matplotlib and distributed are imported by the commands that use them.
"""

from __future__ import annotations

import contextlib
import os
import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from bourre.variant import hookimpl

__all__ = ["DEFAULT_SESSIONS", "compare", "simulate"]

DEFAULT_SESSIONS = 5000
"""Sessions per house by default: ``bourre compare`` of 4 houses with heuristic bots
finishes in about a minute on 2 cores."""


def _cpus() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


Sessions = Annotated[
    int | None,
    typer.Option(
        help=f"Sessions per house (default {DEFAULT_SESSIONS}; when resuming, the planned number).",
        show_default=False,
    ),
]
Seed = Annotated[
    str | None,
    typer.Option(
        help="Seed: session i of every house plays the decks of seed 'SEED:i' (default 0).",
        show_default=False,
    ),
]
Bots = Annotated[
    str | None,
    typer.Option(
        help="One bot for every seat ('heuristic', the default) or one per seat"
        " ('heuristic,random,random,random,random'); options as name(key=value),"
        " e.g. 'montecarlo(budget=8)'.",
        show_default=False,
    ),
]
Isolate = Annotated[
    bool,
    typer.Option(help="Run every bot in its own process (bots nobody vouches for; slower)."),
]
Rotate = Annotated[
    bool,
    typer.Option("--rotate", help="Rotate a per-seat bot list by one seat each session."),
]
Workers = Annotated[
    int | None,
    typer.Option(help="Worker processes (default: the CPUs available).", show_default=False),
]
Scheduler = Annotated[
    str | None,
    typer.Option(
        help="A Dask scheduler address (tcp://host:port): run the sessions on that cluster."
    ),
]
Chunk = Annotated[
    int | None, typer.Option(help="Sessions per task (default: automatic).", show_default=False)
]
JsonOut = Annotated[
    Path | None, typer.Option("--json", help="Write the statistics as JSON to this file.")
]
CsvOut = Annotated[
    Path | None, typer.Option("--csv", help="Write the statistics as CSV (long form) to this file.")
]
PlotDir = Annotated[
    Path | None, typer.Option("--plot", help="Write figures (PNG and SVG) into this directory.")
]
Below = Annotated[
    float, typer.Option(help="Report the chance of ending a session below this balance.")
]
Resume = Annotated[
    Path | None,
    typer.Option(
        help="Continue the run recorded in this state file (JSON lines of completed sessions)."
    ),
]
State = Annotated[
    Path | None,
    typer.Option(
        help="Append each completed session to this state file (default: the --resume file, else a"
        " temporary file kept only if the run stops early)."
    ),
]
Progress = Annotated[
    bool, typer.Option("--progress/--no-progress", help="Show a progress bar on stderr.")
]
Skill = Annotated[
    bool,
    typer.Option(
        "--skill",
        help="Also ask whether skill pays in each house: the chips per hand won by one"
        " montecarlo(budget=16) bot at a table of heuristic bots, and by one heuristic bot"
        " among random ones, every deal played once with the bot at each seat, the same"
        " deals in every house. Costs extra time: the montecarlo bot plays about 100 hands"
        " a second, so its 500 sessions take about a minute per house on one core.",
    ),
]
SkillSessions = Annotated[
    int | None,
    typer.Option(
        help="Sessions per house for each --skill table (default 500, or --sessions if fewer).",
        show_default=False,
    ),
]


def simulate(
    house: Annotated[str, typer.Argument(help="A house: a house-rules file or a house string.")],
    sessions: Sessions = None,
    seed: Seed = None,
    bots: Bots = None,
    rotate: Rotate = False,
    isolate: Isolate = False,
    workers: Workers = None,
    scheduler: Scheduler = None,
    chunk: Chunk = None,
    json: JsonOut = None,
    csv: CsvOut = None,
    plot: PlotDir = None,
    below: Below = 50.0,
    resume: Resume = None,
    state: State = None,
    progress: Progress = True,
    skill: Skill = False,
    skill_sessions: SkillSessions = None,
) -> None:
    """Simulate many sessions of one house with bots: pots, rates, seat advantage."""
    _main([house], **locals_without(locals(), "house"))


def compare(
    houses: Annotated[
        list[str], typer.Argument(help="Two or more houses (files or house strings).")
    ],
    sessions: Sessions = None,
    seed: Seed = None,
    bots: Bots = None,
    rotate: Rotate = False,
    isolate: Isolate = False,
    workers: Workers = None,
    scheduler: Scheduler = None,
    chunk: Chunk = None,
    json: JsonOut = None,
    csv: CsvOut = None,
    plot: PlotDir = None,
    below: Below = 50.0,
    resume: Resume = None,
    state: State = None,
    progress: Progress = True,
    skill: Skill = False,
    skill_sessions: SkillSessions = None,
) -> None:
    """Compare houses on the same decks (common random numbers): statistics with 95%
    intervals and paired differences against the first house."""
    if len(houses) < 2:
        from bourre.cliutil import fail

        fail("compare needs two or more houses (use 'bourre simulate HOUSE' for one)")
    _main(houses, **locals_without(locals(), "houses"))


def _check_outputs(**paths: Path | None) -> None:
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


@contextlib.contextmanager
def _stop_on_signals() -> Any:
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


def locals_without(d: dict[str, Any], *names: str) -> dict[str, Any]:
    return {k: v for k, v in d.items() if k not in names}


def _main(
    house_args: list[str],
    *,
    sessions: int | None,
    seed: str | None,
    bots: str | None,
    rotate: bool,
    isolate: bool,
    workers: int | None,
    scheduler: str | None,
    chunk: int | None,
    json: Path | None,
    csv: Path | None,
    plot: Path | None,
    below: float,
    resume: Path | None,
    state: Path | None,
    progress: bool,
    skill: bool = False,
    skill_sessions: int | None = None,
) -> None:
    from bourre.cliutil import fail, load_house
    from bourre.compare import runner
    from bourre.plugins import default_registry

    if sessions is not None and sessions < 1:
        fail(f"--sessions must be at least 1, not {sessions}")
    if workers is not None and workers < 1:
        fail(f"--workers must be at least 1, not {workers}")
    if chunk is not None and chunk < 1:
        fail(f"--chunk must be at least 1, not {chunk}")
    if skill_sessions is not None and not skill:
        fail("--skill-sessions goes with --skill")
    if skill_sessions is not None and skill_sessions < 1:
        fail(f"--skill-sessions must be at least 1, not {skill_sessions}")
    if scheduler is not None and workers is not None:
        fail("--scheduler and --workers exclude each other: the cluster has its own workers")
    if below != below:  # NaN
        fail("--below must be a number")
    _check_outputs(json=json, csv=csv, plot=plot, state=state, resume=resume)
    houses = [load_house(h) for h in house_args]
    specs = [h.spec for h in houses]
    if len(set(specs)) != len(specs):
        dup = next(s for s in specs if specs.count(s) > 1)
        fail(f"the house {dup!r} is given twice")

    header: dict[str, Any] | None = None
    done: dict[str, dict[int, dict[str, Any]]] | None = None
    if resume is not None:
        try:
            header, done = runner.load_state(resume)
        except runner.StateError as e:
            fail(str(e))
        seed = seed if seed is not None else str(header.get("seed", "0"))
        bots = bots if bots is not None else ",".join(header.get("bots", ["heuristic"]))
        rotate = rotate or bool(header.get("rotate", False))
        isolate = isolate or bool(header.get("isolate", False))
        sessions = (
            sessions if sessions is not None else int(header.get("sessions", DEFAULT_SESSIONS))
        )
    seed = seed if seed is not None else "0"
    sessions = sessions if sessions is not None else DEFAULT_SESSIONS
    registry = default_registry()
    try:
        specs_bots = runner.parse_bots(bots or "heuristic", registry.bots)
    except ValueError as e:
        fail(f"--bots: {e}")
    for h in houses:
        try:
            runner.seat_bots(specs_bots, h.table.players, 0, rotate)
        except ValueError as e:
            fail(f"--bots: {e} ({h.spec})")
    _check_bot_options(specs_bots, houses[0])
    config = runner.RunConfig(specs, sessions, seed, specs_bots, rotate, isolate)
    if header is not None:
        try:
            runner.check_resume(config, header, resume)  # type: ignore[arg-type]
        except runner.StateError as e:
            fail(str(e))
    if plot is not None:
        try:
            import matplotlib  # noqa: F401
        except ImportError:
            fail("--plot needs matplotlib: pip install 'bourre[plot]'")

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

    temp_state = False
    state_path = state if state is not None else resume
    if state_path is None:
        import tempfile

        fd, name = tempfile.mkstemp(prefix="bourre-compare-", suffix=".jsonl")
        os.close(fd)
        state_path = Path(name)
        temp_state = True

    nworkers = workers if workers is not None else _cpus()

    def run_one(cfg: Any, label: str, task: Any = None) -> Any:
        with _stop_on_signals():
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

    skilled: dict[str, Any] | None = None
    try:
        result = run_one(config, "simulating")
        if skill and result.complete:
            from bourre.compare import skill as sk

            n = min(sessions, sk.SKILL_SESSIONS) if skill_sessions is None else skill_sessions
            skilled = sk.run_matches(
                lambda cfg, label: run_one(cfg, label, sk.skill_chunk), specs, n, seed, isolate
            )
    finally:
        if client is not None:
            client.close()  # type: ignore[no-untyped-call]

    from rich.console import Console

    from bourre.compare.metrics import compute
    from bourre.compare.report import coverage, render, write_csv, write_json

    metrics = compute(result, below)
    if skilled is not None:
        metrics["skill"] = skilled
    render(metrics, Console())
    if json is not None:
        write_json(metrics, json)
    if csv is not None:
        write_csv(metrics, csv)
    if plot is not None:
        from bourre.compare.plots import plot as make_plots

        make_plots(result, metrics, plot)
    stopped = result.stopped
    if skilled is not None and not skilled["complete"]:
        stopped = skilled["stopped"]
    if stopped is None:
        if temp_state:
            state_path.unlink(missing_ok=True)
        return
    note = coverage(metrics) or f"the --skill tables are PARTIAL ({stopped})"
    sys.stderr.write(
        f"bourre: {note}\nbourre: completed sessions are in {state_path};"
        f" continue with --resume {state_path}\n"
    )
    raise typer.Exit(130 if stopped == "interrupted" else 1)


def _check_bot_options(bots: list[Any], house: Any) -> None:
    """Build each bot once so that bad options fail now, with one message."""
    import random

    from bourre.cliutil import fail
    from bourre.players import make_bot

    for b in bots:
        try:
            make_bot(b.name, random.Random(0), house=house, **dict(b.options))
        except (TypeError, ValueError) as e:
            fail(f"--bots: {b.label}: {e}")


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


def bench_bots(houses: list[Any], seconds: float, bots: str, parallel: bool, workers: int) -> float:
    """``bourre bench --bots … --parallel``: validates the options, then
    :func:`bourre.bench.run_bots`."""
    from bourre.bench import run_bots
    from bourre.cliutil import fail
    from bourre.compare.runner import parse_bots, seat_bots
    from bourre.plugins import default_registry

    if workers < 1:
        fail(f"--workers must be at least 1, not {workers}")
    if seconds <= 0:
        fail(f"--seconds must be positive, not {seconds}")
    try:
        specs = parse_bots(bots, default_registry().bots)
        for h in houses:
            seat_bots(specs, h.table.players, 0, False)
    except ValueError as e:
        fail(f"--bots: {e}")
    _check_bot_options(specs, houses[0])
    return run_bots(houses, seconds, typer.echo, bots, parallel, workers)


@hookimpl
def bourre_register_commands(cli: typer.Typer) -> None:
    """``bourre simulate`` and ``bourre compare``, registered as a plugin."""
    cli.command("simulate")(simulate)
    cli.command("compare")(compare)
