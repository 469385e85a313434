"""The state file of a run: JSON lines, a header then one session summary per line,
appended as sessions complete so that a stopped run resumes (``--resume``).  Written
and read by :func:`bourre.sim.runs.runner.run`.

The header is the run's identity (:class:`Header`: its houses with their settings,
seed, bots, seat rotation and isolation; two runs with the same identity play the
same deals with the same bots) and the sessions it plans.  A file whose identity is
not the run's is refused, with ``--resume`` or without (:func:`check_state`).
A resume that plays more sessions, or a later step of the run (the ``--skill``
matches, under keys ``…|HOUSE`` of the run's houses), first appends
``{"sessions": N, "houses": [...]}``.

Every line ends with a keyed, chained digest (``"mac"``: an HMAC-SHA256 of the line
and of the digest of the line before it) under a key made for the run and kept
beside the state file (``STATE.key``).  The key is made with ``O_EXCL|O_NOFOLLOW``,
mode 0600, never over an existing file; a key that is a link, no regular file,
empty, not 64 hex digits, not its owner's or open to others is refused.  A line
edited, duplicated, moved, dropped or copied from another run's file no longer
matches and is refused with its line number; every field of a line is then
type-checked (:class:`Header`, :class:`Plan`, :class:`SummaryLine`); a line torn by
a crash at the end is cut.  A run holds an exclusive lock on its state file
(``flock``): a second run on the same file is refused.  Who can read the key can
forge a file: the digest catches edits, not an owner who means it.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import json
import os
import secrets
import stat
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict, ValidationError, model_validator

from bourre.sim.runs.run import MAX_SESSIONS, STATE_FORMAT, Done

try:  # Unix: a run locks its state file
    import fcntl
except ImportError:  # pragma: no cover (not Unix: no lock)
    fcntl = None  # type: ignore[assignment]

if TYPE_CHECKING:
    from bourre.sim.runs.run import RunConfig

__all__ = [
    "STATE_FORMAT",
    "Header",
    "Plan",
    "Resumed",
    "StateError",
    "StateLog",
    "Summary",
    "SummaryLine",
    "check_resume",
    "check_state",
    "key_path",
    "load_state",
    "read_state",
    "repair_tail",
    "scan_state",
]


_MAC = 32
"""Hex digits of a line's digest (128 bits)."""
_TAIL = len(', "mac": "') + _MAC + len('"}')
_KEY_BYTES = 32
"""The length of a run's key (256 bits, written as 64 hex digits)."""
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_NONBLOCK = getattr(os, "O_NONBLOCK", 0)
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)

_WORDS: dict[str, str] = {
    "format": f"{STATE_FORMAT!r}",
    "houses": "a list of house strings",
    "sessions": "a whole number of sessions",
    "seed": "a string",
    "bots": "a list of bot names",
    "rotate": "true or false",
    "isolate": "true or false",
    "version": "a whole number",
    "house": "a house string",
    "summary": "an object (a session's summary)",
    "i": "a whole number",
    "players": "a whole number",
    "hands": "a whole number",
    "start": "a number",
    "pot": "a list of numbers",
    "active": "a list of whole numbers",
    "bourre": "a list of whole numbers",
    "carried": "a list of whole numbers",
    "dealer": "a list of whole numbers",
    "delta": "a list of lists of numbers",
    "place": "a list of numbers",
    "final": "a list of numbers",
    "plays": "a whole number",
    "cinch": "a whole number",
    "seconds": "a number",
    "engine": "a string",
}
"""What each field of a state file's lines should be, in words."""


class StateError(ValueError):
    """A state file that cannot be resumed (missing, malformed, edited, another run)."""


class _Line(BaseModel):
    """A line of a state file: strict JSON types (no ``"5"`` for 5, no ``true`` for 1,
    no NaN), no field it does not have."""

    model_config = ConfigDict(frozen=True, extra="forbid", strict=True, allow_inf_nan=False)


class Header(_Line):
    """Line 1: the run's identity (every field but ``sessions``, ``format`` and
    ``version``) and the sessions it plans per house."""

    format: Literal["bourre-compare-state"]
    version: int = 1
    houses: list[str]
    sessions: int
    seed: str
    bots: list[str]
    rotate: bool
    isolate: bool = False


class Plan(_Line):
    """A resume that plays more sessions, or a later step of the run on other keys."""

    sessions: int
    houses: list[str]


class Summary(_Line):
    """One session reduced to what the statistics read
    (:func:`bourre.sim.runs.sessions.run_session`): per hand the pot at stake, players,
    bourré players, carried pots, dealers and each seat's change; per seat the
    chips by place from the dealer and the final balance."""

    i: int
    seed: str
    players: int
    hands: int
    bots: list[str]
    start: float
    pot: list[float]
    active: list[int]
    bourre: list[int]
    carried: list[int]
    dealer: list[int]
    delta: list[list[float]]
    place: list[float]
    final: list[float]
    plays: int
    cinch: int
    seconds: float
    engine: str

    @model_validator(mode="after")
    def _sizes(self) -> Summary:
        n, hands = self.players, self.hands
        if not 2 <= n <= 64 or hands < 0:
            raise ValueError("its 'players' or 'hands' is out of range")
        per_seat = (self.bots, self.place, self.final)
        per_hand = (self.pot, self.active, self.bourre, self.carried, self.dealer, self.delta)
        if any(len(x) != n for x in per_seat) or any(len(x) != hands for x in per_hand):
            raise ValueError("its lists do not have one entry a seat or a hand")
        if any(len(d) != n for d in self.delta) or any(not 0 <= d < n for d in self.dealer):
            raise ValueError("its 'delta' or 'dealer' does not fit its table")
        return self


class SummaryLine(_Line):
    """A completed session of one house (or of a later step's key)."""

    house: str
    summary: Summary


def _refusal(error: ValidationError, whose: str) -> str:
    """The first problem of a line, in words: ``the summary's 'pot' should be a list
    of numbers`` (never a validation library's words)."""
    e = error.errors(include_url=False)[0]
    loc = [x for x in e["loc"] if isinstance(x, str)]
    if loc[:1] == ["summary"] and (len(loc) > 1 or e["type"] == "value_error"):
        whose, loc = "the summary", loc[1:]
    if not loc:  # the model's own check
        return f"{whose}: {e.get('ctx', {}).get('error', e['msg'])!s}"
    name = loc[0]
    if e["type"] == "missing":
        return f"{whose} has no {name!r}"
    if e["type"] == "extra_forbidden":
        return f"{whose} has {name!r}, which is none of its fields"
    return f"{whose}'s {name!r} should be {_WORDS.get(name, 'of another type')}"


def key_path(path: Path | str) -> Path:
    """Where the key of the state file ``path`` is kept."""
    p = Path(path)
    return p.with_name(p.name + ".key")


def _mac(key: bytes, previous: str, body: str) -> str:
    return hmac.new(key, f"{previous}\n{body}".encode(), hashlib.sha256).hexdigest()[:_MAC]


def _signed(key: bytes, previous: str, body: str) -> tuple[str, str]:
    """A line of ``body`` (a JSON object's text) with its digest, and the digest."""
    mac = _mac(key, previous, body)
    return f'{body[:-1]}, "mac": "{mac}"}}\n', mac


def repair_tail(path: Path) -> None:
    """Cut a torn last line (a write cut short: kill -9, a full disk) so that the next
    lines are appended after a whole one."""
    with path.open("rb+") as f:
        data = f.read()
        if data and not data.endswith(b"\n"):
            f.truncate(data.rfind(b"\n") + 1)


class StateLog:
    """Appends chained lines to a state file, holding its lock (a second run on the
    same file is refused): a new file gets a new key and the header; an existing one
    (a resume, a later step of the run) must be this run's (:func:`check_state`), and
    is repaired and continued from its last line's digest."""

    def __init__(self, path: Path | str, header: dict[str, Any]) -> None:
        self.path = Path(path)
        existed = os.path.lexists(self.path)
        fd = _open_state(self.path)
        try:
            self.fresh = fresh = os.fstat(fd).st_size == 0
            if fresh:
                self.key = _new_key(self.path)
                self.last = ""
            else:
                there, self.key = _header_of(self.path, "--state")
                _same_run(self.path, there, header, "--state")
                repair_tail(self.path)
                lines = self.path.read_bytes().splitlines()
                self.last = lines[-1].decode("utf-8", "replace")[-_MAC - 2 : -2]
            self.out: IO[str] = os.fdopen(fd, "a", encoding="utf-8")
        except BaseException:
            os.close(fd)
            if not existed:  # made here, for nothing
                with contextlib.suppress(OSError):
                    self.path.unlink()
            raise
        if fresh:
            self.write([json.dumps(header)])
        else:  # a resume that plays more, or a later step of the run (--skill matches)
            plans, n = _plans(lines), header["sessions"]
            if any(plans.get(h, 0) < n for h in header["houses"]):
                self.write([json.dumps({"sessions": n, "houses": header["houses"]})])

    def write(self, bodies: list[str]) -> None:
        """Append lines (JSON objects' text) in one write, flushed."""
        lines = []
        for body in bodies:
            line, self.last = _signed(self.key, self.last, body)
            lines.append(line)
        try:
            self.out.write("".join(lines))
            self.out.flush()
        except OSError as e:
            raise StateError(f"--state {self.path}: cannot be written: {e.strerror or e}") from None

    def summaries(self, house: str, batch: list[dict[str, Any]]) -> None:
        """Append session summaries of ``house``."""
        self.write([json.dumps({"house": house, "summary": s}) for s in batch])

    def close(self) -> None:
        """Close the file (and so release its lock)."""
        self.out.close()


def _open_state(path: Path) -> int:
    """The state file ``path`` opened to append (made, mode 0600, if new) and locked
    for this run: never a device or a pipe (opened without waiting, then refused),
    never a file another run holds."""
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_APPEND | _NONBLOCK | _CLOEXEC, 0o600)
    except OSError as e:
        raise StateError(f"--state {path}: cannot be written: {e.strerror or e}") from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise StateError(
                f"--state {path}: not a regular file (a device or a pipe cannot keep it)"
            )
        if _NONBLOCK:  # opened without waiting; read and written as usual
            os.set_blocking(fd, True)
        _lock(fd, path)
    except BaseException:
        os.close(fd)
        raise
    return fd


def _lock(fd: int, path: Path) -> None:
    """Hold an exclusive lock on the state file ``fd`` (released when it is closed);
    refuse when another run holds it.  A file system without locks is let be."""
    if fcntl is None:  # pragma: no cover (not Unix)
        return
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        raise StateError(
            f"--state {path}: another run is using this state file (it is locked):"
            " let it end, or name another state file"
        ) from None
    except OSError:
        return


def _new_key(path: Path) -> bytes:
    """A new key for the new state file ``path``, written beside it, readable by its
    owner only: made, never opened (``O_EXCL|O_NOFOLLOW``), so that a file already
    there (a link, another program's ``server.key``) is never written over."""
    kp = key_path(path)
    key = secrets.token_bytes(_KEY_BYTES)
    try:
        fd = os.open(kp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW | _CLOEXEC, 0o600)
    except FileExistsError:
        raise StateError(_key_exists(path)) from None
    except OSError as e:
        raise StateError(
            f"--state {path}: its key {kp} cannot be made: {e.strerror or e}"
        ) from None
    with os.fdopen(fd, "w", encoding="ascii") as f:
        f.write(key.hex() + "\n")
    return key


def _key_exists(path: Path) -> str:
    kp = key_path(path)
    return (
        f"--state {path}: {kp} exists already, and a new state file's key is made afresh:"
        " it is not this run's key and is left alone; remove it, or name another state file"
    )


def _plans(lines: list[bytes]) -> dict[str, int]:
    """The sessions a state file plans for each house: its header's, and those of the
    lines a resume or a later step of the run adds (``{"sessions": N, "houses": …}``)."""
    plans: dict[str, int] = {}
    for line in lines:
        if line.startswith((b'{"format"', b'{"sessions"')):
            with contextlib.suppress(ValueError, TypeError, AttributeError):
                entry = json.loads(line)
                n = entry.get("sessions")
                for h in entry.get("houses") or []:
                    if isinstance(h, str) and isinstance(n, int):
                        plans[h] = max(plans.get(h, 0), n)
    return plans


def _read_key(path: Path, flag: str) -> bytes:
    """The key of the state file ``path``, from a file of its own: refused when it is
    missing, a link, no regular file (never opened then: a pipe would wait), open to
    others, another user's, empty or not 64 hex digits."""
    kp = key_path(path)
    where = f"{flag} {path}: its key {kp}"
    try:
        st = os.lstat(kp)
    except FileNotFoundError:
        raise StateError(
            f"{where} is missing, so its lines cannot be checked"
            " (a state file of an older bourre, or moved without its key)"
        ) from None
    except OSError as e:
        raise StateError(f"{where} cannot be read: {e.strerror or e}") from None
    if stat.S_ISLNK(st.st_mode):
        raise StateError(f"{where} is a symbolic link: a key is a file of its own, never followed")
    if not stat.S_ISREG(st.st_mode):
        raise StateError(f"{where} is not a regular file")
    try:
        fd = os.open(kp, os.O_RDONLY | _NOFOLLOW | _NONBLOCK | _CLOEXEC)
    except OSError as e:
        raise StateError(f"{where} cannot be read: {e.strerror or e}") from None
    with os.fdopen(fd, "rb") as f:
        st = os.fstat(f.fileno())
        if not stat.S_ISREG(st.st_mode):  # changed since it was looked at
            raise StateError(f"{where} is not a regular file")
        if st.st_mode & 0o077:
            raise StateError(
                f"{where} is open to others (mode {stat.S_IMODE(st.st_mode):04o}):"
                f" a key is its owner's only (chmod 600 {kp})"
            )
        if hasattr(os, "geteuid") and st.st_uid != os.geteuid():
            raise StateError(f"{where} belongs to another user")
        text = f.read(2 * _KEY_BYTES + 3).strip()
    if not text:
        raise StateError(f"{where} is empty")
    try:
        key = bytes.fromhex(text.decode("ascii"))
    except (ValueError, UnicodeDecodeError):
        key = b""
    if len(key) != _KEY_BYTES:
        raise StateError(f"{where} is not a key ({2 * _KEY_BYTES} hex digits)")
    return key


def _check_header(path: Path, header: dict[str, Any], flag: str = "--resume") -> None:
    where = f"{flag} {path}: line 1"
    try:
        checked = Header.model_validate(header)
    except ValidationError as e:
        raise StateError(f"{where}: {_refusal(e, 'the header')}") from None
    if not 1 <= checked.sessions <= MAX_SESSIONS:
        raise StateError(f"{where}: the header's 'sessions' should be from 1 to {MAX_SESSIONS:,}")


def _header_of(path: Path, flag: str) -> tuple[dict[str, Any], bytes]:
    """The header of the state file ``path``, checked against its key, and the key."""
    first = next(_lines(path, flag))
    header, key = _first(path, first, flag)
    return header, key


def _first(path: Path, first: str, flag: str) -> tuple[dict[str, Any], bytes]:
    """Line 1 of a state file read, checked against its key and type-checked."""
    try:
        header = json.loads(first)
    except (json.JSONDecodeError, RecursionError):
        raise StateError(f"{flag} {path}: line 1 is not JSON") from None
    if not isinstance(header, dict) or header.get("format") != STATE_FORMAT:
        raise StateError(f"{flag} {path}: not a bourre compare state file (no header)")
    key = _read_key(Path(path), flag)
    parts = _split(first)
    if parts is None or not hmac.compare_digest(parts[1], _mac(key, "", parts[0])):
        raise StateError(
            f"{flag} {path}: line 1 does not match its digest: it was changed, moved,"
            " copied or written by another run after the line before it"
        )
    header.pop("mac", None)
    _check_header(Path(path), header, flag)
    return header, key


def _differs(there: dict[str, Any], here: dict[str, Any]) -> str | None:
    """How the identity of the run ``here`` (a header) differs from that of the state
    file's header ``there``, or ``None`` for the same run.  A later step of the run
    (``here``'s houses all keys ``…|HOUSE`` of ``there``'s houses, the ``--skill``
    matches) has bots of its own, and the run's seed and isolation."""
    keys = ["seed", "isolate", "houses", "bots", "rotate"]
    ours = set(there.get("houses", []))
    mine = list(here.get("houses", []))
    if (
        mine
        and not set(mine) & ours
        and all(any(h.endswith("|" + base) for base in ours) for h in mine)
    ):
        keys = ["seed", "isolate"]
    for key in keys:
        default = False if key == "isolate" else None
        a, b = there.get(key, default), here.get(key, default)
        if a != b:
            return f"{key} {a!r} there, {b!r} here"
    return None


def _same_run(path: Path, there: dict[str, Any], here: dict[str, Any], flag: str) -> None:
    why = _differs(there, here)
    if why is not None:
        raise StateError(f"{flag} {path}: the state file is of another run: {why}")


def check_state(path: Path | str, header: dict[str, Any], resume: Path | str | None) -> None:
    """Refuse, before a run, the state file ``path`` unless it is this run's own: a
    new file (whose key path must be free), or the file it resumes (``resume``),
    whose identity is the run's (``header``) and which no other run holds.  An
    existing file of this run that is not resumed is refused too: its sessions would
    be played twice."""
    p = Path(path)
    try:
        st = os.stat(p)
    except FileNotFoundError:
        st = None
    except OSError as e:
        raise StateError(f"--state {p}: cannot be read: {e.strerror or e}") from None
    if st is None or (stat.S_ISREG(st.st_mode) and st.st_size == 0):
        if os.path.lexists(key_path(p)):
            raise StateError(_key_exists(p))
        return
    if not stat.S_ISREG(st.st_mode):
        raise StateError(f"--state {p}: not a regular file (a device or a pipe cannot keep it)")
    there, _ = _header_of(p, "--state")
    _same_run(p, there, header, "--state")
    if resume is None or Path(resume).resolve() != p.resolve():
        raise StateError(
            f"--state {p}: holds sessions of this run already: continue it with"
            f" --resume {p}, or name a new state file"
        )
    fd = os.open(p, os.O_RDONLY | _NONBLOCK | _CLOEXEC)
    try:
        _lock(fd, p)
    finally:
        os.close(fd)  # a probe: the run takes the lock itself


def _split(line: str) -> tuple[str, str] | None:
    """A line's body and digest, or ``None`` when it has no digest where due."""
    if len(line) <= _TAIL or not line.endswith('"}') or line[-_TAIL:][:10] != ', "mac": "':
        return None
    return line[:-_TAIL] + "}", line[-_MAC - 2 : -2]


@dataclass
class Resumed:
    """What a state file holds, without its summaries (:func:`scan_state`): its
    header, the sessions completed by house and where it is."""

    header: dict[str, Any]
    done: dict[str, Done]
    path: Path

    def items(self) -> Any:
        return self.done.items()


def _lines(path: Path, flag: str = "--resume") -> Iterator[str]:
    """The whole lines of a state file, one at a time (a torn last line is left out).
    A device or a pipe is opened without waiting, and refused."""
    try:
        fd = os.open(path, os.O_RDONLY | _NONBLOCK | _CLOEXEC)
    except OSError as e:
        raise StateError(f"{flag} {path}: cannot read: {e.strerror or e}") from None
    with os.fdopen(fd, "rb") as f:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise StateError(f"{flag} {path}: not a regular file")
        if _NONBLOCK:  # opened without waiting; read and written as usual
            os.set_blocking(fd, True)
        empty = True
        for raw in f:
            try:
                line = raw.decode("utf-8")
            except UnicodeDecodeError:
                raise StateError(
                    f"{flag} {path}: not a bourre compare state file (not UTF-8)"
                ) from None
            if not raw.endswith(b"\n"):
                if empty:
                    raise StateError(f"{flag} {path}: no header")
                return  # a torn last line (a write cut short)
            empty = False
            yield line[:-1]
        if empty:
            raise StateError(f"{flag} {path}: empty file")


def _entry(path: Path, k: int, line: str) -> dict[str, Any]:
    """Line ``k`` (after the header) as a JSON object, its digest left out."""
    try:
        entry = json.loads(line)
    except (json.JSONDecodeError, RecursionError):
        entry = None
    if not isinstance(entry, dict):
        raise StateError(f"--resume {path}: line {k} is not a session summary")
    entry.pop("mac", None)
    return entry


def read_state(path: Path) -> Iterator[dict[str, Any] | tuple[str, dict[str, Any]]]:
    """A state file as a stream, every line checked against the run's key and the
    line before it, then type-checked: first its header (a dict, with the sessions
    the file plans), then each completed session as ``(house, summary)``, and a dict
    ``{"sessions": N, "houses": [...]}`` where a resume or a later step plans more.
    A torn last line (a write cut short) is ignored."""
    lines = _lines(path)
    first = next(lines)
    header, key = _first(Path(path), first, "--resume")
    previous = first[-_MAC - 2 : -2]
    done = {h: Done() for h in header["houses"]}
    plans = {h: header["sessions"] for h in header["houses"]}
    yield header
    for k, line in enumerate(lines, start=2):
        parts = _split(line)
        if parts is None or not hmac.compare_digest(parts[1], _mac(key, previous, parts[0])):
            raise StateError(
                f"--resume {path}: line {k} does not match its digest: it was changed, moved,"
                " copied or written by another run after the line before it"
            )
        previous = parts[1]
        entry = _entry(Path(path), k, line)
        if set(entry) == {"sessions", "houses"}:  # a resume, a later step
            try:
                plan = Plan.model_validate(entry)
            except ValidationError as e:
                raise StateError(f"--resume {path}: line {k}: {_refusal(e, 'the line')}") from None
            sessions, houses = plan.sessions, plan.houses
            if not 1 <= sessions <= MAX_SESSIONS:
                raise StateError(
                    f"--resume {path}: line {k}: its 'sessions' should be from 1 to {MAX_SESSIONS:,}"
                )
            for h in houses:
                plans[h] = max(plans.get(h, 0), sessions)
                done.setdefault(h, Done())
            if set(houses) <= set(header["houses"]):
                header["sessions"] = max(header["sessions"], sessions)
            yield {"sessions": sessions, "houses": list(houses)}
            continue
        try:
            SummaryLine.model_validate(entry)
        except ValidationError as e:
            raise StateError(f"--resume {path}: line {k}: {_refusal(e, 'the line')}") from None
        house, summary = entry["house"], entry["summary"]
        i = summary["i"]
        if house not in done:
            raise StateError(f"--resume {path}: line {k}: {house!r} is not a house of this run")
        if not 0 <= i < plans[house]:
            raise StateError(
                f"--resume {path}: line {k}: session {i!r} is not one of the run's"
                f" {plans[house]} (0 to {plans[house] - 1})"
            )
        if not done[house].add(i):
            raise StateError(f"--resume {path}: line {k}: session {i} of {house} twice")
        yield house, summary


def scan_state(path: Path) -> Resumed:
    """The header of a state file and the sessions it holds by house, every line
    checked (:func:`read_state`), without keeping a summary: a resume streams."""
    header: dict[str, Any] = {}
    done: dict[str, Done] = {}
    for item in read_state(path):
        if isinstance(item, dict):
            if not header:
                header = item
            for h in item["houses"]:
                done.setdefault(h, Done())
            continue
        house, summary = item
        done.setdefault(house, Done()).add(summary["i"])
    return Resumed(header, done, Path(path))


def load_state(path: Path) -> tuple[dict[str, Any], dict[str, dict[int, dict[str, Any]]]]:
    """The header and the completed sessions of a state file, all in memory (a
    resume streams instead: :func:`scan_state`), every line checked against the
    run's key and the line before it.  A torn last line (a write cut short) is
    ignored."""
    header: dict[str, Any] = {}
    done: dict[str, dict[int, dict[str, Any]]] = {}
    for item in read_state(path):
        if isinstance(item, dict):
            if not header:
                header = item
            for h in item["houses"]:
                done.setdefault(h, {})
            continue
        house, summary = item
        done.setdefault(house, {})[summary["i"]] = summary
    return header, done


def check_resume(config: RunConfig, header: dict[str, Any], path: Path | str) -> None:
    """Refuse to resume a state file of another run."""
    why = _differs(header, config.header())
    if why is not None:
        raise StateError(f"--resume {path}: the state file is of another run: {why}")
