"""The compiled kernel's boundary (issue 42): whatever Python hands it, each entry either
works or raises a Python exception naming what it refused; it never reads or writes
out of bounds, and its money never overflows (checked before each sum: the Python rules
take over beyond its range, with the same result).  The issue's reproducers, one test
each: an edited hand given to the rollouts, garbage given to ``set_actions``, a card
beyond any int, ``copy.copy`` of a kernel state, a pot pushed past 2^127.
(``tests/test_kernel_fuzz.py`` drives every entry with random and hostile inputs.)"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable
from typing import Any

import pytest

from bourre.game import Game
from bourre.game.actions import CARDS, PASS, PLAY, Action, Deck
from bourre.game.botmaking import make_bot
from bourre.game.observation import Discards
from bourre.game.players import ask
from bourre.game.state import State
from bourre.game.tablesteps import set_hand
from bourre.kernel import _house_facts, _kernel, rollouts
from bourre.rules import RuleViolation

pytestmark = pytest.mark.skipif(not rollouts._OUTCOMES, reason="the kernel is not built")


def hand_at(phase: str, spec: str = "standard", seed: int = 0) -> State:
    """A hand on the Python rules stepped by heuristic bots to a seat's choice in
    ``phase`` (decide, exchange or play)."""
    game = Game(spec, engine="python")
    bot = make_bot("heuristic", random.Random(1), house=game.house)
    rng = random.Random(seed)
    while True:
        state = game.new_hand(dealer=0)
        set_hand(state, dealer=0, pot=7)
        cards = list(range(52))
        rng.shuffle(cards)
        state.apply_chance(Deck(tuple(cards)))
        while not state.is_terminal() and not (
            state.phase_name == phase and len(state.legal_actions()) > 1
        ):
            state.apply_action(ask(state, bot))
        if not state.is_terminal():
            return state


def _set(name: str, k: int, value: object) -> Callable[[Any], None]:
    def edit(hs: Any) -> None:
        getattr(hs, name)[k] = value

    return edit


EDITS: dict[str, Callable[[Any], None]] = {
    "active seat 200": _set("active", 0, 200),
    "active seat -1": _set("active", 1, -1),
    "active seat twice": lambda hs: hs.active.__setitem__(1, hs.active[0]),
    "trick_seats 200": _set("trick_seats", 1, 200),
    "won 200": _set("won", 0, 200),
    "won -3": _set("won", 2, -3),
    "a card 200 in a hand": lambda hs: hs.hands[hs.active[0]].append(200),
    "a card in two hands": lambda hs: hs.hands[hs.active[1]].append(hs.hands[hs.active[0]][0]),
    "a hand of 9 cards": lambda hs: hs.hands[hs.active[0]].extend([0, 1, 2, 3]),
    "step -5": lambda hs: setattr(hs, "step", -5),
    "step 99": lambda hs: setattr(hs, "step", 99),
    "exchanging 50": lambda hs: setattr(hs, "exchanging", 50),
    "a discard 77": lambda hs: hs.discards[hs.active[0]].append(77),
}


@pytest.mark.parametrize("edit", list(EDITS))
@pytest.mark.parametrize("outcomes", [False, True])
def test_an_edited_hand_is_refused_not_read(edit: str, outcomes: bool) -> None:
    """``st.hand.active[k] = 200`` (and the like) made the kernel's ``load_world`` read and
    write out of bounds (a segfault): now a ``ValueError`` naming the field, or a
    Python error before the kernel is reached."""
    state = hand_at("play")
    seat, legal = state.current_player(), list(state.legal_actions())
    EDITS[edit](state.hand)
    run = rollouts.heuristic_outcomes if outcomes else rollouts.heuristic_rollouts
    with pytest.raises(ValueError, match="world: "):
        run(state, legal, seat, random.Random(0))


@pytest.mark.parametrize("phase", ["decide", "exchange", "play"])
def test_an_edited_step_or_turn_is_refused(phase: str) -> None:
    """The decisions' point (``step``, ``exchanging``, the decisions told) must be a turn the
    decisions component gives; anything else is refused, in every phase."""
    for edit in ("step -5", "step 99", "exchanging 50"):
        state = hand_at(phase)
        seat, legal = state.current_player(), list(state.legal_actions())[:2]
        EDITS[edit](state.hand)
        with pytest.raises(ValueError, match="world: "):
            rollouts.heuristic_rollouts(state, legal, seat, random.Random(0))


def test_an_unedited_hand_still_loads() -> None:
    """(The checks refuse nothing the rules reach: every phase loads and plays out.)"""
    for phase in ("decide", "exchange", "play"):
        state = hand_at(phase, "standard+table(players=6)", 3)
        got = rollouts.heuristic_rollouts(
            state, list(state.legal_actions())[:3], state.current_player(), random.Random(0)
        )
        assert got is not None and len(got) == min(3, len(state.legal_actions()))


GARBAGE_ACTIONS: list[tuple[Any, ...]] = [
    ((None,) * 52, None, None, None),
    (CARDS, None, PLAY, Discards),
    (CARDS, PASS, None, Discards),
    (CARDS, PASS, PLAY, None),
    (CARDS[:51], PASS, PLAY, Discards),
    (CARDS[1:] + CARDS[:1], PASS, PLAY, Discards),
    (list(CARDS), PASS, PLAY, Discards),
    (CARDS, ("pass", ()), ("play", ()), Discards),
    (CARDS, PLAY, PASS, Discards),
    ((Action("card", (10**100,)),) * 52, PASS, PLAY, Discards),
]


@pytest.mark.parametrize("args", GARBAGE_ACTIONS, ids=range(len(GARBAGE_ACTIONS)))
def test_set_actions_refuses_garbage_and_keeps_its_actions(args: tuple[Any, ...]) -> None:
    """``_kernel.set_actions((None,) * 52, None, None, None)`` aborted the process; any
    garbage is now a TypeError, and the actions set before stay (a session still steps)."""
    with pytest.raises(TypeError, match="set_actions"):
        _kernel.set_actions(*args)
    state = Game("standard", engine="kernel").new_session(seed=3)
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    assert state.legal_actions() == []


def _stepper(players: int = 5, hands: int = 1) -> Any:
    game = Game(f"standard+table(players={players})", engine="python")
    facts = _house_facts(game.house)
    assert isinstance(facts, dict)
    return _kernel.Stepper(_kernel.HouseFacts(facts), "1", [100] * players, 0, hands, True)


def test_the_stepper_refuses_garbage() -> None:
    """The Stepper's own calls take anything: a card that is not an int 0..51 is not
    taken (``False``: the wrapper then asks the Python rules for the refusal's words),
    never a pybind11 TypeError or a read out of bounds."""
    k = _stepper()
    for card in (10**100, -(10**100), -1, 52, 1.0, "1", None, True):
        assert k.play(card) is False
    for cards in ([10**100], (52,), [1.5], "abc", None, list(range(60)), 7):
        assert k.exchange(cards) is False
    for deck in (None, list(range(51)), [0] * 52, [10**100] * 52, "x" * 52):
        assert k.apply_deck(deck) is False
    assert k.decide(None) is False and k.decide(2) is False
    for seat in (-1, 5, 10**6):
        with pytest.raises(ValueError):
            k.observe(seat)
        with pytest.raises(ValueError):
            k.hand(seat)
    facts = _kernel.HouseFacts(_house_facts(Game("standard", engine="python").house))
    for args in (
        ([2**63 - 1] * 5, 0, 1, True, 0),
        ([100] * 5, 0, 1, True, 2**62),
        ([100] * 5, 0, 1, True, -1),
        ([100] * 4, 0, 1, True, 0),
        ([100] * 5, 7, 1, True, 0),
        ([100] * 5, 0, 0, True, 0),
    ):
        balances, dealer, hands, keep, pot = args
        with pytest.raises(ValueError):
            _kernel.Stepper(facts, "s", balances, dealer, hands, keep, pot)
    with pytest.raises(TypeError, match="seed"):
        _kernel.Stepper(facts, 12, [100] * 5, 0, 1, True)


def test_the_house_facts_are_checked() -> None:
    """A house's facts out of range (scale, amounts beyond 2^62) are a ValueError."""
    facts = _house_facts(Game("standard", engine="python").house)
    assert isinstance(facts, dict)
    for key, value in (("scale", 0), ("scale", 2**62), ("balance", 2**62), ("ante", -(2**62)),
                       ("players", 9), ("hand_size", 6), ("first_dealer", 5)):  # fmt: skip
        with pytest.raises(ValueError):
            _kernel.HouseFacts({**facts, key: value})
    with pytest.raises(ValueError, match="wrong type"):
        _kernel.HouseFacts({**facts, "players": None})


def _position(state: State) -> dict[str, Any]:
    hs = state.hand
    return {
        "upcard": hs.upcard, "pot_at_stake": 7, "hands": [list(h) for h in hs.hands],
        "discards": [list(d) for d in hs.discards], "won": list(hs.won),
        "active": list(hs.active), "trick_seats": list(hs.trick_seats), "trick": list(hs.trick),
        "played": sorted(hs.played), "tricks": len(hs.tricks),
    }  # fmt: skip


def test_the_solver_refuses_a_position_it_cannot_hold() -> None:
    """``dd_solve``: a trick order that is not the players', a card in two hands, a count
    beyond the hand: a ValueError naming the field, before any search."""
    state = hand_at("play")
    game = Game("standard", engine="python")
    facts = _house_facts(game.house)
    good = _position(state)
    _kernel.dd_solve(facts, good)
    a, b = good["active"][:2]
    bad: list[tuple[str, object]] = [
        ("trick_seats", [a] * len(good["active"])),
        ("active", [a, a]),
        ("hands", [*good["hands"][:a], good["hands"][a] + [good["hands"][b][0]], *good["hands"][a + 1 :]]),
        ("won", [200] * 5),
        ("tricks", 5),
        ("tricks", -1),
        ("pot_at_stake", -1),
        ("upcard", 52),
        ("trick", [0, 1, 2, 3, 4, 5]),
    ]  # fmt: skip
    for key, value in bad:
        with pytest.raises(ValueError, match="position: "):
            _kernel.dd_solve(facts, {**good, key: value})
    with pytest.raises(TypeError, match="hands"):
        _kernel.dd_solve(facts, {k: v for k, v in good.items() if k != "hands"})


def test_a_world_whose_follow_rule_the_kernel_cannot_hold_is_refused() -> None:
    """A follow hook given to a loaded world (the wrapper gives a plugin's follow rule,
    rollouts.LOAD_HOOKS) whose answer the kernel cannot hold (``None``, status
    OVERFLOW): ``load_world`` and the rollouts refuse it in words, never play on with a
    wrong legal set, even when a later answer is held again (``replay_world`` hands such
    a sample to the Python rules: 1)."""
    state = hand_at("play", "standard+table(players=3)")
    got = rollouts._world(state, random.Random(0))
    assert got is not None
    facts, w = got
    follow = _kernel_rules_follow(facts)
    never = {**facts, "follow_hook": lambda hand, trick, trump: None}
    with pytest.raises(ValueError, match="cannot hold"):
        _kernel.load_world(never, w)
    calls = [0]

    def late(hand: tuple[int, ...], trick: tuple[int, ...], trump: int) -> int | None:
        calls[0] += 1
        return follow(hand, trick, trump) if calls[0] == 1 else None

    world = _kernel.load_world({**facts, "follow_hook": late}, w)
    with pytest.raises(ValueError, match="cannot hold"):
        world.rollouts([a.cards[0] for a in state.legal_actions()][:1], state.current_player())

    def once(hand: tuple[int, ...], trick: tuple[int, ...], trump: int) -> int | None:
        calls[0] += 1
        return None if calls[0] == 2 else follow(hand, trick, trump)  # (held again after)

    calls[0] = 0
    world = _kernel.load_world({**facts, "follow_hook": once}, w)
    with pytest.raises(ValueError, match="cannot hold"):
        world.rollouts([a.cards[0] for a in state.legal_actions()][:1], state.current_player())
    assert calls[0] == 2  # (the hand stopped at the answer it could not hold)


def _kernel_rules_follow(facts: dict[str, Any]) -> Callable[..., int]:
    """The built-in obligations as a follow hook answers them (a mask)."""

    def follow(hand: tuple[int, ...], trick: tuple[int, ...], trump: int) -> int:
        mask = 0
        for c in _kernel.rules.house_follow(facts, hand, trick, trump):
            mask |= 1 << c
        return mask

    return follow


def test_sampled_worlds_refuse_garbage() -> None:
    """``sample_worlds`` / ``replay_world``: a missing field, a seat or card out of
    range, an absurd count: a Python exception naming it."""
    state = hand_at("play")
    game = Game("standard", engine="python")
    facts = _house_facts(game.house)
    view = state.observation(state.current_player())
    w = rollouts._view(view, list(view.balances), view.pot, 1, random.Random(0))
    assert w is not None
    powers = [1.0] * 52
    assert isinstance(_kernel.sample_worlds(facts, w, 2, 3, powers, powers), list)
    for key, value in (("me", 9), ("dealer", -1), ("upcard", 99), ("hand", [0] * 9),
                       ("plays", [(0, 60)]), ("decisions", [(12, True, 0)]), ("pot", -1),
                       ("balances", [2**62] * 5), ("words", [1, 2])):  # fmt: skip
        with pytest.raises(ValueError):
            _kernel.sample_worlds(facts, {**w, key: value}, 2, 3, powers, powers)
    with pytest.raises(ValueError, match="count"):
        _kernel.sample_worlds(facts, w, 10**7, 3, powers, powers)
    with pytest.raises(TypeError, match="plays"):
        _kernel.sample_worlds(
            facts, {k: v for k, v in w.items() if k != "plays"}, 1, 1, powers, powers
        )
    world = {**w, "dealt": [[0, 1, 2, 3, 4]] * 5, "gave": [[]] * 5, "got": [[]] * 5}
    assert _kernel.replay_world(facts, world) == 0  # (the rules refuse that deal: 0)
    with pytest.raises(ValueError):
        _kernel.replay_world(facts, {**world, "dealt": [[0]] * 4})


@pytest.mark.parametrize("engine", ["kernel", "python"])
@pytest.mark.parametrize("cards", [(10**100,), (-(10**100),), (52,)])
def test_a_card_beyond_any_int_is_the_rules_refusal(engine: str, cards: tuple[int, ...]) -> None:
    """``apply_action(Action('card', (10**100,)))`` raised a pybind11 TypeError on the
    kernel's state: now the Python rules' RuleViolation, the same words on both engines,
    at every phase (and a discard of such a card alike)."""
    words = {}
    for eng in ("kernel", "python"):
        state = Game("standard", engine=eng).new_session(seed=5)
        got = []
        while not state.is_terminal() and len(got) < 3:
            phase = state.phase_name
            for kind in ("card", "discard"):
                with pytest.raises(RuleViolation) as e:
                    state.apply_action(Action(kind, cards))
                got.append((phase, kind, e.value.rule, str(e.value)))
            legal = state.legal_actions()
            state.apply_action(PLAY if PLAY in legal else legal[0])
        words[eng] = got
    assert words["kernel"] == words["python"]


def test_a_candidate_beyond_any_int_is_the_rules_refusal() -> None:
    """The rollouts refuse a candidate as the Python rules do (their RuleViolation)."""
    state = hand_at("play")
    with pytest.raises(RuleViolation):
        rollouts.heuristic_rollouts(
            state, [Action("card", (10**100,))], state.current_player(), random.Random(0)
        )
    with pytest.raises(RuleViolation):
        rollouts.heuristic_outcomes(state, [PASS], state.current_player(), random.Random(0))


def test_copy_of_a_kernel_state_is_a_real_copy() -> None:
    """``copy.copy`` (and ``copy.deepcopy``) of a kernel state shared its C++ state with
    the original: stepping the copy stepped both."""
    state = Game("standard", engine="kernel").new_session(seed=2)
    for make in (copy.copy, copy.deepcopy):
        before = list(state.history())
        other = make(state)
        assert type(other) is type(state)
        for _ in range(6):
            other.apply_action(other.legal_actions()[0])
        assert state.history() == before
        assert len(other.history()) > len(before)


def everyone_plays(state: Any) -> list[Any]:
    """Every seat plays every hand, stands pat, plays its first legal card: the pot
    grows at least threefold a hand (three bourrés or more pay it, R-BOURRE)."""
    while not state.is_terminal():
        legal = state.legal_actions()
        state.apply_action(PLAY if PLAY in legal else legal[0])
    return list(state.returns())


def test_money_beyond_128_bits_is_the_python_rules() -> None:
    """8 players, 400 hands, everyone plays: the pot passes 2^127 (a signed overflow in
    the kernel's money, undefined behaviour).  The kernel's state now hands over to the
    Python rules (exact at any size) and the returns are theirs, exactly."""
    spec = "standard+table(players=8,hands=400)"
    kernel = Game(spec, engine="kernel").new_session(seed=11)
    assert type(kernel).__name__ == "KernelState"
    got = everyone_plays(kernel)
    want = everyone_plays(Game(spec, engine="python").new_session(seed=11))
    assert got == want
    assert max(abs(x) for x in want) > 2**200  # (far beyond the kernel's range)


def test_the_stepper_money_stops_before_it_overflows() -> None:
    """The Stepper itself: once its money leaves +-2^100 it says so (``overflow``) and
    computes no more money, so none ever wraps: what it holds still adds up to the
    table's money (R-ANTE: balances and pot always add up), the pot positive."""
    k = _stepper(8, 400)
    while k.phase() != 4:
        phase = k.phase()
        if phase == 1:
            assert k.decide(True)
        elif phase == 2:
            assert k.exchange([])
        else:
            mask = k.legal_mask()
            assert k.play((mask & -mask).bit_length() - 1)
    assert k.overflow()
    assert k.pot() > 0
    assert sum(k.balances()) + k.pot() == 800
