"""A state that keeps no hand's result (``keep_results=False``): the same sessions, the
memory of one hand.  These tests step a lean and a full state side by side and compare
every field of their hands at every step."""

from __future__ import annotations

import random

import pytest
from conftest import ALTERNATIVES
from hypothesis import given, settings
from hypothesis import strategies as st

from bourre.game.players import play_out
from bourre.game.simulate import play_session
from bourre.game.state import State
from bourre.game.xoshiro import stream
from bourre.houses.house import House
from bourre.rules.hand import HandState
from bourre_bots.random_bot import RandomPlayer

_HOUSES: dict[str, House] = {}


def _house(n: int, variants: list[str]) -> House:
    spec = "+".join(["standard", *variants, f"table(players={n})"])
    if spec not in _HOUSES:
        _HOUSES[spec] = House(spec)
    return _HOUSES[spec]


def _fields(hs: HandState) -> dict[str, object]:
    """Every field of a hand state but its reshuffle (each state's own stream)."""
    assert "reshuffle" in vars(hs)
    return {k: v for k, v in vars(hs).items() if k != "reshuffle"}


def _side_by_side(house: House, seed: int) -> tuple[State, State]:
    """A full and a lean state of one session stepped with the same answers; the
    fields of their hands compared at every step.  Returns both."""
    full, lean = State(house, seed=seed), State(house, seed=seed, keep_results=False)
    bot = RandomPlayer(random.Random(seed))
    while not full.is_terminal():
        assert _fields(lean.hand) == _fields(full.hand)
        action = bot.choose(full.legal_actions())
        full.apply_action(action)
        lean.apply_action(action)
        h = lean.history()  # the current hand's actions only, from its deal
        assert full.history()[-len(h) :] == h and type(h[0]).__name__ == "Deck"
    assert lean.is_terminal() and lean.final == full.final
    return full, lean


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    n=st.integers(2, 8),
    variants=st.lists(st.sampled_from(list(ALTERNATIVES)), unique=True, max_size=2),
)
def test_a_lean_state_plays_the_same_session(seed: int, n: int, variants: list[str]) -> None:
    """Every field of every hand, every action and the settlement are those of a
    state that keeps its results; the lean one keeps none."""
    full, lean = _side_by_side(_house(n, variants), seed)
    assert len(full.results) == full.hands_total and lean.results == []


def _hand_states(state: State, seed: int) -> list[HandState]:
    """Play ``state`` out with a random bot; the distinct hand-state objects it used
    (the objects themselves: a freed one's id is reused)."""
    seen: list[HandState] = []
    bot = RandomPlayer(random.Random(seed))
    while not state.is_terminal():
        if all(h is not state.hand for h in seen):
            seen.append(state.hand)
        state.apply_action(bot.choose(state.legal_actions()))
    return seen


def test_play_session_keeps_no_hand_unless_asked() -> None:
    """play_session lets each hand go unless it keeps the hands, records or reports
    them; the sessions are the same."""
    house = House("standard")
    kept = play_session(house, seed=9)
    lean = play_session(house, seed=9, keep_hands=False)
    told: list[int] = []
    reported = play_session(
        house, seed=9, keep_hands=False, on_hand=lambda r: told.append(r.number)
    )
    assert lean.hands == [] and len(kept.hands) == house.table.hands
    assert lean.final == kept.final == reported.final and lean.ranks == kept.ranks
    assert told == list(range(1, house.table.hands + 1))


@pytest.mark.parametrize("seed", [0, 5, "x"])
def test_one_random_bot_serves_every_seat(seed: int | str) -> None:
    """play_session's default players are one random bot seated at every seat, its
    stream named by the session's seed: the same session, hand by hand, as that
    bot given explicitly; bots of their own at each seat play another session."""
    house = House("standard")
    one = play_session(house, seed=seed)
    bot = RandomPlayer(stream(f"bourre-bots:{seed}"))
    same = play_session(house, seed=seed, players=[bot] * 5)
    assert [r.state.tricks for r in one.hands] == [r.state.tricks for r in same.hands]
    assert one.final == same.final and one.ranks == same.ranks
    each = play_session(house, seed=seed, players=lambda s, rng: RandomPlayer(rng))
    assert [r.state.tricks for r in one.hands] != [r.state.tricks for r in each.hands]


def test_sessions_of_many_houses_in_turn_play_as_each_house_alone() -> None:
    """More houses than one, played in turn, play the sessions each plays alone, with
    their own components."""
    specs = [f"standard+table(players={n})" for n in range(2, 9)]
    specs += ["four-card", "no-cinch", "optional-undertrump", "double-ante+table(hands=3)"]
    alone = {}
    for spec in specs:
        res = play_session(House(spec), seed=4)
        alone[spec] = (res.final, res.ranks, [r.state.tricks for r in res.hands])
    houses = [House(spec) for spec in specs]
    for _ in range(2):
        for spec, house in zip(specs, houses, strict=True):
            res = play_session(house, seed=4)
            assert (res.final, res.ranks, [r.state.tricks for r in res.hands]) == alone[spec]
            state = State(house, seed=1)
            assert state.n == house.table.players and state.hands_total == house.table.hands
            assert state.clone().house is state.house


def test_on_hand_needs_the_results() -> None:
    """Asking for each hand's result of a state that keeps none is refused, not
    silently never called."""
    state = State(House("standard"), seed=1, keep_results=False)
    with pytest.raises(ValueError, match="keep_results"):
        play_out(state, [RandomPlayer(s) for s in range(5)], on_hand=print)


def test_a_clone_of_a_lean_state_is_lean_and_independent() -> None:
    """A clone keeps no results either, and renewing its hand states leaves the
    original's alone."""
    state = State(House("standard"), seed=11, keep_results=False)
    bot = RandomPlayer(random.Random(11))
    for _ in range(30):
        state.apply_action(bot.choose(state.legal_actions()))
    snapshot = _fields(state.hand)
    copy = state.clone()
    play_out(copy, [RandomPlayer(s) for s in range(5)])
    assert copy.keep_results is False and copy.results == []
    assert _fields(state.hand) == snapshot


def test_a_lean_state_keeps_the_current_hands_history_only() -> None:
    """With keep_results=False, history() starts at the current hand's deal (its
    Deck) and holds that hand's actions, the same as the full state's last part;
    the full state keeps every hand's."""
    from bourre.game.actions import Deck

    house = House("standard")
    lean = State(house, seed=4, keep_results=False)
    full = State(house, seed=4)
    bot = RandomPlayer(random.Random(4))
    twin = RandomPlayer(random.Random(4))
    longest = 0
    while not lean.is_terminal():
        lean.apply_action(bot.choose(lean.legal_actions()))
        full.apply_action(twin.choose(full.legal_actions()))
        h = lean.history()
        assert isinstance(h[0], Deck) and sum(isinstance(x, Deck) for x in h) == 1
        assert full.history()[-len(h) :] == h
        longest = max(longest, len(h))
    decks = sum(isinstance(x, Deck) for x in full.history())
    assert decks == house.table.hands and len(full.history()) > 3 * longest
