"""``bourre bench --solver`` (issue 31 item 1): the double-dummy solver's solves per
second from the first lead, a line per house, the machine first, solves/s last."""

from __future__ import annotations

import re

from typer.testing import CliRunner

from bourre.advice.bench import first_lead, solver_bench
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
