"""The state file of a run: JSON lines, a header then one session summary per line,
each with a digest of itself (a line edited by hand is refused), appended as sessions
complete so that a stopped run resumes (``--resume``).  Written and read by
:func:`bourre.sim.runner.run`."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bourre.sim.runs import STATE_FORMAT

if TYPE_CHECKING:
    from bourre.sim.runs import RunConfig

__all__ = ["STATE_FORMAT", "StateError", "check_resume", "load_state", "repair_tail"]


class StateError(ValueError):
    """A state file that cannot be resumed (missing, malformed, another run)."""


def _digest(body: str) -> str:
    return hashlib.sha256(body.encode()).hexdigest()[:16]


def state_line(house: str, summary: dict[str, Any]) -> str:
    """One state-file line: a session summary with a digest of itself, so that a line
    edited by hand (or mangled) is refused on resume.  The digest is of the line's
    own text without it (one ``json.dumps`` per session)."""
    body = json.dumps({"house": house, "summary": summary})
    return f'{body[:-1]}, "check": "{_digest(body)}"}}\n'


def _checked(entry: dict[str, Any]) -> bool:
    """Whether a line's digest matches: of its text as written (key order kept by
    ``json.loads``), or of its sorted keys (the digest of older state files)."""
    body = {"house": entry["house"], "summary": entry["summary"]}
    check = entry.get("check")
    return check == _digest(json.dumps(body)) or check == _digest(json.dumps(body, sort_keys=True))


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
