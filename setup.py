"""The build: the per-card hot path is compiled with mypyc when it can be.

The compiled modules are the same typed Python as the sources (docs/performance.md).
``BOURRE_PURE_PYTHON=1 pip install …`` skips compilation; without a C compiler, or if
compilation fails, the install falls back to pure Python (the same results, slower).
Everything else about the package is declared in pyproject.toml.
"""

from __future__ import annotations

import os
import sys

from setuptools import setup

COMPILED = [
    "core/bourre/statefields.py",
    "core/bourre/tablepath.py",
    "core/bourre/engine.py",
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
        ext.extra_compile_args += _speed_flags()
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


# pip runs this file several times per install (requirements, metadata, the build):
# only a build translates and compiles, once.
_BUILDS = {"build", "build_ext", "bdist_wheel", "editable_wheel", "develop", "install"}

setup(ext_modules=_extensions() if not _BUILDS.isdisjoint(sys.argv[1:]) else [])
