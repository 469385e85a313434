"""What every command of the ``bourre`` command line shares: the one way to fail
(one message on standard error, exit status 2) and reading a house argument.  Commands
registered by plugins (``bourre_register_commands``) use these too."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Annotated, NoReturn

import typer

if TYPE_CHECKING:
    from bourre.rules.house import House

__all__ = ["HouseArg", "fail", "load_house"]

HouseArg = Annotated[
    str | None,
    typer.Argument(
        help="A house: a house-rules file (.toml/.json) or a house string such as"
        " 'standard+pot-limit(limit=10)'. Default: standard.",
        show_default=False,
    ),
]


def fail(message: str) -> NoReturn:
    """One message on standard error, exit status 2."""
    sys.stderr.write(f"bourre: {message}\n")
    raise typer.Exit(2)


def load_house(arg: str | None) -> House:
    """The house named on the command line, or a clean failure naming the problem."""
    from bourre.rules.house import House, PluginError
    from bourre.rules.settings import HouseError

    try:
        return House.from_arg(arg)
    except (HouseError, PluginError) as e:
        fail(str(e))
