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
import functools
import gc
import inspect
import os
import sys
from typing import TYPE_CHECKING, Any

import typer

from bourre.cli.commands import COMMANDS, GROUPS, register_commands
from bourre.cli.util import HouseArg, fail, load_house  # (re-exported)

__all__ = ["HouseArg", "app", "fail", "load_house", "main"]

if TYPE_CHECKING:
    app: typer.Typer
    """The whole command line: every built-in command and every plugin's."""


def _new_app() -> typer.Typer:
    return typer.Typer(
        name="bourre",
        help="Bourré (Booray): house rules, a referee, variant comparison and plugins.",
        no_args_is_help=True,
        add_completion=False,
        pretty_exceptions_enable=False,
    )


def _build(only: str | None = None) -> typer.Typer:
    """An app with the built-in commands (with ``only``: those of the module of that
    command alone, :data:`~bourre.cli.commands.COMMANDS`) and every plugin's."""
    cli = _new_app()
    register_commands(cli, only)
    register_plugin_commands(cli)
    _flowing_help(cli)
    return cli


@functools.cache
def _app() -> typer.Typer:
    return _build()


def __getattr__(name: str) -> Any:
    # :data:`app` is built on first use: ``bourre advise`` builds only its own command
    # (:func:`_for`), not the modules of all the others
    if name == "app":
        return _app()
    raise AttributeError(f"module 'bourre.cli' has no attribute {name!r}")


def register_plugin_commands(cli: typer.Typer) -> None:
    """Commands that plugins register themselves (``bourre_register_commands``):
    ``compare`` and ``simulate`` come this way, like any third-party command."""
    # lazy: the plugins load when the command line starts, not when bourre.cli is imported
    from bourre.rules.plugins import plugin_manager

    pm = plugin_manager()
    pm.hook.bourre_register_commands(cli=cli)


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


def _for(args: list[str]) -> typer.Typer:
    """The app that runs ``args``: one with only the command they name, when they name
    one (typer turns every registered command into a click command at each call,
    reading all their signatures, and the built-in commands' modules need not be read:
    a few hundredths of a second at every start that the one command run does not
    need); else the whole :data:`app` (``--help``, a group, a name that is not a
    command, a name two commands share: the same answer as always)."""
    if not args or args[0].startswith("-"):
        return _app()
    # a built-in command: its module alone, with the plugins' commands (one may share
    # its name: then the whole app, as for a group)
    base = _build(args[0]) if args[0] in COMMANDS and args[0] not in GROUPS else _app()
    named = [
        info
        for info in base.registered_commands
        if (info.name or typer.main.get_command_name(info.callback.__name__))  # type: ignore[union-attr]
        == args[0]
    ]
    if len(named) != 1 or any(g.name == args[0] for g in base.registered_groups):
        return _app()
    one = copy.copy(base)
    one.registered_commands = named
    one.registered_groups = []
    one.callback()(_group)  # (a group of one: the command is still named on the line)
    return one


def _group() -> None:
    """Bourré (Booray): house rules, a referee, variant comparison and plugins."""


def main() -> None:
    """Entry point of the console script.  Standard output that cannot be written (a
    full disk, ``/dev/full``, a reader that left: ``bourre … | head``) ends the
    command with one line on standard error, not a traceback.

    What the start made (the modules, the plugins, the command's app: tens of
    thousands of objects that live as long as the process) is frozen out of the
    garbage collector (:func:`gc.freeze`), as long-running servers do after their
    imports: the collections while the command runs, and the last ones at exit, no
    longer walk it (about 0.02 s of CPU, a tenth of ``bourre advise``; issue 44).
    Nothing else changes: what the command makes is collected as before."""
    try:
        try:
            cli = _for(sys.argv[1:])
            gc.freeze()
            cli()
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
