"""The Monte Carlo bot's worlds of a house whose plugin answers the decisions (R-DECIDE …)
or the draw (R-DRAW, R-RESHUFFLE), on the compiled kernel (issue 41, "the solver,
advise, chart and --review use the same path"): a world of the Python rules
(``sample_world``, which honours the plugin's rules) in the tricks of its one hand is
loaded into the kernel and rolled out there (``heuristic_rollouts``): no card of the
tricks asks the decisions or the draw, so the kernel is told the house without them
(``rollouts.TRICKS_HOOKS``).  Each candidate's money is the Python rollout's
(``MonteCarloPlayer._rollout``) exactly, with a money plugin beside too.  A world still
in the decisions or the exchange is loaded with the hand's run (the equilibrium chart's
decision table too), and the kernel's own
sampling and replay, which step the decisions in C++, refuse such a house.  Skipped
when the extension is not built."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator

import pytest
from conftest import plugin

from bourre import kernel
from bourre.game.actions import PASS, PLAY, Action, discard
from bourre.game.players import ask
from bourre.game.state import State
from bourre.game.unseen import unplaced
from bourre.game.worlds import sample_world, shuffle
from bourre.game.xoshiro import Xoshiro128
from bourre.houses.house import House
from bourre.kernel import rollouts
from bourre.kernel.rollouts import heuristic_outcomes, heuristic_rollouts, sample_worlds
from bourre.rules import RuleViolation
from bourre.rules.hand import HandState
from bourre.rules.plugins import load_registry
from bourre_bots.heuristic import fold_weight, keep_weight
from bourre_bots.montecarlo import MonteCarloPlayer
from bourre_variants.standard.decisions import Sequential
from tests.kernel.test_plugin_decisions import VARIANTS, _decisions
from tests.kernel.test_plugin_hooks import split_pot
from tests.kernel.test_worlds_plugin_follow import _candidates, _views

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
    for i, (state, seat) in enumerate(_views(h, range(3))):
        view = state.observation(seat)
        rng = random.Random(i)
        world = sample_world(
            h, view, rng, keep=keep_weight(view.trump), fold=fold_weight(view.trump)
        )
        if world is None:
            continue
        cards = _candidates(world, seat)
        mc = MonteCarloPlayer(1, house=h, engine="python")
        python = [mc._rollout(world, a, seat) for a in cards]
        got = heuristic_rollouts(world, cards, seat, rng)
        assert got is not None, (spec, i)  # (the kernel's rollouts, not handed over)
        assert got == python, (spec, i)
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
    """Worlds sampled on the Python rules at a decision or an exchange with a choice:
    (the world, the seat to act, the random stream the rollouts draw from)."""
    for phase in ("decide", "exchange"):
        for i, (state, seat) in enumerate(_views(h, seeds, phase)):
            view = state.observation(seat)
            rng = random.Random(i)
            world = sample_world(
                h, view, rng, keep=keep_weight(view.trump), fold=fold_weight(view.trump)
            )
            if world is not None:
                yield world, seat, rng


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


def test_the_kernels_own_worlds_leave_such_a_house() -> None:
    """The kernel's sampling and replay (which step the decisions in C++) still refuse a
    house whose decisions or draw is a plugin's (advice's batches play it:
    tests/advice/test_plugin_decisions_rows.py)."""
    h = house("standard+three-max+table(players=4)")
    seen = 0
    for phase in ("decide", "exchange"):
        for i, (state, seat) in enumerate(_views(h, range(2), phase)):
            view = state.observation(seat)
            keep, fold = keep_weight(view.trump), fold_weight(view.trump)
            assert sample_worlds(h, view, 2, random.Random(i), keep=keep, fold=fold) is None
            seen += 1
    assert seen > 2


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
