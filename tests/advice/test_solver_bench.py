"""``bourre bench --solver`` (issue 31 item 1): the double-dummy solver's solves per
second from the first lead, a line per house, the machine first, solves/s last."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from bourre import kernel
from bourre.advice.bench import SolverMeasure, first_lead, solver_bench
from bourre.cli import app
from bourre.houses.house import House

runner = CliRunner()


def test_first_lead_is_the_play_of_a_hand_everyone_plays() -> None:
    state = first_lead("standard+table(players=4)", 3)
    assert state.phase_name == "play"
    assert len(state.hand.active) == 4 and not state.hand.tricks


def test_solver_bench_solves_from_seed_zero_on() -> None:
    m = solver_bench(House("standard+table(players=3)"), 0.05, engine="python", most=3)
    assert m.engine == "python" and 1 <= len(m.times) <= 3
    assert m.per_second > 0 and m.median_ms <= m.slowest_ms
    assert str(len(m.times)) + " deals" in m.line()


def test_the_command_gives_solves_per_second_last() -> None:
    result = runner.invoke(app, ["bench", "--solver", "--seconds", "0.2", "four-card"])
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.strip().splitlines()
    assert lines[0].startswith("machine: ")
    assert "four-card: double-dummy solver from the first lead, engine " in lines[1]
    m = re.fullmatch(r"solves/s: ([\d.]+)", lines[-1])
    assert m and float(m.group(1)) > 0
    assert f"{float(m.group(1)):,.1f} solves/s" in lines[1]


def test_a_bad_engine_is_one_message() -> None:
    result = runner.invoke(app, ["bench", "--solver", "--engine", "turbo"])
    assert result.exit_code == 2 and result.stdout == ""
    assert "--engine 'turbo'" in result.stderr


@pytest.mark.skipif(not kernel.available(), reason="the compiled kernel is not built")
def test_a_fixed_number_of_deals_gives_cpu_times_and_memory() -> None:
    """Issue 44: ``deals`` solves seeds 0 to N-1 whatever the time; each solve's CPU time
    is kept and the line gives it at 50, 90, 99 in 100 and the slowest, and the memory."""
    m = solver_bench(House("standard+table(players=3)"), 0.0001, engine="kernel", deals=4)
    assert len(m.times) == 4 and len(m.cpu) == 4
    assert m.cpu_ms(0.5) <= m.cpu_ms(0.9) <= m.cpu_ms(0.99) <= m.cpu_ms(1.0)
    assert m.cpu_ms(1.0) == max(m.cpu) * 1000
    line = m.cpu_line()
    assert line.startswith("standard+table(players=3): CPU a solve: 50 in 100 within ")
    assert " 90 within " in line and " 99 within " in line and " slowest " in line
    assert "memory: " in line
    slowest = m.slowest_deals()
    assert (
        len(slowest) == 3
        and [ms for _, ms in slowest] == sorted((t * 1000 for t in m.cpu), reverse=True)[:3]
    )
    assert m.cpu[slowest[0][0]] == max(m.cpu)
    assert line.endswith(
        "; the slowest deals: " + ", ".join(f"seed {seed} ({ms:,.1f} ms)" for seed, ms in slowest)
    )


def test_the_slowest_deals_are_named_by_their_seeds() -> None:
    """A slow deal can be solved again alone: the measure names the slowest deals' seeds,
    slowest first, ties to the lower seed."""
    m = SolverMeasure("h", "kernel", times=(0.1, 0.3, 0.2, 0.3), cpu=(0.01, 0.002, 0.04, 0.04))
    assert m.slowest_deals(2) == [(2, 40.0), (3, 40.0)]
    assert m.slowest_deals(9)[-1] == (1, 2.0)
    assert SolverMeasure("h", "python", times=(0.5, 0.7)).slowest_deals() == [
        (1, 700.0),
        (0, 500.0),
    ]


def test_the_command_gives_the_cpu_times_after_each_house() -> None:
    result = runner.invoke(app, ["bench", "--solver", "--deals", "3", "four-card", "standard"])
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.strip().splitlines()
    assert "four-card: double-dummy solver from the first lead" in lines[1]
    assert " 3 deals, " in lines[1]
    assert "four-card: CPU a solve: 50 in 100 within " in lines[2]
    assert lines[4].startswith("standard: CPU a solve: ")
    assert lines[-1].startswith("solves/s: ")


def test_deals_is_for_the_solver_and_a_whole_number() -> None:
    result = runner.invoke(app, ["bench", "--deals", "3"])
    assert result.exit_code == 2 and "--deals" in result.stderr
    result = runner.invoke(app, ["bench", "--solver", "--deals", "0"])
    assert result.exit_code == 2 and "--deals must be from 1" in result.stderr
    result = runner.invoke(app, ["bench", "--solver", "--deals", "x"])
    assert result.exit_code == 2 and "--deals" in result.stderr


def test_cpu_times_in_the_yardsticks_hands() -> None:
    """Issue 44: the CPU time a solve counted in the hands the yardstick plays in that
    time, at its rate measured back to back: 51 ms at 2,000 hands/s is 102 hands."""
    m = SolverMeasure("h", "kernel", times=(1.0,) * 100, cpu=tuple(i / 1000 for i in range(1, 101)))
    assert m.yardstick_line(2000) == (
        "h: CPU a solve in the yardstick's hands (at 2,000 hands/s):"
        " 50 in 100 within 102, 90 within 182, 99 within 200, slowest 200"
    )


def yardstick(
    tmp_path: Path, *, fail_after: int | None = None, rates: tuple[int, ...] = (1_000_000,)
) -> Path:
    """A yardstick program that plays ``rates[n - 1]`` hands/s on its n-th run (the last
    rate from then on; its last line), failing from its ``fail_after``-th run on when
    given."""
    runs = tmp_path / "runs"
    script = tmp_path / "ref.py"
    script.write_text(
        "import pathlib, sys\n"
        f"runs = pathlib.Path({str(runs)!r})\n"
        "n = int(runs.read_text()) + 1 if runs.exists() else 1\n"
        "runs.write_text(str(n))\n"
        f"if {fail_after!r} is not None and n >= {fail_after!r}:\n"
        "    sys.exit('out of cards')\n"
        f"rates = {list(rates)!r}\n"
        "print(f'hands/s: {rates[min(n, len(rates)) - 1]}')\n"
    )
    return script


def bench_solver(reference: Path, deals: int = 2) -> Result:
    """``bourre bench --solver`` on ``deals`` four-card deals, the yardstick ``reference``."""
    args = ["--deals", str(deals), "--seconds", "0.1", "--reference", str(reference)]
    return runner.invoke(app, ["bench", "--solver", *args, "four-card"])


def test_the_yardstick_runs_before_and_after_the_solves(tmp_path: Path) -> None:
    result = bench_solver(yardstick(tmp_path), deals=3)
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.strip().splitlines()
    assert (tmp_path / "runs").read_text() == "2"
    assert lines[3] == "yardstick (ref.py): 1,000,000 hands/s before the solves, 1,000,000 after"
    assert lines[4].startswith(
        "standard+four-card: CPU a solve in the yardstick's hands (at 1,000,000 hands/s): "
    )
    ms = float(re.search(r" 99 within ([\d,.]+) ms", lines[2]).group(1).replace(",", ""))
    hands = float(re.search(r" 99 within ([\d,]+),", lines[4]).group(1).replace(",", ""))
    assert hands == pytest.approx(ms * 1000, abs=1)  # (a million hands/s: 1,000 a millisecond)
    assert lines[-1].startswith("solves/s: ")


def test_a_yardstick_that_fails_is_one_message_and_keeps_the_solves(tmp_path: Path) -> None:
    result = bench_solver(yardstick(tmp_path, fail_after=1))
    assert result.exit_code == 2 and result.stdout == ""  # (before the solves: none lost)
    assert "the yardstick failed (out of cards)" in result.stderr
    later = tmp_path / "later"
    later.mkdir()
    result = bench_solver(yardstick(later, fail_after=2))
    assert result.exit_code == 2 and "the yardstick failed (out of cards)" in result.stderr
    assert "four-card: CPU a solve: 50 in 100 within " in result.stdout  # (the solves kept)
    result = bench_solver(tmp_path / "nope.py")
    assert result.exit_code == 2 and "not a file" in result.stderr


def test_a_yardstick_at_two_speeds_is_said(tmp_path: Path) -> None:
    """Its two runs 20 % apart (the machine's speed moved, or another program shared its
    core): the figures in its hands are at the mean rate, and said to be rough."""
    result = bench_solver(yardstick(tmp_path, rates=(1_000_000, 800_000)))
    assert result.exit_code == 0, result.stderr
    assert "1,000,000 hands/s before the solves, 800,000 after" in result.stdout
    assert "the yardstick's two runs differ by more than 10 %" in result.stdout
    assert "(at 900,000 hands/s)" in result.stdout
    steady = tmp_path / "steady"
    steady.mkdir()
    result = bench_solver(yardstick(steady))
    assert result.exit_code == 0 and "differ by more than" not in result.stdout
