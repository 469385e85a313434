"""How long runs of sessions treat Python's garbage collector (:func:`for_sessions`).

A hand makes and frees many small containers (lists of cards, tuples of plays, an
observation per question).  None of them forms a reference cycle that outlives its
hand, yet with the collector's default threshold (a young collection every 700 new
containers) the cycle collector walks the live ones again and again: 8.8% of the
instructions of a hand with heuristic bots (callgrind, standard profile).  For the
length of a run the loaded heap (modules, the house, plugins) is frozen out of the
collector's reach and young collections come every :data:`YOUNG` containers.  Cycles
are still collected, only less often; the thresholds are restored afterwards.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["YOUNG", "for_sessions"]

YOUNG = 20_000
"""New containers between two young collections during a run (Python's default: 700)."""


@contextmanager
def for_sessions() -> Iterator[None]:
    """Within: the loaded heap frozen and young collections every :data:`YOUNG`
    containers (never fewer than the caller's own setting); after: the caller's
    thresholds again (what was frozen stays frozen: it was loaded to stay)."""
    old = gc.get_threshold()
    gc.freeze()
    gc.set_threshold(max(old[0], YOUNG), *old[1:])
    try:
        yield
    finally:
        gc.set_threshold(*old)
