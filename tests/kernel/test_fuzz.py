"""Fuzz the compiled kernel's boundary (issue 42): every entry of ``bourre.kernel._kernel``
(public or private: the Stepper and its calls, HouseFacts, set_actions, load_world,
replay_world, sample_worlds, advice_rows, dd_solve, the sessions' entries, KernelDiscards …) driven
by hypothesis with random and hostile inputs: real worlds, positions and views with
fields replaced, dropped or bent out of range, and Steppers stepped with anything.

Each call either works or raises a Python exception, never crashes: a crash ends the
process (and under ``tox -e sanitize``, AddressSanitizer and UBSan end it at the first
read out of bounds or undefined operation, the tests run on a kernel built with
``BOURRE_KERNEL_SANITIZE=1``).  The seed corpus (``@example``) holds the issue's cases.

The default suite runs a short fuzz (``BOURRE_FUZZ_EXAMPLES``, 25 examples a test, the
same ones every run; given ``BOURRE_FUZZ_EXAMPLES``, new ones each run unless
``BOURRE_FUZZ_DERANDOMIZE`` is set, as in CI's short sanitizer run);
``-m slow`` runs the long one (``BOURRE_FUZZ_SLOW_EXAMPLES``, 400 a test).  With
``BOURRE_FUZZ_REPORT=path`` the number of hostile calls made is appended to ``path``."""

from __future__ import annotations

import atexit
import os
import random
from collections import Counter
from collections.abc import Callable
from fractions import Fraction
from functools import cache
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from bourre.game import Game
from bourre.game.actions import CARDS, PASS, PLAY, Action, Deck
from bourre.game.botmaking import make_bot
from bourre.game.observation import Discards
from bourre.game.players import ask
from bourre.game.state import State
from bourre.game.tablesteps import set_hand
from bourre.houses.house import House
from bourre.kernel import _house_facts, _kernel, rollouts

pytestmark = pytest.mark.skipif(not rollouts._OUTCOMES, reason="the kernel is not built")

FAST = settings(
    max_examples=int(os.environ.get("BOURRE_FUZZ_EXAMPLES", "25")),
    deadline=None,
    suppress_health_check=list(HealthCheck),
    derandomize=(  # (random where asked for examples, unless CI asks for a fixed run)
        "BOURRE_FUZZ_EXAMPLES" not in os.environ or "BOURRE_FUZZ_DERANDOMIZE" in os.environ
    ),
    database=None,
)
SLOW = settings(
    max_examples=int(os.environ.get("BOURRE_FUZZ_SLOW_EXAMPLES", "400")),
    deadline=None,
    suppress_health_check=list(HealthCheck),
    database=None,
)

CALLS: Counter[str] = Counter()
"""Hostile calls made, by entry (``BOURRE_FUZZ_REPORT``)."""


def _report() -> None:
    path = os.environ.get("BOURRE_FUZZ_REPORT")
    if path and CALLS:
        with open(path, "a", encoding="utf-8") as f:
            f.write(f"{sum(CALLS.values())} kernel calls: {dict(sorted(CALLS.items()))}\n")


atexit.register(_report)


def call(name: str, f: Callable[..., Any], *args: Any) -> Any:
    """``f(*args)``: its answer, or ``None`` when it raises a Python exception (the one
    thing it may do besides answering; a crash ends the run)."""
    CALLS[name] += 1
    try:
        return f(*args)
    except Exception:
        return None


def both(*strategies: Any, examples: tuple[tuple[Any, ...], ...] = ()) -> Callable[..., Any]:
    """A short fuzz for the default suite and a long one marked slow, of one body."""

    def wrap(body: Callable[..., None]) -> tuple[Any, Any]:
        def made(opts: settings) -> Any:
            test = given(*strategies)(body)
            for ex in examples:
                test = example(*ex)(test)
            return opts(test)

        return made(FAST), pytest.mark.slow(made(SLOW))

    return wrap


# -- hostile values -----------------------------------------------------------------------

EDGES = [-(2**63), -(2**62), -(10**100), -201, -2, -1, 0, 1, 2, 4, 5, 7, 8, 9, 12, 13, 51, 52, 53,
         99, 100, 101, 105, 200, 255, 256, 2**31 - 1, 2**31, 2**32, 2**62, 2**63 - 1, 2**63, 10**100]  # fmt: skip
INTS = st.one_of(st.sampled_from(EDGES), st.integers(-60, 60), st.integers(-(2**70), 2**70))
ATOMS = st.one_of(
    st.none(), st.booleans(), INTS, st.floats(), st.text(max_size=4), st.binary(max_size=4)
)
HOSTILE = st.recursive(
    ATOMS,
    lambda inner: st.one_of(
        st.lists(inner, max_size=9),
        st.lists(INTS, min_size=0, max_size=60),
        st.tuples(inner, inner, inner),
        st.dictionaries(st.text(max_size=3), inner, max_size=3),
    ),
    max_leaves=12,
)


@st.composite
def bent(draw: Any, value: object) -> object:
    """``value`` bent: replaced, an item replaced, dropped or added, or nested in a list."""
    how = draw(st.integers(0, 5))
    if how == 0 or not isinstance(value, (list, tuple)):
        return draw(HOSTILE) if how != 5 else draw(INTS)
    items = list(value)
    if how == 1 and items:
        items[draw(st.integers(0, len(items) - 1))] = draw(st.one_of(INTS, HOSTILE))
    elif how == 2 and items:
        del items[draw(st.integers(0, len(items) - 1))]
    elif how == 3:
        items.append(draw(st.one_of(INTS, HOSTILE)))
    elif how == 4 and items and isinstance(items[0], (list, tuple)):
        k = draw(st.integers(0, len(items) - 1))
        items[k] = draw(bent(items[k]))
    else:
        items = items * draw(st.integers(0, 3))
    return items if isinstance(value, list) else tuple(items)


@st.composite
def mutated(draw: Any, base: dict[str, Any]) -> dict[str, Any]:
    """A real dict with one to four fields bent or dropped (or a field added)."""
    d = dict(base)
    for _ in range(draw(st.integers(1, 4))):
        key = draw(st.sampled_from(sorted(d) + ["extra"]))
        if draw(st.integers(0, 9)) == 0:
            d.pop(key, None)
        else:
            d[key] = draw(bent(d.get(key, 0)))
    return d


# -- real worlds, positions and views to bend ------------------------------------------------

SPECS = ["standard", "simultaneous-reveal+double-ante+table(players=3)",
         "four-card+pot-limit(limit=3)+table(players=8)", "no-cinch+optional-undertrump+table(players=6)"]  # fmt: skip


def hand_at(spec: str | House, phase: str, seed: int) -> State:
    game = Game(spec, engine="python")
    bot = make_bot("heuristic", random.Random(seed), house=game.house)
    rng = random.Random(seed)
    while True:
        state = game.new_hand(dealer=seed % game.house.table.players)
        set_hand(state, dealer=seed % game.house.table.players, pot=7)
        cards = list(range(52))
        rng.shuffle(cards)
        state.apply_chance(Deck(tuple(cards)))
        stop = rng.randrange(4)
        while not state.is_terminal() and not (
            state.phase_name == phase and len(state.legal_actions()) > 1 and not stop
        ):
            if state.phase_name == phase:
                stop -= 1
            state.apply_action(ask(state, bot))
        if not state.is_terminal():
            return state


@cache
def worlds() -> list[tuple[dict[str, Any], dict[str, Any], list[object]]]:
    """(facts, world, candidate codes) of real hands in every phase of four houses."""
    out = []
    for spec in SPECS:
        for phase in ("decide", "exchange", "play"):
            for seed in range(2):
                state = hand_at(spec, phase, seed)
                got = rollouts._world(state, random.Random(seed))
                assert got is not None
                out.append((*got, rollouts._codes(list(state.legal_actions())[:3])))
    return out


@cache
def positions() -> list[tuple[dict[str, Any], dict[str, Any]]]:
    out = []
    for spec in SPECS:
        for seed in range(3):
            state = hand_at(spec, "play", seed)
            hs = state.hand
            facts = _house_facts(state.house)
            assert isinstance(facts, dict)
            out.append((facts, {
                "upcard": hs.upcard, "pot_at_stake": 7, "hands": [list(h) for h in hs.hands],
                "discards": [list(d) for d in hs.discards], "won": list(hs.won),
                "active": list(hs.active), "trick_seats": list(hs.trick_seats),
                "trick": list(hs.trick), "played": sorted(hs.played), "tricks": len(hs.tricks),
            }))  # fmt: skip
    return out


def plugin_decisions() -> House:
    """A house whose decisions and draw are plugins' (the worlds' runs made in Python:
    ``told``, issue 41)."""
    from tests.kernel.test_plugin_decisions import house

    return house("ace-may-pass+three-max+table(players=5)")


@cache
def views() -> list[tuple[dict[str, Any], dict[str, Any]]]:
    out = []
    for spec in [*SPECS, plugin_decisions()]:
        for phase in ("decide", "exchange", "play"):
            state = hand_at(spec, phase, 5)
            view = state.observation(state.current_player())
            facts = _house_facts(state.house)
            assert isinstance(facts, dict)
            w = rollouts._view(
                view, list(view.balances), view.pot, facts["scale"], random.Random(1)
            )
            assert w is not None
            rollouts._told(state.house, facts, view, view.pot, w)
            n = view.players
            w["dealt"] = [list(state.hand.hands[s]) for s in range(n)]
            w["gave"] = [list(g) for g in state.hand.gave]
            w["got"] = [list(g) for g in state.hand.got]
            out.append((facts, w))
    return out


CODES = st.lists(st.one_of(st.integers(-2, 60), INTS, st.lists(st.integers(-1, 53), max_size=6), HOSTILE), max_size=4)  # fmt: skip


def exercise(k: Any, codes: list[object], seats: list[object]) -> None:
    """Every call of a Stepper, with the codes and seats given (a world's or hostile)."""
    for me in seats:
        call("Stepper.rollouts", k.rollouts, codes, me)
        call("Stepper.rollout_outcomes", k.rollout_outcomes, codes, me)
        call("Stepper.observe", k.observe, me)
        call("Stepper.hand", k.hand, me)
    for name in ("current_player", "phase", "is_terminal", "legal_actions", "only_action",
                 "legal_mask", "cinch", "forced", "returns", "history_len", "hand_start", "number",
                 "overflow", "balances", "pot", "dealer", "first_dealer", "clone"):  # fmt: skip
        call(f"Stepper.{name}", getattr(k, name))
    call("Stepper.history", k.history, True)
    call("Stepper.history", k.history, False)
    for start in (0, 1, 53, 10**6, -1, 2**70):
        call("Stepper.history_since", k.history_since, start)
    for x in codes:
        call("Stepper.history_since", k.history_since, x)
    # the built-in bots of a session with a plugin's bots (bourre.kernel.mixed)
    n = len(call("Stepper.balances", k.balances) or [0, 0])
    plain = [(1, 0.25, 0.45, 2)] * n
    ones = [[0, 0, 0, 1]] * n
    for bots, words, python in (
        (plain, ones, 0), (plain, ones, 1), (plain, ones, -1), (plain, ones, 1 << 40),
        (plain[:1], ones, 0), (plain, ones[:1], 0), (plain, [[0, 0, 0, 0]] * n, 0),
        (codes, codes, 0), ([(7, 0.0, 0.0, 2)] * n, ones, 0), (plain, seats, 2),
    ):  # fmt: skip
        run = call("BotRun", _kernel.BotRun, k, bots, words, python)
        if run is not None:
            call("BotRun.run", run.run, k.clone())
    call("Stepper.log_hands", k.clone().log_hands)
    call("settled", _kernel.settled, k, Fraction, False)
    if small(k):
        call("dd_solve_stepper", _kernel.dd_solve_stepper, k)
    calls = call("Stepper.calls", k.calls)
    if calls is not None:
        for name in ("is_terminal", "current_player", "legal_actions", "only_action"):
            call(f"StepCalls.{name}", getattr(calls, name))
        call("StepCalls.apply_action", calls.apply_action, codes)


def small(k: Any) -> bool:
    """A position the solver settles at once (a few cards left), or not in the play."""
    if k.phase() != 3:
        return True
    seen = k.observe(0)
    return len(seen[6]) * (5 - len(seen[7])) <= 12


# -- the fuzz ---------------------------------------------------------------------------------


@both(st.integers(0, 10**6), st.data())
def _load_world(pick: int, data: Any) -> None:
    facts, w, codes = worlds()[pick % len(worlds())]
    bad = data.draw(st.one_of(st.just(w), mutated(w), mutated(w)))  # (a third whole)
    k = call("load_world", _kernel.load_world, facts, bad)
    if k is not None:
        exercise(k, codes + data.draw(CODES), [bad.get("seat"), 0, data.draw(INTS)])


test_load_world_fuzz, test_load_world_fuzz_long = _load_world


@both(st.integers(0, 10**6), st.data())
def _dd_solve(pick: int, data: Any) -> None:
    facts, position = positions()[pick % len(positions())]
    call("dd_solve", _kernel.dd_solve, facts, data.draw(mutated(position)))


test_dd_solve_fuzz, test_dd_solve_fuzz_long = _dd_solve


@cache
def advice_batches() -> list[tuple[dict[str, Any], list[Any]]]:
    """Real batches of ``advice_rows`` (``bourre advise``, the strategy chart): a house's
    facts and the call's arguments after them, for a seat at every place."""
    out = []
    for spec in SPECS:
        state = hand_at(spec, "decide", 5)
        facts = _house_facts(state.house)
        assert isinstance(facts, dict)
        n, dealer = state.n, state.hand.dealer
        for seat in range(n):
            mine = list(state.hand.hands[seat])
            up = state.hand.upcard
            if (seat == dealer) != (up in mine) or len(mine) != state.hand_size:
                continue  # (a seat that passed holds no cards)
            opts = [mine[:k] for k in range(len(mine) + 1)]
            out.append((facts, [seat, dealer, 5, [], [mine, mine], [up, up], [1, 2, 3, 4] * 2, [opts, opts[:2]], True]))  # fmt: skip
    return out


@both(st.integers(0, 10**6), st.data())
def _advice_rows(pick: int, data: Any) -> None:
    facts, args = advice_batches()[pick % len(advice_batches())]
    bad = list(args)
    for _ in range(data.draw(st.integers(0, 2))):  # (none: the batch as it is)
        k = data.draw(st.integers(0, len(bad) - 1))
        bad[k] = data.draw(
            st.one_of(HOSTILE, INTS, st.lists(st.lists(INTS, max_size=6), max_size=3))
        )
    got = call("advice_rows", _kernel.advice_rows, facts, *bad)
    if bad == args:
        assert got is not None and len(got[0]) == 2


test_advice_rows_fuzz, test_advice_rows_fuzz_long = _advice_rows


POWERS = st.one_of(
    st.just([1.0] * 52),
    st.lists(st.floats(), min_size=50, max_size=53),
    st.lists(st.floats(-3, 3), min_size=52, max_size=52),
    HOSTILE,
)


@both(st.integers(0, 10**6), st.data())
def _worlds(pick: int, data: Any) -> None:
    facts, w = views()[pick % len(views())]
    bad = data.draw(mutated(w))
    count, tries = data.draw(st.one_of(st.integers(0, 3), INTS)), data.draw(st.integers(-1, 3))
    got = call("sample_worlds", _kernel.sample_worlds, facts, bad, count, tries,
               data.draw(POWERS), data.draw(POWERS))  # fmt: skip
    for world in got if isinstance(got, list) else []:
        if world is not None:
            exercise(world, data.draw(CODES), [bad.get("me"), 0])
    world = call("replay_world", _kernel.replay_world, facts, bad)
    if world is not None and not isinstance(world, int):
        exercise(world, data.draw(CODES), [bad.get("me"), 1])


test_worlds_fuzz, test_worlds_fuzz_long = _worlds


@cache
def house_facts() -> list[dict[str, Any]]:
    out = []
    for spec in SPECS:
        facts = _house_facts(Game(spec, engine="python").house)
        assert isinstance(facts, dict)
        out.append(facts)
    return out


@both(st.integers(0, 10**6), st.data())
def _stepper(pick: int, data: Any) -> None:
    """A Stepper made with anything, then stepped: mostly its legal steps (to reach every
    phase of many hands), with hostile calls between them."""
    facts = house_facts()[pick % len(house_facts())]
    if data.draw(st.booleans()):
        facts = data.draw(mutated(facts))
    house = call("HouseFacts", _kernel.HouseFacts, facts)
    if house is None:
        return
    n = facts.get("players", 5) if isinstance(facts.get("players"), int) else 5
    args = [house, data.draw(st.one_of(st.just("1"), st.none(), HOSTILE)),
            data.draw(st.one_of(st.just([100] * max(0, min(n, 8))), HOSTILE)),
            data.draw(st.one_of(st.integers(-1, 8), INTS)), data.draw(st.one_of(st.integers(1, 40), INTS)),
            data.draw(st.booleans()), data.draw(st.one_of(st.just(0), INTS)), data.draw(st.booleans())]  # fmt: skip
    k = call("Stepper", _kernel.Stepper, *args)
    if k is None:
        return
    rng = random.Random(data.draw(st.integers(0, 2**32)))
    for _ in range(data.draw(st.integers(0, 400))):
        phase = k.phase()
        if phase == 4:
            break
        if rng.random() < 0.05:
            what = rng.choice(["play", "decide", "exchange", "apply_deck"])
            call(f"Stepper.{what}", getattr(k, what), data.draw(HOSTILE))
            exercise(k, data.draw(CODES), [data.draw(INTS), k.current_player()])
            continue
        if phase == 0:
            deck = list(range(52))
            rng.shuffle(deck)
            call("Stepper.apply_deck", k.apply_deck, deck)
        elif phase == 1:
            call("Stepper.decide", k.decide, rng.random() < 0.7)
        elif phase == 2:
            hand = list(k.hand(k.current_player()))
            call("Stepper.exchange", k.exchange, rng.sample(hand, rng.randrange(len(hand) + 1)))
        else:
            mask = k.legal_mask()
            cards = [c for c in range(52) if mask >> c & 1]
            call("Stepper.play", k.play, rng.choice(cards) if cards else 0)
    exercise(k, data.draw(CODES), [0, data.draw(INTS)])


test_stepper_fuzz, test_stepper_fuzz_long = _stepper


BOTS = st.lists(st.one_of(st.tuples(st.integers(-1, 2), st.floats(), st.floats(), st.integers(0, 16)), HOSTILE), max_size=9)  # fmt: skip
WORDS = st.one_of(st.just([]), st.lists(st.lists(st.one_of(st.integers(0, 2**32 - 1), INTS), max_size=5), max_size=9), HOSTILE)  # fmt: skip


@both(st.integers(0, 10**6), st.data())
def _sessions(pick: int, data: Any) -> None:
    """The whole sessions' entries (play_shared, play_streams, prepare, play_prepared,
    stream_words) with bent houses, bots, seeds and streams."""
    facts = dict(house_facts()[pick % len(house_facts())])
    facts["hands"] = data.draw(st.integers(1, 30))
    if data.draw(st.booleans()):
        facts = data.draw(mutated(facts))
    n = facts.get("players") if isinstance(facts.get("players"), int) else 5
    good = [(1, 0.25, 0.45, 2)] * max(0, min(n, 8))
    bots = data.draw(st.one_of(st.just(good), BOTS))
    from fractions import Fraction

    fraction = data.draw(st.sampled_from([Fraction, int, None, "x"]))
    fast = data.draw(st.booleans())
    seeds = data.draw(st.one_of(st.lists(st.text(max_size=3), max_size=2), HOSTILE))
    call("play_shared", _kernel.play_shared, facts, bots, seeds, fraction, fast)
    words = data.draw(WORDS)
    tally = data.draw(st.booleans())
    call("play_streams", _kernel.play_streams, facts, bots, "s", words, fraction, fast, tally)
    prepared = call("prepare", _kernel.prepare, facts, bots, data.draw(st.booleans()))
    call("play_prepared", _kernel.play_prepared, prepared, "s", words, fraction, fast, tally)
    call("stream_words", _kernel.stream_words, data.draw(st.one_of(st.text(max_size=8), HOSTILE)))


test_sessions_fuzz, test_sessions_fuzz_long = _sessions


@both(
    st.one_of(st.tuples(), st.tuples(st.integers(0, 51)), st.lists(st.integers(0, 51), max_size=8).map(tuple), HOSTILE),
    st.one_of(st.integers(-3, 9), INTS, HOSTILE),
    st.data(),
)  # fmt: skip
def _discards(hand: Any, limit: Any, data: Any) -> None:
    """KernelDiscards made with anything, and every one of its calls."""
    d = call("KernelDiscards", _kernel.KernelDiscards, hand, limit)
    if d is None:
        return
    CALLS["KernelDiscards.*"] += 1
    size = len(d)
    for i in data.draw(
        st.lists(st.one_of(st.integers(-size - 2, size + 2), INTS, HOSTILE), max_size=4)
    ):
        call("KernelDiscards[]", d.__getitem__, i)
    probe = data.draw(st.one_of(st.sampled_from([PASS, PLAY, CARDS[0]]), HOSTILE,
                                st.builds(Action, st.just("discard"), st.lists(INTS, max_size=6).map(tuple))))  # fmt: skip
    call("KernelDiscards.in", d.__contains__, probe)
    call("KernelDiscards.==", d.__eq__, data.draw(HOSTILE))
    call("KernelDiscards.==", d.__eq__, Discards(tuple(range(3)), 2))
    call("KernelDiscards.*", hash, d)
    call("KernelDiscards.*", repr, d)
    call("KernelDiscards.*", d.__reduce__)
    if size < 5000:  # (a whole hand with no limit: 2^52 discards, not listed)
        call("KernelDiscards.*", list, d)
        call("KernelDiscards.*", list, reversed(d))
        call("KernelDiscards.index", d.index, probe)
        call("KernelDiscards.count", d.count, probe)


test_discards_fuzz, test_discards_fuzz_long = _discards

REAL_ACTIONS = (CARDS, PASS, PLAY, Discards)


@both(
    st.one_of(st.just(CARDS), st.lists(st.sampled_from(CARDS + (PASS, PLAY, None)), max_size=53).map(tuple), HOSTILE),
    st.one_of(st.sampled_from([PASS, PLAY, Action("pass", (1,))]), HOSTILE),
    st.one_of(st.sampled_from([PASS, PLAY]), HOSTILE),
    st.one_of(st.sampled_from([Discards, int, object]), HOSTILE),
    examples=(((None,) * 52, None, None, None),),
)  # fmt: skip
def _set_actions(cards: Any, pass_: Any, play: Any, discards: Any) -> None:
    """set_actions with anything; the real actions set again after (the kernel's state
    is process-wide), and a session stepped with them."""
    try:
        call("set_actions", _kernel.set_actions, cards, pass_, play, discards)
        cls = type("Anything", (), {})
        call("bind_state_methods", _kernel.bind_state_methods, data_or(cls, discards))
        call("bind_state_methods.calls", getattr(cls, "is_terminal", lambda _: 0), cls())
    finally:
        _kernel.set_actions(*REAL_ACTIONS)
    state = Game("standard", engine="kernel").new_session(seed=1)
    for _ in range(30):
        state.apply_action(state.legal_actions()[0])


def data_or(cls: type, other: object) -> object:
    return cls if not isinstance(other, type) or other in (int, object) else other


test_set_actions_fuzz, test_set_actions_fuzz_long = _set_actions


EDITABLE = ["active", "trick_seats", "won", "hands", "discards", "gave", "got", "stock", "pile",
            "chosen", "decisions", "tricks", "played", "trick", "step", "exchanging", "dealer",
            "upcard", "leader"]  # fmt: skip


@both(st.integers(0, 10**6), st.sampled_from(EDITABLE), st.data())
def _edited_world(pick: int, name: str, data: Any) -> None:
    """The Python API: heuristic_rollouts / heuristic_outcomes on a Python State whose
    hand was edited (``st.hand.active[k] = 200`` …): an answer or a Python exception."""
    spec = SPECS[pick % len(SPECS)]
    state = hand_at(spec, ["decide", "exchange", "play"][pick // 7 % 3], pick % 5)
    seat, legal = state.current_player(), list(state.legal_actions())[:3]
    hs = state.hand
    value = getattr(hs, name, None)
    try:
        setattr(hs, name, data.draw(bent(value)))
    except Exception:
        return
    call("heuristic_rollouts", rollouts.heuristic_rollouts, state, legal, seat, random.Random(0))
    call("heuristic_outcomes", rollouts.heuristic_outcomes, state, legal, seat, random.Random(0))


test_edited_world_fuzz, test_edited_world_fuzz_long = _edited_world


ACTION_PARTS = st.tuples(
    st.sampled_from(["card", "discard", "pass", "play", "", "CARD", None, 7]),
    st.one_of(st.lists(INTS, max_size=6).map(tuple), st.tuples(), HOSTILE),
)


@both(
    st.integers(0, 2**16),
    st.lists(ACTION_PARTS, min_size=1, max_size=6),
    examples=(  # (stand pat with its cards as a list, taken by both: found by the fuzz in CI)
        (65536, [("card", ()), ("card", ()), ("card", ()), ("card", ()), ("discard", [])]),
        (0, [("pass", None)]),  # (cards that are not a sequence: refused by both alike)
    ),
)
def _kernel_state_actions(seed: int, parts: list[tuple[Any, Any]]) -> None:
    """The API level: any action given to a kernel state is refused exactly as the
    Python state refuses it (the same exception, the same words), both unchanged."""
    spec = SPECS[seed % len(SPECS)]
    kernel = Game(spec, engine="kernel").new_session(seed=seed)
    python = Game(spec, engine="python").new_session(seed=seed)
    rng = random.Random(seed)
    for kind, cards in parts:
        for _ in range(rng.randrange(12)):
            legal = python.legal_actions()
            if python.is_terminal() or not legal:
                break
            a = legal[rng.randrange(len(legal))]
            kernel.apply_action(a)
            python.apply_action(a)
        action = Action(kind, cards)
        answers = []
        for state in (kernel, python):
            CALLS["KernelState.apply_action"] += state is kernel
            try:
                state.clone().apply_action(action)
                answers.append(None)
            except Exception as e:  # (the Python rules' refusal, whatever its type)
                answers.append((type(e), str(e)))
        assert answers[0] == answers[1], (action, answers)


test_kernel_state_actions_fuzz, test_kernel_state_actions_fuzz_long = _kernel_state_actions


def rule_calls(facts: dict[str, Any]) -> dict[str, tuple[object, ...]]:
    """A real call of each rule function of ``_kernel.rules`` (issue 41), to bend."""
    hand, trick, known = (1, 14, 27, 40, 51), (3, 16), (12, 25)
    return {
        "follow": (hand, trick, 0),
        "follow_optional_undertrump": (hand, trick, 1),
        "house_follow": (facts, hand, trick, 2),
        "has_cinch": (hand, 3, known, 2),
        "highest_trumps": ((40, 51), hand, 3, known),
        "cinch_narrow": (hand, hand, trick, 3, known, False),
        "legal": (facts, hand, trick, 3, known, 1, True),
        "trick_winner": ((5, 20, 3, 50), 1),
        "lead": ((0, 2, 3), 5, 1, 3),
        "decision_turn": (False, 5, 4, 4, -1, 12, 0),
        "draw": (hand, (1, 14, 27), (2, 3), (4, 5, 6), 5),
        "hand_antes": (facts, False, (0, 1)),
        "play_ante": (facts,),
        "penalty": (facts, 7),
        "payout": (facts, (0, 1, 2), (2, 3, 0, 0, 0, 0, 0, 0)[: facts["players"]], 9),
        "next_dealer": (5, 4),
        "settle": ((100, -3, 7), 5),
    }


@both(st.integers(0, 10**6), st.data())
def _rules(pick: int, data: Any) -> None:
    """Each rule function of ``_kernel.rules`` (the twins' tests) with its arguments
    kept, bent or replaced by anything: an answer or a ValueError, never a crash."""
    facts = house_facts()[pick % len(house_facts())]
    calls = rule_calls(facts)
    name = sorted(calls)[pick // 7 % len(calls)]
    args = []
    for a in calls[name]:
        how = data.draw(st.integers(0, 3))
        if how == 0 or (how == 1 and isinstance(a, bool)):
            args.append(a)
        elif how == 1 and isinstance(a, dict):
            args.append(data.draw(mutated(a)))
        elif how == 1:
            args.append(data.draw(bent(a)))
        else:
            args.append(data.draw(st.one_of(INTS, HOSTILE)))
    call(f"rules.{name}", getattr(_kernel.rules, name), *args)


test_rules_fuzz, test_rules_fuzz_long = _rules
