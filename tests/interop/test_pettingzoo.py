"""The PettingZoo AEC environment (bourre.pettingzoo): PettingZoo's own API test, zero-sum
rewards, illegal actions refused with the rule's id, and information hiding."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

pytest.importorskip("pettingzoo")
np = pytest.importorskip("numpy")

from pettingzoo.test import api_test  # noqa: E402

from bourre.game import Game  # noqa: E402
from bourre.game.actions import Action  # noqa: E402
from bourre.pettingzoo import (  # noqa: E402
    DISCARD,
    PASS_INDEX,
    PLAY_INDEX,
    BourreEnv,
    action_index,
    env,
    index_action,
)

# PettingZoo's checker warns about every Dict observation (its classic games do the same)
pytestmark = pytest.mark.filterwarnings("ignore:Observation")

HOUSES = ["standard", "four-card", "standard+table(players=2)"]


def _play(e, rng: random.Random, check=None):
    """A random masked playthrough; returns the exact rewards summed per agent."""
    exact = {a: Fraction(0) for a in e.possible_agents}
    floats = {a: 0.0 for a in e.possible_agents}
    for agent in e.agent_iter():
        obs, _, terminated, truncated, _ = e.last()
        if check is not None:
            check(e)
        if terminated or truncated:
            e.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        assert len(legal) > 0, agent
        e.step(int(rng.choice(list(legal))))
        for a in e.agents:
            exact[a] += Fraction(e.infos[a]["reward"])
            floats[a] += e.rewards[a]
    return exact, floats


@pytest.mark.parametrize("house", HOUSES)
def test_api(house: str) -> None:
    api_test(env(house), num_cycles=300, verbose_progress=False)


@pytest.mark.parametrize("house", ["standard", "standard+table(players=2)"])
def test_random_session_is_zero_sum(house: str) -> None:
    e = env(house, seed=11)
    e.reset()
    raw = e.unwrapped
    assert isinstance(raw, BourreEnv)
    state = raw.game_state
    exact, floats = _play(e, random.Random(5))
    assert state.is_terminal() and e.agents == []
    returns = [Fraction(r) for r in state.returns()]
    assert sum(returns) == 0
    assert [exact[a] for a in e.possible_agents] == returns
    assert [floats[a] for a in e.possible_agents] == pytest.approx([float(r) for r in returns])
    assert len(state.results) == raw.game.hands


def test_terminations_all_true_at_the_end() -> None:
    e = env("standard+table(players=2)", max_hands=1)
    e.reset(seed=3)
    rng = random.Random(1)
    while not any(e.terminations.values()):
        mask = e.observe(e.agent_selection)["action_mask"]
        e.step(int(rng.choice(list(np.flatnonzero(mask)))))
    assert all(e.terminations.values()) and len(e.terminations) == 2
    state = e.unwrapped.game_state
    assert len(state.results) == 1
    # one hand, no settlement: what stays in the pot is nobody's
    total = sum(Fraction(e.infos[a]["returns"]) for a in e.agents)
    assert total == -Fraction(state.pot)


def test_reset_seeds() -> None:
    e = env("standard", seed=4)
    e.reset()
    first = e.observe(e.agent_selection)["observation"].copy()
    e.reset(seed=4)
    assert (e.observe(e.agent_selection)["observation"] == first).all()
    e.reset()  # the counter goes on: seed 5
    assert e.unwrapped.game_state.history() == Game("standard").new_session(seed=5).history()


def test_illegal_action_names_the_rule() -> None:
    e = env("standard")
    e.reset(seed=0)
    state = e.unwrapped.game_state
    agent = e.agent_selection
    mask = e.observe(agent)["action_mask"]
    assert mask[PLAY_INDEX] == 1 and mask[0] == 0
    before = len(state.history())
    with pytest.raises(ValueError, match=r"R-DECIDE"):
        e.step(0)  # a card while deciding
    assert len(state.history()) == before and e.agent_selection == agent
    with pytest.raises(ValueError, match=r"R-DRAW"):
        e.step(e.action_space(agent).n + 5)  # no such action
    # on to the play: a card masked out is refused by its rule
    rng = random.Random(2)
    while state.phase_name != "play":
        mask = e.observe(e.agent_selection)["action_mask"]
        e.step(int(rng.choice(list(np.flatnonzero(mask)))))
    mask = e.observe(e.agent_selection)["action_mask"]
    bad = next(c for c in range(52) if not mask[c])
    with pytest.raises(ValueError, match=r"\(R-[A-Z-]+\)"):
        e.step(bad)
    with pytest.raises(ValueError, match=r"R-LEAD"):
        e.step(PASS_INDEX)


def test_action_indices_round_trip() -> None:
    hand = (3, 17, 30, 41, 50)
    assert index_action(DISCARD, hand) == Action("discard", ())
    assert index_action(DISCARD + 0b10101, hand) == Action("discard", (3, 30, 50))
    for i in range(DISCARD + 2 ** len(hand)):
        assert action_index(index_action(i, hand), hand) == i
    e = env("four-card")
    e.reset(seed=9)
    state = e.unwrapped.game_state
    rng = random.Random(0)
    while not state.is_terminal():  # the mask is exactly the legal actions, everywhere
        seat = state.current_player()
        mask = e.observe(e.agent_selection)["action_mask"]
        legal = state.legal_actions()
        assert [index_action(int(i), state.hand.hands[seat]) for i in np.flatnonzero(mask)] == (
            sorted(legal, key=lambda a: action_index(a, state.hand.hands[seat]))
        )
        e.step(int(rng.choice(list(np.flatnonzero(mask)))))


def test_observation_is_a_function_of_the_seats_observation() -> None:
    # the Python rules' state: the test changes its hidden hands in place
    e = env("standard", seed=21, engine="python")
    e.reset()
    raw = e.unwrapped
    enc = raw.encoder
    checked = 0

    def check(e) -> None:
        nonlocal checked
        state = raw.game_state
        if state.is_terminal():
            return
        for a, seat in raw.agent_name_mapping.items():
            got = e.observe(a)
            obs = state.observation(seat)
            assert (got["observation"] == enc.encode(obs)).all()
            assert (got["action_mask"] == enc.mask(obs)).all()
        # swap a card between two other seats' hidden hands: this seat sees no change
        hands = state.hand.hands
        for seat in range(state.n):
            others = [s for s in range(state.n) if s != seat and hands[s]]
            if len(others) < 2:
                continue
            a, b = others[:2]
            twin = state.clone()
            ha, hb = twin.hand.hands[a], twin.hand.hands[b]
            ha[0], hb[0] = hb[0], ha[0]
            ha.sort()
            hb.sort()
            before = e.observe(f"player_{seat}")
            raw.game_state = twin
            after = e.observe(f"player_{seat}")
            changed = e.observe(f"player_{a}")["observation"]
            raw.game_state = state
            assert (before["observation"] == after["observation"]).all()
            assert (before["action_mask"] == after["action_mask"]).all()
            assert not (changed == e.observe(f"player_{a}")["observation"]).all()
            checked += 1

    _play(e, random.Random(8), check)
    assert checked > 100


def test_render_ansi() -> None:
    e = env("standard+table(players=2)", render_mode="ansi")
    e.reset(seed=1)
    text = e.render()
    assert isinstance(text, str) and "player_1" in text and "pot" in text
    assert env("standard").unwrapped.render() is None
    with pytest.raises(ValueError):
        env("standard", render_mode="rgb_array")


def test_without_its_extra_the_adapter_says_how_to_get_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """``import bourre.pettingzoo`` without PettingZoo: one message saying what to
    install, not a bare ModuleNotFoundError."""
    import importlib
    import sys

    monkeypatch.setitem(sys.modules, "pettingzoo", None)  # as if not installed
    monkeypatch.delitem(sys.modules, "bourre.pettingzoo", raising=False)
    with pytest.raises(ImportError, match=r"pip install 'bourre\[pettingzoo\]'"):
        importlib.import_module("bourre.pettingzoo")


def reference_vector(enc, obs) -> np.ndarray:
    """The observation vector of the module's docstring, field by field with numpy
    (the layout written out independently of ``Encoder.encode``)."""
    v = np.zeros(enc.size, dtype=np.int8)
    v[list(obs.hand)] = 1
    played = [c for t in obs.tricks for _, c in t.plays] + [c for _, c in obs.trick]
    v[[52 + c for c in played]] = 1
    v[[104 + c for _, c in obs.trick]] = 1
    if obs.upcard >= 0:
        v[156 + obs.upcard] = 1
        v[260 + obs.trump] = 1
    v[[208 + c for c in obs.own_discards]] = 1
    i = 264
    phases = ("decide", "exchange", "play")
    if obs.to_act == obs.seat and obs.phase in phases:
        v[i + phases.index(obs.phase)] = 1
    v[i + 3], v[i + 4] = obs.forced is not None, obs.cinch
    if obs.my_decision >= 0:
        v[i + 5 + obs.my_decision] = 1
    i += 7
    n, h = enc.players, enc.hand_size
    out = set()
    for plays in [t.plays for t in obs.tricks] + [obs.trick]:
        if plays:
            led = plays[0][1] // 13
            out.update((s, led) for s, c in plays[1:] if c // 13 != led)
    decided = {d.seat: d for d in obs.decisions}
    for r in range(n):
        s, b = (obs.seat + r) % n, i + r * enc.per_seat
        d = decided.get(s)
        v[b : b + 7] = (
            s == obs.dealer, s in obs.active, d is not None and d.play,
            d is not None and not d.play, s == obs.to_act,
            any(p == s for p, _ in obs.trick), bool(obs.trick) and obs.trick[0][0] == s,
        )  # fmt: skip
        v[b + 7 : b + 7 + min(d.exchanged if d else 0, h)] = 1
        v[b + 7 + h : b + 7 + h + min(obs.tricks_won[s], h)] = 1
        v[[b + 7 + 2 * h + u for u in range(4) if (s, u) in out]] = 1
    i += n * enc.per_seat
    v[i : i + min(obs.stock_size, 52)] = 1
    v[i + 52 : i + 52 + min(int(obs.pot / enc.ante), 32)] = 1
    v[i + 52 + 32 : i + 52 + 32 + min(obs.number, enc.hands)] = 1
    return v


@pytest.mark.parametrize(
    "house",
    ["standard", "standard+table(players=8)", "four-card+table(players=2)",
     "simultaneous-reveal+table(players=3,ante=1/2)", "double-ante+no-cinch"],
)  # fmt: skip
def test_the_vector_is_the_documented_layout(house: str) -> None:
    """Every seat's vector at every step of two sessions equals the layout written out
    field by field, and the mask marks exactly the legal actions."""
    from bourre.game import Game

    game = Game(house)
    e = env(house)
    enc = e.unwrapped.encoder
    rng = random.Random(house)
    for seed in range(2):
        state = game.new_session(seed=seed)
        while not state.is_terminal():
            for seat in range(state.n):
                obs = state.observation(seat)
                assert (enc.encode(obs) == reference_vector(enc, obs)).all()
                hand = obs.hand
                marked = {int(i) for i in np.flatnonzero(enc.mask(obs))}
                assert marked == {action_index(a, hand) for a in obs.legal_actions}
            state.apply_action(rng.choice(list(state.legal_actions())))
