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
summary per line) as soon as it arrives; with a state file the run keeps only which
sessions completed (:class:`~bourre.sim.runs.run.Done`) and the statistics stream the
summaries back from the file (:meth:`~bourre.sim.runs.run.RunResult.entries`), so its
memory does not grow with the sessions.  :func:`~bourre.sim.runs.statefile.scan_state`
reads a state file to resume, as a stream (:func:`load_state`: all in memory).
Ctrl-C or a failing worker stops the run but keeps every completed session
(:attr:`RunResult.complete` is then false and :attr:`RunResult.stopped` says why).

:func:`run` lives here; the rest is re-exported from where it lives: what a run
plays and returns (:mod:`bourre.sim.runs.run`), the backends
(:mod:`bourre.sim.runs.backends`), the sessions (:mod:`bourre.sim.runs.sessions`) and
the state file (:mod:`bourre.sim.runs.statefile`).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

from bourre.sim.runs.backends import chunk_tasks, default_chunk, run_inline, run_pool
from bourre.sim.runs.run import Done, Progress, RunConfig, RunResult
from bourre.sim.runs.sessions import BotSpec, parse_bots, run_chunk, run_session, session_seed
from bourre.sim.runs.statefile import Resumed, StateError, StateLog, load_state, read_state

__all__ = [
    "BotSpec",
    "Progress",
    "Resumed",
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


def _missing(sessions: int, done: Any) -> Iterator[int]:
    """The indices not in ``done``, made as tasks are taken (never all at once)."""
    return (i for i in range(sessions) if i not in done)


def _resumed(
    config: RunConfig, resume: Mapping[str, Any] | Resumed | None
) -> dict[str, dict[int, dict[str, Any]]]:
    """The summaries ``resume`` brings, in memory (a run without a state file)."""
    if isinstance(resume, Resumed):
        _, resume = load_state(resume.path)
    out: dict[str, dict[int, dict[str, Any]]] = {h: {} for h in config.houses}
    for h, d in (resume or {}).items():
        if h in out:
            for i, s in d.items():
                if i < config.sessions:
                    out[h][i] = s
    return out


def _copy(resume: Resumed, config: RunConfig, out: StateLog) -> None:
    """The sessions of the state file ``resume`` that this run covers, appended to
    the state file ``out`` a batch at a time (streamed, never all at once)."""
    batch: list[str] = []
    for item in read_state(resume.path):
        if isinstance(item, dict):
            continue
        h, s = item
        if h in config.houses and s["i"] < config.sessions:
            batch.append(json.dumps({"house": h, "summary": s}))
            if len(batch) >= 500:
                out.write(batch)
                batch = []
    if batch:
        out.write(batch)


def run(
    config: RunConfig,
    *,
    workers: int = 1,
    scheduler: Any = None,
    chunk: int | None = None,
    progress: Progress | None = None,
    state: Path | str | None = None,
    resume: Mapping[str, Any] | Resumed | None = None,
    task: Callable[..., list[dict[str, Any]]] = run_chunk,
) -> RunResult:
    """Play the sessions of ``config`` not already in ``resume`` and return the run.
    ``state``: a JSON-lines file that gets the header (when new) and one line per
    completed session.  With ``state`` and ``resume`` a :class:`Resumed` (or
    nothing), the summaries are kept in the state file only (the result streams
    them: the memory of a run does not grow with its sessions); otherwise in
    memory.  On Ctrl-C or a failing worker the run stops and the result keeps every
    completed session (``complete`` false)."""
    streaming = state is not None and (resume is None or isinstance(resume, Resumed))
    summaries: dict[str, dict[int, dict[str, Any]]] = {h: {} for h in config.houses}
    done: dict[str, Done] | None = None
    have: Mapping[str, Any]
    if streaming:
        done = {h: Done() for h in config.houses}
        for h, idx in (resume.done if isinstance(resume, Resumed) else {}).items():
            if h in done:
                for i in idx:
                    if i < config.sessions:
                        done[h].add(i)
        have = done
    else:
        summaries = _resumed(config, resume)
        have = summaries
    missing = {h: _missing(config.sessions, have[h]) for h in config.houses}
    left = sum(config.sessions - len(have[h]) for h in config.houses)
    total = config.sessions * len(config.houses)
    out: StateLog | None = None
    if state is not None:
        out = StateLog(state, config.header())
        if isinstance(resume, Resumed):
            if out.fresh or Path(state).resolve() != resume.path.resolve():
                _copy(resume, config, out)
        elif out.fresh:  # a new file also gets what a resume brought from another one
            for h, d in summaries.items():
                out.summaries(h, [d[i] for i in sorted(d)])
    result = RunResult(
        config, summaries, state=Path(state) if state is not None else None, done=done
    )
    t0 = time.perf_counter()

    def record(house: str, batch: list[dict[str, Any]]) -> None:
        if done is not None:
            mark = done[house].add
            for s in batch:
                mark(int(s["i"]))
        else:
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
