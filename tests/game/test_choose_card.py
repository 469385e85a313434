"""A blind bot's card chosen from the legal cards themselves (``PlayerBase.choose_card``):
who is asked it, what it is shown, and that an answer outside them is refused."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from bourre.game.actions import Action
from bourre.game.players import IllegalAnswer, PlayerBase, play_out
from bourre.game.simulate import play_session
from bourre.game.state import State
from bourre.houses.house import House
from bourre_bots.random_bot import RandomPlayer


class _Counting(RandomPlayer):
    """The random bot, keeping what it was asked: ``choose_card`` with which cards."""

    def __init__(self, rng: random.Random) -> None:
        super().__init__(rng)
        self.cards: list[tuple[int, ...]] = []

    def choose_card(self, cards: tuple[int, ...]) -> int:
        self.cards.append(cards)
        return super().choose_card(cards)


class _ByChoose(RandomPlayer):
    """A subclass that overrides only ``choose``: it must be asked ``choose``."""

    def __init__(self, rng: random.Random) -> None:
        super().__init__(rng)
        self.card_lists = 0

    def choose(self, actions: Sequence[Action]) -> Action:
        if actions and actions[0].kind == "card":
            self.card_lists += 1
        return super().choose(actions)


def _session(make: type[RandomPlayer], seed: str) -> tuple[State, list[RandomPlayer]]:
    rng = random.Random(seed)
    bots = [make(rng) for _ in range(5)]
    state = State(House("standard"), seed=seed)
    play_out(state, bots)
    return state, bots


@pytest.mark.parametrize("seed", ["cards-1", "cards-2", "cards-3"])
def test_the_random_bot_chooses_a_card_as_its_choose_would(seed: str) -> None:
    """Asked ``choose_card`` (the legal cards, ascending, more than one) or ``choose``
    (their actions), the random bot plays the same sessions."""
    by_card, counting = _session(_Counting, seed)
    by_choose, choosing = _session(_ByChoose, seed)
    assert by_card.history() == by_choose.history() and by_card.final == by_choose.final
    asked = [c for b in counting for c in b.cards]
    assert asked and all(len(c) > 1 and list(c) == sorted(set(c)) for c in asked)
    assert sum(b.card_lists for b in choosing) == len(asked)  # choose asked instead


def test_a_bot_is_shown_exactly_its_legal_cards() -> None:
    """What ``choose_card`` is shown is the state's legal set at that turn."""

    class Checking(RandomPlayer):
        state: State

        def choose_card(self, cards: tuple[int, ...]) -> int:
            assert list(cards) == self.state.legal_cards()
            return super().choose_card(cards)

    state = State(House("standard"), seed="shown")
    bots = [Checking(random.Random(s)) for s in range(5)]
    for b in bots:
        b.state = state
    play_out(state, bots)
    assert state.is_terminal()


def test_the_base_players_card_choice_is_its_choose() -> None:
    """PlayerBase.choose_card answers what its choose answers for the cards' actions:
    the lowest legal card."""
    assert PlayerBase().choose_card((3, 17, 40)) == 3


@pytest.mark.parametrize(
    ("answer", "rule"),
    [(-1, "R-DECK"), (52, "R-DECK"), ("AS", "R-DECK"), (None, "R-DECK")],
)
def test_an_answer_that_is_no_card_is_refused(answer: object, rule: str) -> None:
    class Bad(RandomPlayer):
        def choose_card(self, cards: tuple[int, ...]) -> int:
            return answer  # type: ignore[return-value]

    state = State(House("standard"), seed="bad")
    with pytest.raises(IllegalAnswer) as e:
        play_out(state, [Bad(random.Random(s)) for s in range(5)])
    assert e.value.rule == rule


def test_a_card_outside_the_legal_ones_is_refused_by_the_rule() -> None:
    """A card the seat may not play is refused with the rule that forbids it and the
    seat, as any illegal answer is (the state unchanged)."""

    class Outside(RandomPlayer):
        def choose_card(self, cards: tuple[int, ...]) -> int:
            return next(c for c in range(52) if c not in cards)

    state = State(House("standard"), seed="outside")
    with pytest.raises(IllegalAnswer) as e:
        play_out(state, [Outside(random.Random(s)) for s in range(5)])
    assert e.value.rule.startswith("R-") and "seat" in str(e.value)
    assert state.current_player() == e.value.seat


def test_play_session_is_unchanged_by_the_card_choice() -> None:
    """The default random players' session equals the one of bots asked ``choose``."""
    house = House("standard")
    one = play_session(house, seed=7)
    from bourre.game.xoshiro import stream

    bot = _ByChoose(stream("bourre-bots:7"))  # type: ignore[arg-type]
    same = play_session(house, seed=7, players=[bot] * 5)
    assert [r.state.tricks for r in one.hands] == [r.state.tricks for r in same.hands]
    assert one.final == same.final and bot.card_lists > 0


def test_ask_chooses_a_card_as_play_out_does() -> None:
    """``ask`` puts a card to a blind bot as ``play_out`` does: from the legal cards
    when the bot answers ``choose_card``, from the actions when it answers ``choose``."""
    from bourre.game.players import ask

    for make, shown in ((_Counting, "cards"), (_ByChoose, "actions")):
        state = State(House("standard"), seed="ask-cards")
        bot = make(random.Random(2))
        while not state.is_terminal():
            state.apply_action(ask(state, bot))
        if shown == "cards":
            assert isinstance(bot, _Counting) and bot.cards
        else:
            assert isinstance(bot, _ByChoose) and bot.card_lists
