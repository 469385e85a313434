"""``bourre sweep "standard+pot-limit(limit={5,10,20,40,80})"``: one house setting
(or several, as a grid) across a list of values, every point on the same decks.

The points are expanded by :mod:`bourre.sim.sweeps.braces` and played like ``bourre
compare``'s houses (:mod:`bourre.cli.commands.launch`: the same runner, state file,
``--resume``, workers, Dask and Ctrl-C); their numbers are compare's
(:func:`bourre.sim.stats.metrics.compute`), printed in compare's words
(:mod:`bourre.sim.sweeps.table`) and on compare's HTML page
(:mod:`bourre.sim.reports.html`).  Only typer is imported at module level.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

import bourre
from bourre.cli.commands.compare import (
    DEFAULT_SESSIONS,
    Bots,
    Chunk,
    Engine,
    Isolate,
    JsonOut,
    PlotDir,
    Progress,
    Resume,
    Rotate,
    Scheduler,
    Seed,
    State,
    Workers,
    choose_engine,
    engine_for_the_run,
)
from bourre.cli.commands.options import whole_number
from bourre.cli.util import a_number, fail
from bourre.houses.house import House, PluginError
from bourre.houses.models import HouseError
from bourre.rules.money import Amount
from bourre.rules.settings import TableSettings
from bourre.rules.variant import hookimpl
from bourre.sim.sweeps.metrics import DEFAULT_METRICS, METRICS

__all__ = ["sweep"]

Sessions = Annotated[
    int | None,
    typer.Option(
        parser=whole_number("--sessions"),
        help=f"Sessions per point (default {DEFAULT_SESSIONS}; when resuming, the planned number).",
        show_default=False,
    ),
]
MetricOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--metric",
        help="A figure to follow across the points (repeat for several): "
        + ", ".join(METRICS)
        + f". Default: {', '.join(DEFAULT_METRICS)}.",
        show_default=False,
    ),
]
Down = Annotated[
    float,
    typer.Option(
        parser=a_number("--down"),
        help="The 'down' metric counts players who end a session more than this many chips"
        " below their starting balance.",
    ),
]
ReportOut = Annotated[
    Path | None,
    typer.Option(
        "--report",
        help="Write one HTML page (each point in plain words, the table, the curves, the"
        " rules, how to reproduce) to this file.",
    ),
]


def sweep(
    houses: Annotated[
        str,
        typer.Argument(
            help="A house string with a list in braces, e.g. 'standard+pot-limit(limit={5,10,20})';"
            " two lists or more make a grid of every combination.",
            show_default=False,
        ),
    ],
    metric: MetricOpt = None,
    down: Down = 50.0,
    sessions: Sessions = None,
    seed: Seed = None,
    bots: Bots = None,
    rotate: Rotate = False,
    isolate: Isolate = False,
    workers: Workers = None,
    scheduler: Scheduler = None,
    chunk: Chunk = None,
    json: JsonOut = None,
    plot: PlotDir = None,
    report: ReportOut = None,
    resume: Resume = None,
    state: State = None,
    progress: Progress = True,
    engine: Engine = "auto",
) -> None:
    """Play one house setting across a list of values on the same decks.

    The same seed for every point: each point in plain words, then a row per point of
    the chosen figures, and curves with the range where each figure lies 19 times in
    20."""
    # lazy: loaded when this command runs (`bourre --help` and the other commands start without it)
    from bourre.cli.commands.launch import RunOptions, check_outputs, finish, launch, writing
    from bourre.sim.sweeps.braces import SweepError, expand

    run = RunOptions.pick(locals())
    run.check()
    if not down >= 0:  # NaN too
        fail(f"--down must be a number of chips, 0 or more, not {down}")
    names = list(dict.fromkeys(metric or DEFAULT_METRICS))
    unknown = [n for n in names if n not in METRICS]
    if unknown:
        fail(f"--metric {unknown[0]!r} is not a metric; the metrics: {', '.join(METRICS)}")
    check_outputs(json=json, plot=plot, report=report, state=state, resume=resume)
    try:
        sw = expand(houses)
    except SweepError as e:
        fail(str(e))
    built = _houses(sw)
    choose_engine(engine, built, bots or "heuristic", isolate)
    with engine_for_the_run(engine):
        launched = launch(
            built,
            run,
            plot=plot is not None,
            report=report is not None,
            default_sessions=DEFAULT_SESSIONS,
        )
    from rich.console import Console

    from bourre.sim.stats.metrics import compute
    from bourre.sim.sweeps.points import coverage
    from bourre.sim.sweeps.table import render

    result = launched.result
    metrics = compute(result, [float(h.table.balance) - down for h in built])
    record = _record(sw, metrics, result, names, down)
    render(record, metrics, Console())
    if json is not None:
        with writing(launched, "--json", json):
            json.write_text(record.model_dump_json(indent=2) + "\n", encoding="utf-8")
    if plot is not None:
        from bourre.sim.sweeps.plots import plot as make_plots

        with writing(launched, "--plot", plot):
            make_plots(record, plot)
    if report is not None:
        from bourre.sim.sweeps.html import write_sweep_report

        with writing(launched, "--report", report):
            write_sweep_report(report, record, metrics, built)
    finish(launched, coverage(record))


def _houses(sw: Any) -> list[Any]:
    """The house of every point, or one message naming the point and the reason."""
    out: list[Any] = []
    seen: dict[str, str] = {}
    for p in sw.points:
        label = sw.label(p)
        try:
            h = House(p.house)
        except (HouseError, PluginError) as e:
            fail(f"the sweep point {label} is not a house: {e}")
        if h.spec in seen:
            fail(f"the sweep points {seen[h.spec]} and {label} are the same house {h.spec!r}")
        seen[h.spec] = label
        out.append(h)
    return out


def _unit(owner: str, key: str) -> str | None:
    """``chips`` for a setting that is an amount."""
    # lazy: the process's registry, looked up when called (tests and embeddings replace it)
    from bourre.rules.plugins import default_registry

    if owner == "table":
        model: Any = TableSettings
    else:
        info = default_registry().variants.get(owner)
        model = info.cls.Settings if info is not None else None
    fieldinfo = model.model_fields.get(key) if model is not None else None
    return "chips" if fieldinfo is not None and fieldinfo.annotation == Amount else None


def _record(sw: Any, metrics: dict[str, Any], result: Any, names: list[str], down: float) -> Any:
    """The record of the sweep (``--json``), its numbers those of ``metrics``."""
    # lazy: loaded when this command runs (`bourre --help` and the other commands start without it)
    from bourre.sim.sweeps.points import AxisRecord, SweepRecord, point_records

    cfg = result.config
    points = point_records(sw, metrics)
    command = ["bourre", "sweep", sw.text, "--sessions", str(cfg.sessions), "--seed", cfg.seed]
    command += ["--bots", ",".join(b.label for b in cfg.bots)]
    command += [*(["--rotate"] if cfg.rotate else []), *(["--isolate"] if cfg.isolate else [])]
    command += [f"--down={down:g}", *(x for n in names for x in ("--metric", n))]
    return SweepRecord(
        sweep=sw.text,
        command=command,
        bourre_version=bourre.__version__,
        complete=result.complete,
        stopped=result.stopped,
        sessions_planned=cfg.sessions,
        sessions_completed=min((p.sessions for p in points), default=0),
        seed=cfg.seed,
        bots=[b.label for b in cfg.bots],
        rotate=cfg.rotate,
        isolate=cfg.isolate,
        down=down,
        metrics=names,
        axes=[
            AxisRecord(
                label=a.label,
                owner=a.owner,
                key=a.key,
                values=list(a.values),
                numeric=a.numeric,
                unit=_unit(a.owner, a.key) if a.key else None,
            )
            for a in sw.axes
        ],
        points=points,
        wall_seconds=result.wall_seconds,
    )


@hookimpl
def bourre_register_commands(cli: typer.Typer) -> None:
    """``bourre sweep``, registered as a plugin."""
    cli.command("sweep")(sweep)
