"""Rule components in the one form of the plugin API (tuples of cards in, a Ruling
out), checked when they are not built in."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from conftest import plugin

from bourre.game.players import ask, make_bot
from bourre.game.simulate import play_session
from bourre.game.state import State
from bourre.houses.house import House
from bourre.rules import Reason, Ruling
from bourre.rules.hookspec import PluginError
from bourre.rules.plugins import Registry, load_registry
from bourre.rules.settings import TableSettings
from bourre.rules.variant import Variant, hookimpl
from bourre_variants.standard.cinch import StandardCinch
from bourre_variants.standard.obligations import follow

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
        out.append(
            [(h.outcome.takes, h.outcome.paid, [p.legal for p in h.plays]) for h in res.hands]
        )
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
