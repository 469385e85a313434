"""The built-in commands of the ``bourre`` command line, one module per concern.

Each module's ``register_commands(cli)`` adds its commands to the typer app, as
plugins add theirs with the ``bourre_register_commands`` hook; :func:`register_commands`
adds them all, in the order ``bourre --help`` lists them.  They take the app as an
argument and never import :mod:`bourre.cli`.  Heavy modules are imported inside the
commands that use them, so that ``bourre replay`` starts fast.
"""

from __future__ import annotations

import typer

from bourre.cli.commands import advise, bench, chart, houses, new, play, referee

__all__ = ["register_commands"]


def register_commands(cli: typer.Typer) -> None:
    """The built-in commands: the referee's, the houses', ``bench``, ``play``,
    ``advise``, ``chart`` and ``new`` (a plugin package to start from)."""
    for module in (referee, houses, bench, play, advise, chart, new):
        module.register_commands(cli)
