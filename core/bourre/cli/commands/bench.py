"""``bourre bench``: how fast the game runs on one core (:mod:`bourre.sim.speed.bench`)."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Annotated

import typer

from bourre.cli.util import a_number, fail, load_house, max_workers, whole_number
from bourre.rules import RuleViolation
from bourre.rules.hookspec import PluginError

__all__ = ["bench", "register_commands"]


def bench(
    house: Annotated[
        list[str] | None, typer.Argument(help="Houses to measure (default: standard).")
    ] = None,
    seconds: Annotated[
        float, typer.Option(parser=a_number("--seconds"), help="Seconds per measure and house.")
    ] = 3.0,
    bots: Annotated[
        str | None,
        typer.Option(
            help="Measure only these bots (as for 'bourre compare --bots', e.g. heuristic),"
            " instead of random, heuristic and montecarlo."
        ),
    ] = None,
    reference: Annotated[
        Path | None,
        typer.Option(
            help="A yardstick program run in the same rounds (e.g. speed_ref.py): its last"
            " line is 'hands/s: N'; every hands/s figure is also given as a ratio to it."
            " With --solver: run before and after the solves, and the CPU time a solve"
            " also given in the yardstick's hands.",
        ),
    ] = None,
    parallel: Annotated[
        bool, typer.Option("--parallel", help="Measure the speed-up on --workers processes.")
    ] = False,
    workers: Annotated[
        int, typer.Option(parser=whole_number("--workers"), help="Processes for --parallel.")
    ] = 2,
    engine: Annotated[
        str,
        typer.Option(
            help="auto: the compiled kernel where it can play the house and bots, else the"
            " Python rules; kernel or python: that one (the kernel on a house or bots it"
            " cannot play is an error naming the component). Each line names its engine.",
        ),
    ] = "auto",
    solver: Annotated[
        bool,
        typer.Option(
            "--solver",
            help="Measure the double-dummy solver instead: hands where everyone plays and"
            " stands pat, solved from the first lead one after another for --seconds"
            " (default houses: standard and standard+table(players=8)); a line per house,"
            " then its CPU time a solve (50, 90, 99 in 100, the slowest) and the peak"
            " memory; last line: solves/s.",
        ),
    ] = False,
    deals: Annotated[
        int | None,
        typer.Option(
            parser=whole_number("--deals"),
            help="With --solver: solve exactly this many deals (seeds 0 to N-1) whatever"
            " the time, the same deals on every run.",
        ),
    ] = None,
    components: Annotated[
        bool,
        typer.Option(
            "--components",
            help="Say where a hand's time goes on the Python rules instead: each rule"
            " component's microseconds a hand (random bots), the deck's, and the rest"
            " (the state, the bots); with --reference, the best those components allow"
            " against the yardstick. For authors of variants: is my rule the slow one? It takes"
            " a few times --seconds: the calls are recorded, then made again.",
        ),
    ] = False,
) -> None:
    """How fast the game runs on one core, in hands a second.

    Hands/s with random bots, hands/s with heuristic bots, the Monte Carlo bot's
    decisions/s (medians of 5 rounds, the machine first); last line: hands/s.  With
    --solver: the double-dummy solver's solves/s, CPU time a solve and memory.  With
    --components: where a hand's time goes on the Python rules."""
    # lazy: loaded when this command runs (`bourre --help` and the other commands start without it)
    from bourre.sim.speed import bench as B

    if not (math.isfinite(seconds) and 0 < seconds <= 3600):
        fail(f"--seconds: {seconds} is not a time from 0 to 3600 seconds")
    if solver and components:
        fail("--solver and --components: one measure at a time")
    if reference is not None and not reference.is_file():
        fail(f"--reference: {reference} is not a file")
    if components:
        for refused, option in (
            (bots is not None, "--bots"),
            (parallel, "--parallel"),
            (engine != "auto", "--engine"),
        ):
            if refused:
                fail(f"{option}: --components times the Python rules with random bots")
        _components(house, seconds, reference)
        return
    if solver:
        for given, option in ((bots, "--bots"), (parallel, "--parallel")):
            if given:
                fail(f"{option}: --solver times the solver alone, with no bots")
        _solver(house, seconds, engine, deals, reference)
        return
    if deals is not None:
        fail("--deals: the number of deals --solver solves; without --solver, use --seconds")
    if not 1 <= workers <= max_workers():
        fail(f"--workers must be from 1 to {max_workers()} (4 per CPU here), not {workers:,}")
    houses = [load_house(h) for h in (house or ["standard"])]
    measures: tuple[str, ...] = B.MEASURES
    if engine not in B.ENGINES:
        fail(f"--engine {engine!r}: one of {', '.join(B.ENGINES)}")
    if engine == "kernel" and bots is None:  # the Monte Carlo bot is not the kernel's
        measures = tuple(m for m in measures if m != "montecarlo")
    if bots is not None:
        from bourre.cli.commands.options import check_bench_bots

        check_bench_bots(houses, bots)
        measures = (bots,)
    if parallel:
        typer.echo(f"machine: {B.machine()}")
        rate = B.run_bots(houses, seconds, typer.echo, bots or "heuristic", workers)
    else:
        try:
            done = B.run(
                houses, seconds, typer.echo, measures=measures, reference=reference, engine=engine
            )
        except (ValueError, RuleViolation, PluginError) as e:  # a house's rules refusing
            fail(str(e))
        rate = next((m.median for m in done if m.unit == "hands/s"), 0.0)
    typer.echo(f"hands/s: {rate:.0f}")


def _components(house: list[str] | None, seconds: float, reference: Path | None) -> None:
    """``bourre bench --components``: the cost of each rule component, a block per house."""
    # lazy: loaded when this command runs (`bourre --help` and the other commands start without it)
    from bourre.sim.speed.bench import machine, reference_round
    from bourre.sim.speed.rulecost import measure

    houses = [load_house(h) for h in (house or ["standard"])]
    typer.echo(f"machine: {machine()}")
    for h in houses:
        try:
            costs = measure(
                h,
                seconds,
                reference=None if reference is None else lambda s: reference_round(reference, s),
            )
        except (ValueError, RuleViolation, PluginError) as e:  # a house's rules refusing
            fail(str(e))
        for line in costs.lines():
            typer.echo(line)


def _solver(
    house: list[str] | None,
    seconds: float,
    engine: str,
    deals: int | None,
    reference: Path | None,
) -> None:
    """``bourre bench --solver``: two lines per house (the times; the CPU time a solve at
    50, 90, 99 in 100 and the slowest, and the memory: issue 44), the first house's
    solves/s last.  With ``reference``, the yardstick runs for ``seconds`` before the
    solves and after them, and each house's CPU times are also given in its hands."""
    # lazy: loaded when this command runs (`bourre --help` and the other commands start without it)
    from bourre.advice.bench import solver_bench
    from bourre.advice.solver import ENGINES
    from bourre.sim.speed.bench import machine, reference_round

    if engine not in ENGINES:
        fail(f"--engine {engine!r}: one of {', '.join(ENGINES)}")
    if deals is not None and not 1 <= deals <= 100_000:
        fail(f"--deals must be from 1 to 100,000, not {deals:,}")
    houses = [load_house(h) for h in (house or ["standard", "standard+table(players=8)"])]
    before = None
    if reference is not None:
        try:
            before = reference_round(reference, seconds)
        except ValueError as e:
            fail(str(e))
    measures = []
    for h in houses:
        try:
            measures.append(solver_bench(h, seconds, engine=engine, deals=deals))
        except ValueError as e:
            fail(f"--solver on {h.spec}: {e}")
    typer.echo(f"machine: {machine()}")
    for m in measures:
        typer.echo(m.line())
        typer.echo(m.cpu_line())
    if reference is not None and before is not None:
        try:  # (the solves' figures are out already: a yardstick failing now loses nothing)
            after = reference_round(reference, seconds)
        except ValueError as e:
            fail(str(e))
        typer.echo(
            f"yardstick ({reference.name}): {before:,.0f} hands/s before the solves,"
            f" {after:,.0f} after"
        )
        if max(before, after) > 1.1 * min(before, after):  # (its rate is wall time)
            typer.echo(
                "the yardstick's two runs differ by more than 10 %: the machine's speed"
                " moved, or another program shared its core (the yardstick times its"
                " hands by the clock, the solves by CPU time): the figures in its hands"
                " are rough; measure again with a core free"
            )
        for m in measures:
            typer.echo(m.yardstick_line((before + after) / 2))
    typer.echo(f"solves/s: {measures[0].per_second:.1f}")


def register_commands(cli: typer.Typer) -> None:
    """``bourre bench``."""
    cli.command()(bench)
