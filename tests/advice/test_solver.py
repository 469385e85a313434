"""The double-dummy solver (``bourre.solve``, :mod:`bourre.advice.solver`, issue 31):
a brute force written here, independently (plain recursion over ``clone`` /
``apply_action``, no table, no merging, the payout read off the hand's result), agrees
with it on many random small hands of several houses, a third-party one included;
hand-checked examples; the refusals."""

from __future__ import annotations

import importlib.util
import random
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from brute import brute
from conftest import H, plugin
from widdershins import Widdershins

import bourre
from bourre.advice import Solution, kernel_solver, solve
from bourre.game import Game
from bourre.game.actions import CARDS, PASS, PLAY, STAND_PAT, Dealt
from bourre.game.state import State
from bourre.houses.house import House
from bourre.rules.money import Amount
from bourre.rules.plugins import load_registry
from bourre.rules.settings import TableSettings
from bourre.rules.variant import Variant, hookimpl

ROOT = Path(__file__).resolve().parents[2]

# -- the brute force: every line of play, nothing remembered, nothing merged ---------


# -- random positions ---------------------------------------------------------------


def position(
    house: House | str,
    seed: int,
    *,
    session: bool,
    left: int,
    pot: Amount = 0,
    eager: float = 0.8,
) -> State | None:
    """A random position in play (or ``None``): the trick at which each hand holds
    ``left`` cards, a random number of its cards played; in a new hand, or in a later
    hand of a session.  Decisions (a seat plays with probability ``eager``), exchanges
    and cards are random."""
    rng = random.Random(seed)
    game = Game(house, engine="python")  # (the position is read off its live hand)
    if session:
        state = game.new_session(seed=seed)
        for _ in range(rng.randrange(1, 3)):  # one or two hands played out first
            number = state.number
            while state.number == number and not state.is_terminal():
                state.apply_action(rng.choice(list(state.legal_actions())))
    else:
        state = game.new_hand(seed=seed, pot=pot)
    while state.phase_name != "play":
        if state.is_terminal():
            return None
        actions = list(state.legal_actions())
        if actions[0] in (PASS, PLAY):
            action = PLAY if PLAY in actions and rng.random() < eager else actions[0]
        else:
            action = rng.choice([STAND_PAT, rng.choice(actions)])
        state.apply_action(action)
    hs = state.hand
    if len(hs.active) < 2:
        return None
    target = hs.hand_size - left
    while len(hs.tricks) < target:
        state.apply_action(rng.choice(list(state.legal_actions())))
    for _ in range(rng.randrange(len(hs.active))):  # part-way through the trick
        state.apply_action(rng.choice(list(state.legal_actions())))
    return state


HOUSES = [
    "standard",
    "four-card",
    "no-cinch",
    "optional-undertrump",
    "pot-limit(limit=2)",
    "double-ante",
    "four-card+no-cinch+pot-limit(limit=1)",
    "four-card+optional-undertrump",
]


def cases(houses: list[Any], count: int, seed0: int) -> list[tuple[Any, int, int, int, bool]]:
    """(house, players, cards left, seed, in a session): 2-4 players, 3-5 cards
    (at most 4 with 4 players: the brute force is slow)."""
    out = []
    for i in range(count):
        rng = random.Random(seed0 + i)
        players = rng.choice([2, 3, 3, 4])
        left = rng.choice([3, 4] if players == 4 else [3, 4, 5])
        out.append((houses[i % len(houses)], players, left, seed0 + i, i % 3 == 2))
    return out


def setup(house: House, left: int, seed: int, session: bool) -> State | None:
    return position(house, seed, session=session, left=min(left, house.rules.hand_size))


def agree(state: State) -> Solution:
    before = (state.history(), [list(h) for h in state.hand.hands], list(state.balances))
    solution = solve(state)
    assert (state.history(), [list(h) for h in state.hand.hands], list(state.balances)) == before
    expected = brute(state)
    got = {v.card: (v.sure_tricks, v.chips) for v in solution.values}
    assert got == expected, (state.house.spec, state.history())
    assert solution.seat == state.current_player()
    assert [v.card for v in solution.values] == state.legal_cards()
    top = max(c for _, c in expected.values())
    assert solution.best == tuple(c for c in state.legal_cards() if expected[c][1] == top)
    assert solution.choice == solution.best[0]
    most = max(t for t, _ in expected.values())
    assert solution.most_tricks == tuple(c for c in state.legal_cards() if expected[c][0] == most)
    plain = solve(state, plain=True)
    assert [(v.card, v.sure_tricks, v.chips_by_seat) for v in plain.values] == [
        (v.card, v.sure_tricks, v.chips_by_seat) for v in solution.values
    ]
    # (the Python plain search remembers nothing; the kernel's, for a plugin's rule of
    # the play, remembers positions by exact keys: issue 41)
    assert plain.positions == 0 or kernel_solver.plain_only(state.house)
    return solution


CASES = cases(HOUSES, 96, 100)


@pytest.mark.parametrize(("spec", "players", "left", "seed", "session"), CASES)
def test_the_solver_agrees_with_a_brute_force(
    spec: str, players: int, left: int, seed: int, session: bool
) -> None:
    state = setup(House(f"{spec}+table(players={players})"), left, seed, session)
    if state is not None:
        agree(state)


@pytest.mark.parametrize("players", [3, 4])
def test_remembering_and_merging_change_no_value_on_bigger_hands(players: int) -> None:
    """From the first lead (3 players x 5 cards, 4 x 4 with four-card), with and without
    the table and the merging: the same values (the brute force is too slow here)."""
    spec = f"{'standard' if players == 3 else 'four-card'}+table(players={players})"
    checked = 0
    for seed in range(8 if players == 3 else 12):
        state = position(spec, seed, session=False, left=5, eager=1.0)
        if state is None or len(state.hand.active) < players:
            continue
        fast, plain = solve(state), solve(state, plain=True)
        assert [(v.card, v.sure_tricks, v.chips_by_seat) for v in fast.values] == [
            (v.card, v.sure_tricks, v.chips_by_seat) for v in plain.values
        ]
        assert fast.best == plain.best and fast.most_tricks == plain.most_tricks
        checked += 1
    assert checked >= 5


@pytest.mark.slow
def test_remembering_and_merging_change_no_value_on_many_bigger_hands() -> None:
    """The same as above over many more hands and houses (``pytest -m slow``)."""
    checked = 0
    for i in range(90):
        spec, players = [("standard", 3), ("four-card", 4), ("four-card+no-cinch", 3)][i % 3]
        house = f"{spec}+table(players={players})"
        state = position(house, 10_000 + i, session=i % 2 == 1, left=5, eager=1.0)
        if state is None:
            continue
        fast, plain = solve(state), solve(state, plain=True)
        assert [(v.card, v.sure_tricks, v.chips_by_seat) for v in fast.values] == [
            (v.card, v.sure_tricks, v.chips_by_seat) for v in plain.values
        ], (house, 10_000 + i)
        checked += 1
    assert checked >= 60


def test_the_random_positions_cover_what_they_should() -> None:
    """Most random positions exist, with 2, 3 and 4 active seats, 3 to 5 cards, later
    hands of a session, merged cards and choices that matter."""
    found, seen = 0, set()
    merged = tricks = money = later = 0
    for spec, players, left, seed, session in CASES:
        state = setup(House(f"{spec}+table(players={players})"), left, seed, session)
        if state is None:
            continue
        found += 1
        seen.add((len(state.hand.active), state.hand.hand_size - len(state.hand.tricks)))
        later += state.number > 1
        solution = solve(state)
        merged += any(v.same_as != v.card for v in solution.values)
        tricks += len({v.sure_tricks for v in solution.values}) > 1
        money += len({v.chips for v in solution.values}) > 1
    assert found >= 75 and later >= 15
    assert {(p, k) for p in (2, 3, 4) for k in (3, 4)} | {(2, 5), (3, 5)} <= seen
    assert merged >= 5 and tricks >= 10 and money >= 10


# -- hand-checked examples ----------------------------------------------------------


def dealt(spec: House | str, hands: dict[int, str], upcard: str, dealer: int = 0) -> State:
    """A hand dealt as given (the dealer holds the upcard), everyone plays and stands
    pat: the state at the first lead."""
    cards = {s: H(h) for s, h in hands.items()}
    state = Game(spec).new_hand(dealer=dealer, engine="python")  # (a table's deal)
    state.apply_chance(Dealt.of(H(upcard)[0], cards))
    while state.phase_name != "play":
        state.apply_action(PLAY if state.phase_name == "decide" else STAND_PAT)
    return state


THREE = "standard+table(players=3)"


def test_a_seat_holding_the_top_trumps_is_sure_of_them() -> None:
    # spades trump (the dealer's upcard 2S); seat 1 leads holding A K Q of trumps
    state = dealt(THREE, {0: "2S 9H 9D 9C 3C", 1: "AS KS QS 2H 3H", 2: "4S 5S TH 4C 5C"}, "2S")
    assert state.current_player() == 1
    solution = bourre.solve(state)
    assert solution.seat == 1
    values = {v.card: v for v in solution.values}
    # a cinch (R-SURE): it leads its highest trump, any of the three (R-EQUIV)
    assert set(values) == set(H("AS KS QS"))
    assert all(v.sure_tricks == 3 for v in values.values())
    assert {v.same_as for v in values.values()} == set(H("QS"))  # one searched for all
    # with three tricks it takes the pot of 3 (R-WIN)
    assert all(v.chips == 3 for v in values.values())
    assert solution.choice == H("QS")[0]  # the first in the state's order
    assert "QS" in str(solution)


def test_a_seat_that_cannot_take_a_trick_pays_the_bourre() -> None:
    # seat 2 holds the five lowest hearts, no trump; the others hold higher hearts
    hands = {0: "2S 9H TH 9C 3C", 1: "AS KS QS JH QH", 2: "2H 3H 4H 5H 6H"}
    for spec, payment in ((THREE, 3), (f"{THREE}+pot-limit(limit=2)", 2)):
        state = dealt(spec, hands, "2S")
        while state.current_player() != 2:
            state.apply_action(CARDS[state.legal_cards()[-1]])
        solution = solve(state)
        assert all(v.sure_tricks == 0 for v in solution.values)
        assert all(v.chips == -payment for v in solution.values)  # R-BOURRE, R-POT-LIMIT
        assert len({v.same_as for v in solution.values}) == 1  # five equivalent hearts


def test_chips_are_the_hands_money_from_here_in_a_session() -> None:
    """Mid-session, the chips are this hand's payout: the next hand's antes and the
    settlement are not counted."""
    game = Game("standard+table(players=2,hands=2)")
    state = game.new_session(seed=3)
    while state.number == 1 or state.phase_name != "play":
        actions = state.legal_actions()
        state.apply_action(PLAY if PLAY in actions else actions[0])
    state = state.clone()
    while len(state.hand.tricks) < 4 or state.hand.trick:
        state.apply_action(state.legal_actions()[0])
    # the last trick: each seat holds one card; play it out and read the balances
    solution = solve(state)
    end = state.clone()
    while not end.is_terminal():
        end.apply_action(end.legal_actions()[0])
    outcome = end.results[-1].outcome
    assert solution.values[0].chips_by_seat == tuple(
        t - p for t, p in zip(outcome.takes, outcome.paid, strict=True)
    )
    assert end.final is not None  # the session is settled, which is not counted


# -- third-party houses ---------------------------------------------------------------


class DeuceHigh(Variant):
    """The deuce of trumps beats every card (a rule that singles out one card)."""

    name = "deuce-high"
    summary = "the deuce of trumps is the highest card"
    builds_on = ("standard",)
    rules = {"bourre_trick_winner": [("R-TRICK", "The deuce of trumps takes any trick.")]}

    @hookimpl
    def bourre_trick_winner(self, table: TableSettings) -> Callable[..., int]:
        def winner(trick: tuple[int, ...], trump: int) -> int:
            if trump * 13 in trick:
                return trick.index(trump * 13)
            led = trick[0] // 13
            return max(
                range(len(trick)),
                key=lambda i: (trick[i] // 13 == trump, trick[i] // 13 == led, trick[i]),
            )

        return winner


def split_pot() -> ModuleType:
    """The example third-party plugin of the docs (ties split the pot, as fractions)."""
    path = ROOT / "docs" / "examples" / "bourre-split-pot" / "src" / "bourre_split_pot"
    spec = importlib.util.spec_from_file_location("bourre_split_pot", path / "__init__.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def third_party(spec: str) -> House:
    registry = load_registry(
        extra=[
            ("widdershins", plugin("widdershins", Widdershins)),
            ("deuce-high", plugin("deuce-high", DeuceHigh)),
            ("split-pot", split_pot()),
        ]
    )
    return House(spec, registry=registry)


@pytest.mark.parametrize(
    ("spec", "players", "left", "seed", "session"),
    cases(["widdershins", "split-pot", "four-card+widdershins+split-pot"], 15, 500),
)
def test_third_party_houses_are_solved(
    spec: str, players: int, left: int, seed: int, session: bool
) -> None:
    house = third_party(f"{spec}+table(players={players})")
    hook = "bourre_lead" if spec == "widdershins" else "bourre_payout"
    assert house.answered_by[hook].name != "standard"
    state = setup(house, left, seed, session)
    if state is not None:
        agree(state)


def test_a_split_pot_is_solved_in_exact_fractions() -> None:
    """Two players tied at 2-2 split a pot of 5 (R-SPLIT-POT): 5/2 each."""
    house = third_party("four-card+split-pot+table(players=2)")
    fractions = 0
    for seed in range(40):
        state = position(house, seed, session=False, left=4, pot=3)
        if state is None:
            continue
        solution = agree(state)
        fractions += any(isinstance(v.chips, Fraction) for v in solution.values)
        if fractions:
            break
    assert fractions
    assert Fraction(5, 2) in {v.chips for v in solution.values}


def test_a_rule_that_singles_out_a_card_is_solved_plainly() -> None:
    """Merging assumes the rules tell cards apart by suit and rank order only; on a
    house where the deuce of trumps is high that is wrong, and ``plain=True``, which
    assumes nothing, agrees with the brute force."""
    house = third_party("deuce-high+table(players=2)")
    state = dealt(house, {0: "4S 8H 9H 9C 3C", 1: "2S 3S 5H 6D 5C"}, "4S")
    assert state.current_player() == 1
    plain = {v.card: (v.sure_tricks, v.chips) for v in solve(state, plain=True).values}
    assert plain == brute(state)
    assert plain[H("2S")[0]] != plain[H("3S")[0]]  # not equivalent under this rule
    merged = {v.card: (v.sure_tricks, v.chips) for v in solve(state).values}
    assert merged[H("3S")[0]] == merged[H("2S")[0]]  # what merging (wrongly) assumes
    for seed in range(6):
        other = position(house, seed, session=False, left=4)
        if other is not None:
            got = solve(other, plain=True)
            assert {v.card: (v.sure_tricks, v.chips) for v in got.values} == brute(other)


# -- refusals -------------------------------------------------------------------------


def test_refusals_name_why() -> None:
    # the Python rules' state: its hand is changed below (a kernel state's is a snapshot)
    state = Game(THREE, engine="python").new_hand(seed=1)
    assert state.phase_name == "decide"
    with pytest.raises(ValueError, match=r"no card is to be played now.*'decide'"):
        solve(state)
    while state.phase_name != "play":
        state.apply_action(PLAY if state.phase_name == "decide" else STAND_PAT)
    with pytest.raises(ValueError, match="observation shows one seat's cards"):
        solve(state.observation(state.current_player()))  # type: ignore[arg-type]
    hidden = state.clone()
    hidden.hand.hidden[hidden.hand.active[-1]] = True
    with pytest.raises(ValueError, match="cards are not known"):
        solve(hidden)
    short = state.clone()
    short.hand.hands[short.hand.active[-1]].pop()
    with pytest.raises(ValueError, match="known cards, not 5"):
        solve(short)
    over = state.clone()
    while not over.is_terminal():
        over.apply_action(over.legal_actions()[0])
    with pytest.raises(ValueError, match="'over'"):
        solve(over)
    no_deal = Game(THREE).new_hand()
    with pytest.raises(ValueError, match="'chance'"):
        solve(no_deal)


# -- the documentation ---------------------------------------------------------------


def test_the_example_of_docs_advice_runs_and_prints_what_the_page_shows() -> None:
    import contextlib
    import io
    import re

    page = (ROOT / "docs" / "advice.md").read_text(encoding="utf-8")
    page = page.split("## Should I play this hand?", 1)[0]  # the solver's part
    code = re.findall(r"```python\n(.*?)```", page, re.S)
    shown = re.findall(r"```text\n(.*?)```", page, re.S)
    assert len(code) == 1 and shown
    with contextlib.redirect_stdout(io.StringIO()) as out:
        exec(compile(code[0], "docs/advice.md", "exec"), {"__name__": "advice_doc"})
    assert out.getvalue() == shown[0]


def test_a_kernel_backed_state_is_solved_as_the_python_one() -> None:
    """``Game(house)`` steps a built-in house in the kernel where it is built; the
    solver searches a Python copy of the same position (``State.python_copy``)."""
    pytest.importorskip("bourre.kernel._kernel", reason="the kernel is not built")
    house = House("standard+table(players=3)")
    rng = random.Random(5)
    solved = 0
    for seed in range(40):
        kernel, python = (
            Game(house, engine=e).new_session(seed=seed) for e in ("kernel", "python")
        )
        assert type(kernel) is not type(python)
        while not python.is_terminal() and python.phase_name != "play":
            action = rng.choice(list(python.legal_actions()))
            for state in (kernel, python):
                state.apply_action(action)
        if python.is_terminal():
            continue
        assert solve(kernel) == solve(python)
        assert type(kernel) is not State  # the kernel state itself is not changed
        solved += 1
    assert solved >= 5


def test_the_plain_search_is_for_a_plugins_rule_of_the_play_only(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Only a plugin's follow rule, cinch or trick winner (the rules of the play that
    read the cards) makes a house's solves plain (every card searched): a built-in
    variant's rule, a plugin's lead or money keeps the merging search, on the Python
    rules too (the kernel absent)."""
    from bourre.advice.weigh import engine_of

    assert kernel_solver.plugin_card_rules(House("optional-undertrump+no-cinch")) == ()
    assert kernel_solver.plugin_card_rules(third_party("split-pot")) == ()
    assert kernel_solver.plugin_card_rules(third_party("widdershins")) == ()
    high = third_party("deuce-high")
    assert kernel_solver.plugin_card_rules(high) == ("deuce-high (bourre_trick_winner)",)
    assert kernel_solver.plain_only(high)
    monkeypatch.setattr(kernel_solver, "_BUILT", False)
    for spec, engine in (
        ("standard", "python"),
        ("widdershins+split-pot", "python"),
        ("deuce-high", "python-plain"),
    ):
        state = setup(third_party(f"{spec}+table(players=3)"), 3, 7, False)
        assert state is not None and engine_of(state) == engine, spec
