"""What every bench script does at its end: the seconds it took, and its figures
written as JSON where ``--json`` asks (the files under ``bench/results``)."""

from __future__ import annotations

import json
import time
from typing import Any


def finish(out: dict[str, Any], t0: float, path: str | None) -> int:
    """Note and print the seconds since ``t0``, write ``out`` to ``path`` (if given)
    and answer the exit status 0."""
    out["seconds"] = round(time.perf_counter() - t0, 1)
    print(f"\n({out['seconds']} s)")
    if path:
        with open(path, "w", encoding="utf-8") as f:
            json.dump(out, f, indent=1)
    return 0
