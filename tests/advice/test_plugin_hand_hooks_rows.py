"""Advice's batches of a house whose plugin answers the ante (R-FIRST-POT, R-ANTE,
R-DOUBLE-ANTE), the next dealer (R-DEALER) or the settlement (R-SETTLE) on the compiled
kernel (issue 41): a deal of advice is one hand from the pot in the middle, never
settled (worlds.cpp ``advice_rows``, ``rollouts.ONE_HAND_HOOKS``): nobody antes at the
deal, the plugin's play ante is asked through Python when the tricks start, its next
dealer and settlement never.

The differential: ``python_rows`` of ``test_plugin_money`` (the same deals on the Python
rules, card by card), every option of every deal, at every place; a play ante of half a
chip (winner-pays) changes the rows, so the plugin was asked.  ``bourre advise`` and
``bourre chart`` of such a house play on the kernel, their figures the Python rules'
exactly, from the house's own first pot (the dealer antes two more: 6 chips at four)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
from conftest import install, plugin

from bourre import kernel
from bourre.advice.advise import advise
from bourre.advice.chart import chart
from bourre.advice.deals import first_pot
from bourre.houses.house import House
from bourre.kernel import rollouts
from bourre.rules.plugins import load_registry
from bourre.rules.settings import TableSettings
from bourre.rules.variant import Variant, hookimpl
from tests.advice.test_plugin_decisions_rows import _batch as decisions_batch
from tests.advice.test_plugin_decisions_rows import _on_python
from tests.advice.test_plugin_money import ROWS, python_rows
from tests.hookkit import boom
from tests.kernel.test_plugin_hand_hooks import (
    DealerAntesTwo,
    LeaderTakesPot,
    TwoLeft,
    WinnerPaysThird,
    _Ante,
)

pytestmark = pytest.mark.skipif(not rollouts._ROWS, reason="the kernel is not built")


@pytest.fixture
def registry(monkeypatch: pytest.MonkeyPatch) -> Any:
    """The per-hand plugins of tests/kernel/test_plugin_hand_hooks.py, installed."""
    return install(monkeypatch, DealerAntesTwo, WinnerPaysThird, TwoLeft, LeaderTakesPot)


def _batch(h: House, count: int, seat: int, pot: Any = None) -> tuple[Any, ...]:
    """``count`` random deals to ``seat`` (dealer 0) from ``pot`` (default the house's
    first pot, R-FIRST-POT), every count of cards thrown."""
    size = h.rules.hand_size
    return decisions_batch(h, count, seat, size, first_pot(h) if pot is None else pot)


@pytest.mark.parametrize(
    "spec",
    [
        "standard+winner-pays+table(players=4)",
        "standard+dealer-antes+two-left+leader-takes+table(players=5)",
    ],
)
def test_the_kernels_rows_of_a_plugins_hand_hooks_are_the_python_rules(
    registry: Any, spec: str
) -> None:
    """Every option of every deal at every place: the same pot taker, bourré and chips
    on both engines."""
    h = House(spec)
    assert kernel.can_play(h, hooks=rollouts.LOAD_HOOKS) is not None
    assert kernel.can_play(h, hooks=rollouts.ADVICE_HOOKS) is None
    for seat in range(h.table.players):
        args = _batch(h, 10, seat)
        k = rollouts.decision_rows(h, *args)
        assert k is not None, (spec, seat)
        p = python_rows(h, *args)
        assert (k.status, k.flat) == (p.status, p.flat), (spec, seat)


def test_a_plugins_play_ante_is_asked(registry: Any) -> None:
    """R-DOUBLE-ANTE: half a chip from each player who plays (winner-pays) moves the
    chips of the same deals against the built-in house's."""
    h = House("standard+winner-pays+table(players=4)")
    args = _batch(h, 10, 1)
    k = rollouts.decision_rows(h, *args)
    built_in = rollouts.decision_rows(House("standard+table(players=4)"), *args)
    assert k is not None and built_in is not None and k.flat != built_in.flat


class AntesRaise(Variant):
    """An ante rule whose antes raise (and whose play ante is half a chip): a deal of
    advice starts with the pot in the middle, so it is never asked for its antes."""

    name = "antes-raise"
    summary = "Antes that raise."
    builds_on = ("standard",)

    @hookimpl
    def bourre_ante(self, table: TableSettings) -> Any:
        return _Ante(boom, play=lambda a: Fraction(1, 2))


def test_a_deal_of_advice_never_asks_the_antes(registry: Any) -> None:
    """R-FIRST-POT: nobody antes in a deal of advice (the pot is in the middle): a
    plugin's antes are never asked on either engine, its play ante is."""
    h = House(
        "standard+antes-raise+table(players=4)",
        registry=load_registry(extra=[("antes-raise", plugin("antes-raise", AntesRaise))]),
    )
    args = _batch(h, 8, 1, pot=4)
    k = rollouts.decision_rows(h, *args)
    assert k is not None
    p = python_rows(h, *args)
    assert (k.status, k.flat) == (p.status, p.flat)


def test_advise_and_the_chart_are_the_python_rules(
    registry: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``bourre advise`` and ``bourre chart`` of a house with a plugin's ante, next
    dealer and settlement: on the kernel (said), from the house's first pot (R-FIRST-POT:
    6 chips at four players when the dealer antes two more), the figures the Python
    rules' on the same deals, exactly."""
    spec = "standard+dealer-antes+two-left+leader-takes+table(players=4)"
    ask_: dict[str, Any] = {"hand": ["AH", "KH", "7C", "4D", "2S"], "upcard": "3H", "place": 2}
    fast = advise(spec, hands=30, seed=2, **ask_)
    assert fast.engine == "kernel", fast.why_python
    fast_chart = chart(spec, hands=12, seed=4, classes=ROWS)
    assert fast_chart.engine == "kernel" and fast_chart.why_python is None
    assert fast_chart.pot == 6
    with monkeypatch.context() as m:
        _on_python(m)
        slow = advise(spec, hands=30, seed=2, **ask_)
        slow_chart = chart(spec, hands=12, seed=4, classes=ROWS)
    assert (slow.plays, slow.passing, slow.edge) == (fast.plays, fast.passing, fast.edge)
    assert slow_chart.cells == fast_chart.cells
