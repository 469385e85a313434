"""Rule components in the one form of the plugin API (tuples of cards in, a Ruling
out), checked when they are not built in; the bots' base (:class:`PlayerBase`); the
payout's values and the settlement."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

import pytest
from conftest import plugin
from hypothesis import given
from hypothesis import strategies as st

from bourre.game.observation import Observation
from bourre.game.players import IllegalAnswer, PlayerBase, ask, make_bot, play_out
from bourre.game.simulate import play_session
from bourre.game.state import State
from bourre.rules import Reason, Ruling
from bourre.rules.cards import cards_of, mask_of, suit_mask
from bourre.rules.hookspec import PluginError
from bourre.rules.house import House
from bourre.rules.plugins import Registry, load_registry
from bourre.rules.settings import TableSettings
from bourre.rules.variant import Variant, hookimpl
from bourre_bots.heuristic import HeuristicPlayer
from bourre_variants.standard.cinch import StandardCinch
from bourre_variants.standard.obligations import follow

# -------------------------------------------------------------------------- masks


@given(st.sets(st.integers(0, 51)))
def test_a_mask_and_its_cards_convert_both_ways(cards: set[int]) -> None:
    m = mask_of(cards)
    assert cards_of(m) == sorted(cards)
    for s in range(4):
        assert cards_of(m & suit_mask(s)) == [x for x in sorted(cards) if x // 13 == s]


# ------------------------------------------------------- components in the one form


class OwnFollow:
    """The standard obligations rewritten by a plugin author: tuples of cards in, a
    Ruling out (the one form of the follow hook)."""

    def legal(self, hand: tuple[int, ...], trick: tuple[int, ...], trump: int) -> Ruling:
        assert isinstance(hand, tuple) and isinstance(trick, tuple)
        return follow(hand, trick, trump)


class AnythingGoes:
    """Every held card may be played."""

    def legal(self, hand: tuple[int, ...], trick: tuple[int, ...], trump: int) -> Ruling:
        return Ruling(hand, Reason("R-ANYTHING", "anything goes"))


class OwnCinch(StandardCinch):
    """A subclass of the standard cinch, as a plugin would write one."""


def _variant(name: str, hook: str, make: Callable[[], Any]) -> type[Variant]:
    def answer(self: Variant, table: TableSettings) -> Any:
        return make()

    return type(
        name.title().replace("-", ""),
        (Variant,),
        {"name": name, "summary": f"test: {name}", hook: hookimpl(answer)},
    )


VARIANTS = [
    _variant("own-follow", "bourre_follow", OwnFollow),
    _variant("anything-goes", "bourre_follow", AnythingGoes),
    _variant("own-cinch", "bourre_cinch", OwnCinch),
]


@pytest.fixture(scope="module")
def reg() -> Registry:
    out = load_registry(extra=[("card-sets", plugin("card-sets", *VARIANTS))])
    assert not out.errors, out.errors
    return out


def _sessions(house: House) -> list[Any]:
    out = []
    for seed in range(4):
        res = play_session(house, seed=seed, record=True)
        out.append([(h.outcome.takes, h.outcome.paid, [p.legal for p in h.plays]) for h in res.hands])
    return out


@pytest.mark.parametrize("spec", ["own-follow", "own-cinch"])
def test_a_plugins_component_plays_as_the_standard_checked(reg: Registry, spec: str) -> None:
    """The same rule written by a plugin: the same legal sets at every card, the same
    payouts; its component is checked at every call (it is not built in)."""
    house = House(spec, registry=reg)
    assert _sessions(house) == _sessions(House("standard"))
    assert any(spec in g for g in house.guarded)
    assert not House("standard").guarded


def test_anything_goes_is_honoured(reg: Registry) -> None:
    """The plugin's follow rule decides; the standard cinch still narrows."""
    house = House("anything-goes", registry=reg)
    checked = 0
    for seed in range(30):
        state = State(house, seed=seed)
        rng = random.Random(seed)
        bots = [make_bot("random", rng) for _ in range(house.table.players)]
        while not state.is_terminal():
            if state.phase_name == "play":
                legal = state.legal_with_reasons()
                if not legal.cinch:
                    assert list(legal.cards) == state.hand.hands[state.current_player()]
                    assert legal.rules == ["R-ANYTHING"]
                    checked += 1
            state.apply_action(ask(state, bots[state.current_player()]))
    assert checked > 100


def test_a_broken_answer_names_the_plugin(reg: Registry) -> None:
    """A follow rule answering a card outside the hand: the guard refuses it."""

    class Outside:
        def legal(self, hand: tuple[int, ...], trick: tuple[int, ...], trump: int) -> Ruling:
            return Ruling((51,) if 51 not in hand else (0,), Reason("R-X", "x"))

    bad = _variant("outside-hand", "bourre_follow", Outside)
    reg = load_registry(extra=[("outside", plugin("outside", bad))])
    house = House("outside-hand", registry=reg)
    with pytest.raises(PluginError, match=r"outside-hand.*within the hand"):
        play_session(house, seed=0)


def test_a_plugin_cannot_pass_for_built_in_by_its_module_name() -> None:
    """A plugin whose component and variant claim a built-in module is still checked:
    the built-ins are known by the entry point that registered them."""

    class Twice:
        def deal(self, deck: Any, dealer: int, n: int) -> Any:
            hands = [sorted(deck[5 * s : 5 * s + 5]) for s in range(n)]
            hands[1][0] = hands[0][0]  # one card in two hands
            hands[dealer] = sorted({*hands[dealer], deck[5 * n - 1]})[:5]
            return hands, deck[5 * n - 1], list(deck[5 * n :])

        def check_hand(self, *args: Any) -> None:
            return None

    Twice.__module__ = Twice.deal.__module__ = "bourre_variants.standard.deal"
    bad = _variant("twice-dealt", "bourre_deal", Twice)
    bad.__module__ = "bourre_variants.standard"
    reg = load_registry(extra=[("twice", plugin("twice", bad))])
    with pytest.raises(PluginError, match=r"twice-dealt.*bourre_deal"):
        play_session(House("twice-dealt", registry=reg), seed=0)


def test_a_component_lacking_its_methods_is_refused(reg: Registry) -> None:
    """A plugin's follow rule without ``legal``: refused when the house is built,
    naming the plugin and the missing method."""

    class Empty:
        pass

    bad = _variant("empty-follow", "bourre_follow", Empty)
    reg = load_registry(extra=[("empty", plugin("empty", bad))])
    with pytest.raises(PluginError, match=r"empty-follow.*lacks legal"):
        House("empty-follow", registry=reg)


# -------------------------------------------------------------------- PlayerBase


def test_the_player_base_alone_plays_every_hand_pat_and_low() -> None:
    """PlayerBase's own answers: play, stand pat, the lowest legal card."""
    seen = []

    class Watching(PlayerBase):
        def play(self, view: Observation) -> int:
            seen.append((view.legal, super().play(view)))
            return super().play(view)

    state = State(House("standard"), seed=7)
    play_out(state, [PlayerBase(), PlayerBase(), Watching(), PlayerBase(), PlayerBase()])
    assert state.is_terminal() and sum(state.returns()) == 0
    for r in state.results:
        assert len(r.state.active) == 5 and r.state.gave == [()] * 5  # all play, stand pat
    assert seen and all(card == min(legal) for legal, card in seen)


class WrongType(PlayerBase):
    def decide(self, view: Observation) -> bool:
        return True

    def discard(self, view: Observation) -> Sequence[int]:
        return ()

    def play(self, view: Observation) -> int:
        return "AS"  # type: ignore[return-value]


def test_a_player_base_answering_the_wrong_type_is_refused_not_crashed() -> None:
    state = State(House("standard"), seed=3)
    with pytest.raises(IllegalAnswer) as err:
        play_out(state, [WrongType() for _ in range(5)])
    assert err.value.rule == "R-DECK" and "is not a card" in str(err.value)


class Stubborn(HeuristicPlayer):
    """A subclass of a built-in bot: always plays, else the heuristic."""

    def decide(self, view: Observation) -> bool:
        return True


def test_a_subclass_of_a_built_in_bot_is_asked_its_own_way() -> None:
    house = House("standard")
    state = State(house, seed=5)
    play_out(state, [Stubborn(random.Random(s)) for s in range(5)])
    for r in state.results:
        assert len(r.state.active) == 5  # nobody ever passed


def test_the_payout_records_behave_as_values() -> None:
    """PlayResult and HandOutcome: keyword construction,
    field-wise equality, a readable repr, pickling; mutable, so unhashable."""
    import pickle

    from bourre.rules import HandOutcome, PlayResult

    out = HandOutcome(winner=None, takes=[0, 5], paid=[0, 0], pot_after=5, bourre=[], reneges=[])
    assert out == HandOutcome(None, [0, 5], [0, 0], 5, [], [], frozenset(), ())
    assert out != HandOutcome(None, [0, 5], [0, 0], 6, [], [])
    assert pickle.loads(pickle.dumps(out)) == out
    assert repr(out).startswith("HandOutcome(winner=None, takes=[0, 5]")
    res = PlayResult(2, 5, [0, 1], [3, 2], set(), [], False)
    assert pickle.loads(pickle.dumps(res)) == res and res != out
    assert "tricks_won=[3, 2]" in repr(res)
    with pytest.raises(TypeError):
        hash(out)
    # every field survives pickling and shows in the repr (none left out of either)
    full = HandOutcome(2, [0, 5], [1, 0], 7, [0], [0], frozenset({0}), (1, 2))
    back = pickle.loads(pickle.dumps(full))
    assert (back.winner, back.ante_exempt, back.tied, back.pot_after) == (
        2, frozenset({0}), (1, 2), 7,
    )  # fmt: skip
    for name in ("winner", "takes", "paid", "pot_after", "bourre", "reneges", "ante_exempt", "tied"):
        assert f"{name}=" in repr(full)
    assert full != HandOutcome(2, [0, 5], [1, 0], 7, [0], [0], frozenset({0}), (2, 1))
    back_res = pickle.loads(pickle.dumps(PlayResult(2, 5, [0, 1], [3, 2], {1}, [1], True)))
    assert (back_res.forfeits, back_res.reneges, back_res.sole) == ({1}, [1], True)


@given(
    st.lists(st.integers(-500, 500), min_size=2, max_size=8),
    st.integers(0, 200),
    st.booleans(),
)
def test_settlement_shares_the_pot_exactly(balances, pot, halves) -> None:
    """R-SETTLE: each final balance is the balance plus pot/n exactly (a whole number
    stays an int), and the places rank the final balances."""
    from fractions import Fraction

    from bourre_variants.standard.payout import settle

    start = [Fraction(b, 2) if halves and i == 0 else b for i, b in enumerate(balances)]
    final, ranks = settle(list(start), pot)
    n = len(start)
    assert final == [b + Fraction(pot, n) for b in start]
    assert all(isinstance(x, int) for x in final if Fraction(x).denominator == 1)
    assert ranks == [1 + sum(1 for o in final if o > x) for x in final]
