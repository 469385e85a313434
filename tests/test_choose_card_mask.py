"""A blind bot's card chosen in the legal mask (``PlayerBase.choose_card_mask``) and its
discards chosen from its hand (``choose_discards``): the same draws as ``choose_card``
and ``choose``, who is asked which, and that an answer outside the legal ones is
refused.  Also the state's legal set kept as a mask until its tuple is asked
for (``only_action``, ``apply_only_action``) and a seeded deal kept as its cards."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bourre.actions import Action, Deck
from bourre.blind import BY_CARDS, BY_CHOICE, BY_MASK, asks_discards, card_form
from bourre.cards import cards_of
from bourre.engine import State
from bourre.house import House
from bourre.observation import Discards
from bourre.players import IllegalAnswer, PlayerBase, play_out
from bourre.xoshiro import Xoshiro128
from bourre_bots.random_bot import RandomPlayer
from bourre_variants.standard.payout import ranks_of

WORD = st.integers(min_value=0, max_value=2**32 - 1)


@settings(max_examples=300)
@given(mask=st.integers(min_value=1, max_value=2**52 - 1), words=st.tuples(WORD, WORD, WORD, WORD))
def test_the_mask_draws_the_card_the_cards_draw(mask: int, words: tuple[int, ...]) -> None:
    """For any legal mask and any point of the stream, the card chosen in the mask is
    the one chosen among the cards (ascending), and the stream moves alike."""
    s0, s1, s2, s3 = words
    if not s0 | s1 | s2 | s3:
        s3 = 1
    by_mask = RandomPlayer(Xoshiro128(s0, s1, s2, s3))
    by_cards = RandomPlayer(Xoshiro128(s0, s1, s2, s3))
    got = by_mask.choose_card_mask(mask)
    assert got == by_cards.choose_card(tuple(cards_of(mask)))
    assert (mask >> got) & 1
    assert by_mask.gen.state() == by_cards.gen.state()


class _Masks(RandomPlayer):
    """The random bot, keeping the masks it was shown."""

    def __init__(self, rng: random.Random) -> None:
        super().__init__(rng)
        self.masks: list[int] = []

    def choose_card_mask(self, legal: int) -> int:
        self.masks.append(legal)
        return super().choose_card_mask(legal)


class _Cards(RandomPlayer):
    """Overrides ``choose_card`` only: it must be asked with the cards, not a mask."""

    def __init__(self, rng: random.Random) -> None:
        super().__init__(rng)
        self.asked = 0

    def choose_card(self, cards: tuple[int, ...]) -> int:
        self.asked += 1
        return super().choose_card(cards)


class _Lowest(PlayerBase):
    """Answers with the lowest card through ``choose_card`` only (PlayerBase's mask
    answer must ask it)."""

    needs_view = False

    def choose_card(self, cards: tuple[int, ...]) -> int:
        return cards[0]


def _play(make: type[RandomPlayer], seed: str) -> tuple[State, list[RandomPlayer]]:
    rng = random.Random(seed)
    bots = [make(rng) for _ in range(5)]
    state = State(House("standard"), seed=seed)
    play_out(state, bots)
    return state, bots


@pytest.mark.parametrize("seed", ["mask-1", "mask-2", "mask-3"])
def test_sessions_by_mask_and_by_cards_are_the_same(seed: str) -> None:
    """A bot asked with the mask and one asked with the cards play the same session;
    each mask shown is the state's legal set, of more than one card."""
    by_mask, masked = _play(_Masks, seed)
    by_cards, carded = _play(_Cards, seed)
    assert by_mask.history() == by_cards.history() and by_mask.final == by_cards.final
    masks = [m for b in masked for m in b.masks]
    assert masks and all(m & (m - 1) for m in masks)
    assert sum(b.asked for b in carded) == len(masks)


def test_who_is_asked_what() -> None:
    assert card_form(RandomPlayer(1)) == BY_MASK
    assert card_form(_Masks(random.Random(1))) == BY_MASK
    assert card_form(_Cards(random.Random(1))) == BY_CARDS
    assert card_form(_Lowest()) == BY_CARDS
    assert card_form(PlayerBase()) == BY_CHOICE


def test_the_base_players_mask_answer_asks_its_cards() -> None:
    assert _Lowest().choose_card_mask((1 << 40) | (1 << 17) | (1 << 3)) == 3
    assert PlayerBase().choose_card_mask((1 << 40) | (1 << 17)) == 17


@pytest.mark.parametrize("answer", [-1, 52, "AS", None])
def test_a_mask_answer_that_is_no_card_is_refused(answer: object) -> None:
    class Bad(RandomPlayer):
        def choose_card_mask(self, legal: int) -> int:
            return answer  # type: ignore[return-value]

    state = State(House("standard"), seed="bad-mask")
    with pytest.raises(IllegalAnswer) as e:
        play_out(state, [Bad(random.Random(s)) for s in range(5)])
    assert e.value.rule == "R-DECK"


def test_a_card_outside_the_mask_is_refused_by_the_rule() -> None:
    class Outside(RandomPlayer):
        def choose_card_mask(self, legal: int) -> int:
            return next(c for c in range(52) if not (legal >> c) & 1)

    state = State(House("standard"), seed="outside-mask")
    with pytest.raises(IllegalAnswer) as e:
        play_out(state, [Outside(random.Random(s)) for s in range(5)])
    assert e.value.rule.startswith("R-") and "seat" in str(e.value)
    assert state.current_player() == e.value.seat


@pytest.mark.parametrize("spec", ["standard", "four-card", "standard+no-cinch"])
def test_the_only_action_is_the_only_legal_card(spec: str) -> None:
    """At every card: ``only_action`` names the legal set's card when it holds one,
    else nothing; ``apply_only_action`` plays it (as ``apply_action`` would) or
    changes nothing."""
    rng = random.Random(spec)
    state = State(House(spec), seed=f"only:{spec}")
    twin = state.clone()
    forced = 0
    while not state.is_terminal():
        if state.phase_name == "play":
            legal = state.legal_cards()
            only = state.only_action()
            assert (only is None) == (len(legal) != 1)
            if only is not None:
                forced += 1
                assert only.cards == (legal[0],)
                assert state.apply_only_action()
                twin.apply_action(only)
                assert state.history() == twin.history()
                continue
            assert not state.apply_only_action()
        action = rng.choice(list(state.legal_actions()))
        state.apply_action(action)
        twin.apply_action(action)
    assert forced and state.returns() == twin.returns()


def test_a_seeded_deal_is_a_deck_in_the_history() -> None:
    """A seeded state keeps its deal's cards; its history gives each as a Deck, which
    an unseeded state replays to the same session."""
    state = State(House("standard"), seed="deck-history", hands=3)
    rng = random.Random(3)
    while not state.is_terminal():
        state.apply_action(rng.choice(list(state.legal_actions())))
    history = state.history()
    decks = [x for x in history if isinstance(x, Deck)]
    assert len(decks) == 3 and all(sorted(d.cards) == list(range(52)) for d in decks)
    assert not any(type(x) is tuple for x in history)  # a bare tuple: no Deck made
    replay = State(House("standard"), hands=3, dealer=state.results[0].dealer)
    for x in history:
        if isinstance(x, Deck):
            replay.apply_chance(x)
        else:
            replay.apply_action(x)  # type: ignore[arg-type]
    assert replay.returns() == state.returns() and replay.history() == history


@given(st.lists(st.integers(min_value=-(2**70), max_value=2**70), min_size=1, max_size=8))
def test_places_are_one_more_than_the_balances_above(balances: list[int]) -> None:
    """R-SETTLE: each place is 1 + how many balances are higher; ties share a place,
    for whole numbers and exact fractions alike."""
    from fractions import Fraction

    expected = [1 + sum(o > b for o in balances) for b in balances]
    assert ranks_of(balances) == expected
    assert ranks_of([Fraction(b, 3) for b in balances]) == expected


class _ChooseOnly(RandomPlayer):
    """Overrides ``choose`` only: asked ``choose`` at its exchange, with the discards."""

    def __init__(self, rng: random.Random) -> None:
        super().__init__(rng)
        self.exchanges = 0

    def choose(self, actions: Sequence[Action]) -> Action:
        if isinstance(actions, Discards):
            self.exchanges += 1
        return super().choose(actions)


class _Hands(RandomPlayer):
    """The random bot, keeping the hands and limits it was shown at its exchanges."""

    def __init__(self, rng: random.Random) -> None:
        super().__init__(rng)
        self.shown: list[tuple[tuple[int, ...], int]] = []

    def choose_discards(self, hand: tuple[int, ...], limit: int) -> tuple[int, ...]:
        self.shown.append((hand, limit))
        return super().choose_discards(hand, limit)


@pytest.mark.parametrize("seed", ["discards-1", "discards-2"])
def test_discards_from_the_hand_are_the_discards_chosen(seed: str) -> None:
    """A bot asked ``choose_discards`` and one asked ``choose`` with the legal discards
    play the same session; each is shown its hand, ascending, and the house's limit."""
    by_hand, handed = _play(_Hands, seed)
    by_choose, choosing = _play(_ChooseOnly, seed)
    assert by_hand.history() == by_choose.history() and by_hand.final == by_choose.final
    shown = [x for b in handed for x in b.shown]
    assert shown and all(list(h) == sorted(h) and limit == 5 for h, limit in shown)
    assert sum(b.exchanges for b in choosing) == len(shown)
    assert asks_discards(RandomPlayer(1)) and not asks_discards(_ChooseOnly(random.Random(1)))
    assert not asks_discards(PlayerBase())


@settings(max_examples=200)
@given(
    cards=st.sets(st.integers(min_value=0, max_value=51), min_size=1, max_size=8),
    limit=st.integers(min_value=0, max_value=8),
    seed=st.integers(min_value=0, max_value=2**32),
)
def test_a_capped_exchange_draws_among_the_legal_discards(
    cards: set[int], limit: int, seed: int
) -> None:
    """Under any limit the random bot's discards from the hand are the ones its
    ``choose`` draws among the legal discards, and are legal."""
    hand = tuple(sorted(cards))
    a, b = RandomPlayer(seed), RandomPlayer(seed)
    got = a.choose_discards(hand, limit)
    legal = Discards(hand, limit)
    assert b.choose(legal).cards == got  # type: ignore[arg-type]
    assert Action("discard", got) in legal


def test_the_base_players_discards_are_its_choose() -> None:
    assert PlayerBase().choose_discards((3, 17, 40), 5) == ()


@pytest.mark.parametrize(
    ("answer", "words"),
    [("number", "wrong type"), ("off-deck", "does not hold"), ("twice", "twice")],
)
def test_discards_the_draw_does_not_allow_are_refused(answer: str, words: str) -> None:
    class Bad(RandomPlayer):
        def choose_discards(self, hand: tuple[int, ...], limit: int) -> tuple[int, ...]:
            got = {"number": 5, "off-deck": [60], "twice": (hand[0], hand[0])}[answer]
            return got  # type: ignore[return-value]

    state = State(House("standard"), seed="bad-discards")
    with pytest.raises(IllegalAnswer) as e:
        play_out(state, [Bad(random.Random(s)) for s in range(5)])
    assert e.value.rule == "R-DRAW" and words in str(e.value)
    assert state.current_player() == e.value.seat and state.phase_name == "exchange"
