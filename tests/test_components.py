"""Card sets as bit masks (:class:`bourre.cards.Cards`) and the compiled forms of rule
components and bots (:mod:`bourre.components`, :class:`bourre.players.PlayerBase`):
plugins in the older list form, in the mask form and as Python subclasses of the
compiled bases all play the same game (docs/plugins.md, "Card sets")."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

import pytest
from conftest import plugin
from hypothesis import given
from hypothesis import strategies as st

from bourre.cards import CardError, Cards, cards_of, mask_of, suit_mask
from bourre.components import CinchComponent, FollowComponent
from bourre.engine import State
from bourre.house import House, PluginError
from bourre.observation import Observation
from bourre.players import IllegalAnswer, PlayerBase, ask, make_bot, play_out
from bourre.plugins import Registry, load_registry
from bourre.settings import TableSettings
from bourre.simulate import play_session
from bourre.variant import Variant, hookimpl
from bourre_bots.heuristic import HeuristicPlayer
from bourre_variants.standard.cinch import StandardCinch
from bourre_variants.standard.obligations import StandardFollow, follow, refusal

# -------------------------------------------------------------------------- Cards


@given(st.sets(st.integers(0, 51)))
def test_a_mask_and_its_cards_convert_both_ways(cards: set[int]) -> None:
    m = mask_of(cards)
    assert cards_of(m) == sorted(cards)
    c = Cards(m)
    assert c == m and list(c) == sorted(cards) and len(c) == len(cards)
    assert all(x in c for x in cards) and not any(x in c for x in set(range(52)) - cards)
    assert c[:] == sorted(cards)
    for s in range(4):
        assert list(c.suit(s)) == [x for x in sorted(cards) if x // 13 == s]


def test_cards_read_like_the_sorted_list_of_them() -> None:
    c = Cards.of([51, 0, 13])
    assert repr(c) == str(c) == "Cards(2S 2H AC)"
    assert c[0] == 0 and c[-1] == 51 and c[1:] == [13, 51]
    assert sorted(c) == [0, 13, 51] and "AS" not in c and 52 not in c
    assert c & suit_mask(1) == 1 << 13  # bit operations give plain ints
    for bad in (-1, 1 << 52):
        with pytest.raises(CardError, match="R-DECK"):
            Cards(bad)


# ------------------------------------------------------- components in every form


class ListFollow:
    """The standard obligations written for lists of cards (the older form): slices,
    iteration and ``in`` on the hand, a list answered."""

    def legal(self, hand: Sequence[int], trick: list[int], trump: int) -> list[int]:
        led = [c for c in hand if trick and c // 13 == trick[0] // 13]
        legal = cards_of(follow(mask_of(hand[:]), trick, trump))
        assert not led or set(legal) <= set(led)  # the hand reads as the sorted list
        return [c for c in hand if c in legal]

    def refuse(self, hand: Sequence[int], trick: list[int], trump: int, card: int) -> Any:
        return refusal(mask_of(hand), trick, trump, card)


class MaskFollow:
    """The same rule in the mask form, not a subclass of the compiled base."""

    def legal(self, hand: int, trick: list[int], trump: int) -> int:
        return follow(hand, trick, trump)

    def refuse(self, hand: int, trick: list[int], trump: int, card: int) -> Any:
        return refusal(hand, trick, trump, card)


class AnythingGoes(FollowComponent):
    """A Python subclass of the compiled base: every held card may be played."""

    def legal(self, hand: int, trick: list[int], trump: int) -> int:
        return hand

    def refuse(self, hand: int, trick: list[int], trump: int, card: int) -> Any:
        raise AssertionError("nothing is refused")


class ListCinch:
    """The standard cinch written for lists (answers ``narrow`` with a list)."""

    enabled = True

    def __init__(self) -> None:
        self.std = StandardCinch()

    def min_won(self, hand: Sequence[int], trump: int) -> int:
        return self.std.min_won(mask_of(hand), trump)

    def has_cinch(self, hand: Sequence[int], trump: int, known: int, won: int) -> bool:
        return self.std.has_cinch(mask_of(hand), trump, known, won)

    def narrow(
        self, legal: Sequence[int], hand: Sequence[int], trick: list[int], trump: int,
        known: int, last: bool,
    ) -> list[int]:
        return cards_of(self.std.narrow(mask_of(legal), mask_of(hand), trick, trump, known, last))

    def refuse(self, card: int, allowed: Sequence[int], trick: list[int], trump: int) -> Any:
        return self.std.refuse(card, mask_of(allowed), trick, trump)


def _variant(name: str, hook: str, make: Callable[[], Any]) -> type[Variant]:
    def answer(self: Variant, table: TableSettings) -> Any:
        return make()

    return type(
        name.title().replace("-", ""),
        (Variant,),
        {"name": name, "summary": f"test: {name}", hook: hookimpl(answer)},
    )


VARIANTS = [
    _variant("list-follow", "bourre_follow", ListFollow),
    _variant("mask-follow", "bourre_follow", MaskFollow),
    _variant("anything-goes", "bourre_follow", AnythingGoes),
    _variant("list-cinch", "bourre_cinch", ListCinch),
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


@pytest.mark.parametrize("spec", ["list-follow", "mask-follow", "list-cinch"])
def test_list_and_mask_forms_play_as_the_standard(reg: Registry, spec: str) -> None:
    """The same rule as a list-form or a mask-form plugin: the same legal sets at
    every card, the same payouts, in their compiled form's adapter."""
    house = House(spec, registry=reg)
    assert _sessions(house) == _sessions(House("standard"))
    field = "cinch" if "cinch" in spec else "follow"
    wrapped = getattr(house.rules, field)  # the compiled base, forwarding to the plugin
    assert type(wrapped) in (FollowComponent, CinchComponent) and wrapped.inner is not None


def test_built_in_components_are_their_own_compiled_form() -> None:
    rules = House("standard").rules
    assert type(rules.follow) is StandardFollow and type(rules.cinch) is StandardCinch


def test_a_python_subclass_of_the_compiled_base_is_honoured(reg: Registry) -> None:
    """Through the compiled method table, the override decides (anything goes)."""
    house = House("anything-goes", registry=reg)
    checked = 0
    for seed in range(30):
        state = State(house, seed=seed)
        rng = random.Random(seed)
        bots = [make_bot("random", rng) for _ in range(house.table.players)]
        while not state.is_terminal():
            if state.phase_name == "play":
                legal = state.legal_cards()
                if not state.has_cinch:  # the standard cinch still narrows
                    assert legal == state.hand.hands[state.current_player()]
                    checked += 1
            state.apply_action(ask(state, bots[state.current_player()]))
    assert checked > 100


def test_a_broken_mask_answer_names_the_plugin(reg: Registry) -> None:
    """A follow rule answering a card outside the hand, as a mask: the guard refuses."""

    class Outside(MaskFollow):
        def legal(self, hand: int, trick: list[int], trump: int) -> int:
            return 1 << 51 if not (hand >> 51) & 1 else 1

    bad = _variant("outside-mask", "bourre_follow", Outside)
    reg = load_registry(extra=[("outside", plugin("outside", bad))])
    house = House("outside-mask", registry=reg)
    with pytest.raises(Exception, match=r"outside-mask.*not within the hand"):
        play_session(house, seed=0)


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


def test_a_compiled_base_subclassed_without_its_methods_is_refused(reg: Registry) -> None:
    """A plugin's follow rule that subclasses FollowComponent but defines nothing:
    refused when the house is built, naming the plugin and the missing methods."""

    class Empty(FollowComponent):
        pass

    bad = _variant("empty-follow", "bourre_follow", Empty)
    reg = load_registry(extra=[("empty", plugin("empty", bad))])
    with pytest.raises(PluginError, match=r"empty-follow.*defines no legal, refuse"):
        House("empty-follow", registry=reg)


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
    assert err.value.rule == "R-DECK" and "wrong type" in str(err.value)  # as for a non-card


class Stubborn(HeuristicPlayer):
    """A Python subclass of a compiled bot: always plays, else the heuristic."""

    def decide(self, view: Observation) -> bool:
        return True


def test_a_python_subclass_of_a_compiled_bot_is_asked_its_own_way() -> None:
    house = House("standard")
    state = State(house, seed=5)
    play_out(state, [Stubborn(random.Random(s)) for s in range(5)])
    for r in state.results:
        assert len(r.state.active) == 5  # nobody ever passed


def test_the_payout_records_behave_as_values() -> None:
    """PlayResult and HandOutcome (plain compiled classes): keyword construction,
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


@given(st.lists(st.one_of(st.integers(-(10**15), 10**15), st.fractions()), max_size=9))
def test_the_games_sum_of_amounts_is_the_exact_sum(xs) -> None:
    """The money check after every hand adds whole chips natively and any fraction
    exactly: the same value (and type) as ``sum``."""
    from bourre.conservation import amount_sum

    got = amount_sum(list(xs))
    assert got == sum(xs) and type(got) is type(sum(xs))
