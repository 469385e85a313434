"""The build: the package is plain Python (pyproject.toml says everything about it),
plus one optional extension, the compiled kernel (``bourre.kernel._kernel``, C++17
through pybind11), an accelerator for houses made only of built-in components
(docs/performance.md, "The kernel").

It is built once with ``-O2 -Wall -Wextra`` (it compiles without a warning).
``BOURRE_NO_KERNEL=1`` skips it; if it cannot be built (no C++ compiler, no pybind11, a
compile error) the install still succeeds and the Python rules play every house, after a
one-line notice.

``BOURRE_KERNEL_SANITIZE=1`` builds it under AddressSanitizer and UndefinedBehaviorSanitizer
instead (``-fsanitize=address,undefined -fno-omit-frame-pointer -O1 -fno-wrapv``: signed
overflow is reported, not wrapped), for ``tox -e sanitize``: such a build runs only with
the sanitizers' runtimes preloaded (``LD_PRELOAD``, see tox.ini), never installed for use.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

KERNEL = "bourre.kernel._kernel"
"""The compiled kernel's module."""


def kernel_extensions() -> list[Any]:
    """The kernel as an extension, unless ``BOURRE_NO_KERNEL=1`` or pybind11 is missing
    (then a one-line notice)."""
    if os.environ.get("BOURRE_NO_KERNEL", "") not in ("", "0"):
        return []
    try:
        import pybind11
    except ImportError:
        print("bourre: pybind11 is missing: no compiled kernel; the Python rules", file=sys.stderr)
        return []
    flags = ["-std=c++17", "-O2", "-fvisibility=hidden", "-ffp-contract=off", "-Wall", "-Wextra"]
    link: list[str] = []
    if sanitized():
        flags[1] = "-O1"
        flags += SANITIZE
        link += SANITIZE
    if os.name != "posix":
        flags = ["/std:c++17", "/O2", "/fp:strict"]
    return [
        Extension(
            KERNEL,
            ["core/bourre/kernel/_kernel.cpp"],
            include_dirs=[pybind11.get_include()],
            language="c++",
            extra_compile_args=flags,
            extra_link_args=link,
        )
    ]


SANITIZE = ["-fsanitize=address,undefined", "-fno-omit-frame-pointer", "-fno-wrapv", "-g"]
"""The sanitizers' flags (``BOURRE_KERNEL_SANITIZE=1``); ``-fno-wrapv`` undoes Python's
``-fwrapv`` so that UBSan reports a signed overflow instead of wrapping it."""


def sanitized() -> bool:
    """Whether ``BOURRE_KERNEL_SANITIZE=1`` asks for the sanitizers' build."""
    return os.environ.get("BOURRE_KERNEL_SANITIZE", "") not in ("", "0")


class OptionalKernel(build_ext):
    """Builds the kernel; any failure leaves the Python rules, with a one-line notice."""

    def build_extension(self, ext: Any) -> None:
        try:
            Path(self.get_ext_fullpath(ext.name)).unlink(missing_ok=True)
            super().build_extension(ext)
        except Exception as exc:  # (CompileError, LinkError, a missing compiler …)
            why = str(exc).strip().splitlines()[-1:] or [type(exc).__name__]
            print(
                f"bourre: the compiled kernel was not built ({why[0]});"
                " the Python rules play every house",
                file=sys.stderr,
            )


# pip runs this file several times per install (requirements, metadata, the build):
# only a build compiles, once.
_BUILDS = {"build", "build_ext", "bdist_wheel", "editable_wheel", "develop", "install"}

setup(
    ext_modules=kernel_extensions() if not _BUILDS.isdisjoint(sys.argv[1:]) else [],
    cmdclass={"build_ext": OptionalKernel},
)
