"""How this installation was built: which modules of the hot path run compiled.

``setup.py`` compiles the per-card hot path (the engine, the hand state, the bot seats
and the ``standard`` rule components) with mypyc when it can; the compiled modules are
the same typed Python as the sources, several times faster.  An editable install keeps
them beside their sources, where an edited source is shadowed by its compiled module
until the package is built again: :func:`stale` finds those, and importing the engine
warns about them.

The compiled kernel (:mod:`bourre.kernel`, C++) is built apart from mypyc: it is not
one of :func:`compiled`'s modules; :func:`kernel` says whether it is built, and
:func:`stale` reports it too when its source is newer.
"""

from __future__ import annotations

import importlib.machinery
import warnings
from pathlib import Path

__all__ = ["KERNEL", "compiled", "describe", "kernel", "stale", "warn_if_stale"]

KERNEL = "bourre.kernel._kernel"
"""The compiled kernel's module (setup.py builds it apart from mypyc's)."""


def _all_extensions() -> list[tuple[str, Path]]:
    """``(module, extension file)`` for every extension of the three packages."""
    import bourre
    import bourre_bots
    import bourre_variants

    found = []
    suffixes = importlib.machinery.EXTENSION_SUFFIXES  # the most specific first
    for package in (bourre, bourre_variants, bourre_bots):
        root = Path(str(package.__file__)).parent
        for path in root.rglob("*.*"):
            suffix = next((x for x in suffixes if path.name.endswith(x)), None)
            if suffix is not None:
                parts = path.relative_to(root).with_name(path.name[: -len(suffix)]).parts
                found.append((".".join((package.__name__, *parts)), path))
    return sorted(found)


def _extensions() -> list[tuple[str, Path]]:
    """``(module, extension file)`` for every module compiled by mypyc (the kernel's
    C++ extension is not one of them)."""
    return [(m, p) for m, p in _all_extensions() if m != KERNEL]


def kernel() -> str:
    """The compiled kernel: ``"C++ (pybind11)"`` when built and importable, else
    ``"not built"`` (the Python rules play every house)."""
    from bourre import kernel as k

    return "C++ (pybind11)" if k.available() else "not built"


def compiled() -> list[str]:
    """The modules that run compiled (empty for a pure-Python install)."""
    return [module for module, _ in _extensions()]


def stale() -> list[str]:
    """Compiled modules whose source was edited after they were built (an editable
    install): they run the old code until ``pip install -e .`` builds them again."""
    out = []
    for module, ext in _extensions():
        source = ext.parent / (module.rsplit(".", 1)[1] + ".py")
        depth = module.count(".") + 1  # the package's source root, then the checkout
        checkout = ext.parents[depth]
        if not (checkout / "setup.py").is_file():
            continue  # an installed wheel: its file times say nothing about builds
        if source.exists() and source.stat().st_mtime > ext.stat().st_mtime:
            out.append(module)
    for module, ext in _all_extensions():
        if module == KERNEL:  # its source is C++, beside it in a checkout
            source = ext.parent / "_kernel.cpp"
            checkout = ext.parents[module.count(".") + 1]
            built_here = (checkout / "setup.py").is_file() and source.exists()
            if built_here and source.stat().st_mtime > ext.stat().st_mtime:
                out.append(module)
    return out


def describe() -> str:
    """One line for reports: ``compiled (mypyc): N modules`` or ``pure Python``."""
    modules = compiled()
    if not modules:
        return "pure Python"
    old = stale()
    note = f"; STALE, rebuild with pip install -e .: {', '.join(old)}" if old else ""
    return f"compiled (mypyc): {len(modules)} modules{note}"


def warn_if_stale() -> None:
    """Warn when an edited source is shadowed by its older compiled module."""
    old = stale()
    if old:
        warnings.warn(
            f"bourre: compiled modules older than their sources: {', '.join(old)};"
            " they run the old code: build again with `pip install -e .`"
            " (or `BOURRE_PURE_PYTHON=1 pip install -e .` for no compilation)",
            RuntimeWarning,
            stacklevel=2,
        )
