"""Which built-in rule modules the compiled kernel copies, and whether the installed ones
are still those (issue 41, "never a stale rule").

The kernel plays its own C++ copy of the built-in rules (``bourre_variants``).  That copy
was written against given sources: ``core/bourre/kernel/mirrors.json`` holds the
fingerprint of each rule module it copies (sha256 of the module's tokens, comments and
blank lines left out), checked against the repository by ``tests/kernel/test_stale.py``,
so a change to a built-in rule cannot be committed without its C++ copy and a new
fingerprint (``python -m bourre.kernel.fingerprint --write``).  The build records the
fingerprints the extension was compiled with beside it (``_kernel_built.json``, written
by ``setup.py``).

At the first house the kernel is asked about, the installed rule modules are
fingerprinted again: a module that differs (an editable install whose rule was edited)
makes the houses built on it play on the Python rules, never the old copy, after a
one-line notice on stderr (once a process).  ``KERNEL_VARIANTS`` is derived from the
same facts: the variant of each top-level rule module, plus ``standard``.
"""

from __future__ import annotations

import hashlib
import importlib.util
import io
import json
import os
import sys
import tokenize
from collections.abc import Callable, Mapping
from pathlib import Path

HERE = Path(__file__).resolve().parent
MIRRORS = HERE / "mirrors.json"
"""The fingerprints of the rule modules the C++ copy was written against (committed)."""
BUILT = HERE / "_kernel_built.json"
"""The fingerprints the extension beside it was compiled with (written by the build)."""
REBUILD = "pip install -e . or python setup.py build_ext --inplace"

TWINS: dict[str, tuple[str, ...]] = {
    "follow": ("standard/obligations.py",),
    "follow_optional_undertrump": ("optional_undertrump.py",),
    "house_follow": ("standard/obligations.py", "optional_undertrump.py"),
    "has_cinch": ("standard/cinch.py",),
    "highest_trumps": ("standard/cinch.py",),
    "cinch_narrow": ("standard/cinch.py",),
    "legal": ("standard/obligations.py", "optional_undertrump.py", "standard/cinch.py",
              "no_cinch.py"),
    "trick_winner": ("standard/tricks.py",),
    "lead": ("standard/lead.py",),
    "decision_turn": ("standard/decisions.py", "simultaneous_reveal.py"),
    "draw": ("standard/draw.py",),
    "hand_antes": ("standard/payout.py", "double_ante.py"),
    "play_ante": ("standard/payout.py", "double_ante.py"),
    "penalty": ("standard/payout.py", "pot_limit.py"),
    "payout": ("standard/payout.py", "pot_limit.py"),
    "next_dealer": ("standard/payout.py",),
    "settle": ("standard/payout.py",),
}  # fmt: skip
"""Each rule function of the kernel (``bourre.kernel._kernel.rules``, one C++ copy shared
by its engines) and the rule modules it copies: ``tests/kernel/test_rule_twins.py`` holds
each to them one by one, hypothesis drawing the hands, tricks, seats, pots and houses."""

_SKIP = {tokenize.COMMENT, tokenize.NL, tokenize.ENCODING}


def fingerprint(source: str) -> str:
    """sha256 of ``source``'s tokens: comments, blank lines and trailing spaces do not
    count; a change to the code (a docstring included) does."""
    h = hashlib.sha256()
    try:
        for tok in tokenize.generate_tokens(io.StringIO(source).readline):
            if tok.type not in _SKIP:
                h.update(f"{tok.type}:{tok.string}\n".encode())
    except (tokenize.TokenError, SyntaxError, IndentationError):
        h.update(b"untokenizable\n" + source.encode("utf-8", "replace"))
    return h.hexdigest()


def rules_dir() -> Path | None:
    """Where the installed built-in rule modules (``bourre_variants``) are."""
    try:
        spec = importlib.util.find_spec("bourre_variants")
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(next(iter(spec.submodule_search_locations)))


def read_sources(root: Path) -> dict[str, str]:
    """The fingerprint of each rule module under ``root``, by its path there ("/"-joined).

    Tokenizing the sources costs a tenth of a second, at the start of every command that
    asks the kernel about a house; so each fingerprint is remembered by the sha256 of the
    module's bytes (:data:`MEMO` in the cache directory: the same bytes, the same tokens,
    so a remembered fingerprint is never stale) and only a module not seen before is
    tokenized."""
    memo = _memo()
    out: dict[str, str] = {}
    learned = False
    for p in sorted(root.rglob("*.py")):
        if "__pycache__" in p.parts:
            continue
        data = p.read_bytes()
        key = hashlib.sha256(data).hexdigest()
        got = memo.get(key)
        if got is None:
            text = data.decode("utf-8").replace("\r\n", "\n").replace("\r", "\n")
            got = memo[key] = fingerprint(text)  # (as read_text reads it)
            learned = True
        out[p.relative_to(root).as_posix()] = got
    if learned:
        _remember(memo)
    return out


MEMO = "kernel-fingerprints.json"
"""The file, in the cache directory, of the fingerprints already worked out: the sha256 of
a module's bytes, and its fingerprint."""


def _memo_file() -> Path:
    """``$BOURRE_CACHE_DIR``, else ``$XDG_CACHE_HOME/bourre`` or ``~/.cache/bourre``, and
    :data:`MEMO` there (the directory of the equilibrium charts too)."""
    given = os.environ.get("BOURRE_CACHE_DIR")
    if given:
        return Path(given) / MEMO
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "bourre" / MEMO


def _memo() -> dict[str, str]:
    try:
        data = json.loads(_memo_file().read_text(encoding="utf-8"))
    except (OSError, ValueError, RuntimeError):  # (RuntimeError: no home directory)
        return {}
    if not isinstance(data, dict):
        return {}
    return {k: v for k, v in data.items() if isinstance(k, str) and isinstance(v, str)}


def _remember(memo: dict[str, str]) -> None:
    """Keep ``memo`` for the next process (the last 256 modules seen), if the cache
    directory can be written: else every process tokenizes, as before."""
    keep = dict(list(memo.items())[-256:])
    try:
        path = _memo_file()
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
        tmp.write_text(json.dumps(keep, indent=0), encoding="utf-8")
        os.replace(tmp, path)
    except (OSError, RuntimeError):
        pass


def variant_of(module: str) -> str:
    """The built-in variant a rule module is part of: ``double_ante.py`` is
    ``double-ante``; ``standard/…`` and the package itself are every house (``*``)."""
    if "/" in module or module == "__init__.py":
        return "*"
    return module.removesuffix(".py").replace("_", "-")


def load(path: Path) -> dict[str, str] | None:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in data.items()
    ):
        return None
    return data


def built() -> dict[str, str]:
    """The fingerprints the extension was compiled with (the build's record, else the
    committed ones: an extension built before the build kept a record)."""
    return load(BUILT) or load(MIRRORS) or {}


def kernel_variants(facts: Mapping[str, str]) -> frozenset[str]:
    """The built-in variants the kernel plays: ``standard`` and one a top-level module."""
    return frozenset({"standard"} | {variant_of(m) for m in facts} - {"*"})


def stale(
    facts: Mapping[str, str], reader: Callable[[], dict[str, str] | None]
) -> dict[str, list[str]]:
    """The rule modules installed now that differ from ``facts``, by the variant they
    belong to (``*``: every house); empty when they are the same or cannot be read."""
    now = reader()
    if not now:  # not found, or no source installed (compiled files only): nothing to compare
        return {}
    out: dict[str, list[str]] = {}
    for module in sorted(set(facts) | set(now)):
        if facts.get(module) != now.get(module):
            out.setdefault(variant_of(module), []).append(module)
    return out


def installed() -> dict[str, str] | None:
    """The fingerprints of the installed rule modules, or ``None`` if they are not found."""
    root = rules_dir()
    return read_sources(root) if root is not None else None


def notice(changed: Mapping[str, list[str]]) -> str:
    """The one line said when a built-in rule differs from the kernel's copy."""
    modules = ", ".join(f"bourre_variants/{m}" for ms in changed.values() for m in ms)
    who = (
        "every house plays"
        if "*" in changed
        else " and ".join(sorted(changed)) + (" plays" if len(changed) == 1 else " play")
    )
    return (
        f"bourre: {modules} is not the rule the compiled kernel copies: {who} on the Python"
        f" rules (slower); once the C++ copy follows it, rebuild ({REBUILD})"
    )


def main(argv: list[str] | None = None) -> int:
    """``python -m bourre.kernel.fingerprint [--write]``: print (or write to
    ``mirrors.json``) the fingerprints of the rule modules in this tree."""
    args = sys.argv[1:] if argv is None else argv
    root = HERE.parents[2] / "variants" / "bourre_variants"
    facts = read_sources(root if root.is_dir() else (rules_dir() or root))
    text = json.dumps(facts, indent=1, sort_keys=True) + "\n"
    if "--write" in args:
        MIRRORS.write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
