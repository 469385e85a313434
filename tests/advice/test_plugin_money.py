"""The strategy chart and ``bourre advise`` of a house whose only plugin rules are a
money rule (a penalty, R-BOURRE; a payout, R-WIN, R-SOLE, R-BOURRE) on the compiled
kernel (issue 41, "the solver, advise and chart use the same path"): the kernel's batch
of advice deals (``bourre.kernel.rollouts.decision_rows``) asks the plugin through
Python at each played-out hand's end.

The differential: the same deals played on the Python rules.  ``python_rows`` below deals
each of the batch's deals as the kernel deals it (the seat's hand, the dealer's upcard,
the rest of the deck shuffled on the deal's four words, a stock that runs out reshuffled
on the same stream: R-DEAL, R-RESHUFFLE) into a Python :class:`State` and plays every
option out with the heuristic bot, card by card.  With it in place of the kernel's batch,
the chart's cells and advise's figures are equal to the kernel's, exactly: each deal's
chips are the same exact amount made a float once (the kernel's units over D, Python's
Fraction: both correctly rounded), and the cell sums them in the same order
(``math.fsum``).  A deal whose money the kernel's units do not hold is played on the
Python rules (a plugin's follow rule on the kernel: ``test_plugin_follow``)."""

from __future__ import annotations

import importlib
import random
import sys
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from conftest import install, plugin
from hookkit import Elevenths

from bourre import kernel
from bourre.advice.advise import advise
from bourre.advice.chart import ChartError, HandClass, chart
from bourre.game import Game
from bourre.game.actions import PASS, PLAY, Deck, discard
from bourre.game.botmaking import make_bot
from bourre.game.players import ask
from bourre.game.state import State
from bourre.game.tablesteps import set_hand
from bourre.game.xoshiro import Xoshiro128
from bourre.houses.house import House
from bourre.kernel import hooks, rollouts
from bourre.kernel.rollouts import DecisionRows
from bourre.rules.hookspec import PenaltyFn
from bourre.rules.money import Amount
from bourre.rules.plugins import load_registry
from bourre.rules.settings import TableSettings
from bourre.rules.variant import Variant, hookimpl
from tests.kernel.test_plugin_hooks import PotPlusOne, SuitOnly  # (the same plugins)

pytestmark = pytest.mark.skipif(not rollouts._ROWS, reason="the kernel is not built")

chart_module = importlib.import_module("bourre.advice.chart")
advise_module = importlib.import_module("bourre.advice.advise")  # (the package names a function so)
ROOT = Path(__file__).resolve().parents[2]
SPLIT_POT = ROOT / "docs" / "examples" / "bourre-split-pot" / "src"
ROWS = (HandClass(1, "A", (0,)), HandClass(2, "K", (1, 2)), HandClass(0, None, (1,)))
"""A few rows of the chart (a trump ace alone, two trumps to the king, no trump)."""
_FORCED = {None: 0, "R-ACE-UP": 1, "R-LAST-STANDS": 2}


@pytest.fixture
def registry(monkeypatch: pytest.MonkeyPatch) -> Any:
    """The example plugin (docs/examples/bourre-split-pot) and the variants above,
    registered in process as the default registry (as an installed plugin is)."""
    monkeypatch.syspath_prepend(str(SPLIT_POT))
    sys.modules.pop("bourre_split_pot", None)
    module: ModuleType = importlib.import_module("bourre_split_pot")
    return install(monkeypatch, PotPlusOne, Elevenths, SuitOnly, modules=[("split-pot", module)])


# -- the Python rules on the kernel's deals ----------------------------------------------


def _deck(
    mine: Sequence[int], up: int, seat: int, dealer: int, n: int, h: int, gen: Xoshiro128
) -> Deck:
    """The deck advice_rows deals (R-DEAL): ``seat``'s cards in order, the upcard last
    dealt, the rest shuffled on ``gen``."""
    known = set(mine)
    rest: list[object] = [c for c in range(52) if c != up and c not in known]
    gen.shuffle(rest)
    own = iter(sorted(c for c in mine if c != up))
    others = iter(rest)
    last = h * n - 1
    cards = [
        up
        if i == last
        else next(own)
        if i < last and (dealer + 1 + i) % n == seat
        else next(others)
        for i in range(52)
    ]
    return Deck(tuple(cards))  # type: ignore[arg-type]


def python_rows(
    house: House,
    seat: int,
    dealer: int,
    pot: Amount,
    decided: Sequence[bool],
    hands: Sequence[Sequence[int]],
    upcards: Sequence[int],
    words: Sequence[int],
    options: Sequence[Sequence[Sequence[int]]],
    passing: bool,
) -> DecisionRows:
    """``decision_rows``'s batch played on the Python rules, card by card: each option
    from a deal of its own (the same deck, the reshuffle stream from the same point)."""
    game = Game(house, engine="python")
    n, h = game.players, game.hand_size
    bot = make_bot("heuristic", random.Random(0), house=house)
    status: list[int] = []
    flat: list[float] = []

    def at_decision(d: int) -> State:
        w = [int(x) for x in words[4 * d : 4 * d + 4]]
        gen = Xoshiro128(*(w if any(w) else [0, 0, 0, 1]))
        deck = _deck(hands[d], upcards[d], seat, dealer, n, h, gen)

        def reshuffle(pile: list[int]) -> list[int]:
            new: list[object] = list(pile)
            gen.shuffle(new)
            return new  # type: ignore[return-value]

        state = game.new_hand(dealer=dealer, engine="python")
        assert isinstance(state, State)
        set_hand(state, dealer=dealer, pot=pot, reshuffle=reshuffle)
        state.apply_chance(deck)
        k = 0
        while state.current_player() != seat:
            if k < len(decided) and state.phase_name == "decide":
                want = PLAY if decided[k] else PASS
                k += 1
                state.apply_action(want if want in state.legal_actions() else PLAY)
            else:
                state.apply_action(ask(state, bot))
        assert state.phase_name == "decide"
        return state

    def finish(state: State, before: Amount) -> None:
        while not state.is_terminal():
            state.apply_action(ask(state, bot))
        out = state.results[-1].outcome
        flat.extend(
            (
                1.0 if out.winner == seat else 0.0,
                1.0 if seat in out.bourre else 0.0,
                float(state.returns()[seat] - before),
            )
        )

    for d in range(len(hands)):
        g = at_decision(d)
        status.append(_FORCED[g.observation(seat).forced])
        before = g.returns()[seat]
        g.apply_action(PLAY)
        if g.current_player() == seat and g.phase_name == "exchange":
            for o in options[d]:
                c = at_decision(d)
                c.apply_action(PLAY)
                c.apply_action(discard(tuple(o)))
                finish(c, before)
        elif not g.is_terminal():
            status[-1] = 3  # others decide before the exchange: the kernel's status too
            flat.extend([0.0] * (3 * (len(options[d]) + 1)))
            continue
        else:  # won alone (R-SOLE): every option the same
            for _ in options[d]:
                finish(g.clone(), before)
        if passing:
            c = at_decision(d)
            c.apply_action(PASS if PASS in c.legal_actions() else PLAY)
            finish(c, before)
        else:
            flat.extend((0.0, 0.0, 0.0))
    starts = [0]
    for opts in options:
        starts.append(starts[-1] + 3 * (len(opts) + 1))
    return DecisionRows(status, flat, starts)


def _on_python(monkeypatch: pytest.MonkeyPatch) -> None:
    """The chart's and advise's batches played by :func:`python_rows`."""
    monkeypatch.setattr(chart_module, "decision_rows", python_rows)
    monkeypatch.setattr(advise_module, "decision_rows", python_rows)


# -- the rows, the chart and advise: the Python rules' on the same deals ---------------------


def test_the_twin_plays_the_kernels_deals_of_a_built_in_house() -> None:
    """``python_rows`` is the kernel's batch on the Python rules: checked on the built-in
    house first (else the differential below would prove nothing)."""
    h = House("standard+table(players=4)")
    args = _batch(h, 12)
    k = rollouts.decision_rows(h, *args)
    assert k is not None
    assert (k.status, k.flat) == (lambda p: (p.status, p.flat))(python_rows(h, *args))


def _batch(h: House, count: int, seat: int = 1) -> tuple[Any, ...]:
    """A batch of ``count`` random deals to ``seat``, every count of cards thrown."""
    rng = random.Random(f"batch:{h.spec}")
    n, size = h.table.players, h.rules.hand_size
    hands, ups = [], []
    for _ in range(count):
        cards = rng.sample(range(52), size + 1)
        hands.append(sorted(cards[:size]))
        ups.append(cards[size])
    opts = [[m[:k] for k in range(size + 1)] for m in hands]
    words = [rng.getrandbits(32) for _ in range(4 * count)]
    return (seat, 0, n * h.table.ante, (), hands, ups, words, opts, True)


@pytest.mark.parametrize(
    "spec",
    [
        "standard+split-pot+table(players=4)",
        "pot-plus-one+table(players=3)",
        "split-pot+double-ante+table(players=5,ante=1/3)",
    ],
)
def test_the_kernels_rows_of_a_plugins_money_rule_are_the_python_rules(
    registry: Any, spec: str
) -> None:
    """Every option of every deal: the same pot taker, bourré and chips on both; and the
    plugin changed them (the built-in house's rows on the same deals differ)."""
    h = House(spec)
    assert kernel.can_play(h, hooks=rollouts.ADVICE_HOOKS) is None
    args = _batch(h, 40)
    k = rollouts.decision_rows(h, *args)
    assert k is not None
    p = python_rows(h, *args)
    assert k.status == p.status and k.flat == p.flat
    plain = House(spec.replace("split-pot+", "").replace("pot-plus-one+", "standard+"))
    built_in = rollouts.decision_rows(plain, *args)
    assert built_in is not None and built_in.flat != k.flat


def test_the_chart_of_a_plugins_money_rule_is_the_python_rules_chart(
    registry: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``bourre chart standard+split-pot``: on the kernel (said in its first line), each
    cell the Python rules' on the same deals, exactly; the pot-plus-one penalty too."""
    for spec in ("standard+split-pot", "standard+pot-plus-one"):
        fast = chart(spec, players=3, hands=12, seed=4, classes=ROWS)
        assert fast.engine == "kernel" and fast.why_python is None
        words = fast.headline()
        assert "played by the kernel, asking" in words and "through Python" in words, words
        assert fast.as_dict()["asked_through_python"] == list(fast.asked) != []
        with monkeypatch.context() as m:
            _on_python(m)
            slow = chart(spec, players=3, hands=12, seed=4, classes=ROWS)
        assert slow.cells == fast.cells, spec


def test_advise_of_a_plugins_money_rule_is_the_python_rules_advice(
    registry: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``bourre advise`` (should I play?): the kernel's figures are the Python rules' on
    the same deals, exactly, with the seats before announcing or not."""
    cases: list[tuple[str, dict[str, Any]]] = [
        ("standard+split-pot", {"place": 2}),
        ("standard+pot-plus-one+table(players=4)", {"place": 3, "decisions": ["pass", "play"]}),
    ]
    for spec, where in cases:
        ask_: dict[str, Any] = {"hand": ["AH", "KH", "7C", "4D", "2S"], "upcard": "3H"}
        fast = advise(spec, hands=30, seed=2, **ask_, **where)
        assert fast.engine == "kernel" and fast.asked, spec
        said = " ".join(fast.words())
        assert "played by the kernel, asking" in said and "through Python" in said, said
        with monkeypatch.context() as m:
            _on_python(m)
            slow = advise(spec, hands=30, seed=2, **ask_, **where)
        assert (slow.plays, slow.passing, slow.edge) == (fast.plays, fast.passing, fast.edge)


def test_an_amount_the_kernel_does_not_hold_is_charted_on_python(registry: Any) -> None:
    """An eleventh of a pot is no whole number of 1/840 chip: the batch is handed to the
    Python rules (never rounded), and ``--engine kernel`` says it cannot.  (A plugin's
    follow rule is asked by the advice deals: ``test_plugin_follow``.)"""
    rows = ROWS[:1]
    h = House("standard+elevenths+table(players=3)")
    assert rollouts.decision_rows(h, *_batch(h, 30)) is None
    got = chart("standard+elevenths", players=3, hands=4, classes=rows)
    assert got.engine == "python" and "amount" in (got.why_python or "")
    with pytest.raises(ChartError, match="amount"):
        chart("standard+elevenths", players=3, hands=4, classes=rows, engine="kernel")


def test_the_plugin_is_asked_once_a_different_result_or_at_every_hand(
    registry: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The kernel remembers a plugin's checked answer for each different hand result (a
    rule is a function of the result: the conformance kit's determinism check); with
    ``hooks.REMEMBER`` off it is asked at every played-out hand, as the Python rules ask
    it, and the rows are the same."""
    from bourre.rules import HandOutcome, PlayResult
    from bourre_variants.standard.payout import payout as standard_payout

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

    reg = load_registry(extra=[("spy", plugin("spy", Spy))])
    h = House("spy+table(players=4)", registry=reg)
    args = _batch(h, 30)
    rows = []
    for remember in (False, True):
        monkeypatch.setattr(hooks, "REMEMBER", remember)
        monkeypatch.setattr(rollouts, "_WATCHES", [])
        monkeypatch.setattr(kernel, "_FACTS", [])  # (a house's facts hold its remembered answers)
        monkeypatch.setattr(kernel, "_PLANS", [])
        seen.clear()
        got = rollouts.decision_rows(h, *args)
        assert got is not None
        rows.append(got.flat)
        played = sum(len(o) + 1 for o in args[-2])  # (every option and the pass)
        if remember:
            assert len(seen) == len(set(seen)) < played
        else:
            assert len(seen) >= played - 30 and len(set(seen)) < len(seen)
    assert rows[0] == rows[1] == python_rows(h, *args).flat
