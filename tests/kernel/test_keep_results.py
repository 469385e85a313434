"""A kernel state that keeps no hand's result (``keep_results=False``): the memory of one
hand, as the Python state's (issue 42: the kernel kept every action of the session,
620k entries over 10,000 hands).  The Stepper keeps the current hand's actions only,
and the Python state that answers the word-heavy questions resumes at that hand's start
(:func:`bourre.game.resume.resume`) instead of replaying the session.  Stepped side by
side with the Python state made alike, it answers the same at every step, clones
included.  Skipped, with the reason, when the extension is not built.
"""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest
from hookkit import same_step
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bourre.game import Game
from bourre.game.actions import CARDS, PLAY
from bourre.game.state import State
from bourre.houses.house import House
from bourre.rules import RuleViolation
from bourre.rules.hand import HandState

pytest.importorskip(
    "bourre.kernel._kernel",
    reason="the compiled kernel is not built (BOURRE_NO_KERNEL=1, or no C++ compiler)",
)

from bourre.kernel.state import KernelState

HOUSES = [
    "standard+table(players=5,hands=7)",
    "double-ante+table(players=4,hands=6)",
    "four-card+table(players=6,hands=6)",
    "pot-limit(limit=3)+table(players=5,hands=7)",
    "standard+table(players=3,hands=8)",
    "standard+table(players=8,hands=6)",  # reshuffles (R-RESHUFFLE)
    "simultaneous-reveal+double-ante+table(players=8,hands=5)",
    "standard+table(ante=5/2,balance=7/3,first_dealer=random,hands=6)",  # 1/6 chips
]
_MADE: dict[str, House] = {}


def _house(spec: str) -> House:
    if spec not in _MADE:
        _MADE[spec] = House(spec)
    return _MADE[spec]


def lean_pair(spec: str, seed: int | str | None, **kw: Any) -> tuple[KernelState, State]:
    house = _house(spec)
    k = Game(house, engine="kernel").new_session(seed, keep_results=False, **kw)
    assert isinstance(k, KernelState)
    p = Game(house, engine="python").new_session(seed, keep_results=False, **kw)
    assert type(p) is State
    return k, p


def _fields(hs: HandState) -> dict[str, object]:
    """Every field of a hand but its reshuffle (each state's own stream)."""
    return {k: v for k, v in vars(hs).items() if k != "reshuffle"}


def same_answers(k: KernelState, p: State, where: str, words: bool) -> None:
    """Everything a state answers, the kernel's against the Python's; with ``words``
    the Python rules' own answers too (the kernel's twin: results, the hand, the
    reasons, a copy on the Python rules, a refusal's words)."""
    assert k.current_player() == p.current_player(), where
    assert k.is_terminal() == p.is_terminal(), where
    assert list(k.legal_actions()) == list(p.legal_actions()), where
    assert k.only_action() == p.only_action(), where
    assert k.phase_name == p.phase_name, where
    assert k.history() == p.history(), where
    assert (k.number, k.balances, k.pot, k.returns()) == (p.number, p.balances, p.pot, p.returns())
    for s in range(p.n):
        assert k.observation(s) == p.observation(s), f"{where}, seat {s}"
    if not words:
        return
    assert k.results == p.results == [], where
    assert k.final == p.final, where
    assert _hand(k) == _hand(p), where
    if p.phase_name == "play":
        assert k.legal_with_reasons() == p.legal_with_reasons(), where
        wrong = next(c for c in range(52) if c not in p.legal_cards())
        assert str(k.why_not(CARDS[wrong])) == str(p.why_not(CARDS[wrong])), where
    twin = k.python_copy()
    assert (twin.history(), twin.returns(), twin.number) == (p.history(), p.returns(), p.number)


def _hand(state: KernelState | State) -> object:
    """The hand's fields, or the refusal before a deal (R-DEAL)."""
    try:
        return _fields(state.hand)
    except RuleViolation as e:
        return (e.rule, str(e))


@settings(max_examples=24, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    spec=st.sampled_from(HOUSES),
    seed=st.one_of(st.integers(0, 2**32 - 1), st.text(max_size=4), st.none()),
    play=st.integers(0, 2**32 - 1),
    every=st.integers(1, 40),
    clones=st.lists(st.integers(0, 300), max_size=3),
)
def test_a_lean_kernel_state_answers_as_the_lean_python_state(
    spec: str, seed: int | str | None, play: int, every: int, clones: list[int]
) -> None:
    """Stepped side by side over several hands, the lean kernel state answers as the
    lean Python state at every step: the words (the Python twin's answers) now and
    then (every ``every`` steps, so the twin is resumed at a later hand's start as
    well as kept in step), and clones taken mid-session, stepped on their own, leave
    the original as it was."""
    k, p = lean_pair(spec, seed, first_dealer=None if seed is not None else 1)
    rng = random.Random(play)
    n = 0
    while not p.is_terminal():
        where = f"{spec}, seed {seed!r}, step {n}"
        same_answers(k, p, where, words=n % every == 0)
        if n in clones:
            kc, pc = (k.clone(), p.clone()) if n % 2 else (copy.copy(k), p.clone())
            assert isinstance(kc, KernelState)
            other = random.Random(n)
            for m in range(60):
                if pc.is_terminal():
                    break
                same_step(kc, pc, other)
                same_answers(kc, pc, f"{where}, its clone's step {m}", words=m % 7 == 0)
        same_step(k, p, rng)
        n += 1
    same_answers(k, p, f"{spec}, seed {seed!r}, the end", words=True)
    assert p.final is not None and k.final == p.final


def one_hand(spec: str) -> int:
    """The most entries one hand's history can hold in the kernel: the deck (53), a
    decision and an exchange of a whole hand for each seat, a card for each seat and
    trick."""
    house = _house(spec)
    n, h = house.table.players, house.rules.hand_size
    return 53 + n * (1 + 1 + h) + n * h


def test_the_kernel_keeps_one_hands_history() -> None:
    """300 hands: the Stepper's history never holds more than one hand's entries (it
    held every hand's: 23,000 here), and the Python rules asked after the last hand
    replay that hand only (they replayed all 300)."""
    spec = "standard+table(players=5,hands=300)"
    k, p = lean_pair(spec, 3)
    bound = one_hand(spec)
    rng = random.Random(0)
    longest = 0
    while not p.is_terminal():
        same_step(k, p, rng)
        longest = max(longest, k.stepper.history_len())
    assert p.number == 300 and longest <= bound
    replayed: list[object] = []
    take = State.apply_action

    def counted(self: State, action: Any) -> None:
        replayed.append(action)
        take(self, action)

    State.apply_action = counted  # type: ignore[method-assign]
    try:
        assert k.final == p.final and k.results == []
        assert _fields(k.hand) == _fields(p.hand)
    finally:
        State.apply_action = take  # type: ignore[method-assign]
    assert 0 < len(replayed) <= bound
    full = Game(_house(spec), engine="kernel").new_session(3)  # keep_results=True: all of it
    assert isinstance(full, KernelState)
    rng = random.Random(0)
    while not full.is_terminal():
        a = rng.choice(list(full.legal_actions()))
        full.apply_action(a)
    assert full.stepper.history_len() > 300 * 53
    assert len(full.results) == 300 and full.returns() == p.returns()


def test_money_beyond_the_kernels_range_in_a_lean_session() -> None:
    """Once the money leaves the kernel's range the Python rules hold it (R-ANTE, the
    pot grows threefold a hand when everyone plays): a lean session keeps the actions
    from the last hand start the kernel still held, and its answers stay the Python
    rules' exactly."""
    spec = "standard+table(players=8,hands=90)"
    k, p = lean_pair(spec, 11)
    while not p.is_terminal():
        legal = p.legal_actions()
        a = PLAY if PLAY in legal else legal[0]
        p.apply_action(a)
        k.apply_action(a)
        if p.number in (60, 61) and p.phase_name == "play":
            same_answers(k, p, f"hand {p.number}", words=True)
    assert k.stepper.overflow() and max(abs(int(x)) for x in p.returns()) > 2**100
    same_answers(k, p, "the end", words=True)


def test_a_refusal_after_many_hands_is_worded_as_the_python_rules() -> None:
    k, p = lean_pair("standard+table(players=4,hands=40)", "r")
    rng = random.Random(4)
    while p.number < 30 or p.phase_name != "play":
        same_step(k, p, rng)
    wrong = next(c for c in range(52) if c not in p.legal_cards())
    with pytest.raises(RuleViolation) as ek:
        k.apply_action(CARDS[wrong])
    with pytest.raises(RuleViolation) as ep:
        p.apply_action(CARDS[wrong])
    assert (ek.value.rule, str(ek.value), ek.value.legal) == (
        ep.value.rule,
        str(ep.value),
        ep.value.legal,
    )
    same_answers(k, p, "after the refusal", words=True)


def test_the_reshuffles_go_on_from_the_kernels_stream() -> None:
    """8 players who all play and discard their whole hand: the stock runs out every
    hand and the discards are reshuffled (R-RESHUFFLE) from the session's own stream.
    The Python rules resumed at a later hand draw the same cards as the kernel: the
    reshuffle stream goes on where the kernel's stands, not from its start."""
    k, p = lean_pair("standard+table(players=8,hands=6)", "deep")
    while not p.is_terminal():
        legal = p.legal_actions()
        a = PLAY if PLAY in legal else legal[-1]  # (the most cards discarded)
        p.apply_action(a)
        k.apply_action(a)
        if p.phase_name == "play" and not p.hand.trick:
            same_answers(k, p, f"hand {p.number}", words=True)
            assert k.python_copy().hand.got == p.hand.got
