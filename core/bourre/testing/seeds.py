"""The kit's seed: a fresh one each run, or the one given back to reproduce a run.

Each run draws a fresh seed, so the decks, the bots' choices and the sessions differ
from one run to the next and a plugin cannot pass by recognising the kit's deals; a
failure prints the seed, and :func:`run_seed` takes it back.
"""

from __future__ import annotations

import os
import secrets

SEED_VARIABLE = "BOURRE_TESTING_SEED"
"""The environment variable that fixes the kit's seed (to reproduce a failed run)."""


def run_seed(seed: str | None = None) -> str:
    """The seed of a run: ``seed`` if given, else :data:`SEED_VARIABLE` if set, else
    a fresh unpredictable one (``bourre.testing:`` and 16 hex digits)."""
    if seed is not None:
        return str(seed)
    given = os.environ.get(SEED_VARIABLE, "").strip()
    return given or f"bourre.testing:{secrets.token_hex(8)}"
