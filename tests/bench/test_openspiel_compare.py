"""``bench/openspiel_compare.py`` runs and reports a ratio (no timing assertions)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "bench" / "openspiel_compare.py"


def test_openspiel_compare_runs():
    pytest.importorskip(
        "pyspiel", reason="open_spiel (pyspiel) is not installed: nothing to compare with"
    )
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "--seconds", "0.2", "--rounds", "1"],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    last = done.stdout.strip().splitlines()[-1]
    m = re.fullmatch(r"ratio: (\d+(?:\.\d+)?)", last)
    assert m, f"last line is not 'ratio: <float>': {last!r}"
    assert float(m.group(1)) > 0


def test_montecarlo_rate_runs_and_counts_decisions():
    script = SCRIPT.parent / "montecarlo_rate.py"
    done = subprocess.run(
        [sys.executable, str(script), "--seconds", "0.2"],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    first, last = done.stdout.strip().splitlines()
    assert int(first.split()[0]) > 0  # decisions were timed
    m = re.fullmatch(r"decisions/s: (\d+)", last)
    assert m and int(m.group(1)) > 0, last
