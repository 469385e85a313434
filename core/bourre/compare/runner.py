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
import functools
import hashlib
import json
import math
import random
import time
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import FIRST_COMPLETED, Executor, Future, wait
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from bourre.settings import parse_calls, split_top

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

STATE_FORMAT = "bourre-compare-state"


class StateError(ValueError):
    """A state file that cannot be resumed (missing, malformed, another run)."""


# -- bots -------------------------------------------------------------------------------


@dataclass(frozen=True)
class BotSpec:
    """A bot by name with its factory options: ``montecarlo(budget=8)``."""

    name: str
    options: tuple[tuple[str, Any], ...] = ()

    @property
    def label(self) -> str:
        if not self.options:
            return self.name
        return f"{self.name}({','.join(f'{k}={v}' for k, v in self.options)})"

    def __str__(self) -> str:
        return self.label


def parse_bots(text: str, known: Iterable[str] | None = None) -> list[BotSpec]:
    """``random``, ``heuristic,random,random,random,random`` or with options
    ``montecarlo(budget=8),heuristic``.  One bot means every seat; otherwise one per
    seat.  ``known``: the installed bot names (unknown ones are refused)."""
    names = set(known) if known is not None else None
    if any(not part.strip() for part in split_top(text, ",")):
        raise ValueError(f"--bots {text!r}: an empty bot name")
    try:
        calls = parse_calls(text, ",")
    except ValueError as e:
        raise ValueError(f"--bots: {e}") from None
    out = []
    for name, options in calls:
        if names is not None and name not in names:
            raise ValueError(f"unknown bot {name!r}; installed: {', '.join(sorted(names))}")
        out.append(BotSpec(name, tuple(options.items())))
    return out


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


@functools.cache
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


def _isolated(spec: BotSpec, house: Any, seat: int, seed: str) -> Any:
    import atexit

    from bourre.isolate import IsolatedBot

    if not _ISOLATED:
        atexit.register(_close_isolated)
    key = (spec.label, house.spec, seat)
    bot = _ISOLATED.get(key)
    if bot is None or bot.proc.poll() is not None:
        bot = _ISOLATED[key] = IsolatedBot(
            spec.name, dict(spec.options), house=house.spec, seed=seed
        )
    else:
        bot.reset(seed)
    return bot


def run_session(
    house: Any,
    bots: Sequence[BotSpec],
    seed: str | int,
    i: int,
    rotate: bool = False,
    isolate: bool = False,
) -> dict[str, Any]:
    """Play session ``i`` of ``house`` and reduce it to a summary (JSON-ready).  With
    ``isolate`` every bot runs in its own process (:mod:`bourre.isolate`)."""
    from bourre.players import make_bot
    from bourre.simulate import play_session

    n = house.table.players
    specs = seat_bots(bots, n, i, rotate)

    def make(seat: int, rng: random.Random) -> Any:
        spec = specs[seat]
        if isolate:
            return _isolated(spec, house, seat, f"{session_seed(seed, i)}:{seat}")
        return make_bot(spec.name, rng, house=house, **dict(spec.options))

    start = float(house.table.balance)
    prev = [start] * n
    pots: list[float] = []
    active: list[int] = []
    bourre: list[int] = []
    carried: list[int] = []
    dealers: list[int] = []
    deltas: list[list[float]] = []
    counts = [0, 0]  # cards played, and played with a cinch

    def on_hand(h: Any) -> None:
        out = h.outcome
        counts[0] += sum(len(t.plays) for t in h.state.tricks)
        counts[1] += h.state.cinch_plays
        pots.append(float(h.state.pot_at_stake))
        active.append(len(h.state.active))
        bourre.append(len(out.bourre))
        carried.append(int(out.winner is None))
        dealers.append(h.dealer)
        now = [float(b) for b in h.balances]
        deltas.append([now[s] - prev[s] for s in range(n)])
        prev[:] = now

    sseed = session_seed(seed, i)
    t0 = time.perf_counter()
    res = play_session(house, seed=sseed, players=make, keep_hands=False, on_hand=on_hand)
    seconds = time.perf_counter() - t0
    place = [  # chips won by place from the dealer (0 = the dealer, 1 = the dealer's left …)
        math.fsum(row[(dl + p) % n] for row, dl in zip(deltas, dealers, strict=True))
        for p in range(n)
    ]
    return {
        "i": i,
        "seed": sseed,
        "players": n,
        "hands": len(pots),
        "bots": [b.label for b in specs],
        "start": start,
        "pot": pots,
        "active": active,
        "bourre": bourre,
        "carried": carried,
        "dealer": dealers,
        "delta": deltas,
        "place": place,
        "final": [float(x) for x in res.final],
        "plays": counts[0],
        "cinch": counts[1],
        "seconds": seconds,
    }


_HOUSES: dict[str, Any] = {}


def _house(spec: str) -> Any:
    h = _HOUSES.get(spec)
    if h is None:
        from bourre.house import House

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
    h = _house(house)
    _freeze_heap()
    return [run_session(h, bots, seed, i, rotate, isolate) for i in indices]


def _freeze_heap() -> None:
    """Move what is loaded (modules, the house, plugins) out of the garbage
    collector's reach: the sessions allocate many short-lived containers, and every
    older-generation collection would walk the whole loaded heap again."""
    import gc

    gc.freeze()


def _worker_init() -> None:
    """Workers ignore Ctrl-C (the parent stops the run and keeps what is done), die at
    once when the parent ends them (SIGTERM, SIGHUP: a forked worker inherits the
    parent's handlers, which would turn the signal into an exception sent back on
    the result queue, possibly while holding its lock) and die with their parent
    (Linux: the parent-death signal), even after its kill -9."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for sig in (signal.SIGTERM, getattr(signal, "SIGHUP", None)):
        if sig is not None:
            signal.signal(sig, signal.SIG_DFL)
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):  # not Linux: the pool's own shutdown applies
        pass


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


def _line(house: str, summary: dict[str, Any]) -> str:
    """One state-file line: a session summary with a digest of itself, so that a line
    edited by hand (or mangled) is refused on resume."""
    body = json.dumps({"house": house, "summary": summary}, sort_keys=True)
    check = hashlib.sha256(body.encode()).hexdigest()[:16]
    return json.dumps({"house": house, "summary": summary, "check": check}) + "\n"


def _checked(entry: dict[str, Any]) -> bool:
    body = json.dumps({"house": entry["house"], "summary": entry["summary"]}, sort_keys=True)
    return entry.get("check") == hashlib.sha256(body.encode()).hexdigest()[:16]


def repair_tail(path: Path) -> None:
    """Cut a torn last line (a write cut short: kill -9, a full disk) so that the next
    lines are appended after a whole one."""
    with path.open("rb+") as f:
        data = f.read()
        if data and not data.endswith(b"\n"):
            f.truncate(data.rfind(b"\n") + 1)


def load_state(path: Path) -> tuple[dict[str, Any], dict[str, dict[int, dict[str, Any]]]]:
    """The header and the completed sessions of a state file.  A truncated last
    line (a write cut short) is ignored."""
    try:
        lines = Path(path).read_text(encoding="utf-8").splitlines()
    except OSError as e:
        raise StateError(f"--resume {path}: cannot read: {e.strerror or e}") from None
    except UnicodeDecodeError:
        raise StateError(f"--resume {path}: not a bourre compare state file (not UTF-8)") from None
    if not lines:
        raise StateError(f"--resume {path}: empty file")
    try:
        header = json.loads(lines[0])
    except json.JSONDecodeError:
        raise StateError(f"--resume {path}: line 1 is not JSON") from None
    if not isinstance(header, dict) or header.get("format") != STATE_FORMAT:
        raise StateError(f"--resume {path}: not a bourre compare state file (no header)")
    done: dict[str, dict[int, dict[str, Any]]] = {h: {} for h in header.get("houses", [])}
    for k, line in enumerate(lines[1:], start=2):
        if not line.strip():
            continue
        try:
            entry = json.loads(line)
            house, summary = entry["house"], entry["summary"]
            i = int(summary["i"])
            ok = _checked(entry)
        except (json.JSONDecodeError, KeyError, TypeError, ValueError):
            if k == len(lines):
                break  # cut short while writing
            raise StateError(f"--resume {path}: line {k} is not a session summary") from None
        if not ok:
            raise StateError(
                f"--resume {path}: line {k} does not match its digest: it was changed after"
                " it was written"
            )
        done.setdefault(house, {})[i] = summary
    return header, done


def check_resume(config: RunConfig, header: dict[str, Any], path: Path | str) -> None:
    """Refuse to resume a state file of another run."""
    mine = config.header()
    for key in ("houses", "seed", "bots", "rotate", "isolate"):
        if header.get(key) != mine.get(key):
            raise StateError(
                f"--resume {path}: the state file is of another run: {key} {header.get(key)!r}"
                f" there, {mine[key]!r} here"
            )


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
        for fut in pending:
            fut.cancel()
        if scheduler is None:
            procs = list((getattr(executor, "_processes", None) or {}).values())
            executor.shutdown(wait=not broken, cancel_futures=True)
            if broken:
                _terminate(procs)
        else:
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
