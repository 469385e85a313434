"""A plugin's lead (R-LEAD) and cinch (R-SURE … R-CINCH-LAST) on the compiled kernel
(issue 41, "open to plugins"): a house whose third-party variant answers ``bourre_lead``
or ``bourre_cinch`` plays on the kernel for every built-in rule, the kernel asking the
plugin's checked component through Python at every trick's start (the lead) or for
every card (the cinch: the built-in cinch's shortcut, no cinch before three tricks
could be sure, is not the plugin's).  The result is the Python rules' hand for hand:
whole sessions (``simulate``'s and ``compare``'s), the stepped state, the plugin asked
the same questions in the same order, the guards' refusals and a plugin's own errors.
Skipped, with the reason, when the extension is not built.
"""

from __future__ import annotations

import random
from fractions import Fraction
from types import SimpleNamespace
from typing import Any

import pytest
from conftest import plugin
from hookkit import (
    boom,
    extension_checks,
    facts_with,
    liar,
    play_randomly,
    python_session,
    same_sessions,
    same_step,
    same_summaries,
)
from widdershins import Widdershins

from bourre import kernel
from bourre.game import Game
from bourre.game.simulate import play_session
from bourre.game.state import State
from bourre.houses.house import House
from bourre.rules import Ruling
from bourre.rules.hookspec import PluginError
from bourre.rules.plugins import load_registry
from bourre.rules.settings import TableSettings
from bourre.rules.variant import Variant, hookimpl
from bourre.sim.speed.forecast import _asked
from bourre_variants.standard.cinch import StandardCinch, sure_tricks
from tests.kernel.test_plugin_hooks import LowWins, SuitOnly, split_pot

_kernel = pytest.importorskip(
    "bourre.kernel._kernel",
    reason="the compiled kernel is not built (BOURRE_NO_KERNEL=1, or no C++ compiler)",
)

from bourre.kernel.state import KernelState  # noqa: E402  (the extension is built)


def _clockwise(active: tuple[int, ...], dealer: int, n: int) -> list[int]:
    return sorted(active, key=lambda s: (s - dealer - 1) % n)


class LeftOfWinner(Variant):
    """The winner's left-hand neighbour among the players leads the next trick (R-LEAD
    changed: the first trick as the standard's)."""

    name = "left-of-winner"
    summary = "The winner's left-hand neighbour leads the next trick."
    builds_on = ("standard",)

    @hookimpl
    def bourre_lead(self, table: TableSettings) -> Any:
        n = table.players

        def lead(active: tuple[int, ...], dealer: int, winner: int | None) -> tuple[int, ...]:
            order = _clockwise(active, dealer, n)
            i = 0 if winner is None else (order.index(winner) + 1) % len(order)
            return tuple(order[i:] + order[:i])

        return lead


class DealerLast(Variant):
    """The dealer (or the last player before the dealer's left) leads every trick, the
    others follow anticlockwise (an order no rotation of the players gives)."""

    name = "dealer-last"
    summary = "The last player leads every trick, the others follow anticlockwise."
    builds_on = ("standard",)

    @hookimpl
    def bourre_lead(self, table: TableSettings) -> Any:
        n = table.players

        def lead(active: tuple[int, ...], dealer: int, winner: int | None) -> tuple[int, ...]:
            return tuple(reversed(_clockwise(active, dealer, n)))

        return lead


class CinchFour(Variant):
    """A cinch needs four sure tricks (R-SURE changed; the same obligations)."""

    name = "cinch-four"
    summary = "A cinch is four sure tricks."
    builds_on = ("standard",)

    @hookimpl
    def bourre_cinch(self, table: TableSettings) -> Any:
        class Four(StandardCinch):
            def has_cinch(
                self, hand: tuple[int, ...], trump: int, known: frozenset[int], won: int
            ) -> bool:
                return sure_tricks(hand, trump, known, won) >= 4

        return Four()


class LowCinch(Variant):
    """With a cinch (three sure tricks), play your lowest allowed trump, if any."""

    name = "low-cinch"
    summary = "With a cinch, play your lowest allowed trump."
    builds_on = ("standard",)

    @hookimpl
    def bourre_cinch(self, table: TableSettings) -> Any:
        class Low(StandardCinch):
            def narrow(
                self,
                ruling: Ruling,
                hand: tuple[int, ...],
                trick: tuple[int, ...],
                trump: int,
                known: frozenset[int],
                last: bool,
            ) -> Ruling:
                trumps = [c for c in ruling.cards if c // 13 == trump]
                if not trumps:
                    return ruling
                return Ruling((min(trumps),), ruling.reason)

        return Low()


class CinchBackwards(Variant):
    """The standard cinch, its cards given highest first: a random bot chooses among
    them in that order, which the kernel does not keep (the Python rules play on)."""

    name = "cinch-backwards"
    summary = "The standard cinch, highest card first."
    builds_on = ("standard",)

    @hookimpl
    def bourre_cinch(self, table: TableSettings) -> Any:
        class Backwards(StandardCinch):
            def has_cinch(
                self, hand: tuple[int, ...], trump: int, known: frozenset[int], won: int
            ) -> bool:
                return sure_tricks(hand, trump, known, won) >= 2

            def narrow(self, ruling: Ruling, *args: Any) -> Ruling:
                r = super().narrow(ruling, *args)
                return Ruling(tuple(reversed(r.cards)), r.reason)

        return Backwards()


PLUGINS: tuple[type[Variant], ...] = (
    LeftOfWinner, DealerLast, Widdershins, CinchFour, LowCinch, CinchBackwards, SuitOnly,
    LowWins,
)  # fmt: skip


def _registry(*extra: type[Variant]) -> Any:
    mods = [("split-pot", split_pot())]
    mods += [(cls.name, plugin(cls.name, cls)) for cls in extra]
    return load_registry(extra=mods)


REGISTRY = _registry(*PLUGINS)


def house(spec: str) -> House:
    return House(spec, registry=REGISTRY)


LEAD_HOUSES = [
    "standard+left-of-winner",
    "left-of-winner+double-ante+table(players=3,hands=20)",
    "dealer-last+four-card+table(players=7)",
    "widdershins+simultaneous-reveal+split-pot+table(players=4)",
    "dealer-last+no-cinch+optional-undertrump+table(players=8)",
]
CINCH_HOUSES = [
    "standard+cinch-four",
    "low-cinch+optional-undertrump+table(players=4,hands=30)",
    "cinch-four+pot-limit(limit=3)+table(players=8)",
    "low-cinch+four-card+table(players=2,hands=30)",
    "low-cinch+left-of-winner+simultaneous-reveal+table(players=6)",
    "low-cinch+suit-only+table(players=3,hands=30)",
]
HOUSES = LEAD_HOUSES + CINCH_HOUSES


def _bots(h: House, bots: str) -> str:
    """``bots`` for the house's table: a list cut to its players."""
    return bots if "," not in bots else ",".join(bots.split(",")[: h.table.players])


# -- what the kernel plays, and what goes through Python -------------------------------


def test_the_lead_and_the_cinch_are_asked_through_python() -> None:
    h = house("standard+left-of-winner")
    assert kernel.python_hooks(h) == ("left-of-winner (bourre_lead)",)
    assert kernel.can_play(h, "heuristic", hooks=True) is None
    h = house("standard+cinch-four")
    assert kernel.python_hooks(h) == ("cinch-four (bourre_cinch)",)
    assert kernel.can_play(h, "heuristic", hooks=True) is None
    assert kernel._plan(h, "random").scale == 1  # type: ignore[union-attr]
    both = house("low-cinch+suit-only+left-of-winner")
    assert set(kernel.python_hooks(both)) == {
        "left-of-winner (bourre_lead)",
        "suit-only (bourre_follow)",
        "low-cinch (bourre_cinch)",
    }
    assert "for every trick" in _asked(kernel.python_hooks(house("widdershins")))
    assert "for every card" in _asked(kernel.python_hooks(h))
    for spec in ("standard+left-of-winner", "standard+cinch-four"):
        # the solver, rollouts and sampled worlds play the built-in rules of the play only
        why = kernel.can_play(house(spec), "heuristic")
        assert why is not None and spec.split("+")[1] in why
        # the stepped state is the kernel's
        assert isinstance(Game(house(spec)).new_session(seed=1), KernelState)


# -- whole sessions: simulate's and compare's ------------------------------------------


@pytest.mark.parametrize("spec", HOUSES)
def test_sessions_are_the_python_rules_sessions(spec: str) -> None:
    h = house(spec)
    assert kernel.can_play(h, "random", hooks=True) is None
    same_sessions(
        h, bots=(_bots(h, "random,heuristic,heuristic,random,random,heuristic,random,random"),)
    )


@pytest.mark.parametrize("spec", [HOUSES[0], HOUSES[3], CINCH_HOUSES[0], CINCH_HOUSES[1]])
def test_compare_sessions_are_summarised_alike(spec: str) -> None:
    """``bourre compare``'s summary of a session (every hand's pot, who played, who was
    bourré, the money by seat, the cards played with a cinch) is the same on both
    engines."""
    cinch = sum(k["cinch"] for k in same_summaries(house(spec)))
    assert cinch > 0  # (cards were played with a cinch: the plugin's, when it is one)


def test_a_cinch_out_of_the_hands_order_hands_the_session_to_the_python_rules(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A cinch whose cards are not in the hand's order is never reordered: the kernel
    hands the session to the Python rules (the same final money)."""
    handed: list[object] = []
    real = kernel._python

    def spy(h: House, seed: int | str, plan: Any) -> Any:
        handed.append(seed)
        return real(h, seed, plan)

    monkeypatch.setattr(kernel, "_python", spy)
    h = house("cinch-backwards+table(players=3,hands=30)")
    for seed in range(6):
        k = kernel.play_session(h, seed, "random")
        p = play_session(h, seed, keep_hands=False)
        assert (k.final, k.ranks) == (p.final, p.ranks), seed
    assert handed  # some sessions met a cinch of several cards


SEEN: list[tuple[Any, ...]] = []
"""What the spy's lead and cinch were asked, in order."""


class Spy(Variant):
    """The standard lead and cinch, each call written down in :data:`SEEN`."""

    name = "spy"
    builds_on = ("standard",)

    @hookimpl
    def bourre_lead(self, table: TableSettings) -> Any:
        from bourre_variants.standard.lead import make_lead

        standard = make_lead(table.players)

        def lead(active: tuple[int, ...], dealer: int, winner: int | None) -> tuple[int, ...]:
            SEEN.append(("lead", active, dealer, winner))
            return standard(active, dealer, winner)

        return lead

    @hookimpl
    def bourre_cinch(self, table: TableSettings) -> Any:
        class Cinch(StandardCinch):
            def has_cinch(
                self, hand: tuple[int, ...], trump: int, known: frozenset[int], won: int
            ) -> bool:
                got = super().has_cinch(hand, trump, known, won)
                SEEN.append(("has", hand, trump, known, won, got))
                return got

            def narrow(self, ruling: Ruling, *args: Any) -> Ruling:
                SEEN.append(("narrow", ruling, *args))
                return super().narrow(ruling, *args)

        return Cinch()


@pytest.mark.parametrize("spec", ["spy", "spy+table(players=3,hands=20)", "spy+suit-only"])
def test_the_plugin_is_asked_the_same_questions_in_the_same_order(spec: str) -> None:
    """The lead at every trick's start (the last winner, none before the first), the
    cinch for every card (with the cards the player knows out, its tricks: even before
    three tricks could be sure), its narrow for a cinch (with the ordinary obligations'
    own ruling, a plugin's follow rule's too): the same calls, with the same arguments,
    in the same order on both engines."""
    h = House(spec, registry=_registry(Spy, SuitOnly))
    plain = House(spec.replace("spy", "standard"), registry=_registry(SuitOnly))
    kinds: set[str] = set()
    for seed in range(3):
        SEEN.clear()
        k = kernel.play_session(h, seed, "heuristic")
        on_kernel = list(SEEN)
        SEEN.clear()
        p = python_session(h, seed, "heuristic")
        assert on_kernel == SEEN, (spec, seed)
        assert k.final == p.final == kernel.play_session(plain, seed, "heuristic").final
        kinds |= {x[0] for x in on_kernel}
        # the first card of a hand is asked about too (won 0, whatever the trumps held)
        assert any(x[0] == "has" and x[4] == 0 and not x[5] for x in on_kernel)
    assert kinds == {"lead", "has", "narrow"}


def test_a_plugins_lead_told_a_plugins_trick_winner() -> None:
    """The lead is told the winner of the plugin's trick winner (random bots; the
    heuristic bot's, which asks the winner too: test_worlds_plugin_cards)."""
    h = house("left-of-winner+low-wins+table(players=4)")
    assert len(kernel.python_hooks(h)) == 2
    for seed in range(8):
        k = kernel.play_session(h, seed, "random")
        p = play_session(h, seed, keep_hands=False)
        assert (k.engine, (k.final, k.ranks)) == ("kernel", (p.final, p.ranks)), seed
    ks = Game(h).new_session(5)
    ps = Game(h, engine="python").new_session(5)
    assert isinstance(ks, KernelState) and isinstance(ps, State)
    _drive(ks, ps, random.Random(5), "left-of-winner+low-wins")


# -- the stepped state ---------------------------------------------------------------------


def _drive(k: Any, p: State, rng: random.Random, where: str) -> int:
    """Both states stepped alike, every seat's observation equal at every step; the
    number of the players' turns with a cinch."""
    cinch = 0
    while not p.is_terminal():
        assert k.balances == p.balances and k.pot == p.pot, where
        if not p.is_chance_node():
            assert list(k.legal_actions()) == list(p.legal_actions()), where
        same_step(k, p, rng)
        for s in range(p.n):
            o = k.observation(s)
            assert o == p.observation(s), where
            cinch += o.cinch
    assert k.returns() == p.returns(), where
    assert k.final == p.final and k.history() == p.history(), where
    assert [r.outcome for r in k.results] == [r.outcome for r in p.results], where
    return cinch


@pytest.mark.parametrize("spec", [h for h in HOUSES if "suit-only" not in h])
def test_the_stepped_state_is_the_python_state(spec: str) -> None:
    h = house(spec)
    cinch = 0
    for seed in (0, 1, None):
        k = Game(h, engine="kernel").new_session(seed)
        p = Game(h, engine="python").new_session(seed)
        assert isinstance(k, KernelState) and type(p) is State
        cinch += _drive(k, p, random.Random(f"{spec}:{seed}"), f"{spec}, seed {seed}")
        c = k.clone()  # a clone shares the plugin's component
        assert c.is_terminal() and c.returns() == k.returns()
    if spec in CINCH_HOUSES:
        assert cinch > 0, spec  # (turns with the plugin's cinch were compared)


def test_the_stepped_state_of_a_cinch_out_of_the_hands_order_is_the_python_state() -> None:
    """A cinch whose cards are not in the hand's order: the stepped state hands the
    session over to its Python twin (as for a follow rule's), so its legal cards are the
    Python rules', in their order."""
    h = house("cinch-backwards+table(players=3,hands=30)")
    for seed in range(3):
        k = Game(h).new_session(seed)
        p = Game(h, engine="python").new_session(seed)
        _drive(k, p, random.Random(seed), f"seed {seed}")


# -- the guards and a plugin's errors: exactly the Python rules' -----------------------------


def _liar(hook: str, component: Any) -> House:
    return liar(hook, component, _registry)


def _late_lead() -> Any:
    """Honest for forty tricks, then names a seat twice (the guard catches it mid-session)."""
    calls = [0]

    def lead(active: tuple[int, ...], dealer: int, winner: int | None) -> tuple[int, ...]:
        calls[0] += 1
        order = _clockwise(active, dealer, 5)
        i = 0 if winner is None else order.index(winner)
        got = tuple(order[i:] + order[:i])
        return got if calls[0] % 40 else (got[0], *got[:-1])

    return lead


def _late_cinch() -> Any:
    """Honest for a hundred cards, then answers a word (the guard catches it)."""
    calls = [0]
    standard = StandardCinch()

    def has_cinch(hand: tuple[int, ...], trump: int, known: frozenset[int], won: int) -> Any:
        calls[0] += 1
        return standard.has_cinch(hand, trump, known, won) if calls[0] % 100 else "yes"

    return SimpleNamespace(has_cinch=has_cinch, narrow=standard.narrow)


_ALWAYS = lambda *a: True  # noqa: E731


@pytest.mark.parametrize(
    ("hook", "component", "words"),
    [
        ("bourre_lead", boom, "raised ZeroDivisionError"),
        ("bourre_lead", lambda a, d, w: a[:-1], "active seats"),
        ("bourre_lead", lambda a, d, w: list(a), "active seats"),
        ("bourre_lead", lambda a, d, w: tuple(float(s) for s in a), "active seats"),
        ("bourre_lead", "late", "active seats"),
        ("bourre_cinch", SimpleNamespace(has_cinch=boom, narrow=boom), "raised ZeroDivision"),
        ("bourre_cinch", SimpleNamespace(has_cinch=lambda *a: 1, narrow=boom), "True or False"),
        ("bourre_cinch", SimpleNamespace(has_cinch=_ALWAYS, narrow=boom), "raised ZeroDivision"),
        (
            "bourre_cinch",
            SimpleNamespace(has_cinch=_ALWAYS, narrow=lambda r, *a: Ruling((52,), r.reason)),
            "within the ordinary legal cards",
        ),
        (
            "bourre_cinch",
            SimpleNamespace(has_cinch=_ALWAYS, narrow=lambda r, *a: r.cards),
            "within the ordinary legal cards",
        ),
        ("bourre_cinch", "late", "True or False"),
    ],
)
def test_the_guards_refuse_exactly_as_on_the_python_rules(
    hook: str, component: Any, words: str
) -> None:
    def made() -> House:
        if component == "late":
            return _liar(hook, _late_lead() if hook == "bourre_lead" else _late_cinch())
        return _liar(hook, component)

    errors: list[str] = []
    for engine in ("kernel", "python"):
        h = made()
        assert kernel.python_hooks(h) == (f"liar ({hook})",)
        with pytest.raises(PluginError, match=words) as e:
            if engine == "kernel":
                kernel.play_session(h, 3, "heuristic")
            else:
                python_session(h, 3, "heuristic")
        assert (e.value.plugin, e.value.hook) == ("liar", hook)
        errors.append(str(e.value))
        with pytest.raises(PluginError, match=words) as e:  # the stepped state too
            state = Game(made(), engine=engine).new_session(3)
            assert isinstance(state, KernelState if engine == "kernel" else State)
            play_randomly(state, 3)
        errors.append(str(e.value))
    assert errors[0] == errors[2] and errors[1] == errors[3]


# -- what the extension is given: checked, never trusted (issue 42) ------------------------


@pytest.mark.parametrize(
    ("spec", "key", "hook", "expect"),
    [
        ("standard+left-of-winner", "lead_hook", lambda a, d, w: (a[0],), ValueError),
        ("standard+left-of-winner", "lead_hook", lambda a, d, w: a[:1] * len(a), ValueError),
        ("standard+left-of-winner", "lead_hook", lambda a, d, w: list(a), ValueError),
        ("standard+left-of-winner", "lead_hook", lambda a, d, w: (*a[1:], 9), ValueError),
        ("standard+left-of-winner", "lead_hook", lambda a, d, w: (*a[1:], -1), ValueError),
        ("standard+left-of-winner", "lead_hook", lambda a, d, w: (*a[1:], 2**70), ValueError),
        ("standard+left-of-winner", "lead_hook", lambda a, d, w: None, ValueError),
        ("standard+left-of-winner", "lead_hook", lambda a, d, w: 1 // 0, ZeroDivisionError),
        ("standard+left-of-winner", "lead_hook", 7, ValueError),
        ("standard+cinch-four", "cinch_hook", lambda *a: -1, ValueError),
        ("standard+cinch-four", "cinch_hook", lambda *a: 1 << 52, ValueError),
        ("standard+cinch-four", "cinch_hook", lambda *a: 2**70, ValueError),
        ("standard+cinch-four", "cinch_hook", lambda *a: "0", ValueError),
        ("standard+cinch-four", "cinch_hook", lambda *a: 0.0, ValueError),
        ("standard+cinch-four", "cinch_hook", lambda *a: None, "handed"),
        ("standard+cinch-four", "cinch_hook", lambda *a: 1 // 0, ZeroDivisionError),
        ("standard+cinch-four", "cinch_hook", "x", ValueError),
    ],
)
def test_a_hooks_answer_is_checked_by_the_extension(
    spec: str, key: str, hook: Any, expect: Any
) -> None:
    """The extension refuses a hook's answer of the wrong shape with an exception, and
    hands to the Python rules (a status, not a result) what it does not hold."""
    extension_checks(*facts_with(house(spec), **{key: hook}), expect)


def test_the_extension_takes_a_cinch_hooks_answers_as_the_legal_cards() -> None:
    """A cinch hook that always answers the ordinary cards as a cinch plays the standard
    obligations with every card counted as played with a cinch; one that answers 0 plays
    as ``no-cinch``."""
    facts, bots = facts_with(house("standard+cinch-four"))
    calls: list[tuple[Any, ...]] = []

    def every(*a: Any) -> int:
        calls.append(a)
        return int(a[6])

    seeds = [str(s) for s in range(4)]
    no = _kernel.play_shared({**facts, "cinch_hook": lambda *a: 0}, bots, seeds, Fraction, False)
    plain, _ = facts_with(house("standard+no-cinch"))
    assert no == _kernel.play_shared(plain, bots, seeds, Fraction, False)
    _kernel.play_shared({**facts, "cinch_hook": every}, bots, seeds[:1], Fraction, False)
    hand, trick, trump, known, won, last, ordinary = calls[0]
    assert type(hand) is tuple and hand == tuple(sorted(hand)) and trick == ()
    assert type(known) is frozenset and known <= set(range(52)) and won == 0
    assert last is False and ordinary == sum(1 << c for c in hand)  # (a lead: any card)
    assert 0 <= trump < 4
