"""Bourré hands/s through bourre's state API vs. OpenSpiel oh_hell games/s, from Python.

What is measured
----------------
The performance target (issue 28, on the kernel's stepped state; it was 3x on the
Python rules): *the state API, driven from Python, must play at least 10x as many hands
per second as OpenSpiel's Python API plays 5-player oh_hell games.*
OpenSpiel is the reference point because it is what a researcher would otherwise reach
for: its games run in C++, so a Python driver pays only the per-call binding cost.
``oh_hell(players=5,num_tricks_fixed=5)`` is the nearest OpenSpiel game to a 5-seat,
5-card Bourré hand (a deal, one decision per seat, five tricks of five cards).

Both sides are driven the same way, by a plain Python loop choosing uniformly at random
among the legal actions (``rng.choice(state.legal_actions())``), one core, no bots:

(a) bourre: ``Game(house).new_session(seed=i)``, a whole seeded session (its own chance
    outcomes, so it never stops at a chance node), played to the end; the hands counted
    are ``state.number`` (the hands dealt).  This is the main figure, "hands/s
    (sessions)".  ``Game(house)`` gives the compiled kernel's stepped state where it
    can play the house (``--engine python``: the Python rules' state).  For
    reference it also plays single hands, ``Game(house).new_hand(seed=i)``, each terminal
    after its payout: "hands/s (hands)", which includes creating a state per hand.
(b) OpenSpiel: ``pyspiel.load_game("oh_hell(players=5,num_tricks_fixed=5)")``, a new
    initial state per game; chance nodes are resolved in Python by
    ``rng.choice(state.chance_outcomes())[0]`` (oh_hell's chance outcomes are uniform,
    so this is the weighted draw); "games/s".

(c) the loop alone: the same loop over a state that does nothing (its three methods only
    count the actions, ``legal_actions`` returning a fixed list of three), ending after
    as many actions a hand as bourre's sessions take.  No engine driven from this loop
    can exceed it: it is the loop's own cost (``rng.choice`` and three calls a step),
    reported as "the loop alone" and as the ratio it would give.

The measurements are interleaved round by round in the same process (each round runs
all three, the order alternating between rounds) so that drift of the machine (clock
boost, other load) hits them alike.  Each measurement of a round runs for ``--seconds``
(finishing the session or game under way).  The report gives the machine, every round,
the medians and last ``ratio: X.XX`` = median bourre hands/s (sessions) divided by median
OpenSpiel games/s.  Exit status 2 when ``pyspiel`` (open_spiel) is not importable.

Run: ``python bench/openspiel_compare.py [--seconds 5] [--rounds 5] [--house standard]``.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

OH_HELL = "oh_hell(players=5,num_tricks_fixed=5)"


def bourre_session_rate(game: Any, seconds: float, first_seed: int) -> tuple[float, int]:
    """Hands/s over whole seeded sessions for about ``seconds``; returns the rate and
    the next unused seed."""
    rng = random.Random(first_seed)
    choice = rng.choice
    seed = first_seed
    hands = 0
    start = time.perf_counter()
    while True:
        state = game.new_session(seed=seed)
        seed += 1
        while not state.is_terminal():
            state.apply_action(choice(state.legal_actions()))
        hands += state.number
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return hands / elapsed, seed


def bourre_hand_rate(game: Any, seconds: float, first_seed: int) -> tuple[float, int]:
    """Hands/s over single seeded hands (``new_hand``) for about ``seconds``."""
    rng = random.Random(first_seed)
    choice = rng.choice
    seed = first_seed
    hands = 0
    start = time.perf_counter()
    while True:
        state = game.new_hand(seed=seed)
        seed += 1
        while not state.is_terminal():
            state.apply_action(choice(state.legal_actions()))
        hands += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return hands / elapsed, seed


def openspiel_rate(game: Any, seconds: float, rng_seed: int) -> float:
    """OpenSpiel games/s for about ``seconds``, chance drawn in Python (uniform)."""
    rng = random.Random(rng_seed)
    choice = rng.choice
    games = 0
    start = time.perf_counter()
    while True:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(choice(state.chance_outcomes())[0])
            else:
                state.apply_action(choice(state.legal_actions()))
        games += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return games / elapsed


class NullState:
    """A state that does nothing: ``actions`` steps, then terminal (the loop alone)."""

    __slots__ = ("left",)
    LEGAL = [0, 1, 2]

    def __init__(self, actions: int) -> None:
        self.left = actions

    def is_terminal(self) -> bool:
        return self.left <= 0

    def legal_actions(self) -> list[int]:
        return self.LEGAL

    def apply_action(self, action: int) -> None:
        self.left -= 1


def loop_rate(per_hand: float, seconds: float, rng_seed: int) -> float:
    """Hands/s of the benchmark's loop over :class:`NullState` hands of ``per_hand``
    actions on average (whole numbers of actions, spread to that mean)."""
    rng = random.Random(rng_seed)
    choice = rng.choice
    hands = 0
    owed = 0.0
    start = time.perf_counter()
    while True:
        owed += per_hand
        n = int(owed)
        owed -= n
        state = NullState(n)
        while not state.is_terminal():
            state.apply_action(choice(state.legal_actions()))
        hands += 1
        if hands % 256 == 0:
            elapsed = time.perf_counter() - start
            if elapsed >= seconds:
                return hands / elapsed


def steps_bourre(game: Any, sessions: int = 3) -> tuple[float, int]:
    """Untimed: player actions per hand, and hands per session (for the report)."""
    rng = random.Random(-1)
    actions = hands = 0
    for i in range(sessions):
        state = game.new_session(seed=-1 - i)
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
            actions += 1
        hands += state.number
    return actions / max(hands, 1), hands // sessions


def steps_openspiel(game: Any, games: int = 20) -> tuple[float, float]:
    """Untimed: player actions and chance actions per oh_hell game (for the report)."""
    rng = random.Random(-1)
    actions = chances = 0
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                assert len({p for _, p in outcomes}) == 1, "chance outcomes not uniform"
                state.apply_action(rng.choice(outcomes)[0])
                chances += 1
            else:
                state.apply_action(rng.choice(state.legal_actions()))
                actions += 1
    return actions / games, chances / games


def machine() -> str:
    from importlib.metadata import version

    from bourre.kernel import available

    kernel = "the compiled kernel" if available() else "no compiled kernel"
    return (
        f"{platform.platform()}, {platform.python_implementation()} {platform.python_version()},"
        f" {os.cpu_count()} cpu; bourre {version('bourre')}, {kernel}"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="bourre state API hands/s vs OpenSpiel 5-player oh_hell games/s,"
        " both driven from Python with uniformly random legal actions."
    )
    parser.add_argument(
        "--seconds",
        type=float,
        default=5.0,
        help="timed seconds of each measurement in each round (default 5)",
    )
    parser.add_argument("--rounds", type=int, default=5, help="interleaved rounds (default 5)")
    parser.add_argument("--house", default="standard", help='bourre house (default "standard")')
    parser.add_argument(
        "--engine", default=None, help="Game's engine: auto (default), kernel or python"
    )
    args = parser.parse_args(argv)
    if args.seconds <= 0 or args.rounds < 1:
        parser.error("--seconds must be positive and --rounds at least 1")

    try:
        import pyspiel
    except ImportError as exc:
        print(
            f"openspiel_compare: pyspiel (open_spiel) is not importable ({exc});"
            " install it with `pip install open_spiel` to run this comparison",
            file=sys.stderr,
        )
        return 2

    from bourre.game import Game

    game = Game(args.house, engine=args.engine)
    oh_hell = pyspiel.load_game(OH_HELL)
    out = print

    out(f"machine: {machine()}")
    out(f"open_spiel: {getattr(pyspiel, '__version__', '?')}; game {OH_HELL}")
    out(f"bourre state: {type(game.new_session(seed=0)).__name__} (engine {game.engine})")
    per_hand, per_session = steps_bourre(game)  # also the warm-up
    os_actions, os_chances = steps_openspiel(oh_hell)
    out(
        f"bourre {game.house.spec}: {game.players} players, {game.hand_size} cards,"
        f" ~{per_session} hands/session, ~{per_hand:.1f} player actions/hand"
    )
    out(f"oh_hell: ~{os_actions:.1f} player actions + {os_chances:.1f} chance actions/game")
    out(f"{args.rounds} rounds, {args.seconds:g} s per measurement per round")

    sessions: list[float] = []
    hands: list[float] = []
    games: list[float] = []
    loops: list[float] = []
    seed_s, seed_h = 0, 1_000_000_000

    def run_sessions() -> None:
        nonlocal seed_s
        rate, seed_s = bourre_session_rate(game, args.seconds, seed_s)
        sessions.append(rate)

    def run_hands() -> None:
        nonlocal seed_h
        rate, seed_h = bourre_hand_rate(game, args.seconds, seed_h)
        hands.append(rate)

    def run_openspiel() -> None:
        games.append(openspiel_rate(oh_hell, args.seconds, len(games)))

    def run_loop() -> None:
        loops.append(loop_rate(per_hand, args.seconds, len(loops)))

    order: list[Callable[[], None]] = [run_sessions, run_hands, run_openspiel, run_loop]
    for r in range(args.rounds):
        for step in order if r % 2 == 0 else order[::-1]:
            step()
        out(
            f"round {r + 1}: bourre {sessions[-1]:,.0f} hands/s (sessions),"
            f" {hands[-1]:,.0f} hands/s (hands); OpenSpiel {games[-1]:,.0f} games/s;"
            f" the loop alone {loops[-1]:,.0f} hands/s; ratio {sessions[-1] / games[-1]:.2f}"
        )

    med_s, med_h, med_g, med_l = (statistics.median(x) for x in (sessions, hands, games, loops))
    out(f"median bourre hands/s (sessions): {med_s:,.0f}")
    out(f"median bourre hands/s (hands):    {med_h:,.0f}")
    out(f"median OpenSpiel oh_hell games/s: {med_g:,.0f}")
    out(f"ratio (hands): {med_h / med_g:.2f}")
    out(
        f"the loop alone (a state that does nothing, {per_hand:.1f} actions a hand):"
        f" {med_l:,.0f} hands/s, ratio {med_l / med_g:.2f}: no engine can exceed it"
    )
    out(f"target: ratio >= 10.00 ({'met' if med_s / med_g >= 10 else 'NOT met'})")
    out(f"ratio: {med_s / med_g:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
