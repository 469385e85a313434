"""Advice's batches of a house whose decisions or draw is a plugin's on the compiled
kernel (issue 41, "the solver, advise and chart use the same path"): each deal's hand
run made with the pot in the middle, the seats before deciding through it, every option
played on its own copy of it (worlds.cpp ``advice_rows``; R-DECIDE, R-DRAW,
R-RESHUFFLE).

The differential: ``python_rows`` of ``test_plugin_money`` (the same deals on the Python
rules, card by card).  A deal the kernel leaves to the Python rules (status 3: the seats
decide all at once before the exchange, their-reveal; or the plugin's own rule forbids
the seat to pass, R-HOUSE-DEALER) is one the Python rules give no choice or no single
exchange either; every other deal is the same, figure for figure."""

from __future__ import annotations

import importlib
import random
from typing import Any

import pytest
from conftest import install

from bourre import kernel
from bourre.advice.advise import advise
from bourre.advice.chart import chart
from bourre.houses.house import House
from bourre.kernel import rollouts
from bourre.kernel.rollouts import DecisionRows
from tests.advice import test_plugin_money as money
from tests.advice.test_plugin_money import ROWS, python_rows
from tests.kernel.test_plugin_decisions import VARIANTS

pytestmark = pytest.mark.skipif(not rollouts._ROWS, reason="the kernel is not built")

chart_module = importlib.import_module("bourre.advice.chart")
advise_module = importlib.import_module("bourre.advice.advise")


class _Named(dict[Any, int]):
    """The twin's forced rules: a plugin's own rule (R-HOUSE-DEALER) is status 3."""

    def __missing__(self, key: Any) -> int:
        return 3


@pytest.fixture
def registry(monkeypatch: pytest.MonkeyPatch) -> Any:
    """The scaffold-like plugins of tests/kernel/test_plugin_decisions.py, installed."""
    monkeypatch.setattr(money, "_FORCED", _Named(money._FORCED))
    return install(monkeypatch, *VARIANTS)


def _batch(h: House, count: int, seat: int, limit: int, pot: Any = None) -> tuple[Any, ...]:
    """``count`` random deals to ``seat`` (dealer 0) from ``pot`` (default the table's
    antes), each count of cards thrown up to ``limit`` (the plugin's draw's), the seats
    before announcing as given."""
    rng = random.Random(f"rows:{h.spec}:{seat}")
    size = h.rules.hand_size
    hands, ups = [], []
    for _ in range(count):
        cards = rng.sample(range(52), size + 1)
        hands.append(sorted(cards[:size]))
        ups.append(hands[-1][0] if seat == 0 else cards[size])
    opts = [[m[:k] for k in range(limit + 1)] for m in hands]
    words = [rng.getrandbits(32) for _ in range(4 * count)]
    decided = [bool(rng.getrandbits(1)) for _ in range(seat - 1)]
    stake = h.table.players * h.table.ante if pot is None else pot
    return (seat, 0, stake, decided, hands, ups, words, opts, True)


def _same(k: DecisionRows, p: DecisionRows) -> int:
    """Every deal the kernel played is the Python rules' deal, exactly; how many."""
    played = 0
    for d, (ks, ps) in enumerate(zip(k.status, p.status, strict=True)):
        if ks == 3:  # (the Python rules': no choice, or others decide before the exchange)
            assert ps != 0, d
            continue
        assert (ks, k.row(d)) == (ps, p.row(d)), d
        played += 1
    return played


@pytest.mark.parametrize(
    ("spec", "limit", "plays"),
    [
        ("standard+three-max+table(players=4)", 3, True),
        ("one-max+table(players=5)", 1, True),
        ("ace-may-pass+three-max+table(players=6)", 3, True),
        ("dealer-plays+table(players=5)", 5, True),
        ("dealer-capped+table(players=4)", 1, True),
        ("their-reveal+table(players=4)", 5, False),
    ],
)
def test_the_batch_of_a_plugins_decisions_is_the_python_rules(
    registry: Any, spec: str, limit: int, plays: bool
) -> None:
    """Each place at the table, every option of every deal: the same pot taker, bourré
    and chips as on the Python rules (the reshuffle on the deal's stream, R-RESHUFFLE,
    at six players), and the plugin changed them (the built-in house's rows differ)."""
    h = House(spec)
    assert kernel.can_play(h, "heuristic", hooks=rollouts.ADVICE_HOOKS) is None
    played = 0
    for seat in range(h.table.players):
        args = _batch(h, 12, seat, limit)
        k = rollouts.decision_rows(h, *args)
        assert k is not None, (spec, seat)
        played += _same(k, python_rows(h, *args))
    assert (played > 0) is plays, spec
    if plays:
        args = _batch(h, 12, 1, limit)
        plain = House(f"standard+table(players={h.table.players})")
        k = rollouts.decision_rows(h, *args)
        built_in = rollouts.decision_rows(plain, *args)
        assert k is not None and built_in is not None
        assert built_in.flat != k.flat or built_in.status != k.status


def test_an_option_beyond_the_plugins_draw_is_the_python_rules(registry: Any) -> None:
    """Four cards thrown where the plugin allows three (R-DRAW): not the kernel's batch."""
    h = House("standard+three-max+table(players=4)")
    assert rollouts.decision_rows(h, *_batch(h, 4, 1, 4)) is None


def _on_python(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(chart_module, "decision_rows", python_rows)
    monkeypatch.setattr(advise_module, "decision_rows", python_rows)


def test_advise_of_a_plugins_draw_is_the_python_rules_advice(
    registry: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``bourre advise --house standard+three-max``: the kernel's batch (said), its
    figures the Python rules' on the same deals, exactly."""
    cases: list[tuple[str, dict[str, Any]]] = [
        ("standard+three-max", {"place": 2}),
        ("ace-may-pass+one-max+table(players=4)", {"place": 3, "decisions": ["pass", "play"]}),
    ]
    for spec, where in cases:
        ask_: dict[str, Any] = {"hand": ["AH", "KH", "7C", "4D", "2S"], "upcard": "3H"}
        fast = advise(spec, hands=30, seed=2, **ask_, **where)
        assert fast.engine == "kernel", (spec, fast.why_python)
        with monkeypatch.context() as m:
            _on_python(m)
            slow = advise(spec, hands=30, seed=2, **ask_, **where)
        assert (slow.plays, slow.passing, slow.edge) == (fast.plays, fast.passing, fast.edge)


def test_the_chart_of_a_plugins_draw_is_the_python_rules_chart(
    registry: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``bourre chart standard+three-max``: on the kernel (said), each cell the Python
    rules' on the same deals, exactly; the equilibrium chart plays the house too
    (test_equilibrium_plugin_decisions)."""
    fast = chart("standard+three-max", players=4, hands=12, seed=4, classes=ROWS)
    assert fast.engine == "kernel" and fast.why_python is None
    with monkeypatch.context() as m:
        _on_python(m)
        slow = chart("standard+three-max", players=4, hands=12, seed=4, classes=ROWS)
    assert slow.cells == fast.cells
    from bourre.advice.equilibrium import HOOKS

    assert kernel.can_play(House("standard+three-max"), "heuristic", hooks=HOOKS) is None
