"""bourre inside OpenSpiel (``bourre.openspiel``): OpenSpiel's own random simulation
checks, returns in chips equal to bourre's own play, resampled worlds the seat cannot
tell apart, OpenSpiel's Python IS-MCTS bot playing with bourre's resampler, and a short
outcome-sampling MCCFR run.  Skipped, with the reason, where open_spiel is absent."""

from __future__ import annotations

from fractions import Fraction

import pytest

pyspiel = pytest.importorskip(
    "pyspiel", reason="open_spiel is not installed here: pip install 'bourre[openspiel]'"
)
np = pytest.importorskip("numpy")

import bourre.openspiel as bos  # noqa: E402
from bourre.game.actions import Deck  # noqa: E402
from bourre.game.state import State  # noqa: E402

HOUSES = [
    ("standard", 3),
    ("four-card", 2),
    ("pot-limit(limit=3)+double-ante", 5),
    ("optional-undertrump+no-cinch", 8),
]


def load(house: str = "standard", players: int = 3):  # type: ignore[no-untyped-def]
    return pyspiel.load_game("python_bourre", {"house": house, "players": players})


def play_random(state, rng):  # type: ignore[no-untyped-def]
    """Random chance outcomes and actions to the end; the actions applied."""
    while not state.is_terminal():
        if state.is_chance_node():
            cards, probs = zip(*state.chance_outcomes(), strict=True)
            assert abs(sum(probs) - 1) < 1e-9
            state.apply_action(int(rng.choice(cards)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    return state


@pytest.mark.parametrize(("house", "players"), HOUSES)
def test_openspiel_random_simulation_checks(house: str, players: int) -> None:
    """OpenSpiel's own API checks (legal actions, chance outcomes, clones,
    observations, returns) on random games of the house."""
    game = load(house, players)
    assert game.num_players() == players
    pyspiel.random_sim_test(game, num_sims=3, serialize=False, verbose=False)


def test_the_game_is_bourre_returns_in_chips() -> None:
    """The deck OpenSpiel's chance dealt and the actions taken, replayed by bourre's
    own state, give the same returns; they are zero-sum and in chips."""
    game = load("standard", 4)
    rng = np.random.RandomState(3)
    moved = 0
    for _ in range(5):
        state = play_random(game.new_initial_state(), rng)
        history = state.history()
        deck, actions = history[:51], history[51:]  # the 52nd card is what is left
        deck += [c for c in range(52) if c not in deck]
        assert sorted(deck) == list(range(52))
        own = State(bos.house_of("standard", 4), hands=1, dealer=0)
        own.apply_chance(Deck(tuple(deck)))
        for a in actions:
            own.apply_action(bos.action_of(own, a))
        assert own.is_terminal()
        assert state.returns() == [float(Fraction(r)) for r in own.returns()]
        assert abs(sum(state.returns())) < 1e-9
        moved += any(r != 0 for r in state.returns())
    assert moved  # chips changed hands (a tie that carries may leave all even)


def test_observations() -> None:
    game = load("standard", 3)
    state = game.new_initial_state()
    assert state.observation_string(0) == "p0 dealing"
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    seat = state.current_player()
    tensor = np.array(state.observation_tensor(seat))
    assert tensor[3 : 3 + 52].sum() == 5  # the seat's five cards (R-DEAL-SIZE)
    assert tensor[3 + 52 : 3 + 104].sum() == 1  # one upcard
    text = state.observation_string(seat)
    assert text.startswith(f"p{seat} hand ") and "decide" in text
    # what another seat sees differs in the hand, never shows the seat's cards
    other = (seat + 1) % 3
    assert state.observation_string(other) != text
    info = state.information_state_string(seat)
    assert info.startswith(f"p{seat} dealer ")


def test_a_resampled_world_is_one_the_seat_cannot_tell_apart() -> None:
    """At every decision of random games, the world drawn for the seat to act has the
    same information state for that seat, the same legal actions, and differs in the
    other seats' cards somewhere."""
    game = load("standard", 3)
    rng = np.random.RandomState(11)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    differed = 0
    for _ in range(3):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(int(rng.choice([c for c, _ in state.chance_outcomes()])))
                continue
            seat = state.current_player()
            world = state.resample_from_infostate(seat, sampler)
            assert world.information_state_string(seat) == state.information_state_string(seat)
            assert world.legal_actions() == state.legal_actions()
            theirs = [state.st.hand.hands[s] for s in range(3) if s != seat]
            if theirs != [world.st.hand.hands[s] for s in range(3) if s != seat]:
                differed += 1
            play_random(world.clone(), rng)  # the world plays on to its end
            state.apply_action(int(rng.choice(state.legal_actions())))
    assert differed > 0


def test_openspiel_ismcts_plays_with_bourres_resampler() -> None:
    """OpenSpiel's Python IS-MCTS bot plays every seat of two hands; each search
    resamples worlds with ``resample_from_infostate`` (bourre's sample_world)."""
    from open_spiel.python.algorithms import ismcts, mcts

    game = load("standard", 3)
    rng = np.random.RandomState(7)
    bot = ismcts.ISMCTSBot(
        game, mcts.RandomRolloutEvaluator(1, rng), uct_c=2.0, max_simulations=8, random_state=rng
    )
    calls = 0
    original = bos.BourreState.resample_from_infostate

    def counting(self, player, sampler):  # type: ignore[no-untyped-def]
        nonlocal calls
        calls += 1
        return original(self, player, sampler)

    bos.BourreState.resample_from_infostate = counting  # type: ignore[method-assign]
    try:
        for _ in range(2):
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    state.apply_action(int(rng.choice([c for c, _ in state.chance_outcomes()])))
                else:
                    action = int(bot.step(state))
                    assert action in state.legal_actions()
                    state.apply_action(action)
            assert abs(sum(state.returns())) < 1e-9
    finally:
        bos.BourreState.resample_from_infostate = original  # type: ignore[method-assign]
    assert calls >= 8


def test_outcome_sampling_mccfr_runs_on_a_small_house() -> None:
    """A short outcome-sampling MCCFR run (two players, four cards each): it visits
    information states and its average policy is a distribution over legal actions."""
    from open_spiel.python.algorithms import outcome_sampling_mccfr

    game = load("four-card", 2)
    solver = outcome_sampling_mccfr.OutcomeSamplingSolver(game)
    for _ in range(20):
        solver.iteration()
    policy = solver.average_policy()
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    probs = policy.action_probabilities(state)
    assert set(probs) == set(state.legal_actions())
    assert abs(sum(probs.values()) - 1) < 1e-9
    assert len(solver._infostates) > 20


def test_parameters_are_checked_in_words() -> None:
    with pytest.raises(Exception, match="unknown variant"):
        load("no-such-variant", 3)
    with pytest.raises(Exception, match="players"):
        load("standard", 9)
    assert load("four-card", 8).num_distinct_actions() == 52 + 2 + 2**4


def _at_exchange(players: int = 3):  # type: ignore[no-untyped-def]
    """A state at a seat's exchange (seat decisions: everyone plays)."""
    rng = np.random.RandomState(7)
    for _ in range(50):
        state = load("standard", players).new_initial_state()
        while state.is_chance_node():
            cards, _ = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(cards)))
        while not state.is_terminal() and state.st.phase_name == "decide":
            legal = state.legal_actions()
            state.apply_action(bos.PLAY_ID if bos.PLAY_ID in legal else legal[0])
        if not state.is_terminal() and state.st.phase_name == "exchange":
            return state
    raise AssertionError("no exchange reached")


@pytest.mark.parametrize("action", [86, 54 + 2**20, -55, 87, -2, 2**62])
def test_an_exchange_id_that_names_no_exchange_is_refused(action: int) -> None:
    """Issue 42: ids past the hand's mask, or negative, were played as other discards."""
    state = _at_exchange()
    before = state.history()
    with pytest.raises(pyspiel.SpielError, match=r"no action of this game|not legal now"):
        state.apply_action(action)
    assert state.history() == before


@pytest.mark.parametrize("action", [52, 53, -2, 10**6])
def test_a_chance_outcome_that_is_no_card_is_refused(action: int) -> None:
    """Issue 42: chance action 52 raised IndexError."""
    state = load().new_initial_state()
    with pytest.raises(pyspiel.SpielError, match=r"chance cannot draw .*R-DECK"):
        state.apply_action(action)


def test_an_illegal_card_is_refused_with_the_rule() -> None:
    state = _at_exchange()
    state.apply_action(bos.DISCARD_BASE)  # stand pat
    while not state.is_terminal() and state.st.phase_name != "play":
        if state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
        else:
            legal = state.legal_actions()
            state.apply_action(bos.PLAY_ID if bos.PLAY_ID in legal else legal[0])
    assert not state.is_terminal()
    illegal = next(c for c in range(52) if c not in state.legal_actions())
    with pytest.raises(pyspiel.SpielError, match=r"not legal now: .*\(R-"):
        state.apply_action(illegal)


def test_every_action_id_is_played_if_legal_and_refused_with_spielerror_if_not() -> None:
    """Hostile ids at every kind of node of random hands (cards, pass, play, masks in
    and past the hand, negative and huge ids, chance outcomes that are no card or were
    drawn): a legal id is played, any other refused with SpielError, the state unchanged."""
    rng = np.random.RandomState(42)
    tried = 0
    for house, players in HOUSES[:3]:
        game = load(house, players)
        for _ in range(3):
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    legal = [c for c, _ in state.chance_outcomes()]
                else:
                    legal = state.legal_actions()
                hostile = [int(x) for x in rng.randint(-200, 200, size=3)]
                hostile += [
                    -55,
                    52,
                    53,
                    86,
                    54 + 2**20,
                    2**40,
                    -(2**40),
                    int(rng.randint(0, 54 + 2**5)),
                ]
                for a in hostile:
                    if (
                        a in legal or a == -1
                    ):  # -1: OpenSpiel's own kInvalidAction, its own SpielError
                        continue
                    before = state.history()
                    with pytest.raises(pyspiel.SpielError):
                        state.apply_action(a)
                    assert state.history() == before
                    tried += 1
                state.apply_action(int(rng.choice(legal)))
    assert tried > 1000
