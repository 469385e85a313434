"""A plugin's rule on the compiled kernel (issue 41, "open to plugins"): a house whose
penalty (R-BOURRE) or payout (R-WIN, R-SOLE, R-BOURRE, R-ANTE) is a plugin's is played
by the kernel for every built-in rule, the plugin's component called through Python at
the hand's end (:mod:`bourre.kernel.hooks`); a plugin's follow rule (R-FOLLOW …) is
asked for every card of the kernel's whole sessions.  The result is the Python rules'
hand for hand: whole sessions (``simulate``'s and ``compare``'s), the stepped
state (``Game(house, engine="kernel")``), the guards' refusals and a plugin's own
errors.  Houses with another plugin's hook still play on the Python rules.  Skipped,
with the reason, when the extension is not built.
"""

from __future__ import annotations

import importlib.util
import random
from fractions import Fraction
from functools import partial
from pathlib import Path
from types import ModuleType, SimpleNamespace
from typing import Any

import pytest
from conftest import plugin
from hookkit import (
    Backwards,
    extension_checks,
    facts_with,
    liar,
    play_randomly,
    python_session,
    same_sessions,
    same_step,
    same_summaries,
)

from bourre import kernel
from bourre.game import Game
from bourre.game.actions import Action, Deck
from bourre.game.simulate import play_session
from bourre.game.state import State
from bourre.houses.house import House
from bourre.kernel import hooks
from bourre.rules import HandOutcome, PlayResult, RuleViolation
from bourre.rules.hookspec import PenaltyFn, PluginError
from bourre.rules.plugins import load_registry
from bourre.rules.settings import TableSettings
from bourre.rules.variant import Variant, hookimpl
from bourre_variants.standard.payout import payout as standard_payout

_kernel = pytest.importorskip(
    "bourre.kernel._kernel",
    reason="the compiled kernel is not built (BOURRE_NO_KERNEL=1, or no C++ compiler)",
)

from bourre.kernel.state import KernelState  # noqa: E402  (the extension is built)

ROOT = Path(__file__).resolve().parents[2]


def split_pot() -> ModuleType:
    """The example plugin of the docs (a tie splits the pot, as fractions), install-free."""
    path = ROOT / "docs" / "examples" / "bourre-split-pot" / "src" / "bourre_split_pot"
    spec = importlib.util.spec_from_file_location("bourre_split_pot", path / "__init__.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class PotPlusOne(Variant):
    """A bourré player pays the pot plus one (what ``bourre new variant`` scaffolds)."""

    name = "pot-plus-one"
    summary = "A bourré player pays the pot plus one."
    builds_on = ("standard",)

    @hookimpl
    def bourre_penalty(self, table: TableSettings) -> PenaltyFn:
        return lambda pot: pot + 1


class HalfPot(Variant):
    """A bourré player pays half the pot: halves of halves, until the kernel's units run
    out (the session is then the Python rules')."""

    name = "half-pot"
    summary = "A bourré player pays half the pot."
    builds_on = ("standard",)

    @hookimpl
    def bourre_penalty(self, table: TableSettings) -> PenaltyFn:
        return lambda pot: Fraction(pot) / 2


class ThirdsBack(Variant):
    """The winner gives a third of the pot back to the next pot, and bourré players pay
    a ninth more: 1/9 and 1/27 chips that 1/840 does not hold (the Python rules play on)."""

    name = "thirds-back"
    summary = "The winner leaves a third of the pot in it."
    builds_on = ("standard",)

    @hookimpl
    def bourre_payout(self, table: TableSettings) -> Any:
        def payout(result: PlayResult, penalty: PenaltyFn) -> HandOutcome:
            out = standard_payout(result, lambda p: Fraction(p) * 10 / 9)
            if out.winner is None:
                return out
            takes = list(out.takes)
            back = Fraction(result.pot_at_stake) / 3
            takes[out.winner] -= back
            return HandOutcome(
                out.winner, takes, out.paid, out.pot_after + back, out.bourre, out.reneges,
                out.ante_exempt, out.tied, out.reasons,
            )  # fmt: skip

        return payout


class MyLimit(Variant):
    """A plugin's pot limit on the built-in pot-limit's payments (R-POT-LIMIT's words)."""

    name = "my-limit"
    summary = "A bourré player pays at most 2 chips."
    builds_on = ("standard",)

    @hookimpl
    def bourre_penalty(self, table: TableSettings) -> PenaltyFn:
        return lambda pot: min(pot, 2)


class SuitOnly(Variant):
    """Follow suit if you can, else play anything: no obligation to trump or to beat
    (R-FOLLOW without R-TRUMP), in the hand's order."""

    name = "suit-only"
    summary = "Follow suit if you can; otherwise play any card."
    builds_on = ("standard",)

    @hookimpl
    def bourre_follow(self, table: TableSettings) -> Any:
        from bourre.rules import Reason, Ruling

        class Follow:
            def legal(self, hand: tuple[int, ...], trick: tuple[int, ...], trump: int) -> Ruling:
                suited = tuple(c for c in hand if trick and c // 13 == trick[0] // 13)
                return Ruling(suited or hand, Reason("R-FOLLOW", "follow suit if you can"))

        return Follow()


class LowWins(Variant):
    """The lowest trump wins a trumped trick, else the lowest card of the led suit
    (R-TRICK turned over)."""

    name = "low-wins"
    summary = "The lowest card wins."
    builds_on = ("standard",)

    @hookimpl
    def bourre_trick_winner(self, table: TableSettings) -> Any:
        def winner(trick: tuple[int, ...], trump: int) -> int:
            suit = trump if any(c // 13 == trump for c in trick) else trick[0] // 13
            return min(range(len(trick)), key=lambda i: (trick[i] // 13 != suit, trick[i]))

        return winner


def _registry(*extra: type[Variant]) -> Any:
    mods = [("split-pot", split_pot())]
    mods += [(cls.name, plugin(cls.name, cls)) for cls in extra]
    return load_registry(extra=mods)


REGISTRY = _registry(PotPlusOne, HalfPot, ThirdsBack, MyLimit, SuitOnly, Backwards, LowWins)


def house(spec: str) -> House:
    return House(spec, registry=REGISTRY)


HOUSES = [
    "standard+split-pot",
    "split-pot+double-ante+table(players=3,hands=20)",
    "split-pot(min_tricks=2)+four-card+table(players=7)",
    "split-pot+simultaneous-reveal+table(ante=1/2,balance=7/3)",
    "split-pot+pot-limit(limit=3)+table(players=8)",
    "standard+pot-plus-one",
    "pot-plus-one+optional-undertrump+table(players=4,hands=30)",
    "pot-plus-one+no-cinch+table(players=6,ante=2/3)",
    "my-limit+double-ante",
    "standard+suit-only",
    "suit-only+split-pot+table(players=3)",
    "suit-only+double-ante+no-cinch+table(players=8)",
    "suit-only+four-card+simultaneous-reveal+table(players=6)",
]


# -- what the kernel plays, and what goes through Python -------------------------------


def test_the_hooks_through_python_are_named_and_the_rest_is_refused_as_before() -> None:
    assert kernel.python_hooks(house("standard+split-pot")) == ("split-pot (bourre_payout)",)
    assert kernel.python_hooks(house("pot-plus-one")) == ("pot-plus-one (bourre_penalty)",)
    assert kernel.python_hooks(House("standard")) == ()
    h = house("standard+split-pot")
    assert kernel.can_play(h, "heuristic", hooks=True) is None
    # the solver, the worlds, their rollouts and the equilibrium chart ask it
    # (test_solver_plugin_money.py); a use that asks no plugin: refused
    assert kernel.can_play(h, "heuristic", hooks=hooks.MONEY_HOOKS) is None
    why = kernel.can_play(h, "heuristic")
    assert why is not None and "split-pot (bourre_payout)" in why
    assert kernel._plan(h, "random").scale == 840  # type: ignore[union-attr]

    class Deal(Variant):  # (a hook the kernel does not ask through Python)
        name = "any-deal"
        builds_on = ("standard",)

        @hookimpl
        def bourre_deal(self, table: TableSettings, hand_size: int) -> Any:
            from bourre_variants.standard.deal import StandardDeal

            return StandardDeal(hand_size)

    other = House("standard+any-deal", registry=_registry(Deal))
    why = kernel.can_play(other, "random", hooks=True)
    assert why is not None and "'any-deal'" in why and "bourre_deal" in why
    assert type(Game(other).new_session(seed=1)) is State  # auto: the Python rules
    # a plugin's follow rule: whole sessions and the stepped state on the kernel
    h = house("standard+suit-only")
    assert kernel.python_hooks(h) == ("suit-only (bourre_follow)",)
    assert kernel.can_play(h, "random", hooks=True) is None
    assert kernel._plan(h, "random").scale == 1  # type: ignore[union-attr]
    assert type(Game(h).new_session(seed=1)) is KernelState


# -- whole sessions: simulate's and compare's ------------------------------------------


@pytest.mark.parametrize("spec", HOUSES)
def test_sessions_are_the_python_rules_sessions(spec: str) -> None:
    same_sessions(house(spec), random_seeds=12, bot_seeds=6)


@pytest.mark.parametrize(
    "spec",
    [
        "standard+low-wins",
        "low-wins+split-pot+suit-only+table(players=3)",
        "low-wins+double-ante+four-card+table(players=8,hands=20)",
    ],
)
def test_a_plugins_trick_winner_with_random_and_heuristic_bots(spec: str) -> None:
    """The trick winner is asked for every trick; the heuristic bot asks the house's
    trick winner whether each card it weighs would win (R-TRICK: the kernel's heuristic
    asks the plugin there too, bots.cpp), so the kernel seats it: the same sessions."""
    h = house(spec)
    assert "low-wins (bourre_trick_winner)" in kernel.python_hooks(h)
    assert kernel.can_play(h, "heuristic", hooks=True) is None
    for seed in range(12):
        k = kernel.play_session(h, seed, "random")
        p = play_session(h, seed, keep_hands=False)
        assert (k.engine, (k.final, k.ranks)) == ("kernel", (p.final, p.ranks)), (spec, seed)
    for seed in range(4):
        k = kernel.play_session(h, seed, "heuristic")
        p = python_session(h, seed, "heuristic")
        assert (k.engine, (k.final, k.ranks)) == ("kernel", (p.final, p.ranks)), (spec, seed)
    for seed in (0, None):
        k = Game(h).new_session(seed)
        p = Game(h, engine="python").new_session(seed)
        assert isinstance(k, KernelState)
        _drive(k, p, random.Random(f"{spec}:{seed}"), f"{spec}, seed {seed}")


@pytest.mark.parametrize("spec", [HOUSES[0], HOUSES[3], HOUSES[5]])
def test_compare_sessions_are_summarised_alike(spec: str) -> None:
    """``bourre compare``'s summary of a session (every hand's pot, who played, who was
    bourré, whether the pot carried, the money by seat) is the same on both engines."""
    same_summaries(house(spec))


def test_an_amount_the_kernel_cannot_hold_hands_the_session_to_the_python_rules(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Ninths and halves of halves are not whole numbers of the kernel's units: never
    rounded, the session is the Python rules' (the same final money); so is a legal set
    not in the hand's order."""
    handed: list[object] = []
    real = kernel._python

    def spy(h: House, seed: int | str, plan: Any) -> Any:
        handed.append(seed)
        return real(h, seed, plan)

    monkeypatch.setattr(kernel, "_python", spy)
    for spec in ("thirds-back", "half-pot+table(hands=40)", "backwards"):
        h = house(spec)
        handed.clear()
        for seed in range(8):
            k = kernel.play_session(h, seed, "random")
            p = play_session(h, seed, keep_hands=False)
            assert (k.final, k.ranks) == (p.final, p.ranks), (spec, seed)
        assert handed, spec  # some sessions left the kernel's units


def test_the_plugin_is_called_as_often_and_with_the_same_results(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With ``hooks.REMEMBER`` off the kernel calls the plugin's payout once a hand, with
    the result the Python rules give it (the pot at stake, who played, the tricks), in
    the same order; on (the default) once for each different result, the first time it
    is met, and the sessions are the same."""
    seen: list[tuple[Any, ...]] = []

    class Spy(Variant):
        name = "spy"
        builds_on = ("standard",)

        @hookimpl
        def bourre_payout(self, table: TableSettings) -> Any:
            def payout(result: PlayResult, penalty: PenaltyFn) -> HandOutcome:
                seen.append((result.pot_at_stake, tuple(result.active), tuple(result.tricks_won)))
                return standard_payout(result, penalty)

            return payout

    for remember in (False, True):
        monkeypatch.setattr(hooks, "REMEMBER", remember)
        h = House("spy+table(players=3,ante=1/3,hands=40)", registry=_registry(Spy))
        on_python: list[tuple[Any, ...]] = []
        asked: list[tuple[Any, ...]] = []
        for seed in range(3):
            seen.clear()
            k = kernel.play_session(h, seed, "heuristic")
            on_kernel = list(seen)
            seen.clear()
            p = python_session(h, seed, "heuristic")
            assert (k.final, k.ranks) == (p.final, p.ranks)
            on_python += seen
            asked += on_kernel
            if not remember:
                assert on_kernel == seen and len(seen) == h.table.hands
            else:
                assert set(on_kernel) <= set(seen)
        if remember:  # over the three sessions: each different result asked once
            assert sorted(asked) == sorted(set(on_python)) and len(asked) < len(on_python)


# -- the stepped state ---------------------------------------------------------------------


def _drive(k: Any, p: State, rng: random.Random, where: str) -> None:
    while not p.is_terminal():
        assert k.balances == p.balances and k.pot == p.pot, where
        same_step(k, p, rng)
        for s in range(p.n):
            assert k.observation(s) == p.observation(s), where
    assert k.returns() == p.returns(), where
    assert k.final == p.final and k.history() == p.history(), where
    assert [r.outcome for r in k.results] == [r.outcome for r in p.results], where


@pytest.mark.parametrize("spec", [*HOUSES[:6], "thirds-back+table(hands=4)", "my-limit"])
def test_the_stepped_state_is_the_python_state(spec: str) -> None:
    h = house(spec)
    for seed in (0, 1, None):
        k = Game(h, engine="kernel").new_session(seed)
        p = Game(h, engine="python").new_session(seed)
        assert isinstance(k, KernelState) and type(p) is State
        _drive(k, p, random.Random(f"{spec}:{seed}"), f"{spec}, seed {seed}")
        c = k.clone()  # a clone shares the plugin's component
        assert c.is_terminal() and c.returns() == k.returns()


class Rotten(Variant):
    """The standard obligations, given in the hand's order while a trick is young, highest
    first for the third card on (the kernel hands over then), and an error from a
    plugin's bug once a hand is down to two cards (R-FOLLOW: a hostile follow rule)."""

    name = "rotten"
    summary = "The standard obligations, out of order late in a trick, and a bug at the end."
    builds_on = ("standard",)

    @hookimpl
    def bourre_follow(self, table: TableSettings) -> Any:
        from bourre.rules import Ruling
        from bourre_variants.standard.obligations import follow

        class Follow:
            def legal(self, hand: tuple[int, ...], trick: tuple[int, ...], trump: int) -> Ruling:
                if len(hand) == 2 and trick:
                    raise KeyError("the plugin's own bug")
                r = follow(hand, trick, trump)
                return Ruling(tuple(reversed(r.cards)) if len(trick) >= 2 else r.cards, r.reason)

        return Follow()


STEPPED_FOLLOW = [
    ("standard+suit-only", False),
    ("suit-only+split-pot+double-ante+table(players=3)", False),
    ("suit-only+four-card+simultaneous-reveal+no-cinch+table(players=6)", False),
    ("suit-only+low-wins+pot-plus-one+table(players=4)", False),
    ("standard+low-wins", False),
    ("standard+backwards", True),
    ("backwards+double-ante+split-pot+table(players=7,hands=6)", True),
]


def _step_alike(k: Any, p: State, rng: random.Random, where: str) -> None:
    """Every public method of the two states equal, step by step, to the end."""
    while not p.is_terminal():
        assert not k.is_terminal() and k.current_player() == p.current_player(), where
        assert k.phase_name == p.phase_name and k.number == p.number, where
        assert k.balances == p.balances and k.pot == p.pot, where
        if p.is_chance_node():
            assert k.is_chance_node() and k.chance_wants == p.chance_wants
            deck = list(range(52))
            rng.shuffle(deck)
            p.apply_chance(Deck(tuple(deck)))
            k.apply_chance(Deck(tuple(deck)))
            continue
        legal = list(p.legal_actions())
        assert list(k.legal_actions()) == legal, where  # in the Python order
        assert k.only_action() == p.only_action(), where
        if p.phase_name == "play":
            assert k.legal_with_reasons() == p.legal_with_reasons(), where
            assert k.legal_cards() == p.legal_cards(), where
            seat = p.current_player()
            for c in sorted(set(p.cards_of(seat)) - set(p.legal_cards()))[:1]:
                bad = Action("card", (c,))
                assert str(k.why_not(bad)) == str(p.why_not(bad)), where
                with pytest.raises(RuleViolation) as e:
                    k.apply_action(bad)
                assert str(e.value) == str(p.why_not(bad)), where
        for s in range(p.n):
            assert k.observation(s) == p.observation(s), where
        a = rng.choice(legal)
        if rng.random() < 0.1:  # a clone steps on alike, and leaves its original unchanged
            c = k.clone()
            c.apply_action(a)
            assert c.observation(p.current_player()) != k.observation(p.current_player())
        p.apply_action(a)
        k.apply_action(a)
        assert k.history() == p.history(), where
    assert k.is_terminal() and k.returns() == p.returns(), where
    assert k.final == p.final and k.history() == p.history(), where
    assert [r.outcome for r in k.results] == [r.outcome for r in p.results], where


@pytest.mark.parametrize(("spec", "hands_over"), STEPPED_FOLLOW)
def test_the_stepped_state_with_a_plugins_follow_rule_is_the_python_state(
    spec: str, hands_over: bool
) -> None:
    """A plugin's follow rule (R-FOLLOW …) or trick winner (R-TRICK) on the stepped
    kernel: the Python state's legal cards in its order, reasons, refusals,
    observations, money and history; an answer out of the hand's order hands the session
    to the Python rules, the state still equal."""
    h = house(spec)
    for seed in (0, 1, None):
        for keep in (True, False):
            k = Game(h, engine="kernel").new_session(seed, keep_results=keep)
            p = Game(h, engine="python").new_session(seed, keep_results=keep)
            assert isinstance(k, KernelState) and type(p) is State
            where = f"{spec}, seed {seed}, keep_results={keep}"
            _step_alike(k, p, random.Random(where), where)
            assert (type(k) is not KernelState) == hands_over, where
    # one hand from a given position (Game.new_hand: a pot in the middle, no settlement)
    k = Game(h, engine="kernel").new_hand(3, pot=7, dealer=1)
    p = Game(h, engine="python").new_hand(3, pot=7, dealer=1)
    assert isinstance(k, KernelState) and type(p) is State
    _step_alike(k, p, random.Random(spec), f"{spec}, one hand")


def _picker(name: str, ordered: bool) -> type[Variant]:
    """A follow rule whose legal cards are a formula's pick of the hand (none of the
    standard obligations: any subset the cinch then narrows), in the hand's order or
    in an order of its own (the kernel hands over then)."""

    class Pick(Variant):
        summary = "The cards a formula picks."
        builds_on = ("standard",)

        @hookimpl
        def bourre_follow(self, table: TableSettings) -> Any:
            from bourre.rules import Reason, Ruling

            class Follow:
                def legal(
                    self, hand: tuple[int, ...], trick: tuple[int, ...], trump: int
                ) -> Ruling:
                    salt = sum(trick) * 7 + trump * 3 + len(hand)
                    picked = [c for c in hand if (c * 31 + salt) % 5 < 3] or list(hand)
                    if not ordered:
                        picked.sort(key=lambda c: (c * 17 + salt) % 11)
                    return Ruling(tuple(picked), Reason("R-FOLLOW", "the formula's cards"))

            return Follow()

    Pick.name = name
    return Pick


@pytest.mark.parametrize(
    ("spec", "hands_over"),
    [
        ("standard+sorted-pick", False),
        ("sorted-pick+four-card+table(players=7)", False),
        ("mixed-pick+no-cinch+table(players=4)", True),
    ],
)
def test_any_legal_set_a_follow_rule_gives_plays_alike_on_both_engines(
    spec: str, hands_over: bool
) -> None:
    """R-FOLLOW … R-CINCH-LAST: whatever cards a plugin's follow rule allows, the
    kernel's cinch narrows them as the Python rules' legal_play does, in whole sessions
    (random and heuristic bots) and the stepped state, step by step."""
    picks = [
        (n, plugin(n, _picker(n, o))) for n, o in (("sorted-pick", True), ("mixed-pick", False))
    ]
    h = House(spec, registry=load_registry(extra=picks))
    for seed in range(3):
        for keep in (True, False):
            k = Game(h, engine="kernel").new_session(seed, keep_results=keep)
            p = Game(h, engine="python").new_session(seed, keep_results=keep)
            assert isinstance(k, KernelState)
            where = f"{spec}, seed {seed}, keep_results={keep}"
            _step_alike(k, p, random.Random(where), where)
            assert (type(k) is not KernelState) == hands_over, where
        for bots in ("random", "heuristic"):
            got = kernel.play_session(h, seed, bots)
            want = python_session(h, seed, bots)
            assert (got.final, got.ranks) == (want.final, want.ranks), (spec, seed, bots)


def _answer(call: Any) -> object:
    try:
        return call()
    except PluginError as e:
        return ("raised", str(e))


def test_a_follow_rule_out_of_order_or_raising_hands_over_where_the_python_rules_ask() -> None:
    """A hostile follow rule on the stepped state: cards out of the hand's order (handed
    over, the Python order kept), then the plugin's bug raised by the same calls with the
    same words as on the Python rules (they ask it when the legal cards are read)."""
    h = House("standard+rotten", registry=_registry(Rotten))
    for seed in range(4):
        k = Game(h, engine="kernel").new_session(seed)
        p = Game(h, engine="python").new_session(seed)
        rng = random.Random(seed)
        raised = 0
        while not p.is_terminal() and raised < 3:
            got = [[_answer(s.legal_actions), _answer(partial(s.observation, 0)), s.history()]
                   for s in (k, p)]  # fmt: skip
            assert got[0] == got[1], seed
            legal = got[1][0]
            if isinstance(legal, tuple):  # (the bug: a card the rules still take, if legal)
                raised += 1
                assert "rotten" in legal[1] and "KeyError" in legal[1]
                assert type(k) is not KernelState  # handed over
                cards = p.cards_of(p.current_player())
                a = Action("card", (cards[0],))
                for s in (k, p):
                    with pytest.raises(PluginError):
                        s.apply_action(a)
                break
            a = rng.choice(list(legal))  # type: ignore[call-overload]
            p.apply_action(a)
            k.apply_action(a)
        assert raised == 1, seed


# -- the guards and a plugin's errors: exactly the Python rules' -----------------------------


def _liar(hook: str, component: Any) -> House:
    return liar(hook, component, _registry)


def _raises(hook: str) -> Any:
    def boom(*args: Any) -> Any:
        raise ZeroDivisionError("the plugin's own bug")

    return boom


def _creates_money(result: PlayResult, penalty: PenaltyFn) -> HandOutcome:
    out = standard_payout(result, penalty)
    return HandOutcome(out.winner, [x + 1 for x in out.takes], out.paid, out.pot_after, [], [])


def _floats(result: PlayResult, penalty: PenaltyFn) -> HandOutcome:
    out = standard_payout(result, penalty)
    return HandOutcome(out.winner, [float(x) for x in out.takes], out.paid, out.pot_after, [], [])


def _late_liar() -> Any:
    """Honest for three hands, then creates money (the guard catches it mid-session)."""
    calls = [0]

    def payout(result: PlayResult, penalty: PenaltyFn) -> HandOutcome:
        calls[0] += 1
        return (
            _creates_money(result, penalty)
            if calls[0] % 4 == 0
            else standard_payout(result, penalty)
        )

    return payout


@pytest.mark.parametrize(
    ("hook", "component", "words"),
    [
        ("bourre_payout", _raises("payout"), "raised ZeroDivisionError"),
        ("bourre_penalty", _raises("penalty"), "raised ZeroDivisionError"),
        ("bourre_payout", _creates_money, "money not conserved"),
        ("bourre_payout", _floats, "whole or exact fractions"),
        ("bourre_payout", lambda r, p: None, "must answer a HandOutcome"),
        ("bourre_penalty", lambda p: -1, "amount ≥ 0"),
        ("bourre_penalty", lambda p: 0.5, "amount ≥ 0"),
        ("bourre_payout", "late", "money not conserved"),
        ("bourre_follow", SimpleNamespace(legal=lambda h, t, tr: ()), "non-empty tuple within"),
        ("bourre_follow", SimpleNamespace(legal=_raises("follow")), "raised ZeroDivisionError"),
        ("bourre_trick_winner", lambda trick, trump: len(trick), "an index of the trick"),
        ("bourre_trick_winner", _raises("winner"), "raised ZeroDivisionError"),
    ],
)
def test_the_guards_refuse_exactly_as_on_the_python_rules(
    hook: str, component: Any, words: str
) -> None:
    errors: list[str] = []
    # (the heuristic bot asks a plugin's trick winner too, whether a card would win: the
    # first card it weighs, on both engines)
    bots = "heuristic"
    for engine in ("kernel", "python"):
        h = _liar(hook, _late_liar() if component == "late" else component)
        assert kernel.python_hooks(h) == (f"liar ({hook})",)
        with pytest.raises(PluginError, match=words) as e:
            if engine == "kernel":
                kernel.play_session(h, 3, bots)
            else:
                python_session(h, 3, bots)
        assert (e.value.plugin, e.value.hook) == ("liar", hook)
        errors.append(str(e.value))
        with pytest.raises(PluginError, match=words) as e:  # the stepped state too
            state = Game(_liar(hook, _late_liar() if component == "late" else component),
                         engine=engine).new_session(3)  # fmt: skip
            play_randomly(state, 3)
        errors.append(str(e.value))
    assert errors[0] == errors[2] and errors[1] == errors[3]


# -- what the extension is given: checked, never trusted (issue 42) ------------------------


@pytest.mark.parametrize(
    ("spec", "key", "hook", "expect"),
    [
        ("standard+split-pot", "money_hook", lambda p, a, w: "x", ValueError),
        ("standard+split-pot", "money_hook", lambda p, a, w: (0, 0), ValueError),
        (
            "standard+split-pot",
            "money_hook",
            lambda p, a, w: (9, 0, 0, 0, 0, 0, *[0] * 5),
            ValueError,
        ),
        (
            "standard+split-pot",
            "money_hook",
            lambda p, a, w: (-1, 0, 0, 64, 0, 0, *[0] * 5),
            ValueError,
        ),
        (
            "standard+split-pot",
            "money_hook",
            lambda p, a, w: (-1, 0, 0, 0, 0, "0", *[0] * 5),
            ValueError,
        ),
        (
            "standard+split-pot",
            "money_hook",
            lambda p, a, w: (-1, 1, 0, 0, 0, 2**70, *[0] * 5),
            "handed",
        ),
        ("standard+split-pot", "money_hook", lambda p, a, w: None, "handed"),
        ("standard+split-pot", "money_hook", lambda p, a, w: 1 // 0, ZeroDivisionError),
        ("standard+split-pot", "money_hook", 7, ValueError),
        ("standard+pot-plus-one", "penalty_hook", lambda p: "1", ValueError),
        ("standard+pot-plus-one", "penalty_hook", lambda p: -5, ValueError),
        ("standard+pot-plus-one", "penalty_hook", lambda p: 2**64, "handed"),
        ("standard+suit-only", "follow_hook", lambda h, t, tr: 0, ValueError),
        ("standard+suit-only", "follow_hook", lambda h, t, tr: 1 << 52, ValueError),
        ("standard+suit-only", "follow_hook", lambda h, t, tr: 2.5, ValueError),
        ("standard+suit-only", "follow_hook", lambda h, t, tr: None, "handed"),
        ("standard+low-wins", "winner_hook", lambda t, tr: 5, ValueError),
        ("standard+low-wins", "winner_hook", lambda t, tr: None, ValueError),
        ("standard+low-wins", "winner_hook", lambda t, tr: -1, ValueError),
    ],
)
def test_a_hooks_answer_is_checked_by_the_extension(
    spec: str, key: str, hook: Any, expect: Any
) -> None:
    """The extension refuses a hook's answer of the wrong shape with an exception, and
    hands to the Python rules (a status, not a result) what it does not hold."""
    extension_checks(*facts_with(house(spec), **{key: hook}), expect)


# -- advice's deals (the chart, advise): a plugin's money rule asked through Python -------


def test_advice_deals_accept_a_money_rule_only() -> None:
    """``can_play(..., hooks=MONEY_HOOKS)``: what the kernel's advice batches ask
    (the solver's sampled worlds, bourre.advice.weigh): a penalty or a payout; a follow
    rule or a trick winner is named and left to the Python rules."""
    from bourre.kernel.hooks import MONEY_HOOKS

    for spec in ("standard+split-pot", "pot-plus-one+double-ante", "my-limit"):
        assert kernel.can_play(house(spec), hooks=MONEY_HOOKS) is None, spec
    for spec, hook in (
        ("standard+suit-only", "suit-only (bourre_follow)"),
        ("suit-only+split-pot", "suit-only (bourre_follow)"),
        ("standard+low-wins", "low-wins (bourre_trick_winner)"),
    ):
        why = kernel.can_play(house(spec), hooks=MONEY_HOOKS)
        assert why is not None and hook in why and "split-pot" not in why, spec
        assert "bourre_penalty or bourre_payout" in why, why
    assert kernel.can_play(House("standard"), hooks=MONEY_HOOKS) is None


def _advice_call(facts: dict[str, Any]) -> tuple[list[int], list[float]]:
    hand = [15, 17, 29, 31, 44]  # (a weak hand, no trump: the upcard 1, a spade)
    got: tuple[list[int], list[float]] = _kernel.advice_rows(
        facts, 1, 0, 5 * facts["scale"], [], [hand] * 12, [1] * 12, list(range(1, 49)),
        [[[], hand[:1]]] * 12, True,
    )  # fmt: skip
    return got


def test_advice_rows_ask_the_plugins_payout_and_penalty() -> None:
    """The extension's advice batch calls the money hooks it is given (the GIL held:
    advice_rows releases it nowhere) and reads their answers into the rows."""
    calls: list[int] = []
    facts, _ = facts_with(house("standard+pot-plus-one"))
    real = facts["penalty_hook"]

    def counted(pot: int) -> Any:
        calls.append(pot)
        return real(pot)

    base = _advice_call(facts_with(house("standard"))[0])
    plus = _advice_call({**facts, "penalty_hook": counted})
    assert calls and base[0] == plus[0] == [0] * 12
    bourre = [i for i in range(0, len(plus[1]), 3) if plus[1][i + 1]]
    assert bourre  # a bourré option: paid the pot plus one, not the pot
    assert all(plus[1][i + 2] == base[1][i + 2] - 1 for i in bourre)


def test_advice_rows_mark_a_deal_whose_money_the_kernel_does_not_hold() -> None:
    """A hook's answer the kernel will not hold (``None``: not a whole number of its
    units) marks the deal, status 4, never a row read from an unfinished payout."""
    assert _kernel.ADVICE_UNHELD == 4
    for key, hook in (("money_hook", lambda p, a, w: None), ("penalty_hook", lambda p: None)):
        spec = "standard+split-pot" if key == "money_hook" else "standard+pot-plus-one"
        facts, _ = facts_with(house(spec), **{key: hook})
        status, _ = _advice_call(facts)
        assert 4 in status, key
