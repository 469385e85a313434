"""A plugin's per-hand rules on the compiled kernel (issue 41, "open to plugins", the
per-hand hooks): a house whose ante (R-FIRST-POT, R-ANTE, R-DOUBLE-ANTE's kind), next
dealer (R-DEALER) or settlement (R-SETTLE) is a plugin's is played by the kernel for
every built-in rule, the plugin's checked component called through Python once a hand
(:mod:`bourre.kernel.hooks`); a plugin's hand size (R-DEAL-SIZE) of 1 to 5 cards is
dealt by the kernel itself, no call.  The result is the Python rules' hand for hand:
whole sessions (``simulate``'s and ``compare``'s), the stepped state
(``Game(house, engine="kernel")``, its twin resumed at a hand's start too), the
``previous`` outcome and the marks each call is given, the guards' refusals and a
plugin's own errors.  Skipped, with the reason, when the extension is not built.
"""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

import pytest
from conftest import plugin
from hookkit import (
    boom,
    extension_checks,
    facts_with,
    liar,
    mixed_bots,
    play_randomly,
    python_session,
    same_sessions,
    same_step,
    same_summaries,
)

from bourre import kernel
from bourre.game import Game
from bourre.game.simulate import play_session
from bourre.game.state import State
from bourre.houses.house import House
from bourre.rules import HandOutcome
from bourre.rules.hookspec import PluginError
from bourre.rules.money import Amount
from bourre.rules.plugins import load_registry
from bourre.rules.settings import TableSettings
from bourre.rules.variant import Variant, hookimpl
from bourre_variants.standard.payout import StandardAnte, ranks_of

_kernel = pytest.importorskip(
    "bourre.kernel._kernel",
    reason="the compiled kernel is not built (BOURRE_NO_KERNEL=1, or no C++ compiler)",
)

from bourre.kernel.state import KernelState  # noqa: E402  (the extension is built)

# -- scaffolded variants, one a hook (what ``bourre new variant`` makes) ----------------


class DealerAntes(StandardAnte):
    """The standard antes, and the dealer antes 2 more (R-ANTE's words otherwise)."""

    def hand_antes(
        self, n: int, ante: Amount, previous: HandOutcome | None, dealer: int
    ) -> list[Amount]:
        out = super().hand_antes(n, ante, previous, dealer)
        out[dealer] += 2
        return out


class DealerAntesTwo(Variant):
    """The dealer antes 2 more than the others."""

    name = "dealer-antes"
    summary = "The dealer antes 2 more."
    builds_on = ("standard",)

    @hookimpl
    def bourre_ante(self, table: TableSettings) -> Any:
        return DealerAntes()


class WinnerPays(StandardAnte):
    """The last hand's winner antes one more chip if it took more than 3, else half a
    chip more (it reads the whole of ``previous``: its winner and takes), and each
    player adds half a chip to play."""

    def hand_antes(
        self, n: int, ante: Amount, previous: HandOutcome | None, dealer: int
    ) -> list[Amount]:
        out = super().hand_antes(n, ante, previous, dealer)
        if previous is not None and previous.winner is not None:
            out[previous.winner] += 1 if previous.takes[previous.winner] > 3 else Fraction(1, 2)
        return out

    def play_ante(self, ante: Amount) -> Amount:
        return Fraction(1, 2)


class WinnerPaysThird(Variant):
    """The last winner antes a third of what it took; playing costs half a chip."""

    name = "winner-pays"
    summary = "The last winner antes more."
    builds_on = ("standard",)

    @hookimpl
    def bourre_ante(self, table: TableSettings) -> Any:
        return WinnerPays()


class TwoLeft(Variant):
    """The deal passes two seats left (skipping and clearing lost turns, R-DEALER)."""

    name = "two-left"
    summary = "The deal passes two seats to the left."
    builds_on = ("standard",)

    @hookimpl
    def bourre_next_dealer(self, table: TableSettings) -> Any:
        n = table.players

        def next_dealer(dealer: int, marks: list[bool]) -> int:
            s = (dealer + 2) % n
            while marks[s]:
                marks[s] = False
                s = (s + 1) % n
            return s

        return next_dealer


class DealsTwice(Variant):
    """Each dealer deals two hands in a row: the plugin marks the seat that has dealt
    once (the marks the Python state keeps and passes again)."""

    name = "deals-twice"
    summary = "Each dealer deals twice."
    builds_on = ("standard",)

    @hookimpl
    def bourre_next_dealer(self, table: TableSettings) -> Any:
        n = table.players

        def next_dealer(dealer: int, marks: list[bool]) -> int:
            if not marks[dealer]:
                marks[dealer] = True
                return dealer
            marks[dealer] = False
            return (dealer + 1) % n

        return next_dealer


def _sized(size: int) -> type[Variant]:
    def bourre_hand_size(self: Any, table: TableSettings) -> int:
        return size

    return type(
        f"Size{size}",
        (Variant,),
        {
            "name": f"{size}-cards",
            "summary": f"{size} cards each.",
            "builds_on": ("standard",),
            "bourre_hand_size": hookimpl(bourre_hand_size),
        },
    )


class LeaderTakesPot(Variant):
    """At the end the pot left goes to the leader (the lowest seat among the highest
    balances) instead of being shared (R-SETTLE turned over)."""

    name = "leader-takes"
    summary = "The pot left goes to the leader."
    builds_on = ("standard",)

    @hookimpl
    def bourre_settle(self, table: TableSettings) -> Any:
        def settle(balances: list[Amount], pot: Amount) -> tuple[list[Amount], list[int]]:
            final = list(balances)
            final[final.index(max(final))] += pot
            return final, ranks_of(final)

        return settle


REGISTRY = load_registry(
    extra=[
        (cls.name, plugin(cls.name, cls))
        for cls in (
            DealerAntesTwo, WinnerPaysThird, TwoLeft, DealsTwice, LeaderTakesPot,
            _sized(1), _sized(2), _sized(3),
        )
    ]
)  # fmt: skip


def house(spec: str) -> House:
    return House(spec, registry=REGISTRY)


HOUSES = [
    "standard+dealer-antes",
    "dealer-antes+pot-limit(limit=3)+table(players=3,hands=20)",
    "winner-pays+table(players=4,ante=1/3)",
    "winner-pays+simultaneous-reveal+pot-limit(limit=2)",
    "standard+two-left",
    "two-left+four-card+table(players=7,first_dealer=random)",
    "deals-twice+table(players=4,hands=15)",
    "standard+3-cards",
    "2-cards+table(players=8)",
    "1-cards+table(players=6,hands=20)",
    "3-cards+no-cinch+optional-undertrump",
    "standard+leader-takes",
    "leader-takes+table(players=3,ante=1/2,balance=7/3)",
    "dealer-antes+two-left+leader-takes+3-cards+table(players=6)",
]


# -- what the kernel plays, and what goes through Python -------------------------------


def test_the_per_hand_hooks_are_named_and_the_hand_size_is_no_call() -> None:
    assert kernel.python_hooks(house("standard+dealer-antes")) == ("dealer-antes (bourre_ante)",)
    assert kernel.python_hooks(house("two-left")) == ("two-left (bourre_next_dealer)",)
    assert kernel.python_hooks(house("leader-takes")) == ("leader-takes (bourre_settle)",)
    assert kernel.python_hooks(house(HOUSES[-1])) == (
        "dealer-antes (bourre_ante)",
        "two-left (bourre_next_dealer)",
        "leader-takes (bourre_settle)",
    )
    for spec in HOUSES:
        h = house(spec)
        assert kernel.can_play(h, "heuristic", hooks=True) is None, spec
        assert kernel.can_play(h, mixed_bots(h), hooks=True) is None, spec
    # a plugin's hand size is a value: every use of the kernel (solver, worlds) plays it
    for size in (1, 2, 3):
        h = house(f"standard+{size}-cards")
        assert kernel.python_hooks(h) == () and kernel.can_play(h) is None
        assert h.rules.hand_size == size
        assert isinstance(Game(h).new_session(seed=1), KernelState)
    # the solver, rollouts and sampled worlds ask no plugin's ante: named
    why = kernel.can_play(house("standard+dealer-antes"))
    assert why is not None and "dealer-antes (bourre_ante)" in why
    # an ante's amounts are counted in 1/(840 D) chips, as a money rule's
    assert kernel._plan(house("winner-pays"), "random").scale == 840  # type: ignore[union-attr]
    assert kernel._plan(house("two-left"), "random").scale == 1  # type: ignore[union-attr]


def test_the_hooks_are_said_in_a_players_words_before_the_run() -> None:
    """What ``compare``, ``simulate`` and ``sweep`` say before the run (and the chart,
    advise): whose rule the kernel asks, and when."""
    from bourre.kernel.hooks import asked_words
    from bourre.sim.speed.forecast import _asked

    through = kernel.python_hooks(house(HOUSES[-1]))
    assert asked_words(through) == (
        "dealer-antes's ante and two-left's next dealer and leader-takes's settle"
    )
    assert _asked(through) == (
        "dealer-antes's ante at every deal and two-left's next dealer at every deal and"
        " leader-takes's settle at the session's end"
    )


def test_a_hand_size_beyond_the_kernels_arrays_is_the_python_rules() -> None:
    reg = load_registry(extra=[("6-cards", plugin("6-cards", _sized(6)))])
    h = House("standard+6-cards", registry=reg)
    why = kernel.can_play(h, hooks=True)
    assert why is not None and "hand size 6" in why
    assert type(Game(h).new_session(seed=1)) is State
    facts = {**kernel._plan(house("standard+3-cards"), "random").house, "hand_size": 6}  # type: ignore[union-attr]
    with pytest.raises(ValueError, match="hand_size"):
        _kernel.play_shared(facts, [(0, 0.0, 0.0, 2)] * 5, ["0"], Fraction, False)


# -- whole sessions: simulate's and compare's ------------------------------------------


@pytest.mark.parametrize("spec", HOUSES)
def test_sessions_are_the_python_rules_sessions(spec: str) -> None:
    same_sessions(house(spec))


@pytest.mark.parametrize("spec", [HOUSES[0], HOUSES[2], HOUSES[5], HOUSES[9], HOUSES[12]])
def test_compare_sessions_are_summarised_alike(spec: str) -> None:
    """``bourre compare``'s summary of a session (every hand's pot, who played, who was
    bourré, whether the pot carried, who dealt, the money by seat, the final money) is
    the same on both engines."""
    same_summaries(house(spec))


def test_each_call_is_given_what_the_python_state_gives_it() -> None:
    """The ante is told the previous hand's outcome exactly (its reasons too), the next
    dealer the same marks, the settlement the same balances and pot, in the same order
    and as often as on the Python rules."""
    seen: list[tuple[Any, ...]] = []

    class Spy(Variant):
        name = "spy"
        builds_on = ("standard",)

        @hookimpl
        def bourre_ante(self, table: TableSettings) -> Any:
            class Ante(WinnerPays):
                def hand_antes(
                    self, n: int, ante: Amount, previous: HandOutcome | None, dealer: int
                ) -> list[Amount]:
                    why = None if previous is None else previous.reasons
                    seen.append(("antes", n, ante, previous, why, dealer))
                    return super().hand_antes(n, ante, previous, dealer)

                def play_ante(self, ante: Amount) -> Amount:
                    seen.append(("play", ante))
                    return super().play_ante(ante)

            return Ante()

        @hookimpl
        def bourre_next_dealer(self, table: TableSettings) -> Any:
            def next_dealer(dealer: int, marks: list[bool]) -> int:
                seen.append(("dealer", dealer, list(marks)))
                marks[dealer] = not marks[dealer]
                return (dealer + 1 + sum(marks)) % len(marks)

            return next_dealer

        @hookimpl
        def bourre_settle(self, table: TableSettings) -> Any:
            from bourre_variants.standard.payout import settle

            def spy(balances: list[Amount], pot: Amount) -> tuple[list[Amount], list[int]]:
                seen.append(("settle", list(balances), pot))
                return settle(balances, pot)

            return spy

    reg = load_registry(extra=[("spy", plugin("spy", Spy))])
    for spec in ("spy+table(players=4,hands=9)", "spy+pot-limit(limit=2)+table(players=3)"):
        h = House(spec, registry=reg)
        assert kernel.python_hooks(h) == (
            "spy (bourre_ante)", "spy (bourre_next_dealer)", "spy (bourre_settle)",
        )  # fmt: skip
        for seed in range(3):
            for bots in ("heuristic", "random"):
                seen.clear()
                k = kernel.play_session(h, seed, bots)
                on_kernel = list(seen)
                seen.clear()
                p = python_session(h, seed, bots)
                assert (k.final, k.ranks) == (p.final, p.ranks)
                assert on_kernel == seen, (spec, seed, bots)
                assert len(seen) == 3 * h.table.hands  # (ante, play ante, dealer; settle)


# -- the stepped state ---------------------------------------------------------------------


def _drive(k: Any, p: Any, rng: random.Random, where: str) -> None:
    steps = 0
    while not p.is_terminal():
        assert k.balances == p.balances and k.pot == p.pot, where
        assert k.current_player() == p.current_player(), where
        same_step(k, p, rng)
        steps += 1
        for s in range(p.n):
            assert k.observation(s) == p.observation(s), where
        if steps % 17 == 0 and not p.is_terminal():  # (the twin, resumed at the hand's start)
            twin = k.python_copy()
            assert (twin.balances, twin.pot) == (p.balances, p.pot), where
            assert [twin.observation(s) for s in range(p.n)] == [
                p.observation(s) for s in range(p.n)
            ], where
            twin_rest, rest = twin.clone(), p.clone()  # (the hands to come: dealer, antes)
            same = rng.random()
            play_randomly(twin_rest, same)
            play_randomly(rest, same)
            assert twin_rest.returns() == rest.returns(), where
    assert k.returns() == p.returns(), where
    assert k.final == p.final and k.history() == p.history(), where
    assert [r.outcome for r in k.results] == [r.outcome for r in p.results], where


@pytest.mark.parametrize("spec", HOUSES)
def test_the_stepped_state_is_the_python_state(spec: str) -> None:
    h = house(spec)
    for seed in (0, 1, None):
        for keep in (True, False):
            if seed is None and h.table.first_dealer == "random":
                continue  # (no seed to draw the first dealer: the Python rules ask it)
            k = Game(h, engine="kernel").new_session(seed, keep_results=keep)
            p = Game(h, engine="python").new_session(seed, keep_results=keep)
            assert isinstance(k, KernelState) and type(p) is State
            _drive(k, p, random.Random(f"{spec}:{seed}"), f"{spec}, seed {seed}, keep {keep}")
            c = k.clone()
            assert c.is_terminal() and c.returns() == k.returns()


# -- the guards and a plugin's errors: exactly the Python rules' ---------------------------


def _liar(hook: str, component: Any) -> House:
    return liar(hook, component, lambda cls: load_registry(extra=[("liar", plugin("liar", cls))]))


class _Ante(StandardAnte):
    def __init__(self, antes: Any = None, play: Any = None, late: bool = False) -> None:
        self.antes, self.play, self.late, self.calls = antes, play, late, 0

    def hand_antes(
        self, n: int, ante: Amount, previous: HandOutcome | None, dealer: int
    ) -> list[Amount]:
        self.calls += 1
        if self.antes is None or (self.late and self.calls < 4):
            return super().hand_antes(n, ante, previous, dealer)
        return self.antes(n, ante, previous, dealer)  # type: ignore[no-any-return]

    def play_ante(self, ante: Amount) -> Amount:
        return 0 if self.play is None else self.play(ante)


def _late_settle(balances: list[Amount], pot: Amount) -> tuple[list[Amount], list[int]]:
    final = [b + pot + 1 for b in balances]  # (never conserved)
    return final, ranks_of(final)


CASES = [
    ("bourre_ante", lambda: _Ante(boom), "raised ZeroDivisionError"),
    ("bourre_ante", lambda: _Ante(boom, late=True), "raised ZeroDivisionError"),
    ("bourre_ante", lambda: _Ante(lambda n, a, p, d: [a] * (n - 1)), "antes must be"),
    ("bourre_ante", lambda: _Ante(lambda n, a, p, d: [-1] * n, late=True), "antes must be"),
    ("bourre_ante", lambda: _Ante(lambda n, a, p, d: [0.5] * n), "antes must be"),
    ("bourre_ante", lambda: _Ante(play=boom), "raised ZeroDivisionError"),
    ("bourre_ante", lambda: _Ante(play=lambda a: -a), "play_ante must be"),
    ("bourre_ante", lambda: _Ante(play=lambda a: None), "play_ante must be"),
    ("bourre_next_dealer", lambda: boom, "raised ZeroDivisionError"),
    ("bourre_next_dealer", lambda: lambda d, m: len(m), "must be a seat"),
    ("bourre_next_dealer", lambda: lambda d, m: True, "must be a seat"),
    ("bourre_settle", lambda: boom, "raised ZeroDivisionError"),
    ("bourre_settle", lambda: _late_settle, "money not conserved"),
    ("bourre_settle", lambda: lambda b, p: (b, [0] * len(b)), "money not conserved|ranks"),
    ("bourre_settle", lambda: lambda b, p: [b, [1] * len(b)], "must answer"),
]


@pytest.mark.parametrize(("hook", "component", "words"), CASES)
def test_the_guards_refuse_exactly_as_on_the_python_rules(
    hook: str, component: Any, words: str
) -> None:
    errors: list[str] = []
    for engine in ("kernel", "python"):
        h = _liar(hook, component())
        assert kernel.python_hooks(h) == (f"liar ({hook})",)
        with pytest.raises(PluginError, match=words) as e:
            if engine == "kernel":
                kernel.play_session(h, 3, "heuristic")
            else:
                python_session(h, 3, "heuristic")
        assert (e.value.plugin, e.value.hook) == ("liar", hook)
        errors.append(str(e.value))
        with pytest.raises(PluginError, match=words) as e:  # the stepped state too
            state = Game(_liar(hook, component()), engine=engine).new_session(3)
            assert isinstance(state, KernelState if engine == "kernel" else State)
            play_randomly(state, 3)
        errors.append(str(e.value))
    assert errors[0] == errors[2] and errors[1] == errors[3]


def test_an_amount_the_kernel_cannot_hold_hands_the_session_to_the_python_rules(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Elevenths of a chip are not whole numbers of the kernel's units: never rounded,
    the session is the Python rules' (the same final money); so are marks the kernel
    does not hold (not bools)."""
    handed: list[object] = []
    real = kernel._python

    def spy(h: House, seed: int | str, plan: Any) -> Any:
        handed.append(seed)
        return real(h, seed, plan)

    monkeypatch.setattr(kernel, "_python", spy)
    elevenths = _Ante(lambda n, a, p, d: [Fraction(1, 11) if d == 2 else a] * n)  # (hand 3)

    def odd_marks(dealer: int, marks: list[bool]) -> int:
        marks[dealer] = 1  # type: ignore[call-overload]
        return (dealer + 1) % len(marks)

    for hook, component in (("bourre_ante", elevenths), ("bourre_next_dealer", odd_marks)):
        h = _liar(hook, component)
        handed.clear()
        for seed in range(4):
            k = kernel.play_session(h, seed, "random")
            p = play_session(h, seed, keep_hands=False)
            assert (k.final, k.ranks) == (p.final, p.ranks), (hook, seed)
        assert handed, hook  # the sessions left the kernel's units


# -- what the extension is given: checked, never trusted (issue 42) ------------------------


@pytest.mark.parametrize(
    ("spec", "key", "hook", "expect"),
    [
        ("standard+dealer-antes", "ante_hook", lambda p, a, w, d: "x", ValueError),
        ("standard+dealer-antes", "ante_hook", lambda p, a, w, d: (0,) * 4, ValueError),
        ("standard+dealer-antes", "ante_hook", lambda p, a, w, d: (-1,) * 5, ValueError),
        ("standard+dealer-antes", "ante_hook", lambda p, a, w, d: ("1",) * 5, ValueError),
        ("standard+dealer-antes", "ante_hook", lambda p, a, w, d: (2**70,) * 5, "handed"),
        ("standard+dealer-antes", "ante_hook", lambda p, a, w, d: None, "handed"),
        ("standard+dealer-antes", "ante_hook", lambda p, a, w, d: 1 // 0, ZeroDivisionError),
        ("standard+dealer-antes", "ante_hook", 7, ValueError),
        ("standard+dealer-antes", "play_ante_hook", lambda: -1, ValueError),
        ("standard+dealer-antes", "play_ante_hook", lambda: 2.5, ValueError),
        ("standard+dealer-antes", "play_ante_hook", lambda: None, "handed"),
        ("standard+dealer-antes", "play_ante_hook", None, ValueError),  # (one without the other)
        ("standard+two-left", "dealer_hook", lambda d, m: 5, ValueError),
        ("standard+two-left", "dealer_hook", lambda d, m: (5, 0), ValueError),
        ("standard+two-left", "dealer_hook", lambda d, m: (-1, 0), ValueError),
        ("standard+two-left", "dealer_hook", lambda d, m: (0, 1 << 5), ValueError),
        ("standard+two-left", "dealer_hook", lambda d, m: (0, -2), ValueError),
        ("standard+two-left", "dealer_hook", lambda d, m: ("0", 0), ValueError),
        ("standard+two-left", "dealer_hook", lambda d, m: (0, -1), "handed"),
        ("standard+leader-takes", "settle_hook", lambda b, p: None, ValueError),
        ("standard+leader-takes", "settle_hook", lambda b, p: ([0] * 5, [1] * 4), ValueError),
        ("standard+leader-takes", "settle_hook", lambda b, p: ((0,) * 5, [1] * 5), ValueError),
        ("standard+leader-takes", "settle_hook", lambda b, p: 1 // 0, ZeroDivisionError),
    ],
)
def test_a_hooks_answer_is_checked_by_the_extension(
    spec: str, key: str, hook: Any, expect: Any
) -> None:
    """The extension refuses a hook's answer of the wrong shape with an exception, and
    hands to the Python rules (a status, not a result) what it does not hold."""
    extension_checks(*facts_with(house(spec), **{key: hook}), expect)


def test_a_settlement_is_the_plugins_answer_as_it_is() -> None:
    """The extension gives a plugin's settlement back as its own objects (the types of
    the Python state's ``final``), and the final floats of compare from them."""
    facts, bots = facts_with(house("standard+leader-takes"))
    marker = ([Fraction(1, 3)] * 5, [1, 2, 3, 4, 5])
    (got,) = _kernel.play_shared({**facts, "settle_hook": lambda b, p: marker}, bots, ["0"],
                                 Fraction, False)  # fmt: skip
    assert got[0] is marker[0] and got[1] is marker[1]


# -- a plugin's hand size in every use of the kernel: the solver, rollouts, worlds -------

SIZES = [
    "standard+3-cards+table(hands=2)",
    "2-cards+optional-undertrump+table(players=4,hands=3)",
    "1-cards+table(players=3,hands=3)",
    "3-cards+simultaneous-reveal+no-cinch+table(players=6,hands=2)",
]


@pytest.mark.parametrize("spec", SIZES)
def test_the_solver_solves_a_plugins_hand_size(spec: str) -> None:
    """The kernel's double-dummy solver on positions of a 1-, 2- or 3-card house: the
    Python reference's solution exactly, from the Python state and the stepped one."""
    from bourre import solve
    from bourre.advice import kernel_solver as ks

    if not ks.built():
        pytest.skip("the compiled kernel is older than its solver: build it again")
    h = house(spec)
    rng = random.Random(spec)
    seen = 0
    for seed in range(4):
        k = Game(h, engine="kernel").new_session(seed)
        p = Game(h, engine="python").new_session(seed)
        assert isinstance(k, KernelState)
        while not p.is_terminal():
            if p.phase_name == "play" and rng.random() < 0.3:
                ref = solve(p.clone(), engine="python")
                got, on_k = solve(p.clone(), engine="kernel"), solve(k.clone(), engine="kernel")
                for s in (got, on_k):
                    assert (s.seat, s.values, s.best, s.most_tricks, s.choice) == (
                        ref.seat, ref.values, ref.best, ref.most_tricks, ref.choice,
                    ), spec  # fmt: skip
                seen += 1
            a = rng.choice(list(p.legal_actions()))
            p.apply_action(a)
            k.apply_action(a)
    assert seen >= 3


@pytest.mark.parametrize("spec", SIZES)
def test_rollouts_and_worlds_of_a_plugins_hand_size(spec: str) -> None:
    """The Monte Carlo bot's kernel paths on a 1-, 2- or 3-card house: a world's rollouts
    are the Python rollouts exactly, and each sampled world holds whole hands of the
    house's size where the seat stands."""
    from bourre.game.players import ask, make_bot
    from bourre.game.worlds import sample_world
    from bourre.kernel.rollouts import heuristic_rollouts, sample_worlds
    from bourre_bots.heuristic import fold_weight, keep_weight
    from bourre_bots.montecarlo import MonteCarloPlayer

    h = house(spec)
    size, n = h.rules.hand_size, h.table.players
    compared = worlds = 0
    for seed in range(3):
        state = Game(h, engine="python").new_session(seed)
        assert type(state) is State
        bots = [make_bot("heuristic", random.Random(s), house=h) for s in range(n)]
        while not state.is_terminal():
            seat = state.current_player()
            view = state.observation(seat)
            if len(view.legal_actions) > 1 and view.phase in ("play", "decide"):
                rng = random.Random(compared + worlds)
                if view.phase == "play":
                    mc = MonteCarloPlayer(1, house=h, engine="python")
                    world = sample_world(h, view, rng)
                    if world is not None:
                        cards = [_kernel_card(c) for c in view.legal]
                        python = [mc._rollout(world, a, view.seat) for a in cards]
                        assert heuristic_rollouts(world, cards, view.seat, rng) == python
                        compared += 1
                keep, fold = keep_weight(view.trump), fold_weight(view.trump)
                got: Any = sample_worlds(h, view, 3, rng, keep=keep, fold=fold)
                for w in got or ():
                    assert w.hand(view.seat) == view.hand
                    if view.phase == "decide":
                        assert all(len(w.hand(s)) in (0, size) for s in range(n))
                    worlds += 1
            state.apply_action(ask(state, bots[seat]))
    assert worlds > 3 and (compared > 3 or size == 1)


def _kernel_card(c: int) -> Any:
    from bourre.game.actions import CARDS

    return CARDS[c]


@pytest.mark.parametrize("spec", ["standard+3-cards+table(players=4)", "2-cards+double-ante"])
def test_advice_deals_of_a_plugins_hand_size_are_the_python_rules(spec: str) -> None:
    """The chart's and advise's batch of deals (``decision_rows``, C++ ``advice_rows``) on
    a 3- or 2-card house: every option of every deal, the same pot taker, bourré and
    chips as the same deals played on the Python rules."""
    from bourre.kernel import rollouts
    from tests.advice.test_plugin_money import _batch, python_rows

    if not rollouts._ROWS:
        pytest.skip("the kernel's advice batches are not built")
    h = house(spec)
    args = _batch(h, 30)
    k = rollouts.decision_rows(h, *args)
    assert k is not None
    p = python_rows(h, *args)
    assert (k.status, k.flat) == (p.status, p.flat)
