"""What a real table adds to the game (:class:`bourre.referee.table.TableState`): a
renege (R-RENEGE), a correction (R-CORRECTED), a premature announcement (R-PREMATURE),
a hand given from the tricks alone (AfterDraw) and the one inference of the cards
nobody showed (:mod:`bourre.game.unseen`)."""

from __future__ import annotations

import random

import pytest

from bourre.game import Game
from bourre.game.actions import CARDS, PLAY, AfterDraw, Dealt, Deck, TablePlay, discard
from bourre.game.state import CHANCE, State
from bourre.houses.house import House
from bourre.kernel import available
from bourre.referee.table import TableState
from bourre.rules import RuleViolation


def _at_an_illegal_card(seed: int = 0) -> tuple[TableState, int, int, int]:
    """A recorded table at a card to play where the player holds a card it may not
    play: (table, seat, an illegal card, a legal card)."""
    for s in range(seed, seed + 200):
        table = TableState.new(House("standard"), hands=1)
        state = table.state
        table.set_hand(dealer=0)
        deck = list(range(52))
        random.Random(s).shuffle(deck)
        table.deal(Deck(tuple(deck)))
        rng = random.Random(s)
        while not state.is_terminal():
            if state.phase_name == "decide":
                table.act(PLAY)
            elif state.phase_name == "exchange":
                table.act(state.legal_actions()[0])
            else:
                seat = state.current_player()
                legal = state.legal_cards()
                wrong = [c for c in state.hand.hands[seat] if c not in legal]
                if wrong:
                    return table, seat, wrong[0], legal[0]
                table.act(CARDS[rng.choice(legal)])
    raise AssertionError("no position with an illegal card")


def test_a_renege_stands_and_is_logged() -> None:
    table, seat, bad, _ = _at_an_illegal_card()
    table.referee_play(bad)
    log = table.log()
    assert log.reneges == (seat,) and log.forfeits == frozenset({seat})
    last = log.plays[-1]
    assert (last.seat, last.card, last.renege, last.corrected) == (seat, bad, True, False)
    assert last.why is not None and last.why.rule.startswith("R-")
    assert table.state.history()[-1] == TablePlay(bad, None)
    assert bad in table.state.hand.played and bad not in table.state.hand.hands[seat]


def test_a_correction_takes_the_card_back_and_forfeits() -> None:
    table, seat, bad, good = _at_an_illegal_card(3)
    with pytest.raises(RuleViolation) as e:
        table.referee_play(good, bad)  # a legal card is never corrected
    assert e.value.rule == "R-CORRECTED"
    table.referee_play(bad, good)
    log = table.log()
    assert log.reneges == () and log.forfeits == frozenset({seat})
    last = log.plays[-1]
    assert (last.card, last.played_first, last.corrected, last.renege) == (good, bad, True, False)
    assert table.state.history()[-1] == TablePlay(bad, good)
    assert bad in table.state.hand.hands[seat]  # taken back: still held


def test_a_premature_announcement_costs_the_next_deal() -> None:
    table = TableState.new(House("standard"), hands=2)
    assert table.dealing() == (0, ())
    table.deal(Deck(tuple(range(52))))
    table.mark_premature(1)
    assert table.log().premature == (1,)
    state = table.state
    while not state.is_chance_node():  # to the end of hand 1
        if state.phase_name == "decide":
            table.act(PLAY if state.current_player() == 0 else state.legal_actions()[0])
        else:
            table.act(state.legal_actions()[0])
    assert table.dealing() == (2, (1,))  # seat 1 passed over (R-PREMATURE)
    with pytest.raises(RuleViolation) as e:
        table.mark_premature(9)
    assert e.value.rule == "R-SEAT"
    quiet = TableState.new(House("simultaneous-reveal"), hands=1)
    with pytest.raises(RuleViolation) as e:
        quiet.mark_premature(1)
    assert e.value.rule == "R-PREMATURE"


def _played(seed: int) -> tuple[State, list[int]]:
    """A hand played from a shuffled deck, everyone playing and exchanging two cards."""
    deck = list(range(52))
    random.Random(seed).shuffle(deck)
    state = Game("standard", engine="python").new_hand(dealer=0)
    assert isinstance(state, State)
    state.apply_chance(Deck(tuple(deck)))
    while not state.is_terminal():
        if state.phase_name == "exchange":
            state.apply_action(discard(state.hand.hands[state.current_player()][:2]))
        else:
            state.apply_action(state.legal_actions()[-1])
    return state, deck


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_hand_from_the_tricks_alone_is_the_hand_of_its_deck(seed: int) -> None:
    """Nobody's dealt cards shown: each seat's plays (AfterDraw) and its discards tell
    the same hand, the same payout; the inference agrees with what was dealt."""
    by_deck, _ = _played(seed)
    hs = by_deck.results[0].state
    table = TableState(Game("standard", engine="python").new_hand(dealer=0))
    state = table.state
    table.deal(Dealt.of(hs.upcard, {}))
    assert state.hand.hidden == [True] * 5
    while not state.is_terminal():
        wait = table.waiting()
        if state.current_player() == CHANCE:
            assert wait is not None and wait.wants == "hand"
            s = wait.seat
            table.show(AfterDraw(tuple(c for t in hs.tricks for p, c in t.plays if p == s)))
        elif state.phase_name == "exchange":
            seat = state.current_player()
            after = tuple(c for t in hs.tricks for p, c in t.plays if p == seat)
            dealt, drew = table.read_exchange(seat, hs.gave[seat], after)
            assert set(hs.gave[seat]) <= set(dealt) and len(drew) == len(hs.gave[seat])
            assert sorted(set(dealt) - set(hs.gave[seat])) == sorted(set(after) - set(drew))
            table.act(discard(hs.gave[seat]))
            assert sorted(state.hand.got[seat]) == sorted(drew)
        else:
            table.act(state.legal_actions()[-1])
    assert state.returns() == by_deck.returns()
    assert state.results[0].state.won == hs.won


def test_the_inference_refuses_what_cannot_be() -> None:
    """A seat that discards a card and plays it: refused (R-RESHUFFLE, never its own
    discards back); nothing changes."""
    by_deck, _ = _played(1)
    hs = by_deck.results[0].state
    table = TableState(Game("standard", engine="python").new_hand(dealer=0))
    table.deal(Dealt.of(hs.upcard, {}))
    state = table.state
    while state.phase_name != "exchange":
        if state.current_player() == CHANCE:
            wait = table.waiting()
            assert wait is not None
            s = wait.seat
            table.show(AfterDraw(tuple(c for t in hs.tricks for p, c in t.plays if p == s)))
        else:
            table.act(PLAY)
    seat = state.current_player()
    after = [c for t in hs.tricks for p, c in t.plays if p == seat]
    before = state.history()
    with pytest.raises(RuleViolation) as e:
        table.read_exchange(seat, [after[0]], after)
    assert e.value.rule == "R-RESHUFFLE" and e.value.card == after[0]
    assert state.history() == before
    assert set(table.unplaced()) >= set(after) - set(state.hand.hands[seat])


def test_a_table_steps_the_python_rules_only() -> None:
    if available():  # (without the kernel, no such state can be made)
        kernel = Game("standard", engine="kernel").new_session(seed=1)
        with pytest.raises(TypeError, match="engine='python'"):
            TableState(kernel)
    table = TableState(Game("standard", engine="python").new_hand(dealer=0))
    assert table.waiting() is not None and table.waiting().wants == "deal"  # type: ignore[union-attr]
    with pytest.raises(RuleViolation):
        table.set_hand(dealer=7)
    assert "TableState(" in str(table)


def test_the_replacements_from_an_unseen_stock_are_listed() -> None:
    """At a draw from an unseen stock every set of replacements nobody has placed is
    an outcome, equally likely; each one applied gives that exchange (R-DRAW)."""
    state = Game("standard+table(players=2)", engine="python").new_hand(dealer=0)
    assert isinstance(state, State) and state.chance_outcomes() == []  # a deal: given
    state.apply_chance(Dealt.of(0, {0: [0, 1, 2, 3, 4], 1: [13, 14, 15, 16, 17]}))
    assert state.current_player() == 1
    state.apply_action(PLAY)  # seat 1 plays, then exchanges at once (R-DRAW)
    state.apply_action(discard([14]))
    outcomes = state.chance_outcomes()
    placed = {0, 1, 2, 3, 4, 13, 14, 15, 16, 17}
    assert len(outcomes) == 52 - len(placed)
    assert abs(sum(p for _, p in outcomes) - 1) < 1e-9
    drew, _ = outcomes[-1]
    state.apply_chance(drew)
    assert state.hand.got[1] == drew.cards and not set(drew.cards) & placed


def test_what_a_hidden_seat_may_hold_is_the_unplaced_cards_and_its_own() -> None:
    """:meth:`TableState.could_hold` (:func:`bourre.game.unseen.could_hold`, R-DECK): a
    seat nobody showed may hold any card nobody placed and the cards known to be in its
    hand (the dealer's upcard), never a card another seat showed; cards a page placed in
    stand-in hands though nobody named them count as unplaced."""
    table = TableState(Game("standard", engine="python").new_hand(dealer=0))
    shown = (1, 2, 3, 4, 5)
    table.deal(Dealt.of(51, {2: shown}))
    free = set(table.unplaced())
    assert free == set(range(52)) - {51, *shown}
    assert table.could_hold(1) == free
    assert table.could_hold(0) == free | {51}  # the dealer's upcard (R-DEAL)
    assert not table.could_hold(1) & {51, *shown}
    assert table.could_hold(1, standing_in={3}) == free | {3}


@pytest.mark.parametrize("thing", [None, 99, -1, 1.0, True, "AS", 10**100])
def test_a_card_that_is_no_card_is_refused_as_a_rule_says(thing: object) -> None:
    """Issue 42: ``referee_play(None)``, ``(99)``, a card ``1.0`` raised plain
    exceptions (and -1 or True were read as cards); each is refused by R-DECK, the
    table unchanged."""
    table, _, illegal, _ = _at_an_illegal_card()
    before = table.state.history()
    calls = [lambda: table.referee_play(thing)]  # type: ignore[arg-type]
    if thing is not None:  # (no correction is corrected_to=None)
        calls.append(lambda: table.referee_play(illegal, thing))  # type: ignore[arg-type]
    for call in calls:
        with pytest.raises(RuleViolation) as e:
            call()
        assert e.value.rule == "R-DECK" and "is not a card" in str(e.value)
    assert table.state.history() == before


@pytest.mark.parametrize(
    "outcome",
    [Dealt(upcard=5, hands=None), Dealt(upcard=5, hands={0: None}), Dealt(5, [1, 2])],  # type: ignore[arg-type]
)
def test_a_deal_seen_of_the_wrong_shape_is_refused_as_a_rule_says(outcome: Dealt) -> None:
    """Issue 42: ``Dealt(hands=None)`` raised an AttributeError."""
    table = TableState.new(House("standard"), hands=1)
    with pytest.raises(RuleViolation) as e:
        table.deal(outcome)
    assert e.value.rule == "R-DEAL" and "{seat: cards}" in str(e.value)
    assert table.state.history() == []


def test_an_action_naming_no_card_has_words() -> None:
    from bourre.game.actions import Action

    assert str(Action("card", (1.0,))) == "1.0"  # type: ignore[arg-type]
    assert str(Action("discard", (None, 3))) == "discard None 5S"  # type: ignore[arg-type]
