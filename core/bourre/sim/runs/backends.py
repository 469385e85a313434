"""Where the sessions of a run are played: split into tasks interleaved by session
index (:func:`chunk_tasks`), then in process (:func:`run_inline`), on a
:class:`concurrent.futures.ProcessPoolExecutor` or on a Dask cluster through its
``concurrent.futures`` executor (:func:`run_pool`).  Ctrl-C or a failing worker
(an exception, or a worker process that dies: ``BrokenProcessPool``, wherever the
pool raises it) stops the run; every completed session is already recorded.  On a
pool, Ctrl-C (or a stop by SIGTERM, SIGHUP) only raises a flag the loop reads between
its waits (a second one interrupts at once): a ``KeyboardInterrupt`` raised inside the
executor's own code (``wait`` holding the futures' locks, ``submit``) could leave a lock
taken that the pool's manager thread then waits for, and the process would never exit."""

from __future__ import annotations

import contextlib
import itertools
import math
import signal
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping
from concurrent.futures import FIRST_COMPLETED, Executor, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from bourre.sim.runs.run import RunConfig, RunResult
from bourre.sim.runs.sessions import worker_init
from bourre.sim.runs.statefile import StateError

__all__ = ["chunk_tasks", "default_chunk", "run_inline", "run_pool"]


def chunk_tasks(missing: Mapping[str, Iterable[int]], size: int) -> Iterator[tuple[str, list[int]]]:
    """Tasks interleaved by session index, so every house advances together; made as
    they are taken (``missing`` may be lazy: a run of many sessions never holds every
    index)."""
    todo = {h: iter(idx) for h, idx in missing.items()}
    while todo:
        for h in list(todo):
            chunk = list(itertools.islice(todo[h], size))
            if chunk:
                yield h, chunk
            else:
                del todo[h]


def default_chunk(total: int, workers: int) -> int:
    """About 16 tasks per worker, at most 25 sessions each (a short loss on Ctrl-C)."""
    return max(1, min(25, math.ceil(total / max(1, workers * 16))))


def _iso(config: RunConfig) -> tuple[bool, ...]:
    """The ``isolate`` argument of a task, only when set (custom tasks need not take it)."""
    return (True,) if config.isolate else ()


def _stop(result: RunResult, reason: str) -> None:
    result.complete = False
    result.stopped = reason


class _CtrlC:
    """Ctrl-C (and SIGTERM or SIGHUP, where the command turned them into a stop:
    ``bourre.cli.commands.launch.stop_on_signals``) as a flag while a pool runs, the
    handlers restored after: the first raises :attr:`pressed`, a second interrupts at
    once.  A signal that is ignored or left to its default stays so; outside the main
    thread (where no handler can be set) nothing changes."""

    def __init__(self) -> None:
        self.pressed = False
        self._old: dict[int, Any] = {}

    def _handle(self, signum: int, frame: object) -> None:
        if self.pressed:
            raise KeyboardInterrupt(signal.Signals(signum).name)
        self.pressed = True

    def __enter__(self) -> _CtrlC:
        if threading.current_thread() is threading.main_thread():
            for sig in (signal.SIGINT, signal.SIGTERM, getattr(signal, "SIGHUP", None)):
                if sig is not None and callable(signal.getsignal(sig)):
                    self._old[sig] = signal.signal(sig, self._handle)
        return self

    def __exit__(self, *exc: object) -> None:
        for sig, old in self._old.items():
            signal.signal(sig, old)


_POLL = 0.2
"""Seconds between two looks at the Ctrl-C flag while the pool plays."""


def _failed(e: BaseException) -> str:
    """Why a run stopped on a failing worker, in words (``RunResult.stopped``)."""
    if isinstance(e, BrokenProcessPool):
        return "worker failed: a worker process died (killed, or out of memory)"
    return f"worker failed: {e!r}"


def run_inline(
    tasks: Iterable[tuple[str, list[int]]],
    config: RunConfig,
    task: Callable[..., list[dict[str, Any]]],
    record: Callable[[str, list[dict[str, Any]]], None],
    result: RunResult,
) -> None:
    """Play ``tasks`` one after another in this process, passing each batch to ``record``."""
    try:
        for house, idx in tasks:
            record(house, task(house, config.bots, config.seed, idx, config.rotate, *_iso(config)))
    except KeyboardInterrupt:
        _stop(result, "interrupted")
    except StateError as e:  # the state file could not take the batch (a full disk)
        _stop(result, str(e))
    except Exception as e:
        _stop(result, f"worker failed: {e!r}")


def run_pool(
    tasks: Iterable[tuple[str, list[int]]],
    config: RunConfig,
    task: Callable[..., list[dict[str, Any]]],
    record: Callable[[str, list[dict[str, Any]]], None],
    result: RunResult,
    workers: int,
    scheduler: Any,
) -> None:
    """Play ``tasks`` on ``workers`` processes, or on the Dask ``scheduler`` (an address
    or a ``distributed.Client``), a few at a time, passing each batch to ``record``."""
    client = None
    owns_client = False
    executor: Executor
    if scheduler is not None:
        # lazy: the optional 'dask' extra, loaded for --scheduler only
        from distributed import Client

        if isinstance(scheduler, Client):
            client = scheduler
        else:
            client = Client(scheduler)  # type: ignore[no-untyped-call]
            owns_client = True
        executor = client.get_executor(pure=False)  # type: ignore[no-untyped-call]
    else:
        executor = ProcessPoolExecutor(max_workers=workers, initializer=worker_init)
    pending: dict[Future[list[dict[str, Any]]], str] = {}
    broken = False
    if client is not None:
        try:
            workers = max(1, sum(client.nthreads().values()))  # type: ignore[no-untyped-call]
        except Exception:
            workers = 8
    window = 4 * workers  # tasks in flight: a long run does not queue every task at once
    todo = iter(tasks)
    with _CtrlC() as ctrl_c:  # (Ctrl-C read between the waits)
        try:
            while True:
                if ctrl_c.pressed:
                    raise KeyboardInterrupt
                while len(pending) < window:
                    nxt = next(todo, None)
                    if nxt is None:
                        break
                    house, idx = nxt
                    try:  # a pool broken by a dead worker refuses new tasks
                        fut = executor.submit(
                            task, house, config.bots, config.seed, idx, config.rotate, *_iso(config)
                        )
                    except Exception as e:
                        _stop(result, _failed(e))
                        broken = True
                        break
                    pending[fut] = house
                if broken or not pending:
                    break
                done, _ = wait(list(pending), timeout=_POLL, return_when=FIRST_COMPLETED)
                for fut in done:
                    house = pending.pop(fut)
                    try:
                        batch = fut.result()
                    except Exception as e:
                        _stop(result, _failed(e))
                        broken = True
                        break
                    try:
                        record(house, batch)
                    except StateError as e:  # the state file could not take it (a full disk)
                        _stop(result, str(e))
                        broken = True
                        break
                if broken:
                    break
        except KeyboardInterrupt:
            _stop(result, "interrupted")
            broken = True
        except Exception as e:  # the pool itself failed (wait, a broken pool): the run stops
            _stop(result, _failed(e))
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
