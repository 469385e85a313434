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
    """The fingerprint of each rule module under ``root``, by its path there ("/"-joined)."""
    return {
        p.relative_to(root).as_posix(): fingerprint(p.read_text(encoding="utf-8"))
        for p in sorted(root.rglob("*.py"))
        if "__pycache__" not in p.parts
    }


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
