"""``bourre advise``: should this seat play, and what should it throw
(:func:`bourre.advice.advise`)?"""

from __future__ import annotations

import json
from typing import Annotated

import typer

from bourre.cli.util import a_number, fail, load_house, whole_number
from bourre.rules import RuleViolation
from bourre.rules.hookspec import PluginError

__all__ = ["advise", "register_commands"]


def advise(
    hand: Annotated[
        str,
        typer.Option(
            help='Your cards, e.g. "AH KH 7C 4D 2S" (A♥, 10H and TH are accepted; the'
            " dealer's hand holds the upcard)."
        ),
    ],
    upcard: Annotated[str, typer.Option(help="The dealer's upcard (its suit is trump).")],
    place: Annotated[
        int,
        typer.Option(
            parser=whole_number("--place"),
            help="Your place from the dealer: 1 = the dealer's left … the number of players"
            " = the dealer.",
        ),
    ],
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
) -> None:
    """Should I play this hand? Your chances and chips, by simulated deals.

    The chance of taking the pot and of being bourré and the chips expected, playing
    with each exchange and passing, by simulation."""
    # lazy: loaded when this command runs (`bourre --help` and the other commands start without it)
    from bourre.advice.advise import HANDS, AdviceError
    from bourre.advice.advise import advise as run

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
        )
    except AdviceError as e:
        fail(f"--{e.field}: {e}")
    except (ValueError, RuleViolation, PluginError) as e:  # a house's rules refusing
        fail(str(e))
    if as_json:
        typer.echo(json.dumps(got.as_dict(), ensure_ascii=False, indent=2))
    else:
        typer.echo("\n".join(got.words()))


def register_commands(cli: typer.Typer) -> None:
    """``bourre advise``."""
    cli.command()(advise)
