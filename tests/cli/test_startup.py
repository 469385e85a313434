"""``bourre advise`` starts without what it does not use (issue 44: advise within
0.3 s of CPU): the other built-in commands' modules, the simulations' runs, the web
pages, matplotlib; and what the start made is frozen out of the garbage collector.  A
check of which modules are loaded, not of timings."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import typer

from bourre.cli import commands

ROOT = Path(__file__).resolve().parents[2]

HEAVY = (
    "bourre.cli.commands.bench",
    "bourre.cli.commands.chart",
    "bourre.cli.commands.new",
    "bourre.cli.commands.play",
    "bourre.cli.commands.referee",
    "bourre.sim.runs",
    "bourre.sim.skill",
    "bourre.web",
    "bourre.referee",
    "matplotlib",
    "rich.table",
)
"""Modules that ``advise`` before the hand never needs."""


def _loaded_after(args: list[str]) -> set[str]:
    """The modules loaded once ``bourre ARGS`` answered (and ``gc-frozen:N``, the
    objects the start froze out of the garbage collector)."""
    code = (
        "import gc, json, sys\n"
        f"sys.argv = ['bourre', *{args!r}]\n"
        "from bourre.cli import main\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        "frozen = [f'gc-frozen:{gc.get_freeze_count()}']\n"
        "sys.stderr.write('\\nMODULES ' + json.dumps(sorted(sys.modules) + frozen))\n"
    )
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT / "core"), str(ROOT / "variants")]))
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120
    )
    assert "MODULES " in done.stderr, done.stderr
    return set(json.loads(done.stderr.rsplit("MODULES ", 1)[1]))


def test_advise_starts_without_the_other_commands() -> None:
    """Answering ``advise`` before the hand loads its own command's module, not the
    other commands', the runs, the web pages or matplotlib."""
    loaded = _loaded_after(
        ["advise", "--hand", "AH KH 7C 4D 2S", "--upcard", "5H", "--place", "2", "--hands", "30"]
    )
    assert "bourre.cli.commands.advise" in loaded
    assert "bourre.advice.advise" in loaded  # (it did answer)
    back = sorted(m for m in loaded if m in HEAVY or m.startswith(tuple(h + "." for h in HEAVY)))
    assert back == [], f"advise loads modules it does not use: {back}"
    # what the start made is out of the collector's walks (bourre.cli.main: gc.freeze)
    frozen = [int(m.split(":")[1]) for m in loaded if m.startswith("gc-frozen:")]
    assert frozen and frozen[0] > 10_000, frozen


def test_the_table_of_commands_names_what_each_module_registers() -> None:
    """:data:`bourre.cli.commands.COMMANDS` (the module read for a named command) is
    what the modules register: a command missing there would not be found by name."""
    for module in commands.MODULES:
        cli = typer.Typer()
        commands.register_commands(
            cli, only=next(c for c, m in commands.COMMANDS.items() if m == module)
        )
        names = {
            info.name or typer.main.get_command_name(info.callback.__name__)  # type: ignore[union-attr]
            for info in cli.registered_commands
        } | {g.name for g in cli.registered_groups}
        assert names == {c for c, m in commands.COMMANDS.items() if m == module}, module
        assert {g.name for g in cli.registered_groups} <= commands.GROUPS, module
