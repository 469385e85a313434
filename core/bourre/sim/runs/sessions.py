"""One session of bots reduced to its summary, and the bots of a run.

:func:`run_session` plays session ``i`` of a house with the seed
``f"{seed}:{i}"`` (:func:`session_seed`: the same decks in every house) and reduces
it to a small JSON-serialisable summary; :func:`run_chunk` is the worker task that
plays several.  :func:`parse_bots` reads ``--bots``.  The run itself (workers, the
state file, resuming) is :mod:`bourre.sim.runs.runner`.
"""

from __future__ import annotations

import atexit
import os
import random
import signal
import time
from collections.abc import Sequence
from typing import Any

from bourre.game.botmaking import BotSpec, parse_bots
from bourre.game.isolate import IsolatedBot
from bourre.game.players import make_bot
from bourre.game.simulate import play_session
from bourre.houses.house import House
from bourre.kernel.mixed import tally_session
from bourre.sim.runs.collector import for_sessions
from bourre.sim.runs.tally import SessionTally

__all__ = ["BotSpec", "parse_bots", "run_chunk", "run_session", "seat_bots", "session_seed"]


# -- bots -------------------------------------------------------------------------------


def seat_bots(bots: Sequence[BotSpec], players: int, index: int, rotate: bool) -> list[BotSpec]:
    """The bot of each seat in session ``index``; ``rotate`` shifts a per-seat list by
    one seat per session, so every bot sits at every seat equally often."""
    if len(bots) == 1:
        return [bots[0]] * players
    if len(bots) != players:
        raise ValueError(f"{len(bots)} bots given for a table of {players} players")
    if not rotate:
        return list(bots)
    k = index % players
    return [bots[(s - k) % players] for s in range(players)]


# -- one session ------------------------------------------------------------------------


def session_seed(seed: str | int, i: int) -> str:
    """The seed of session ``i``: the same for every house (common random numbers)."""
    return f"{seed}:{i}"


_ISOLATED: dict[tuple[str, str, int], Any] = {}
"""The isolated bots of this process, kept from session to session (``--isolate``)."""


def _close_isolated() -> None:
    for bot in _ISOLATED.values():
        bot.close()
    _ISOLATED.clear()


def _isolated(spec: BotSpec, house: Any, seat: int) -> Any:
    if not _ISOLATED:
        atexit.register(_close_isolated)
    key = (spec.label, house.spec, seat)
    bot = _ISOLATED.get(key)
    if bot is None or bot.proc.poll() is not None:
        bot = _ISOLATED[key] = IsolatedBot(spec.name, dict(spec.options), house=house.spec)
    else:
        bot.reset()
    return bot


def run_session(
    house: Any,
    bots: Sequence[BotSpec],
    seed: str | int,
    i: int,
    rotate: bool = False,
    isolate: bool = False,
    engine: str | None = None,
) -> dict[str, Any]:
    """Play session ``i`` of ``house`` and reduce it to a summary (JSON-ready).  With
    ``isolate`` every bot runs in its own process (:mod:`bourre.game.isolate`).  ``engine``:
    the compiled kernel plays it when it can (``auto``, :func:`bourre.kernel.mixed.tally_session`:
    the same summary), or the one forced (``kernel``, ``python``); ``None``: the
    environment's ``BOURRE_ENGINE`` (``auto`` if unset: workers inherit it); the
    summary's ``engine`` says which played."""
    n = house.table.players
    specs = seat_bots(bots, n, i, rotate)

    def make(seat: int, rng: random.Random) -> Any:
        spec = specs[seat]
        if isolate:
            return _isolated(spec, house, seat)  # no seed: nothing the deal follows from
        return make_bot(spec.name, rng, house=house, **dict(spec.options))

    start = float(house.table.balance)
    t = SessionTally(start, n)
    sseed = session_seed(seed, i)
    t0 = time.perf_counter()
    res = None
    place: list[float] | None = None  # the kernel's, made as t.places() and float() make them
    final: list[float] | None = None
    if engine is None:
        engine = _engine()
    if engine == "kernel" and isolate:
        raise ValueError("--engine kernel: --isolate runs each bot in its own process (Python)")
    if engine != "python" and not isolate:
        got = _tally_session()(house, specs, sseed, t, engine)
        if got is not None:
            res, place, final = got
    if res is None:
        res = play_session(house, seed=sseed, players=make, keep_hands=False, on_hand=t)
    seconds = time.perf_counter() - t0
    return {
        "i": i,
        "seed": sseed,
        "players": n,
        "hands": len(t.pots),
        "bots": [b.label for b in specs],
        "start": start,
        "pot": t.pots,
        "active": t.active,
        "bourre": t.bourre,
        "carried": t.carried,
        "dealer": t.dealers,
        "delta": t.deltas,
        "place": t.places() if place is None else place,  # chips won by place from the dealer
        "final": [float(x) for x in res.final] if final is None else final,
        "plays": t.plays,
        "cinch": t.cinch,
        "seconds": seconds,
        "engine": res.engine,
    }


_KERNEL: list[Any] = []
"""``bourre.kernel.mixed.tally_session``, imported on first use and kept (an import statement
costs about a microsecond a session)."""


def _tally_session() -> Any:
    if not _KERNEL:
        _KERNEL.append(tally_session)
    return _KERNEL[0]


def _engine() -> str:
    """The engine the environment asks for (``BOURRE_ENGINE``), ``auto`` if none."""
    return os.environ.get("BOURRE_ENGINE", "") or "auto"


_HOUSES: dict[str, Any] = {}


def cached_house(spec: str) -> Any:
    """The house of ``spec``, built once per process (a worker builds each house once)."""
    h = _HOUSES.get(spec)
    if h is None:
        h = _HOUSES[spec] = House(spec)
    return h


def run_chunk(
    house: str,
    bots: Sequence[BotSpec],
    seed: str | int,
    indices: Sequence[int],
    rotate: bool = False,
    isolate: bool = False,
) -> list[dict[str, Any]]:
    """Worker entry point: the summaries of sessions ``indices`` of ``house`` (a
    canonical house string; the house is built once per process)."""
    h = cached_house(house)
    engine = _engine()  # read once a chunk (reading the environment costs 2 µs)
    with for_sessions():  # the garbage collector set for many short-lived containers
        return [run_session(h, bots, seed, i, rotate, isolate, engine) for i in indices]


def worker_init() -> None:
    """Workers ignore Ctrl-C (the parent stops the run and keeps what is done), die at
    once when the parent ends them (SIGTERM, SIGHUP: a forked worker inherits the
    parent's handlers, which would turn the signal into an exception sent back on
    the result queue, possibly while holding its lock) and die with their parent
    (Linux: the parent-death signal), even after its kill -9."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for sig in (signal.SIGTERM, getattr(signal, "SIGHUP", None)):
        if sig is not None:
            signal.signal(sig, signal.SIG_DFL)
    try:
        # lazy: Linux only, best effort
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):  # not Linux: the pool's own shutdown applies
        pass
