"""Instructions per hand under callgrind: what a hand costs, free of the machine's noise.

    python bench/instructions.py [--sessions 50] [--bots random] [HOUSE]

Runs ``valgrind --tool=callgrind`` on a child Python that plays ``--sessions`` whole
sessions of HOUSE (default ``standard``) with ``--bots`` through the chunk of sessions a
``bourre compare`` worker runs (``run_chunk``, with its garbage-collector setting), and
on one that plays none; the difference over the hands played is the
instructions per hand (imports and warm-up cancel out), on the compiled or the pure
build.  The child runs with ``PYTHONHASHSEED=0``: string hashing moves the count by
about 1.5% from one run to the next otherwise.  On a compiled build it also lists the
engine's costliest functions (inclusive), so a change can be judged before and after on
any machine.
Needs valgrind (``apt-get install valgrind``); exit status 2 without it.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

CHILD = """
import sys
from bourre.sim.runs.sessions import parse_bots, run_chunk
from bourre.houses.house import House
house, bots, sessions = House.from_arg(sys.argv[1]).spec, parse_bots(sys.argv[2]), int(sys.argv[3])
run_chunk(house, bots, "warm-up", [0])
print("hands:", sum(s["hands"] for s in run_chunk(house, bots, "bench", list(range(sessions)))))
"""


def _callgrind(
    tmp: Path, house: str, bots: str, sessions: int, engine: str = "python"
) -> tuple[int, int, str]:
    """Hands played, instructions of the whole child, and callgrind's inclusive listing."""
    child, out = tmp / "child.py", tmp / f"callgrind.{sessions}.out"
    child.write_text(CHILD)
    cmd = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", sys.executable]
    # the same dictionary layouts each run; the engine that plays (compare's sessions
    # read BOURRE_ENGINE: the Python rules, or the compiled kernel)
    env = {**os.environ, "PYTHONHASHSEED": "0", "BOURRE_ENGINE": engine}
    run = subprocess.run(
        [*cmd, str(child), house, bots, str(sessions)],
        capture_output=True,
        text=True,
        check=False,
        env=env,
    )
    hands = re.search(r"hands: (\d+)", run.stdout)
    if run.returncode or hands is None:
        raise SystemExit(f"instructions: the run failed:\n{run.stderr[-2000:]}")
    notes = subprocess.run(
        ["callgrind_annotate", "--inclusive=yes", str(out)],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    total = re.search(r"^\s*([\d,]+) .*PROGRAM TOTALS", notes, re.M)
    assert total is not None, "callgrind_annotate printed no total"
    return int(hands.group(1)), int(total.group(1).replace(",", "")), notes


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("house", nargs="?", default="standard")
    ap.add_argument("--sessions", type=int, default=50)
    ap.add_argument("--bots", default="random")
    ap.add_argument("--top", type=int, default=25, help="compiled functions to list")
    ap.add_argument("--keep", type=Path, help="keep callgrind's output of the run here")
    ap.add_argument(
        "--engine",
        choices=["python", "kernel", "auto"],
        default="python",
        help="who plays the sessions: the Python rules (default) or the compiled kernel",
    )
    a = ap.parse_args(argv)
    if shutil.which("valgrind") is None or shutil.which("callgrind_annotate") is None:
        print("instructions: valgrind is not installed (apt-get install valgrind)", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        _, base, _ = _callgrind(Path(tmp), a.house, a.bots, 0, a.engine)
        n, total, notes = _callgrind(Path(tmp), a.house, a.bots, a.sessions, a.engine)
        if a.keep is not None:
            shutil.copy(Path(tmp) / f"callgrind.{a.sessions}.out", a.keep)
    per = (total - base) // max(n, 1)
    print(f"{a.house}, bots {a.bots}: {n} hands, {per:,} instructions per hand")
    print("(the whole run minus a run of no sessions: imports and warm-up are not counted)")
    rows = re.findall(r"^\s*([\d,]+) \([ \d.]+%\)\s+\S*:(CPyDef_\w+)", notes, re.M)
    seen: set[str] = set()
    for count, name in rows:  # compiled builds: the engine's own functions, inclusive
        if name in seen or name.endswith("_top_level__"):  # module imports
            continue
        seen.add(name)
        print(f"{int(count.replace(',', '')) // max(n, 1):>10,} per hand  {name[7:]}")
        if len(seen) >= a.top:
            break
    return 0


if __name__ == "__main__":
    sys.exit(main())
