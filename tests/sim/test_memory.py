"""A comparison's memory does not grow with its sessions (issue 28, item 6): the run
keeps which sessions completed, the summaries stay in the state file, and the
statistics are folded as they stream by (:mod:`bourre.sim.stats.folding`) to the same
numbers, to the last bit, as the in-memory ones over every summary."""

from __future__ import annotations

import json
import math
import random
import subprocess
import sys
import textwrap
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from bourre.sim.runs import runner as R
from bourre.sim.runs.run import Done
from bourre.sim.runs.statefile import load_state, scan_state
from bourre.sim.stats.folding import ExactSum, MeanFold, QuantileFold, RatioFold
from bourre.sim.stats.intervals import ci_mean, ci_quantile, ci_ratio
from bourre.sim.stats.metrics import (
    compute,
    hands_per_second,
    house_metrics,
    paired,
    scalar_values,
    without_timing,
)

HOUSES = ["standard", "standard+pot-limit(limit=5)", "standard+four-card"]
BOTS = R.parse_bots("heuristic,random,heuristic,random,random")


def config(sessions: int = 10, houses: list[str] | None = None) -> R.RunConfig:
    return R.RunConfig(houses or HOUSES, sessions, "m", BOTS, rotate=True)


def reference(result: Any, below: float | Sequence[float] = 50.0) -> dict[str, Any]:
    """The statistics over every summary at once, in memory (compute before it streamed)."""
    cfg = result.config
    one = isinstance(below, int | float)
    belows = [float(below)] * len(cfg.houses) if isinstance(below, int | float) else list(below)
    houses = []
    first: Any = None
    for spec, b in zip(cfg.houses, belows, strict=True):
        ss = result.ordered(spec)
        values = scalar_values(ss, b)
        entry: dict[str, Any] = {"house": spec, **house_metrics(ss, b, values)}
        if first is None:
            first = ss, values
            entry["vs_first"] = None
        else:
            entry["vs_first"] = paired(first[0], ss, b, belows[0], (first[1], values))
        houses.append(entry)
    return {
        "format": "bourre-compare",
        "version": 1,
        "complete": result.complete,
        "stopped": result.stopped,
        "sessions_planned": cfg.sessions,
        "sessions_completed": min((len(result.ordered(h)) for h in cfg.houses), default=0),
        "seed": cfg.seed,
        "bots": [b.label for b in cfg.bots],
        "rotate": cfg.rotate,
        "below": below if one else belows,
        "houses": houses,
    }


# -- the folds equal the intervals over every value -------------------------------------


def _floats(rng: random.Random, n: int) -> list[float]:
    return [rng.choice([1e16, 1.0, 1e-16, 3.7]) * rng.uniform(-1, 1) for _ in range(n)]


@pytest.mark.parametrize("n", [0, 1, 5, 255, 256, 5000])
def test_exact_sum_is_fsum_in_any_order(n: int) -> None:
    rng = random.Random(n)
    xs = _floats(rng, n)
    for _ in range(3):
        acc = ExactSum()
        for x in xs:
            acc.add(x)
        assert acc.total() == math.fsum(xs)
        rng.shuffle(xs)


def _two_passes(acc: Any, items: list[Any], add: Any) -> None:
    for it in items:
        add(acc, it)
    acc.turn()
    for it in reversed(items):  # the second pass in another order: the same numbers
        add(acc, it)


@pytest.mark.parametrize("n", [0, 1, 2, 3, 100, 3000])
def test_mean_and_ratio_folds_equal_the_intervals(n: int) -> None:
    rng = random.Random(n + 1)
    xs = _floats(rng, n)
    m = MeanFold()
    _two_passes(m, xs, lambda a, x: a.add(x))
    assert m.interval() == ci_mean(xs)
    num = [float(rng.randint(0, 9)) for _ in range(n)]
    den = [float(rng.randint(0, 12)) for _ in range(n)]
    r = RatioFold()
    _two_passes(r, list(zip(num, den, strict=True)), lambda a, p: a.add(*p))
    assert r.interval() == ci_ratio(num, den)


@pytest.mark.parametrize("n", [0, 1, 2, 40, 400])
def test_quantile_fold_equals_the_interval(n: int) -> None:
    rng = random.Random(n + 2)
    groups = [[float(rng.choice([2, 4, 6, 8, 12, 30])) for _ in range(rng.randint(0, 12))]]
    groups += [
        [float(rng.choice([2, 4, 6, 8, 12, 30])) for _ in range(rng.randint(0, 12))]
        for _ in range(n - 1)
    ]
    groups = groups[:n]
    q = QuantileFold((0.5, 0.99, 0.1))
    _two_passes(q, groups, lambda a, g: a.add(g))
    for k, p in enumerate(q.ps):
        assert q.interval(k) == ci_quantile(groups, p)
    assert q.maximum() == max((x for g in groups for x in g), default=None)


def test_done_is_a_set_of_indices() -> None:
    d = Done([3, 0, 17])
    assert not d.add(3) and d.add(1000) and len(d) == 4
    assert list(d) == [0, 3, 17, 1000] and 17 in d and 2 not in d and -1 not in d


# -- a run streams: the same numbers as over every summary ------------------------------


@pytest.fixture(scope="module")
def streamed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Any, Path]:
    state = tmp_path_factory.mktemp("memory") / "s.jsonl"
    res = R.run(config(), workers=1, chunk=3, state=state)
    assert res.complete and res.done is not None and not any(res.summaries.values())
    return res, state


def test_a_streamed_run_keeps_no_summary_and_gives_the_same_numbers(
    streamed: tuple[Any, Path],
) -> None:
    res, _ = streamed
    memory = R.run(config(), workers=1, chunk=3)
    assert memory.done is None and all(len(memory.summaries[h]) == 10 for h in HOUSES)
    want = reference(memory)
    assert without_timing(compute(memory)) == want
    assert without_timing(compute(res)) == want
    assert without_timing(compute(res, [40.0, 60.0, 50.0])) == reference(res, [40.0, 60.0, 50.0])
    got = compute(res)["timing"]
    for h in HOUSES:
        assert got["hands_per_second"][h] == hands_per_second(res.ordered(h))
        assert got["engines"][h] == sorted({str(s["engine"]) for s in res.ordered(h)})


def test_the_order_of_the_state_file_does_not_matter(
    streamed: tuple[Any, Path], tmp_path: Path
) -> None:
    """Sessions far from their pairs (the buffer of paired sessions then holds them)
    and in reverse order: the same numbers, to the last bit."""
    res, state = streamed
    lines = state.read_text().splitlines(keepends=True)
    moved = tmp_path / "moved.jsonl"
    moved.write_text(lines[0] + "".join(reversed(lines[1:])))
    other = R.RunResult(res.config, {h: {} for h in HOUSES}, state=moved, done=res.done)
    assert without_timing(compute(other)) == without_timing(compute(res))


def test_resume_streams_to_the_same_numbers(streamed: tuple[Any, Path], tmp_path: Path) -> None:
    res, _ = streamed
    state = tmp_path / "part.jsonl"
    part = R.run(config(4), workers=1, state=state)
    resumed = scan_state(state)
    assert {h: len(d) for h, d in resumed.items()} == {h: 4 for h in HOUSES}
    assert load_state(state)[0] == resumed.header
    full = R.run(config(), workers=2, chunk=2, state=state, resume=resumed)
    assert full.complete and part.completed() == 12 and full.completed() == 30
    assert without_timing(compute(full)) == without_timing(compute(res))
    # to another state file: the resumed sessions are copied there
    other = tmp_path / "other.jsonl"
    again = R.run(config(), workers=1, state=other, resume=scan_state(state))
    assert again.completed() == 30 and without_timing(compute(again)) == without_timing(
        compute(res)
    )
    # without a state file: in memory
    mem = R.run(config(), workers=1, resume=scan_state(state))
    assert mem.done is None and without_timing(compute(mem)) == without_timing(compute(res))


# -- the memory does not grow with the sessions -----------------------------------------

_PEAK = textwrap.dedent(
    """
    import json, sys, tempfile, tracemalloc
    from pathlib import Path
    from bourre.houses.house import House
    from bourre.sim.runs import runner as R
    from bourre.sim.stats.metrics import compute
    n = int(sys.argv[1])
    houses = [House("standard").spec, House("standard+double-ante").spec]
    with tempfile.TemporaryDirectory() as d:
        tracemalloc.start()
        res = R.run(R.RunConfig(houses, n, "0"), workers=1, state=Path(d) / "s.jsonl")
        m = compute(res)
        peak = tracemalloc.get_traced_memory()[1]
    assert m["sessions_completed"] == n
    print(json.dumps({"peak": peak}))
    """
)


def _peak(n: int) -> int:
    out = subprocess.run(
        [sys.executable, "-c", _PEAK, str(n)], capture_output=True, text=True, check=True
    )
    return int(json.loads(out.stdout.strip().splitlines()[-1])["peak"])


@pytest.mark.speed
def test_memory_does_not_grow_with_sessions() -> None:
    """The peak of Python's allocations for N and 4N sessions of two houses: keeping
    the summaries grew it by about 5 kB a session (3N·2 houses·5 kB = 12 MB here);
    the streamed run grows it by a bitmap and a few buffers."""
    n = 400
    small, large = _peak(n), _peak(4 * n)
    linear = 3 * n * 2 * 5000
    assert large - small < linear / 10, (small, large)
