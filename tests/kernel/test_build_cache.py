"""Compile once (issue 41): ``setup.py``'s build of the kernel keeps a cache keyed by the
C++ sources, the compiler and its version, the flags, Python's ABI and pybind11's
version; an unchanged kernel is copied from it, never compiled again, and no error of
the cache (nor a missing compiler) fails the install.

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
    compiled = [ln for ln in log.read_text().splitlines() if "_kernel.cpp" in ln]
    assert len(compiled) == 1, compiled
    stored = list(cache.glob("*.so"))
    assert len(stored) == 1 and not list(cache.glob(".*tmp"))  # renamed into place
    assert (tree / "core/bourre/kernel/_kernel_built.json").read_text() == (
        tree / "core/bourre/kernel/mirrors.json"
    ).read_text()

    second = build(tree, cc, cache)
    assert second.returncode == 0, second.stderr
    assert "taken from" in second.stderr + second.stdout
    assert len([ln for ln in log.read_text().splitlines() if "_kernel.cpp" in ln]) == 1
    assert list((tree / "core/bourre/kernel").glob("_kernel*.so"))

    # a changed source is another key: compiled again
    cpp = tree / "core/bourre/kernel/_kernel.cpp"
    cpp.write_text(cpp.read_text() + "\n// changed\n")
    assert build(tree, cc, cache).returncode == 0
    assert len([ln for ln in log.read_text().splitlines() if "_kernel.cpp" in ln]) == 2
    assert len(list(cache.glob("*.so"))) == 2


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
    assert "_kernel.cpp" in log.read_text()  # compiled as before
    assert list((tree / "core/bourre/kernel").glob("_kernel*.so"))
