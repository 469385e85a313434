"""The play phase's shortcuts answer as the general paths do: an only legal action
applied in one step (``State.apply_only_action``), the random bot's list fast path, and the
legal set of one card (a shared 1-tuple)."""

from __future__ import annotations

from bourre.game import Game
from bourre.game.players import play_out
from bourre.game.state import State
from bourre.houses.house import House
from bourre_bots.random_bot import RandomPlayer


def _session(seed: int) -> State:
    return Game(House("standard")).new_session(seed=seed, keep_results=True)


def test_play_out_with_random_bots_ends_the_session():
    state = _session(2)
    play_out(state, [RandomPlayer(1) for _ in range(state.n)])
    assert state.is_terminal() and sum(state.returns()) == 0


def test_the_random_bot_answers_a_list_as_any_other_sequence():
    state = _session(11)
    lists, tuples = RandomPlayer(5), RandomPlayer(5)
    while not state.is_terminal():
        actions = state.legal_actions()
        got = lists.choose(actions)
        as_tuple = tuple(actions) if isinstance(actions, list) else actions  # (Discards)
        assert got == tuples.choose(as_tuple) and got in actions
        state.apply_action(got)


def test_a_legal_set_of_one_card_is_the_hand_s_only_legal_card():
    state = _session(4)
    seen = 0
    while not state.is_terminal():
        if state.phase_name == "play":
            cards = state.legal_cards()
            hand = state.hand.hands[state.current_player()]
            assert cards == [c for c in hand if c in cards]  # the hand's order
            seen += len(cards) == 1
        only = state.only_action()
        if only is not None:
            state.apply_action(only)
        else:
            acts = state.legal_actions()  # play every hand, stand pat, the first card
            state.apply_action(acts[-1] if acts[0].kind == "pass" else acts[0])
    assert seen
