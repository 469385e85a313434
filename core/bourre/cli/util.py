"""What every command of the ``bourre`` command line shares: the one way to fail
(one message on standard error, exit status 2) and reading a house argument.  Commands
registered by plugins (``bourre_register_commands``) use these too."""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Annotated, NoReturn

import typer

from bourre.houses.house import House, PluginError
from bourre.houses.models import HouseError

if TYPE_CHECKING:
    from bourre.houses.house import House

__all__ = [
    "WORKERS_PER_CPU",
    "HouseArg",
    "a_number",
    "fail",
    "load_house",
    "max_workers",
    "whole_number",
]

HouseArg = Annotated[
    str | None,
    typer.Argument(
        help="A house: a house-rules file (.toml/.json) or a house string such as"
        " 'standard+pot-limit(limit=10)'. Default: standard.",
        show_default=False,
    ),
]


WORKERS_PER_CPU = 4
"""``--workers`` is at most this many per CPU available (at least 4 in all)."""


def max_workers() -> int:
    """The most worker processes a command starts here."""
    try:
        n = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        n = os.cpu_count() or 1
    return max(4, WORKERS_PER_CPU * n)


def whole_number(option: str, signed: bool = False) -> Callable[[str], int]:
    """A parser for a whole-number option: ASCII digits, at most 18 (``1e30``, ``²``
    or 40 digits are refused with one line, in words, exit status 2)."""
    pattern = re.compile(r"-?[0-9]{1,18}" if signed else r"[0-9]{1,18}")

    def parse(text: str) -> int:
        t = str(text).strip()
        if not pattern.fullmatch(t):
            shown = t if len(t) <= 24 else t[:20] + "…"
            fail(f"{option}: {shown!r} is not a whole number")
        return int(t)

    return parse


def a_number(option: str) -> Callable[[str], float]:
    """A parser for a number option (``2.5``, ``-1``, ``1e3``): a finite one, refused
    in words otherwise."""

    def parse(text: str) -> float:
        t = str(text).strip()
        try:
            if len(t) > 32 or not re.fullmatch(r"[0-9eE.+-]+", t):
                raise ValueError(t)
            x = float(t)
        except ValueError:
            shown = t if len(t) <= 24 else t[:20] + "…"
            fail(f"{option}: {shown!r} is not a number")
        if x != x or x in (float("inf"), float("-inf")):
            fail(f"{option}: {t!r} is not a finite number")
        return x

    return parse


def fail(message: str) -> NoReturn:
    """One message on standard error, exit status 2."""
    sys.stderr.write(f"bourre: {message}\n")
    raise typer.Exit(2)


def load_house(arg: str | None) -> House:
    """The house named on the command line, or a clean failure naming the problem."""
    try:
        return House.from_arg(arg)
    except (HouseError, PluginError) as e:
        fail(str(e))
