"""The kernel's stepped state (:class:`bourre.kernel.state.KernelState`) against the
Python rules' :class:`~bourre.game.state.State`: stepped the same way they agree at every
step (who acts, the legal actions, what each seat observes), at the end (returns,
history) and on every refusal (the rule id and the words), leaving the state unchanged.
``Game(house)`` gives it where the kernel can play the house.  Skipped, with the
reason, when the extension is not built.
"""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

import pytest
from conftest import plugin
from hookkit import replayed_both, same_step
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bourre.game import Game
from bourre.game.actions import CARDS, PASS, PLAY, Action, Dealt, Deck, discard
from bourre.game.state import State
from bourre.houses.house import House
from bourre.rules import RuleViolation
from bourre.rules.plugins import load_registry
from bourre.rules.variant import Variant

pytest.importorskip(
    "bourre.kernel._kernel",
    reason="the compiled kernel is not built (BOURRE_NO_KERNEL=1, or no C++ compiler)",
)

from bourre.kernel.state import KernelState, new_session

VARIANTS = [
    "standard",
    "double-ante",
    "pot-limit(limit=3)",
    "four-card",
    "simultaneous-reveal",
    "optional-undertrump",
    "no-cinch",
    "double-ante+pot-limit(limit=4)+optional-undertrump",
    "four-card+simultaneous-reveal+no-cinch",
    "simultaneous-reveal+double-ante",
    "four-card+optional-undertrump+pot-limit(limit=1)",
]


def house_of(spec: str, n: int, hands: int = 3, more: str = "") -> House:
    return House(f"{spec}+table(players={n},hands={hands}{more})")


def pair(house: House, seed: int | str | None, **kw: Any) -> tuple[KernelState, State]:
    k = Game(house, engine="kernel").new_session(seed, **kw)
    assert isinstance(k, KernelState)
    p = Game(house, engine="python").new_session(seed, **kw)
    assert type(p) is State
    return k, p


def same_now(k: State, p: State, where: str) -> None:
    assert k.current_player() == p.current_player(), where
    assert k.is_terminal() == p.is_terminal(), where
    assert list(k.legal_actions()) == list(p.legal_actions()), where
    assert k.only_action() == p.only_action(), where
    assert k.phase_name == p.phase_name, where
    assert k.returns() == p.returns(), where
    for s in range(p.n):
        assert k.observation(s) == p.observation(s), f"{where}, seat {s}"


def drive(k: State, p: State, rng: random.Random, where: str) -> None:
    steps = 0
    while not p.is_terminal():
        same_now(k, p, f"{where}, step {steps}")
        same_step(k, p, rng)
        steps += 1
    same_now(k, p, f"{where}, the end")
    assert k.returns() == p.returns(), where
    assert sum(k.returns()) == 0
    assert k.history() == p.history(), where
    assert k.number == p.number


@pytest.mark.parametrize("spec", VARIANTS)
@pytest.mark.parametrize("n", range(2, 9))
def test_the_kernel_state_steps_as_the_python_state(spec: str, n: int) -> None:
    house = house_of(spec, n)
    for seed in range(3):
        k, p = pair(house, seed)
        drive(k, p, random.Random(f"{spec}:{n}:{seed}"), f"{spec}, {n} players, seed {seed}")


@pytest.mark.parametrize(
    "spec",
    [
        "standard+table(ante=5/2,balance=7/3,first_dealer=random,hands=4)",
        "double-ante+table(ante=1/3,first_dealer=2,hands=4)",
        "pot-limit(limit=5/2)+table(players=3,hands=6)",
        "standard+table(players=8,hands=12)",  # reshuffles (R-RESHUFFLE)
        "simultaneous-reveal+four-card+table(players=8,hands=8)",
        "standard",  # a whole session of the default table
    ],
)
def test_table_settings_and_long_sessions(spec: str) -> None:
    house = House(spec)
    for seed in (0, 1, "s:7"):
        k, p = pair(house, seed)
        drive(k, p, random.Random(f"{spec}:{seed}"), f"{spec}, seed {seed!r}")


def test_given_balances_dealer_and_a_lean_history() -> None:
    house = house_of("standard", 4, hands=5)
    for kw in (
        {"balances": [10, 20, Fraction(3, 1), 0], "first_dealer": 3},
        {"keep_results": False},
        {"first_dealer": 1, "keep_results": False},
    ):
        k, p = pair(house, 5, **kw)
        drive(k, p, random.Random(9), repr(kw))


@pytest.mark.parametrize("spec", VARIANTS)
def test_one_hand_from_a_given_position_steps_as_the_python_state(spec: str) -> None:
    """``Game.new_hand``: one hand from a pot already in the middle, a dealer and the
    balances, with no settlement (the pot left stays): the kernel's as the Python's."""
    for n, seed, pot, dealer in ((5, 0, 0, 0), (3, 1, 7, 2), (8, "h", 40, 5), (2, 3, 1, 1)):
        house = house_of(spec, n)
        kw: dict[str, Any] = {"pot": pot, "dealer": dealer, "balances": [30 + s for s in range(n)]}
        k = Game(house, engine="kernel").new_hand(seed, **kw)
        assert isinstance(k, KernelState)
        p = Game(house, engine="python").new_hand(seed, **kw)
        where = f"{spec}, {n} players, pot {pot}"
        drive_hand(k, p, random.Random(where), where)


def drive_hand(k: State, p: State, rng: random.Random, where: str) -> None:
    while not p.is_terminal():
        same_now(k, p, where)
        a = rng.choice(list(p.legal_actions()))
        p.apply_action(a)
        k.apply_action(a)
    same_now(k, p, f"{where}, the end")
    assert k.pot == p.pot and k.balances == p.balances, where
    assert sum(k.returns()) + k.pot == sum(p.returns()) + p.pot, where  # nothing settled
    assert k.history() == p.history(), where
    assert k.results[-1].outcome == p.results[-1].outcome, where


@pytest.mark.parametrize("spec", ["standard", "simultaneous-reveal+double-ante", "four-card"])
def test_unseeded_sessions_take_the_decks_given(spec: str) -> None:
    """Without a seed both stop at each deal (a chance node) and take the deck given."""
    for n in (2, 5, 8):
        house = house_of(spec, n)
        k, p = pair(house, None, first_dealer=n - 1)
        assert k.is_chance_node() and k.current_player() == -1
        drive(k, p, random.Random(n), f"{spec}, {n} players, decks given")


def test_seeded_decks_are_those_of_the_python_rules() -> None:
    for seed in (0, 17, "x", "bourre"):
        for n in (2, 5, 8):
            k, p = pair(house_of("standard", n, hands=4, more=",first_dealer=random"), seed)
            rng = random.Random(0)
            while not p.is_terminal():
                a = rng.choice(list(p.legal_actions()))
                p.apply_action(a)
                k.apply_action(a)
            decks = [x for x in p.history() if isinstance(x, Deck)]
            assert len(decks) == 4 and [x for x in k.history() if isinstance(x, Deck)] == decks


# -- refusals ------------------------------------------------------------------------


def _any_action(data: st.DataObject, state: State, rng: random.Random) -> Any:
    """A legal action, or something else (a wrong kind, a card not held or not legal,
    a bad discard, garbage, a chance outcome at a player's turn)."""
    legal = list(state.legal_actions())
    kind = data.draw(st.integers(0, 9))
    if legal and kind < 5:
        a = rng.choice(legal)  # (now and then with its cards as a list: the same action)
        return ("act", Action(a.kind, list(a.cards)) if kind == 4 else a)  # type: ignore[arg-type]
    if kind == 5:
        return ("act", CARDS[data.draw(st.integers(0, 51))])
    if kind == 6:
        return (
            "act",
            data.draw(st.sampled_from([PASS, PLAY, Action("card", (1, 2)), Action("pass", (3,))])),
        )
    if kind == 7:
        cards = data.draw(st.lists(st.integers(0, 51), max_size=6))
        return ("act", discard(cards))
    if kind == 8:
        return ("act", data.draw(st.sampled_from([None, "AS", 3, ("card", (5,)), ("pass",)])))
    deck = list(range(52))
    rng.shuffle(deck)
    return (
        "chance",
        data.draw(st.sampled_from([Deck(tuple(deck)), Deck((1, 2, 3)), Deck((*range(51), 0))])),
    )


def _apply(state: State, move: tuple[str, Any]) -> RuleViolation | None:
    what, x = move
    try:
        if what == "act":
            state.apply_action(x)
        else:
            state.apply_chance(x)
    except RuleViolation as e:
        return e
    return None


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    spec=st.sampled_from(VARIANTS),
    n=st.integers(2, 8),
    seed=st.integers(0, 10_000),
    seeded=st.booleans(),
    data=st.data(),
)
def test_refusals_are_those_of_the_python_rules(
    spec: str, n: int, seed: int, seeded: bool, data: st.DataObject
) -> None:
    house = house_of(spec, n, hands=2)
    k, p = pair(house, seed if seeded else None, first_dealer=0)
    rng = random.Random(seed)
    for step in range(400):
        if p.is_terminal():
            break
        if p.is_chance_node() and data.draw(st.booleans()):
            deck = list(range(52))
            rng.shuffle(deck)
            move: tuple[str, Any] = ("chance", Deck(tuple(deck)))
        else:
            move = _any_action(data, p, rng)
        before = (p.history(), [p.observation(s) for s in range(n)])
        ep = _apply(p, move)
        ek = _apply(k, move)
        where = f"step {step}: {move!r}"
        if ep is None:
            assert ek is None, f"{where}: the kernel refused {ek!r}"
        else:
            assert ek is not None, f"{where}: the kernel took what the Python rules refuse"
            assert (ek.rule, str(ek)) == (ep.rule, str(ep)), where
            assert ek.legal == ep.legal, where
            assert (p.history(), [p.observation(s) for s in range(n)]) == before
        assert isinstance(k, KernelState), f"{where}: the kernel state handed over"
        same_now(k, p, where)
    assert k.history() == p.history()
    assert all(type(a.cards) is tuple for a in k.history() + p.history())


def test_a_refusal_names_the_rule_in_its_words() -> None:
    """Spot checks of the words (the property above compares them all)."""
    house = House("standard+table(players=3)")
    k = Game(house).new_session(seed=2)
    assert isinstance(k, KernelState)
    with pytest.raises(RuleViolation) as e:
        k.apply_action(CARDS[0])
    assert e.value.rule == "R-DECIDE" and "pass or play" in str(e.value)
    with pytest.raises(RuleViolation) as e:
        k.apply_chance(Deck(tuple(range(52))))
    assert e.value.rule == "R-DEAL"
    assert (
        isinstance(k, KernelState)
        and k.history() == Game(house, engine="python").new_session(seed=2).history()
    )


def test_legal_with_reasons_and_the_hand_come_from_the_python_rules() -> None:
    k, p = pair(house_of("standard", 3), 4)
    rng = random.Random(1)
    while p.phase_name != "play":
        a = rng.choice(list(p.legal_actions()))
        p.apply_action(a)
        k.apply_action(a)
    assert k.legal_with_reasons() == p.legal_with_reasons()
    assert k.hand.hands == p.hand.hands and k.hand.stock == p.hand.stock
    assert [r.outcome for r in k.results] == [r.outcome for r in p.results]
    assert k.exchange_limit() == p.exchange_limit() == 0
    assert k.legal_cards() == p.legal_cards()
    assert all(k.cards_of(s) == p.cards_of(s) for s in range(3))
    assert (k.balances, k.pot) == (p.balances, p.pot)
    assert isinstance(k, KernelState)


def test_the_python_twin_replays_only_what_is_new(monkeypatch: pytest.MonkeyPatch) -> None:
    """Asked in the Python rules' words after every action (legal_with_reasons, the
    results), the kernel state's twin is given each action once: a long session costs
    what its actions cost, not their square."""
    applied = [0]
    real = State.apply_action

    def counted(self: State, action: Action) -> None:
        applied[0] += 1
        real(self, action)

    monkeypatch.setattr(State, "apply_action", counted)
    k, p = pair(house_of("standard", 3), 2)
    read: list[int] = []
    since = k._k.history_since

    def new_entries(start: int) -> Any:
        got = since(start)
        read.append(len(got[0]))
        return got

    k._k.history_since = new_entries  # (the Stepper's own attribute: py::dynamic_attr)
    k._k.history = None  # (the whole history is never read again)
    rng = random.Random(2)
    steps = 0
    while not p.is_terminal():
        a = rng.choice(list(p.legal_actions()))
        p.apply_action(a)
        k.apply_action(a)
        steps += 1
        if not k.is_terminal() and k.phase_name == "play":
            assert k.legal_with_reasons() == p.legal_with_reasons()
        assert [r.outcome for r in k.results] == [r.outcome for r in p.results]
    assert applied[0] == 2 * steps  # (the Python state's own, and the twin's once each)
    assert sum(read) == steps + 3  # (each action read once, and the three decks)


def test_a_tables_outcome_is_the_python_rules_path() -> None:
    """A Dealt deal (what a table saw) is stepped on the Python rules (a TableState's
    state): the kernel state refuses it, unchanged, in the Python rules' words when they
    refuse it too; it stays a KernelState."""
    k, p = pair(house_of("standard", 2), None, first_dealer=0)
    dealt = Dealt.of(13, {0: [0, 1, 2, 3, 13], 1: [5, 6, 7, 8, 9]})
    with pytest.raises(RuleViolation, match="stepped on the Python rules"):
        k.apply_chance(dealt)
    with pytest.raises(RuleViolation) as e:
        k.apply_chance(Dealt.of(13, {0: [0, 1, 2, 3, 4, 13]}))  # six cards (R-DEAL)
    assert "Python rules" not in str(e.value)
    assert type(k) is KernelState and k.history() == [] and k.is_chance_node()
    p.apply_chance(dealt)
    assert p.chance_wants == "" and not p.is_terminal()


# -- clones ----------------------------------------------------------------------------


def test_clones_are_independent() -> None:
    house = house_of("standard", 5, hands=4)
    k = Game(house).new_session(seed=8)
    assert isinstance(k, KernelState)
    rng = random.Random(2)
    for _ in range(13):
        k.apply_action(rng.choice(list(k.legal_actions())))
    seen = ([k.observation(s) for s in range(5)], k.history(), k.returns())
    c = k.clone()
    assert isinstance(c, KernelState)
    twin = k.clone()
    r1, r2 = random.Random(5), random.Random(5)
    while not c.is_terminal():
        c.apply_action(r1.choice(list(c.legal_actions())))
    assert ([k.observation(s) for s in range(5)], k.history(), k.returns()) == seen
    while not twin.is_terminal():
        twin.apply_action(r2.choice(list(twin.legal_actions())))
    assert twin.returns() == c.returns() and twin.history() == c.history()
    # and the original plays on unchanged by either
    p = Game(house, engine="python").new_session(seed=8)
    for a in seen[1][1:]:
        p.apply_action(a)  # type: ignore[arg-type]
    drive(k, p, random.Random(3), "the original after its clones")


# -- which engine ------------------------------------------------------------------------


class Quiet(Variant):
    """A third-party variant that answers no rule hook."""

    name = "quiet"
    summary = "Nothing changes."


def test_game_chooses_the_engine(monkeypatch: pytest.MonkeyPatch) -> None:
    assert isinstance(Game("standard").new_session(seed=1), KernelState)
    assert type(Game("standard", engine="python").new_session(seed=1)) is State
    assert type(Game("standard").new_session(seed=1, engine="python")) is State
    assert type(Game("standard").new_session(seed=1, record=True)) is State  # records: Python
    assert isinstance(Game("standard").new_hand(seed=1), KernelState)
    assert type(Game("standard").new_hand(seed=1, engine="python")) is State
    assert type(Game("standard").new_hand(seed=1, pot=Fraction(1, 2))) is State  # half a chip
    done = Game("standard", engine="python").new_hand(seed=1)
    drive_hand(done, done.clone(), random.Random(1), "a hand")
    previous = done.results[-1].outcome
    assert type(Game("standard").new_hand(seed=1, previous=previous)) is State  # who antes
    with pytest.raises(ValueError, match="cannot play this hand: a previous hand's outcome"):
        Game("standard", engine="kernel").new_hand(seed=1, previous=previous)
    monkeypatch.setenv("BOURRE_ENGINE", "python")
    assert type(Game("standard").new_session(seed=1)) is State
    assert isinstance(Game("standard", engine="kernel").new_session(seed=1), KernelState)
    monkeypatch.delenv("BOURRE_ENGINE")
    house = House(
        "standard+quiet", registry=load_registry(extra=[("quiet", plugin("quiet", Quiet))])
    )
    assert type(Game(house).new_session(seed=1)) is State  # auto: the Python rules
    with pytest.raises(ValueError, match="'quiet'"):
        Game(house, engine="kernel").new_session(seed=1)
    with pytest.raises(ValueError, match="engine 'turbo'"):
        Game("standard", engine="turbo")
    assert isinstance(new_session(House("standard+table(first_dealer=random)")), str)


def test_auto_without_the_kernel_is_the_python_rules(monkeypatch: pytest.MonkeyPatch) -> None:
    """No compiled extension: the kernel's engine says why not, and auto plays Python."""
    import bourre.kernel as kernel

    monkeypatch.setattr(kernel, "_kernel", None)
    monkeypatch.setattr(kernel, "_WHY_NOT", "the compiled kernel is not built (a test)")
    assert type(Game("standard").new_session(seed=1)) is State
    with pytest.raises(ValueError, match="not built"):
        Game("standard", engine="kernel").new_session(seed=1)


# -- the PettingZoo environment and the Monte Carlo bot -------------------------------------


@pytest.mark.filterwarnings("ignore:Observation")  # (every Dict observation: tests/interop)
def test_the_pettingzoo_environment_runs_on_the_kernel() -> None:
    pytest.importorskip("pettingzoo")
    from pettingzoo.test import api_test

    from bourre.pettingzoo import env

    for house in ("standard", "simultaneous-reveal+table(players=3)"):
        e = env(house, seed=3)
        e.reset()
        assert isinstance(e.unwrapped.game_state, KernelState)
        api_test(e, num_cycles=300, verbose_progress=False)


def _play_views(
    spec: str, seed: int, phases: tuple[str, ...] = ("play",)
) -> list[tuple[House, Any, State]]:
    """Each view of a heuristic seat with more than one legal card, in a session
    played by heuristic bots on the Python rules."""
    from bourre.game.players import ask, make_bot

    house = House(spec)
    state = Game(house, engine="python").new_session(seed)
    bots = [
        make_bot("heuristic", random.Random(s), house=house) for s in range(house.table.players)
    ]
    out = []
    while not state.is_terminal():
        seat = state.current_player()
        view = state.observation(seat)
        if view.phase in phases and len(view.legal_actions) > 1:
            out.append((house, view, state))
        state.apply_action(ask(state, bots[seat]))
    return out


@pytest.mark.parametrize(
    "spec",
    ["standard+table(hands=2)", "double-ante+optional-undertrump+table(players=3,hands=2)",
     "simultaneous-reveal+no-cinch+table(players=6,hands=2)", "four-card+table(players=8,hands=2)"],
)  # fmt: skip
def test_kernel_rollouts_are_the_python_rollouts(spec: str) -> None:
    """In the tricks nothing is left to chance: a rollout of a world is the heuristic's
    play of the hand out, and the kernel's gives the Python rollout's money exactly."""
    from bourre.game.worlds import sample_world
    from bourre.kernel.rollouts import heuristic_rollouts
    from bourre_bots.montecarlo import MonteCarloPlayer

    compared = 0
    for seed in range(3):
        for house, view, _ in _play_views(spec, seed):
            mc = MonteCarloPlayer(1, house=house, engine="python")
            rng = random.Random(compared)
            world = sample_world(house, view, rng)
            if world is None:
                continue
            cards = [CARDS[c] for c in view.legal]
            python = [mc._rollout(world, a, view.seat) for a in cards]
            assert heuristic_rollouts(world, cards, view.seat, rng) == python
            compared += 1
    assert compared > 10


@pytest.mark.parametrize("spec", ["standard+table(hands=2)",
                                  "simultaneous-reveal+double-ante+table(players=3,hands=2)",
                                  "four-card+pot-limit(limit=2)+table(players=7,hands=2)"])  # fmt: skip
def test_the_monte_carlo_bot_plays_legally_on_kernel_rollouts(spec: str) -> None:
    """Its decisions on kernel rollouts are legal (play_out refuses any other) and
    mostly those of its Python rollouts (they differ only in the unseen cards drawn)."""
    from bourre.game.players import make_bot, play_out
    from bourre_bots.montecarlo import MonteCarloPlayer

    house = House(spec)
    n = house.table.players
    answers: dict[str, list[Any]] = {}
    for engine in ("kernel", "python"):
        mc = MonteCarloPlayer(random.Random(7), house=house, engine=engine)
        got: list[Any] = []

        class Spy:
            def __init__(self, mc: MonteCarloPlayer, got: list[Any]) -> None:
                self.mc, self.got = mc, got

            def act(self, view: Any) -> Any:
                a = self.mc.act(view)
                self.got.append((view.hand, view.phase, a))
                return a

        others = [make_bot("heuristic", random.Random(s), house=house) for s in range(1, n)]
        play_out(Game(house, engine="python").new_session("mc"), [Spy(mc, got), *others])
        answers[engine] = got
        assert mc.kernel == (engine == "kernel")
    k, p = answers["kernel"], answers["python"]
    same = sum(a == b for a, b in zip(k, p, strict=False))
    assert same >= len(p) // 2, (same, len(p))


def test_a_temporary_clone_refuses_in_words() -> None:
    """``state.clone().apply_action(a)`` on a clone nobody keeps (PettingZoo's way of
    asking for a refusal's words): the kernel still reaches the Python rules."""
    state = Game("standard").new_session(seed=0)
    with pytest.raises(RuleViolation, match="R-DECIDE"):
        state.clone().apply_action(CARDS[0])
    with pytest.raises(RuleViolation, match="R-DECIDE"):
        state.apply_action(CARDS[0])


@pytest.mark.parametrize(
    "spec",
    ["standard+table(hands=2)", "double-ante+optional-undertrump+table(players=3,hands=2)",
     "simultaneous-reveal+no-cinch+table(players=6,hands=2)", "four-card+table(players=8,hands=2)"],
)  # fmt: skip
def test_kernel_replayed_worlds_are_the_python_worlds(spec: str) -> None:
    """The same samples replayed by the kernel and by the Python rules: refused alike,
    and in the tricks (nothing left to chance) the same rollouts, exactly."""
    from bourre.game.worlds import sample_deal
    from bourre.kernel.rollouts import world_rollouts
    from bourre_bots.montecarlo import MonteCarloPlayer

    both: list[tuple[object, object]] = []
    twice = replayed_both(both)

    compared = refused = 0
    for seed in range(3):
        for house, view, _ in _play_views(spec, seed, ("play", "decide")):
            mc = MonteCarloPlayer(1, house=house, engine="python")
            both.clear()
            sample_deal(house, view, random.Random(seed), decide=mc.policy.decide, replay=twice)
            for py, k in both:
                assert (py is None) == (k is None)
                if py is None:
                    refused += 1
                    continue
                assert isinstance(py, State) and not isinstance(k, State)
                if view.phase != "play":
                    continue
                cards = [CARDS[c] for c in view.legal]
                assert world_rollouts(k, cards, view.seat) == [
                    mc._rollout(py, a, view.seat) for a in cards
                ]
                compared += 1
    assert compared > 10


@pytest.mark.parametrize(
    "spec",
    ["standard+table(hands=2)", "double-ante+optional-undertrump+table(players=3,hands=2)",
     "simultaneous-reveal+no-cinch+table(players=6,hands=2)", "four-card+table(players=8,hands=2)"],
)  # fmt: skip
def test_kernel_sampled_worlds_stand_where_the_view_does(spec: str) -> None:
    """Worlds sampled and replayed on the kernel (the Monte Carlo bot's): what the
    seat observes in each is what it observed at the table, and every hand is whole."""
    from bourre.game.worlds import sample_world
    from bourre.kernel.rollouts import sample_worlds
    from bourre_bots.heuristic import fold_weight, keep_weight

    worlds = 0
    for seed in range(2):
        for house, view, _ in _play_views(spec, seed, ("play", "decide", "exchange")):
            rng = random.Random(seed)
            keep, fold = keep_weight(view.trump), fold_weight(view.trump)
            got = sample_worlds(house, view, 4, rng, keep=keep, fold=fold)
            assert got is not None
            if sample_world(house, view, random.Random(1), keep=keep, fold=fold) is not None:
                assert got, "the kernel found no world where the Python rules find one"
            for w in got:
                (_, dealer, up, hand, own, decisions, active, tricks, trick, won, _,
                 _, stock, phase, _, chosen, gave, got_, played, _) = w.observe(view.seat)  # fmt: skip
                assert (dealer, up, hand, tuple(own)) == (
                    view.dealer,
                    view.upcard,
                    view.hand,
                    view.own_discards,
                )
                assert [tuple(d) for d in decisions] == [tuple(d) for d in view.decisions]
                assert [tuple(t[1]) for t in tricks] == [t.plays for t in view.tricks]
                assert [tuple(p) for p in trick] == list(view.trick) and tuple(
                    won
                ) == view.tricks_won
                assert (chosen, tuple(gave), got_, played) == (
                    view.my_decision,
                    view.gave,
                    view.got,
                    view.played,
                )
                assert w.current_player() == view.to_act
                assert ("decide", "exchange", "play")[phase - 1] == view.phase
                if view.phase != "decide" or "simultaneous" not in spec:
                    assert tuple(active) == view.active
                held = sum(len(w.hand(s)) for s in range(view.players))
                assert (
                    held
                    + stock
                    + bin(played).count("1")
                    + sum(5 if "four" not in spec else 4 for d in decisions if not d[1])
                    <= 52
                )
                worlds += 1
    assert worlds > 20
