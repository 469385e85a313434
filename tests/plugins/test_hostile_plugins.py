"""Plugins that collide or lie: built-in names kept, lying components caught naming the
plugin and the hook, money made outside any component stopped, a plugin's error kept in
its words across processes, a plugin that exits at import recorded.  Each case gets one
clear refusal or is harmless; never a traceback, never money created."""

from __future__ import annotations

import pickle
import random
from fractions import Fraction
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from bourre.game.players import IllegalAnswer, play_out
from bourre.game.state import State
from bourre.houses.house import House
from bourre.rules import RuleViolation
from bourre.rules.hookspec import PluginError
from bourre.rules.plugins import load_registry
from bourre.rules.settings import TableSettings
from bourre.rules.variant import Variant, hookimpl
from bourre_bots.random_bot import RandomPlayer

# -- plugins --------------------------------------------------------------------------------


def _module(**hooks: Any) -> SimpleNamespace:
    mod = SimpleNamespace()
    for name, fn in hooks.items():
        setattr(mod, name, hookimpl(fn))
    return mod


def test_a_plugin_cannot_take_the_built_in_names() -> None:
    class FakeStandard(Variant):
        name = "standard"

    def variants(register: Any) -> None:
        register(FakeStandard)

    def bots(register: Any) -> None:
        register("random", lambda rng=None: None)

    reg = load_registry(
        extra=[("impostor", _module(bourre_register_variants=variants, bourre_register_bots=bots))]
    )
    assert reg.variants["standard"].cls is not FakeStandard
    assert reg.bots["random"][1].startswith("bourre ")
    messages = " ".join(str(e) for e in reg.errors)
    assert "'standard' is already registered by plugin 'standard' (bourre" in messages
    assert "'random' is already registered by bourre" in messages


def _house_with(hook: str, component: Any) -> House:
    def answer(self: Any, table: TableSettings, **_: Any) -> Any:
        return component

    answer.__name__ = hook
    cls = type("Liar", (Variant,), {"name": "liar", hook: hookimpl(answer)})

    def variants(register: Any) -> None:
        register(cls)

    reg = load_registry(extra=[("liar", _module(bourre_register_variants=variants))])
    return House("liar", registry=reg)


def _play(house: House) -> State:
    state = State(house, seed="liar")
    play_out(state, [RandomPlayer(random.Random(s)) for s in range(house.table.players)])
    return state


@pytest.mark.parametrize(
    ("hook", "component", "words"),
    [
        (
            "bourre_settle",
            lambda b, pot: ([x + 10 for x in b], [1] * len(b)),
            "money not conserved",
        ),
        (
            "bourre_deal",
            SimpleNamespace(
                deal=lambda deck, d, n: ([list(deck[:5])] * n, deck[4], list(deck[5:])),
                check_hand=lambda *a: None,
            ),
            "R-DEAL",
        ),
        ("bourre_trick_winner", lambda trick, trump: -1, "an index of the trick"),
        ("bourre_next_dealer", lambda d, marks: 9, "must be a seat"),
        ("bourre_penalty", lambda p: -1, "amount ≥ 0"),
    ],
)
def test_lying_components_are_caught_naming_plugin_and_hook(
    hook: str, component: Any, words: str
) -> None:
    with pytest.raises(PluginError) as e:
        _play(_house_with(hook, component))
    assert e.value.plugin == "liar" and e.value.hook == hook and words in str(e.value)


def test_a_fractional_penalty_is_an_amount() -> None:
    state = _play(_house_with("bourre_penalty", lambda p: Fraction(p, 2)))
    assert sum(state.final[0]) == 500  # type: ignore[index]


def test_a_draw_that_duplicates_a_card_is_caught() -> None:
    from bourre_variants.standard.draw import Draw

    class Forger(Draw):
        def draw(self, state: Any, seat: int, discards: Any) -> None:
            super().draw(state, seat, discards)
            if discards:
                state.hands[seat][0] = state.hands[(seat + 1) % state.n][0]  # a copy

    with pytest.raises(PluginError, match=r"bourre_draw.*each card in one place"):
        for _ in range(3):
            _play(_house_with("bourre_draw", Forger(5)))


def test_money_made_outside_any_component_check_stops_the_game() -> None:
    class Leaky:
        def hand_antes(self, n: int, ante: Any, previous: Any, dealer: int) -> list[Any]:
            return [ante] * n

        def reasons(self, *args: Any) -> tuple[Any, ...]:
            return ()

        def play_ante(self, ante: Any) -> Any:
            return 0

    house = _house_with("bourre_ante", Leaky())
    state = State(house, seed="x")
    vars(state)["_balances"][0] += 1000  # what a bot reaching the live state could do
    with pytest.raises(PluginError, match="money not conserved"):
        play_out(state, [RandomPlayer(random.Random(s)) for s in range(5)])


def test_a_raising_ante_reaches_replay_as_a_clean_error(tmp_path: Path) -> None:
    def boom(*a: Any) -> Any:
        raise ZeroDivisionError("boom")

    house = _house_with(
        "bourre_ante", SimpleNamespace(hand_antes=boom, play_ante=boom, reasons=boom)
    )
    with pytest.raises(PluginError, match="raised ZeroDivisionError"):
        _play(house)


def test_errors_keep_their_words_across_processes() -> None:
    for e in (
        PluginError("liar", "bourre_payout", "money not conserved"),
        RuleViolation("R-FOLLOW", "play a heart", (1, 2)),
        IllegalAnswer(3, "R-TRUMP", "trump", (4,)),
    ):
        back = pickle.loads(pickle.dumps(e))
        assert type(back) is type(e) and str(back) == str(e)


def test_a_plugin_that_exits_at_import_is_recorded(monkeypatch: pytest.MonkeyPatch) -> None:
    import bourre.rules.plugins as plugins

    def loader() -> Any:
        raise SystemExit(3)

    real = plugins._entry_points

    def with_exiting() -> Any:
        yield from real()
        yield "exits", "evil 1.0", False, loader

    monkeypatch.setattr(plugins, "_entry_points", with_exiting)
    reg = plugins.load_registry()
    assert "standard" in reg.variants
    assert any(e.plugin == "exits" and "SystemExit" in e.message for e in reg.errors)


def test_a_plugin_error_keeps_its_words_with_two_workers(monkeypatch: pytest.MonkeyPatch) -> None:
    """Workers are forked from this process: a lying plugin known here fails there,
    and its error arrives whole (not as BrokenProcessPool)."""
    import bourre.rules.plugins as plugins
    from bourre.sim.runs import runner

    def winner(self: Any, table: TableSettings) -> Any:
        return lambda trick, trump: -1

    cls = type("Liar2", (Variant,), {"name": "liar-two", "bourre_trick_winner": hookimpl(winner)})

    def variants(register: Any) -> None:
        register(cls)

    real_build = plugins.build
    monkeypatch.setattr(
        plugins,
        "build",
        lambda extra=(): real_build(
            [*extra, ("liar-two", _module(bourre_register_variants=variants))]
        ),
    )
    plugins._process.cache_clear()
    try:
        plugins.default_registry()
        config = runner.RunConfig(["standard+liar-two"], 8, "w", runner.parse_bots("random"), False)
        result = runner.run(config, workers=2)
    finally:
        plugins._process.cache_clear()
    assert not result.complete
    assert "plugin 'liar-two', hook bourre_trick_winner" in (result.stopped or "")
    assert "BrokenProcessPool" not in (result.stopped or "")


# -- cards given as floats (issue 42): refused at the guard, naming the plugin --------------


def _float_follow() -> Any:
    from bourre_variants.standard.obligations import StandardFollow

    class FloatFollow(StandardFollow):
        def legal(self, hand: tuple[int, ...], trick: tuple[int, ...], trump: int) -> Any:
            r = super().legal(hand, trick, trump)
            return type(r)(tuple(float(x) for x in r.cards), r.reason)

    return FloatFollow()


def _float_draw() -> Any:
    from bourre_variants.standard.draw import Draw

    class FloatDraw(Draw):
        def draw(self, state: Any, seat: int, discards: Any) -> None:
            super().draw(state, seat, discards)
            state.hands[seat][:] = [float(x) for x in state.hands[seat]]

    return FloatDraw(5)


def _float_lead() -> Any:
    from bourre_variants.standard.lead import make_lead

    lead = make_lead(5)
    return lambda active, dealer, winner: tuple(float(s) for s in lead(active, dealer, winner))


def _house_answering(hook: str, component: Any) -> House:
    """A house whose plugin ``liar`` answers ``hook`` with ``component`` (the hook's
    own arguments, as the registry checks them)."""
    if hook == "bourre_draw":

        def answer(self: Any, table: TableSettings, hand_size: int) -> Any:
            return component
    else:

        def answer(self: Any, table: TableSettings) -> Any:  # type: ignore[misc]
            return component

    answer.__name__ = hook
    cls = type("Liar", (Variant,), {"name": "liar", hook: hookimpl(answer)})

    def variants(register: Any) -> None:
        register(cls)

    reg = load_registry(extra=[("liar", _module(bourre_register_variants=variants))])
    return House("liar", registry=reg)


@pytest.mark.parametrize(
    ("hook", "make", "words"),
    [
        ("bourre_follow", _float_follow, "non-empty tuple within the hand"),
        ("bourre_draw", _float_draw, "R-DRAW"),
        ("bourre_lead", _float_lead, "active seats"),
    ],
)
def test_cards_and_seats_given_as_floats_are_refused_naming_the_plugin(
    hook: str, make: Any, words: str
) -> None:
    with pytest.raises(PluginError) as e:
        for _ in range(4):  # a draw of 0 cards changes nothing: a few hands
            _play(_house_answering(hook, make()))
    assert e.value.plugin == "liar" and e.value.hook == hook and words in str(e.value)
