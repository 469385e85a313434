"""``bourre play``: a session at the terminal against bots (:mod:`bourre.cli.session`)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from bourre.cli.util import HouseArg, fail, load_house, whole_number
from bourre.rules import RuleViolation
from bourre.rules.hookspec import PluginError

__all__ = ["play", "register_commands"]


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
    seat: Annotated[
        int, typer.Option(parser=whole_number("--seat"), help="Your seat (0 to players-1).")
    ] = 0,
    seed: Annotated[
        int | None,
        typer.Option(
            parser=whole_number("--seed", signed=True),
            help="Seed of the decks and bots (default: random).",
        ),
    ] = None,
    hands: Annotated[
        int | None,
        typer.Option(
            parser=whole_number("--hands"), help="Stop after this many hands (1 or more)."
        ),
    ] = None,
    save: Annotated[
        Path | None,
        typer.Option(help="Save every hand as a table script in this directory.", file_okay=False),
    ] = None,
    hints: Annotated[bool, typer.Option(help="Show which of your cards are legal.")] = False,
    auto_forced: Annotated[
        bool,
        typer.Option(
            "--auto-forced",
            help="Play your card without asking when it is the only legal one (it is said).",
        ),
    ] = False,
) -> None:
    """Play a session at the terminal against bots (reads answers line by line)."""
    # lazy: loaded when this command runs (`bourre --help` and the other commands start without it)
    from bourre.cli.session import play_at_terminal
    from bourre.game.playerbase import BotFailed

    if hands is not None and hands < 1:
        fail(f"--hands must be 1 or more, not {hands}")
    h = load_house(house)
    try:
        play_at_terminal(
            h,
            bots=bots or ["heuristic"],
            seat=seat,
            seed=seed,
            hands=hands,
            save=save,
            hints=hints,
            auto_forced=auto_forced,
        )
    except (ValueError, RuleViolation, PluginError, BotFailed) as e:  # a bot's answer, or bug
        fail(str(e))
    except Exception as e:  # a bot plugin's own failure: named, not a traceback
        fail(f"a bot failed during the session: {type(e).__name__}: {e}")


def register_commands(cli: typer.Typer) -> None:
    """``bourre play``."""
    cli.command()(play)
