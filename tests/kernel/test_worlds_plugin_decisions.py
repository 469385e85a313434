"""The Monte Carlo bot's worlds of a house whose plugin answers the decisions (R-DECIDE …)
or the draw (R-DRAW, R-RESHUFFLE), on the compiled kernel (issue 41, "the solver,
advise, chart and --review use the same path"): a world of the Python rules
(``sample_world``, which honours the plugin's rules) in the tricks of its one hand is
loaded into the kernel and rolled out there (``heuristic_rollouts``): no card of the
tricks asks the decisions or the draw, so the kernel is told the house without them
(``rollouts.TRICKS_HOOKS``).  Each candidate's money is the Python rollout's
(``MonteCarloPlayer._rollout``) exactly, with a money plugin beside too; a world at a
decision or an exchange is loaded with the hand's run, its rollouts the Python ones
with the kernel's draws made known (the equilibrium chart's decision table's too).  The kernel's own sampling and replay
(``sample_worlds``, ``replay_world``) replay each sample through a hand run made in
Python: the same worlds as the Python replay of the same sample, refused where it
refuses, hostile plugins the Python rules' outcome or error; the Monte Carlo bot
samples such a house on the kernel.  Skipped when the extension is not built."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import pytest
from conftest import plugin

from bourre import kernel
from bourre.game import Game
from bourre.game.actions import PASS, PLAY, Action, discard
from bourre.game.players import ask
from bourre.game.state import State
from bourre.game.unseen import unplaced
from bourre.game.worlds import _replay, sample_deal, shuffle
from bourre.game.xoshiro import Xoshiro128
from bourre.houses.house import House
from bourre.kernel import rollouts
from bourre.kernel.rollouts import (
    heuristic_outcomes,
    heuristic_rollouts,
    replay_world,
    sample_worlds,
    world_rollouts,
)
from bourre.rules import RuleViolation
from bourre.rules.hand import HandState
from bourre.rules.plugins import load_registry
from bourre.rules.variant import Variant
from bourre_bots import montecarlo
from bourre_bots.heuristic import fold_weight, keep_weight
from bourre_bots.montecarlo import MonteCarloPlayer
from bourre_variants.standard.decisions import Sequential
from bourre_variants.standard.draw import Draw
from tests.hookkit import replayed_both
from tests.kernel.test_plugin_decisions import HOSTILE as HOSTILE_SESSIONS
from tests.kernel.test_plugin_decisions import REFUSING as STAYING
from tests.kernel.test_plugin_decisions import VARIANTS, _decisions, _draw
from tests.kernel.test_plugin_hooks import split_pot
from tests.kernel.test_worlds_plugin_follow import _candidates, _views, sampled_worlds

pytestmark = pytest.mark.skipif(
    not rollouts._OUTCOMES, reason="the compiled kernel is not built (or older than its worlds)"
)

REGISTRY = load_registry(
    extra=[("split-pot", split_pot()), *[(c.name, plugin(c.name, c)) for c in VARIANTS]]
)


def house(spec: str) -> House:
    return House(spec, registry=REGISTRY)


@pytest.mark.parametrize(
    "spec",
    [
        "standard+their-reveal+table(players=4)",
        "standard+three-max+table(players=5)",
        "dealer-capped+split-pot+table(players=6)",
    ],
)
def test_a_worlds_rollouts_in_the_tricks_are_the_python_rollouts(spec: str) -> None:
    h = house(spec)
    assert kernel.can_play(h, hooks=rollouts.LOAD_HOOKS) is not None
    assert kernel.can_play(h, hooks=rollouts.TRICKS_HOOKS) is None
    compared = 0
    for world, seat, rng in sampled_worlds(h, range(3)):
        cards = _candidates(world, seat)
        mc = MonteCarloPlayer(1, house=h, engine="python")
        python = [mc._rollout(world, a, seat) for a in cards]
        got = heuristic_rollouts(world, cards, seat, rng)
        assert got is not None, (spec, seat)  # (the kernel's rollouts, not handed over)
        assert got == python, (spec, seat)
        outcomes = heuristic_outcomes(world, cards, seat, rng)
        assert outcomes is not None and [o.chips for o in outcomes] == python
        compared += 1
    assert compared > 5


def _known(world: State, rng: random.Random) -> Callable[[], State]:
    """Copies of ``world`` whose unseen cards lie in the stock in the order the kernel's
    rollouts draw them (:func:`rollouts._world`'s shuffle on a copy of ``rng``), nothing
    left unseen, reshuffled on the same stream (R-DRAW, R-RESHUFFLE): the Python
    rollout of such a copy draws, card for card, what the kernel's does (a sampled
    world's own rollouts draw the same cards in law, not draw for draw)."""
    r = random.Random()
    r.setstate(rng.getstate())
    stock = unplaced(world.hand) + list(world.hand.stock)
    shuffle(stock, r)
    words = [r.getrandbits(32) for _ in range(4)]
    if not any(words):
        words[3] = 1

    def make() -> State:
        w = world.clone()
        hs = w.hand
        hs.stock, hs.unseen_stock = list(stock), 0
        gen = Xoshiro128(*words)

        def reshuffle(pile: list[int]) -> list[int]:
            new: list[object] = list(pile)
            gen.shuffle(new)
            return new  # type: ignore[return-value]

        hs.reshuffle = reshuffle
        return w

    return make


def _chart_rollout(
    mc: MonteCarloPlayer, world: State, action: Action, me: int, chart: list[list[int]]
) -> float:
    """``MonteCarloPlayer._rollout`` with the seats still to decide deciding by the
    equilibrium chart's table (``chart[seat][seats already in]``: 1 pass, 2 play, 0 the
    heuristic; the seats in counted from the public decisions, R-DECIDE; a seat the
    rules force plays as the heuristic): the Python twin of ``heuristic_outcomes``
    with ``chart``."""
    state = world.clone()
    state.apply_action(action)
    while not state.is_terminal():
        p = state.current_player()
        if state.phase_name == "decide":
            view = state.observation(p)
            told = chart[p][sum(1 for d in view.decisions if d.play)]
            if view.forced is None and told:
                state.apply_action(PLAY if told == 2 else PASS)
                continue
        state.apply_action(ask(state, mc.policy))
    return float(state.returns()[me])


def _decision_worlds(h: House, seeds: range) -> Iterator[tuple[State, int, random.Random]]:
    """Worlds sampled on the Python rules at a decision or an exchange with a choice."""
    return sampled_worlds(h, seeds, ("decide", "exchange"))


@pytest.mark.parametrize(
    "spec",
    [
        "standard+their-reveal+table(players=4)",
        "standard+three-max+table(players=5)",
        "dealer-capped+split-pot+table(players=6)",
        "standard+three-max+table(players=8)",
    ],
)
def test_a_worlds_rollouts_at_a_decision_are_the_python_rollouts(spec: str) -> None:
    """R-DECIDE, R-DRAW, R-RESHUFFLE: a world at a decision or an exchange rolls out on
    the kernel with the hand's run (the house's components asked every decision and
    exchange of the rollouts, the heuristic within the plugin's limit); each
    candidate's money is the Python rollout's exactly (``MonteCarloPlayer._rollout`` of
    the world with the kernel's draws), and so are ``heuristic_outcomes``' chips, with
    the equilibrium chart's decision table too (the table chooses the play or the pass
    of the seats still to decide, the plugin judges it: :func:`_chart_rollout`)."""
    h = house(spec)
    assert kernel.can_play(h, hooks=rollouts.LOAD_HOOKS) is not None
    phases: set[str] = set()
    exchanges = moved = 0
    for world, seat, rng in _decision_worlds(h, range(3)):
        cards = world.legal_actions()[:8]
        make = _known(world, rng)
        mc = MonteCarloPlayer(1, house=h, engine="python")
        python = [mc._rollout(make(), a, seat) for a in cards]
        state = random.Random()
        state.setstate(rng.getstate())
        got = heuristic_rollouts(world, cards, seat, rng)
        assert got is not None, (spec, world.phase_name)  # (the kernel's, not handed over)
        assert got == python, (spec, world.phase_name)
        rng.setstate(state.getstate())
        outcomes = heuristic_outcomes(world, cards, seat, rng)
        assert outcomes is not None and [o.chips for o in outcomes] == python
        n = h.table.players
        tables = [[0] * n] * n, [[(s + k) % 3 for k in range(n)] for s in range(n)], [[1] * n] * n
        for chart in tables:
            rng.setstate(state.getstate())
            charted = heuristic_outcomes(world, cards, seat, rng, chart=chart)
            twin = [_chart_rollout(mc, make(), a, seat, chart) for a in cards]
            assert charted is not None and [o.chips for o in charted] == twin, (spec, chart)
            moved += twin != python  # (the table changed some hand: it was read)
        phases.add(world.phase_name)
        exchanges += world.phase_name == "exchange"
    assert phases == {"decide", "exchange"} and exchanges > 2 and moved > 0


def test_a_world_at_a_decision_is_refused_as_the_python_rules_refuse() -> None:
    """A discard beyond the plugin's limit (R-DRAW) among the candidates: the Python
    rules' refusal in their words, not the kernel's."""
    h = house("standard+three-max+table(players=4)")
    refused = 0
    for world, seat, rng in _decision_worlds(h, range(2)):
        if world.phase_name != "exchange" or len(world.hand.hands[seat]) < 4:
            continue
        four = discard(world.hand.hands[seat][:4])
        why = world.why_not(four)
        assert why is not None and why.rule == "R-DRAW"
        with pytest.raises(RuleViolation) as e:
            heuristic_rollouts(world, [*world.legal_actions()[:2], four], seat, rng)
        assert str(e.value) == str(why)
        refused += 1
    assert refused > 0


# -- the kernel's own worlds: sampled and replayed through the hand's run ------------------

SAMPLED = [
    "standard+their-reveal+table(players=4)",
    "standard+three-max+table(players=5)",
    "dealer-capped+split-pot+table(players=6)",
    "standard+ace-may-pass",
    "three-max+table(players=8)",
]


def _python_copy(py: State, k: Any) -> Callable[[], State]:
    """Copies of the Python world ``py`` whose unseen cards lie in the stock in the order
    of the kernel's world ``k`` at a decision point (its run's stock), reshuffled on the
    same stream: the Python rollout of such a copy draws what the kernel's does."""
    run = k.run()
    stock, gen = list(run.hand.stock), run._gen

    def make() -> State:
        w = py.clone()
        hs = w.hand
        hs.stock, hs.unseen_stock = list(stock), 0
        mine = gen.copy()

        def reshuffle(pile: list[int]) -> list[int]:
            new: list[object] = list(pile)
            mine.shuffle(new)
            return new  # type: ignore[return-value]

        hs.reshuffle = reshuffle
        return w

    return make


def _same_hand(py: State, k: Any) -> None:
    """The kernel's world at a decision point stands where the Python replay's does: its
    run's hand state is the Python world's, card for card, the unseen cards its stock."""
    a, b = py.hand, k.run().hand
    for field in ("hands", "folded", "pile", "discards", "gave", "got", "chosen", "active"):
        assert getattr(a, field) == getattr(b, field), field
    assert (a.step, a.exchanging, a.decisions, a.pot) == (b.step, b.exchanging, b.decisions, b.pot)
    assert sorted(b.stock) == sorted(unplaced(a) + list(a.stock)) and b.unseen_stock == 0


@pytest.mark.parametrize("spec", SAMPLED)
def test_kernel_replayed_worlds_are_the_python_worlds(spec: str) -> None:
    """R-DECIDE, R-DRAW: the same samples replayed by the kernel through the hand's run
    (the plugin judges every public decision and exchange, the others' replacements as
    the sample tells them, the secret decisions the heuristic's) and by the Python rules
    (``worlds._replay``): refused alike; at a decision or an exchange the same hand
    state, and each candidate's money the Python rollout's exactly (with the kernel's
    stock); in the tricks the same rollouts exactly; and the kernel samples such a
    house's worlds itself (``sample_worlds``)."""
    h = house(spec)
    assert kernel.can_play(h, hooks=rollouts.WORLD_HOOKS) is None
    both: list[tuple[object, object]] = []
    twice = replayed_both(both)
    compared: dict[str, int] = {}
    refused = own = 0
    for phase in ("decide", "exchange", "play"):
        for i, (state, seat) in enumerate(_views(h, range(3), phase)):
            view = state.observation(seat)
            mc = MonteCarloPlayer(1, house=h, engine="python")
            both.clear()
            sample_deal(h, view, random.Random(i), decide=mc.policy.decide, replay=twice)
            for py, k in both:
                assert (py is None) == (k is None), (spec, phase, i)
                if py is None:
                    refused += 1
                    continue
                assert isinstance(py, State) and not isinstance(k, State), (spec, phase)
                cards = world_cards(py, seat)
                if phase == "play":
                    python = [mc._rollout(py, a, seat) for a in cards]
                else:
                    _same_hand(py, k)
                    make = _python_copy(py, k)
                    python = [mc._rollout(make(), a, seat) for a in cards]
                assert world_rollouts(k, cards, seat) == python, (spec, phase, i)
                compared[phase] = compared.get(phase, 0) + 1
            keep, fold = keep_weight(view.trump), fold_weight(view.trump)
            got = sample_worlds(h, view, 2, random.Random(i), keep=keep, fold=fold)
            assert got is not None, (spec, phase)  # (the kernel's own worlds)
            own += len(got)
            for w in got:
                assert world_rollouts(w, list(view.legal_actions)[:8], seat) is not None
    assert set(compared) == {"decide", "exchange", "play"} and min(compared.values()) > 2
    assert own > 10
    assert refused > 0 or "dealer-capped" not in spec


def world_cards(world: State, seat: int) -> list[Action]:
    """The candidates of a world's seat to act: its legal actions (at most eight)."""
    return list(world.legal_actions())[:8]


class NoTrumpThrown(Draw):
    """A draw that refuses a trump among the discards (R-DRAW): the samples that give an
    opponent a trump it threw are refused by the plugin, on both engines."""

    def check(self, hand: HandState, seat: int, discards: Sequence[int]) -> None:
        super().check(hand, seat, discards)
        if any(c // 13 == hand.trump for c in discards):
            raise RuleViolation("R-DRAW", f"seat {seat} may not throw a trump")


REFUSING = load_registry(
    extra=[("keeps-trumps", plugin("keeps-trumps", _draw("keeps-trumps", NoTrumpThrown)))]
)


def test_a_sample_the_plugin_refuses_is_refused_where_the_python_rules_refuse() -> None:
    """R-DRAW: an exchange of the public history the plugin's draw refuses in a sample
    (a trump thrown) refuses that sample on the kernel exactly where the Python replay
    refuses it; the others are the same worlds."""
    h = House("standard+keeps-trumps+table(players=5)", registry=REFUSING)
    both: list[tuple[object, object]] = []
    twice = replayed_both(both)
    refused = kept = 0
    for phase in ("decide", "play"):
        for i, (state, seat) in enumerate(_views(h, range(4), phase)):
            view = state.observation(seat)
            if not any(d.exchanged for d in view.decisions if d.seat != seat):
                continue
            both.clear()
            sample_deal(h, view, random.Random(i), replay=twice, tries=20)
            for py, k in both:
                assert (py is None) == (k is None)
                if py is None:
                    refused += 1
                else:
                    assert not isinstance(k, State)
                    kept += 1
    assert refused > 3 and kept > 3


@pytest.mark.parametrize(
    "spec",
    ["standard+ace-may-pass+three-max+table(players=5)", "their-reveal+one-max+table(players=4)"],
)
def test_the_monte_carlo_bot_samples_such_a_house_on_the_kernel(
    spec: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The Monte Carlo bot at every seat of a house whose decisions and draw are plugins':
    its worlds sampled and replayed by the kernel (a spy on ``sample_worlds`` sees them,
    at decisions and in the tricks), every answer legal (the Python state refuses any
    other), the money at the table whole after each hand."""
    h = house(spec)
    sampled: dict[str, int] = {}

    def spy(house: House, view: Any, *args: Any, **kw: Any) -> Any:
        got = sample_worlds(house, view, *args, **kw)
        assert got is not None, view.phase  # (never handed to the Python rules here)
        sampled[view.phase] = sampled.get(view.phase, 0) + 1
        return got

    monkeypatch.setattr(montecarlo, "sample_worlds", spy)
    n = h.table.players
    state = Game(h, engine="python").new_session(7)
    assert type(state) is State
    total = sum(state.balances) + state.pot
    bots = [MonteCarloPlayer(s, house=h, budget=8) for s in range(n)]
    while not state.is_terminal() and state.hand.number <= 2:
        state.apply_action(ask(state, bots[state.current_player()]))
        assert sum(state.balances) + state.pot == total
    assert sampled.get("decide", 0) > 0 and sampled.get("play", 0) > 5, sampled


def test_compare_with_the_monte_carlo_bot_samples_on_the_kernel(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``bourre compare``'s session with the Monte Carlo bot on a house whose decisions and
    draw are plugins': its worlds sampled on the kernel (the spy sees no view handed to
    the Python rules), the same session chip for chip whether the table is the kernel's
    stepped state (:mod:`bourre.kernel.mixed`) or the Python state."""
    from bourre.sim.runs.sessions import parse_bots, run_session

    h = house("standard+ace-may-pass+three-max+table(players=4)")
    sampled = [0]

    def spy(*args: Any, **kw: Any) -> Any:
        got = sample_worlds(*args, **kw)
        assert got is not None
        sampled[0] += 1
        return got

    monkeypatch.setattr(montecarlo, "sample_worlds", spy)
    bots = parse_bots("montecarlo,heuristic,random,heuristic")
    for i in range(2):
        k = run_session(h, bots, "mc-worlds", i, rotate=True, engine="kernel")
        p = run_session(h, bots, "mc-worlds", i, rotate=True, engine="python")
        assert (k.pop("engine"), p.pop("engine")) == ("kernel", "python")
        del k["seconds"], p["seconds"]
        assert k == p, i  # (the Python state checks every answer and the money each hand)
    assert sampled[0] > 20


def test_a_candidate_the_plugin_refuses_in_the_kernels_worlds_is_the_python_rules() -> None:
    """R-DECIDE: a dealer whose pass the plugin's ``decide`` refuses though its turn
    allows it: the kernel's worlds refuse the pass (``world_rollouts`` ``None``: the
    Python rules' then, not the kernel's error), and the Monte Carlo bot answers as on
    the Python rules."""
    h = House("dealer-stays+table(players=4)", registry=STAYING)
    seen = 0
    for i in range(4):
        state = Game(h, engine="python").new_session(i)
        bot = MonteCarloPlayer(i, house=h, engine="python").policy
        while state.phase_name != "decide" or state.current_player() != state.hand.dealer:
            state.apply_action(ask(state, bot))
        seat = state.current_player()
        view = state.observation(seat)
        keep, fold = keep_weight(view.trump), fold_weight(view.trump)
        worlds = sample_worlds(h, view, 2, random.Random(i), keep=keep, fold=fold)
        assert worlds, i
        assert all(world_rollouts(w, [PLAY, PASS], seat) is None for w in worlds)
        got = [
            _outcome(MonteCarloPlayer(i, house=h, engine=e).act, view) for e in ("auto", "python")
        ]
        assert got[0] == got[1], got
        seen += 1
    assert seen > 0


# -- a hostile plugin: the Python rules' outcome or error ---------------------------------


def _replayed(replay: Callable[..., object], *args: object) -> tuple[object, ...]:
    try:
        got = replay(*args)
    except Exception as e:
        return (type(e).__name__, str(e))
    return ("refused",) if got is None else ("world",)


@pytest.mark.parametrize("name,variant", HOSTILE_SESSIONS, ids=[n for n, _ in HOSTILE_SESSIONS])
def test_a_misbehaving_plugin_in_the_replay_is_the_python_rules(
    name: str, variant: type[Variant], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The eleven hostile plugins of the sessions (they misbehave in a hand numbered 2:
    every world's hand is, here): each sample replayed by the kernel is the Python
    replay's outcome (a world, refused, or the plugin's error word for word), the kernel
    handing to the Python rules what it does not hold; its own sampling gives worlds
    or hands the view to the Python rules."""
    reg = load_registry(extra=[(name, plugin(name, variant))])
    h = House(f"standard+{name}+table(players={8 if name == 'crowds' else 4})", registry=reg)
    views = [
        (s.observation(seat), seat)
        for ph in ("decide", "play")
        for s, seat in _views(h, range(2), ph)
    ]
    assert views
    init = HandState.__init__

    def second(self: HandState, **kw: Any) -> None:
        init(self, **kw)
        self.number = 2

    monkeypatch.setattr(HandState, "__init__", second)
    outcomes: set[object] = set()
    pairs: list[tuple[object, object]] = []

    def twice(*args: Any) -> object:
        hh, v, dealt, gave, got, _, decide = args
        py = _replayed(_replay, hh, v, dealt, gave, got, random.Random(0), decide)
        k = _replayed(replay_world, hh, v, dealt, gave, got, random.Random(0), decide)
        pairs.append((py, k))
        return None

    for i, (view, _) in enumerate(views[:6]):
        pairs.clear()
        sample_deal(h, view, random.Random(i), replay=twice, tries=3)
        for py, k in pairs:
            assert py == k, (name, i)
            outcomes.add(py[0])
        keep, fold = keep_weight(view.trump), fold_weight(view.trump)
        try:
            sample_worlds(h, view, 2, random.Random(i), keep=keep, fold=fold)
        except Exception as e:  # (only an error the Python rules raise too)
            assert any(py == (type(e).__name__, str(e)) for py, _ in pairs), (name, e)
    assert outcomes


ARMED = [False]
"""The hostile plugins below misbehave only while armed (the worlds are sampled first)."""


class RaisesLate(Sequential):
    """A plugin's own bug at the third decision."""

    def decide(self, hand: HandState, seat: int, play: bool) -> None:
        if ARMED[0] and len(hand.decisions) >= 2:
            raise KeyError("the plugin's own bug")
        super().decide(hand, seat, play)


class FloatsLate(Sequential):
    """A hand of 5.0s (the same cards to a set, not to a mask) after a play."""

    def decide(self, hand: HandState, seat: int, play: bool) -> None:
        super().decide(hand, seat, play)
        if ARMED[0] and play:
            hand.hands[seat] = [float(c) for c in hand.hands[seat]]  # type: ignore[misc]


HOSTILE = load_registry(
    extra=[
        (c.name, plugin(c.name, c))
        for c in (_decisions("raises-late", RaisesLate), _decisions("floats-late", FloatsLate))
    ]
)


def _outcome(play: Callable[..., object], *args: object) -> tuple[object, ...]:
    try:
        return ("played", play(*args))
    except Exception as e:
        return (type(e).__name__, str(e))


def _python_rollouts(
    mc: MonteCarloPlayer, make: Callable[[], State], cards: list[Action], seat: int
) -> list[float]:
    return [mc._rollout(make(), a, seat) for a in cards]


@pytest.mark.parametrize("name", ["raises-late", "floats-late"])
def test_a_misbehaving_plugin_mid_rollout_is_the_python_rules(name: str) -> None:
    """A plugin that raises mid-rollout: the Python rollout's error, word for word; one
    that answers what the kernel does not hold: ``None`` (the Python rules roll out)."""
    h = House(f"standard+{name}+table(players=5)", registry=HOSTILE)
    compared = 0
    for world, seat, rng in _decision_worlds(h, range(3)):
        if world.phase_name != "decide" or len(world.hand.decisions) >= 2:
            continue
        cards = world.legal_actions()
        make = _known(world, rng)
        mc = MonteCarloPlayer(1, house=h, engine="python")
        ARMED[0] = True
        try:
            python = _outcome(_python_rollouts, mc, make, cards, seat)
            got = _outcome(heuristic_rollouts, world, cards, seat, rng)
        finally:
            ARMED[0] = False
        if name == "raises-late":
            assert python[0] != "played" and got == python
        else:
            assert got == ("played", None)
        compared += 1
    assert compared > 1
