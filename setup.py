"""The build: the per-card hot path is compiled with mypyc when it can be.

The compiled modules are the same typed Python as the sources (docs/performance.md).
``BOURRE_PURE_PYTHON=1 pip install …`` skips compilation; without a C compiler, or if
compilation fails, the install falls back to pure Python (the same results, slower).
With GCC the compiled library is built profile-guided (``ProfileGuided``;
``BOURRE_PGO=0`` builds once).  Everything else about the package is declared in pyproject.toml.

The compiled kernel (``bourre.kernel._kernel``, C++17 through pybind11) is built apart
from mypyc, once with ``-O2`` (:func:`_kernel_extensions`, :func:`build_kernel`), also
with ``BOURRE_PURE_PYTHON=1``; ``BOURRE_NO_KERNEL=1`` skips it.  If it cannot be built
the install still succeeds and the Python rules play every house (a one-line notice).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path
from typing import Any

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

COMPILED = [
    "core/bourre/statefields.py",
    "core/bourre/tablepath.py",
    "core/bourre/legality.py",
    "core/bourre/engine.py",
    "core/bourre/conservation.py",
    "core/bourre/flow.py",
    "core/bourre/cardplay.py",
    "core/bourre/xoshiro.py",
    "core/bourre/chance.py",
    "core/bourre/results.py",
    "core/bourre/state.py",
    "core/bourre/components.py",
    "core/bourre/outcome.py",
    "core/bourre/botmaking.py",
    "core/bourre/playerbase.py",
    "core/bourre/blind.py",
    "core/bourre/players.py",
    "core/bourre/simulate.py",
    "core/bourre/observe.py",
    "core/bourre/observation.py",
    "variants/bourre_bots/random_bot.py",
    "variants/bourre_bots/heuristic.py",
    "variants/bourre_bots/montecarlo.py",
    "core/bourre/worlds.py",
    "core/bourre/given.py",
    "variants/bourre_variants/standard/cinch.py",
    "variants/bourre_variants/standard/deal.py",
    "variants/bourre_variants/standard/decisions.py",
    "variants/bourre_variants/standard/draw.py",
    "variants/bourre_variants/standard/obligations.py",
    "variants/bourre_variants/standard/payout.py",
    "variants/bourre_variants/standard/tricks.py",
]
"""The modules of the hot path.  ``bourre.build`` lists those that run compiled, and
``tests/test_build.py`` checks that all of these do when a compiler is there."""


def _pure() -> bool:
    return os.environ.get("BOURRE_PURE_PYTHON", "") not in ("", "0")


def _extensions() -> list[object]:
    if _pure():
        return []
    try:
        from mypyc.build import mypycify

        extensions = mypycify(COMPILED, opt_level="3", group_name="bourre")
    except (Exception, SystemExit) as exc:  # no mypyc, or its type check failed (exits)
        print(f"bourre: not compiling the hot path ({exc!r}); pure Python", file=sys.stderr)
        return []
    for ext in extensions:
        ext.optional = True  # no C compiler: the same modules as pure Python
        ext.extra_compile_args = [*ext.extra_compile_args, *_speed_flags()]  # (a shared list)
    return list(extensions)


def _speed_flags() -> list[str]:
    """C flags that shrink the hot path (docs/performance.md, "Compiler flags").

    ``-fvisibility=hidden``: mypyc's runtime helpers compiled into the group library
    (``CPyTagged_DecRef``, ``CPyList_GetItem`` ...) are called directly and inlined
    instead of through the PLT; only ``PyInit_*`` is exported, which is all that
    Python looks up.  ``-fno-plt`` (ELF): calls into libpython go through the GOT.
    """
    if os.name != "posix":
        return []
    return ["-fvisibility=hidden"] + (["-fno-plt"] if sys.platform.startswith("linux") else [])


KERNEL = "bourre.kernel._kernel"
"""The compiled kernel's module (docs/performance.md, "The kernel")."""


def _kernel_extensions() -> list[Any]:
    """The kernel as an extension (C++17, one ``-O2`` build, no profile-guided pass),
    unless ``BOURRE_NO_KERNEL=1`` or pybind11 is missing (then a one-line notice)."""
    if os.environ.get("BOURRE_NO_KERNEL", "") not in ("", "0"):
        return []
    try:
        import pybind11
    except ImportError:
        print("bourre: pybind11 is missing: no compiled kernel; the Python rules", file=sys.stderr)
        return []
    flags = ["-std=c++17", "-O2", "-fvisibility=hidden", "-ffp-contract=off"]
    if os.name != "posix":
        flags = ["/std:c++17", "/O2", "/fp:strict"]
    return [
        Extension(
            KERNEL,
            ["core/bourre/kernel/_kernel.cpp"],
            include_dirs=[pybind11.get_include()],
            language="c++",
            extra_compile_args=flags,
        )
    ]


def build_kernel(command: build_ext, extensions: list[Any]) -> None:
    """Build the kernel on its own (not part of mypyc's passes); any failure (no C++
    compiler, a compile error) leaves the Python rules with a one-line notice."""
    for ext in extensions:
        try:
            Path(command.get_ext_fullpath(ext.name)).unlink(missing_ok=True)
            command.build_extension(ext)
        except Exception as exc:  # (CompileError, LinkError, a missing compiler …)
            last = (str(exc).strip().splitlines() or [""])[-1]
            why = f"{type(exc).__name__}: {last[:100]}{'…' if len(last) > 100 else ''}"
            print(
                f"bourre: the compiled kernel was not built ({why});"
                " the Python rules play every house",
                file=sys.stderr,
            )


HERE = Path(__file__).resolve().parent
TRAINING = [
    "bench",
    "--engine",
    "python",
    "--seconds",
    "0.2",
    "standard",
    "four-card",
    "no-cinch",
    "optional-undertrump",
]
"""What the profile-guided build plays: ``bourre bench`` (random, heuristic and Monte
Carlo bots) on houses whose components differ, about 15 seconds instrumented."""


def _pgo() -> bool:
    return os.environ.get("BOURRE_PGO", "1") not in ("", "0")


def _is_gcc(command: list[str]) -> bool:
    try:
        out = subprocess.run([*command[:1], "--version"], capture_output=True, text=True)
    except OSError:
        return False
    return "Free Software Foundation" in out.stdout


class ProfileGuided(build_ext):
    """Build the compiled group twice with GCC: instrumented, then after ``TRAINING``
    with ``-fprofile-use``, so the hot path is laid out and inlined for how it runs
    (docs/performance.md, "Compiler flags").  ``BOURRE_PGO=0`` builds once.  Any
    failure (no GCC, a failed build or training) falls back to the plain build.
    Every build starts from nothing: a library an earlier build left (in ``build/``
    or beside the sources) is removed first, so a failed build installs pure Python,
    never an older or instrumented library."""

    def build_extensions(self) -> None:
        every = self.extensions
        build_kernel(self, [e for e in every if e.name == KERNEL])
        self.extensions = [e for e in every if e.name != KERNEL]
        try:
            self._build_compiled()
        finally:
            self.extensions = every

    def _build_compiled(self) -> None:
        compiler = getattr(self.compiler, "compiler_so", None) or [""]
        if not (self.extensions and _pgo() and _is_gcc(compiler)):
            self._build()
            return
        plain = {
            id(ext): (list(ext.extra_compile_args), list(ext.extra_link_args))
            for ext in self.extensions
        }
        with tempfile.TemporaryDirectory(prefix="bourre-pgo-") as tmp:
            profile = os.path.join(tmp, "profile")
            try:
                self._pass(plain, [f"-fprofile-generate={profile}"], link=True, optional=False)
                if not self._train(Path(tmp) / "tree", Path(profile)):
                    raise RuntimeError("the training run did not run the instrumented build")
                use = [f"-fprofile-use={profile}", "-fprofile-partial-training"]
                self._pass(
                    plain,
                    [*use, "-Wno-missing-profile", "-Wno-coverage-mismatch"],
                    link=False,
                    optional=False,
                )
            except Exception as exc:  # any failure: build as without PGO
                print(f"bourre: no profile-guided build ({exc}); building once", file=sys.stderr)
                self._pass(plain, [], link=False, optional=True)

    def _pass(
        self,
        plain: dict[int, tuple[list[str], list[str]]],
        flags: list[str],
        *,
        link: bool,
        optional: bool,
    ) -> None:
        for ext in self.extensions:
            compile_args, link_args = plain[id(ext)]
            ext.extra_compile_args = compile_args + flags
            ext.extra_link_args = link_args + (flags if link else [])
            ext.optional = optional
        self._build()

    def _build(self) -> None:
        """One pass, from nothing (no library of an earlier pass or build is kept)."""
        for ext in self.extensions:
            Path(self.get_ext_fullpath(ext.name)).unlink(missing_ok=True)
        self.force = True
        super().build_extensions()

    def _train(self, tree: Path, profile: Path) -> bool:
        """Play ``TRAINING`` on a copy of the sources with the instrumented build."""
        project = tomllib.loads((HERE / "pyproject.toml").read_text(encoding="utf-8"))
        for root in project["tool"]["setuptools"]["packages"]["find"]["where"]:
            shutil.copytree(
                HERE / root,
                tree,
                dirs_exist_ok=True,
                ignore=shutil.ignore_patterns("*.so", "*.pyd", "__pycache__", "*.egg-info"),
            )
        for ext in self.extensions:
            target = tree / self.get_ext_filename(ext.name)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(self.get_ext_fullpath(ext.name), target)
        dist = tree / "bourre-0+training.dist-info"  # the entry points, as an install has them
        dist.mkdir()
        (dist / "METADATA").write_text(
            "Metadata-Version: 2.1\nName: bourre\nVersion: 0+training\n", encoding="utf-8"
        )
        groups = project["project"]["entry-points"]
        (dist / "entry_points.txt").write_text(
            "".join(
                f"[{group}]\n" + "".join(f"{k} = {v}\n" for k, v in eps.items())
                for group, eps in groups.items()
            ),
            encoding="utf-8",
        )
        # the tree first; the rest of the path as given (pip's isolated build puts
        # the build's requirements, which the training imports, on PYTHONPATH)
        path = os.pathsep.join(filter(None, [str(tree), os.environ.get("PYTHONPATH")]))
        env = {**os.environ, "PYTHONPATH": path, "BOURRE_PURE_PYTHON": ""}
        module, _, function = project["project"]["scripts"]["bourre"].partition(":")
        main = f"import sys; from {module} import {function}; sys.argv[0] = 'bourre'; {function}()"
        run = subprocess.run(
            [sys.executable, "-c", main, *TRAINING],
            cwd=tree,
            env=env,
            capture_output=True,
            text=True,
            timeout=600,  # (about 15 seconds: a hung run must not hang the install)
        )
        if run.returncode != 0:
            raise RuntimeError(f"the training run failed: {run.stderr.strip()[-500:]}")
        return "compiled (mypyc)" in run.stdout and any(profile.rglob("*.gcda"))


# pip runs this file several times per install (requirements, metadata, the build):
# only a build translates and compiles, once.
_BUILDS = {"build", "build_ext", "bdist_wheel", "editable_wheel", "develop", "install"}

setup(
    ext_modules=[*_extensions(), *_kernel_extensions()]
    if not _BUILDS.isdisjoint(sys.argv[1:])
    else [],
    cmdclass={"build_ext": ProfileGuided},
)
