"""``--isolate``: bots in their own process, observation in, action out, a time limit
per decision.  The spy that, in process, can reach the live game through the
interpreter finds nothing at all there: the child holds only what it was sent."""

from __future__ import annotations

import os
import random
import sys
import textwrap
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bourre.cli import app
from bourre.game.isolate import BotError, IsolatedBot, observation_from_json, observation_to_json
from bourre.game.players import ask, play_out
from bourre.game.state import State
from bourre.rules.house import House
from bourre_bots.heuristic import HeuristicPlayer

SPY = """
import gc, json, os, random
from bourre_bots.random_bot import RandomPlayer

class Spy(RandomPlayer):
    def play(self, view):
        live = [o for o in gc.get_objects() if type(o).__name__ in ("State", "HandState")]
        with open(os.environ["SPY_REPORT"], "a") as f:
            f.write(json.dumps({"live": len(live)}) + "\\n")
        return super().play(view)

def make(rng=None):
    return Spy(rng)

class Slow(RandomPlayer):
    def play(self, view):
        import time
        time.sleep(30)

def slow(rng=None):
    return Slow(rng)

def crash(rng=None):
    class Crash(RandomPlayer):
        def play(self, view):
            raise RuntimeError("the bot fell over")
    return Crash(rng)
"""


@pytest.fixture
def spy_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "spybot.py").write_text(textwrap.dedent(SPY))
    monkeypatch.setenv("PYTHONPATH", f"{tmp_path}{os.pathsep}{os.environ.get('PYTHONPATH', '')}")
    monkeypatch.syspath_prepend(str(tmp_path))
    report = tmp_path / "report.jsonl"
    monkeypatch.setenv("SPY_REPORT", str(report))
    return report


def test_the_protocol_carries_every_field() -> None:
    for spec in ("standard", "simultaneous-reveal", "double-ante"):
        state = State(House(spec), seed=spec)
        bots = [HeuristicPlayer(0)] * 5
        while not state.is_terminal():
            seat = state.current_player()
            view = state.observation(seat)
            back = observation_from_json(observation_to_json(view))
            assert back.as_tuple()[:19] == view.as_tuple()[:19]
            assert list(back.legal_actions) == list(view.legal_actions)
            state.apply_action(ask(state, bots[seat]))


def test_isolated_bots_play_the_same_game() -> None:
    house = House("standard")
    isolated = [IsolatedBot("heuristic", house="standard") for _ in range(5)]
    try:
        a = State(house, seed="iso", hands=3)
        play_out(a, isolated)
    finally:
        for b in isolated:
            b.close()
    b_state = State(house, seed="iso", hands=3)
    play_out(b_state, [HeuristicPlayer(0) for _ in range(5)])
    assert a.final == b_state.final


def test_a_slow_bot_is_stopped(spy_path: Path) -> None:
    bot = IsolatedBot("spybot:slow", timeout=1.0)
    state = State(House("standard"), seed="slow")
    with pytest.raises(BotError, match="no answer within 1 s"):
        play_out(state, [bot] + [HeuristicPlayer(0)] * 4)
        play_out(state, [bot] * 5)


def test_a_crashing_bot_is_named(spy_path: Path) -> None:
    state = State(House("standard"), seed="crash")
    with pytest.raises(BotError, match=r"spybot:crash.*the bot fell over"):
        play_out(state, [IsolatedBot("spybot:crash")] * 5)


def test_the_spy_both_ways(spy_path: Path) -> None:
    """In process the interpreter hands the spy the live game (that is why --isolate
    exists); isolated, it finds no game state at all."""
    import json

    from bourre.game.players import make_bot

    state = State(House("standard"), seed="spy")
    play_out(state, [make_bot("spybot:make", random.Random(s)) for s in range(5)])
    inside = [json.loads(x)["live"] for x in spy_path.read_text().splitlines()]
    assert inside and max(inside) > 0
    spy_path.unlink()
    spies = [IsolatedBot("spybot:make", seed=str(s)) for s in range(5)]
    try:
        play_out(State(House("standard"), seed="spy"), spies)
    finally:
        for b in spies:
            b.close()
    outside = [json.loads(x)["live"] for x in spy_path.read_text().splitlines()]
    assert outside and max(outside) == 0


def test_simulate_with_isolate() -> None:
    r = CliRunner().invoke(
        app, ["simulate", "standard", "--bots", "heuristic", "--sessions", "2", "--isolate",
              "--workers", "1", "--no-progress"]
    )
    assert r.exit_code == 0, r.stderr
    assert sys.platform != "win32"
