"""``bourre chart HOUSE``: the strategy chart of a house, hand classes by places from
the dealer, play, pass or close in each cell (:func:`bourre.advice.chart.chart`)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from bourre.cli.util import HouseArg, fail, load_house, whole_number
from bourre.houses.house import House
from bourre.houses.models import HouseError
from bourre.rules import RuleViolation
from bourre.rules.hookspec import PluginError

if TYPE_CHECKING:
    from rich.console import Console
    from rich.progress import Progress

    from bourre.advice.chart import Chart

__all__ = ["chart", "register_commands", "render"]

STYLES = {
    "play": "bold black on green3",
    "pass": "bold white on red3",
    "close": "black on yellow3",
    "must play": "black on dark_sea_green2",
    "none": "grey50",
}


def render(got: Chart, console: Console) -> None:
    """The chart on a terminal: its first line, the coloured grid, the legend and the
    method under it."""
    # lazy: rich's tables load when a chart is drawn, not at every command's start
    from rich.table import Table
    from rich.text import Text

    console.print(got.headline(), highlight=False, soft_wrap=True)
    table = Table(pad_edge=False, header_style="bold", collapse_padding=True)
    table.add_column("your hand", min_width=12, ratio=1)
    wide = max(len(got.words(r, p)[0]) for r in range(len(got.classes)) for p in (1, got.players))
    for p in range(1, got.players + 1):
        table.add_column(
            f"{p}\ndealer" if p == got.players else str(p),
            justify="center",
            no_wrap=True,
            min_width=max(wide, 6),
        )
    for r, cls in enumerate(got.classes):
        cells = []
        for p in range(1, got.players + 1):
            text, lines = got.words(r, p)
            cell = Text(text, style=STYLES[got.cells[r][p - 1].answer])
            for line in lines:
                cell.append("\n" + line, style="italic")
            cells.append(cell)
        table.add_row(cls.label, *cells)
    console.print(table)
    legend = Text(
        "Your hand: trumps (the upcard's suit) held, the top one after the colon, side aces"
        " and kings."
        " Places: 1 is the dealer's left. "
    )
    for word in ("play", "pass", "close", "must play"):
        legend.append(f" {word} ", style=STYLES[word])
        legend.append(" ")
    legend.append(" — no such hand (the dealer's holds the upcard, a trump).")
    console.print(legend)
    for line in got.method():
        console.print(line, highlight=False, soft_wrap=True)


def chart(
    house: HouseArg = None,
    players: Annotated[
        int | None,
        typer.Option(
            parser=whole_number("--players"),
            help="Players at the table (default: the house's).",
        ),
    ] = None,
    versus: Annotated[
        str | None,
        typer.Option(help="Another house: the cells whose answer changes are marked."),
    ] = None,
    hands: Annotated[
        int | None,
        typer.Option(
            parser=whole_number("--hands"),
            help="Hands simulated in each cell (default: 800 on the kernel, 60 on the"
            " Python rules, about half a minute either way for 5 players).",
        ),
    ] = None,
    seed: Annotated[
        int, typer.Option(parser=whole_number("--seed", signed=True), help="Seed of the deals.")
    ] = 0,
    html: Annotated[
        Path | None, typer.Option(help="Also write the chart as an HTML page to this file.")
    ] = None,
    json_out: Annotated[
        str | None,
        typer.Option(
            "--json", help="Write the numbers as JSON to this file ('-': standard output)."
        ),
    ] = None,
    engine: Annotated[
        str | None,
        typer.Option(
            help="kernel or python (default: the kernel when it can play the house(s)).",
        ),
    ] = None,
    no_progress: Annotated[bool, typer.Option("--no-progress", help="No progress bar.")] = False,
    equilibrium: Annotated[
        bool,
        typer.Option(
            "--equilibrium",
            help="The chart against players who all play it (fictitious play), by place and"
            " the seats already in, with how far a player can beat it.",
        ),
    ] = False,
    rounds: Annotated[
        int | None,
        typer.Option(
            parser=whole_number("--rounds"),
            help="With --equilibrium: rounds of fictitious play (default 12).",
        ),
    ] = None,
    deals: Annotated[
        int | None,
        typer.Option(
            parser=whole_number("--deals"),
            help="With --equilibrium: deals a round (default 4,000).",
        ),
    ] = None,
    check: Annotated[
        int | None,
        typer.Option(
            parser=whole_number("--check"),
            help="With --equilibrium: fresh deals to find, and as many to measure, the best"
            " answer to the chart (default 10,000).",
        ),
    ] = None,
) -> None:
    """The strategy chart of a house: which hands to play from each place.

    For each kind of hand (trumps held, the top trump, side aces and kings) and each
    place from the dealer: play, pass or close, with the chips at stake, by simulated
    deals."""
    # lazy: loaded when this command runs (`bourre --help` and the other commands start without it)
    from bourre.advice.chart import ChartError
    from bourre.advice.chart import chart as run

    if equilibrium:
        bad = [
            name
            for name, v in (
                ("--versus", versus),
                ("--hands", hands),
                ("--html", html),
                ("--engine", engine),
            )
            if v is not None
        ]
        if bad:
            fail(
                f"{bad[0]}: not with --equilibrium (it is played on the kernel, by rounds of deals)"
            )
        _equilibrium(house, players, rounds, deals, check, seed, json_out, no_progress)
        return
    given = [n for n, v in (("--rounds", rounds), ("--deals", deals), ("--check", check)) if v]
    if given:
        fail(f"{given[0]}: with --equilibrium only")
    if engine is not None and engine not in ("kernel", "python", "auto"):
        fail(f"--engine: {engine!r} is not an engine: kernel or python")
    h = load_house(house)
    other = None
    if versus is not None:
        try:
            other = House.from_arg(versus)
        except (HouseError, PluginError) as e:
            fail(f"--versus: {e}")
    # the options and the outputs checked before the notice and the run: one message
    # lazy: loaded when this command runs, as the chart's module above
    from bourre.advice.chart import checked_options
    from bourre.cli.commands.options import check_outputs  # lazy: as above

    try:
        checked_options(h, players=players, versus=other, hands=hands, engine=engine)
    except ChartError as e:
        fail(f"--{e.field}: {e}")
    check_outputs(html=html, json=None if json_out in (None, "-") else Path(json_out))
    from bourre.advice.chart import extra_seconds
    from bourre.sim.speed.forecast import chart_notice

    n = players or h.table.players
    said = chart_notice(
        [h] if other is None else [h, other],
        n,
        hands,
        engine,
        extra=lambda house: extra_seconds(house, players=n),
    )
    if said is not None:  # said before the run: a house on the Python rules (issue 41)
        print(f"bourre: {said}", file=sys.stderr)
    from rich.console import Console

    to_stdout = json_out == "-"
    console = Console(stderr=to_stdout)
    bar = _progress("[bold]charting", "cells", no_progress)
    try:
        with bar:
            task = bar.add_task("charting", total=None)

            def step(done: int, total: int) -> None:
                bar.update(task, completed=done, total=total)

            got = run(
                h,
                players=players,
                versus=other,
                hands=hands,
                seed=seed,
                engine=engine,
                progress=step,
            )
    except ChartError as e:
        fail(f"--{e.field}: {e}")
    except (ValueError, RuleViolation, PluginError) as e:  # a house's rules refusing
        fail(str(e))
    if html is not None:
        try:
            # lazy: the page's module needs jinja2 (an optional extra)
            from bourre.advice.chart_page import chart_html

            page = chart_html(got)
        except ModuleNotFoundError as e:
            fail(f"--html: {e.name} is needed for a page: pip install 'bourre[plot]'")
        try:
            html.write_text(page, encoding="utf-8")
        except OSError as e:
            fail(f"--html: cannot write {html}: {e.strerror}")
    if json_out is not None:
        text = json.dumps(got.as_dict(), ensure_ascii=False, indent=2)
        if to_stdout:
            typer.echo(text)
        else:
            try:
                Path(json_out).write_text(text + "\n", encoding="utf-8")
            except OSError as e:
                fail(f"--json: cannot write {json_out}: {e.strerror}")
    render(got, console)


def _equilibrium(
    house: str | None,
    players: int | None,
    rounds: int | None,
    deals: int | None,
    check: int | None,
    seed: int,
    json_out: str | None,
    no_progress: bool,
) -> None:
    """``bourre chart HOUSE --equilibrium`` (:func:`bourre.advice.equilibrium.equilibrium_chart`)."""
    # lazy: loaded when this command runs
    from bourre.advice.chart import ChartError
    from bourre.advice.equilibrium import CHECK, DEALS, ROUNDS, equilibrium_chart

    h = load_house(house)
    from rich.console import Console

    to_stdout = json_out == "-"
    out = Console(stderr=to_stdout)
    bar = _progress("[bold]{task.description}", "deals", no_progress)
    r = ROUNDS if rounds is None else rounds
    d = DEALS if deals is None else deals
    c = CHECK if check is None else check
    try:
        with bar:
            task = bar.add_task("round 0", total=r * d + 4 * c)

            def step(what: str) -> None:
                bar.update(task, advance=1, description=what)

            got = equilibrium_chart(
                h,
                players=players,
                rounds=r,
                deals=d,
                check=c,
                seed=seed,
                measure_start=True,
                progress=step,
            )
    except ChartError as e:
        fail(f"--{e.field}: {e}")
    except (ValueError, RuleViolation, PluginError) as e:  # a house's rules refusing
        fail(str(e))
    if json_out is not None:
        text = json.dumps(got.as_dict(), ensure_ascii=False, indent=2)
        if to_stdout:
            typer.echo(text)
        else:
            try:
                Path(json_out).write_text(text + "\n", encoding="utf-8")
            except OSError as e:
                fail(f"--json: cannot write {json_out}: {e.strerror}")
    for line in got.lines():
        out.print(line, highlight=False, soft_wrap=True)


def register_commands(cli: typer.Typer) -> None:
    """``bourre chart``."""
    cli.command()(chart)


def _progress(label: str, unit: str, no_progress: bool) -> Progress:
    """The chart's progress bar on stderr, where one is shown (a terminal, not
    ``--no-progress``), gone once done."""
    # lazy: rich's progress loads when a chart is drawn, not at every command's start
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
    )

    return Progress(
        TextColumn(label),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn(unit),
        TimeElapsedColumn(),
        console=Console(stderr=True),
        disable=no_progress or not sys.stderr.isatty(),
        transient=True,
    )
