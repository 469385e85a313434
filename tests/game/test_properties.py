"""Properties of random sessions played by bots (hypothesis): money is conserved, every
card is in exactly one place, the legal set is never empty and within the hand, the
cinch only narrows, and sessions are determined by their seed."""

from __future__ import annotations

import random
from collections.abc import Callable
from fractions import Fraction

import pytest
from conftest import ALTERNATIVES
from hypothesis import given
from hypothesis import strategies as st

from bourre.game.actions import CARDS, PASS, PLAY, Deck
from bourre.game.players import ask, play_out
from bourre.game.simulate import play_session, random_players
from bourre.game.state import Chance, HandResult, State
from bourre.houses.house import House
from bourre.referee.records import hand_record
from bourre.rules.hookspec import FOLLOW
from bourre_bots.random_bot import RandomPlayer

SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
SIZES = st.integers(min_value=2, max_value=8)
OPTIONAL = list(ALTERNATIVES)
VARIANTS = st.lists(st.sampled_from(OPTIONAL), unique=True, max_size=3)

_HOUSES: dict[str, House] = {}


def house_of(spec: str) -> House:
    if spec not in _HOUSES:
        _HOUSES[spec] = House(spec)
    return _HOUSES[spec]


def standard(n: int, extra: str = "") -> House:
    return house_of(f"standard+table(players={n}{extra})")


def mixed(n: int, variants: list[str]) -> House:
    return house_of("+".join(["standard", *variants, f"table(players={n})"]))


class Checks:
    """What the invariant checks of :func:`checked_session` saw."""

    def __init__(self) -> None:
        self.asked = 0
        self.cinch_plays = 0
        self.narrowed = 0


def check_question(state: State, seat: int, action, checks: Checks) -> None:
    """The invariants of the hand when ``seat`` is asked, and of its answer."""
    hs = state.hand
    places = hs.places()
    assert len(places) == 52
    legal_actions = state.legal_actions()
    assert legal_actions, f"no legal action for seat {seat} ({state.phase_name})"
    hand = hs.hands[seat]
    phase = state.phase_name
    view = state.observation(seat)
    if phase == "decide":
        assert hand, "a deciding player holds cards"
        assert set(legal_actions) <= {PASS, PLAY}
        assert PLAY in legal_actions
        assert (PASS in legal_actions) == (view.forced is None)
        assert action in legal_actions
        checks.asked += 1
    elif phase == "exchange":
        assert action.kind == "discard"
        out = action.cards
        assert set(out) <= set(hand)
        assert len(out) <= hs.hand_size
        assert len(set(out)) == len(out)
        assert frozenset(out) in {frozenset(a.cards) for a in legal_actions}
    else:
        assert phase == "play", phase
        assert seat in hs.active
        assert all(places[c] == f"hand {seat}" for c in hand)
        legal = state.legal_cards()
        # the legal set is never empty and always within the hand
        assert legal, "empty legal set"
        assert set(legal) <= set(hand)
        assert len(set(legal)) == len(legal)
        assert legal_actions == [CARDS[c] for c in legal]
        assert list(view.legal) == legal  # what the bot is offered
        assert list(view.legal_actions) == legal_actions  # made when read, the same
        assert action in legal_actions
        # the cinch only ever narrows the ordinary legal set
        ordinary = state.house.rules[FOLLOW].legal(tuple(hand), tuple(hs.trick), hs.trump).cards
        assert ordinary == state.legal_with_reasons().ordinary
        if view.cinch:
            checks.cinch_plays += 1
            assert set(legal) <= set(ordinary)
            checks.narrowed += len(legal) < len(ordinary)
        else:
            assert set(legal) == set(ordinary)
        checks.asked += 1


def checked_session(
    house: House, seed: int, on_hand: Callable[[HandResult], None] | None = None
) -> tuple[State, Checks]:
    """A session of random bots, stepped here so that the invariants are checked
    before every action: one place per card, a legal set never empty, within the
    hand and only narrowed by the cinch; and after every action: the money at the
    table (balances + pot) is the same, exactly."""
    n = house.table.players
    rng = random.Random(seed)
    players = [RandomPlayer(random.Random(rng.random())) for _ in range(n)]
    state = State(house, seed=seed)
    checks = Checks()
    total = n * house.table.balance
    assert sum(state.balances) + state.pot == total
    done = 0
    while not state.is_terminal():
        seat = state.current_player()
        assert 0 <= seat < n, "a seeded state draws its own chance outcomes"
        action = ask(state, players[seat])
        check_question(state, seat, action, checks)
        state.apply_action(action)
        assert sum(state.balances) + state.pot == total
        state.hand.places()
        while done < len(state.results):
            if on_hand is not None:
                on_hand(state.results[done])
            done += 1
    assert state.legal_actions() == []
    assert state.final is not None
    assert sum(state.final[0]) == total
    assert sum(state.returns()) == 0
    return state, checks


# --------------------------------------------------------------------------- money


@given(seed=SEEDS, n=SIZES)
def test_money_is_conserved_after_every_hand(seed, n):
    house = standard(n)
    total = n * house.table.balance

    def check(hand):
        assert sum(hand.balances) + hand.outcome.pot_after == total
        assert sum(hand.outcome.takes) + hand.outcome.pot_after == hand.pot_at_stake + sum(
            hand.outcome.paid
        )

    res = play_session(house, seed, on_hand=check)
    assert sum(Fraction(b) for b in res.final) == total
    assert len(res.final) == n and len(res.ranks) == n


@given(seed=SEEDS, n=SIZES, variants=VARIANTS)
def test_money_is_conserved_in_any_house(seed, n, variants):
    house = mixed(n, variants)
    total = n * house.table.balance
    res = play_session(
        house,
        seed,
        on_hand=lambda h: (
            None if sum(h.balances) + h.outcome.pot_after == total else pytest.fail("money")
        ),
    )
    assert sum(Fraction(b) for b in res.final) == total


@given(seed=SEEDS, n=SIZES)
def test_money_is_exact_with_fractional_amounts(seed, n):
    house = house_of(f'standard+table(players={n},ante="1/3",balance="201/2",hands=5)')
    total = n * Fraction(201, 2)
    res = play_session(house, seed)
    for hand in res.hands:
        assert sum(hand.balances) + hand.outcome.pot_after == total
    assert sum(Fraction(b) for b in res.final) == total
    assert all(isinstance(b, int | Fraction) for b in res.final)


# ------------------------------------------------------------------ card invariants


@given(seed=SEEDS, n=SIZES)
def test_every_card_in_exactly_one_place_at_every_step(seed, n):
    house = standard(n)
    done = []

    def after(hand):
        places = hand.state.places()
        assert len(places) == 52
        held = {p for p in places.values() if p.startswith("hand")}
        if len(hand.state.active) == 1:  # R-SOLE: no trick is played
            assert held == {f"hand {hand.state.active[0]}"}
        else:  # every card of the active hands was played
            assert not held
        done.append(hand)

    _, checks = checked_session(house, seed, on_hand=after)
    assert len(done) == house.table.hands and checks.asked > 0


@given(seed=SEEDS, n=SIZES, variants=VARIANTS)
def test_legal_set_and_cinch_invariants_in_any_house(seed, n, variants):
    house = mixed(n, variants)
    state, checks = checked_session(house, seed)
    assert len(state.results) == house.table.hands and checks.asked > 0
    if "no-cinch" in variants:
        assert checks.cinch_plays == 0


def test_cinch_narrowing_is_exercised():
    """The cinch property above is not vacuous: over a few sessions, cinches happen
    and some of them narrow the legal set."""
    cinch = narrowed = 0
    for seed in range(40):
        _, checks = checked_session(standard(5), seed)
        cinch += checks.cinch_plays
        narrowed += checks.narrowed
    assert cinch > 0 and narrowed > 0


def test_reshuffles_happen_at_large_tables():
    count = sum(
        len(h.state.reshuffles)
        for seed in range(10)
        for h in checked_session(standard(8), seed)[0].results
    )
    assert count > 0


# --------------------------------------------------------------------- determinism


def summary(res):
    return (
        [
            (
                h.number,
                h.dealer,
                h.state.upcard,
                list(h.state.active),
                list(h.state.won),
                [tuple(t) for t in h.state.tricks],
                list(h.balances),
                h.outcome.pot_after,
                h.outcome.winner,
            )
            for h in res.hands
        ],
        list(res.final),
        list(res.ranks),
    )


@given(seed=SEEDS, n=SIZES, variants=VARIANTS)
def test_same_seed_same_session(seed, n, variants):
    house = mixed(n, variants)
    a = play_session(house, seed, record=True)
    b = play_session(house, seed, record=True)
    assert summary(a) == summary(b)
    assert [hand_record(h).model_dump(mode="json") for h in a.hands] == [
        hand_record(h).model_dump(mode="json") for h in b.hands
    ]


def test_different_seeds_differ():
    house = standard(5)
    results = {str(summary(play_session(house, seed))) for seed in range(5)}
    assert len(results) == 5


def decks_of(house: House, seed: int, players=random_players) -> list[list[int]]:
    """The decks a seeded session drew, hand by hand: the chance outcomes
    (:class:`~bourre.game.actions.Deck`) in its history.  ``players(seat, rng)`` makes
    the bots, as for ``play_session``."""
    rng = random.Random(f"bourre-bots:{seed}")
    state = State(house, seed=seed)
    play_out(state, [players(s, rng) for s in range(house.table.players)])
    decks = [list(x.cards) for x in state.history() if isinstance(x, Deck)]
    assert len(decks) == house.table.hands == len(state.results)
    return decks


@given(
    seed=SEEDS,
    sizes=st.lists(st.integers(2, 8), min_size=2, max_size=3),
    variants=st.lists(VARIANTS, min_size=2, max_size=2),
)
def test_different_houses_see_the_same_decks(seed, sizes, variants):
    """Common random numbers: the decks of a seed do not depend on the house."""
    decks = [decks_of(mixed(n, v), seed) for n, v in zip(sizes, variants, strict=False)]
    first = decks[0]
    for other in decks[1:]:
        k = min(len(first), len(other))
        assert other[:k] == first[:k]
    assert first[0] == Chance(seed).deck()


@given(seed=SEEDS)
def test_a_deck_is_a_permutation_of_the_52_cards(seed):
    chance = Chance(seed)
    for _ in range(3):
        assert sorted(chance.deck()) == list(range(52))  # R-DECK


def test_the_shuffle_is_uniform():
    """Every card lands in every position equally often (chi-square over 13,000 fixed
    decks, with a bound that a uniform shuffle exceeds with probability below 1e-6):
    catches a shuffle that never moves a card, or favours the ends."""
    chance = Chance("uniformity")
    decks = [chance.deck() for _ in range(13_000)]
    expected = len(decks) / 52
    for card in (0, 25, 51):
        counts = [0] * 52
        for d in decks:
            counts[d.index(card)] += 1
        chi2 = sum((c - expected) ** 2 / expected for c in counts)
        assert chi2 < 118, (card, chi2)  # 51 degrees of freedom: P(chi2 > 118) < 1e-6
    top = [0] * 52
    for d in decks:
        top[d[0]] += 1
    assert sum((c - expected) ** 2 / expected for c in top) < 118


class PatPlayer(RandomPlayer):
    def discard(self, view):
        return []


@given(seed=SEEDS)
def test_decks_do_not_depend_on_bots_or_house_at_large_tables(seed):
    """Reshuffles (R-RESHUFFLE) at 6-8 players have their own stream: the decks of a
    seed do not depend on the bots' exchanges nor on the table size."""
    house = standard(8)
    random_decks = decks_of(house, seed)
    pat_decks = decks_of(house, seed, players=lambda s, rng: PatPlayer(rng))
    assert pat_decks == random_decks
    assert decks_of(standard(5), seed) == random_decks
    assert decks_of(standard(7), seed) == random_decks


def test_reshuffles_really_happen_in_the_deck_independence_check():
    count = sum(len(h.state.reshuffles) for h in play_session(standard(8), 0).hands)
    assert count > 0
