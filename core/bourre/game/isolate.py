"""Bots in their own process (``--isolate``): for bots nobody vouches for.

In-process Python code can never be fully sandboxed: a bot can walk the interpreter's
frames and objects.  An isolated bot runs in a child process that holds nothing but
the bot, and speaks a small protocol over its standard input and output, one JSON
object per line:

- parent → child: ``{"observation": {...}}`` (every field of an
  :class:`~bourre.game.observation.Observation`; cards as ints, amounts as JSON amounts,
  actions in the table's words), or ``{"reset": true}`` (a new session: the bot is
  made again);
- child → parent: first ``{"ready": true, "landlock": ABI}`` once the bot is made
  (within ``startup`` seconds; ``ABI`` the Landlock version that confines it, 0 for
  none), then for each message ``{"action": "play"}`` (``pass``,
  ``play``, ``discard 2C 3D``, ``stand pat`` or a card such as ``JH``), or
  ``{"error": "…"}``.

The child is given nothing from which a hidden card follows: no seed and no
generator state (its bot's generator is seeded by the operating system, afresh for
every session), only observations.  It runs with a minimal environment, in its own
session and process group (killed whole when the bot is closed or stopped), with
bounded memory, no core files and, for an ordinary user, no new processes.  It
starts in a private working folder (also its ``TMPDIR``, removed with it), with no
descriptor of the run's but its pipes, and, on Linux with Landlock (5.13 or later),
it can read no file but those Python needs (:func:`readable_paths`: the
interpreter's installation, its import path, the shared libraries, a few devices),
so not the run's state file, its key or anything else of the run's
(:func:`confine`; without Landlock the rest holds, see docs/security.md).  The
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
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterable
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
    "confine",
    "hide_seed",
    "landlock_abi",
    "observation_from_json",
    "observation_to_json",
    "readable_paths",
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


_LANDLOCK_SYSCALLS = {"x86_64": (444, 445, 446), "aarch64": (444, 445, 446)}
"""``landlock_create_ruleset``, ``landlock_add_rule``, ``landlock_restrict_self``."""
_READ_FILE, _READ_DIR = 1 << 2, 1 << 3
"""``LANDLOCK_ACCESS_FS_READ_FILE`` and ``_READ_DIR``: the rights a ruleset handles
(reading; writing is not restricted, so a bot's own report file still works)."""
_SCOPE = (1 << 0) | (1 << 1)
"""``LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET | LANDLOCK_SCOPE_SIGNAL`` (ABI 6): no
signal to the run's processes, no abstract socket of theirs."""
_SYSTEM_FILES = (
    "/lib",
    "/lib32",
    "/lib64",
    "/usr/lib",
    "/usr/lib32",
    "/usr/lib64",
    "/usr/local/lib",
    "/usr/share/zoneinfo",
    "/etc/ld.so.cache",
    "/etc/ld.so.conf",
    "/etc/ld.so.conf.d",
    "/etc/localtime",
    "/dev/null",
    "/dev/zero",
    "/dev/random",
    "/dev/urandom",
)
"""What the dynamic loader and Python may read outside the interpreter's folders."""


def _syscall(*args: int) -> tuple[int, int]:
    """``syscall(2)`` through ctypes: its result and ``errno``."""
    # lazy: Linux only, for the child's confinement
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    libc.syscall.restype = ctypes.c_long
    result = libc.syscall(*(ctypes.c_long(a) for a in args))
    return int(result), ctypes.get_errno()


def landlock_abi() -> int:
    """The Landlock ABI version the kernel offers (``LANDLOCK_CREATE_RULESET_VERSION``),
    0 where there is none (not Linux, not x86_64 or aarch64, an older kernel,
    Landlock disabled, or the syscall filtered as some containers do)."""
    # lazy: only where a bot is isolated
    import platform

    numbers = _LANDLOCK_SYSCALLS.get(platform.machine())
    if not sys.platform.startswith("linux") or numbers is None:
        return 0
    try:
        abi, _ = _syscall(numbers[0], 0, 0, 1)
    except (OSError, AttributeError):
        return 0
    return max(0, abi)


def _package_folders(modules: Iterable[str]) -> list[str]:
    """Where the top-level packages of ``modules`` are (found, not imported): the
    bot's and the plugins', wherever an import hook puts them (an editable install)."""
    # lazy: only in the child, before it is confined
    import importlib.util
    from importlib.metadata import entry_points

    names = {m.partition(":")[0] for m in modules}
    with contextlib.suppress(Exception):  # a broken distribution: its plugin fails later
        names.update(ep.value.partition(":")[0] for ep in entry_points(group="bourre"))
    out: list[str] = []
    for name in sorted(n.split(".")[0] for n in names if n):
        try:
            spec = importlib.util.find_spec(name)
        except (ImportError, ValueError):
            continue
        if spec is None:
            continue
        out += list(spec.submodule_search_locations or [])
        if spec.origin and os.path.isabs(spec.origin):
            out.append(os.path.dirname(spec.origin))
    return out


def readable_paths(bot: str = "") -> list[str]:
    """What an isolated bot may read, found before it is confined: the interpreter's
    installation (``sys.prefix`` and the base and exec prefixes), every folder of its
    import path (site-packages, ``PYTHONPATH``), the packages of the bot (``bot``:
    ``module:factory`` or a plugin's name) and of the plugins, the folders of the
    shared libraries this process has mapped, the system's library folders, a few
    devices and its working folder (private)."""
    found = [sys.prefix, sys.exec_prefix, sys.base_prefix, sys.base_exec_prefix]
    found += [p for p in sys.path if p]
    found += _package_folders([bot] if ":" in bot else [])
    found.append(os.getcwd())
    with (
        contextlib.suppress(OSError),
        open("/proc/self/maps", encoding="utf-8", errors="replace") as f,
    ):
        for line in f:
            parts = line.split(maxsplit=5)
            if len(parts) == 6 and parts[5].startswith("/") and "(deleted)" not in parts[5]:
                found.append(os.path.dirname(parts[5].strip()))
    found += _SYSTEM_FILES
    out: list[str] = []
    for p in found:
        if p and p not in out and os.path.exists(p):
            out.append(p)
    return out


def confine(paths: Iterable[str]) -> int:
    """Let this process (and any it starts) read nothing but ``paths`` (folders and
    what is beneath them, or files), with a Landlock ruleset (Linux 5.13 or later);
    from ABI 6 it also sends no signal outside.  Returns the ABI that confines it,
    or 0 when Landlock is unavailable (then nothing changes: the documented
    fallback)."""
    # lazy: Linux only, in the child
    import ctypes
    import platform

    abi = landlock_abi()
    if abi < 1:
        return 0
    create, add, restrict = _LANDLOCK_SYSCALLS[platform.machine()]

    class Ruleset(ctypes.Structure):
        _fields_ = (
            ("handled_access_fs", ctypes.c_uint64),
            ("handled_access_net", ctypes.c_uint64),
            ("scoped", ctypes.c_uint64),
        )

    class PathBeneath(ctypes.Structure):
        _pack_ = 1
        _fields_ = (("allowed_access", ctypes.c_uint64), ("parent_fd", ctypes.c_int32))

    attr = Ruleset(_READ_FILE | _READ_DIR, 0, _SCOPE if abi >= 6 else 0)
    size = 24 if abi >= 6 else 16 if abi >= 4 else 8
    ruleset, _ = _syscall(create, ctypes.addressof(attr), size, 0)
    if ruleset < 0:
        return 0
    try:
        for path in paths:
            try:
                fd = os.open(path, getattr(os, "O_PATH", os.O_RDONLY) | os.O_CLOEXEC)
            except OSError:
                continue
            try:
                folder = os.path.isdir(path)
                rule = PathBeneath(_READ_FILE | (_READ_DIR if folder else 0), fd)
                _syscall(add, ruleset, 1, ctypes.addressof(rule), 0)  # LANDLOCK_RULE_PATH_BENEATH
            finally:
                os.close(fd)
        libc = ctypes.CDLL(None, use_errno=True)
        if libc.prctl(38, 1, 0, 0, 0) != 0:  # PR_SET_NO_NEW_PRIVS, required to confine
            return 0
        done, _ = _syscall(restrict, ruleset, 0)
        return abi if done == 0 else 0
    finally:
        os.close(ruleset)


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
        self.landlock = 0
        """The Landlock ABI that confines the bot's process (0: none), known once it
        has started."""
        config = {"bot": bot, "options": options or {}, "house": house, "memory": memory}
        self.folder = tempfile.mkdtemp(prefix="bourre-bot-")  # private (0700)
        env = child_environment()
        env.update(TMPDIR=self.folder, TMP=self.folder, TEMP=self.folder)
        try:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "bourre.game.isolate", json.dumps(config)],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                env=env,
                cwd=self.folder,
                close_fds=True,  # none of the run's descriptors (its state file)
                start_new_session=True,  # its own process group, killed whole
            )
        except BaseException:
            shutil.rmtree(self.folder, ignore_errors=True)
            raise
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
            if not isinstance(ready, dict) or ready.get("ready") is not True:
                raise self._stop("did not start with the protocol's first line")
            landlock = ready.get("landlock", 0)
            self.landlock = landlock if type(landlock) is int else 0
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
        shutil.rmtree(self.folder, ignore_errors=True)

    def __del__(self) -> None:
        try:  # noqa: SIM105 (at interpreter exit, module globals may be gone)
            os.killpg(self.proc.pid, signal.SIGKILL)
        except Exception:
            pass
        try:  # noqa: SIM105 (likewise)
            shutil.rmtree(self.folder, ignore_errors=True)
        except Exception:
            pass


def _child(config: dict[str, Any], landlock: int = 0) -> None:
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
    # the bot is made (or broken): its time starts now
    out.write(json.dumps({"ready": True, "landlock": landlock}) + "\n")
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
    _child(_config, confine(readable_paths(str(_config.get("bot", "")))))
