"""A plugin's decisions or draw on the compiled kernel (issue 41, "open to plugins", the
per-decision hooks): a house whose ``bourre_decisions`` (R-DECIDE, R-PASS, R-ACE-UP,
R-LAST-STANDS …) or ``bourre_draw`` (R-DRAW, R-RESHUFFLE) is a plugin's plays its whole
sessions on the kernel, the decisions and exchanges handed to the house's checked
components in Python (:mod:`bourre.kernel.decisions`), the bots in C++ keeping within
the plugin's exchange limit as the Python bots do.  The result is the Python rules'
session for session (``simulate``'s and ``compare``'s, random, heuristic and mixed
bots, reshuffles included), the plugin is asked the same questions with the same
hand, and a plugin that misbehaves gives the Python rules' error word for word.  The
stepped state (``Game(house).new_session``) plays it too, step for step the Python
state's (legal actions, observations, refusals in the same words, clones, a plugin's
bot in ``compare``); the worlds and advice leave it to the Python rules, the solver
plays it from the tricks.  Skipped, with the reason, when the extension is not built.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import pytest
from conftest import plugin
from hookkit import (
    facts_with,
    mixed_bots,
    play_randomly,
    python_session,
    same_sessions,
    same_step,
    same_summaries,
)

from bourre import kernel
from bourre.game import Game, botmaking
from bourre.game.actions import PASS, Action
from bourre.game.simulate import play_session
from bourre.game.state import State
from bourre.houses.house import House
from bourre.kernel.hooks import STATE_HOOKS
from bourre.kernel.rollouts import LOAD_HOOKS
from bourre.kernel.state import KernelState
from bourre.rules import DECIDE, EXCHANGE, RuleViolation, Turn
from bourre.rules.hand import HandState, PublicDecision
from bourre.rules.plugins import load_registry
from bourre.rules.settings import TableSettings
from bourre.rules.variant import Variant, hookimpl
from bourre.sim.runs.sessions import parse_bots, run_session
from bourre_variants.simultaneous_reveal import Simultaneous
from bourre_variants.standard.decisions import Sequential
from bourre_variants.standard.draw import Draw
from tests.kernel.test_plugin_bots import Bots

_kernel = pytest.importorskip(
    "bourre.kernel._kernel",
    reason="the compiled kernel is not built (BOURRE_NO_KERNEL=1, or no C++ compiler)",
)

# -- scaffolded variants: a decisions rule, a draw rule ----------------------------------


class AceUpMayPass(Sequential):
    """The standard decisions, but the dealer may pass with the ace of trumps up (no
    R-ACE-UP; R-LAST-STANDS stays)."""

    def forced(self, hand: HandState, seat: int) -> str | None:
        last = seat == hand.dealer and not hand.active
        return "R-LAST-STANDS" if last else None


class DealerFirst(Sequential):
    """The dealer decides first, then the others from its left; the first who plays
    leads (its players are not in clockwise order from the dealer's left)."""

    def turn(self, hand: HandState) -> Turn | None:
        if hand.exchanging >= 0:
            return Turn(hand.exchanging, EXCHANGE)
        if hand.step >= hand.n:
            return None
        seat = (hand.dealer + hand.step) % hand.n
        last = hand.step == hand.n - 1 and not hand.active
        return Turn(seat, DECIDE, "R-LAST-STANDS" if last else None)

    def forced(self, hand: HandState, seat: int) -> str | None:
        return "R-LAST-STANDS" if hand.step == hand.n - 1 and not hand.active else None


class DealerPlays(Sequential):
    """The dealer never passes: a house rule of its own (R-HOUSE-DEALER), its turn says."""

    def forced(self, hand: HandState, seat: int) -> str | None:
        return "R-HOUSE-DEALER" if seat == hand.dealer else None


class Capped(Draw):
    """At most ``cap`` cards exchanged (R-DRAW's limit)."""

    def __init__(self, hand_size: int, cap: int) -> None:
        super().__init__(hand_size)
        self.cap = cap

    def limit(self, hand: HandState, seat: int) -> int:
        return self.cap


class DealerCapped(Draw):
    """The dealer exchanges at most one card; a player holding two trumps at most two."""

    def limit(self, hand: HandState, seat: int) -> int:
        if seat == hand.dealer:
            return 1
        trumps = sum(1 for c in hand.hands[seat] if c // 13 == hand.trump)
        return 2 if trumps >= 2 else self.hand_size


def _variant(name: str, hook: str, answer: Any) -> type[Variant]:
    """A scaffolded variant ``name`` answering ``hook`` with ``answer``."""
    answer.__name__ = hook
    return type(
        name.title().replace("-", ""),
        (Variant,),
        {"name": name, "summary": name, "builds_on": ("standard",), hook: hookimpl(answer)},
    )


def _decisions(name: str, rule: Any) -> type[Variant]:
    def bourre_decisions(self: Any, table: TableSettings) -> Any:
        return rule() if isinstance(rule, type) else rule

    return _variant(name, "bourre_decisions", bourre_decisions)


def _draw(name: str, make: Any) -> type[Variant]:
    def bourre_draw(self: Any, table: TableSettings, hand_size: int) -> Any:
        return make(hand_size)

    return _variant(name, "bourre_draw", bourre_draw)


VARIANTS = [
    _decisions("their-reveal", Simultaneous),  # a built-in component, a plugin's answer
    _decisions("ace-may-pass", AceUpMayPass),
    _decisions("dealer-first", DealerFirst),
    _decisions("dealer-plays", DealerPlays),
    _draw("three-max", lambda h: Capped(h, 3)),
    _draw("one-max", lambda h: Capped(h, 1)),
    _draw("no-draw", lambda h: Capped(h, 0)),
    _draw("dealer-capped", DealerCapped),
]
REGISTRY = load_registry(extra=[(cls.name, plugin(cls.name, cls)) for cls in VARIANTS])


def house(spec: str) -> House:
    return House(spec, registry=REGISTRY)


HOUSES = [
    "standard+their-reveal",
    "standard+ace-may-pass",
    "standard+three-max",
    "three-max+table(players=8)",  # (the stock runs out: R-RESHUFFLE)
    "one-max+table(players=3)",
    "no-draw+double-ante",
    "dealer-capped+pot-limit(limit=3)+table(players=6)",
    "their-reveal+three-max+table(players=7)",
    "ace-may-pass+one-max+four-card+table(players=4,ante=1/2)",
    "simultaneous-reveal+dealer-capped+no-cinch+table(players=8)",
]


# -- what the kernel plays, and where ---------------------------------------------------


def test_the_decisions_and_draw_are_named_and_asked_by_sessions_and_the_stepped_state() -> None:
    h = house("their-reveal+three-max")
    assert kernel.python_hooks(h) == (
        "their-reveal (bourre_decisions)",
        "three-max (bourre_draw)",
    )
    for spec in HOUSES:
        assert kernel.can_play(house(spec), mixed_bots(house(spec)), hooks=True) is None, spec
    # the stepped state plays it; the worlds and advice's deals step the decisions themselves
    assert kernel.can_play(h, hooks=STATE_HOOKS) is None
    why = kernel.can_play(h, hooks=LOAD_HOOKS)
    assert why is not None and "their-reveal (bourre_decisions)" in why
    state = Game(h).new_session(seed=1)
    assert type(state) is KernelState
    # rollouts of the stepped state play each on its own copy of the hand's run: the
    # state itself goes on as a clone taken before them
    twin = state.clone()
    state.stepper.rollouts([53, 52], state.current_player())
    for _ in range(6):
        assert state.observation(state.current_player()) == twin.observation(twin.current_player())
        action = state.legal_actions()[0]
        state.apply_action(action)
        twin.apply_action(action)
    # and the extension refuses such a house to the worlds it samples or loads itself
    facts, _ = facts_with(h)
    with pytest.raises(ValueError, match="whole sessions and the stepped state only"):
        _kernel.load_world(facts, {})


def test_the_hooks_are_said_in_a_players_words_before_the_run() -> None:
    from bourre.sim.speed.forecast import _asked

    assert _asked(kernel.python_hooks(house("their-reveal+three-max"))) == (
        "their-reveal's decisions at every decision and exchange and three-max's draw at"
        " every exchange"
    )


# -- whole sessions: simulate's and compare's -------------------------------------------


@pytest.mark.parametrize("spec", HOUSES)
def test_sessions_are_the_python_rules_sessions(spec: str) -> None:
    same_sessions(house(spec), random_seeds=8)


@pytest.mark.parametrize("spec", [HOUSES[0], HOUSES[3], HOUSES[6], HOUSES[8]])
def test_compare_sessions_are_summarised_alike(spec: str) -> None:
    """``bourre compare``'s summary of a session (every hand's pot, who played, who was
    bourré, who dealt, the money by seat) is the same on both engines."""
    same_summaries(house(spec))


def _spy(seen: list[tuple[Any, ...]]) -> tuple[type[Variant], type[Variant]]:
    """A decisions rule and a draw rule that write down every question and the hand
    they were asked with."""

    def hand(h: HandState) -> tuple[Any, ...]:
        return (h.number, h.dealer, h.pot, h.pot_at_stake, tuple(map(tuple, h.hands)),
                tuple(h.stock), tuple(h.pile), tuple(h.decisions), tuple(h.active))  # fmt: skip

    class SpyDecisions(Sequential):
        def turn(self, h: HandState) -> Turn | None:
            t = super().turn(h)
            seen.append(("turn", t, hand(h)))
            return t

        def decide(self, h: HandState, seat: int, play: bool) -> None:
            seen.append(("decide", seat, play, hand(h)))
            super().decide(h, seat, play)

        def exchanged(self, h: HandState, seat: int, discards: Sequence[int]) -> None:
            seen.append(("exchanged", seat, tuple(discards), tuple(h.gave), tuple(h.got)))
            super().exchanged(h, seat, discards)

    class SpyDraw(Draw):
        def limit(self, h: HandState, seat: int) -> int:
            seen.append(("limit", seat, hand(h)))
            return 2 + seat % 3

        def draw(self, h: HandState, seat: int, discards: Sequence[int]) -> None:
            seen.append(("draw", seat, tuple(discards), hand(h)))
            super().draw(h, seat, discards)

    return _decisions("spy-decisions", SpyDecisions), _draw("spy-draw", SpyDraw)


def test_the_plugin_is_asked_the_same_questions_with_the_same_hand() -> None:
    seen: list[tuple[Any, ...]] = []
    spies = _spy(seen)
    reg = load_registry(extra=[(c.name, plugin(c.name, c)) for c in spies])
    h = House("spy-decisions+spy-draw+table(players=7,ante=1/3)", registry=reg)
    for bots in ("random", mixed_bots(h)):
        for seed in range(3):
            seen.clear()
            k = kernel.play_session(h, seed, bots)
            asked_kernel = list(seen)
            seen.clear()
            p = python_session(h, seed, bots)
            assert k.engine == "kernel" and (k.final, k.ranks) == (p.final, p.ranks)
            assert asked_kernel == seen and len(seen) > 100, (bots, seed)
            # (the random bots' exchanges meet the limit: some capped, some not)
            assert any(x[0] == "draw" and len(x[2]) == 2 + x[1] % 3 for x in seen)


def test_the_stock_reshuffled_by_a_plugins_draw_is_the_python_rules() -> None:
    """Eight players exchanging freely run the stock out: the reshuffle stream is the
    session's (bourre-reshuffle:{seed}), kept by the kernel from hand to hand."""
    from bourre.kernel import decisions

    count = 0
    shuffle = decisions.HandDecisions._reshuffle

    def counted(self: Any, pile: list[int]) -> list[int]:
        nonlocal count
        count += 1
        return shuffle(self, pile)

    h = house("three-max+table(players=8,hands=20)")
    try:
        decisions.HandDecisions._reshuffle = counted  # type: ignore[method-assign]
        for seed in range(6):
            k = kernel.play_session(h, seed, "random")
            p = play_session(h, seed, keep_hands=False)
            assert k.engine == "kernel" and (k.final, k.ranks) == (p.final, p.ranks), seed
    finally:
        decisions.HandDecisions._reshuffle = shuffle  # type: ignore[method-assign]
    assert count >= 3


# -- a plugin that misbehaves: the Python rules' words -----------------------------------


class _Turns(Sequential):
    """A decisions rule whose ``turn`` answers ``bad`` at the third hand."""

    bad: Any = None

    def turn(self, hand: HandState) -> Turn | None:
        if hand.number == 3 and hand.step == 2:
            return self.bad  # type: ignore[no-any-return]
        return super().turn(hand)


def _hostile() -> list[tuple[str, type[Variant]]]:
    def raising_decide(self: Any, hand: HandState, seat: int, play: bool) -> None:
        if hand.number == 2:
            raise KeyError("the plugin's own bug")
        Sequential.decide(self, hand, seat, play)

    def never_ends(self: Any, hand: HandState, seat: int, discards: Sequence[int]) -> None:
        hand.exchanging = -1
        if hand.number == 2:
            hand.step = 0  # back to the first decision, forever

    def keeps_passed_cards(self: Any, hand: HandState, seat: int, play: bool) -> None:
        Sequential.decide(self, hand, seat, play)
        if not play and hand.number == 2:
            hand.hands[seat] = hand.folded[seat]  # a folded hand left in play

    def doubles_a_card(self: Any, hand: HandState, seat: int, discards: Sequence[int]) -> None:
        Draw.draw(self, hand, seat, discards)
        if hand.number == 2 and discards:
            hand.stock.append(hand.hands[seat][0])  # a card in two places

    def bad_limit(self: Any, hand: HandState, seat: int) -> Any:
        return -1 if hand.number == 2 else self.hand_size

    def steals(self: Any, hand: HandState, seat: int, play: bool) -> None:
        Sequential.decide(self, hand, seat, play)
        if play and hand.number == 2 and len(hand.active) == 2:
            hand.won[seat] = 1  # a trick before the tricks

    def crowds(self: Any, hand: HandState, seat: int, play: bool) -> None:
        Sequential.decide(self, hand, seat, play)
        if play:  # every play told three times over (the heuristic counts them)
            hand.decisions.extend(PublicDecision(seat, True, 0) for _ in range(3))

    def turns_up(self: Any, hand: HandState, seat: int, play: bool) -> None:
        Sequential.decide(self, hand, seat, play)
        if hand.number == 2 and hand.step == 1:  # a new trump named mid-decisions
            hand.upcard = (hand.upcard + 13) % 52
            hand.trump = hand.upcard // 13

    def floats(self: Any, hand: HandState, seat: int, play: bool) -> None:
        Sequential.decide(self, hand, seat, play)
        if hand.number == 2 and play:  # a hand of 5.0s: the same cards to a set, not to a mask
            hand.hands[seat] = [float(c) for c in hand.hands[seat]]

    def sub(base: type, **methods: Any) -> type:
        return type("Hostile", (base,), methods)

    wrong_turn = type("WrongTurn", (_Turns,), {"bad": ("seat", 1)})
    no_seat = type("NoSeat", (_Turns,), {"bad": Turn(9, DECIDE)})
    return [
        ("raises", _decisions("raises", sub(Sequential, decide=raising_decide))),
        ("never-ends", _decisions("never-ends", sub(Sequential, exchanged=never_ends))),
        ("keeps-passed", _decisions("keeps-passed", sub(Sequential, decide=keeps_passed_cards))),
        ("steals", _decisions("steals", sub(Sequential, decide=steals))),
        ("crowds", _decisions("crowds", sub(Sequential, decide=crowds))),
        ("turns-up", _decisions("turns-up", sub(Sequential, decide=turns_up))),
        ("floats", _decisions("floats", sub(Sequential, decide=floats))),
        ("wrong-turn", _decisions("wrong-turn", wrong_turn)),
        ("no-seat", _decisions("no-seat", no_seat)),
        ("doubles", _draw("doubles", sub(Draw, draw=doubles_a_card))),
        ("bad-limit", _draw("bad-limit", sub(Draw, limit=bad_limit))),
    ]


HOSTILE = _hostile()


def _outcome(play: Any, *args: Any) -> tuple[Any, ...]:
    try:
        r = play(*args)
    except Exception as e:
        return (type(e).__name__, str(e))
    return ("played", r.final, r.ranks)


@pytest.mark.parametrize("name,variant", HOSTILE, ids=[n for n, _ in HOSTILE])
def test_a_misbehaving_plugin_is_the_python_rules_word_for_word(
    name: str, variant: type[Variant]
) -> None:
    reg = load_registry(extra=[(name, plugin(name, variant))])
    h = House(f"standard+{name}+table(players={8 if name == 'crowds' else 4})", registry=reg)
    assert kernel.can_play(h, "random", hooks=True) is None
    for bots in ("random", "heuristic"):
        for seed in range(3):
            k = _outcome(kernel.play_session, h, seed, bots)
            p = _outcome(python_session, h, seed, bots)
            assert k == p, (name, bots, seed)


def test_the_extension_refuses_a_begin_of_the_wrong_shape() -> None:
    facts, bots = facts_with(house("standard+three-max"), decisions_hook=lambda *a: None)
    with pytest.raises(ValueError, match=r"decisions hook: \(run, turn\)"):
        _kernel.play_shared(facts, bots, ["0"], Fraction, False)
    facts, bots = facts_with(house("standard+three-max"), decisions_hook=lambda *a: (None, "x"))
    with pytest.raises(ValueError, match="a turn tuple"):
        _kernel.play_shared(facts, bots, ["0"], Fraction, False)
    # an answer it does not hold (a seat beyond the table) hands the session over
    facts, bots = facts_with(
        house("standard+three-max"), decisions_hook=lambda *a: (None, (1, 9, 0, 0, 0, 0, 0))
    )
    assert _kernel.play_shared(facts, bots, ["0"], Fraction, False) == [1]


# -- the solver: a position is solved from the tricks on ---------------------------------


def _play_positions(h: House, seed: int, rng: random.Random, most: int = 3) -> list[State]:
    """Up to ``most`` copies of a Python state of ``h`` at random points of the tricks
    (2 to 4 cards left), the session played by random legal actions from ``rng``."""
    p = Game(h, engine="python").new_session(seed)
    assert type(p) is State
    out: list[State] = []
    while not p.is_terminal() and len(out) < most:
        if p.phase_name == "play":
            left = p.hand.hand_size - len(p.hand.tricks)
            if 2 <= left <= 4 and rng.random() < 0.3:
                out.append(p.clone())
        p.apply_action(rng.choice(list(p.legal_actions())))
    return out


@pytest.mark.parametrize("spec", ["standard+three-max", "their-reveal+one-max+table(players=6)"])
def test_the_kernels_solver_solves_such_a_house_asking_nothing(spec: str) -> None:
    """A plugin's decisions or draw is never read in the tricks: the kernel's solver
    takes the house and asks the plugin nothing; its values are the reference's."""
    from solverkit import same

    from bourre.advice import kernel_solver as ks
    from bourre.advice.solver import solve

    if not ks.built():
        pytest.skip("the compiled kernel is older than its solver: build it again")
    h = house(spec)
    assert ks.why_not_house(h) is None and ks.asked(h) == ()
    rng = random.Random(spec)
    seen = 0
    for seed in range(4):
        for p in _play_positions(h, seed, rng):
            got = ks.kernel_solve(p)
            assert got is not None
            same(got, solve(p, engine="python"))
            seen += 1
    assert seen >= 3


# -- the stepped state: Game(house).new_session on the kernel ---------------------------

STEPPED = [
    "standard+ace-may-pass",  # a decisions plugin (the dealer may pass an ace up)
    "their-reveal+three-max+table(players=7)",  # both, revealed decisions
    "ace-may-pass+one-max+four-card+table(players=4,ante=1/2)",  # both, a cap of one
    "dealer-capped+pot-limit(limit=3)+table(players=6)",  # a draw plugin, limits by seat
    "three-max+table(players=8)",  # (the stock runs out: R-RESHUFFLE)
    "dealer-plays+one-max+table(players=3)",  # (its own forced rule: R-HOUSE-DEALER)
]


def _same_turn(k: Any, p: Any, where: str) -> None:
    """What both states answer now: the seat to act, its legal actions, the exchange
    limit, the only action, the money and every seat's observation."""
    assert k.current_player() == p.current_player(), where
    assert (k.phase_name, k.is_terminal()) == (p.phase_name, p.is_terminal()), where
    assert (k.balances, k.pot, k.returns()) == (p.balances, p.pot, p.returns()), where
    if not p.is_terminal() and not p.is_chance_node():
        assert list(k.legal_actions()) == list(p.legal_actions()), where
        assert (k.exchange_limit(), k.only_action()) == (p.exchange_limit(), p.only_action())
    for s in range(p.n):
        assert k.observation(s) == p.observation(s), (where, s)
        assert k.cards_of(s) == p.cards_of(s), (where, s)
    if p.phase_name == "decide" and p.observation(p.current_player()).forced == "R-HOUSE-DEALER":
        FORCED_SEEN.append(where)


FORCED_SEEN: list[str] = []


def _drive_stepped(k: Any, p: Any, rng: random.Random, where: str) -> int:
    """Both states stepped by the same random legal actions (and decks) to the end,
    compared at every step; now and then, mostly during the decisions, both cloned and
    the clones played on alike to the end (the originals go on unchanged).  The number
    of clones made during an exchange."""
    step = mid_exchange = 0
    while not p.is_terminal():
        _same_turn(k, p, f"{where}, step {step}")
        phase = p.phase_name
        if phase in ("decide", "exchange") and rng.random() < 0.08:
            kc, pc = k.clone(), p.clone()
            same = rng.random()
            play_randomly(kc, same)
            play_randomly(pc, same)
            assert kc.returns() == pc.returns() and kc.history() == pc.history(), where
            mid_exchange += phase == "exchange"
        same_step(k, p, rng)
        step += 1
    _same_turn(k, p, where)
    assert k.final == p.final and k.history() == p.history(), where
    assert [r.outcome for r in k.results] == [r.outcome for r in p.results], where
    return mid_exchange


@pytest.mark.parametrize("spec", STEPPED)
def test_the_stepped_state_is_the_python_state(spec: str) -> None:
    h = house(spec)
    clones = 0
    for seed in (0, 1, None):
        for keep in (True, False):
            k = Game(h, engine="kernel").new_session(seed, keep_results=keep)
            p = Game(h, engine="python").new_session(seed, keep_results=keep)
            assert type(k) is KernelState and type(p) is State
            where = f"{spec}, seed {seed}, keep {keep}"
            clones += _drive_stepped(k, p, random.Random(where), where)
            assert type(k) is KernelState, where  # (every hand held: never handed over)
    assert clones >= 2
    assert FORCED_SEEN or "dealer-plays" not in spec  # (the plugin's own rule id, told)


def test_a_hand_the_kernel_does_not_hold_is_handed_to_the_python_rules() -> None:
    """The dealer decides first (its players not in clockwise order from the dealer's
    left): each hand's decisions are stepped, then the session goes to the Python twin."""
    h = house("dealer-first+table(players=4)")
    for seed, keep in ((0, True), (3, False)):
        k = Game(h, engine="kernel").new_session(seed, keep_results=keep)
        p = Game(h, engine="python").new_session(seed, keep_results=keep)
        assert type(k) is KernelState
        _drive_stepped(k, p, random.Random(seed), f"dealer-first, seed {seed}")
        assert type(k) is not KernelState and isinstance(k, KernelState)  # (_HandedState)


class DealerStays(Sequential):
    """The dealer may never pass, though its turn does not say so (its decide refuses)."""

    def decide(self, hand: HandState, seat: int, play: bool) -> None:
        if not play and seat == hand.dealer:
            raise RuleViolation("R-DECIDE", f"seat {seat} deals: the dealer never passes here")
        super().decide(hand, seat, play)


STAYS = _decisions("dealer-stays", DealerStays)
REFUSING = load_registry(extra=[(cls.name, plugin(cls.name, cls)) for cls in [*VARIANTS, STAYS]])


def _refused(state: Any, action: Any) -> str:
    with pytest.raises(RuleViolation) as e:
        state.apply_action(action)
    assert str(state.why_not(action)) == str(e.value)
    return str(e.value)


@pytest.mark.parametrize("spec", ["dealer-stays+one-max+table(players=4)", "standard+three-max"])
def test_a_refused_action_is_refused_in_the_python_rules_words(spec: str) -> None:
    """A discard beyond the plugin's limit, a card not held, a pass the plugin refuses
    (forced or not by its turn): the Python rules' words, nothing changed, and the
    session goes on alike on the kernel."""
    h = House(spec, registry=REFUSING)
    rng = random.Random(spec)
    said: set[str] = set()
    for seed in range(4):
        k = Game(h, engine="kernel").new_session(seed)
        p = Game(h, engine="python").new_session(seed)
        assert type(k) is KernelState
        while not p.is_terminal():
            where = f"{spec}, seed {seed}, {p.phase_name}"
            wrong = []
            if p.phase_name == "exchange":
                hand, limit = p.cards_of(p.current_player()), p.exchange_limit()
                wrong.append(Action("discard", hand[: limit + 1]))
                held = set(hand)
                wrong.append(Action("discard", (next(c for c in range(52) if c not in held),)))
            elif p.phase_name == "decide" and (PASS not in p.legal_actions() or p.hand.dealer
                                                == p.current_player()):  # fmt: skip
                wrong.append(PASS)
            for a in wrong:
                try:
                    p.clone().apply_action(a)
                    continue  # (legal here: the dealer's pass of a house that lets it)
                except RuleViolation:
                    pass
                words = _refused(k, a)
                assert words == _refused(p, a), where
                said.add(words[words.rindex("(") :])  # (the rule id)
                _same_turn(k, p, where)  # (nothing changed)
            legal = list(p.legal_actions())
            if p.phase_name == "decide":  # (what the plugin takes: not the dealer's pass)
                legal = [a for a in legal if p.why_not(a) is None]
            a = rng.choice(legal)
            p.apply_action(a)
            k.apply_action(a)
        assert type(k) is KernelState and k.returns() == p.returns() and k.history() == p.history()
    assert len(said) >= 2, said


def _stepped_outcome(h: House, engine: str, seed: int) -> tuple[Any, ...]:
    try:
        state = Game(h, engine=engine).new_session(seed)
        assert isinstance(state, KernelState if engine == "kernel" else State)
        play_randomly(state, seed)
    except Exception as e:
        return (type(e).__name__, str(e))
    return ("played", state.returns(), state.history())


@pytest.mark.parametrize("name,variant", HOSTILE, ids=[n for n, _ in HOSTILE])
def test_a_misbehaving_plugin_in_the_stepped_state_is_the_python_rules(
    name: str, variant: type[Variant]
) -> None:
    reg = load_registry(extra=[(name, plugin(name, variant))])
    h = House(f"standard+{name}+table(players=4)", registry=reg)
    outcomes = set()
    for seed in range(4):
        k = _stepped_outcome(h, "kernel", seed)
        p = _stepped_outcome(h, "python", seed)
        assert k == p, (name, seed)
        outcomes.add(k[0])
    assert outcomes != {"played"} or name in (
        "keeps-passed",
        "steals",
        "doubles",
        "crowds",
        "turns-up",
    ), outcomes


@pytest.mark.parametrize(
    ("spec", "names"),
    [
        ("standard+three-max", "bold,heuristic,random,dicey,random"),
        ("their-reveal+one-max+table(players=7)", "random,dicey,bold,random,heuristic,dicey,bold"),
        ("ace-may-pass+dealer-capped+table(players=4)", "dicey,bold,random,heuristic"),
    ],
)
def test_a_plugins_bot_plays_such_a_house_on_the_kernel(
    spec: str, names: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``compare`` with a plugin's bot: the kernel's stepped state, the plugin's bot
    asked in Python (:mod:`bourre.kernel.mixed`), the Python rules' session."""
    reg = load_registry(extra=[*[(c.name, plugin(c.name, c)) for c in VARIANTS], ("b", Bots)])
    monkeypatch.delenv("BOURRE_ENGINE", raising=False)
    monkeypatch.setattr(botmaking, "_registry", lambda: reg)
    h = House(spec, registry=reg)
    bots = parse_bots(names)
    for seed in range(3):
        k = run_session(h, bots, f"decisions-bots:{seed}", seed, rotate=True, engine="kernel")
        p = run_session(h, bots, f"decisions-bots:{seed}", seed, rotate=True, engine="python")
        assert (k.pop("engine"), p.pop("engine")) == ("kernel", "python")
        del k["seconds"], p["seconds"]
        assert k == p, (spec, seed)
