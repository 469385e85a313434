"""A plugin's bot on the compiled kernel (issue 41, "third-party bots likewise",
:mod:`bourre.kernel.mixed`): a ``compare`` session whose bots include one the kernel
does not play is stepped by the kernel's state, the built-in bots acting in C++ and the
plugin's asked in Python; the sessions are the Python rules' sessions, seat for seat and
chip for chip, and a bot that breaks a rule is refused in the same words."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import pytest
from conftest import plugin
from hookkit import Backwards

from bourre import kernel
from bourre.game import botmaking
from bourre.game.playerbase import IllegalAnswer, PlayerBase
from bourre.houses.house import House
from bourre.rules.plugins import load_registry
from bourre.rules.settings import TableSettings
from bourre.rules.variant import Variant, hookimpl
from bourre.sim.runs.sessions import parse_bots, run_session
from bourre_bots.heuristic import HeuristicPlayer
from bourre_variants.standard.deal import StandardDeal

pytestmark = pytest.mark.skipif(
    not kernel.available(),
    reason="the compiled kernel is not built (BOURRE_NO_KERNEL=1, or no C++ compiler)",
)


class Bold(HeuristicPlayer):
    """A plugin's bot: the heuristic, bolder (it plays weaker hands, keeps lower trumps)."""

    def __init__(self, rng: random.Random, **options: Any) -> None:
        super().__init__(rng, play_threshold=0.1, per_opponent=0.3, keep_trump=5)


class Dicey(PlayerBase):
    """A plugin's bot that draws from the session's generator at every answer (it shares
    it with the bots made after it), shown its legal choices only."""

    needs_view = False

    def __init__(self, rng: random.Random, **options: Any) -> None:
        self.rng = rng
        rng.random()  # (a draw when it is made: the next bots' streams move)

    def choose(self, actions: Sequence[Any]) -> Any:
        return self.rng.choice(list(actions))


class Renegade(Dicey):
    """A plugin's bot that answers a card it does not hold when it has a choice."""

    def choose_card(self, cards: tuple[int, ...]) -> int:
        return 52 if len(cards) > 1 else cards[0]


class Bots:
    @staticmethod
    @hookimpl
    def bourre_register_bots(register: Any) -> None:
        register("bold", lambda rng, **kw: Bold(rng))
        register("dicey", lambda rng, **kw: Dicey(rng))
        register("renegade", lambda rng, **kw: Renegade(rng))


class MyDeal(Variant):
    """A plugin's deal (the standard one, but a plugin's): the kernel does not play it."""

    name = "my-deal"
    summary = "The standard deal, as a plugin's."
    builds_on = ("standard",)

    @hookimpl
    def bourre_deal(self, table: TableSettings, hand_size: int) -> Any:
        return StandardDeal(hand_size)


REGISTRY = load_registry(
    extra=[
        ("plugin-bots", Bots),
        ("my-deal", plugin("my-deal", MyDeal)),
        ("backwards", plugin("backwards", Backwards)),
    ]
)


@pytest.fixture(autouse=True)
def _installed(monkeypatch: pytest.MonkeyPatch) -> None:
    """These tests are of the kernel whatever engine the suite runs with, the bots above
    installed as a plugin's."""
    monkeypatch.delenv("BOURRE_ENGINE", raising=False)
    monkeypatch.setattr(botmaking, "_registry", lambda: REGISTRY)


def house(spec: str) -> House:
    return House(spec, registry=REGISTRY)


def both(h: House, names: str, seed: int) -> tuple[dict[str, Any], dict[str, Any]]:
    """Session 0 of ``seed`` with the bots ``names`` (rotated), on the kernel and on the
    Python rules, without the fields that differ by nature (time, engine)."""
    bots = parse_bots(names)
    got = []
    for engine in ("auto", "python"):
        s = run_session(h, bots, f"plugin-bots:{seed}", seed % 3, rotate=True, engine=engine)
        got.append(s)
    k, p = got
    # (a session handed over at an answer the kernel does not hold: the Python rules')
    assert (k["engine"], p["engine"]) == ("python" if "backwards" in h.spec else "kernel", "python")
    for key in ("seconds", "engine"):
        del k[key], p[key]
    return k, p


def test_the_kernel_does_not_play_the_plugins_bot_itself() -> None:
    why = kernel.can_play(house("standard"), "bold")
    assert why is not None and "'bold'" in why


HOUSES = [
    ("standard", "bold,heuristic,random,random,heuristic"),
    ("standard", "dicey,random,bold,random,heuristic"),
    ("standard+table(players=3,hands=20)", "bold"),
    ("double-ante+table(players=3,hands=20)", "random,dicey,heuristic"),
    ("simultaneous-reveal+four-card+table(players=7)", "random,random,bold,random,dicey,random,heuristic"),
    ("pot-limit(limit=4)+optional-undertrump+table(players=4,ante=1/2,balance=7/3)", "dicey,bold,random,heuristic"),
    ("no-cinch+table(players=2,hands=30)", "dicey,random"),
    ("backwards+table(players=3)", "bold,dicey,heuristic"),  # (handed over at a card)
]  # fmt: skip


@pytest.mark.parametrize(("spec", "names"), HOUSES)
def test_sessions_with_a_plugins_bot_are_the_python_rules_sessions(spec: str, names: str) -> None:
    h = house(spec)
    for seed in range(3):
        k, p = both(h, names, seed)
        assert k == p, (spec, names, seed)


def test_a_house_the_kernel_cannot_play_stays_on_the_python_rules() -> None:
    h = house("standard+my-deal")
    assert kernel.can_play(h, "random", hooks=True) is not None
    s = run_session(h, parse_bots("bold"), "x", 0, engine="auto")
    assert s["engine"] == "python"


def test_a_plugins_bot_that_breaks_a_rule_is_refused_alike() -> None:
    """A card not held: the same refusal, naming the seat and the rule, on both."""
    h = house("standard+table(players=3)")
    bots = parse_bots("heuristic,renegade,random")
    said = []
    for engine in ("auto", "python"):
        with pytest.raises(IllegalAnswer) as e:
            for seed in range(20):
                run_session(h, bots, "refused", seed, engine=engine)
        said.append(str(e.value))
    assert said[0] == said[1] and "seat 1" in said[0]


def test_forced_with_the_kernel_it_plays_the_plugins_bot() -> None:
    """``--engine kernel``: a plugin's bot no longer refuses the run (the kernel's state
    steps it), a house the kernel cannot play still does, naming the component."""
    s = run_session(house("standard"), parse_bots("bold"), "forced", 0, engine="kernel")
    assert s["engine"] == "kernel"
    with pytest.raises(kernel.KernelError, match="my-deal"):
        run_session(house("standard+my-deal"), parse_bots("bold"), "forced", 0, engine="kernel")
