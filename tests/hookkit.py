"""What the tests of a plugin's hooks on the compiled kernel share
(``tests/kernel/test_plugin_*.py``): a session on the Python rules, the whole-session
differentials (``simulate``'s and ``compare``'s), one random step on two states alike, a
stepped state played out by random choices, the facts the kernel is given with one hook replaced, a plugin that answers one hook with a given component,
the extension's own check of a hook's answer, a follow rule whose answers the kernel
does not hold, one that is the standard obligations, and a penalty whose amount the
kernel's units do not hold."""

from __future__ import annotations

import random
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import pytest

from bourre import kernel
from bourre.game.actions import Deck
from bourre.game.simulate import play_session
from bourre.houses.house import House
from bourre.rules import Ruling
from bourre.rules.hookspec import PenaltyFn
from bourre.rules.settings import TableSettings
from bourre.rules.variant import Variant, hookimpl
from bourre_variants.standard.obligations import follow


def python_session(h: House, seed: int, bots: str) -> Any:
    """The session ``seed`` of ``h`` played by the Python rules, the kernel's bots as
    the kernel seats them (``kernel._python``: what the kernel hands a session to)."""
    plan = kernel._plan(h, bots)
    assert not isinstance(plan, str)
    return kernel._python(h, seed, plan)


def mixed_bots(h: House) -> str:
    """Random and heuristic bots in turn, one a seat of ``h`` (both the kernel's)."""
    return ",".join((["random", "heuristic"] * 4)[: h.table.players])


def same_sessions(
    h: House, random_seeds: int = 10, bot_seeds: int = 5, bots: tuple[str, ...] = ()
) -> None:
    """``simulate``'s sessions of ``h`` on the kernel are the Python rules' (the final
    money, its types and the places): ``random_seeds`` with the default random bot, then
    ``bot_seeds`` with each of the heuristic, mixed bots (:func:`mixed_bots`) and
    ``bots``."""
    for seed in range(random_seeds):
        k = kernel.play_session(h, seed, "random")
        p = play_session(h, seed, keep_hands=False)
        assert (k.engine, p.engine) == ("kernel", "python")
        assert (k.final, k.ranks) == (p.final, p.ranks), (h.spec, seed)
        assert [type(x) for x in k.final] == [type(x) for x in p.final]
    for each in ("heuristic", mixed_bots(h), *bots):
        for seed in range(bot_seeds):
            k = kernel.play_session(h, seed, each)
            p = python_session(h, seed, each)
            assert (k.engine, (k.final, k.ranks)) == ("kernel", (p.final, p.ranks)), (
                h.spec,
                each,
                seed,
            )


def same_summaries(h: House, bots: tuple[str, ...] = ()) -> list[dict[str, Any]]:
    """``bourre compare``'s summary of a session of ``h`` (every per-hand tally) is the
    same on both engines, with the heuristic, random and mixed bots (or ``bots``), three
    sessions each; the kernel's summaries."""
    from bourre.sim.runs.sessions import parse_bots, run_session

    out = []
    for each in bots or ("heuristic", "random", mixed_bots(h)):
        specs = parse_bots(each)
        for i in range(3):
            k = run_session(h, specs, "t", i, rotate=True, engine="kernel")
            p = run_session(h, specs, "t", i, rotate=True, engine="python")
            assert (k.pop("engine"), p.pop("engine")) == ("kernel", "python")
            del k["seconds"], p["seconds"]
            assert k == p, (h.spec, each, i)
            out.append(k)
    return out


def same_step(k: Any, p: Any, rng: random.Random) -> None:
    """One random step on two states alike: at a chance node a deck shuffled from
    ``rng``, else one of the Python state's legal actions drawn from ``rng``."""
    if p.is_chance_node():
        deck = list(range(52))
        rng.shuffle(deck)
        p.apply_chance(Deck(tuple(deck)))
        k.apply_chance(Deck(tuple(deck)))
    else:
        a = rng.choice(list(p.legal_actions()))
        p.apply_action(a)
        k.apply_action(a)


def play_randomly(state: Any, seed: float) -> None:
    """The rest of the session, played by the same random choices on any state (a
    shuffled deck at each deal, a random legal action at each turn)."""
    rng = random.Random(seed)
    while not state.is_terminal():
        if state.is_chance_node():
            deck = list(range(52))
            rng.shuffle(deck)
            state.apply_chance(Deck(tuple(deck)))
        else:
            state.apply_action(rng.choice(list(state.legal_actions())))


def facts_with(h: House, **hooks: Any) -> tuple[dict[str, Any], Any]:
    """What the kernel is told of ``h`` (random bots), with ``hooks`` replaced."""
    plan = kernel._plan(h, "random")
    assert not isinstance(plan, str)
    return {**plan.house, **hooks}, plan.bots


def liar(hook: str, component: Any, registry: Callable[[type[Variant]], Any]) -> House:
    """The house ``liar``: the standard, but ``hook`` answered with ``component`` by a
    plugin (in the registry ``registry(cls)`` makes)."""

    def answer(self: Any, table: TableSettings) -> Any:
        return component

    answer.__name__ = hook
    cls = type(
        "Liar", (Variant,), {"name": "liar", "builds_on": ("standard",), hook: hookimpl(answer)}
    )
    return House("liar", registry=registry(cls))


def boom(*args: Any) -> Any:
    """A plugin's component with a bug of its own."""
    raise ZeroDivisionError("the plugin's own bug")


def extension_checks(facts: dict[str, Any], bots: Any, expect: Any) -> None:
    """The extension refuses a hook's answer of the wrong shape with ``expect`` (an
    exception), and hands to the Python rules (a status, not a result) what it does not
    hold (``expect == "handed"``)."""
    assert kernel._kernel is not None
    if expect == "handed":
        (got,) = kernel._kernel.play_shared(facts, bots, ["0"], Fraction, False)
        assert got == kernel._kernel.OVERFLOW
    else:
        with pytest.raises(expect):
            kernel._kernel.play_shared(facts, bots, ["0"], Fraction, False)


class Backwards(Variant):
    """The standard obligations, their cards given highest first: a random bot chooses
    among them in that order, which the kernel does not keep (the Python rules play)."""

    name = "backwards"
    summary = "The standard obligations, highest card first."
    builds_on = ("standard",)

    @hookimpl
    def bourre_follow(self, table: TableSettings) -> Any:
        class Follow:
            def legal(self, hand: tuple[int, ...], trick: tuple[int, ...], trump: int) -> Ruling:
                r = follow(hand, trick, trump)
                return Ruling(tuple(reversed(r.cards)), r.reason)

        return Follow()


FOLLOW_CALLS = [0]
"""How many times :class:`SameFollow`'s rule was asked (the proof a kernel asked it)."""


class SameFollow(Variant):
    """The standard obligations (R-FOLLOW, R-TRUMP, R-DISCARD), answered by a plugin in
    the hand's order: every result is the built-in house's, the rule asked through
    Python (its calls counted in :data:`FOLLOW_CALLS`)."""

    name = "same-follow"
    summary = "The standard obligations, from a plugin."
    builds_on = ("standard",)

    @hookimpl
    def bourre_follow(self, table: TableSettings) -> Any:
        class Follow:
            def legal(self, hand: tuple[int, ...], trick: tuple[int, ...], trump: int) -> Ruling:
                FOLLOW_CALLS[0] += 1
                return follow(hand, trick, trump)

        return Follow()


class Elevenths(Variant):
    """A bourré player pays the pot and an eleventh: not a whole number of the kernel's
    units (1/840 chip)."""

    name = "elevenths"
    summary = "A bourré player pays the pot and an eleventh of it."
    builds_on = ("standard",)

    @hookimpl
    def bourre_penalty(self, table: TableSettings) -> PenaltyFn:
        return lambda pot: pot + Fraction(pot) / 11


def replayed_both(both: list[tuple[object, object]]) -> Callable[..., object]:
    """A ``replay`` for :func:`bourre.game.worlds.sample_deal` that replays each sample
    on the Python rules and on the kernel (seeded alike), keeps the pair in ``both`` and
    gives the Python one to the sampling."""
    # lazy: the game's sampling and the kernel's worlds, for the tests that compare them
    from bourre.game.worlds import _replay
    from bourre.kernel.rollouts import replay_world

    def twice(*args: Any) -> object:
        house, view, dealt, gave, got, _, decide = args
        py = _replay(house, view, dealt, gave, got, random.Random(0), decide)
        k = replay_world(house, view, dealt, gave, got, random.Random(0), decide)
        both.append((py, k))
        return py

    return twice
