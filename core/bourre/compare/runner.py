"""Running many bot sessions per house, in parallel, with common random numbers.

Session ``i`` of every house is played with the seed ``f"{seed}:{i}"``: the decks come
from :class:`~bourre.engine.Chance`, which depends on the seed only, so every house
sees the same decks; the bots of a session share one generator seeded from the same
seed (:func:`bourre.simulate.play_session`).  A session is reduced to a small
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
"""

from __future__ import annotations

import contextlib
import json
import math
import time
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, Executor, Future, wait
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from bourre.compare.sessions import (
    BotSpec,
    _worker_init,
    parse_bots,
    run_chunk,
    run_session,
    session_seed,
)
from bourre.compare.statefile import (
    STATE_FORMAT,
    StateError,
    _line,
    load_state,
    repair_tail,
)

__all__ = [
    "BotSpec",
    "RunConfig",
    "RunResult",
    "StateError",
    "load_state",
    "parse_bots",
    "run",
    "run_chunk",
    "run_session",
    "session_seed",
]

# -- a run ------------------------------------------------------------------------------


@dataclass
class RunConfig:
    """What a run plays: houses (canonical strings), sessions per house, the seed,
    the bots (one for every seat, or one per seat) and whether seats rotate."""

    houses: list[str]
    sessions: int
    seed: str = "0"
    bots: list[BotSpec] = field(default_factory=lambda: [BotSpec("heuristic")])
    rotate: bool = False
    isolate: bool = False
    """Every bot in its own process (``--isolate``): other random streams, so a
    resume must keep the choice."""

    def header(self) -> dict[str, Any]:
        return {
            "format": STATE_FORMAT,
            "version": 1,
            "houses": list(self.houses),
            "sessions": self.sessions,
            "seed": self.seed,
            "bots": [b.label for b in self.bots],
            "rotate": self.rotate,
            **({"isolate": True} if self.isolate else {}),
        }


@dataclass
class RunResult:
    """The summaries of a run, by house then session index."""

    config: RunConfig
    summaries: dict[str, dict[int, dict[str, Any]]]
    complete: bool = True
    stopped: str | None = None
    """Why the run stopped early: ``"interrupted"`` or ``"worker failed: …"``."""
    wall_seconds: float = 0.0
    state: Path | None = None

    def completed(self) -> int:
        return sum(len(v) for v in self.summaries.values())

    def ordered(self, house: str) -> list[dict[str, Any]]:
        """The summaries of one house in session order."""
        d = self.summaries.get(house, {})
        return [d[i] for i in sorted(d)]


Progress = Callable[[int, int], None]
"""``progress(completed sessions, total sessions)``, called in the parent process."""


def _chunks(missing: dict[str, list[int]], size: int) -> list[tuple[str, list[int]]]:
    """Tasks interleaved by session index, so every house advances together."""
    tasks: list[tuple[str, list[int]]] = []
    per = {h: [idx[k : k + size] for k in range(0, len(idx), size)] for h, idx in missing.items()}
    for j in range(max((len(v) for v in per.values()), default=0)):
        for h, chunks in per.items():
            if j < len(chunks):
                tasks.append((h, chunks[j]))
    return tasks


def default_chunk(total: int, workers: int) -> int:
    """About 16 tasks per worker, at most 25 sessions each (a short loss on Ctrl-C)."""
    return max(1, min(25, math.ceil(total / max(1, workers * 16))))


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
    missing = {
        h: [i for i in range(config.sessions) if i not in summaries[h]] for h in config.houses
    }
    total = config.sessions * len(config.houses)
    out: IO[str] | None = None
    if state is not None:
        p = Path(state)
        fresh = not p.exists() or p.stat().st_size == 0
        if not fresh:
            repair_tail(p)
        out = p.open("a", encoding="utf-8")
        if fresh:
            out.write(
                json.dumps(config.header())
                + "\n"
                + "".join(_line(h, d[i]) for h, d in summaries.items() for i in sorted(d))
            )
            out.flush()
    result = RunResult(config, summaries, state=Path(state) if state is not None else None)
    t0 = time.perf_counter()

    def record(house: str, batch: list[dict[str, Any]]) -> None:
        for s in batch:
            summaries[house][int(s["i"])] = s
        if out is not None:  # the batch as whole lines, in one write
            out.write("".join(_line(house, s) for s in batch))
            out.flush()
        if progress is not None:
            progress(result.completed(), total)

    workers = max(1, int(workers))
    size = chunk if chunk is not None else default_chunk(sum(map(len, missing.values())), workers)
    tasks = _chunks(missing, max(1, int(size)))
    if progress is not None:
        progress(result.completed(), total)
    try:
        if scheduler is None and workers == 1:
            _run_inline(tasks, config, task, record, result)
        else:
            _run_pool(tasks, config, task, record, result, workers, scheduler)
    finally:
        if out is not None:
            out.close()
        result.wall_seconds = time.perf_counter() - t0
    return result


def _iso(config: RunConfig) -> tuple[bool, ...]:
    """The ``isolate`` argument of a task, only when set (custom tasks need not take it)."""
    return (True,) if config.isolate else ()


def _stop(result: RunResult, reason: str) -> None:
    result.complete = False
    result.stopped = reason


def _run_inline(
    tasks: list[tuple[str, list[int]]],
    config: RunConfig,
    task: Callable[..., list[dict[str, Any]]],
    record: Callable[[str, list[dict[str, Any]]], None],
    result: RunResult,
) -> None:
    try:
        for house, idx in tasks:
            record(house, task(house, config.bots, config.seed, idx, config.rotate, *_iso(config)))
    except KeyboardInterrupt:
        _stop(result, "interrupted")
    except Exception as e:
        _stop(result, f"worker failed: {e!r}")


def _run_pool(
    tasks: list[tuple[str, list[int]]],
    config: RunConfig,
    task: Callable[..., list[dict[str, Any]]],
    record: Callable[[str, list[dict[str, Any]]], None],
    result: RunResult,
    workers: int,
    scheduler: Any,
) -> None:
    client = None
    owns_client = False
    executor: Executor
    if scheduler is not None:
        from distributed import Client

        if isinstance(scheduler, Client):
            client = scheduler
        else:
            client = Client(scheduler)  # type: ignore[no-untyped-call]
            owns_client = True
        executor = client.get_executor(pure=False)  # type: ignore[no-untyped-call]
    else:
        from concurrent.futures import ProcessPoolExecutor

        executor = ProcessPoolExecutor(max_workers=workers, initializer=_worker_init)
    pending: dict[Future[list[dict[str, Any]]], str] = {}
    broken = False
    if client is not None:
        try:
            workers = max(1, sum(client.nthreads().values()))  # type: ignore[no-untyped-call]
        except Exception:
            workers = 8
    window = 4 * workers  # tasks in flight: a long run does not queue every task at once
    todo = iter(tasks)
    try:
        while True:
            while len(pending) < window:
                nxt = next(todo, None)
                if nxt is None:
                    break
                house, idx = nxt
                fut = executor.submit(
                    task, house, config.bots, config.seed, idx, config.rotate, *_iso(config)
                )
                pending[fut] = house
            if not pending:
                break
            done, _ = wait(list(pending), return_when=FIRST_COMPLETED)
            for fut in done:
                house = pending.pop(fut)
                try:
                    batch = fut.result()
                except Exception as e:
                    _stop(result, f"worker failed: {e!r}")
                    broken = True
                    break
                record(house, batch)
            if broken:
                break
    except KeyboardInterrupt:
        _stop(result, "interrupted")
        broken = True
    finally:
        if scheduler is None:
            if broken:  # the workers first: the pool then fails what was pending itself
                _terminate(list((getattr(executor, "_processes", None) or {}).values()))
                executor.shutdown(wait=False)
            else:
                executor.shutdown(wait=True, cancel_futures=True)
        else:
            for fut in pending:
                fut.cancel()
            executor.shutdown(wait=False)
            if owns_client and client is not None:
                client.close()  # type: ignore[no-untyped-call]


def _terminate(procs: list[Any]) -> None:
    """Stop the worker processes of an abandoned pool at once (their running
    chunks are lost; every completed session is already recorded)."""
    for p in procs:
        with contextlib.suppress(Exception):
            p.terminate()
    for p in procs:
        with contextlib.suppress(Exception):
            p.join(timeout=5)
            if p.is_alive():
                p.kill()
                p.join(timeout=5)
