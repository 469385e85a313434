"""The kernel's double-dummy solver on a house whose only plugin rules are money rules
(issue 41, "the solver, advise, chart and --review use the same path"): a payout (the
example plugin split-pot, R-SPLIT-POT: a tie splits P as fractions; a payout whose
bourré penalty differs by seat) or a penalty (a bourré player pays the pot plus one,
R-BOURRE), asked through Python as sessions ask it (:mod:`bourre.kernel.hooks`).

Against the Python reference (:func:`bourre.advice.solver.solve`, ``engine="python"``)
on random positions (2 to 8 players, part-way through tricks, first and later hands):
every card's sure tricks, every seat's chips, the card searched for it, the best cards
and the choice, equal exactly, from a Python state and from the stepped one.  A hostile
money plugin (raising, answering garbage, an amount the kernel's units do not hold)
gives the reference's own :class:`~bourre.rules.hookspec.PluginError` or the
reference's values (the position handed to it), never a rounded amount.  The commands
(``advise --script``) say the kernel played.  Skipped when the extension is not built.
"""

from __future__ import annotations

import dataclasses
import json
import random
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
import solverkit
from conftest import plugin
from hookkit import Elevenths
from solverkit import same

import bourre.houses.house as house_module
from bourre import kernel
from bourre.advice import kernel_solver as ks
from bourre.advice.solver import solve
from bourre.game import Game
from bourre.game.state import State
from bourre.houses.house import House
from bourre.kernel import hooks
from bourre.kernel.hooks import MONEY_HOOKS
from bourre.rules import HandOutcome, PlayResult
from bourre.rules.hookspec import PayoutFn, PenaltyFn, PluginError
from bourre.rules.plugins import load_registry
from bourre.rules.settings import TableSettings
from bourre.rules.variant import Variant, hookimpl
from bourre_variants.standard.payout import payout as standard_payout
from tests.kernel.test_plugin_hooks import PotPlusOne, split_pot

pytest.importorskip(
    "bourre.kernel._kernel",
    reason="the compiled kernel is not built (BOURRE_NO_KERNEL=1, or no C++ compiler)",
)
if not ks.built():
    pytest.skip(
        "the compiled kernel is older than its solver: build it again", allow_module_level=True
    )


class BySeat(Variant):
    """The standard payout, but a bourré seat pays the pot plus its seat number: the
    bourré do not all pay the same (the solver's classes do not hold)."""

    name = "by-seat"
    summary = "A bourré player pays the pot plus its seat number."
    builds_on = ("standard",)

    @hookimpl
    def bourre_payout(self, table: TableSettings) -> PayoutFn:
        def payout(result: PlayResult, penalty: PenaltyFn) -> HandOutcome:
            out = standard_payout(result, penalty)
            extra = {s: s for s in out.bourre}
            paid = [p + extra.get(s, 0) for s, p in enumerate(out.paid)]
            return dataclasses.replace(
                out, paid=paid, pot_after=out.pot_after + sum(extra.values())
            )

        return payout


class Boom(Variant):
    """A penalty with a bug of its own."""

    name = "boom"
    summary = "A penalty that raises."
    builds_on = ("standard",)

    @hookimpl
    def bourre_penalty(self, table: TableSettings) -> PenaltyFn:
        def penalty(pot: Any) -> Any:
            raise ZeroDivisionError("the plugin's own bug")

        return penalty


class Garbage(Variant):
    """A payout that answers garbage (the guard refuses it, PluginError)."""

    name = "garbage"
    summary = "A payout that answers a word."
    builds_on = ("standard",)

    @hookimpl
    def bourre_payout(self, table: TableSettings) -> PayoutFn:
        return lambda result, penalty: "lots"  # type: ignore[return-value]


REGISTRY = load_registry(
    extra=[
        ("split-pot", split_pot()),
        *[(c.name, plugin(c.name, c)) for c in (PotPlusOne, BySeat, Boom, Garbage, Elevenths)],
    ]
)


def house(spec: str) -> House:
    return House(spec, registry=REGISTRY)


def positions(h: House, seed: int, rng: random.Random, most: int = 3) -> list[tuple[Any, State]]:
    """Pairs (stepped state, Python state) at the same random positions of a session,
    the Python state the plugin's rules' (its money as the plugin says); a hostile
    plugin's hand end stops the walk."""
    return solverkit.positions(h, seed, rng, most=most, stop_at_plugin_error=True)


SPECS = ["standard+split-pot", "standard+pot-plus-one", "standard+by-seat"]
CASES = [(s, n) for s in SPECS for n in range(2, 9)]


@pytest.mark.parametrize(("spec", "n"), CASES)
def test_the_kernels_solver_is_the_python_reference(spec: str, n: int) -> None:
    """Random positions of a money plugin's house: the kernel's solution (from the
    Python state and from the stepped one) is the reference's, card by card; ``auto``
    takes the kernel."""
    h = house(f"{spec}+table(players={n},hands=4)")
    assert kernel.python_hooks(h) != ()
    assert ks.why_not_house(h) is None
    rng = random.Random(f"{spec}/{n}")
    seen = 0
    for seed in range(3):
        for k, p in positions(h, seed, rng):
            ref = solve(p, engine="python")
            got = ks.kernel_solve(p)
            assert got is not None  # (the kernel's: every amount a whole number of its units)
            same(got, ref)
            same(solve(k, engine="kernel"), ref)
            same(solve(p), ref)  # auto: the kernel's
            seen += 1
    assert seen >= 1


def test_a_split_pot_is_solved_in_fractions() -> None:
    """The plugin's payout matters: where two seats may tie for the most tricks (two
    each of five) and split an odd pot, the values are fractions (R-SPLIT-POT; the
    built-in payout carries a tie, R-WIN, and never pays a fraction of whole antes)."""
    h = house("standard+split-pot+table(players=3,hands=4)")
    rng = random.Random(7)
    fractions = 0
    for seed in range(8):
        for _, p in positions(h, seed, rng, most=4):
            got = solve(p, engine="kernel")
            same(got, solve(p, engine="python"))
            fractions += any(type(x) is Fraction for v in got.values for x in v.chips_by_seat)
    assert fractions


@pytest.mark.parametrize("players", [3, 5])
def test_a_built_in_house_is_unchanged(players: int) -> None:
    """The built-in house keeps its path: the same values as the reference, solved with
    the GIL released (no hook), its positions counted as before."""
    h = House(f"standard+table(players={players},hands=3)")
    rng = random.Random(players)
    for seed in range(3):
        for k, p in positions(h, seed, rng):
            same(solve(k, engine="kernel"), solve(p, engine="python"))


def _errors(h: House, seeds: range) -> list[tuple[str, str]]:
    """At positions of ``h``: (the kernel's, the reference's) answer, each a
    solution's values or the error's words."""
    rng = random.Random(h.spec)
    out: list[tuple[str, str]] = []
    for seed in seeds:
        for k, p in positions(h, seed, rng):
            got: list[str] = []
            for s, engine in ((p, "python"), (p, "kernel"), (k, "kernel")):
                try:
                    got.append(repr(solve(s, engine=engine).values))
                except PluginError as e:
                    got.append(f"PluginError: {e}")
            assert got[1] == got[0] and got[2] == got[0], h.spec
            out.append((got[1], got[0]))
    return out


@pytest.mark.parametrize(
    ("spec", "words"),
    [
        ("standard+boom", "plugin 'boom', hook bourre_penalty: raised ZeroDivisionError"),
        ("standard+garbage", "plugin 'garbage', hook bourre_payout: must answer a HandOutcome"),
    ],
)
def test_a_plugins_error_is_the_references(spec: str, words: str) -> None:
    """A raising penalty, a payout answering garbage: the kernel raises the reference's
    PluginError, in the same words, where the reference does (a position where nobody
    can be bourré asks no penalty on either)."""
    h = house(f"{spec}+table(players=3,hands=4)")
    assert ks.why_not_house(h) is None
    seen = _errors(h, range(3))
    errors = [k for k, _ in seen if k.startswith("PluginError")]
    assert errors and all(words in e for e in errors)


def test_an_amount_the_kernel_does_not_hold_is_the_references() -> None:
    """A penalty of the pot and an eleventh (not a whole number of 1/840 chip): the
    kernel hands such a position to the Python reference (``kernel_solve`` says
    ``None``), whose values are given, fractions exact, never a rounded amount."""
    h = house("standard+elevenths+table(players=3,hands=4)")
    rng = random.Random(11)
    handed = 0
    for seed in range(4):
        for k, p in positions(h, seed, rng):
            ref = solve(p, engine="python")
            mine = ks.kernel_solve(p)
            handed += mine is None
            if mine is not None:  # (nobody can be bourré from here: no penalty asked)
                same(mine, ref)
            same(solve(p, engine="kernel"), ref)
            same(solve(k), ref)
    assert handed


def test_the_plugin_is_asked_once_a_different_result() -> None:
    """The kernel asks the plugin's payout once for each different count of tricks won
    in a solve (the hooks' memory off: every ask counted)."""
    calls: list[tuple[Any, ...]] = []

    class Counted(Variant):
        name = "counted"
        summary = "The standard payout, counted."
        builds_on = ("standard",)

        @hookimpl
        def bourre_payout(self, table: TableSettings) -> PayoutFn:
            def payout(result: PlayResult, penalty: PenaltyFn) -> HandOutcome:
                calls.append(tuple(result.tricks_won))
                return standard_payout(result, penalty)

            return payout

    h = House(
        "standard+counted+table(players=4,hands=2)",
        registry=load_registry(extra=[("counted", plugin("counted", Counted))]),
    )
    old = hooks.REMEMBER
    hooks.REMEMBER = False
    try:
        rng = random.Random(3)
        solved = 0
        for seed in range(3):
            for _, p in positions(h, seed, rng):
                calls.clear()
                got = solve(p, engine="kernel")
                assert calls and len(calls) == len(set(calls))
                same(got, solve(p, engine="python"))
                solved += 1
        assert solved
    finally:
        hooks.REMEMBER = old


def test_the_worlds_of_advice_are_the_kernels(monkeypatch: pytest.MonkeyPatch) -> None:
    """``bourre advise --script`` on a split-pot hand: the kernel solves it and draws its
    deals (``engine: kernel``), the plugin asked through Python, nothing said of the
    Python rules."""
    from typer.testing import CliRunner

    from bourre.cli import app

    monkeypatch.setattr(house_module, "default_registry", lambda: REGISTRY)
    script = Path(__file__).resolve().parents[2] / "docs/examples/hands/dispute.hand"
    text = script.read_text(encoding="utf-8")
    assert "\nhouse standard\n" in text
    text = text.replace("\nhouse standard\n", "\nhouse standard+split-pot\n", 1)
    r = CliRunner().invoke(app, ["advise", "--script", "-", "--json", "--deals", "20"], input=text)
    assert r.exit_code == 0, r.stderr
    data = json.loads(r.stdout)
    assert data["engine"] == "kernel", data
    r = CliRunner().invoke(app, ["advise", "--script", "-", "--deals", "20"], input=text)
    assert r.exit_code == 0, r.stderr
    assert "kernel cannot play" not in r.stdout and "Python rules" not in r.stdout, r.stdout
    assert "played out by the kernel's solver" in r.stdout
    assert "The kernel asked split-pot's payout through Python." in r.stdout


def test_can_play_names_the_uses_that_ask_money_hooks() -> None:
    """The solver, the worlds and their rollouts (the equilibrium chart's deals too) take
    a money plugin's house (``hooks=MONEY_HOOKS``); the default (no plugin asked: the
    built-in rules only) still refuses it, naming the hook."""
    h = house("standard+split-pot")
    assert kernel.can_play(h, hooks=MONEY_HOOKS) is None
    why = kernel.can_play(h)
    assert why is not None and "split-pot (bourre_payout)" in why and "built-in rules" in why
    assert "solver" not in why and "equilibrium" not in why


@pytest.mark.parametrize(
    ("spec", "key", "hook", "expect"),
    [
        ("standard+split-pot", "money_hook", lambda p, a, w: "x", ValueError),
        ("standard+split-pot", "money_hook", lambda p, a, w: (0, 0), ValueError),
        (
            "standard+split-pot",
            "money_hook",
            lambda p, a, w: (9, 0, 0, 0, 0, 0, 0, 0, 0),
            ValueError,
        ),
        ("standard+split-pot", "money_hook", lambda p, a, w: 1 // 0, ZeroDivisionError),
        ("standard+split-pot", "money_hook", lambda p, a, w: None, "handed"),
        (
            "standard+split-pot",
            "money_hook",
            lambda p, a, w: (-1, 1, 0, 0, 0, 2**70, 0, 0, 0),
            "handed",
        ),
        ("standard+pot-plus-one", "penalty_hook", lambda p: "1", ValueError),
        ("standard+pot-plus-one", "penalty_hook", lambda p: -5, ValueError),
        ("standard+pot-plus-one", "penalty_hook", lambda p: 1 // 0, ZeroDivisionError),
        ("standard+pot-plus-one", "penalty_hook", lambda p: 2**64, "handed"),
        ("standard+pot-plus-one", "penalty_hook", lambda p: None, "handed"),
    ],
)
def test_a_hooks_answer_is_checked_by_the_solver(
    spec: str, key: str, hook: Any, expect: Any
) -> None:
    """``dd_solve`` given a money hook's answer of the wrong shape: an exception (never a
    value); one it does not hold (``None``, beyond 2^62): ``None``, the position the
    Python reference's.  At the first trick of three players nobody has a trick yet, so
    an outcome with a bourré seat is met and the penalty asked."""
    from bourre.kernel import _kernel

    assert _kernel is not None
    h = house(f"{spec}+table(players=3)")
    p = Game(h, engine="python").new_session(1)
    while p.phase_name != "play":
        p.apply_action(list(p.legal_actions())[-1])
    hs = p.hand
    assert len(hs.active) == 3 and not hs.tricks
    facts = {**ks._facts(h), key: hook}  # type: ignore[dict-item]
    position = {
        "upcard": hs.upcard, "pot_at_stake": 3 * 840, "hands": [list(x) for x in hs.hands],
        "discards": [list(d) for d in hs.discards], "won": list(hs.won),
        "active": list(hs.active), "trick_seats": list(hs.trick_seats), "trick": list(hs.trick),
        "played": sorted(hs.played), "tricks": 0,
    }  # fmt: skip
    if expect == "handed":
        assert _kernel.dd_solve(facts, position) is None
        assert ks.kernel_solve(p) is not None  # (the plugin's own answers are held)
    else:
        with pytest.raises(expect):
            _kernel.dd_solve(facts, position)


# -- the Monte Carlo bot's worlds: sampled, replayed and rolled out on the kernel ---------


def _answer(f: Any, *args: Any) -> Any:
    """``f(*args)``'s answer, or the words of the PluginError it raised."""
    try:
        return f(*args)
    except PluginError as e:
        return f"PluginError: {e}"


def _python_rollouts(mc: Any, world: State, cards: list[Any], seat: int) -> list[float]:
    return [mc._rollout(world, a, seat) for a in cards]


@pytest.mark.parametrize(
    "spec",
    [
        "standard+split-pot+table(players=3)",
        "standard+pot-plus-one+table(players=4)",
        "standard+by-seat+table(players=5)",
        "standard+boom+table(players=3)",
    ],
)
def test_a_worlds_rollouts_are_the_python_rollouts(spec: str) -> None:
    """The Monte Carlo bot's rollouts of a money plugin's house on the kernel: for a
    world sampled on the Python rules, each candidate's money is the Python rollout's
    exactly (the plugin asked at each rollout's end; its error the same words), and the
    kernel samples and rolls out worlds of its own."""
    from bourre.game.actions import CARDS
    from bourre.game.players import ask, make_bot
    from bourre.game.worlds import sample_world
    from bourre.kernel.rollouts import heuristic_rollouts, sample_worlds, world_rollouts
    from bourre_bots.heuristic import fold_weight, keep_weight
    from bourre_bots.montecarlo import MonteCarloPlayer

    h = house(spec)
    n = h.table.players
    compared = worlds = 0
    for seed in range(3):
        state = Game(h, engine="python").new_session(seed)
        assert type(state) is State
        bots = [make_bot("heuristic", random.Random(s), house=h) for s in range(n)]
        while not state.is_terminal() and state.hand.number == 1:
            seat = state.current_player()
            view = state.observation(seat)
            if len(view.legal_actions) > 1 and view.phase == "play":
                rng = random.Random(compared + worlds)
                mc = MonteCarloPlayer(1, house=h, engine="python")
                world = sample_world(h, view, rng)
                if world is not None:
                    cards = [CARDS[c] for c in view.legal]
                    python = _answer(_python_rollouts, mc, world, cards, view.seat)
                    kernel = _answer(heuristic_rollouts, world, cards, view.seat, rng)
                    assert kernel == python, spec
                    compared += 1
                keep, fold = keep_weight(view.trump), fold_weight(view.trump)
                got = sample_worlds(h, view, 3, rng, keep=keep, fold=fold)
                assert got is not None  # (the kernel's worlds)
                for w in got:
                    one = _answer(world_rollouts, w, [CARDS[c] for c in view.legal], seat)
                    assert isinstance(one, str) or len(one) == len(view.legal)
                    worlds += 1
            try:
                state.apply_action(ask(state, bots[seat]))
            except PluginError:  # (the raising penalty at the hand's end)
                break
    assert compared > 3 and worlds > 3


def test_a_world_whose_money_the_kernel_does_not_hold_is_the_python_rules() -> None:
    """Elevenths of a pot at a rollout's end: the kernel's world gives no rollouts
    (``None``), a Python world's rollouts are the Python rules' (``heuristic_rollouts``
    says ``None``), and the Monte Carlo bot plays on, on the Python rules from then on."""
    from bourre.game.actions import CARDS
    from bourre.game.worlds import sample_world
    from bourre.kernel.rollouts import heuristic_rollouts, sample_worlds, world_rollouts
    from bourre_bots.heuristic import fold_weight, keep_weight
    from bourre_bots.montecarlo import MonteCarloPlayer

    h = house("standard+elevenths+table(players=3)")
    handed = python_handed = 0
    for seed in range(6):
        state = Game(h, engine="python").new_session(seed)
        while state.phase_name != "play":
            state.apply_action(list(state.legal_actions())[-1])
        view = state.observation(state.current_player())
        rng = random.Random(seed)
        cards = [CARDS[c] for c in view.legal]
        got = sample_worlds(
            h, view, 4, rng, keep=keep_weight(view.trump), fold=fold_weight(view.trump)
        )
        assert got is not None
        handed += sum(world_rollouts(w, cards, view.seat) is None for w in got)
        world = sample_world(h, view, rng)
        if world is not None:
            python_handed += heuristic_rollouts(world, cards, view.seat, rng) is None
        bot = MonteCarloPlayer(seed, house=h, budget=8)
        assert bot.act(view) in view.legal_actions
    assert handed and python_handed


# Issue 44: a plugin's money is searched inside a trick by the chips' key too (cards held,
# the trick's facts, the tricks won: solver.cpp, chips_money).  First leads where that key
# without one of its parts gives a wrong amount (found by solving 3,000 deals with each
# part left out, against the whole key).
@pytest.mark.parametrize(
    ("players", "seed"),
    [
        (3, 21),  # without the tricks won
        (3, 424),  # without the suit led
        (3, 8),  # without the highest card's rank
        (4, 178),  # without the highest trump on the trick, or the tricks won
    ],
)
def test_a_plugins_money_inside_a_trick_is_told_apart(players: int, seed: int) -> None:
    """R-FOLLOW, R-TRUMP, R-TRICK, R-SPLIT-POT: from the first lead of a split-pot house,
    the kernel's money is the reference's where a key inside a trick that forgot the
    tricks won, the suit led, its highest card or the highest trump would merge
    positions of different money."""
    from bourre.advice.bench import first_lead

    state = first_lead(house(f"standard+split-pot+table(players={players})"), seed)
    same(solve(state, engine="kernel"), solve(state, engine="python"))
