"""The build: the package is plain Python (pyproject.toml says everything about it),
plus one optional extension, the compiled kernel (``bourre.kernel._kernel``, C++17
through pybind11), an accelerator for houses made only of built-in components
(docs/performance.md, "The kernel").

It is built once with ``-O3 -Wall -Wextra -g0`` (it compiles without a warning), from the
kernel's units (``core/bourre/kernel/src/*.cpp``, a .cpp and a .h a concept), compiled side
by side, a job a core (``build_ext -j N`` overrides).
``BOURRE_NO_KERNEL=1`` skips it; if it cannot be built (no C++ compiler, no pybind11, a
compile error) the install still succeeds and the Python rules play every house, after a
one-line notice.

``BOURRE_KERNEL_SANITIZE=1`` builds it under AddressSanitizer and UndefinedBehaviorSanitizer
instead (``-fsanitize=address,undefined -fno-omit-frame-pointer -O1 -fno-wrapv``: signed
overflow is reported, not wrapped), for ``tox -e sanitize``: such a build runs only with
the sanitizers' runtimes preloaded (``LD_PRELOAD``, see tox.ini), never installed for use.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

KERNEL = "bourre.kernel._kernel"
"""The compiled kernel's module."""
UNITS = Path("core/bourre/kernel/src")
"""The kernel's translation units (``*.cpp``) and their headers (``*.h``), laid out by
concept (docs/architecture.md, "The kernel's units")."""


def kernel_sources() -> list[str]:
    """The kernel's units, sorted (every ``*.cpp`` of :data:`UNITS`)."""
    return sorted(p.as_posix() for p in UNITS.glob("*.cpp"))


RECORD = "_kernel_built.json"
"""Beside the kernel: the fingerprints of the built-in rule modules its C++ copies."""


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
    flags = ["-std=c++17", "-O3", "-fvisibility=hidden", "-ffp-contract=off", "-Wall", "-Wextra"]
    link: list[str] = []
    if sanitized():
        flags[1] = "-O1"
        flags += SANITIZE
        link += SANITIZE
    else:  # no debug info (Python's CFLAGS say -g): each unit would carry pybind11's again
        flags.append("-g0")
    if os.name != "posix":
        flags = ["/std:c++17", "/O2", "/fp:strict"]
    return [
        Extension(
            KERNEL,
            kernel_sources(),
            include_dirs=[pybind11.get_include(), UNITS.as_posix()],
            language="c++",
            extra_compile_args=flags,
            extra_link_args=link,
            optional=True,  # not built: the install goes on (the Python rules play)
        )
    ]


SANITIZE = ["-fsanitize=address,undefined", "-fno-omit-frame-pointer", "-fno-wrapv", "-g"]
"""The sanitizers' flags (``BOURRE_KERNEL_SANITIZE=1``); ``-fno-wrapv`` undoes Python's
``-fwrapv`` so that UBSan reports a signed overflow instead of wrapping it."""


def sanitized() -> bool:
    """Whether ``BOURRE_KERNEL_SANITIZE=1`` asks for the sanitizers' build."""
    return os.environ.get("BOURRE_KERNEL_SANITIZE", "") not in ("", "0")


class OptionalKernel(build_ext):
    """Builds the kernel once for given sources, compiler, flags and Python (a build
    cache: :func:`cache_key`); any failure leaves the Python rules, with a one-line
    notice.  Beside the extension it records the fingerprints of the built-in rule
    modules its C++ copies (``_kernel_built.json``, from ``mirrors.json``: see
    :mod:`bourre.kernel.fingerprint`)."""

    def finalize_options(self) -> None:
        super().finalize_options()
        given: Any = getattr(self, "parallel", None)
        if not given:  # the units compiled side by side (``-j N`` overrides)
            self.parallel = os.cpu_count() or 1

    def _compile_in_parallel(self) -> None:
        """Compile the kernel's units side by side, ``self.parallel`` at a time: build_ext's
        own ``parallel`` builds whole extensions in parallel, and the kernel is one."""
        given: Any = getattr(self, "parallel", None)
        jobs = int(given) if given not in (None, True) else os.cpu_count() or 1
        compile_one = self.compiler.compile
        if jobs < 2 or getattr(compile_one, "bourre_parallel", False):
            return

        def compile_all(sources: list[str], *args: Any, **kwargs: Any) -> list[str]:
            with ThreadPoolExecutor(max_workers=jobs) as pool:
                done = pool.map(lambda src: compile_one([src], *args, **kwargs), sources)
                return [obj for objs in done for obj in objs]

        compile_all.bourre_parallel = True  # type: ignore[attr-defined]
        self.compiler.compile = compile_all

    def build_extension(self, ext: Any) -> None:
        target = Path(self.get_ext_fullpath(ext.name))
        try:
            target.unlink(missing_ok=True)
            if not self._from_cache(ext, target):
                self._compile_in_parallel()
                super().build_extension(ext)
                self._to_cache(ext, target)
        except Exception as exc:  # (CompileError, LinkError, a missing compiler …)
            why = str(exc).strip().splitlines()[-1:] or [type(exc).__name__]
            print(
                f"bourre: the compiled kernel was not built ({why[0]});"
                " the Python rules play every house",
                file=sys.stderr,
            )
            return
        record_rules(target.parent)

    def _records(self) -> list[tuple[str, str]]:
        """The rule record beside each extension: (where it is built, its in-place twin)."""
        try:
            build_py = self.get_finalized_command("build_py")
            out = []
            for ext in self.extensions:
                inplace, regular = self._get_inplace_equivalent(build_py, ext)
                out.append(
                    (str(Path(regular).with_name(RECORD)), str(Path(inplace).with_name(RECORD)))
                )
            return [(r, i) for r, i in out if os.path.exists(r)]
        except Exception:  # (a setuptools without these: the committed fingerprints serve)
            return []

    def copy_extensions_to_source(self) -> None:  # ``build_ext --inplace``
        super().copy_extensions_to_source()
        for regular, inplace in self._records():
            self.copy_file(regular, inplace, level=self.verbose)

    def _get_output_mapping(self) -> Any:  # ``pip install -e .`` (the editable wheel)
        yield from super()._get_output_mapping()
        if self.inplace:
            yield from self._records()

    def _key(self, ext: Any) -> str | None:
        try:
            return cache_key(self.compiler, ext)
        except Exception:  # the cache never fails the build: compile as before
            return None

    def _from_cache(self, ext: Any, target: Path) -> bool:
        """Whether the extension was copied from the cache (a hit)."""
        key = self._key(ext)
        if key is None or sanitized() or self.force:
            return False
        try:
            cached = cache_dir() / f"{key}{Path(target).suffix}"
            if not cached.is_file():
                return False
            target.parent.mkdir(parents=True, exist_ok=True)
            tmp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
            shutil.copyfile(cached, tmp)
            os.replace(tmp, target)
        except Exception:
            return False
        print(f"bourre: the compiled kernel is unchanged: taken from {cached}", file=sys.stderr)
        return True

    def _to_cache(self, ext: Any, target: Path) -> None:
        """Store the extension just built (renamed into place: never half a file)."""
        key = self._key(ext)
        if key is None or sanitized() or not target.is_file():
            return
        try:
            where = cache_dir()
            where.mkdir(parents=True, exist_ok=True)
            tmp = where / f".{key}.{os.getpid()}.tmp"
            shutil.copyfile(target, tmp)
            os.replace(tmp, where / f"{key}{target.suffix}")
        except Exception:
            pass


def cache_dir() -> Path:
    """``$BOURRE_BUILD_CACHE``, else ``$XDG_CACHE_HOME/bourre/kernel`` (``~/.cache`` by
    default)."""
    given = os.environ.get("BOURRE_BUILD_CACHE", "")
    if given:
        return Path(given).expanduser()
    base = os.environ.get("XDG_CACHE_HOME", "") or str(Path.home() / ".cache")
    return Path(base) / "bourre" / "kernel"


def cache_key(compiler: Any, ext: Any) -> str:
    """sha256 of what the extension is made from: the C++ sources (and the headers
    beside them), the compiler (its command and ``--version``), the flags, Python's ABI
    (the extension's suffix and the interpreter's include directory) and pybind11's
    version."""
    import subprocess
    import sysconfig

    import pybind11

    h = hashlib.sha256()

    def put(label: str, value: str | bytes) -> None:
        data = value.encode() if isinstance(value, str) else value
        h.update(f"{label}:{len(data)}:".encode() + data)

    sources = {Path(s) for s in ext.sources}
    for src in list(sources):
        sources |= {p for p in src.parent.glob("*") if p.suffix in (".h", ".hpp", ".cpp", ".cc")}
    for src in sorted(sources):
        put(f"source {src.as_posix()}", src.read_bytes())
    command = list(
        getattr(compiler, "compiler_so", None) or [getattr(compiler, "compiler_type", "?")]
    )
    put("compiler", " ".join(command))
    version = subprocess.run(
        [command[0], "--version"], capture_output=True, timeout=30, check=True
    ).stdout
    put("compiler version", version)
    put("linker", " ".join(getattr(compiler, "linker_so", None) or []))
    put("flags", repr((ext.extra_compile_args, ext.extra_link_args, ext.define_macros)))
    put("abi", sysconfig.get_config_var("EXT_SUFFIX") or "")
    put("python", sys.version)
    put("include", sysconfig.get_paths()["include"])
    put("pybind11", pybind11.__version__)
    return h.hexdigest()


def record_rules(where: Path) -> None:
    """Write beside the extension the fingerprints of the built-in rule modules its C++
    copies (``mirrors.json``, committed with the C++): read by ``bourre.kernel`` at run
    time against the installed modules (issue 41, "never a stale rule")."""
    try:
        text = (Path(__file__).parent / "core/bourre/kernel/mirrors.json").read_text()
        (where / RECORD).write_text(text)
    except OSError as exc:
        print(f"bourre: the kernel's rule fingerprints were not recorded ({exc})", file=sys.stderr)


# pip runs this file several times per install (requirements, metadata, the build):
# only a build compiles, once.
_BUILDS = {"build", "build_ext", "bdist_wheel", "editable_wheel", "develop", "install"}

setup(
    ext_modules=kernel_extensions() if not _BUILDS.isdisjoint(sys.argv[1:]) else [],
    cmdclass={"build_ext": OptionalKernel},
)
