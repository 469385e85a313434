"""The bots: registered by name, only legal answers, forced plays respected, the Monte
Carlo bot never reaching past its PlayerView, and (slow) their measured strength."""

from __future__ import annotations

import inspect
import random
from types import SimpleNamespace
from typing import Any

import pytest

from bourre import bots as bots_module
from bourre.bots import HeuristicPlayer, MonteCarloPlayer, choose_card, discard_weak
from bourre.cards import parse_card
from bourre.house import House
from bourre.players import BotAgents, make_bot
from bourre.plugins import default_registry
from bourre.simulate import play_session
from bourre.state import PublicDecision

HOUSES = [
    "standard",
    "four-card",
    "simultaneous-reveal",
    "optional-undertrump",
    "no-cinch",
    "double-ante",
    "pot-limit(limit=5)",
    "standard+table(players=8)",
    "standard+table(players=3)",
]


def C(text: str) -> int:
    return parse_card(text)


def test_registered_through_the_bots_module() -> None:
    reg = default_registry()
    for name in ("random", "heuristic", "montecarlo"):
        assert name in reg.bots
        assert reg.bots[name][0].__module__ == "bourre.bots"
    assert isinstance(make_bot("heuristic", random.Random(1)), HeuristicPlayer)
    mc = make_bot("montecarlo", random.Random(1), house=House("four-card"), budget=4)
    assert isinstance(mc, MonteCarloPlayer) and mc.budget == 4 and mc.rules.hand_size == 4
    with pytest.raises(ValueError, match="budget"):
        make_bot("montecarlo", random.Random(1), budget=0)


class Checked(BotAgents):
    """BotAgents that also checks every answer against the engine's own sets."""

    forced_seen = 0

    def decide(self, state: Any, seat: int, forced: str | None) -> bool:
        answer = super().decide(state, seat, forced)
        if forced is not None:
            assert answer, f"seat {seat} passed although {forced}"
            Checked.forced_seen += 1
        return answer

    def discard(self, state: Any, seat: int) -> list[int]:
        cards = list(super().discard(state, seat))
        assert len(set(cards)) == len(cards) and set(cards) <= set(state.hands[seat])
        return cards

    def play(self, state: Any, seat: int, legal: list[int], cinch: bool) -> tuple[int, None]:
        card, corrected = super().play(state, seat, legal, cinch)
        assert card in legal and corrected is None
        return card, corrected


def _play(house: House, seed: str, make: Any) -> None:
    import bourre.simulate as sim

    n = house.table.players
    rng = random.Random(f"t:{seed}")
    players = [make(s, rng) for s in range(n)]
    original = sim.BotAgents
    sim.BotAgents = Checked  # type: ignore[misc]
    try:
        res = play_session(house, seed=seed, players=players, record=True)
    finally:
        sim.BotAgents = original  # type: ignore[misc]
    for h in res.hands:
        h.state.places()  # every card in exactly one place
        for p in h.plays:
            assert p.card in p.legal and not p.renege and not p.corrected
        assert not h.outcome.reneges


@pytest.mark.parametrize("spec", HOUSES)
def test_heuristic_and_random_only_play_legal_cards(spec: str) -> None:
    house = House(spec)
    for i in range(12):
        _play(house, f"h{i}", lambda s, rng: make_bot("heuristic" if s % 2 == 0 else "random", rng))
        _play(house, f"a{i}", lambda s, rng: make_bot("heuristic", rng))


@pytest.mark.parametrize("spec", HOUSES)
def test_montecarlo_only_plays_legal_cards(spec: str) -> None:
    house = House(spec)
    names = ["montecarlo", "heuristic", "random"]
    for i in range(2):
        _play(
            house,
            f"m{i}",
            lambda s, rng, i=i: make_bot(names[(s + i) % 3], rng, house=house, budget=3),
        )


def test_forced_plays_are_respected() -> None:
    """R-ACE-UP and R-LAST-STANDS arise and the bots never pass then (Checked
    asserts it; BotAgents would also refuse the pass)."""
    Checked.forced_seen = 0
    house = House("standard")
    for i in range(60):
        _play(house, f"f{i}", lambda s, rng: make_bot("heuristic", rng))
    for i in range(3):
        _play(house, f"g{i}", lambda s, rng: make_bot("montecarlo", rng, house=house, budget=2))
    assert Checked.forced_seen > 0


# -- the Monte Carlo bot sees only its view ------------------------------------------------

PUBLIC = (
    "hand",
    "own_discards",
    "upcard",
    "trump",
    "dealer",
    "players",
    "hand_size",
    "number",
    "decisions",
    "active",
    "tricks",
    "trick",
    "tricks_won",
    "pot",
    "balances",
    "stock_size",
    "legal",
    "cinch",
    "forced",
    "seat",
)


class Snapshot:
    """A copy of the public fields of a PlayerView, with no reference to the hand's
    state; any other attribute access fails the test."""

    __slots__ = ("_d",)

    def __init__(self, view: Any) -> None:
        d = {k: getattr(view, k) for k in PUBLIC}
        d["_seen"] = view.seen()
        object.__setattr__(self, "_d", d)

    def __getattr__(self, name: str) -> Any:
        d = object.__getattribute__(self, "_d")
        if name in d:
            return d[name]
        raise AssertionError(f"the bot read {name!r}, which is not part of its PlayerView")

    def seen(self) -> frozenset[int]:
        return self._d["_seen"]  # type: ignore[no-any-return]


class OnlySnapshots:
    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.calls = 0

    def decide(self, view: Any) -> bool:
        self.calls += 1
        return bool(self.inner.decide(Snapshot(view)))

    def discard(self, view: Any) -> Any:
        self.calls += 1
        return self.inner.discard(Snapshot(view))

    def play(self, view: Any) -> int:
        self.calls += 1
        return int(self.inner.play(Snapshot(view)))


@pytest.mark.parametrize("spec", ["standard", "simultaneous-reveal", "standard+table(players=7)"])
def test_montecarlo_uses_nothing_but_its_view(spec: str) -> None:
    """Given detached copies of its view (no HandState behind them) the Monte Carlo bot
    plays exactly as with the real views: it reads nothing hidden."""
    house = House(spec)
    n = house.table.players

    def session(wrap: bool) -> list[Any]:
        def make(s: int, rng: random.Random) -> Any:
            if s in (0, 2):
                p = MonteCarloPlayer(random.Random(f"mc{s}"), house=house, budget=4)
                return OnlySnapshots(p) if wrap else p
            return HeuristicPlayer(rng)

        res = play_session(house, seed="view", players=make)
        return [(h.dealer, h.state.active, h.balances) for h in res.hands] + [res.final]

    assert session(True) == session(False)
    assert n >= 3
    src = inspect.getsource(bots_module)
    assert "_PlayerView__state" not in src and "HandState" not in src


# -- the heuristic's rules of thumb ---------------------------------------------------------


def fake_view(**kw: Any) -> SimpleNamespace:
    base: dict[str, Any] = {
        "hand": (),
        "own_discards": (),
        "upcard": C("2S"),
        "trump": 0,
        "dealer": 4,
        "players": 5,
        "hand_size": 5,
        "number": 1,
        "decisions": (),
        "active": (0, 1, 2, 3, 4),
        "tricks": (),
        "trick": (),
        "tricks_won": (0,) * 5,
        "pot": 5,
        "balances": (100,) * 5,
        "stock_size": 27,
        "legal": (),
        "cinch": False,
        "forced": None,
        "seat": 0,
    }
    base.update(kw)
    v = SimpleNamespace(**base)
    v.seen = lambda: frozenset(v.hand) | frozenset(v.own_discards) | {v.upcard}
    return v


def test_heuristic_exchange_keeps_trumps_and_aces() -> None:
    hand = sorted(C(x) for x in ("3S", "AH", "KD", "7C", "QS"))
    assert sorted(discard_weak(hand, 0)) == sorted([C("KD"), C("7C")])
    p = HeuristicPlayer(0)
    assert sorted(p.discard(fake_view(hand=tuple(hand)))) == sorted([C("KD"), C("7C")])


def test_heuristic_decides_by_strength_position_and_forced() -> None:
    p = HeuristicPlayer(0)
    strong = tuple(sorted(C(x) for x in ("AS", "KS", "QS", "AH", "2D")))
    weak = tuple(sorted(C(x) for x in ("2H", "3H", "5D", "7C", "9C")))
    assert p.decide(fake_view(hand=strong, seat=0))
    assert not p.decide(fake_view(hand=weak, seat=0))
    assert p.decide(fake_view(hand=weak, seat=4, forced="R-LAST-STANDS"))
    played = tuple(PublicDecision(s, True, 1) for s in range(4))
    assert not p.decide(fake_view(hand=weak, seat=4, decisions=played))


def test_heuristic_wins_cheaply_and_dumps_low() -> None:
    # spades trump; hearts led; last to play: the cheapest winning heart
    legal = [C("9H"), C("QH"), C("AH")]
    assert choose_card(legal, [C("8H"), C("TH")], 0, 0, last=True) == C("QH")
    # cannot win (the trick is trumped): the lowest card
    assert choose_card(legal, [C("8H"), C("3S")], 0, 0, last=False) == C("9H")
    # not last: a master winner (AH) rather than a card that may be beaten
    assert choose_card(legal, [C("8H"), C("TH")], 0, 0, last=False) == C("AH")
    # leading with the master trump
    known = 1 << C("AS")
    assert choose_card([C("KS"), C("4D")], [], 0, known, last=False) == C("KS")
    # leading without a master: the lowest non-trump
    assert choose_card([C("5S"), C("4D"), C("9C")], [], 0, 0, last=False) == C("4D")


def test_montecarlo_takes_a_sure_win_and_is_deterministic() -> None:
    house = House("standard")
    # last trick, last to play: the AS wins the hand's decisive trick
    view = fake_view(
        hand=(C("2D"), C("AS")),
        legal=(C("2D"), C("AS")),
        active=(1, 0),
        trick=((1, C("KS")),),
        tricks_won=(1, 2, 0, 0, 0),
        hand_size=5,
        tricks=tuple(
            SimpleNamespace(leader=1, plays=((1, C(a)), (0, C(b))), winner=w)
            for a, b, w in (("AH", "3H", 1), ("KH", "4H", 1), ("5C", "AC", 0))
        ),
        decisions=(PublicDecision(0, True, 0), PublicDecision(1, True, 0)),
    )
    picks = {MonteCarloPlayer(random.Random(k), house=house, budget=8).play(view) for k in range(3)}
    assert picks == {C("AS")}


# -- measured strength (docs/bots.md) -------------------------------------------------------


def _strength(bots: str, sessions: int, seed: str) -> dict[str, Any]:
    from bourre.compare.metrics import compute
    from bourre.compare.runner import RunConfig, parse_bots, run

    cfg = RunConfig(["standard"], sessions, seed, parse_bots(bots), rotate=True)
    res = run(cfg, workers=2)
    assert res.complete
    return compute(res)["houses"][0]["bots"]  # type: ignore[no-any-return]


@pytest.mark.slow
def test_heuristic_beats_random() -> None:
    b = _strength("heuristic,random,random,random,random", 2000, "strength")
    assert b["heuristic"]["lo"] > 0
    assert b["heuristic"]["lo"] > b["random"]["hi"]


@pytest.mark.slow
def test_montecarlo_beats_heuristic() -> None:
    b = _strength("montecarlo(budget=16),heuristic,heuristic,heuristic,heuristic", 600, "strength")
    assert b["montecarlo(budget=16)"]["lo"] > 0
