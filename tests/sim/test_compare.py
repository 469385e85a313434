"""Comparing houses by simulation: the same numbers for any worker count, chunking
and backend; interruptions keep completed sessions and --resume finishes to the same
numbers; JSON, CSV and figures are written; bad input exits 2."""

from __future__ import annotations

import csv
import json
import math
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from bourre.cli import app
from bourre.sim.runs import runner as R
from bourre.sim.runs.statefile import check_resume
from bourre.sim.stats.metrics import ci_mean, ci_median, ci_ratio, compute, without_timing

HOUSES = ["standard", "standard+pot-limit(limit=5)", "standard+four-card"]
BOTS = R.parse_bots("heuristic,random,heuristic,random,random")


def config(sessions: int = 8, houses: list[str] | None = None) -> R.RunConfig:
    return R.RunConfig(houses or HOUSES, sessions, "t", BOTS, rotate=True)


@pytest.fixture(scope="module")
def reference() -> dict[str, Any]:
    """The uninterrupted run in process, one session per task."""
    res = R.run(config(), workers=1, chunk=1)
    assert res.complete and res.completed() == 8 * len(HOUSES)
    return without_timing(compute(res))


# -- determinism ------------------------------------------------------------------------


@pytest.mark.parametrize(("workers", "chunk"), [(1, 3), (1, 8), (2, 1), (2, 3), (2, None)])
def test_same_numbers_for_any_workers_and_chunks(
    reference: dict[str, Any], workers: int, chunk: int | None
) -> None:
    res = R.run(config(), workers=workers, chunk=chunk)
    assert res.complete
    assert without_timing(compute(res)) == reference


def test_dask_backend_gives_the_same_numbers(reference: dict[str, Any], local_cluster: Any) -> None:
    import distributed

    res = R.run(config(), scheduler=local_cluster.scheduler_address, chunk=2)
    assert res.complete
    assert without_timing(compute(res)) == reference
    with distributed.Client(local_cluster) as client:
        res = R.run(config(), scheduler=client, chunk=5)
        assert without_timing(compute(res)) == reference


def test_common_random_numbers() -> None:
    """Session i of every house plays the decks of seed 'SEED:i'."""
    res = R.run(config(3), workers=1)
    for h in HOUSES:
        assert [s["seed"] for s in res.ordered(h)] == ["t:0", "t:1", "t:2"]
    a, b = res.ordered(HOUSES[0]), res.ordered(HOUSES[1])
    assert a[0]["pot"][0] == b[0]["pot"][0] == 5  # the first pot, same table
    # seats rotate: each bot at each seat over the sessions
    assert a[1]["bots"] == [b.label for b in BOTS[-1:] + BOTS[:-1]]


# -- interruption and resume --------------------------------------------------------------


class Stop:
    def __init__(self, after: int) -> None:
        self.after = after

    def __call__(self, done: int, total: int) -> None:
        if done >= self.after:
            raise KeyboardInterrupt


@pytest.mark.parametrize("workers", [1, 2])
def test_interrupt_keeps_completed_sessions_and_resume_finishes(
    tmp_path: Path, reference: dict[str, Any], workers: int
) -> None:
    state = tmp_path / "state.jsonl"
    part = R.run(config(), workers=workers, chunk=1, progress=Stop(5), state=state)
    assert not part.complete and part.stopped == "interrupted"
    assert 5 <= part.completed() < 8 * len(HOUSES)
    m = compute(part)
    assert m["complete"] is False and m["stopped"] == "interrupted"
    assert sum(h["sessions"] for h in m["houses"]) == part.completed()
    # every completed session is in the state file, identical to the reference run's
    header, done = R.load_state(state)
    assert header["seed"] == "t" and sum(len(d) for d in done.values()) == part.completed()
    full = R.run(config(), workers=1, chunk=1)
    for h, d in done.items():
        for i, s in d.items():
            assert {k: v for k, v in s.items() if k != "seconds"} == {
                k: v for k, v in full.summaries[h][i].items() if k != "seconds"
            }
    # resume (appending to the same file) to the same final numbers
    check_resume(config(), header, state)
    res = R.run(config(), workers=workers, resume=done, state=state)
    assert res.complete
    assert without_timing(compute(res)) == reference
    _, again = R.load_state(state)
    assert sum(len(d) for d in again.values()) == 8 * len(HOUSES)


class Signal:
    """A progress callback that sends this process ``sig`` once, as a terminal's Ctrl-C
    (or a stop by SIGTERM) arrives: at any moment, here between two batches."""

    def __init__(self, sig: int, after: int) -> None:
        self.sig, self.after, self.sent = sig, after, 0

    def __call__(self, done: int, total: int) -> None:
        if done >= self.after and not self.sent:
            self.sent += 1
            os.kill(os.getpid(), self.sig)


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_a_pool_takes_a_signal_between_its_waits_and_restores_the_handlers(
    tmp_path: Path, sig: int
) -> None:
    """On a pool, a stop signal only raises a flag that the loop reads between its waits
    (an exception inside the executor's own locks could hang the process at exit): the
    run stops as after Ctrl-C, keeping what was done, and the handlers are the
    caller's again afterwards."""

    def stop(signum: int, frame: object) -> None:  # (the command's stop_on_signals)
        raise KeyboardInterrupt

    before = signal.getsignal(signal.SIGINT)
    saved = signal.signal(signal.SIGTERM, stop)
    try:
        part = R.run(
            config(), workers=2, chunk=1, progress=Signal(sig, 5), state=tmp_path / "s.jsonl"
        )
        assert not part.complete and part.stopped == "interrupted"
        assert 5 <= part.completed() < 8 * len(HOUSES)
        assert signal.getsignal(signal.SIGINT) is before
        assert signal.getsignal(signal.SIGTERM) is stop
    finally:
        signal.signal(signal.SIGTERM, saved)


def test_a_second_ctrl_c_interrupts_at_once_and_an_ignored_one_stays_ignored() -> None:
    """The pool's Ctrl-C flag (``backends._CtrlC``): the first press only raises the
    flag, the second raises ``KeyboardInterrupt`` where the program stands (a run that
    will not stop can still be left); a signal ignored before (a background job's
    Ctrl-C) is not taken over; the handlers are restored after."""
    from bourre.sim.runs.backends import _CtrlC

    before = signal.getsignal(signal.SIGINT)
    with _CtrlC() as flag:
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(0.05)  # (the handler runs between two bytecodes)
        assert flag.pressed
        with pytest.raises(KeyboardInterrupt):
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(1)
    assert signal.getsignal(signal.SIGINT) is before
    saved = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        with _CtrlC() as flag:
            assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(0.05)
            assert not flag.pressed
    finally:
        signal.signal(signal.SIGINT, saved)


def failing_chunk(
    house: str, bots: Any, seed: str, indices: list[int], rotate: bool
) -> list[dict[str, Any]]:
    if 5 in indices and "pot-limit" in house:
        raise RuntimeError("worker exploded")
    return R.run_chunk(house, bots, seed, indices, rotate)


@pytest.mark.parametrize("workers", [1, 2])
def test_failed_worker_keeps_completed_sessions(
    tmp_path: Path, reference: dict[str, Any], workers: int
) -> None:
    state = tmp_path / "s.jsonl"
    part = R.run(config(), workers=workers, chunk=1, state=state, task=failing_chunk)
    assert not part.complete and part.stopped is not None and "worker exploded" in part.stopped
    assert part.completed() >= 1
    _, done = R.load_state(state)
    assert sum(len(d) for d in done.values()) == part.completed()
    res = R.run(config(), workers=workers, resume=done)
    assert without_timing(compute(res)) == reference


def test_resume_into_another_state_file(tmp_path: Path, reference: dict[str, Any]) -> None:
    first, second = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    R.run(config(), workers=1, chunk=1, progress=Stop(4), state=first)
    _, done = R.load_state(first)
    res = R.run(config(), workers=2, resume=done, state=second)
    assert without_timing(compute(res)) == reference
    header, again = R.load_state(second)
    assert header == config().header() and sum(len(d) for d in again.values()) == 8 * len(HOUSES)


def test_state_file_of_another_run_is_refused(tmp_path: Path) -> None:
    state = tmp_path / "s.jsonl"
    R.run(config(2), workers=1, state=state)
    header, _ = R.load_state(state)
    other = R.RunConfig(HOUSES, 2, "other-seed", BOTS, rotate=True)
    with pytest.raises(R.StateError, match="seed"):
        check_resume(other, header, state)
    # a line cut short at the end (a crash while writing) is ignored
    with state.open("a") as f:
        f.write('{"house": "standard", "summ')
    _, done = R.load_state(state)
    assert sum(len(d) for d in done.values()) == 2 * len(HOUSES)


# -- statistics -----------------------------------------------------------------------


def test_intervals() -> None:
    iv = ci_mean([1.0, 2.0, 3.0, 4.0])
    assert iv["mean"] == 2.5 and iv["lo"] < 2.5 < iv["hi"] and iv["n"] == 4
    assert ci_mean([3.0])["lo"] is None and ci_mean([])["mean"] is None
    r = ci_ratio([1, 2, 3], [2, 4, 6])
    assert r["mean"] == 0.5 and r["lo"] == pytest.approx(0.5)
    med = ci_median(list(range(101)))
    assert med["mean"] == 50 and med["lo"] < 50 < med["hi"]


def test_metrics_content(reference: dict[str, Any]) -> None:
    first, second, third = reference["houses"]
    assert first["vs_first"] is None and second["vs_first"]["pot_mean"]["n"] == 8
    for key in (
        "pot_mean",
        "pot_median",
        "playing",
        "bourre",
        "bourre_hands",
        "carried",
        "cinch",
        "spread",
        "below",
        "dealer",
    ):
        assert first[key]["mean"] is not None, key
    assert first["pot_max"] >= first["pot_median"]["mean"]
    assert len(first["seat"]) == 5 and len(first["position"]) == 5
    assert len(first["pot_by_hand"]) == 12 and first["pot_by_hand"][0]["mean"] == 5
    assert set(first["bots"]) == {"heuristic", "random"}
    assert 0 <= first["playing"]["mean"] <= 1
    # pot-limit caps the bourré payments: its pots are not larger
    assert second["pot_mean"]["mean"] <= first["pot_mean"]["mean"]
    assert third["players"] == 5


def test_per_session_values_made_once_give_the_same_numbers() -> None:
    """compute() makes each house's per-session values once (with its ``below``) and
    shares them; the functions given no values, or values made without ``below``,
    give the same numbers."""
    from bourre.sim.stats.metrics import house_metrics, paired, scalar_values

    res = R.run(config(6, HOUSES[:2]), workers=1)
    a, b = (res.ordered(h) for h in HOUSES[:2])
    got = without_timing(compute(res, [90.0, 110.0]))["houses"]
    for below, ss, entry in ((90.0, a, got[0]), (110.0, b, got[1])):
        direct = house_metrics(ss, below)
        assert {k: entry[k] for k in direct} == direct
        assert house_metrics(ss, below, scalar_values(ss)) == direct  # no "below" in them
        assert house_metrics(ss, below, scalar_values(ss, below)) == direct
    assert got[1]["vs_first"] == paired(a, b, 110.0, 90.0)
    assert paired(a, b, 110.0, 90.0, (scalar_values(a), scalar_values(b))) == got[1]["vs_first"]
    assert paired(a, b, 110.0, 90.0)["below"] != paired(a, b, 110.0, 110.0)["below"]


# -- outputs -------------------------------------------------------------------------------


def test_json_csv_and_plots_are_written(tmp_path: Path) -> None:
    from bourre.sim.reports.files import write_csv, write_json
    from bourre.sim.reports.plots import plot

    res = R.run(config(4), workers=1)
    m = compute(res)
    write_json(m, tmp_path / "m.json")
    write_csv(m, tmp_path / "m.csv")
    files = plot(res, m, tmp_path / "fig")
    data = json.loads((tmp_path / "m.json").read_text())
    assert data["complete"] and [h["house"] for h in data["houses"]] == HOUSES
    rows = list(csv.DictReader((tmp_path / "m.csv").open()))
    assert {"house", "metric", "index", "mean", "lo", "hi", "n"} <= set(rows[0])
    assert any(r["metric"] == "diff_vs_first:pot_mean" for r in rows)
    names = {p.name for p in files}
    for stem in ("pot_chance", "pot_growth", "balance_path", "balance_spread", "money_by_place"):
        for ext in ("png", "svg"):
            assert f"{stem}.{ext}" in names
            assert (tmp_path / "fig" / f"{stem}.{ext}").stat().st_size > 1000


# -- the command line --------------------------------------------------------------------------

cli = CliRunner()


def invoke(*args: str) -> Any:
    return cli.invoke(app, list(args))


def test_cli_compare_writes_outputs(tmp_path: Path) -> None:
    r = invoke(
        "compare",
        "standard",
        "pot-limit(limit=5)",
        "--sessions",
        "3",
        "--workers",
        "1",
        "--bots",
        "heuristic,random,random,random,random",
        "--rotate",
        "--json",
        str(tmp_path / "o.json"),
        "--csv",
        str(tmp_path / "o.csv"),
        "--plot",
        str(tmp_path / "plots"),
        "--state",
        str(tmp_path / "s.jsonl"),
        "--no-progress",
    )
    assert r.exit_code == 0, r.stderr
    assert "Pots, in chips" in r.stdout and "pot-limit" in r.stdout
    assert json.loads((tmp_path / "o.json").read_text())["sessions_completed"] == 3
    assert (tmp_path / "o.csv").exists() and (tmp_path / "plots" / "money_by_place.svg").exists()
    assert len((tmp_path / "s.jsonl").read_text().splitlines()) == 1 + 2 * 3


def test_cli_scheduler(tmp_path: Path, local_cluster: Any) -> None:
    args = ["simulate", "standard", "--sessions", "4", "--seed", "d", "--no-progress"]
    address = local_cluster.scheduler_address
    r = invoke(*args, "--scheduler", address, "--json", str(tmp_path / "d.json"))
    assert r.exit_code == 0, r.stderr
    r = invoke(*args, "--workers", "1", "--json", str(tmp_path / "p.json"))
    assert r.exit_code == 0, r.stderr
    a, b = (json.loads((tmp_path / n).read_text()) for n in ("d.json", "p.json"))
    assert without_timing(a) == without_timing(b)


def test_cli_simulate(tmp_path: Path) -> None:
    r = invoke(
        "simulate",
        "four-card",
        "--sessions",
        "2",
        "--workers",
        "1",
        "--seed",
        "x",
        "--no-progress",
        "--json",
        str(tmp_path / "o.json"),
    )
    assert r.exit_code == 0, r.stderr
    data = json.loads((tmp_path / "o.json").read_text())
    assert data["seed"] == "x" and data["houses"][0]["house"] == "standard+four-card"


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["compare", "standard", "no-such-variant"], ["no-such-variant"]),
        (["simulate", "standard", "--bots", "nobody"], ["unknown bot", "nobody"]),
        (["simulate", "standard", "--bots", "heuristic,random"], ["2 bots", "5 players"]),
        (["simulate", "standard", "--bots", "montecarlo(budget=0)"], ["budget"]),
        (["simulate", "standard", "--bots", "montecarlo(budget"], ["unbalanced"]),
        (["simulate", "standard", "--sessions", "0"], ["--sessions"]),
        (["simulate", "standard", "--workers", "0"], ["--workers"]),
        (["simulate", "standard", "--chunk", "0"], ["--chunk"]),
        (["compare", "standard"], ["two or more"]),
        (["compare", "standard", "standard"], ["twice"]),
        (
            ["simulate", "standard", "--resume", "/nonexistent/state.jsonl"],
            ["--resume", "no such state file"],
        ),
        (
            ["simulate", "standard", "--scheduler", "tcp://127.0.0.1:1", "--workers", "2"],
            ["exclude"],
        ),
        (["simulate", "standard", "--below", "x"], ["below"]),
        (["bench", "--bots", "nobody"], ["unknown bot"]),
    ],
)
def test_cli_bad_input_exits_2(args: list[str], words: list[str]) -> None:
    r = invoke(*args, "--no-progress") if args[0] != "bench" else invoke(*args)
    assert r.exit_code == 2, (r.stdout, r.stderr)
    assert r.stdout == ""
    for w in words:
        assert w in r.stderr


def test_cli_resume_of_another_run_exits_2(tmp_path: Path) -> None:
    state = tmp_path / "s.jsonl"
    assert (
        invoke(
            "simulate",
            "standard",
            "--sessions",
            "1",
            "--workers",
            "1",
            "--state",
            str(state),
            "--no-progress",
        ).exit_code
        == 0
    )
    r = invoke("simulate", "four-card", "--resume", str(state), "--no-progress")
    assert r.exit_code == 2 and "another run" in r.stderr
    state.write_text("not json\n")
    r = invoke("simulate", "standard", "--resume", str(state), "--no-progress")
    assert r.exit_code == 2 and "--resume" in r.stderr


def _ctrl_c_default() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _signal_dispositions() -> tuple[bool, bool]:
    return (
        signal.getsignal(signal.SIGTERM) == signal.SIG_DFL,
        signal.getsignal(signal.SIGINT) == signal.SIG_IGN,
    )


def test_workers_do_not_inherit_the_parents_stop_handlers() -> None:
    """The parent turns SIGTERM into a stop of the run; a forked worker must not: it
    would raise inside its result queue's lock and hang the pool it is ending."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    from bourre.sim.runs.sessions import worker_init

    def stop(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    saved = signal.signal(signal.SIGTERM, stop)
    try:
        ctx = multiprocessing.get_context("fork")
        with ProcessPoolExecutor(1, mp_context=ctx, initializer=worker_init) as ex:
            assert ex.submit(_signal_dispositions).result(timeout=30) == (True, True)
    finally:
        signal.signal(signal.SIGTERM, saved)


def test_cli_ctrl_c_writes_partial_summary_and_resumes(tmp_path: Path) -> None:
    """A real SIGINT to `bourre compare`: exit 130, the partial JSON says what it
    covers, the state file resumes to the numbers of an uninterrupted run."""
    state, part, full, ref = (
        tmp_path / n for n in ("s.jsonl", "part.json", "full.json", "ref.json")
    )
    args = [
        "compare",
        "standard",
        "pot-limit(limit=5)",
        "--seed",
        "c",
        "--chunk",
        "1",
        "--no-progress",
    ]
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "bourre.cli",
            *args,
            "--workers",
            "2",
            "--sessions",
            "100000",
            "--state",
            str(state),
            "--json",
            str(part),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        # a shell's background job inherits Ctrl-C ignored, and Python keeps it so:
        # the child gets the default, as at a terminal
        preexec_fn=_ctrl_c_default,
    )
    deadline = time.time() + 60
    while time.time() < deadline:
        if state.exists() and len(state.read_text().splitlines()) >= 6:
            break
        time.sleep(0.1)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert "PARTIAL" in err and f"--resume {state}" in err
    m = json.loads(part.read_text())
    assert m["complete"] is False and m["stopped"] == "interrupted"
    assert sum(h["sessions"] for h in m["houses"]) >= 5
    n = max(h["sessions"] for h in m["houses"]) + 2
    r = invoke(
        *args, "--workers", "2", "--sessions", str(n), "--resume", str(state), "--json", str(full)
    )
    assert r.exit_code == 0, r.stderr
    r = invoke(*args, "--workers", "1", "--sessions", str(n), "--json", str(ref))
    assert r.exit_code == 0, r.stderr
    a, b = json.loads(full.read_text()), json.loads(ref.read_text())
    assert a["complete"] and without_timing(a) == without_timing(b)


def test_bench_bots_and_parallel() -> None:
    r = invoke("bench", "--bots", "heuristic", "--seconds", "0.2")
    assert r.exit_code == 0, r.stderr
    last = r.stdout.strip().splitlines()[-1]
    assert last.startswith("hands/s: ") and int(last.split()[1]) > 0
    r = invoke("bench", "--bots", "heuristic", "--seconds", "0.3", "--parallel")
    assert r.exit_code == 0, r.stderr
    assert "speed-up" in r.stdout and r.stdout.strip().splitlines()[-1].startswith("hands/s: ")


def test_a_torn_state_file_resumes_twice(tmp_path):
    """kill -9 mid-line: the resume cuts the torn line before appending, so a second
    resume still reads the file; a line edited by hand is refused."""
    from bourre.sim.runs import runner

    state = tmp_path / "s.jsonl"
    config = runner.RunConfig(["standard"], 6, "torn", runner.parse_bots("random"), False)
    runner.run(config, state=state)
    text = state.read_text()
    state.write_text(text[: len(text) - 25])  # cut mid-line
    _, done = runner.load_state(state)
    runner.run(config, state=state, resume=done)
    _, done = runner.load_state(state)
    assert sorted(done["standard"]) == list(range(6))
    runner.run(config, state=state, resume=done)
    assert sorted(runner.load_state(state)[1]["standard"]) == list(range(6))
    lines = state.read_text().splitlines()
    lines[2] = (
        lines[2].replace('"i": 1', '"i": 5', 1)
        if '"i": 1' in lines[2]
        else lines[2].replace("1", "2", 1)
    )
    state.write_text("\n".join(lines) + "\n")
    with pytest.raises(runner.StateError, match="line 3 does not match its digest"):
        runner.load_state(state)


@pytest.mark.parametrize(
    "option",
    ["--json", "--csv", "--state", "--report"],
)
def test_outputs_are_checked_before_the_run(tmp_path, option):
    missing = tmp_path / "no" / "such" / "out.json"
    r = CliRunner().invoke(
        app, ["simulate", "standard", "--sessions", "2", "--bots", "random", option, str(missing)]
    )
    assert r.exit_code == 2 and "does not exist" in r.stderr
    r = CliRunner().invoke(
        app, ["simulate", "standard", "--sessions", "2", "--bots", "random", option, str(tmp_path)]
    )
    assert r.exit_code == 2 and "a folder" in r.stderr


def test_sigterm_keeps_the_completed_sessions(tmp_path):
    """SIGTERM stops a run like Ctrl-C: the partial summary and the state file."""
    import signal as sig
    import subprocess
    import time

    state = tmp_path / "s.jsonl"
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "bourre.cli",
            "simulate",
            "standard",
            "--bots",
            "random",
            "--sessions",
            "200000",
            "--workers",
            "1",
            "--chunk",
            "50",
            "--state",
            str(state),
            "--no-progress",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    for _ in range(200):
        time.sleep(0.05)
        if state.exists() and len(state.read_text().splitlines()) > 60:
            break
    proc.send_signal(sig.SIGTERM)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode in (1, 130), err
    assert "continue with --resume" in err
    assert len(state.read_text().splitlines()) > 50


def test_simulate_speaks_of_one_house_and_keeps_the_speed_apart():
    r = CliRunner().invoke(
        app, ["simulate", "standard", "--sessions", "3", "--bots", "random", "--no-progress"]
    )
    assert r.exit_code == 0
    assert "bourre simulate:" in r.stdout and "bourre compare" not in r.stdout
    assert "paired difference" not in r.stdout
    assert "hands/s (per core)" not in r.stdout  # not a row among the game's figures
    assert "Speed (hands per second, per core):" in r.stdout


def test_figures_name_houses_as_the_table_does(tmp_path):
    pytest.importorskip("matplotlib")
    import matplotlib

    matplotlib.rcParams["svg.fonttype"] = "none"  # keep the words as text
    try:
        r = CliRunner().invoke(
            app,
            [
                "compare",
                "standard",
                "double-ante",
                "--sessions",
                "4",
                "--bots",
                "random",
                "--no-progress",
                "--plot",
                str(tmp_path),
            ],
        )
    finally:
        matplotlib.rcParams["svg.fonttype"] = "path"
    assert r.exit_code == 0, r.stderr
    svgs = " ".join(p.read_text() for p in tmp_path.glob("*.svg"))
    assert "double-ante" in svgs and "standard+double-ante" not in svgs
    assert "sessions ending below count" in svgs  # the threshold line says what it is


def test_state_files_without_a_key_are_refused(tmp_path):
    """State files of older bourres (a plain digest anyone can recompute, no key)
    cannot be checked, and are refused with a message, not resumed."""
    import hashlib

    from bourre.sim.runs import runner
    from bourre.sim.runs.statefile import key_path

    state = tmp_path / "s.jsonl"
    config = runner.RunConfig(["standard"], 3, "old", runner.parse_bots("random"), False)
    runner.run(config, state=state)
    header, *lines = state.read_text().splitlines()
    old = []
    for line in lines:  # rewrite each line as the older format did
        e = json.loads(line)
        body = json.dumps({"house": e["house"], "summary": e["summary"]}, sort_keys=True)
        check = hashlib.sha256(body.encode()).hexdigest()[:16]
        old.append(json.dumps({"house": e["house"], "summary": e["summary"], "check": check}))
    state.write_text("\n".join([header, *old]) + "\n")
    with pytest.raises(runner.StateError, match="line 2 does not match its digest"):
        runner.load_state(state)
    key_path(state).unlink()
    with pytest.raises(runner.StateError, match=r"key .* is missing"):
        runner.load_state(state)


@pytest.mark.parametrize("spec", ["standard", "standard+double-ante+four-card"])
def test_the_session_tally_agrees_with_the_hands(spec):
    """What a comparison keeps of each hand (bourre.sim.runs.tally.SessionTally) is what
    the hands did: the pots at stake, players, bourrés, carried pots, dealers, each
    seat's change from hand to hand, and the cards played (with a cinch)."""
    from bourre.game.simulate import play_session
    from bourre.houses.house import House
    from bourre.sim.runs.tally import SessionTally

    house = House(spec)
    n, start = house.table.players, float(house.table.balance)
    t = SessionTally(start, n)
    res = play_session(house, seed=3, on_hand=t)
    hands = res.hands
    assert t.pots == [float(h.pot_at_stake) for h in hands]
    assert t.active == [len(h.state.active) for h in hands]
    assert t.bourre == [len(h.outcome.bourre) for h in hands]
    assert t.carried == [int(h.outcome.winner is None) for h in hands]
    assert t.dealers == [h.dealer for h in hands]
    before = [[start] * n] + [[float(b) for b in h.balances] for h in hands[:-1]]
    assert t.deltas == [
        [float(b) - p for b, p in zip(h.balances, prev, strict=True)]
        for h, prev in zip(hands, before, strict=True)
    ]
    assert t.plays == sum(len(tr.plays) for h in hands for tr in h.tricks) > 0
    assert t.cinch == sum(h.state.cinch_plays for h in hands)
    assert t.places() == [  # by place from the dealer
        math.fsum(d[(h.dealer + p) % n] for d, h in zip(t.deltas, hands, strict=True))
        for p in range(n)
    ]
