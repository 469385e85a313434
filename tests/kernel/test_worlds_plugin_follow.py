"""The Monte Carlo bot's worlds of a house whose plugin answers the follow rule (R-FOLLOW,
R-TRUMP, R-DISCARD) on the compiled kernel (issue 41, "the solver, advise, chart and
--review use the same path"): a world of the Python rules (``sample_world``) is loaded
into the kernel and rolled out there (``heuristic_rollouts``), the kernel asking the
plugin's checked follow rule through Python for every card (``rollouts.LOAD_HOOKS``).

The differential: each candidate's money is the Python rollout's
(``MonteCarloPlayer._rollout``) exactly, for the plugin suit-only (follow suit, no
obligation to trump or to beat), a plugin that is the standard obligations (asked: its
calls counted) and suit-only with split-pot's payout (R-SPLIT-POT), 3 to 5 players.  A
follow rule whose cards come out of the hand's order (``hookkit.Backwards``) is not the
kernel's to hold: ``heuristic_rollouts`` says ``None`` (the Python rules roll the world
out), whether the answer comes at the card to play or later in a rollout, and the bot
plays on.  The kernel's own sampling and replay (``sample_worlds``, ``replay_world``,
``rollouts.WORLD_HOOKS``) ask the plugin for every card of the public history: the same
samples are refused alike and the worlds roll out alike on both; an answer out of the
hand's order there hands the sampling to the Python rules.  Skipped when the extension
is not built."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
from conftest import plugin
from hookkit import replayed_both

from bourre import kernel
from bourre.game import Game
from bourre.game.actions import CARDS, PASS, PLAY, Action
from bourre.game.players import ask, make_bot
from bourre.game.state import State
from bourre.game.worlds import sample_deal, sample_world
from bourre.houses.house import House
from bourre.kernel import rollouts
from bourre.kernel.rollouts import heuristic_outcomes, heuristic_rollouts, sample_worlds
from bourre.rules.plugins import load_registry
from bourre_bots.heuristic import fold_weight, keep_weight
from bourre_bots.montecarlo import MonteCarloPlayer
from tests.hookkit import FOLLOW_CALLS, Backwards, SameFollow
from tests.kernel.test_plugin_hooks import SuitOnly, split_pot

pytestmark = pytest.mark.skipif(
    not rollouts._OUTCOMES, reason="the compiled kernel is not built (or older than its worlds)"
)

REGISTRY = load_registry(
    extra=[
        ("split-pot", split_pot()),
        *[(c.name, plugin(c.name, c)) for c in (SuitOnly, SameFollow, Backwards)],
    ]
)


def house(spec: str) -> House:
    return House(spec, registry=REGISTRY)


def _views(h: House, seeds: range, phase: str = "play") -> list[tuple[State, int]]:
    """Positions of first hands on the Python rules (heuristic bots at every seat) where
    the seat to act has a choice in ``phase``: (the true state, its seat)."""
    n = h.table.players
    out: list[tuple[State, int]] = []
    for seed in seeds:
        state = Game(h, engine="python").new_session(seed)
        assert type(state) is State
        bots = [make_bot("heuristic", random.Random(s), house=h) for s in range(n)]
        while not state.is_terminal() and state.hand.number == 1:
            seat = state.current_player()
            if state.phase_name == phase and len(state.legal_actions()) > 1:
                out.append((state.clone(), seat))
            state.apply_action(ask(state, bots[seat]))
    return out


def sampled_worlds(
    h: House, seeds: range, phases: tuple[str, ...] = ("play",)
) -> Iterator[tuple[State, int, random.Random]]:
    """Worlds sampled on the Python rules (the Monte Carlo bot's weights) at the
    positions of :func:`_views` in each of ``phases``: (the world, the seat to act, the
    random stream the sampling and the rollouts draw from)."""
    for phase in phases:
        for i, (state, seat) in enumerate(_views(h, seeds, phase)):
            view = state.observation(seat)
            rng = random.Random(i)
            world = sample_world(
                h, view, rng, keep=keep_weight(view.trump), fold=fold_weight(view.trump)
            )
            if world is not None:
                yield world, seat, rng


def replayed_rollouts(h: House) -> tuple[int, int]:
    """The samples of three deals' views replayed by the kernel (WORLD_HOOKS) and by the
    Python rules: refused alike, and in the tricks the same rollouts exactly; the kernel
    samples worlds of its own.  How many samples were compared and refused."""
    from bourre.game.worlds import sample_deal
    from bourre.kernel.rollouts import world_rollouts

    assert kernel.can_play(h, hooks=rollouts.WORLD_HOOKS) is None
    both: list[tuple[object, object]] = []
    twice = replayed_both(both)
    compared = refused = 0
    for i, (state, seat) in enumerate(_views(h, range(3))):
        view = state.observation(seat)
        mc = MonteCarloPlayer(1, house=h, engine="python")
        both.clear()
        sample_deal(h, view, random.Random(i), decide=mc.policy.decide, replay=twice)
        for py, k in both:
            assert (py is None) == (k is None)
            if py is None:
                refused += 1
                continue
            assert isinstance(py, State) and not isinstance(k, State)
            cards = _candidates(py, seat)
            assert world_rollouts(k, cards, seat) == [mc._rollout(py, a, seat) for a in cards]
            compared += 1
        keep, fold = keep_weight(view.trump), fold_weight(view.trump)
        got = sample_worlds(h, view, 2, random.Random(i), keep=keep, fold=fold)
        assert got is not None  # (the kernel's own worlds)
    return compared, refused


def _candidates(state: State, seat: int) -> list[Action]:
    view = state.observation(seat)
    if view.phase == "decide":
        return [PLAY, PASS]
    return [CARDS[c] for c in view.legal]


@pytest.mark.parametrize(
    "spec",
    [
        "standard+suit-only+table(players=3)",
        "standard+same-follow+table(players=4)",
        "suit-only+split-pot+table(players=5)",
    ],
)
def test_a_worlds_rollouts_are_the_python_rollouts(spec: str) -> None:
    """R-FOLLOW: for a world sampled on the Python rules at a card to play, each
    candidate's money over the hand played out on the kernel (the plugin asked for
    every card) is the Python rollout's exactly; the kernel rolled every one out."""
    h = house(spec)
    assert kernel.can_play(h, hooks=rollouts.LOAD_HOOKS) is None
    compared = 0
    for world, seat, rng in sampled_worlds(h, range(3)):
        cards = _candidates(world, seat)
        mc = MonteCarloPlayer(1, house=h, engine="python")
        python = [mc._rollout(world, a, seat) for a in cards]
        FOLLOW_CALLS[0] = 0
        got = heuristic_rollouts(world, cards, seat, rng)
        assert got is not None, (spec, seat)  # (the kernel's rollouts, not handed over)
        assert got == python, (spec, seat)
        if "same-follow" in spec:
            assert FOLLOW_CALLS[0] > 0  # (asked through Python, not the built-in rule)
        outcomes = heuristic_outcomes(world, cards, seat, rng)
        assert outcomes is not None and [o.chips for o in outcomes] == python
        compared += 1
    assert compared > 5


def test_the_same_obligations_from_a_plugin_roll_out_as_the_built_in_rule() -> None:
    """The standard obligations answered by a plugin: the same sessions (the same seeds,
    the same bots) reach the same positions, whose rollouts on the kernel are the
    built-in house's money exactly, the plugin asked."""
    h, built_in = house("standard+same-follow+table(players=4)"), house("standard+table(players=4)")
    mine, theirs = _views(h, range(2)), _views(built_in, range(2))
    assert len(mine) == len(theirs) > 3
    compared = 0
    for i, ((state, seat), (other, same_seat)) in enumerate(zip(mine, theirs, strict=True)):
        assert (seat, state.hand.hands) == (same_seat, other.hand.hands)
        world = sample_world(h, state.observation(seat), random.Random(i))
        twin = sample_world(built_in, other.observation(seat), random.Random(i))
        if world is None or twin is None:
            assert world is twin  # (the same draws, refused alike)
            continue
        assert world.hand.hands == twin.hand.hands
        cards = _candidates(world, seat)
        expected = heuristic_rollouts(twin, cards, seat, random.Random(i))
        FOLLOW_CALLS[0] = 0
        assert heuristic_rollouts(world, cards, seat, random.Random(i)) == expected
        assert expected is not None and FOLLOW_CALLS[0] > 0
        compared += 1
    assert compared > 3


@pytest.mark.parametrize("phase", ["play", "decide"])
def test_a_follow_rule_out_of_the_hands_order_is_the_python_rules(phase: str) -> None:
    """R-FOLLOW: the standard obligations given highest card first (a random bot would
    choose among them in that order, which the kernel does not keep).  At the card to
    play (``load_world`` refuses it) or later in a rollout (the hand stops there, never
    played on with a wrong legal set): ``heuristic_rollouts`` and ``heuristic_outcomes``
    say ``None``, the Python rules' rollouts; the Monte Carlo bot plays on."""
    h = house("standard+backwards+table(players=3)")
    assert kernel.can_play(h, hooks=rollouts.LOAD_HOOKS) is None
    handed = 0
    for i, (state, seat) in enumerate(_views(h, range(3), phase)):
        view = state.observation(seat)
        world = sample_world(h, view, random.Random(i))
        if world is None:
            continue
        cards = _candidates(world, seat)
        assert heuristic_rollouts(world, cards, seat, random.Random(i)) is None
        assert heuristic_outcomes(world, cards, seat, random.Random(i)) is None
        handed += 1
        if i < 4:
            mc = MonteCarloPlayer(1, house=h, engine="python")
            assert len([mc._rollout(world, a, seat) for a in cards]) == len(cards)
            bot = MonteCarloPlayer(i, house=h, budget=8)
            assert bot.act(view) in view.legal_actions
    assert handed > 3


@pytest.mark.parametrize(
    "spec",
    [
        "standard+suit-only+table(players=3)",
        "standard+same-follow+table(players=4)",
        "suit-only+split-pot+table(players=5)",
    ],
)
def test_kernel_replayed_worlds_are_the_python_worlds(spec: str) -> None:
    """The same samples replayed by the kernel (the plugin asked for every card of the
    public history, WORLD_HOOKS) and by the Python rules: refused alike (a sample where
    an opponent held a card the plugin's rule would have made it play), and in the
    tricks the same rollouts, exactly; the kernel samples worlds of its own."""
    h = house(spec)
    compared, refused = replayed_rollouts(h)
    assert compared > 5
    if "suit-only" in spec:
        assert refused > 0  # (the plugin's rule refused samples)


def test_a_follow_rule_out_of_order_in_the_history_is_sampled_by_the_python_rules() -> None:
    """R-FOLLOW: a card of the public history whose legal set the plugin gives out of
    the hand's order: the kernel's replay hands the sample to the Python replay (a
    Python world), its sampling to the Python rules (``None``)."""
    from bourre.kernel.rollouts import replay_world

    h = house("standard+backwards+table(players=3)")
    handed = 0
    worlds: list[object] = []

    def replay(*args: Any) -> object:
        w = replay_world(*args)
        worlds.append(w)
        return w

    for i, (state, seat) in enumerate(_views(h, range(2))):
        view = state.observation(seat)
        if not view.tricks and len(view.trick) < 2:
            continue  # (too little history to be sure of a card with a choice)
        keep, fold = keep_weight(view.trump), fold_weight(view.trump)
        got = sample_worlds(h, view, 2, random.Random(i), keep=keep, fold=fold)
        handed += got is None
        worlds.clear()
        sample_deal(h, view, random.Random(i), replay=replay)
        assert all(w is None or isinstance(w, State) for w in worlds)
    assert handed > 3
