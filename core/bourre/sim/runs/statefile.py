"""The state file of a run: JSON lines, a header then one session summary per line,
appended as sessions complete so that a stopped run resumes (``--resume``).  Written
and read by :func:`bourre.sim.runs.runner.run`.

A resume that plays more sessions, or a later step of the run on other houses (the
``--skill`` matches), first appends ``{"sessions": N, "houses": [...]}``.
Every line ends with a keyed, chained digest (``"mac"``: an HMAC-SHA256 of the line
and of the digest of the line before it) under a key made for the run and kept
beside the state file (``STATE.key``, readable by its owner only).  A line edited,
duplicated, moved, dropped or copied from another run's file no longer matches and
is refused with its line number; a line torn by a crash at the end is cut.  Who can
read the key can forge a file: the digest catches edits, not an owner who means it.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import itertools
import json
import os
import secrets
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from bourre.sim.runs.run import MAX_SESSIONS, STATE_FORMAT, Done

if TYPE_CHECKING:
    from bourre.sim.runs.run import RunConfig

__all__ = [
    "STATE_FORMAT",
    "Resumed",
    "StateError",
    "StateLog",
    "check_resume",
    "key_path",
    "load_state",
    "read_state",
    "repair_tail",
    "scan_state",
]


_MAC = 32
"""Hex digits of a line's digest (128 bits)."""
_TAIL = len(', "mac": "') + _MAC + len('"}')

_HEADER_TYPES: dict[str, tuple[type, str]] = {
    "houses": (list, "a list of house strings"),
    "sessions": (int, "a whole number of sessions"),
    "seed": (str, "a string"),
    "bots": (list, "a list of bot names"),
    "rotate": (bool, "true or false"),
    "isolate": (bool, "true or false"),
    "version": (int, "a whole number"),
}


class StateError(ValueError):
    """A state file that cannot be resumed (missing, malformed, edited, another run)."""


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
    """Appends chained lines to a state file: a new file gets a new key and the
    header; an existing one (a resume) is repaired and continued from its last
    line's digest."""

    def __init__(self, path: Path | str, header: dict[str, Any]) -> None:
        self.path = Path(path)
        self.fresh = fresh = not self.path.exists() or self.path.stat().st_size == 0
        if fresh:
            self.key = secrets.token_bytes(32)
            fd = os.open(key_path(self.path), os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(fd, "w") as f:
                f.write(self.key.hex() + "\n")
            self.last = ""
        else:
            repair_tail(self.path)
            self.key = _read_key(self.path, "--state")
            lines = self.path.read_bytes().splitlines()
            self.last = lines[-1].decode("utf-8", "replace")[-_MAC - 2 : -2]
        self.out: IO[str] = self.path.open("a", encoding="utf-8")
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
        self.out.close()


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
    kp = key_path(path)
    try:
        return bytes.fromhex(kp.read_text(encoding="ascii").strip()[:128])
    except FileNotFoundError:
        raise StateError(
            f"{flag} {path}: its key {kp} is missing, so its lines cannot be checked"
            " (a state file of an older bourre, or moved without its key)"
        ) from None
    except (OSError, ValueError, UnicodeDecodeError):
        raise StateError(f"{flag} {path}: its key {kp} cannot be read") from None


def _check_header(path: Path, header: dict[str, Any]) -> None:
    where = f"--resume {path}: line 1"
    for key, (kind, words) in _HEADER_TYPES.items():
        if key not in header:
            if key in ("isolate", "version"):
                continue
            raise StateError(f"{where}: the header has no {key!r}")
        value: Any = header[key]
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            raise StateError(f"{where}: the header's {key!r} should be {words}")
        if isinstance(value, list) and not all(isinstance(x, str) for x in value):
            raise StateError(f"{where}: the header's {key!r} should be {words}")
    if not 1 <= header["sessions"] <= MAX_SESSIONS:
        raise StateError(f"{where}: the header's 'sessions' should be from 1 to {MAX_SESSIONS:,}")


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


def _lines(path: Path) -> Iterator[str]:
    """The whole lines of a state file, one at a time (a torn last line is left out)."""
    try:
        f = Path(path).open("rb")  # noqa: SIM115 (closed by the with below)
    except OSError as e:
        raise StateError(f"--resume {path}: cannot read: {e.strerror or e}") from None
    with f:
        empty = True
        for raw in f:
            try:
                line = raw.decode("utf-8")
            except UnicodeDecodeError:
                raise StateError(
                    f"--resume {path}: not a bourre compare state file (not UTF-8)"
                ) from None
            if not raw.endswith(b"\n"):
                if empty:
                    raise StateError(f"--resume {path}: no header")
                return  # a torn last line (a write cut short)
            empty = False
            yield line[:-1]
        if empty:
            raise StateError(f"--resume {path}: empty file")


def read_state(path: Path) -> Iterator[dict[str, Any] | tuple[str, dict[str, Any]]]:
    """A state file as a stream, every line checked against the run's key and the
    line before it: first its header (a dict, with the sessions the file plans), then
    each completed session as ``(house, summary)``, and a dict ``{"sessions": N,
    "houses": [...]}`` where a resume or a later step plans more.  A torn last line
    (a write cut short) is ignored."""
    lines = _lines(path)
    first = next(lines)
    try:
        header = json.loads(first)
    except (json.JSONDecodeError, RecursionError):
        raise StateError(f"--resume {path}: line 1 is not JSON") from None
    if not isinstance(header, dict) or header.get("format") != STATE_FORMAT:
        raise StateError(f"--resume {path}: not a bourre compare state file (no header)")
    key = _read_key(Path(path), "--resume")
    previous = ""
    done: dict[str, Done] = {}
    plans: dict[str, int] = {}
    for k, line in enumerate(itertools.chain([first], lines), start=1):
        parts = _split(line)
        if parts is None or not hmac.compare_digest(parts[1], _mac(key, previous, parts[0])):
            raise StateError(
                f"--resume {path}: line {k} does not match its digest: it was changed, moved,"
                " copied or written by another run after the line before it"
            )
        previous = parts[1]
        if k == 1:
            header.pop("mac", None)
            _check_header(Path(path), header)
            done = {h: Done() for h in header["houses"]}
            plans = {h: header["sessions"] for h in header["houses"]}
            yield header
            continue
        try:
            entry = json.loads(line)
            if list(entry) == ["sessions", "houses", "mac"]:  # a resume, a later step
                sessions, houses = entry["sessions"], entry["houses"]
                _check_header(Path(path), {**header, "sessions": sessions, "houses": houses})
                for h in houses:
                    plans[h] = max(plans.get(h, 0), sessions)
                    done.setdefault(h, Done())
                if set(houses) <= set(header["houses"]):
                    header["sessions"] = max(header["sessions"], sessions)
                yield {"sessions": sessions, "houses": houses}
                continue
            house, summary = entry["house"], entry["summary"]
            i = summary["i"]
        except (json.JSONDecodeError, RecursionError, KeyError, TypeError):
            raise StateError(f"--resume {path}: line {k} is not a session summary") from None
        if house not in done:
            raise StateError(f"--resume {path}: line {k}: {house!r} is not a house of this run")
        if not isinstance(i, int) or isinstance(i, bool) or not 0 <= i < plans[house]:
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
    mine = config.header()
    for key in ("houses", "seed", "bots", "rotate", "isolate"):
        if header.get(key) != mine.get(key):
            raise StateError(
                f"--resume {path}: the state file is of another run: {key} {header.get(key)!r}"
                f" there, {mine[key]!r} here"
            )
