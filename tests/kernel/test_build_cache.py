"""Compile once (issue 41): ``setup.py``'s build of the kernel keeps a cache keyed by the
C++ sources, the compiler and its version, the flags, Python's ABI and pybind11's
version; an unchanged kernel is copied from it, never compiled again, and no error of
the cache (nor a missing compiler) fails the install.

The kernel is several translation units (``core/bourre/kernel/src``: a .cpp and a .h a
concept, issue 41), compiled side by side; the cache's key covers every unit and every
header, so that editing any one of them compiles the kernel again.

The build runs in a copy of the tree with a stand-in compiler (a script that logs each
call and writes an empty file), so that no test compiles the real kernel."""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
pytest.importorskip("pybind11", reason="the kernel's build needs pybind11")

FAKE = """#!/bin/sh
echo "$@" >> "{log}"
case "$*" in *--version*) echo "stand-in 1.0"; exit 0;; esac
out=""
while [ $# -gt 0 ]; do if [ "$1" = "-o" ]; then out="$2"; fi; shift; done
[ -n "$out" ] && : > "$out"
exit 0
"""


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    """The files the build reads, copied (the repository is never built here)."""
    dst = tmp_path / "tree"
    dst.mkdir()
    for name in ("setup.py", "pyproject.toml", "README.md"):
        if (ROOT / name).exists():
            shutil.copy2(ROOT / name, dst / name)
    ignore = shutil.ignore_patterns("__pycache__", "*.so", "_kernel_built.json")
    for d in ("core", "variants"):
        shutil.copytree(ROOT / d, dst / d, ignore=ignore)
    return dst


def build(tree: Path, cc: str, cache: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("BOURRE_NO_KERNEL", "CFLAGS")}
    env.update(CC=cc, CXX=cc, LDSHARED=f"{cc} -shared", LDCXXSHARED=f"{cc} -shared")
    env.update(BOURRE_BUILD_CACHE=str(cache), BOURRE_KERNEL_SANITIZE="")
    return subprocess.run(
        [sys.executable, "setup.py", "build_ext", "--inplace"],
        cwd=tree, env=env, capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip


UNITS = "core/bourre/kernel/src"


def compiled(log: Path) -> list[str]:
    """The units compiled so far (one line a compiler call with ``-c``), by file name."""
    if not log.exists():
        return []
    calls = [ln.split() for ln in log.read_text().splitlines()]
    return [Path(w).name for c in calls if "-c" in c for w in c if w.endswith(".cpp")]


def stand_in(tmp: Path, log: Path) -> str:
    cc = tmp / "stand-in-cc"
    cc.write_text(FAKE.format(log=log))
    cc.chmod(cc.stat().st_mode | stat.S_IEXEC)
    return str(cc)


def test_an_unchanged_kernel_is_copied_from_the_cache(tree: Path, tmp_path: Path) -> None:
    log, cache = tmp_path / "calls.log", tmp_path / "cache"
    cc = stand_in(tmp_path, log)
    first = build(tree, cc, cache)
    assert first.returncode == 0, first.stderr
    units = sorted(p.name for p in (tree / UNITS).glob("*.cpp"))
    assert len(units) > 5 and compiled(log) and sorted(compiled(log)) == units  # each once
    stored = list(cache.glob("*.so"))
    assert len(stored) == 1 and not list(cache.glob(".*tmp"))  # renamed into place
    assert (tree / "core/bourre/kernel/_kernel_built.json").read_text() == (
        tree / "core/bourre/kernel/mirrors.json"
    ).read_text()

    second = build(tree, cc, cache)
    assert second.returncode == 0, second.stderr
    assert "taken from" in second.stderr + second.stdout
    assert len(compiled(log)) == len(units)  # nothing compiled
    assert list((tree / "core/bourre/kernel").glob("_kernel*.so"))

    # a changed unit, or a changed header, is another key: compiled again
    for n, edited in enumerate(("payout.cpp", "lead.h", "solver.h"), start=2):
        src = tree / UNITS / edited
        src.write_text(src.read_text() + "\n// changed\n")
        assert build(tree, cc, cache).returncode == 0
        assert len(compiled(log)) == n * len(units), edited
        assert len(list(cache.glob("*.so"))) == n


def test_no_compiler_still_installs_on_the_python_rules(tree: Path, tmp_path: Path) -> None:
    done = build(tree, str(tmp_path / "no-such-compiler"), tmp_path / "cache")
    assert done.returncode == 0, done.stderr
    assert "the compiled kernel was not built" in done.stderr
    assert "the Python rules play every house" in done.stderr
    assert not list((tree / "core/bourre/kernel").glob("_kernel*.so"))


def test_a_broken_cache_never_fails_the_build(tree: Path, tmp_path: Path) -> None:
    log = tmp_path / "calls.log"
    blocked = tmp_path / "a-file"
    blocked.write_text("not a folder")
    done = build(tree, stand_in(tmp_path, log), blocked / "cache")
    assert done.returncode == 0, done.stderr
    assert compiled(log)  # compiled as before
    assert list((tree / "core/bourre/kernel").glob("_kernel*.so"))


def test_the_sdist_carries_every_unit_and_header() -> None:
    """MANIFEST.in takes the kernel's units and headers into the sdist (setup.py lists
    the .cpp files only when it builds, and never the headers)."""
    manifest = (ROOT / "MANIFEST.in").read_text().split("\n")
    assert f"recursive-include {UNITS} *.cpp *.h" in manifest
    assert list((ROOT / UNITS).glob("*.h")) and list((ROOT / UNITS).glob("*.cpp"))
    assert not list((ROOT / UNITS).glob("*.[!ch]*"))  # nothing else there to forget


OVERLAP = """#!/bin/sh
case "$*" in *--version*) echo "stand-in 1.0"; exit 0;; esac
case "$*" in *" -c "*)
  ls "{runs}" | grep -q . && echo overlap >> "{log}"
  mkdir "{runs}/$$"; sleep 1; ls "{runs}" | grep -vx "$$" | grep -q . && echo overlap >> "{log}"
  rmdir "{runs}/$$";;
esac
out=""
while [ $# -gt 0 ]; do if [ "$1" = "-o" ]; then out="$2"; fi; shift; done
[ -n "$out" ] && : > "$out"
exit 0
"""


def test_the_units_are_compiled_side_by_side(tree: Path, tmp_path: Path) -> None:
    """setup.py's build compiles the units in parallel (``-j``; by default a job a core):
    a stand-in compiler that sees another compile running beside its own."""
    log, runs = tmp_path / "calls.log", tmp_path / "runs"
    runs.mkdir()
    cc = tmp_path / "overlap-cc"
    cc.write_text(OVERLAP.format(log=log, runs=runs))
    cc.chmod(cc.stat().st_mode | stat.S_IEXEC)
    env = {k: v for k, v in os.environ.items() if k not in ("BOURRE_NO_KERNEL", "CFLAGS")}
    env.update(CC=str(cc), CXX=str(cc), LDSHARED=f"{cc} -shared", LDCXXSHARED=f"{cc} -shared")
    env.update(BOURRE_BUILD_CACHE=str(tmp_path / "cache"), BOURRE_KERNEL_SANITIZE="")
    done = subprocess.run(
        [sys.executable, "setup.py", "build_ext", "--inplace", "-j", "2"],
        cwd=tree, env=env, capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert log.exists() and "overlap" in log.read_text()
