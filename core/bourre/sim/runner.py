"""Running many bot sessions per house, in parallel, with common random numbers.

Session ``i`` of every house is played with the seed ``f"{seed}:{i}"``: the decks come
from :class:`~bourre.game.state.Chance`, which depends on the seed only, so every house
sees the same decks; the bots of a session share one generator seeded from the same
seed (:func:`bourre.game.simulate.play_session`).  A session is reduced to a small
JSON-serialisable *summary* (:func:`run_session`); statistics are computed from the
summaries in session order, so the numbers do not depend on the number of workers,
the chunking, the backend, or interruptions followed by ``--resume``.

Backends: in process (one worker), :class:`concurrent.futures.ProcessPoolExecutor`
(``workers > 1``) or a Dask cluster (``scheduler``: an address or a
``distributed.Client``), through its ``concurrent.futures`` executor.

Every completed session is appended to a state file (JSON lines: a header, then one
summary per line) as soon as it arrives; :func:`load_state` reads it back to resume.
Ctrl-C or a failing worker stops the run but keeps every completed session
(:attr:`RunResult.complete` is then false and :attr:`RunResult.stopped` says why).

:func:`run` lives here; the rest is re-exported from where it lives: what a run
plays and returns (:mod:`bourre.sim.runs`), the backends
(:mod:`bourre.sim.backends`), the sessions (:mod:`bourre.sim.sessions`) and
the state file (:mod:`bourre.sim.statefile`).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from bourre.sim.backends import chunk_tasks, default_chunk, run_inline, run_pool
from bourre.sim.runs import Progress, RunConfig, RunResult
from bourre.sim.sessions import BotSpec, parse_bots, run_chunk, run_session, session_seed
from bourre.sim.statefile import StateError, StateLog, load_state

__all__ = [
    "BotSpec",
    "Progress",
    "RunConfig",
    "RunResult",
    "StateError",
    "default_chunk",
    "load_state",
    "parse_bots",
    "run",
    "run_chunk",
    "run_session",
    "session_seed",
]


def _missing(sessions: int, done: dict[int, dict[str, Any]]) -> Iterator[int]:
    """The indices not in ``done``, made as tasks are taken (never all at once)."""
    return (i for i in range(sessions) if i not in done)


def run(
    config: RunConfig,
    *,
    workers: int = 1,
    scheduler: Any = None,
    chunk: int | None = None,
    progress: Progress | None = None,
    state: Path | str | None = None,
    resume: dict[str, dict[int, dict[str, Any]]] | None = None,
    task: Callable[..., list[dict[str, Any]]] = run_chunk,
) -> RunResult:
    """Play the sessions of ``config`` not already in ``resume`` and return every
    summary.  ``state``: a JSON-lines file that gets the header (when new) and one
    line per completed session.  On Ctrl-C or a failing worker the run stops and
    the result keeps every completed session (``complete`` false)."""
    summaries: dict[str, dict[int, dict[str, Any]]] = {h: {} for h in config.houses}
    for h, d in (resume or {}).items():
        if h in summaries:
            for i, s in d.items():
                if i < config.sessions:
                    summaries[h][i] = s
    missing = {h: _missing(config.sessions, summaries[h]) for h in config.houses}
    left = sum(config.sessions - len(summaries[h]) for h in config.houses)
    total = config.sessions * len(config.houses)
    out: StateLog | None = None
    if state is not None:
        out = StateLog(state, config.header())
        if out.fresh:  # a new file also gets what a resume brought from another one
            for h, d in summaries.items():
                out.summaries(h, [d[i] for i in sorted(d)])
    result = RunResult(config, summaries, state=Path(state) if state is not None else None)
    t0 = time.perf_counter()

    def record(house: str, batch: list[dict[str, Any]]) -> None:
        for s in batch:
            summaries[house][int(s["i"])] = s
        if out is not None:  # the batch as whole lines, in one write
            out.summaries(house, batch)
        if progress is not None:
            progress(result.completed(), total)

    workers = max(1, int(workers))
    size = chunk if chunk is not None else default_chunk(left, workers)
    tasks = chunk_tasks(missing, max(1, int(size)))
    if progress is not None:
        progress(result.completed(), total)
    try:
        if scheduler is None and workers == 1:
            run_inline(tasks, config, task, record, result)
        else:
            run_pool(tasks, config, task, record, result, workers, scheduler)
    finally:
        if out is not None:
            out.close()
        result.wall_seconds = time.perf_counter() - t0
    return result
