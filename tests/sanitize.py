"""``tox -e sanitize``: the kernel's tests and its long fuzz run on a kernel built under
AddressSanitizer and UndefinedBehaviorSanitizer (``BOURRE_KERNEL_SANITIZE=1``, setup.py).

A Python extension built with ``-fsanitize=address`` runs only with the sanitizers'
runtimes loaded first: this script finds them (``$CXX -print-file-name=libasan.so``,
libubsan.so), checks that the installed kernel is the sanitized build, and runs pytest
with them in ``LD_PRELOAD`` (``ASAN_OPTIONS=detect_leaks=0``: the interpreter's own
allocations live until exit; ``UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1``: the
first report fails the run).  Where the compiler has no sanitizer runtime it says so
and skips (exit 0).  ``BOURRE_SANITIZE_SHORT=1`` runs only the boundary's tests and the
short fuzz on a fixed sample (CI's run, ``.ci/run``); the full run draws new examples
each time.  Extra arguments go to pytest.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
KERNEL_TESTS = sorted(
    str(p.relative_to(ROOT)) for p in (ROOT / "tests" / "kernel").glob("test_*.py")
)
FUZZ = "tests/kernel/test_fuzz.py"
BOUNDARY = "tests/kernel/test_boundary.py"
SHORT = "BOURRE_SANITIZE_SHORT"
"""Set (to 1): only the boundary's tests and the short fuzz (a few minutes: CI's run)."""


def runtime(name: str) -> str | None:
    """The compiler's runtime library ``name`` (a path), or ``None`` if it has none."""
    cxx = os.environ.get("CXX", "g++")
    if shutil.which(cxx) is None:
        return None
    got = subprocess.run([cxx, f"-print-file-name={name}"], capture_output=True, text=True)
    path = got.stdout.strip()
    return path if got.returncode == 0 and os.path.isabs(path) and Path(path).exists() else None


def installed_kernel() -> Path | None:
    """The kernel extension installed in this environment (not imported: a sanitized
    build aborts when loaded without its runtime)."""
    for where in {sysconfig.get_paths()["platlib"], sysconfig.get_paths()["purelib"]}:
        found = sorted(Path(where, "bourre", "kernel").glob("_kernel*.so"))
        if found:
            return found[0]
    return None


def main(argv: list[str]) -> int:
    asan, ubsan = runtime("libasan.so"), runtime("libubsan.so")
    if asan is None or ubsan is None:
        print("sanitize: skipped: this compiler has no AddressSanitizer/UBSan runtime "
              "(libasan.so, libubsan.so)")  # fmt: skip
        return 0
    kernel = installed_kernel()
    if kernel is None or b"__asan_init" not in kernel.read_bytes():
        print(f"sanitize: the kernel was not built with the sanitizers ({kernel}): "
              "install with BOURRE_KERNEL_SANITIZE=1", file=sys.stderr)  # fmt: skip
        return 1
    env = dict(os.environ)
    env["LD_PRELOAD"] = " ".join(x for x in (asan, ubsan, env.get("LD_PRELOAD", "")) if x)
    env.setdefault("ASAN_OPTIONS", "detect_leaks=0")
    env.setdefault("UBSAN_OPTIONS", "halt_on_error=1:print_stacktrace=1")
    report = Path(env.setdefault("BOURRE_FUZZ_REPORT", str(ROOT / ".tox" / "sanitize-fuzz.txt")))
    report.unlink(missing_ok=True)
    print(f"sanitize: {kernel.name} under {Path(asan).name} and {Path(ubsan).name}", flush=True)
    # --capture=sys: a report is written to the process's stderr, which pytest's default
    # capture would lose when the sanitizer ends the process
    pytest = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", "--capture=sys"]
    runs = [
        [*pytest, "-m", "not slow", *KERNEL_TESTS, *argv],  # (with the short fuzz)
        [*pytest, "-m", "slow", FUZZ, *argv],  # the long fuzz
    ]
    if os.environ.get(SHORT, "") not in ("", "0"):  # CI's short run: the boundary, the fuzz
        runs = [[*pytest, "-m", "not slow", BOUNDARY, FUZZ, *argv]]
        env["BOURRE_FUZZ_DERANDOMIZE"] = "1"  # (the same examples every run: CI proves the
        # corpus and a fixed sample; the full run explores new examples each time)
    code = found = 0
    for run in runs:
        if code:
            break
        with subprocess.Popen(run, env=env, cwd=ROOT, stderr=subprocess.PIPE, text=True) as p:
            assert p.stderr is not None
            for line in p.stderr:  # (echoed, and the sanitizers' reports counted)
                sys.stderr.write(line)
                found += "runtime error:" in line or "ERROR: AddressSanitizer" in line
        code = p.returncode
    if report.exists():
        print(
            "sanitize: kernel calls made by the fuzz:", *report.read_text().splitlines(), sep="\n  "
        )
    print(f"sanitize: {found} sanitizer report(s)")
    return code or (1 if found else 0)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
