"""Properties of random houses: any subset of the built-in variants, 2 to 8 players,
random pot limits and antes, played by random bots (``bourre.game.simulate.play_session``).

- money is conserved exactly, hand by hand and after R-SETTLE;
- every card is in exactly one place whenever a player is asked anything and after
  every action (``HandState.places()``, the state stepped by the test);
- the legal set offered is never empty and always within the hand;
- a session is determined by its seed.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from bourre.game.actions import CARDS
from bourre.game.players import ask
from bourre.game.simulate import play_session, random_players
from bourre.game.state import State
from bourre.game.xoshiro import stream
from bourre.houses.house import House
from bourre.referee.records import hand_record

OPTIONAL = [
    "double-ante",
    "pot-limit",
    "four-card",
    "simultaneous-reveal",
    "optional-undertrump",
    "no-cinch",
]


@st.composite
def houses(draw: st.DrawFn) -> str:
    """A house string: a random subset of the optional variants in random order."""
    names = draw(st.lists(st.sampled_from(OPTIONAL), unique=True, max_size=len(OPTIONAL)))
    items = []
    if draw(st.booleans()):
        items.append("standard")
    for name in names:
        if name == "pot-limit":
            items.append(f"pot-limit(limit={draw(st.integers(1, 20))})")
        else:
            items.append(name)
    if not items:
        items.append("standard")
    players = draw(st.integers(2, 8))
    ante = draw(st.sampled_from(["1", "2", '"1/2"', '"3/2"']))
    hands = draw(st.integers(1, 12))
    items.append(f"table(players={players},ante={ante},hands={hands})")
    return "+".join(items)


class Checked:
    """A session of random bots stepped here (not by ``play_out``), checking the
    invariants before every question and after every action."""

    questions = 0

    @classmethod
    def play(cls, house: House, seed: int) -> State:
        """Like ``play_session(house, seed)``: the same bots, the same session."""
        n = house.table.players
        bot = random_players(0, stream(f"bourre-bots:{seed}"))
        players = [bot] * n  # play_session's one bot at every seat
        state = State(house, seed=seed)
        total = sum(state.balances) + state.pot
        state.hand.places()
        while not state.is_terminal():
            seat = state.current_player()
            assert seat >= 0, "a seeded state draws its own chance outcomes"
            hs = state.hand
            hs.places()
            legal_actions = state.legal_actions()
            assert legal_actions, f"no legal action for seat {seat} ({state.phase_name})"
            if state.phase_name == "decide":
                cls.questions += 1
            elif state.phase_name == "play":
                legal = state.legal_cards()
                assert legal, f"empty legal set for seat {seat}"
                assert set(legal) <= set(hs.hands[seat]), "legal cards outside the hand"
                assert len(set(legal)) == len(legal)
                assert legal_actions == [CARDS[c] for c in legal]
                assert seat in hs.active
                cls.questions += 1
            action = ask(state, players[seat])
            assert action in legal_actions or (
                action.kind == "discard"
                and frozenset(action.cards) in {frozenset(a.cards) for a in legal_actions}
            ), f"seat {seat} answered {action}, not among the legal actions"
            state.apply_action(action)
            state.hand.places()
            # the money at the table: balances plus the pot, exactly, at every step
            assert sum(state.balances) + state.pot == total
        return state


def session_summary(house: House, seed: int) -> Any:
    res = play_session(house, seed=seed, record=True)
    return (
        [hand_record(h).model_dump(mode="json") for h in res.hands],
        [str(x) for x in res.final],
        res.ranks,
    )


@settings(max_examples=30, deadline=None)
@given(spec=houses(), seed=st.integers(0, 10**6))
def test_money_cards_and_legal_sets(spec: str, seed: int) -> None:
    house = House(spec)
    n, ante, balance = house.table.players, house.table.ante, house.table.balance
    asked = Checked.questions
    state = Checked.play(house, seed)
    assert Checked.questions > asked  # the checks did run
    total = n * balance
    assert len(state.results) == house.table.hands
    for hand in state.results:
        out = hand.outcome
        # this hand: pot at stake + payments = taken + carried, exactly
        assert hand.pot_at_stake + sum(out.paid) == sum(out.takes) + out.pot_after
        # the ledger: balances plus the pot carried are the money at the table
        assert sum(hand.balances) + out.pot_after == total
        assert all(isinstance(x, (int, Fraction)) for x in hand.balances)
        assert all(a in (0, ante) for a in hand.antes)
        hand.state.places()
        assert sum(hand.state.won) == house.rules.hand_size
        assert all(x >= 0 for x in out.paid) and all(x >= 0 for x in out.takes)
    assert state.final is not None
    final, ranks = state.final
    assert sum(final) == total  # R-SETTLE shares the pot left exactly
    assert sum(state.returns()) == 0
    assert sorted(ranks)[0] == 1
    # stepped here or by play_out, the bots play the same session
    res = play_session(house, seed=seed)
    assert res.final == final and res.ranks == ranks


@settings(max_examples=30, deadline=None)
@given(spec=houses(), seed=st.integers(0, 10**6))
def test_determinism_by_seed(spec: str, seed: int) -> None:
    house = House(spec)
    first = session_summary(house, seed)
    assert session_summary(House(spec), seed) == first


@settings(max_examples=10, deadline=None)
@given(spec=houses(), seed=st.integers(0, 10**6))
def test_decks_depend_on_the_seed_only(spec: str, seed: int) -> None:
    """Common random numbers: the deck of hand 1 is the seed's, whatever the house
    (its upcard is card h·n - 1 of that deck, R-DEAL)."""
    from bourre.game.state import Chance

    house = House(spec)
    deck = Chance(seed).deck()
    res = play_session(house, seed=seed)
    assert res.hands[0].state.upcard == deck[house.rules.hand_size * house.table.players - 1]
