"""The stepped state (issue: one game, stepped): random playthroughs of every built-in
house conserve money exactly, clones play alike, observations are values holding
nothing hidden, and a hand given by what a table knows plays as the same hand given
by its deck."""

from __future__ import annotations

import gc
import random

import pytest
from conftest import BUILTINS

from bourre import CHANCE, Game
from bourre.game.actions import Dealt, Deck, Drew
from bourre.game.state import State
from bourre.game.tablesteps import waiting
from bourre.rules import RuleViolation

HOUSES = [
    *(b if b != "pot-limit" else "pot-limit(limit=5)" for b in BUILTINS),
    *(f"standard+table(players={n})" for n in range(2, 9)),
]


def _play(state: State, rng: random.Random) -> None:
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))


@pytest.mark.parametrize("spec", HOUSES)
def test_random_playthrough_conserves_money_and_clones_play_alike(spec: str) -> None:
    game = Game(spec)
    for seed in range(6):
        state = game.new_session(seed=seed)
        rng = random.Random(seed)
        for _ in range(40):  # part-way through
            if state.is_terminal():
                break
            state.apply_action(rng.choice(state.legal_actions()))
        twin = state.clone()
        _play(state, random.Random(99))
        _play(twin, random.Random(99))
        assert sum(state.returns()) == 0
        assert twin.returns() == state.returns()
        assert twin.history() == state.history()


@pytest.mark.parametrize("spec", ["standard", "four-card", "standard+table(players=8)"])
def test_the_played_mask_is_the_cards_the_tricks_show(spec: str) -> None:
    """Observation.played (what bots do bit arithmetic on) is exactly the cards of
    the tricks and the current trick, for every seat at every step."""
    game = Game(spec)
    for seed in range(3):
        state, rng = game.new_session(seed=seed), random.Random(seed)
        steps = 0
        while not state.is_terminal():
            for seat in range(state.n):
                obs = state.observation(seat)
                cards = [c for t in obs.tricks for _, c in t.plays] + [c for _, c in obs.trick]
                assert obs.played == obs.played_mask() == sum(1 << c for c in cards)
                assert len(set(cards)) == len(cards)
            state.apply_action(rng.choice(state.legal_actions()))
            steps += 1
        assert steps > 100


def test_illegal_actions_are_refused_by_the_rule_that_decides() -> None:
    state = Game("standard").new_session(seed=3)
    while state.phase_name != "play":
        state.apply_action(state.legal_actions()[-1])
    seat = state.current_player()
    legal = state.legal_cards()
    hand = state.hand.hands[seat]
    before = state.history()
    for c in hand:
        if c not in legal:
            with pytest.raises(RuleViolation) as e:
                state.apply_action(state.legal_actions()[0]._replace(cards=(c,)))
            assert e.value.rule.startswith("R-")
            assert state.history() == before


def test_observation_reaches_nothing_hidden() -> None:
    state = Game("standard").new_session(seed=5)
    rng = random.Random(5)
    for _ in range(12):
        state.apply_action(rng.choice(state.legal_actions()))
    for seat in range(5):
        obs = state.observation(seat)
        hidden = {id(x) for x in (state, state.hand, state.hand.stock, *state.hand.hands)}
        # a pure build keeps the fields in the observation's own attribute dictionary
        # (read-only through the object), whose values are walked like the others
        own = getattr(obs, "__dict__", None)
        todo, seen = [obs], set()
        while todo:
            x = todo.pop()
            if id(x) in seen:
                continue
            seen.add(id(x))
            assert id(x) not in hidden, f"seat {seat}'s observation reaches {type(x)}"
            assert x is own or not isinstance(x, (State, list, dict)), type(x)
            todo.extend(r for r in gc.get_referents(x) if not isinstance(r, type))
        others = {c for s in range(5) if s != seat for c in state.hand.hands[s]}
        assert not (set(obs.hand) & others)


def test_a_hand_given_by_what_the_table_saw_plays_as_by_its_deck() -> None:
    """The same hand, once from its deck and once from the upcard, the hands of the
    seats that play and their replacements (HAND-HISTORY "What a table knows")."""
    game = Game("standard")
    rng = random.Random(1)
    deck = list(range(52))
    rng.shuffle(deck)
    by_deck = game.new_hand(dealer=0)
    by_deck.apply_chance(Deck(tuple(deck)))
    _play(by_deck, random.Random(2))
    hs = by_deck.results[0].state
    dealt = {}
    for s in hs.active:  # what each playing seat shows: its cards as dealt
        after = [c for _, c in [p for t in hs.tricks for p in t.plays] if _ == s]
        kept = [c for c in after if c not in hs.got[s]]
        dealt[s] = kept + list(hs.gave[s])
    told = game.new_hand(dealer=0, engine="python")
    told.apply_chance(Dealt.of(hs.upcard, dealt))
    replay = random.Random(2)
    while not told.is_terminal():
        if told.current_player() == CHANCE:
            told.apply_chance(Drew(hs.got[waiting(told).seat]))
            continue
        told.apply_action(replay.choice(told.legal_actions()))
    assert told.returns() == by_deck.returns()
    assert told.results[0].state.won == hs.won


def test_an_impossible_table_hand_is_refused() -> None:
    game = Game("standard")
    state = game.new_hand(dealer=0)
    with pytest.raises(RuleViolation, match=r"R-DEAL|R-DECK"):
        state.apply_chance(Dealt.of(5, {1: [1, 2, 3, 4, 5]}))  # seat 1 holds the upcard


def test_an_exchanges_legal_actions_are_every_discard_made_on_demand() -> None:
    """R-DRAW: at an exchange, legal_actions() is every subset of the hand within the
    limit, smallest first, as a lazy immutable sequence equal to the list of them."""
    from bourre.game.actions import Action, discard
    from bourre.game.observation import Discards

    state = Game("standard").new_session(seed=3)
    while state.phase_name != "exchange":
        state.apply_action(state.legal_actions()[-1])  # play (or the last choice)
    got = state.legal_actions()
    hand = tuple(state.hand.hands[state.current_player()])
    assert isinstance(got, Discards) and len(got) == 32
    every = [Action("discard", tuple(hand[i] for i in range(5) if k >> i & 1)) for k in range(32)]
    assert sorted(got, key=lambda a: (len(a.cards), a.cards)) == sorted(
        every, key=lambda a: (len(a.cards), a.cards)
    )
    assert [len(a.cards) for a in got] == sorted(len(a.cards) for a in got)  # smallest first
    assert got == list(got) and got[0] == discard(()) and got[-1] == discard(hand)
    assert discard(reversed(hand[:2])) in got  # any order of a legal discard
    with pytest.raises(AttributeError):
        got.append(discard(()))  # type: ignore[attr-defined]
    twin = state.clone()
    state.apply_action(random.Random(1).choice(got))
    twin.apply_action(random.Random(1).choice(twin.legal_actions()))
    assert state.hand.hands == twin.hand.hands


@pytest.mark.parametrize("engine", ["python", "kernel"])
def test_cards_given_as_a_list_are_the_same_action_and_a_non_sequence_is_refused(
    engine: str,
) -> None:
    """``Action("discard", [c])`` is the discard of ``c``, recorded as a tuple; cards that
    are not a sequence (``None``, a number, text) are refused in the rules' words."""
    from bourre.game.actions import Action

    s = Game("standard", engine=engine).new_session(seed=3)
    for bad in (Action("pass", None), Action("pass", 0), Action("play", "")):  # type: ignore[arg-type]
        with pytest.raises(RuleViolation, match="is not an action") as e:
            s.apply_action(bad)
        assert e.value.rule == "R-DECIDE"
    while s.legal_actions()[0].kind != "discard":
        s.apply_action(s.legal_actions()[-1])
    hand = s.observation(s.current_player()).hand
    s.apply_action(Action("discard", [hand[0]]))  # type: ignore[arg-type]
    last = s.history()[-1]
    assert last == Action("discard", (hand[0],)) and type(last.cards) is tuple
