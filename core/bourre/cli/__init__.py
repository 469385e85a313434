"""The ``bourre`` command line (typer + rich).  Heavy modules are imported inside the
commands that use them, so that ``bourre replay`` starts fast.

Bad input (a file, a house, a script, a plugin) gets one clear message on standard
error naming the place and the rule, and exit status 2.

The built-in commands are :mod:`bourre.cli.commands`: they register themselves on
:data:`app`, the way plugins register theirs (``bourre_register_commands``).
"""

from __future__ import annotations

import contextlib
import copy
import errno
import inspect
import os
import sys

import typer

app = typer.Typer(
    name="bourre",
    help="Bourré (Booray): house rules, a referee, variant comparison and plugins.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

from bourre.cli.commands import register_commands  # noqa: E402
from bourre.cli.util import HouseArg, fail, load_house  # noqa: E402  (re-exported)

__all__ = ["HouseArg", "app", "fail", "load_house", "main"]

register_commands(app)


def register_plugin_commands() -> None:
    """Commands that plugins register themselves (``bourre_register_commands``):
    ``compare`` and ``simulate`` come this way, like any third-party command."""
    # lazy: the plugins load when the command line starts, not when bourre.cli is imported
    from bourre.rules.plugins import plugin_manager

    pm = plugin_manager()
    pm.hook.bourre_register_commands(cli=app)


def _flowing_help(cli: typer.Typer) -> None:
    """Every command's help as a reader meets it, built-in or a plugin's: its
    docstring's first paragraph is its line in ``bourre --help``, and each paragraph
    flows to the terminal's width.  (typer's rich help keeps a docstring's line
    breaks: the list and the paragraphs after the first would break where the source
    does, ragged at any other width.)  A paragraph starting with ``\\b`` keeps its
    lines, as in click."""
    for info in cli.registered_commands:
        text = info.help if info.help is not None else inspect.getdoc(info.callback)
        if not text:
            continue
        paragraphs = [
            p if p.startswith("\b") else " ".join(p.split())
            for p in inspect.cleandoc(text).split("\n\n")
        ]
        info.help = "\n\n".join(paragraphs)
        if info.short_help is None:
            info.short_help = paragraphs[0]
    for group in cli.registered_groups:
        if group.typer_instance is not None:
            _flowing_help(group.typer_instance)


register_plugin_commands()
_flowing_help(app)


def _for(args: list[str]) -> typer.Typer:
    """The app that runs ``args``: :data:`app` with only the command they name, when they
    name one (typer turns every registered command into a click command at each call,
    reading all their signatures: a few hundredths of a second at every start that the
    one command run does not need); else :data:`app` itself (``--help``, a group, a
    name that is not a command: the same answer as always)."""
    if not args or args[0].startswith("-"):
        return app
    named = [
        info
        for info in app.registered_commands
        if (info.name or typer.main.get_command_name(info.callback.__name__))  # type: ignore[union-attr]
        == args[0]
    ]
    if len(named) != 1 or any(g.name == args[0] for g in app.registered_groups):
        return app
    one = copy.copy(app)
    one.registered_commands = named
    one.registered_groups = []
    one.callback()(_group)  # (a group of one: the command is still named on the line)
    return one


def _group() -> None:
    """Bourré (Booray): house rules, a referee, variant comparison and plugins."""


def main() -> None:
    """Entry point of the console script.  Standard output that cannot be written (a
    full disk, ``/dev/full``, a reader that left: ``bourre … | head``) ends the
    command with one line on standard error, not a traceback."""
    try:
        try:
            _for(sys.argv[1:])()
        finally:  # the last buffered output fails here, not unreported at exit
            if sys.stdout is not None:
                sys.stdout.flush()
    except OSError as e:
        if e.filename is not None:  # a file the command did not expect to fail on
            raise
        with contextlib.suppress(OSError):  # nothing more reaches it, not even at exit
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        if e.errno == errno.EPIPE:
            sys.exit(141)  # as a shell reports a reader that left (128 + SIGPIPE)
        sys.stderr.write(f"bourre: the output cannot be written: {e.strerror or e}\n")
        sys.exit(1)
