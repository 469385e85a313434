"""The kernel's double-dummy solver on a house whose plugin answers a rule of the play
(issue 41, "the solver, advise, chart and --review use the same path"): a lead (R-LEAD),
a follow rule (R-FOLLOW …), a cinch (R-SURE …) or a trick winner (R-TRICK), asked
through Python as the stepped state asks them (:mod:`bourre.kernel.hooks`).

Such a house is solved by the reference's *plain* search (``solve(plain=True)``: every
legal card searched, nothing read from the built-in rules of the play), which is how
advice and the review solve it.  Against the Python plain search
(:func:`bourre.advice.solver.solve`, ``engine="python"``) on random positions (2 to 8
players, part-way through tricks): every card's sure tricks, every seat's chips, the
best cards and the choice equal exactly, from a Python state and from the stepped one.
The merging search (``plain=False``) stays the Python reference's for such a house.  A
ruling the kernel does not hold (cards out of the hand's order) hands the position to
the Python search; a plugin's error is the reference's.  Skipped when the extension is
not built.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
import solverkit
from conftest import plugin
from hookkit import Backwards, boom, liar
from solverkit import same
from widdershins import Widdershins

from bourre.advice import kernel_solver as ks
from bourre.advice.solver import solve
from bourre.game import Game
from bourre.game.state import State
from bourre.houses.house import House
from bourre.rules import Reason, Ruling
from bourre.rules.hookspec import PluginError
from bourre.rules.plugins import load_registry
from bourre.rules.settings import TableSettings
from bourre.rules.variant import Variant, hookimpl
from bourre_variants.standard.obligations import follow
from tests.kernel.test_plugin_card_hooks import (
    CinchBackwards,
    CinchFour,
    DealerLast,
    LeftOfWinner,
    LowCinch,
)
from tests.kernel.test_plugin_hooks import LowWins, SuitOnly, split_pot

pytest.importorskip(
    "bourre.kernel._kernel",
    reason="the compiled kernel is not built (BOURRE_NO_KERNEL=1, or no C++ compiler)",
)
if not ks.built():
    pytest.skip(
        "the compiled kernel is older than its solver: build it again", allow_module_level=True
    )


PLUGINS: tuple[type[Variant], ...] = (
    SuitOnly,
    LowWins,
    LeftOfWinner,
    DealerLast,
    Widdershins,
    CinchFour,
    LowCinch,
    CinchBackwards,
    Backwards,
)


def _registry(*extra: type[Variant]) -> Any:
    mods = [("split-pot", split_pot())]
    mods += [(c.name, plugin(c.name, c)) for c in (*PLUGINS, *extra)]
    return load_registry(extra=mods)


REGISTRY = _registry()


def house(spec: str) -> House:
    return House(spec, registry=REGISTRY)


def positions(h: House, seed: int, rng: random.Random) -> list[tuple[Any, State]]:
    """Pairs (stepped state, Python state) at the same random positions of a session,
    few enough cards left for the Python plain search."""
    return solverkit.positions(h, seed, rng, most_left=solverkit.plain_left, chance=0.4)


SPECS = [
    "standard+suit-only",
    "standard+low-wins",
    "standard+cinch-four",
    "standard+low-cinch",
    "suit-only+split-pot",
    "low-wins+left-of-winner+low-cinch",
    "dealer-last+cinch-four+pot-limit(limit=2)",
]
CASES = [(s, n) for s in SPECS for n in (2, 3, 5, 8)]
LEADS = ["standard+left-of-winner", "standard+dealer-last", "widdershins+split-pot"]


@pytest.mark.parametrize(("spec", "n"), CASES)
def test_the_kernels_plain_search_is_the_python_plain_search(spec: str, n: int) -> None:
    """Random positions of a house whose plugin answers a rule of the play: the
    kernel's plain solution (from the Python state and from the stepped one; ``auto``
    takes it) is the Python plain search's, card by card; the merging search is the
    Python reference's, the kernel saying why it does not solve it."""
    h = house(f"{spec}+table(players={n},hands=4)")
    assert ks.plain_only(h) and ks.why_not_house(h) is None
    rng = random.Random(f"{spec}/{n}")
    seen = 0
    for seed in range(3):
        for k, p in positions(h, seed, rng):
            ref = solve(p, plain=True, engine="python")
            got = ks.kernel_solve(p, plain=True)
            assert got is not None
            same(got, ref)
            same(solve(k, plain=True, engine="kernel"), ref)
            same(solve(p, plain=True), ref)
            assert ks.why_not(p) is not None and "plain" in (ks.why_not(p) or "")
            seen += 1
    assert seen >= 2


@pytest.mark.parametrize(("spec", "n"), [(s, n) for s in LEADS for n in (2, 3, 5, 8)])
def test_a_plugins_lead_keeps_the_merging_search(spec: str, n: int) -> None:
    """A plugin's lead reads no card (R-LEAD: the players, the dealer, the last winner):
    the kernel keeps its merging search and bounds, the order of play asked of the
    plugin (an order no rotation gives: dealer-last), and its solution is the merging
    Python search's, card by card, the card searched for each included; the plain
    search stays the Python one's."""
    h = house(f"{spec}+table(players={n},hands=4)")
    assert not ks.plain_only(h) and ks.why_not_house(h) is None
    rng = random.Random(f"{spec}/{n}")
    seen = 0
    for seed in range(3):
        for k, p in positions(h, seed, rng):
            ref = solve(p, engine="python")
            same(ks.kernel_solve(p), ref)
            same(solve(k, engine="kernel"), ref)
            assert ks.why_not(p, plain=True) is not None
            seen += 1
    assert seen >= 2


@pytest.mark.parametrize("spec", ["standard+widdershins", "standard+dealer-last"])
def test_the_first_lead_of_a_plugins_lead_is_solved_on_the_kernel(spec: str) -> None:
    """Whole hands from the first lead (four players, five cards): the kernel's values
    are the merging Python search's, the lead asked through Python."""
    h = house(f"{spec}+table(players=4)")
    for seed in (5, 6):
        p = Game(h, engine="python").new_session(seed)
        while p.phase_name != "play":
            p.apply_action(list(p.legal_actions())[-1])
        assert isinstance(p, State) and not p.hand.tricks
        same(solve(p, engine="kernel"), solve(p, engine="python"))


@pytest.mark.parametrize("spec", ["standard+backwards", "standard+cinch-backwards"])
def test_a_ruling_the_kernel_does_not_hold_is_the_python_search(spec: str) -> None:
    """Cards given out of the hand's order (the first card of a tie is the first the
    ruling lists): the kernel hands the position to the Python search (``None``), whose
    values ``solve`` gives."""
    h = house(f"{spec}+table(players=3,hands=4)")
    rng = random.Random(spec)
    handed = 0
    for seed in range(4):
        for k, p in positions(h, seed, rng):
            ref = solve(p, plain=True, engine="python")
            mine = ks.kernel_solve(p, plain=True)
            handed += mine is None
            if mine is not None:  # (no out-of-order ruling met from here)
                same(mine, ref)
            same(solve(p, plain=True), ref)
            same(solve(k, plain=True), ref)
    assert handed


class Counted(Variant):
    """The standard obligations, every question counted."""

    name = "counted"
    summary = "The standard obligations, counted."
    builds_on = ("standard",)
    asked: list[tuple[tuple[int, ...], tuple[int, ...]]] = []

    @hookimpl
    def bourre_follow(self, table: TableSettings) -> Any:
        asked = self.asked

        class Follow:
            def legal(self, hand: tuple[int, ...], trick: tuple[int, ...], trump: int) -> Ruling:
                asked.append((tuple(hand), tuple(trick)))
                return follow(hand, trick, trump)

        return Follow()


def test_each_question_is_asked_once_a_solve() -> None:
    """The kernel asks the plugin's follow rule once for each different hand and trick
    so far in a solve (a rule answers from what it is told), and the values are the
    built-in house's, since the plugin is the standard obligations."""
    h = House("standard+counted+table(players=4)", registry=_registry(Counted))
    p = Game(h, engine="python").new_session(2)
    b = Game(House("standard+table(players=4)"), engine="python").new_session(2)
    while p.phase_name != "play":
        action = list(p.legal_actions())[-1]
        p.apply_action(action)
        b.apply_action(action)
    assert isinstance(p, State) and b.hand.hands == p.hand.hands
    Counted.asked.clear()
    got = solve(p, plain=True, engine="kernel")
    counts = Counter(Counted.asked)
    assert counts and max(counts.values()) == 1
    built_in = solve(b, engine="kernel")
    assert [(v.card, v.sure_tricks, v.chips_by_seat) for v in got.values] == [
        (v.card, v.sure_tricks, v.chips_by_seat) for v in built_in.values
    ]


def _short(rule: Any) -> Any:
    """A follow rule that answers with ``rule`` once a hand holds two cards or fewer
    (so that a position of three cards can be reached honestly)."""

    class Follow:
        def legal(self, hand: tuple[int, ...], trick: tuple[int, ...], trump: int) -> Ruling:
            if len(hand) <= 2:
                return rule(hand, trick, trump)  # type: ignore[no-any-return]
            return follow(hand, trick, trump)

    return Follow()


@pytest.mark.parametrize(
    ("rule", "words"),
    [
        (boom, "raised ZeroDivisionError"),
        (lambda hand, trick, trump: Ruling((52,), Reason("R-FOLLOW", "x")), "bourre_follow"),
        (lambda hand, trick, trump: "any", "bourre_follow"),
    ],
)
def test_a_plugins_error_is_the_references(rule: Any, words: str) -> None:
    """A follow rule that raises, or answers a card not in the hand or garbage, once
    two cards are left: both searches meet it at their first such question and raise
    the same PluginError, in the same words (the guard's)."""
    registry = liar(
        "bourre_follow",
        _short(rule),
        lambda cls: load_registry(extra=[("liar", plugin("liar", cls))]),
    ).registry
    h = House("liar+table(players=3,hands=4)", registry=registry)
    p = Game(h, engine="python").new_session(1)
    while p.phase_name != "play" or len(p.hand.tricks) < 2:
        p.apply_action(list(p.legal_actions())[-1])
    assert isinstance(p, State)
    errors = []
    for engine in ("python", "kernel"):
        with pytest.raises(PluginError, match=words) as e:
            solve(p, plain=True, engine=engine)
        assert (e.value.plugin, e.value.hook) == ("liar", "bourre_follow")
        errors.append(str(e.value))
    assert errors[0] == errors[1]


def test_a_plugins_lead_is_told_the_dealer() -> None:
    """``dd_solve`` of a plugin's lead reads the dealer (told to the lead, R-LEAD) and
    the order of play as any order of the players: a dealer not at the table is
    refused, naming the field."""
    from bourre.kernel import _kernel

    assert _kernel is not None
    h = house("standard+dealer-last+table(players=4)")
    p = Game(h, engine="python").new_session(1)
    while p.phase_name != "play":
        p.apply_action(list(p.legal_actions())[-1])
    hs = p.hand
    facts = ks._facts(h)
    assert isinstance(facts, dict)
    position = {
        "upcard": hs.upcard, "pot_at_stake": 0, "hands": [list(x) for x in hs.hands],
        "discards": [list(d) for d in hs.discards], "won": list(hs.won),
        "active": list(hs.active), "trick_seats": list(hs.trick_seats), "trick": [],
        "played": sorted(hs.played), "tricks": 0,
    }  # fmt: skip
    with pytest.raises(TypeError, match="dealer"):
        _kernel.dd_solve(facts, position)
    for bad in (-1, 4, 9):
        with pytest.raises(ValueError, match="dealer"):
            _kernel.dd_solve(facts, {**position, "dealer": bad})
    assert _kernel.dd_solve(facts, {**position, "dealer": hs.dealer}) is not None


def _late_lead(answer: Any) -> Any:
    """A lead honest for the first trick (no winner yet), then ``answer``'s."""

    def lead(active: tuple[int, ...], dealer: int, winner: int | None) -> Any:
        if winner is None:
            return tuple(sorted(active, key=lambda s: (s - dealer - 1) % 3))
        return answer(active, dealer, winner)

    return lead


@pytest.mark.parametrize(
    ("answer", "words"),
    [(boom, "raised ZeroDivisionError"), (lambda a, d, w: a[:-1], "active seats")],
)
def test_a_plugins_lead_error_is_the_references(answer: Any, words: str) -> None:
    """A lead that raises, or names too few players, after the first trick: the
    kernel's merging search (which asks it without holding the GIL between questions)
    raises the Python search's PluginError, in the same words."""
    registry = liar(
        "bourre_lead",
        _late_lead(answer),
        lambda cls: load_registry(extra=[("liar", plugin("liar", cls))]),
    ).registry
    h = House("liar+table(players=3,hands=4)", registry=registry)
    p = Game(h, engine="python").new_session(1)
    while p.phase_name != "play":
        p.apply_action(list(p.legal_actions())[-1])
    assert isinstance(p, State) and not p.hand.tricks
    errors = []
    for engine in ("python", "kernel"):
        with pytest.raises(PluginError, match=words) as e:
            solve(p, engine=engine)
        assert (e.value.plugin, e.value.hook) == ("liar", "bourre_lead")
        errors.append(str(e.value))
    assert errors[0] == errors[1]
