"""The garbage collector during runs of sessions (bourre.sim.runs.collector)."""

from __future__ import annotations

import gc
import weakref

from bourre.sim.runs.collector import YOUNG, for_sessions
from bourre.sim.runs.sessions import parse_bots, run_chunk


class _Node:
    def __init__(self) -> None:
        self.other: _Node | None = None


def test_young_collections_are_rarer_within_and_restored_after() -> None:
    before = gc.get_threshold()
    try:
        gc.set_threshold(700, 10, 10)
        with for_sessions():
            assert gc.get_threshold() == (YOUNG, 10, 10)
        assert gc.get_threshold() == (700, 10, 10)
        gc.set_threshold(50_000, 5, 5)  # a caller's own, higher setting stays
        with for_sessions():
            assert gc.get_threshold() == (50_000, 5, 5)
        assert gc.get_threshold() == (50_000, 5, 5)
    finally:
        gc.set_threshold(*before)
        gc.unfreeze()


def test_cycles_made_within_are_still_collected() -> None:
    try:
        with for_sessions():
            a, b = _Node(), _Node()
            a.other, b.other = b, a
            ref = weakref.ref(a)
            del a, b
            for _ in range(3 * YOUNG):  # enough new containers for a young collection
                _Node()
            [[] for _ in range(3 * YOUNG)]
            assert ref() is None
    finally:
        gc.unfreeze()


def test_a_chunk_of_sessions_leaves_the_thresholds_as_they_were() -> None:
    before = gc.get_threshold()
    try:
        out = run_chunk("standard", parse_bots("random"), "gc", [0, 1])
        assert len(out) == 2 and all(s["hands"] > 0 for s in out)
        assert gc.get_threshold() == before
    finally:
        gc.unfreeze()
