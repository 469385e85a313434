"""The run options that ``compare``, ``simulate`` and ``sweep`` share on the command
line (:class:`RunOptions`), and their checks before a run: numbers in range, outputs
that can be written, bots that take their options (exit status 2 otherwise)."""

from __future__ import annotations

import os
import random
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

from bourre.cli.util import WORKERS_PER_CPU, fail, max_workers, whole_number

__all__ = [
    "RunOptions",
    "check_bench_bots",
    "check_bot_options",
    "check_numbers",
    "check_outputs",
    "max_workers",
    "unwritable",
    "whole_number",
]


def _writable(flag: str, path: Path, folder: bool = False) -> None:
    """Refuse ``path`` unless something can be written there now (a probe: a file
    made and removed, an existing file opened to append, never truncated)."""
    try:
        if folder:
            with tempfile.TemporaryFile(dir=path if path.is_dir() else path.parent):
                pass
        elif path.exists():
            if path.resolve() == Path(os.devnull):
                return  # thrown away, on purpose
            if not path.is_file():
                fail(f"{flag} {path}: not a regular file (a device or a pipe cannot keep it)")
    except OSError as e:
        fail(f"{flag} {path}: cannot be written: {e.strerror or e}")
    if not folder:
        why = unwritable(path)
        if why:
            fail(f"{flag} {path}: cannot be written: {why}")


def unwritable(path: Path) -> str:
    """Why no file can be written at ``path`` now (``""`` if one can): a probe, an
    existing file opened to append (never truncated), else a file made and removed.
    A device or a pipe is not probed (opening one may wait for a reader)."""
    try:
        if path.exists():
            if path.is_file():
                with path.open("ab"):
                    pass
        else:
            with path.open("xb"):
                pass
            path.unlink()
    except OSError as e:
        return str(e.strerror or e)
    return ""


def check_outputs(**paths: Path | None) -> None:
    """Refuse, before the run, an output that could not be written after it: its
    folder must exist and take a file; an existing output must be a regular file."""
    for option, path in paths.items():
        if path is None:
            continue
        flag = f"--{option}"
        if option == "plot":
            if path.exists() and not path.is_dir():
                fail(f"{flag} {path}: not a folder")
            if not path.parent.is_dir():
                fail(f"{flag} {path}: the folder {path.parent} does not exist")
            _writable(flag, path, folder=True)
            continue
        if path.is_dir():
            fail(f"{flag} {path}: a folder, not a file")
        if option == "resume":
            if not path.is_file():
                fail(f"{flag} {path}: no such state file")
            continue
        if not path.parent.is_dir():
            fail(f"{flag} {path}: the folder {path.parent} does not exist")
        _writable(flag, path)


MAX_SEED = 200
"""The longest ``--seed``."""


def check_numbers(
    sessions: int | None, workers: int | None, chunk: int | None, scheduler: str | None
) -> None:
    """The run options that are numbers, within their bounds
    (:data:`bourre.sim.runs.run.MAX_SESSIONS`, :func:`max_workers`), and --scheduler
    against --workers."""
    # lazy: the runs' modules (the sessions, the bots) load for a run, not at every start
    from bourre.sim.runs.run import MAX_SESSIONS

    if sessions is not None and not 1 <= sessions <= MAX_SESSIONS:
        fail(f"--sessions must be from 1 to {MAX_SESSIONS:,}, not {sessions:,}")
    if workers is not None and not 1 <= workers <= max_workers():
        fail(
            f"--workers must be from 1 to {max_workers()} ({WORKERS_PER_CPU} per CPU here),"
            f" not {workers:,}"
        )
    if chunk is not None and not 1 <= chunk <= MAX_SESSIONS:
        fail(f"--chunk must be from 1 to {MAX_SESSIONS:,}, not {chunk:,}")
    if scheduler is not None and workers is not None:
        fail("--scheduler and --workers exclude each other: the cluster has its own workers")


def check_bot_options(bots: list[Any], house: Any, isolate: bool = False) -> None:
    """Build each bot once so that bad options fail now, with one message; with
    ``isolate`` in a process of its own (a bot nobody vouches for never runs here)."""
    # lazy: loaded when this command runs (`bourre --help` and the other commands start without it)
    from bourre.game.isolate import BotError, IsolatedBot
    from bourre.game.players import make_bot

    for b in bots:
        if isolate:
            probe = IsolatedBot(b.name, dict(b.options), house=house.spec)
            try:
                probe.reset()
            except BotError as e:
                fail(f"--bots: {b.label}: {e.message}")
            finally:
                probe.close()
            continue
        try:
            make_bot(b.name, random.Random(0), house=house, **dict(b.options))
        except (TypeError, ValueError) as e:
            fail(f"--bots: {b.label}: {e}")


@dataclass(frozen=True)
class RunOptions:
    """The options every command that plays a run shares (``compare``, ``simulate``,
    ``sweep``), as given on the command line (``None``: not given)."""

    sessions: int | None = None
    seed: str | None = None
    bots: str | None = None
    rotate: bool = False
    isolate: bool = False
    workers: int | None = None
    scheduler: str | None = None
    chunk: int | None = None
    resume: Path | None = None
    state: Path | None = None
    progress: bool = True

    @classmethod
    def pick(cls, options: Mapping[str, Any]) -> RunOptions:
        """The run options among a command's parameters (its ``locals()``)."""
        return cls(**{f.name: options[f.name] for f in fields(cls)})

    def check(self) -> None:
        """Refuse numbers out of range and a seed that is no short line of text (exit
        status 2)."""
        check_numbers(self.sessions, self.workers, self.chunk, self.scheduler)
        if self.seed is not None and (
            not 0 < len(self.seed) <= MAX_SEED or not self.seed.isprintable()
        ):
            fail(f"--seed: a seed is 1 to {MAX_SEED} printable characters")


def check_bench_bots(houses: list[Any], bots: str) -> None:
    """``bourre bench --bots``: the bots must exist, fit every table and take their
    options (exit 2 otherwise)."""
    # lazy: loaded when this command runs (`bourre --help` and the other commands start without it)
    from bourre.rules.plugins import default_registry
    from bourre.sim.runs.sessions import parse_bots, seat_bots

    try:
        specs = parse_bots(bots, default_registry().bots)
        for h in houses:
            seat_bots(specs, h.table.players, 0, False)
    except ValueError as e:
        fail(f"--bots: {e}")
    check_bot_options(specs, houses[0])
