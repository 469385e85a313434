"""The Monte Carlo bot's worlds of a house whose plugin answers the lead (R-LEAD), the
cinch (R-SURE … R-CINCH-LAST) or the trick winner (R-TRICK) on the compiled kernel
(issue 41, "one engine, open to plugins"): a world of the Python rules
(``sample_world``) is loaded into the kernel and rolled out there
(``heuristic_rollouts``), the kernel asking the plugin's checked lead at every trick's
start, its cinch for every card and its trick winner at every trick's end
(``rollouts.LOAD_HOOKS``); the heuristic bot chooses among the legal cards the plugin's
cinch leaves, and asks the plugin's trick winner whether each would win, as the Python
bot does (``choose_card``'s ``winner``; bots.cpp ``heuristic_card``).

The differential: each candidate's money is the Python rollout's
(``MonteCarloPlayer._rollout``) exactly, for leads that are a rotation (left-of-winner,
widdershins) or not (dealer-last: an order no rotation gives), cinches that oblige
less (cinch-four) or otherwise (low-cinch), a trick winner where the low card wins
(low-wins: a bot that weighed its cards by the standard winner would play otherwise),
with a plugin's follow rule or payout beside them.  A cinch whose cards come out of
the hand's order (cinch-backwards) is not the kernel's to hold: ``None``, the Python
rules roll the world out (or replay, or sample it).  The kernel's own sampling and
replay (``rollouts.WORLD_HOOKS``) replay the public history asking them too: the same
samples refused alike and the same rollouts.  A hostile plugin (raising,
or answering what its guard refuses) is the Python rules' own PluginError, word for
word.  Skipped when the extension is not built."""

from __future__ import annotations

import random
from types import SimpleNamespace
from typing import Any

import pytest
from hookkit import boom, liar, replayed_both

from bourre import kernel
from bourre.game.state import State
from bourre.game.worlds import sample_deal, sample_world
from bourre.houses.house import House
from bourre.kernel import rollouts
from bourre.kernel.rollouts import (
    heuristic_outcomes,
    heuristic_rollouts,
    sample_worlds,
)
from bourre.rules import Ruling
from bourre.rules.hookspec import PluginError
from bourre_bots.heuristic import fold_weight, keep_weight
from bourre_bots.montecarlo import MonteCarloPlayer
from bourre_variants.standard.cinch import StandardCinch
from bourre_variants.standard.lead import make_lead
from bourre_variants.standard.tricks import trick_winner
from tests.kernel.test_plugin_card_hooks import SEEN, Spy, _registry, house
from tests.kernel.test_worlds_plugin_follow import _candidates, _views, replayed_rollouts

pytestmark = pytest.mark.skipif(
    not rollouts._OUTCOMES, reason="the compiled kernel is not built (or older than its worlds)"
)

HOUSES = [
    "standard+left-of-winner+table(players=3)",
    "dealer-last+table(players=4)",
    "widdershins+split-pot+table(players=5)",
    "standard+cinch-four+table(players=3)",
    "low-cinch+table(players=4)",
    "low-cinch+suit-only+split-pot+table(players=4)",
    "low-cinch+dealer-last+table(players=3)",
    "standard+low-wins+table(players=3)",
    "low-wins+left-of-winner+split-pot+table(players=4)",
    "low-wins+low-cinch+suit-only+table(players=5)",
]


def _world(h: Any, state: State, seat: int, i: int) -> State | None:
    view = state.observation(seat)
    keep, fold = keep_weight(view.trump), fold_weight(view.trump)
    return sample_world(h, view, random.Random(i), keep=keep, fold=fold)


@pytest.mark.parametrize("spec", HOUSES)
def test_a_worlds_rollouts_are_the_python_rollouts(spec: str) -> None:
    """R-LEAD, R-SURE, R-TRICK: for a world sampled on the Python rules at a card to play,
    each candidate's money over the hand played out on the kernel (the plugin's lead
    asked at every trick's start, its cinch for every card, its trick winner at every
    trick's end and by the heuristic bot for each card it weighs) is the Python rollout's
    exactly; the kernel rolled every one out."""
    h = house(spec)
    assert kernel.can_play(h, hooks=rollouts.LOAD_HOOKS) is None
    assert kernel.python_hooks(h)
    compared = 0
    for i, (state, seat) in enumerate(_views(h, range(3))):
        world = _world(h, state, seat, i)
        if world is None:
            continue
        cards = _candidates(world, seat)
        mc = MonteCarloPlayer(1, house=h, engine="python")
        python = [mc._rollout(world, a, seat) for a in cards]
        got = heuristic_rollouts(world, cards, seat, random.Random(i))
        assert got is not None, (spec, i)  # (the kernel's rollouts, not handed over)
        assert got == python, (spec, i)
        outcomes = heuristic_outcomes(world, cards, seat, random.Random(i))
        assert outcomes is not None and [o.chips for o in outcomes] == python
        compared += 1
    assert compared > 5


def test_the_lead_and_the_cinch_are_asked_in_the_rollouts() -> None:
    """The standard lead and cinch answered by a plugin that writes down each call
    (``Spy``): the kernel's rollouts ask both, the lead at a trick's start and the cinch
    for every card (not the built-in rules: the calls are written down), and give the
    Python rollouts' money."""
    spy = House("spy+table(players=4)", registry=_registry(Spy))
    kinds: set[str] = set()
    compared = 0
    for i, (state, seat) in enumerate(_views(spy, range(2))):
        world = _world(spy, state, seat, i)
        if world is None:
            continue
        cards = _candidates(world, seat)
        SEEN.clear()
        got = heuristic_rollouts(world, cards, seat, random.Random(i))
        assert got is not None
        kinds |= {x[0] for x in SEEN}
        mc = MonteCarloPlayer(1, house=spy, engine="python")
        assert got == [mc._rollout(world, a, seat) for a in cards]
        compared += 1
    assert compared > 3 and {"lead", "has"} <= kinds


def test_a_cinch_out_of_the_hands_order_is_the_python_rules() -> None:
    """R-SURE: a cinch whose cards come highest first is not the kernel's to hold: a
    world that meets it, at the card to play or later in a rollout (the hand stopped at
    the first such answer), is rolled out by the Python rules (``None``); the others on
    the kernel, as the Python rules roll them; the Monte Carlo bot plays on."""
    h = house("cinch-backwards+table(players=3)")
    assert kernel.can_play(h, hooks=rollouts.LOAD_HOOKS) is None
    handed = same = 0
    for i, (state, seat) in enumerate(_views(h, range(4))):
        world = _world(h, state, seat, i)
        if world is None:
            continue
        cards = _candidates(world, seat)
        got = heuristic_rollouts(world, cards, seat, random.Random(i))
        assert (got is None) == (heuristic_outcomes(world, cards, seat, random.Random(i)) is None)
        if got is None:
            handed += 1
            continue
        mc = MonteCarloPlayer(1, house=h, engine="python")
        assert got == [mc._rollout(world, a, seat) for a in cards]
        same += 1
    assert handed > 2 and same > 2
    state, seat = _views(h, range(1))[0]
    view = state.observation(seat)
    assert MonteCarloPlayer(0, house=h, budget=8).act(view) in view.legal_actions


@pytest.mark.parametrize("spec", [HOUSES[1], HOUSES[2], HOUSES[4], HOUSES[6], HOUSES[8]])
def test_kernel_replayed_worlds_are_the_python_worlds(spec: str) -> None:
    """The same samples replayed by the kernel (the plugin's lead asked at every trick's
    start of the public history, its cinch for every card: WORLD_HOOKS) and by the
    Python rules: refused alike, and in the tricks the same rollouts exactly; the kernel
    samples worlds of its own."""
    compared, _ = replayed_rollouts(house(spec))
    assert compared > 5


# -- a hostile plugin: the Python rules' own error ------------------------------------------

ARMED = [False]
"""Whether the hostile components below misbehave (they play honestly while the
positions are made on the Python rules)."""


def _armed(bad: Any, good: Any) -> Any:
    return lambda *a: (bad if ARMED[0] else good)(*a)


_LEAD = make_lead(5)
_CINCH = StandardCinch()
_WINNER = trick_winner


@pytest.mark.parametrize(
    ("hook", "component", "words"),
    [
        ("bourre_lead", _armed(boom, _LEAD), "raised ZeroDivisionError"),
        ("bourre_lead", _armed(lambda a, d, w: a[:-1], _LEAD), "active seats"),
        (
            "bourre_cinch",
            SimpleNamespace(has_cinch=_armed(boom, _CINCH.has_cinch), narrow=_CINCH.narrow),
            "raised ZeroDivisionError",
        ),
        (
            "bourre_cinch",
            SimpleNamespace(has_cinch=_armed(lambda *a: 1, _CINCH.has_cinch), narrow=_CINCH.narrow),
            "True or False",
        ),
        (
            "bourre_cinch",
            SimpleNamespace(
                has_cinch=_armed(lambda *a: True, _CINCH.has_cinch),
                narrow=_armed(lambda r, *a: Ruling((52,), r.reason), _CINCH.narrow),
            ),
            "within the ordinary legal cards",
        ),
        ("bourre_trick_winner", _armed(boom, _WINNER), "raised ZeroDivisionError"),
        ("bourre_trick_winner", _armed(lambda t, tr: len(t), _WINNER), "an index of the trick"),
        ("bourre_trick_winner", _armed(lambda t, tr: "0", _WINNER), "an index of the trick"),
    ],
)
def test_a_hostile_plugin_is_the_python_rules_error(hook: str, component: Any, words: str) -> None:
    """A lead, a cinch or a trick winner that raises, or answers what its guard refuses,
    in a rollout (the winner asked first by the heuristic bot weighing its cards):
    the kernel's rollouts raise the PluginError the Python rollouts raise, word for word
    (the plugin and the hook named)."""
    h = liar(hook, component, _registry)
    assert kernel.python_hooks(h) == (f"liar ({hook})",)
    ARMED[0] = False
    try:
        views = _views(h, range(2))
        worlds = [(_world(h, v, seat, i), seat) for i, (v, seat) in enumerate(views)]
        world, seat = next((w, s) for w, s in worlds if w is not None)
        cards = _candidates(world, seat)
        ARMED[0] = True
        world._legal = None  # (asked again, as the kernel asks it when it loads the world)
        errors = []
        for run in (
            lambda: MonteCarloPlayer(1, house=h, engine="python")._rollout(world, cards[0], seat),
            lambda: heuristic_rollouts(world, cards, seat, random.Random(0)),
        ):
            with pytest.raises(PluginError, match=words) as e:
                run()
            assert (e.value.plugin, e.value.hook) == ("liar", hook)
            errors.append(str(e.value))
        assert errors[0] == errors[1]
    finally:
        ARMED[0] = False


def test_a_cinch_out_of_order_in_the_history_is_sampled_by_the_python_rules() -> None:
    """R-SURE: a card of the public history whose legal set the plugin's cinch gives out
    of the hand's order: the kernel's replay hands that sample to the Python replay (a
    Python world, the same as the Python rules'), its sampling to the Python rules
    (``None``); a sample that meets no such card is the kernel's, refused alike."""
    h = house("cinch-backwards+table(players=3)")
    both: list[tuple[object, object]] = []
    twice = replayed_both(both)
    handed = sampled_by_python = 0
    for i, (state, seat) in enumerate(_views(h, range(8))):
        view = state.observation(seat)
        keep, fold = keep_weight(view.trump), fold_weight(view.trump)
        got = sample_worlds(h, view, 2, random.Random(i), keep=keep, fold=fold)
        sampled_by_python += got is None
        both.clear()
        sample_deal(h, view, random.Random(i), replay=twice)
        for py, k in both:
            assert (py is None) == (k is None)
            if isinstance(k, State):  # (handed to the Python replay: the same world)
                assert isinstance(py, State) and k.hand.hands == py.hand.hands
                handed += 1
    assert handed > 2 and sampled_by_python > 2


def test_the_kernels_heuristic_seats_only_a_bot_reading_the_houses_trick_winner() -> None:
    """R-TRICK: the kernel's heuristic asks the house's trick winner (a plugin's through
    Python, else the standard one), so it seats a heuristic bot only when that bot reads
    the same one; a bot reading another is the Python rules'."""
    from bourre.kernel import _winner_of
    from bourre_bots.heuristic import HeuristicPlayer, house_winner

    low, plain = house("standard+low-wins+table(players=3)"), House("standard")
    assert house_winner(low) is not None and house_winner(plain) is None
    assert _winner_of(HeuristicPlayer(0, winner=house_winner(low)), low)
    assert not _winner_of(HeuristicPlayer(0), low)  # (the standard winner on low-wins)
    assert _winner_of(HeuristicPlayer(0), plain)
    assert not _winner_of(HeuristicPlayer(0, winner=house_winner(low)), plain)
