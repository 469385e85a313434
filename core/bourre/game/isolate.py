"""Bots in their own process (``--isolate``): for bots nobody vouches for.

In-process Python code can never be fully sandboxed: a bot can walk the interpreter's
frames and objects.  An isolated bot runs in a child process that holds nothing but
the bot, and speaks a small protocol over its standard input and output, one JSON
object per line:

- parent → child: ``{"observation": {...}}`` (every field of an
  :class:`~bourre.game.observation.Observation`; cards as ints, amounts as JSON amounts,
  actions in the table's words), or ``{"reset": true}`` (a new session: the bot is
  made again);
- child → parent: first ``{"ready": true}`` once the bot is made (within
  ``startup`` seconds), then for each message ``{"action": "play"}`` (``pass``,
  ``play``, ``discard 2C 3D``, ``stand pat`` or a card such as ``JH``), or
  ``{"error": "…"}``.

The child is given nothing from which a hidden card follows: no seed and no
generator state (its bot's generator is seeded by the operating system, afresh for
every session), only observations.  It runs with a minimal environment, in its own
session and process group (killed whole when the bot is closed or stopped), with
bounded memory, no core files and, for an ordinary user, no new processes.  The
parent waits at most ``timeout`` seconds for each answer, reading without blocking:
a bot that is slower, stalls mid-line, floods, crashes or answers nonsense is
stopped and reported by name (:class:`BotError`).  The child is started as
``python -m bourre.game.isolate CONFIG`` (``CONFIG`` a JSON object: ``bot``,
``options``, ``house``, ``memory``).
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import select
import signal
import subprocess
import sys
import time
from typing import Any

from bourre.game.actions import Action, parse_action
from bourre.game.observation import Discards, Observation
from bourre.game.playerbase import BotError
from bourre.game.players import _answer, make_bot
from bourre.game.state import PublicDecision, TrickLog
from bourre.houses.house import House
from bourre.rules.money import amount_json, parse_amount

__all__ = [
    "MAX_ANSWER",
    "MEMORY",
    "BotError",
    "IsolatedBot",
    "child_environment",
    "hide_seed",
    "observation_from_json",
    "observation_to_json",
]

MEMORY = 2 << 30
"""The address space an isolated bot may use by default (2 GiB, ``RLIMIT_AS``)."""

MAX_ANSWER = 1 << 16
"""The longest answer line an isolated bot may write (64 kB): more is a flood."""

_ENVIRONMENT = ("PATH", "PYTHONPATH", "LANG", "LC_ALL", "LC_CTYPE", "TZ")
"""The only variables an isolated bot's process inherits (none holds a secret of the
run; ``PYTHONPATH`` lets a bot given as ``module:factory`` be found)."""


def observation_to_json(o: Observation) -> dict[str, Any]:
    """An observation as JSON (the protocol's message)."""
    return {
        "seat": o.seat,
        "players": o.players,
        "hand_size": o.hand_size,
        "number": o.number,
        "dealer": o.dealer,
        "upcard": o.upcard,
        "trump": o.trump,
        "hand": list(o.hand),
        "own_discards": list(o.own_discards),
        "decisions": [list(d) for d in o.decisions],
        "active": list(o.active),
        "tricks": [[t.leader, [list(p) for p in t.plays], t.winner] for t in o.tricks],
        "trick": [list(p) for p in o.trick],
        "tricks_won": list(o.tricks_won),
        "pot": amount_json(o.pot),
        "balances": [amount_json(b) for b in o.balances],
        "stock_size": o.stock_size,
        "to_act": o.to_act,
        "phase": o.phase,
        "legal_actions": [] if o.phase == "exchange" else [str(a) for a in o.legal_actions],
        "legal": list(o.legal),
        "cinch": o.cinch,
        "forced": o.forced,
        "my_decision": o.my_decision,
        "gave": list(o.gave),
        "got": list(o.got),
        "exchange_limit": o.exchange_limit,
    }


def observation_from_json(d: dict[str, Any]) -> Observation:
    """The observation a protocol message describes."""
    hand = tuple(int(c) for c in d["hand"])
    legal_actions: Any
    if d["phase"] == "exchange" and d["to_act"] == d["seat"]:
        legal_actions = Discards(hand, int(d["exchange_limit"]))
    else:
        legal_actions = tuple(parse_action(a) for a in d["legal_actions"])
    return Observation(
        int(d["seat"]),
        int(d["players"]),
        int(d["hand_size"]),
        int(d["number"]),
        int(d["dealer"]),
        int(d["upcard"]),
        int(d["trump"]),
        hand,
        tuple(d["own_discards"]),
        tuple(PublicDecision(int(s), bool(p), int(k)) for s, p, k in d["decisions"]),
        tuple(d["active"]),
        tuple(
            TrickLog(int(lead), tuple((int(s), int(c)) for s, c in plays), int(w))
            for lead, plays, w in d["tricks"]
        ),
        tuple((int(s), int(c)) for s, c in d["trick"]),
        tuple(d["tricks_won"]),
        parse_amount(d["pot"]),
        tuple(parse_amount(b) for b in d["balances"]),
        int(d["stock_size"]),
        int(d["to_act"]),
        str(d["phase"]),
        legal_actions,
        tuple(d["legal"]),
        bool(d["cinch"]),
        d["forced"],
        int(d["my_decision"]),
        tuple(d["gave"]),
        tuple(d["got"]),
        int(d["exchange_limit"]),
    )


def child_environment() -> dict[str, str]:
    """The environment of an isolated bot: a few harmless variables of the run's, and
    one thread for numerical libraries."""
    env = {k: os.environ[k] for k in _ENVIRONMENT if k in os.environ}
    env.setdefault("PATH", os.defpath)
    env.update(OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1", MKL_NUM_THREADS="1")
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    return env


def _limits(memory: int) -> None:
    """In the child before it imports the bot: bounded memory, no core file, no new
    process (the kernel does not hold the process count against root)."""
    # lazy: Unix only (the child sets its limits where it can)
    import resource

    for limit, value in (
        (resource.RLIMIT_AS, memory),
        (resource.RLIMIT_CORE, 0),
        (resource.RLIMIT_NPROC, 0),
    ):
        with contextlib.suppress(ValueError, OSError):  # a lower hard limit stays
            resource.setrlimit(limit, (value, value))


def hide_seed(seed: str) -> bool:
    """Blank ``seed`` where it is an argument of this process's command line
    (``--seed S``, ``--seed=S``), so that ``/proc/<pid>/cmdline`` no longer shows it,
    and make the process non-dumpable (its ``/proc`` memory, environment and open
    files then closed to other processes of an ordinary user).  Linux only, best
    effort: ``False`` when it could not."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        # lazy: Linux only, best effort
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(4, 0, 0, 0, 0)  # PR_SET_DUMPABLE 0
        with open("/proc/self/stat", "rb") as f:
            stat = f.read()
        fields = stat[stat.rindex(b")") + 2 :].split()
        start, end = int(fields[45]), int(fields[46])  # arg_start, arg_end (48, 49)
        with open("/proc/self/mem", "r+b", buffering=0) as mem:
            mem.seek(start)
            args = mem.read(end - start).split(b"\0")
            secret = seed.encode()
            out, blank = [], False
            for a in args:
                if blank and a == secret:
                    a = b"*" * len(a)
                elif a == b"--seed=" + secret:
                    a = b"--seed=" + b"*" * len(secret)
                blank = a == b"--seed"
                out.append(a)
            mem.seek(start)
            mem.write(b"\0".join(out))
        return True
    except (OSError, ValueError, IndexError, AttributeError):
        return False


def _ready(fd: int, event: int, seconds: float) -> bool:
    """Whether ``fd`` is ready (or closed) within ``seconds`` (``poll``: any number of
    descriptors, unlike ``select``)."""
    poller = select.poll()
    poller.register(fd, event)
    return bool(poller.poll(max(1, int(seconds * 1000))))


class IsolatedBot:
    """A bot in a child process (see the module's protocol).  Implements
    :class:`~bourre.game.playerbase.Bot`: ``act(view)``.  ``timeout``: seconds for each answer;
    ``memory``: bytes of address space for the child; ``startup``: seconds for its
    process to start and make the bot (not counted against any answer)."""

    def __init__(
        self,
        bot: str,
        options: dict[str, Any] | None = None,
        *,
        house: str = "standard",
        timeout: float = 10.0,
        memory: int = MEMORY,
        startup: float = 60.0,
    ) -> None:
        self.bot, self.timeout, self.startup, self._ready = bot, timeout, startup, False
        config = {"bot": bot, "options": options or {}, "house": house, "memory": memory}
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "bourre.game.isolate", json.dumps(config)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env=child_environment(),
            start_new_session=True,  # its own process group, killed whole
        )
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self._in, self._out = self.proc.stdin.fileno(), self.proc.stdout.fileno()
        os.set_blocking(self._in, False)
        os.set_blocking(self._out, False)

    def _stop(self, message: str) -> BotError:
        self.close()
        return BotError(self.bot, message)

    def _send(self, data: bytes, deadline: float) -> None:
        while data:
            left = deadline - time.monotonic()
            if left <= 0 or not _ready(self._in, select.POLLOUT, left):
                raise self._stop(f"read nothing within {self.timeout:g} s (its time limit)")
            try:
                data = data[os.write(self._in, data) :]
            except BlockingIOError:
                continue
            except OSError:
                raise self._stop("its process ended") from None

    def _receive(self, deadline: float, what: str = "") -> bytes:
        buf = b""
        while b"\n" not in buf:
            if len(buf) > MAX_ANSWER:
                raise self._stop(f"answered more than {MAX_ANSWER} bytes in one line")
            left = deadline - time.monotonic()
            if left <= 0 or not _ready(self._out, select.POLLIN, left):
                if what:
                    raise self._stop(f"took more than {self.startup:g} s {what}")
                raise self._stop(f"no answer within {self.timeout:g} s (its time limit)")
            try:
                chunk = os.read(self._out, MAX_ANSWER)
            except BlockingIOError:
                continue
            except OSError:
                chunk = b""
            if not chunk:
                self.proc.poll()
                raise self._stop(f"its process ended (status {self.proc.returncode})")
            buf += chunk
        line, _, rest = buf.partition(b"\n")
        if rest:
            raise self._stop("wrote more than one answer to one question")
        return line

    def _ask(self, message: dict[str, Any]) -> dict[str, Any]:
        if self.proc.poll() is not None:
            raise self._stop(f"its process ended (status {self.proc.returncode})")
        if not self._ready:  # the process's start is not the bot's time to answer
            try:
                ready = json.loads(self._receive(time.monotonic() + self.startup, "to start"))
            except ValueError:
                ready = None
            if ready != {"ready": True}:
                raise self._stop("did not start with the protocol's first line")
            self._ready = True
        deadline = time.monotonic() + self.timeout
        self._send((json.dumps(message) + "\n").encode(), deadline)
        line = self._receive(deadline)
        try:
            answer = json.loads(line)
            if not isinstance(answer, dict):
                raise ValueError(line)
        except ValueError:
            shown = line[:80].decode("utf-8", "replace")
            raise self._stop(f"answered {shown!r}, not a protocol message") from None
        if "error" in answer:
            raise BotError(self.bot, str(answer["error"])[:500])
        return answer

    def reset(self) -> None:
        """A new session: the bot is made again (its generator seeded afresh by the
        operating system)."""
        self._ask({"reset": True})

    def act(self, view: Observation) -> Action:
        answer = self._ask({"observation": observation_to_json(view)})
        try:
            return parse_action(str(answer.get("action", ""))[:200])
        except ValueError as e:
            raise BotError(self.bot, f"answered an action that is none: {e}") from None

    def close(self) -> None:
        """Kill the bot's process group (the bot and whatever it started there)."""
        proc = self.proc
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(proc.pid, signal.SIGKILL)
        if proc.poll() is None:
            proc.kill()
        proc.wait()
        for pipe in (proc.stdin, proc.stdout):
            if pipe is not None:
                with contextlib.suppress(OSError):
                    pipe.close()

    def __del__(self) -> None:
        try:  # noqa: SIM105 (at interpreter exit, module globals may be gone)
            os.killpg(self.proc.pid, signal.SIGKILL)
        except Exception:
            pass


def _child(config: dict[str, Any]) -> None:
    """The child's loop: make the bot, answer each observation.  The protocol keeps
    the original standard output; the bot's own prints go to the standard error."""
    out = os.fdopen(os.dup(1), "w")
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    house = House.from_arg(str(config.get("house", "standard")))

    def build() -> Any:
        options = dict(config.get("options") or {})
        return make_bot(str(config["bot"]), random.Random(), house=house, **options)

    bot: Any = None
    broken = ""
    try:
        bot = build()
    except Exception as e:  # reported at the first question
        broken = f"cannot make the bot: {type(e).__name__}: {e}"
    out.write('{"ready": true}\n')  # the bot is made (or broken): its time starts now
    out.flush()
    for line in sys.stdin:
        try:
            message = json.loads(line)
            if broken:
                reply: dict[str, Any] = {"error": broken}
            elif "reset" in message:
                bot = build()
                reply = {"ok": True}
            else:
                view = observation_from_json(message["observation"])
                reply = {"action": str(_answer(bot, view))}
        except Exception as e:  # the bot's failure, reported to the parent
            reply = {"error": f"{type(e).__name__}: {e}"}
        out.write(json.dumps(reply) + "\n")
        out.flush()


if __name__ == "__main__":
    os.environ.pop("PYTHONINSPECT", None)
    _config = json.loads(sys.argv[1])
    _limits(int(_config.get("memory", MEMORY)))  # before any of the bot's code runs
    _child(_config)
