"""Reading a file a user names (a house file, a table script): its UTF-8 text, or one
error that names the file and says what is wrong with it."""

from __future__ import annotations

from pathlib import Path

__all__ = ["read_text"]


def read_text(path: str | Path, error: type[Exception]) -> str:
    """The text of ``path``; ``error`` (the caller's kind, e.g. ``HouseError``) names
    the file when it cannot be read or is not UTF-8."""
    p = Path(path)
    try:
        return p.read_text(encoding="utf-8")
    except OSError as e:
        raise error(f"{p}: cannot read: {e.strerror or e}") from None
    except UnicodeDecodeError as e:
        raise error(f"{p}: not UTF-8 text: {e}") from None
