"""The built-in commands of the ``bourre`` command line, one module per concern.

Each module's ``register_commands(cli)`` adds its commands to the typer app, as
plugins add theirs with the ``bourre_register_commands`` hook; :func:`register_commands`
adds them all, in the order ``bourre --help`` lists them, or only the module of the
one command a command line names (:data:`COMMANDS`: ``bourre advise`` starts without
reading the other commands' modules).  They take the app as an argument and never
import :mod:`bourre.cli`.  Heavy modules are imported inside the commands that use
them, so that ``bourre replay`` starts fast.
"""

from __future__ import annotations

import importlib

import typer

__all__ = ["COMMANDS", "GROUPS", "MODULES", "register_commands"]

MODULES = ("referee", "houses", "bench", "play", "advise", "chart", "new")
"""The modules of the built-in commands, in the order ``bourre --help`` lists them."""

COMMANDS = {
    "replay": "referee",
    "check": "referee",
    "convert": "referee",
    "serve": "referee",
    "rules": "houses",
    "variants": "houses",
    "bench": "bench",
    "play": "play",
    "advise": "advise",
    "chart": "chart",
    "new": "new",
}
"""Each built-in command (or group) and the module that registers it (a test checks
this against what the modules register)."""

GROUPS = frozenset({"new"})
"""The names of :data:`COMMANDS` that are groups of commands (run by the whole app)."""


def register_commands(cli: typer.Typer, only: str | None = None) -> None:
    """The built-in commands: the referee's, the houses', ``bench``, ``play``,
    ``advise``, ``chart`` and ``new`` (a plugin package to start from); with ``only``
    (a name of :data:`COMMANDS`), those of its module alone."""
    for name in MODULES if only is None else (COMMANDS[only],):
        importlib.import_module(f"bourre.cli.commands.{name}").register_commands(cli)
