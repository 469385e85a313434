"""The ``bourre`` command line (typer + rich).  Heavy modules are imported inside the
commands that use them, so that ``bourre replay`` starts fast.

Bad input (a file, a house, a script, a plugin) gets one clear message on standard
error naming the place and the rule, and exit status 2.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

app = typer.Typer(
    name="bourre",
    help="Bourré (Booray): house rules, a referee, variant comparison and plugins.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

from bourre.cliutil import HouseArg, fail, load_house  # noqa: E402  (re-exported)

__all__ = ["HouseArg", "app", "fail", "load_house", "main"]


@app.command()
def replay(
    script: Annotated[
        Path,
        typer.Argument(
            help="A table script: JSON or the hand notation, see docs/table-scripts.md;"
            " '-' reads stdin."
        ),
    ],
    indent: Annotated[int | None, typer.Option(help="Indent the JSON output.")] = None,
    words: Annotated[
        bool | None,
        typer.Option(
            "--words/--json",
            help="A ruling in plain words, or the hand records as JSON (default: words on a"
            " terminal, JSON otherwise).",
            show_default=False,
        ),
    ] = None,
) -> None:
    """Referee hands played at a real table: who takes the pot and why, who pays what."""
    import json

    from bourre.referee import ScriptError, parse_text, referee, referee_file

    try:
        if str(script) == "-":
            try:
                text = sys.stdin.read()
            except UnicodeDecodeError as e:
                raise ScriptError(f"<stdin>: not UTF-8 text: {e}") from None
            done = referee(parse_text(text, "<stdin>"), place="<stdin>")
        else:
            done = referee_file(script)
    except ScriptError as e:
        fail(str(e))
    if words if words is not None else sys.stdout.isatty():
        from bourre.ruling import ruling

        sys.stdout.write("\n".join(ruling(done)) + "\n")
        return
    data = done.record.model_dump(mode="json")
    sys.stdout.write(json.dumps(data, indent=indent, ensure_ascii=False) + "\n")


@app.command()
def check(
    hand: Annotated[
        str, typer.Option(help="Your cards, e.g. 'AH 5H 8S'.", show_default=False)
    ] = "",
    trick: Annotated[
        str, typer.Option(help="The cards already on the trick, in play order ('' to lead).")
    ] = "",
    trump: Annotated[
        str | None, typer.Option(help="The trump suit: S, H, D or C.", show_default=False)
    ] = None,
    upcard: Annotated[
        str | None, typer.Option(help="Or the upcard, which names trump.", show_default=False)
    ] = None,
    house: Annotated[
        str | None, typer.Option(help="The house (default standard).", show_default=False)
    ] = None,
    played: Annotated[
        str, typer.Option(help="Cards played in earlier tricks of the hand (for the cinch).")
    ] = "",
    won: Annotated[int, typer.Option(help="Tricks you have won so far (for the cinch).")] = 0,
    discards: Annotated[str, typer.Option(help="Your own discards (for the cinch).")] = "",
    last: Annotated[bool, typer.Option(help="You play last to this trick (R-CINCH-LAST).")] = False,
    json_out: Annotated[bool, typer.Option("--json", help="Answer as JSON.")] = False,
    script: Annotated[
        Path | None,
        typer.Option(
            help="Or a hand (JSON or hand notation) that stops at the question: who acts"
            " next and what they may do.",
            show_default=False,
        ),
    ] = None,
) -> None:
    """One question, one answer: which cards may you play here, and why (rule ids)."""
    import json

    if script is not None:
        _check_script(script, json_out)
        return

    from bourre.cards import SUITS, CardError, parse_card
    from bourre.check import CheckError, check_card

    def cards(option: str, text: str) -> list[int]:
        try:
            return [parse_card(t) for t in text.replace(",", " ").split()]
        except CardError as e:
            fail(f"{option}: {e}")

    if not hand.strip():
        fail("--hand: your cards are required (or --script FILE)")
    h = load_house(house)
    if (trump is None) == (upcard is None):
        fail("give --trump S/H/D/C or --upcard CARD (one of them): it names trump (R-DEAL)")
    if trump is not None:
        if trump.strip().upper() not in tuple(SUITS):
            fail(f"--trump: {trump!r} is not a suit: S, H, D or C (R-DECK)")
        suit = SUITS.index(trump.strip().upper())
    else:
        suit = cards("--upcard", upcard or "")[0] // 13 if (upcard or "").strip() else -1
    try:
        ruling = check_card(
            h,
            cards("--hand", hand),
            cards("--trick", trick),
            trump=suit,
            played=cards("--played", played),
            won=won,
            discards=cards("--discards", discards),
            last=last,
        )
    except CheckError as e:
        fail(str(e))
    if json_out:
        sys.stdout.write(json.dumps(ruling.as_json(), ensure_ascii=False) + "\n")
        return
    sys.stdout.write("\n".join(ruling.words(h)) + "\n")


def _check_script(path: Path, json_out: bool) -> None:
    """``bourre check --script``: the question a hand that stops part-way asks."""
    import json

    from bourre.records import PartialHandRecord
    from bourre.referee import ScriptError, referee_file

    try:
        done = referee_file(path)
    except ScriptError as e:
        fail(str(e))
    last = done.record.hands[-1]
    if not isinstance(last, PartialHandRecord):
        fail(f"{path}: the last hand is complete: there is no question left (use bourre replay)")
    if json_out:
        sys.stdout.write(json.dumps(last.next.model_dump(mode="json")) + "\n")
        return
    texts = {rid: text for _, _, (rid, text) in done.house.rule_texts()}
    nxt = last.next
    sys.stdout.write(f"Seat {nxt.seat} is to act and may: {', '.join(nxt.legal)}.\n")
    for rid in nxt.rules:
        sys.stdout.write(f"{rid}: {texts.get(rid, '')}\n")


@app.command()
def convert(
    script: Annotated[Path, typer.Argument(help="A table script: JSON or hand notation.")],
    to: Annotated[str, typer.Option(help="'notation' or 'json' (default: the other form).")] = "",
) -> None:
    """Convert a table script between JSON and the hand notation (without loss)."""
    import json

    from bourre.notation import format_script, looks_like_notation
    from bourre.referee import ScriptError, load_script

    try:
        data = load_script(script)
        text = script.read_text(encoding="utf-8")
    except (ScriptError, OSError, UnicodeDecodeError) as e:
        fail(str(e))
    target = to or ("json" if looks_like_notation(text) else "notation")
    if target not in ("json", "notation"):
        fail(f"--to: {to!r}: 'notation' or 'json'")
    if target == "json":
        sys.stdout.write(json.dumps(data, indent=1, ensure_ascii=False) + "\n")
    else:
        sys.stdout.write(format_script(data))


@app.command()
def serve(
    host: Annotated[
        str, typer.Option(help="The address to listen on (this machine only).")
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="The port.")] = 8000,
) -> None:
    """The referee in a browser: compose a house, referee a hand as it is played."""
    try:
        import uvicorn

        from bourre.web import create_app
    except ImportError as e:
        fail(f"bourre serve needs the web extra: pip install 'bourre[web]' ({e.name} is missing)")
    if not 0 < port < 65536:
        fail(f"--port: {port} is not a port (1 to 65535)")
    sys.stderr.write(f"bourre: the referee is at http://{host}:{port}/ (Ctrl-C stops it)\n")
    uvicorn.run(create_app(), host=host, port=port, log_level="warning")


@app.command()
def rules(house: HouseArg = None) -> None:
    """Print the effective rules of a house, with rule ids."""
    from rich.console import Console

    from bourre.rulestext import render_rules

    h = load_house(house)
    render_rules(h, Console())


@app.command()
def variants() -> None:
    """List the installed variant plugins, their packages and settings."""
    from rich.console import Console

    from bourre.rulestext import render_variants

    render_variants(Console())


@app.command()
def bench(
    house: Annotated[
        list[str] | None, typer.Argument(help="Houses to measure (default: standard).")
    ] = None,
    seconds: Annotated[float, typer.Option(help="Seconds per measure and house.")] = 3.0,
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
            " line is 'hands/s: N'; every hands/s figure is also given as a ratio to it.",
        ),
    ] = None,
    parallel: Annotated[
        bool, typer.Option("--parallel", help="Measure the speed-up on --workers processes.")
    ] = False,
    workers: Annotated[int, typer.Option(help="Processes for --parallel.")] = 2,
) -> None:
    """How fast the game runs on one core: hands/s with random bots, hands/s with
    heuristic bots, the Monte Carlo bot's decisions/s (medians of 5 rounds, the machine
    first); last line: hands/s."""
    import math

    from bourre import bench as B

    if not (math.isfinite(seconds) and 0 < seconds <= 3600):
        fail(f"--seconds: {seconds} is not a time from 0 to 3600 seconds")
    if not 1 <= workers <= 256:
        fail(f"--workers: {workers}: 1 to 256")
    if reference is not None and not reference.is_file():
        fail(f"--reference: {reference} is not a file")
    houses = [load_house(h) for h in (house or ["standard"])]
    measures: tuple[str, ...] = B.MEASURES
    if bots is not None:
        from bourre.compare.commands import check_bench_bots

        check_bench_bots(houses, bots)
        measures = (bots,)
    if parallel:
        typer.echo(f"machine: {B.machine()}")
        rate = B.run_bots(houses, seconds, typer.echo, bots or "heuristic", workers)
    else:
        try:
            done = B.run(houses, seconds, typer.echo, measures=measures, reference=reference)
        except ValueError as e:
            fail(str(e))
        rate = next((m.median for m in done if m.unit == "hands/s"), 0.0)
    typer.echo(f"hands/s: {rate:.0f}")


@app.command()
def play(
    house: HouseArg = None,
    bots: Annotated[
        list[str] | None,
        typer.Option(
            "--bots",
            help="Bots at the other seats: one name for all (default: heuristic) or one per"
            " seat in seat order (repeat the option or separate with commas).",
        ),
    ] = None,
    seat: Annotated[int, typer.Option(help="Your seat (0 to players-1).")] = 0,
    seed: Annotated[
        int | None, typer.Option(help="Seed of the decks and bots (default: random).")
    ] = None,
    hands: Annotated[int | None, typer.Option(help="Stop after this many hands.", min=1)] = None,
    save: Annotated[
        Path | None,
        typer.Option(help="Save every hand as a table script in this directory.", file_okay=False),
    ] = None,
    hints: Annotated[bool, typer.Option(help="Show which of your cards are legal.")] = False,
) -> None:
    """Play a session at the terminal against bots (reads answers line by line)."""
    from bourre.guards import PluginError
    from bourre.play import play_at_terminal
    from bourre.rules import RuleViolation

    h = load_house(house)
    try:
        play_at_terminal(
            h, bots=bots or ["heuristic"], seat=seat, seed=seed, hands=hands, save=save, hints=hints
        )
    except (ValueError, RuleViolation, PluginError) as e:  # IllegalAnswer: a bot's answer
        fail(str(e))
    except Exception as e:  # a bot plugin's own failure: named, not a traceback
        fail(f"a bot failed during the session: {type(e).__name__}: {e}")


def register_plugin_commands() -> None:
    """Commands that plugins register themselves (``bourre_register_commands``):
    ``compare`` and ``simulate`` come this way, like any third-party command."""
    from bourre.plugins import plugin_manager

    pm = plugin_manager()
    pm.hook.bourre_register_commands(cli=app)


register_plugin_commands()


def main() -> None:
    """Entry point of the console script."""
    app()


if __name__ == "__main__":
    main()
