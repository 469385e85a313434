"""``bourre advise``: should this seat play, and what should it throw
(:func:`bourre.advice.advise`)?  With ``--script``: during the hand, which card should
the seat to play play (:func:`bourre.advice.inhand.advise_in_hand`)?"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated

import typer

from bourre.cli.util import a_number, fail, load_house, whole_number
from bourre.rules import RuleViolation
from bourre.rules.hookspec import PluginError

__all__ = ["advise", "register_commands"]


def advise(
    hand: Annotated[
        str | None,
        typer.Option(
            help='Your cards, e.g. "AH KH 7C 4D 2S" (A♥, 10H and TH are accepted; the'
            " dealer's hand holds the upcard).",
            show_default=False,
        ),
    ] = None,
    upcard: Annotated[
        str | None,
        typer.Option(help="The dealer's upcard (its suit is trump).", show_default=False),
    ] = None,
    place: Annotated[
        int | None,
        typer.Option(
            parser=whole_number("--place"),
            help="Your place from the dealer: 1 = the dealer's left … the number of players"
            " = the dealer.",
            show_default=False,
        ),
    ] = None,
    script: Annotated[
        Path | None,
        typer.Option(
            help="During the hand: a table script (JSON or the hand notation, '-' reads"
            " stdin) that stops at a card to play; the advice is for the seat to play"
            ' (docs/advice.md, "Advice during the hand").',
            show_default=False,
        ),
    ] = None,
    deals: Annotated[
        int | None,
        typer.Option(
            parser=whole_number("--deals"),
            help="With --script: deals imagined that agree with what the player has seen"
            " (default 200; 0: every hand known only).",
            show_default=False,
        ),
    ] = None,
    house: Annotated[str, typer.Option(help="The house (a house string or file).")] = "standard",
    players: Annotated[
        int | None,
        typer.Option(
            parser=whole_number("--players"),
            help="Players at the table (default: the house's).",
        ),
    ] = None,
    pot: Annotated[
        float | None,
        typer.Option(
            parser=a_number("--pot"),
            help="The pot at stake (default: the first pot, players × ante).",
        ),
    ] = None,
    decided: Annotated[
        str | None,
        typer.Option(
            help="The decisions already announced by the seats before you, from the"
            ' dealer\'s left, e.g. "pass,play" (default: they decide as the heuristic bot).'
        ),
    ] = None,
    hands: Annotated[
        int | None,
        typer.Option(
            parser=whole_number("--hands"),
            help="Simulated deals (default: 3,000, as on the web page: bourre.advice.advise.HANDS).",
        ),
    ] = None,
    seed: Annotated[
        int, typer.Option(parser=whole_number("--seed", signed=True), help="Seed of the deals.")
    ] = 0,
    every: Annotated[
        bool,
        typer.Option(
            "--every",
            help="Try every exchange, not only throwing the weakest cards first (slower).",
        ),
    ] = False,
    as_json: Annotated[bool, typer.Option("--json", help="The answer as JSON.")] = False,
    opponents: Annotated[
        str,
        typer.Option(
            help="Who the others are: heuristic (they decide as the heuristic bot) or"
            " equilibrium (they decide by the house's equilibrium chart, worked out once"
            " and kept in your cache directory).",
        ),
    ] = "heuristic",
) -> None:
    """Should I play this hand? Your chances and chips, by simulated deals.

    The chance of taking the pot and of being bourré and the chips expected, playing
    with each exchange and passing, by simulation.  During the hand, --script SCRIPT:
    which card should the seat to play play, each card's chips on what it knows and
    with every hand known (the review's values)."""
    if script is not None:
        given = [
            name
            for name, v in (("--hand", hand), ("--upcard", upcard), ("--place", place))
            if v is not None
        ]
        if given:
            fail(f"--script: give the script or {', '.join(given)} (before the hand), not both")
        if opponents != "heuristic":
            fail("--opponents: before the hand only (during the hand every card is weighed)")
        _in_hand(script, SCRIPT_DEALS if deals is None else deals, seed, as_json)
        return
    if deals is not None:
        fail("--deals: with --script only (before the hand, --hands sets the simulated deals)")
    missing = [
        name
        for name, v in (("--hand", hand), ("--upcard", upcard), ("--place", place))
        if v is None
    ]
    if missing:
        fail(
            f"{', '.join(missing)}: needed to advise before the hand (or --script SCRIPT during"
            " the hand)"
        )
    assert hand is not None and upcard is not None and place is not None
    # lazy: loaded when this command runs (`bourre --help` and the other commands start without it)
    from bourre.advice.advise import HANDS, AdviceError
    from bourre.advice.advise import advise as run

    if opponents not in ("heuristic", "equilibrium"):
        fail(f"--opponents: {opponents!r}: the others are heuristic or equilibrium")
    h = load_house(house)
    cards = hand.replace(",", " ").split()
    said = [d for d in (decided or "").replace(" ", ",").split(",") if d]
    try:
        got = run(
            h,
            cards,
            upcard,
            place,
            players=players,
            pot=pot,
            decisions=said,
            hands=HANDS if hands is None else hands,
            seed=seed,
            every=every,
            opponents=opponents,
            notice=lambda text: typer.echo(text, err=True),
        )
    except AdviceError as e:
        fail(f"--{e.field}: {e}")
    except (ValueError, RuleViolation, PluginError) as e:  # a house's rules refusing
        fail(str(e))
    if as_json:
        typer.echo(json.dumps(got.as_dict(), ensure_ascii=False, indent=2))
    else:
        typer.echo("\n".join(got.words()))


SCRIPT_DEALS = 200
"""The deals ``advise --script`` imagines by default."""


def _in_hand(script: Path, deals: int, seed: int, as_json: bool) -> None:
    """The advice for the seat to play at the end of ``script``."""
    # lazy: the referee, the solvers and the sampled deals, loaded for this only
    from bourre.advice.inhand import InHandError, advise_in_hand
    from bourre.advice.review import MAX_DEALS
    from bourre.referee import ScriptError, parse_text, referee, referee_file

    if deals > MAX_DEALS:
        fail(f"--deals: from 0 to {MAX_DEALS:,} deals, not {deals:,}")
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
    where = "<stdin>" if str(script) == "-" else str(script)
    played = sum(len(t.plays) for h in done.record.hands for t in h.tricks)
    try:
        got = advise_in_hand(
            done.state, index=played, house=done.house.spec, deals=deals, seed=seed
        )
    except InHandError as e:
        fail(f"{where}: {e}")
    except (ValueError, RuleViolation, PluginError) as e:  # a house's rules refusing
        fail(f"{where}: {e}")
    if as_json:
        typer.echo(json.dumps(got.as_dict(), ensure_ascii=False, indent=2))
    else:
        typer.echo("\n".join(got.words()))


def register_commands(cli: typer.Typer) -> None:
    """``bourre advise``."""
    cli.command()(advise)
