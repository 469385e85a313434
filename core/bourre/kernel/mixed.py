"""A plugin's bots on the compiled kernel (issue 41, "third-party bots likewise"): a
session of a house the kernel plays, whose bots include one the kernel does not play (a
plugin's), is stepped by the kernel's state (:class:`~bourre.kernel.state.KernelState`:
every rule in C++).  The built-in bots at the other seats act in C++ (``BotRun``: the
kernel's random and heuristic bots, their streams those of the bots the session made),
and the kernel stops at each turn of a plugin's bot, which is asked in Python exactly as
on the Python rules (:func:`bourre.game.players.play_turn`: its observation, its
refusals, ``asked_when_forced``).  Each hand's tally and the settlement come from the
kernel (``Stepper.log_hands``, ``_kernel.settled``).

The bots are made as ``bourre compare`` makes them on the Python rules (seat by seat,
from the session's ``random.Random``: :func:`bourre.sim.runs.sessions.run_session`), so
the session is the Python rules' session, seat for seat and chip for chip
(``tests/kernel/test_plugin_bots.py``).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from bourre.game.botmaking import make_bot
from bourre.game.players import play_turn
from bourre.game.simulate import SessionResult
from bourre.houses.house import House
from bourre.kernel import (
    _FAST,
    Floats,
    KernelError,
    _bot_facts,
    _house_facts,
    _kernel,
    _plan,
    _specs,
    tallied,
    tally_planned,
)
from bourre.kernel import tally_session as kernel_session
from bourre.kernel.state import KernelState, new_session

__all__ = ["mixed_session", "tally_session"]

_ASK, _OK = 3, 0
"""The statuses of ``BotRun.run``: a plugin's bot is to act; the session is over."""

_STAND_IN = (1, 0.25, 0.45, 2)
"""What the kernel is told of a plugin's seat (never asked: the kernel stops there)."""


def tally_session(
    house: House, bots: Sequence[Any], seed: str, tally: Any, engine: str = "auto"
) -> tuple[SessionResult, Floats, Floats] | None:
    """:func:`bourre.kernel.tally_session` (``bourre compare``'s session on the kernel),
    and when a bot is a plugin's, the kernel's state with that bot asked in Python
    (:func:`mixed_session`); ``None`` when the Python rules play it, or with
    ``engine="kernel"`` a :class:`~bourre.kernel.KernelError` naming why."""
    if engine not in ("auto", "kernel"):
        raise ValueError(f"engine {engine!r}: one of auto, kernel, python")
    plan = _plan(house, bots) if _kernel is not None else None
    if plan is None or not isinstance(plan, str):  # (every bot the kernel's, or no kernel)
        return (
            kernel_session(house, bots, seed, tally, engine)
            if plan is None
            else tally_planned(plan, seed, tally)
        )
    facts = _house_facts(house)
    if isinstance(facts, str) or isinstance(_specs(bots, facts["players"]), str):
        return kernel_session(house, bots, seed, tally, engine)  # (it says why)
    got = mixed_session(house, bots, seed)
    if isinstance(got, tuple):
        return tallied(got, facts["scale"], seed, tally)
    if isinstance(got, str) and engine == "kernel":
        raise KernelError(got)
    return None


def mixed_session(house: House, bots: Sequence[Any], seed: str) -> tuple[Any, Any] | str | None:
    """The session ``seed`` of ``house`` with ``bots`` (one a seat, as ``compare`` gives
    them; some a plugin's) on the kernel's state: ``((final, places), tally)`` as
    ``_kernel.play_prepared`` answers with its tally; ``None`` when the kernel stopped
    (money beyond its range, an answer it does not hold: the Python rules play the
    session again from its start); or why the kernel's state cannot step it."""
    assert _kernel is not None
    n = house.table.players
    listed = _specs(bots, n)
    if isinstance(listed, str):
        return listed
    specs = listed[0]
    state = new_session(house, seed=seed, keep_results=False)
    if isinstance(state, str):
        return state
    rng = random.Random(f"bourre-bots:{seed}")  # (simulate.play_session's, for compare)
    players = [make_bot(name, rng, house=house, **options) for name, options in specs]
    kinds: list[tuple[int, float, float, int]] = []
    words: list[list[int]] = []
    python = 0
    for seat, ((name, options), player) in enumerate(zip(specs, players, strict=True)):
        got = _bot_facts(house, [(name, options)])
        if isinstance(got, str):  # a plugin's bot: asked in Python
            python |= 1 << seat
            kinds.append(_STAND_IN)
            words.append([0, 0, 0, 1])
        else:
            kinds.append(got[0])
            stream: Any = getattr(player, "gen", None)  # (the random bot's, as it was made)
            words.append(list(stream.state()) if got[0][0] == 0 else [0, 0, 0, 1])
    return _played(state, players, kinds, words, python)


def _played(
    state: KernelState,
    players: list[Any],
    kinds: list[tuple[int, float, float, int]],
    words: list[list[int]],
    python: int,
) -> tuple[Any, Any] | None:
    assert _kernel is not None
    k = state._k
    k.log_hands()
    run = _kernel.BotRun(k, kinds, words, python)
    status = run.run(k)
    while status == _ASK:
        seat = state.current_player()
        play_turn(state, players[seat], seat)  # type: ignore[arg-type]
        if type(state) is not KernelState:  # handed to its Python twin (an answer the
            return None  # kernel does not hold): the Python rules play the session again
        status = run.run(k) if not state.is_terminal() else _OK
    if status != _OK:
        return None
    got = _kernel.settled(k, Fraction, _FAST)
    return got if type(got) is tuple else None
