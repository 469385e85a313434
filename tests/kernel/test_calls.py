"""The kernel's stepped calls from Python (issue 28's stepped target): the builtin
methods KernelState binds (``is_terminal``, ``current_player``, ``legal_actions``,
``apply_action``, ``only_action``; no pybind11 dispatch) and the exchange's legal
discards made in C (``KernelDiscards``, R-DRAW), held to the Python rules: the same
values, the same actions in the same order, the same refusals (the rule's words), no
reference left behind.  Skipped, with the reason, when the extension is not built.
"""

from __future__ import annotations

import gc
import pickle
import random
import sys
import weakref
from collections.abc import Sequence
from typing import Any

import pytest

from bourre.game import Game
from bourre.game.actions import CARDS, PASS, PLAY, Action, discard
from bourre.game.observation import Discards
from bourre.game.state import State
from bourre.houses.house import House
from bourre.rules import RuleViolation

pytest.importorskip(
    "bourre.kernel._kernel",
    reason="the compiled kernel is not built (BOURRE_NO_KERNEL=1, or no C++ compiler)",
)

from bourre.game.protocol import members
from bourre.kernel import _kernel
from bourre.kernel.state import KernelState

KernelDiscards: Any = _kernel.KernelDiscards


def _hands() -> list[tuple[int, ...]]:
    """A few hands of every length 0 to 8 (sorted, as a state holds them; and one not)."""
    rng = random.Random("kernel-discards")
    out = []
    for k in range(9):
        for _ in range(2):
            out.append(tuple(sorted(rng.sample(range(52), k))))
        out.append(tuple(rng.sample(range(52), k)))  # (any order: positions, not values)
    return out


@pytest.mark.parametrize("hand", _hands(), ids=lambda h: f"{len(h)}cards")
def test_kernel_discards_are_the_python_discards(hand: tuple[int, ...]) -> None:
    """Every hand length 0-8 and limit -1-9: the same length, items (each index, negative
    ones), iteration, membership, equality both ways, hash, repr and attributes (R-DRAW)."""
    for limit in range(-1, 10):
        py, kd = Discards(hand, limit), KernelDiscards(hand, limit)
        where = f"{hand} limit {limit}"
        assert isinstance(kd, Discards) and isinstance(kd, Sequence), where
        assert (kd.hand, kd.limit) == (hand, limit), where
        assert len(kd) == len(py), where
        items = list(py)
        assert [kd[i] for i in range(len(py))] == items, where
        assert [kd[-i] for i in range(1, len(py) + 1)] == [py[-i] for i in range(1, len(py) + 1)]
        assert list(kd) == items and list(reversed(kd)) == items[::-1], where
        for a in kd:
            assert type(a) is Action and a.kind == "discard" and type(a.cards) is tuple, where
        for i in (len(py), -len(py) - 1, 10**30):
            with pytest.raises(IndexError):
                py[i]
            with pytest.raises(IndexError):
                kd[i]
        for s in (slice(0, 2), slice(-3, None), slice(None, None, -2), slice(9, 1, -3)):
            assert kd[s] == py[s] == items[s], f"{where} [{s}]"
        for bad in ("0", 1.0, None):
            for d in (py, kd):
                with pytest.raises(TypeError, match="Discards indices must be integers or slices"):
                    d[bad]  # type: ignore[index]
        assert kd == py and py == kd and not (kd != py) and not (py != kd), where
        assert kd == items and items == kd and kd == tuple(items), where
        assert (kd == items[:-1]) == (py == items[:-1]), where
        assert kd != 5 and kd != "x" and kd != Discards(hand, limit + 1), where
        assert KernelDiscards(hand, limit + 1) != py, where
        assert hash(kd) == hash(py) and repr(kd) == repr(py), where
        others = [
            PASS,
            CARDS[0],
            discard(()),
            discard(hand[:1] * 2),
            discard((*hand[:1], 99)),
            discard(hand),
            ("discard", hand[:1]),  # (a plain tuple is not an Action)
            Action("discard", hand[:2][::-1]),
        ]
        for a in items + others:
            assert (a in kd) == (a in py), f"{where}: {a!r}"
        for a in items[:5] + others:
            assert kd.count(a) == py.count(a), where
            if a in items:
                assert kd.index(a) == py.index(a), where
            else:
                with pytest.raises(ValueError):
                    kd.index(a)
        again = pickle.loads(pickle.dumps(kd))
        assert type(again) is KernelDiscards and again == kd, where


def test_kernel_discards_refuse_what_is_not_a_hand() -> None:
    for hand, limit in (([1, 2], 1), ((1, 52), 1), ((-1,), 1), (("2C",), 1), ((1,), "1")):
        with pytest.raises((TypeError, ValueError)):
            KernelDiscards(hand, limit)
    with pytest.raises(AttributeError):
        KernelDiscards((1,), 1).hand = (2,)


HOUSES = [
    "standard",
    "four-card+table(players=3)",
    "double-ante+pot-limit(limit=4)+table(players=7)",
    "simultaneous-reveal+no-cinch+table(players=4)",
    "optional-undertrump+table(players=8,hands=8)",  # reshuffles (R-RESHUFFLE)
]


def _play(state: State, rng: random.Random) -> tuple[list[object], list[object]]:
    """The benchmark's loop: a uniform choice among the legal actions, taken as given
    (the exchange's discards indexed directly)."""
    choice = rng.choice
    while not state.is_terminal():
        state.apply_action(choice(state.legal_actions()))
    return state.history(), state.returns()


@pytest.mark.parametrize("spec", HOUSES)
def test_the_stepped_loop_plays_as_the_python_rules(spec: str) -> None:
    """Driven through the builtin calls, a seeded session is the Python rules' one: the
    same choices drawn (equal sequences), the same history and returns."""
    house = House(spec)
    for seed in range(4):
        k = Game(house, engine="kernel").new_session(seed=seed)
        p = Game(house, engine="python").new_session(seed=seed)
        assert isinstance(k, KernelState) and type(p) is State
        assert type(k).is_terminal is KernelState.__dict__["is_terminal"]
        where = f"{spec}, seed {seed}"
        assert _play(k, random.Random(where)) == _play(p, random.Random(where)), where


def test_each_call_is_the_python_rules_answer() -> None:
    """Step by step: who acts, the legal actions (the shared action objects), the only
    action; each call also through the builtin method held in a variable."""
    house = House("standard+table(players=4,hands=3)")
    k = Game(house, engine="kernel").new_session(seed=11)
    p = Game(house, engine="python").new_session(seed=11)
    assert isinstance(k, KernelState)
    calls = (k.is_terminal, k.current_player, k.legal_actions, k.only_action)
    rng = random.Random(3)
    while not p.is_terminal():
        assert [f() for f in calls[:2]] == [p.is_terminal(), p.current_player()]
        legal, only = k.legal_actions(), k.only_action()
        assert legal == p.legal_actions() and only == p.only_action()
        assert list(calls[2]()) == list(legal) and calls[3]() == only
        if isinstance(legal, list):
            assert all(a is b for a, b in zip(legal, p.legal_actions(), strict=True))
            if only is not None:
                assert only is p.only_action()
        else:
            assert type(legal) is KernelDiscards and legal == p.legal_actions()
        a = rng.choice(list(p.legal_actions()))
        p.apply_action(a)
        k.apply_action(Action(a.kind, tuple(a.cards)))  # (an equal value: the slow path)
    assert k.is_terminal() and k.legal_actions() == [] and k.only_action() is None
    assert k.history() == p.history() and k.returns() == p.returns()


def test_a_refused_action_is_the_python_rules_refusal() -> None:
    """What the kernel does not take goes to the Python rules: the same RuleViolation
    (rule id and words), the state unchanged, through every way of calling."""
    house = House("standard+table(players=3)")
    k = Game(house, engine="kernel").new_session(seed=2)
    p = Game(house, engine="python").new_session(seed=2)
    assert isinstance(k, KernelState)
    bound = k.apply_action
    for bad in (CARDS[0], discard((0,)), "pass", None):
        with pytest.raises(RuleViolation) as ep:
            p.apply_action(bad)  # type: ignore[arg-type]
        for apply in (k.apply_action, bound, k._calls.apply_action):
            with pytest.raises(RuleViolation) as ek:
                apply(bad)
            assert (ek.value.rule, str(ek.value)) == (ep.value.rule, str(ep.value))
    assert isinstance(k, KernelState) and k.history() == p.history()
    k.apply_action(PLAY)  # (still steps)
    p.apply_action(PLAY)
    assert k.history() == p.history()


_FACTS = ("n", "hand_size", "number", "hands_total", "keep_results", "announce", "settles",
          "balances", "start", "pot", "final", "phase_name", "chance_wants")  # fmt: skip


def test_the_kernel_state_is_no_python_state_and_answers_alike() -> None:
    """KernelState is not a State (no forwarded attributes, no class change): both
    implement GameState, every public name of State is KernelState's too, and along a
    session the public facts are the same."""
    assert not issubclass(KernelState, State)
    public = {x for x in dir(State) if not x.startswith("_")}
    assert public <= set(dir(KernelState)), sorted(public - set(dir(KernelState)))
    house = House("standard+table(players=3,hands=2)")
    k = Game(house, engine="kernel").new_session(seed=5)
    p = Game(house, engine="python").new_session(seed=5)
    assert type(k) is KernelState and type(p) is State
    assert members() <= set(dir(KernelState)) and members() <= set(dir(State))
    rng = random.Random(5)
    for step in range(200):
        for name in _FACTS:
            assert repr(getattr(k, name)) == repr(getattr(p, name)), (step, name)
        assert type(k).__name__ == "KernelState", step
        if p.is_terminal():
            break
        a = rng.choice(list(p.legal_actions()))
        p.apply_action(a)
        k.apply_action(a)
    assert k.is_terminal() and repr(k.results) == repr(p.results)
    with pytest.raises(AttributeError):
        k.no_such_attribute  # type: ignore[attr-defined]  # noqa: B018


def test_a_dropped_state_goes_at_once() -> None:
    """No cycle: the Stepper holds its state weakly, so a dropped state, its Stepper and
    its calls go without the collector; calls kept alone refuse to step a state gone."""
    k = Game("standard").new_session(seed=2)
    assert isinstance(k, KernelState)
    refs = [weakref.ref(x) for x in (k, k.stepper)]
    kept = k._calls
    del k
    assert refs[0]() is None  # (no gc.collect(): freed by its last reference)
    assert not kept.is_terminal()  # the session itself is still whole
    with pytest.raises(RuntimeError, match="this state was discarded"):
        kept.apply_action("not an action")  # (what only the state's Python path takes)
    del kept
    assert refs[1]() is None


def test_a_dropped_state_is_collected() -> None:
    """A state and its clone, dropped, leave no StepCalls or Stepper behind."""

    def calls() -> int:
        return sum(type(o) is _kernel.StepCalls for o in gc.get_objects())

    gc.collect()
    alive = calls()
    k = Game("standard").new_session(seed=1)
    assert isinstance(k, KernelState)
    k.apply_action(k.legal_actions()[0])
    c = k.clone()
    assert calls() == alive + 2
    refs = [weakref.ref(x) for x in (k, k._k, c, c._k)]
    del k, c
    gc.collect()
    assert [r() for r in refs] == [None] * len(refs) and calls() == alive


def test_the_calls_leave_no_reference_behind() -> None:
    """Many calls of each kind leave the shared objects' counts where they were (every
    reference the kernel takes is given back)."""
    house = House("standard+table(players=5,hands=4)")
    rng = random.Random(0)
    watched: list[object] = [PASS, PLAY, *CARDS, KernelDiscards, Action, "discard", "_apply_slow"]
    before: list[int] = []
    for seed in range(40):
        if seed == 10:  # (the first sessions settle the caches)
            gc.collect()
            before = [sys.getrefcount(x) for x in watched]
        s = Game(house).new_session(seed=seed)
        while not s.is_terminal():
            s.current_player()
            s.only_action()
            legal = s.legal_actions()
            if isinstance(legal, Discards):
                list(legal)
                legal[-1] in legal  # noqa: B015
            s.apply_action(rng.choice(legal))
        try:
            s.apply_action(PASS)
        except RuleViolation:
            pass
        del s, legal
    gc.collect()
    assert [sys.getrefcount(x) for x in watched] == before
