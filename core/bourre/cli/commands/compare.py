"""``bourre simulate HOUSE`` and ``bourre compare HOUSE_A HOUSE_B …``.

Only typer is imported at module level (the command line starts fast); the runner,
rich, matplotlib and distributed are imported by the commands that use them.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated, Any

import typer

from bourre.cli.commands.options import whole_number
from bourre.cli.util import a_number, fail, load_house
from bourre.rules.variant import hookimpl

__all__ = ["DEFAULT_SESSIONS", "compare", "simulate"]

DEFAULT_SESSIONS = 5000
"""Sessions per house by default: ``bourre compare`` of 4 houses with heuristic bots
finishes in about a minute on 2 cores."""


Sessions = Annotated[
    int | None,
    typer.Option(
        parser=whole_number("--sessions"),
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
    typer.Option(
        help="Run every bot in its own process, told no seed (bots nobody vouches for;"
        " slower; bots that draw random numbers then differ from run to run)."
    ),
]
Engine = Annotated[
    str,
    typer.Option(
        help="Which engine plays: 'auto' (the compiled kernel for houses and bots it can"
        " play, else the Python rules), 'kernel' (an error naming what it cannot play) or"
        " 'python' (the rules' own components). The same numbers either way.",
    ),
]
Rotate = Annotated[
    bool,
    typer.Option("--rotate", help="Rotate a per-seat bot list by one seat each session."),
]
Workers = Annotated[
    int | None,
    typer.Option(
        parser=whole_number("--workers"),
        help="Worker processes (default: the CPUs available).",
        show_default=False,
    ),
]
Scheduler = Annotated[
    str | None,
    typer.Option(
        help="A Dask scheduler address (tcp://host:port): run the sessions on that cluster."
    ),
]
Chunk = Annotated[
    int | None,
    typer.Option(
        parser=whole_number("--chunk"),
        help="Sessions per task (default: automatic).",
        show_default=False,
    ),
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
ReportOut = Annotated[
    Path | None,
    typer.Option(
        "--report",
        help="Write one HTML page (summary, table, figures, rules, how to reproduce) to this file.",
    ),
]
Below = Annotated[
    float,
    typer.Option(
        parser=a_number("--below"),
        help="Report the chance of ending a session below this balance.",
    ),
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
        parser=whole_number("--skill-sessions"),
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
    report: ReportOut = None,
    below: Below = 50.0,
    resume: Resume = None,
    state: State = None,
    progress: Progress = True,
    skill: Skill = False,
    skill_sessions: SkillSessions = None,
    engine: Engine = "auto",
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
    report: ReportOut = None,
    below: Below = 50.0,
    resume: Resume = None,
    state: State = None,
    progress: Progress = True,
    skill: Skill = False,
    skill_sessions: SkillSessions = None,
    engine: Engine = "auto",
) -> None:
    """Compare houses on the same decks: how big pots get, how often someone is bourré.

    Each figure comes with the range it falls in 19 times in 20, and each house is
    set against the first on the same deals."""
    if len(houses) < 2:
        fail("compare needs two or more houses (use 'bourre simulate HOUSE' for one)")
    _main(houses, **locals_without(locals(), "houses"))


@contextlib.contextmanager
def engine_for_the_run(engine: str) -> Iterator[None]:
    """``BOURRE_ENGINE`` set for the run's processes (the workers inherit it), and put
    back as it was afterwards."""
    before = os.environ.get("BOURRE_ENGINE")
    os.environ["BOURRE_ENGINE"] = engine
    try:
        yield
    finally:
        if before is None:
            os.environ.pop("BOURRE_ENGINE", None)
        else:
            os.environ["BOURRE_ENGINE"] = before


def choose_engine(engine: str, houses: list[Any], bots: str, isolate: bool) -> None:
    """Check ``--engine``: ``kernel`` on a house or bots the kernel cannot play is one
    message naming the component."""
    # lazy: the kernel (and its extension) loads for a run, not for `bourre --help`
    from bourre import kernel

    if engine not in ("auto", "kernel", "python"):
        fail(f"--engine must be auto, kernel or python, not {engine!r}")
    if engine == "kernel":
        if isolate:
            fail("--engine kernel: --isolate runs each bot in its own process, on the Python rules")
        for house in houses:
            why = kernel.can_play(house, bots, hooks=True)
            if why is not None:
                fail(f"--engine kernel: {house.spec}: {why}")


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
    report: Path | None,
    below: float,
    resume: Path | None,
    state: Path | None,
    progress: bool,
    skill: bool = False,
    skill_sessions: int | None = None,
    engine: str = "auto",
) -> None:
    # lazy: loaded when this command runs (`bourre --help` and the other commands start without it)
    from bourre.cli.commands.launch import RunOptions, check_outputs, finish, launch, writing

    run = RunOptions.pick(locals())
    run.check()
    if skill_sessions is not None and not skill:
        fail("--skill-sessions goes with --skill")
    if skill_sessions is not None and skill_sessions < 1:
        fail(f"--skill-sessions must be at least 1, not {skill_sessions}")
    if below != below:  # NaN
        fail("--below must be a number")
    check_outputs(json=json, csv=csv, plot=plot, report=report, state=state, resume=resume)
    houses = [load_house(h) for h in house_args]
    specs = [h.spec for h in houses]
    if len(set(specs)) != len(specs):
        dup = next(s for s in specs if specs.count(s) > 1)
        fail(f"the house {dup!r} is given twice")
    choose_engine(engine, houses, bots or "heuristic", isolate)
    with engine_for_the_run(engine):
        launched = launch(
            houses,
            run,
            plot=plot is not None,
            report=report is not None,
            default_sessions=DEFAULT_SESSIONS,
            then=_skill_matches(skill_sessions) if skill else None,
        )
    result, skilled = launched.result, launched.then

    from rich.console import Console

    from bourre.sim.reports.files import render, write_csv, write_json
    from bourre.sim.reports.labels import coverage
    from bourre.sim.stats.metrics import compute

    metrics = compute(result, below)
    if skilled is not None:
        from bourre.sim.skill import attach

        metrics["skill"] = skilled
        attach(metrics)
    render(metrics, Console())
    if json is not None:
        with writing(launched, "--json", json):
            write_json(metrics, json)
    if csv is not None:
        with writing(launched, "--csv", csv):
            write_csv(metrics, csv)
    if plot is not None:
        from bourre.sim.reports.plots import plot as make_plots

        with writing(launched, "--plot", plot):
            make_plots(result, metrics, plot)
    if report is not None:
        from bourre.sim.reports.html import write_report

        with writing(launched, "--report", report):
            write_report(report, metrics, result, houses)
    stopped = None if skilled is None or skilled["complete"] else skilled["stopped"]
    note = coverage(metrics) or f"the --skill tables are PARTIAL ({stopped})"
    finish(launched, note, stopped)


def _skill_matches(skill_sessions: int | None) -> Any:
    """``--skill``: after the main run, the skill matches on its deals, through the
    same run path (state file, workers, cluster, signals)."""

    def then(run_one: Any, config: Any) -> Any:
        # lazy: loaded when this command runs (`bourre --help` and the other commands start without it)
        from bourre.sim import skill as sk

        n = min(config.sessions, sk.SKILL_SESSIONS) if skill_sessions is None else skill_sessions
        return sk.run_matches(
            lambda cfg, label: run_one(cfg, label, sk.skill_chunk),
            config.houses,
            n,
            config.seed,
            config.isolate,
        )

    return then


@hookimpl
def bourre_register_commands(cli: typer.Typer) -> None:
    """``bourre simulate`` and ``bourre compare``, registered as a plugin."""
    cli.command("simulate")(simulate)
    cli.command("compare")(compare)
