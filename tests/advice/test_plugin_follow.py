"""The strategy chart and ``bourre advise`` of a house whose plugin answers the follow
rule (R-FOLLOW …) on the compiled kernel (issue 41, "the solver, advise, chart and
--review use the same path"): the kernel's batch of advice deals
(``bourre.kernel.rollouts.decision_rows``) asks the plugin's checked follow rule through
Python for every card, and its heuristic bot chooses among the plugin's legal cards.

The differential: the same deals played card by card on the Python rules
(``python_rows`` of ``test_plugin_money``), cell for cell and figure for figure.  A follow
rule whose cards come out of the hand's order is played by the Python rules, with one
notice in plain words naming why; never by the built-in rule.  A plugin's trick winner (R-TRICK), which
the heuristic bot asks whether a card would win, is asked there by the kernel's bot too:
the kernel plays it, each figure the Python rules'."""

from __future__ import annotations

import importlib
from typing import Any

import pytest
from conftest import install, plugin

from bourre import kernel
from bourre.advice.advise import advise
from bourre.advice.chart import chart
from bourre.advice.solver import solve
from bourre.game import Game
from bourre.game.state import State
from bourre.houses.house import House
from bourre.kernel import rollouts
from bourre.kernel.state import KernelState
from tests.advice.test_plugin_money import ROWS, _batch, python_rows
from tests.kernel.test_plugin_hooks import (
    Backwards,
    LowWins,
    SuitOnly,
    _picker,
)  # (the same plugins)

pytestmark = pytest.mark.skipif(not rollouts._ROWS, reason="the kernel is not built")

chart_module = importlib.import_module("bourre.advice.chart")
advise_module = importlib.import_module("bourre.advice.advise")


@pytest.fixture
def registry(monkeypatch: pytest.MonkeyPatch) -> Any:
    """The follow and trick-winner plugins, registered in process as the default
    registry (as an installed plugin is)."""
    picker = ("sorted-pick", plugin("sorted-pick", _picker("sorted-pick", True)))
    return install(monkeypatch, SuitOnly, Backwards, LowWins, modules=[picker])


def _on_python(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(chart_module, "decision_rows", python_rows)
    monkeypatch.setattr(advise_module, "decision_rows", python_rows)


@pytest.mark.parametrize(
    "spec",
    [
        "standard+suit-only+table(players=4)",
        "suit-only+no-cinch+table(players=3)",
        "suit-only+double-ante+four-card+table(players=5)",
        "sorted-pick+table(players=4)",
    ],
)
def test_the_kernels_rows_of_a_plugins_follow_rule_are_the_python_rules(
    registry: Any, spec: str
) -> None:
    """Every option of every deal: the same pot taker, bourré and chips on both; and the
    plugin's rule changed them (the built-in house's rows on the same deals differ)."""
    h = House(spec)
    assert kernel.can_play(h, "heuristic", hooks=rollouts.ADVICE_HOOKS) is None
    args = _batch(h, 40)
    k = rollouts.decision_rows(h, *args)
    assert k is not None
    p = python_rows(h, *args)
    assert k.status == p.status and k.flat == p.flat
    plain = House(
        spec.replace("standard+", "")
        .replace("suit-only", "standard")
        .replace("sorted-pick", "standard")
    )
    built_in = rollouts.decision_rows(plain, *args)
    assert built_in is not None and built_in.flat != k.flat


def test_the_chart_and_advice_of_a_plugins_follow_rule_are_the_python_rules(
    registry: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``bourre chart standard+suit-only`` and ``bourre advise``: on the kernel, asking
    the plugin's follow rule (said), each figure the Python rules' on the same deals."""
    fast = chart("standard+suit-only", players=3, hands=12, seed=4, classes=ROWS)
    assert fast.engine == "kernel" and fast.asked == ("suit-only (bourre_follow)",)
    assert "asking suit-only's follow through Python" in fast.headline()
    ask: dict[str, Any] = {"hand": ["AH", "KH", "7C", "4D", "2S"], "upcard": "3H", "place": 2}
    said = advise("standard+suit-only", hands=30, seed=2, **ask)
    assert said.engine == "kernel" and said.why_python is None
    assert "asking suit-only's follow through Python" in " ".join(said.words())
    with monkeypatch.context() as m:
        _on_python(m)
        assert chart("standard+suit-only", players=3, hands=12, seed=4, classes=ROWS).cells == (
            fast.cells
        )
        slow = advise("standard+suit-only", hands=30, seed=2, **ask)
    assert (slow.plays, slow.passing, slow.edge) == (said.plays, said.passing, said.edge)


def test_what_the_kernel_cannot_ask_is_played_by_the_python_rules_saying_why(
    registry: Any,
) -> None:
    """Cards out of the hand's order (the heuristic bot's choice may read their order):
    the Python rules play the chart and the advice, with the reason in words."""
    h = House("standard+backwards+table(players=3)")
    assert rollouts.decision_rows(h, *_batch(h, 30)) is None  # (handed to the Python rules)
    got = chart("standard+backwards", players=3, hands=2, classes=ROWS[:1])
    assert got.engine == "python" and "out of the hand's order" in (got.why_python or "")
    ask: dict[str, Any] = {"hand": ["AH", "KH", "7C", "4D", "2S"], "upcard": "3H", "place": 2}
    said = advise("standard+backwards", hands=4, seed=2, **ask)
    assert said.engine == "python" and "out of the hand's order" in (said.why_python or "")
    assert said.why_python in " ".join(said.words())
    assert said.as_dict()["why_python"] == said.why_python
    assert advise("standard", hands=4, seed=2, **ask).why_python is None


def test_the_chart_and_advice_of_a_plugins_trick_winner_are_the_python_rules(
    registry: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """R-TRICK: the heuristic bot asks the house's trick winner whether a card would
    win, and so does the kernel's (bots.cpp): ``bourre chart standard+low-wins`` and
    ``bourre advise`` play on the kernel, asking the plugin (said), each figure the
    Python rules' on the same deals."""
    fast = chart("standard+low-wins", players=3, hands=12, seed=4, classes=ROWS)
    assert fast.engine == "kernel" and fast.asked == ("low-wins (bourre_trick_winner)",)
    assert "asking low-wins's trick winner through Python" in fast.headline()
    ask: dict[str, Any] = {"hand": ["AH", "KH", "7C", "4D", "2S"], "upcard": "3H", "place": 2}
    said = advise("standard+low-wins", hands=30, seed=2, **ask)
    assert said.engine == "kernel" and said.why_python is None
    with monkeypatch.context() as m:
        _on_python(m)
        assert chart("standard+low-wins", players=3, hands=12, seed=4, classes=ROWS).cells == (
            fast.cells
        )
        slow = advise("standard+low-wins", hands=30, seed=2, **ask)
    assert (slow.plays, slow.passing, slow.edge) == (said.plays, said.passing, said.edge)


@pytest.mark.parametrize("spec", ["standard+suit-only", "standard+low-wins"])
def test_the_solver_of_a_plugin_house_is_the_python_search_with_its_rules(
    registry: Any, spec: str
) -> None:
    """The kernel's merging search holds the built-in obligations and trick winner only:
    a stepped state of such a house is solved by the Python search (the plugin's rules),
    ``engine="kernel"`` saying why, never with the built-in rule; the plain search
    (``plain=True``, as advice and the review ask it) is the kernel's, asking the
    plugin's rule through Python, with the Python plain search's values (issue 41)."""
    state = Game(House(f"{spec}+table(players=3)")).new_session(3)
    assert isinstance(state, KernelState)
    while state.phase_name != "play" or len(state.hand.tricks) < 2:
        state.apply_action(state.legal_actions()[-1])
    got = solve(state)
    want = solve(state.python_copy(), engine="python")
    assert got == want
    with pytest.raises(ValueError, match=spec.split("+")[1]):
        solve(state, engine="kernel")
    plain = solve(state.python_copy(), plain=True, engine="python")
    for mine in (solve(state, plain=True, engine="kernel"), solve(state, plain=True)):
        assert (mine.values, mine.best, mine.choice) == (plain.values, plain.best, plain.choice)
        assert mine.positions > 0 and plain.positions == 0


def test_advice_during_the_hand_of_a_plugin_house_is_the_kernels_plain_search(
    registry: Any,
) -> None:
    """``bourre advise --script`` of a follow-rule plugin's house: its cards weighed by
    the kernel's plain search asking the plugin's legal cards through Python (issue 41),
    said once in words; the deals drawn on the Python rules."""
    from bourre.advice.inhand import advise_in_hand

    state = Game(House("standard+suit-only+table(players=3)"), engine="python").new_session(3)
    while state.phase_name != "play" or len(state.hand.tricks) < 3:
        state.apply_action(state.legal_actions()[-1])
    assert isinstance(state, State)
    got = advise_in_hand(state, index=0, house="standard+suit-only", deals=3, seed=1)
    assert got.engine == "kernel-plain"
    assert [c.card for c in got.cards] != [] and {c.card for c in got.cards} == set(
        state.legal_cards()
    )
    said = [x for x in got.words() if "through Python" in x]
    assert said == ["The kernel asked suit-only's follow through Python."], got.words()
    assert not [x for x in got.words() if "cannot" in x], got.words()
