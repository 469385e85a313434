"""A session resumed at a hand's start (:func:`bourre.game.resume.resume`): it plays on
exactly as the session it resumes (the antes the last hand spared, R-ANTE; the next
dealer, R-DEALER; the seeded decks, R-DECK; the returns counted from the session's
start), and a position that cannot be is refused naming the field and the rule."""

from __future__ import annotations

import random

import pytest

from bourre.game.actions import Deck
from bourre.game.resume import HandStart, resume
from bourre.game.state import State
from bourre.game.xoshiro import stream
from bourre.houses.house import House

HOUSE = House("standard+table(players=4,hands=6)")


def _play_hand(states: list[State], rng: random.Random) -> None:
    """One hand on each state alike (a deck given if they wait for one)."""
    first = states[0]
    if first.is_chance_node():
        deck = list(range(52))
        rng.shuffle(deck)
        for s in states:
            s.apply_chance(Deck(tuple(deck)))
    number = first.number
    while first.number == number and not (first.is_terminal() or first.is_chance_node()):
        a = rng.choice(list(first.legal_actions()))
        for s in states:
            s.apply_action(a)


def _start_of(p: State) -> HandStart:
    """Where ``p`` (a session waiting for its next deck, keeping its results) stands."""
    last = p.results[-1]
    return HandStart(p.number, p.balances, p.pot, 1, last.dealer, last.outcome)


def test_a_resumed_session_plays_on_as_the_session() -> None:
    rng = random.Random(3)
    p = State(HOUSE, dealer=1, balances=[30, 40, 50, 60])
    for _ in range(3):
        _play_hand([p], rng)
    assert p.is_chance_node() and p.number == 3
    r = resume(HOUSE, _start_of(p), seed=None, start=p.start)
    assert r.is_chance_node() and r.history() == [] and r.results == []
    assert (r.balances, r.pot, r.returns(), r.number) == (p.balances, p.pot, p.returns(), 3)
    while not p.is_terminal():
        _play_hand([p, r], rng)
        h, whole = r.history(), p.history()  # (the lean one's: the current hand's only)
        assert r.returns() == p.returns() and h == whole[len(whole) - len(h) :]
        for s in range(4):
            assert r.observation(s) == p.observation(s)
    assert r.final == p.final and r.is_terminal()


def test_a_resumed_seeded_session_draws_the_next_decks() -> None:
    """The deck stream's words after two deals (51 words each): the resumed session's
    first deck is the session's third."""
    p = State(HOUSE, seed=7, keep_results=True)
    rng = random.Random(0)
    gen = stream("bourre-deck:7")
    for _ in range(2):
        gen.shuffle(list(range(52)))
        _play_hand([p], rng)
    assert p.number == 3  # (the third hand dealt at once)
    third = [x for x in p.history() if isinstance(x, Deck)][2]
    last = p.results[-1]
    at = HandStart(2, tuple(last.balances), last.outcome.pot_after, p.results[0].dealer,
                   last.dealer, last.outcome, gen.state())  # fmt: skip
    r = resume(HOUSE, at, seed=7, start=p.start)
    assert r.history()[0] == third and r.number == 3
    assert (r.balances, r.pot) == (p.balances, p.pot)


def test_a_position_that_cannot_be_is_refused() -> None:
    p = State(HOUSE, dealer=1)
    _play_hand([p], random.Random(1))
    good = HandStart(1, p.balances, p.pot, 1, 1, p.results[-1].outcome)
    resume(HOUSE, good, seed=None, start=p.start)
    for bad, words in (
        (good._replace(number=6), "R-SESSION"),
        (good._replace(number=-1), "R-SESSION"),
        (good._replace(pot=-1), "R-ANTE"),
        (good._replace(balances=(1, 2)), "R-SESSION"),
        (good._replace(last_dealer=4), "R-DEALER"),
        (good._replace(previous=None), "R-DEALER"),
        (good._replace(previous="won"), "R-ANTE"),  # type: ignore[arg-type]
    ):
        with pytest.raises(ValueError, match=words):
            resume(HOUSE, bad, seed=None, start=p.start)
    hostile: list[object] = [None, (1, 2, 3), (0, 0, 0, 0), (1, 2, 3, 2**40), (1.0, 2, 3, 4)]
    for given in hostile:
        with pytest.raises(ValueError, match="R-DECK"):
            resume(HOUSE, good._replace(deck=given), seed=5, start=p.start)  # type: ignore[arg-type]
