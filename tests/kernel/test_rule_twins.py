"""Each C++ rule held to its Python twin, one by one (issue 41, "each C++ rule held to its
Python twin").

The compiled kernel's engines share one C++ function a rule (follow, the cinch, the
trick's winner, the lead, the decisions' turn, the draw, the antes, the penalty, the
payout, the next dealer, the settlement); ``bourre.kernel._kernel.rules`` exports each on
plain ints and tuples.  Here hypothesis draws hands, tricks, trumps, seats, pots and
houses and compares each with its Python component (``bourre_variants``, or the
component as a house resolves it: ``House(spec).rules[HOOK]``), so a failure names the
rule and its id, not a session's seed.  The whole-session differential tests
(``test_sessions.py``) stay: they hold the engines' use of these rules together.

Money: the kernel counts 1/D chips (D: the house dict's ``scale``); the Python rules
count chips (ints or Fractions).  The default suite draws 80 examples a rule, the same
ones each run; ``BOURRE_TWIN_EXAMPLES=N`` draws N new ones."""

from __future__ import annotations

import os
from fractions import Fraction
from functools import cache
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bourre.game.legal import legal_play
from bourre.houses.house import House
from bourre.kernel import _house_facts, fingerprint
from bourre.rules import HandOutcome, PlayResult, RuleViolation, Ruling
from bourre.rules.hand import HandState
from bourre.rules.hookspec import (
    ANTE,
    CINCH,
    DECISIONS,
    DRAW,
    FOLLOW,
    LEAD,
    NEXT_DEALER,
    PAYOUT,
    PENALTY,
    SETTLE,
    TRICK_WINNER,
)
from bourre_variants import optional_undertrump
from bourre_variants.standard import cinch, decisions, lead, obligations, payout, tricks
from bourre_variants.standard.draw import Draw

_kernel = pytest.importorskip(
    "bourre.kernel._kernel",
    reason="the compiled kernel is not built (BOURRE_NO_KERNEL=1, or no C++ compiler)",
)
rules: Any = _kernel.rules

TWIN = settings(
    max_examples=int(os.environ.get("BOURRE_TWIN_EXAMPLES", "80")),
    deadline=None,
    suppress_health_check=list(HealthCheck),
    derandomize="BOURRE_TWIN_EXAMPLES" not in os.environ,
    database=None,
)

HOUSES = [
    "standard",
    "standard+double-ante",
    "standard+pot-limit(limit=10)",
    "standard+table(ante=3/2)+double-ante+pot-limit(limit=7/3)",
    "standard+optional-undertrump",
    "standard+no-cinch",
    "standard+four-card",
    "standard+simultaneous-reveal",
    "standard+table(players=3)",
    "standard+table(players=8)+four-card",
]
"""Built-in houses the kernel plays: every built-in component, money in 1/1 and 1/6 chips."""


@cache
def house(spec: str) -> tuple[House, dict[str, Any]]:
    """The house and what the kernel is told of it."""
    h = House(spec)
    facts = _house_facts(h)
    assert isinstance(facts, dict), facts
    return h, facts


@cache
def table_of(n: int) -> House:
    return House(f"standard+table(players={n})")


def chips(x: int, facts: dict[str, Any]) -> Fraction:
    """A kernel amount (1/D chips) in chips."""
    return Fraction(x, facts["scale"])


# -- strategies ---------------------------------------------------------------------------


@st.composite
def deal(draw: Any, most_trick: int = 7) -> tuple[tuple[int, ...], tuple[int, ...], int]:
    """A hand (1 to 5 cards, ascending), a trick so far (0 to ``most_trick`` other cards)
    and trump, drawn mostly from two or three suits so that following, trumping and
    discarding all come up."""
    trump = draw(st.integers(0, 3))
    suits = draw(st.sets(st.integers(0, 3), min_size=1, max_size=3)) | {trump}
    pool = [c for c in range(52) if c // 13 in suits]
    cards = draw(st.permutations(pool))
    k = draw(st.integers(1, 5))
    t = draw(st.integers(0, min(most_trick, len(cards) - k)))
    return tuple(sorted(cards[:k])), tuple(cards[k : k + t]), trump


@st.composite
def cinch_deal(draw: Any) -> tuple[tuple[int, ...], tuple[int, ...], int, frozenset[int], int]:
    """A hand rich in high trumps, a trick, the cards known out (high trumps often among
    them) and the tricks won: where cinches are won and lost by one card."""
    trump = draw(st.integers(0, 3))
    trumps = range(trump * 13, trump * 13 + 13)
    high = [c for c in trumps if c % 13 >= 7]
    held = draw(st.sets(st.sampled_from(high), max_size=4)) | draw(
        st.sets(st.sampled_from(trumps), max_size=2)
    )
    suit = draw(st.sampled_from([s for s in range(4) if s != trump]))
    other = [c for c in range(52) if c // 13 == suit]
    hand = sorted(held)[-5:]
    hand = tuple(sorted(hand + draw(st.lists(st.sampled_from(other), min_size=5 - len(hand),
                                                max_size=5 - len(hand), unique=True))))  # fmt: skip
    left = [c for c in [*trumps, *other] if c not in hand]
    trick = tuple(draw(st.lists(st.sampled_from(left), max_size=4, unique=True)))
    known = draw(st.sets(st.sampled_from([c for c in high if c not in hand]))) | draw(
        st.sets(st.sampled_from(left), max_size=6)
    )
    won = draw(st.sampled_from([0, 1, 2, 3, 4]))
    return hand, trick, trump, frozenset(known) | set(trick), won


def ruling_words(r: Ruling) -> str:
    return f"{r.reason.rule}: {r.reason.words}"


# -- the play: follow, cinch, trick, lead ---------------------------------------------------


@TWIN
@given(deal())
def test_follow_is_the_python_follow(d: tuple[tuple[int, ...], tuple[int, ...], int]) -> None:
    hand, trick, trump = d
    if not trick:
        return  # a lead is free (R-LEAD): the engines do not ask follow
    want = obligations.follow(hand, trick, trump)
    got = rules.follow(hand, trick, trump)
    assert got == want.cards, (
        f"R-FOLLOW/R-TRUMP/R-DISCARD: the kernel's follow allows {got} of {hand} on {trick}"
        f" (trump {trump}), obligations.follow {want.cards} ({ruling_words(want)})"
    )


@TWIN
@given(deal())
def test_follow_optional_undertrump_is_the_python_one(
    d: tuple[tuple[int, ...], tuple[int, ...], int],
) -> None:
    hand, trick, trump = d
    if not trick:
        return
    want = optional_undertrump.follow(hand, trick, trump)
    got = rules.follow_optional_undertrump(hand, trick, trump)
    assert got == want.cards, (
        f"R-OPTIONAL-UNDERTRUMP: the kernel allows {got} of {hand} on {trick} (trump {trump}),"
        f" optional_undertrump.follow {want.cards} ({ruling_words(want)})"
    )


@TWIN
@given(st.sampled_from(HOUSES), deal())
def test_house_follow_is_the_house_follow_component(
    spec: str, d: tuple[tuple[int, ...], tuple[int, ...], int]
) -> None:
    h, facts = house(spec)
    hand, trick, trump = d
    trick = trick[: facts["players"] - 1]
    want = h.rules[FOLLOW].legal(hand, trick, trump)
    got = rules.house_follow(facts, hand, trick, trump)
    assert got == want.cards, (
        f"{want.reason.rule} ({spec}): the kernel allows {got} of {hand} on {trick}"
        f" (trump {trump}), the house's follow {want.cards} ({ruling_words(want)})"
    )


@TWIN
@given(cinch_deal())
def test_has_cinch_is_the_python_cinch(
    d: tuple[tuple[int, ...], tuple[int, ...], int, frozenset[int], int],
) -> None:
    hand, _, trump, known, won = d
    want = cinch.StandardCinch().has_cinch(hand, trump, known, won)
    got = rules.has_cinch(hand, trump, tuple(sorted(known)), won)
    assert got == want, (
        f"R-SURE: the kernel says {got} for a cinch with {hand}, trump {trump}, {won} won,"
        f" known {sorted(known)}; StandardCinch.has_cinch {want}"
        f" ({cinch.sure_tricks(hand, trump, known, won)} sure tricks)"
    )


@TWIN
@given(cinch_deal(), st.data())
def test_highest_trumps_is_the_python_highest_trumps(
    d: tuple[tuple[int, ...], tuple[int, ...], int, frozenset[int], int], data: Any
) -> None:
    hand, _, trump, known, _ = d
    trumps = [c for c in hand if c // 13 == trump]
    if not trumps:
        return
    allowed = tuple(sorted(data.draw(st.sets(st.sampled_from(trumps), min_size=1))))
    want = cinch.highest_trumps(allowed, hand, trump, known)
    got = rules.highest_trumps(allowed, hand, trump, tuple(known))
    assert got == want, (
        f"R-EQUIV: the kernel's highest of {allowed} (hand {hand}, trump {trump}, known"
        f" {sorted(known)}) is {got}, cinch.highest_trumps {want}"
    )


@TWIN
@given(cinch_deal(), st.booleans())
def test_cinch_narrow_is_the_python_narrow(
    d: tuple[tuple[int, ...], tuple[int, ...], int, frozenset[int], int], last: bool
) -> None:
    hand, trick, trump, known, _ = d
    ordinary = obligations.follow(hand, trick, trump)
    want = cinch.StandardCinch().narrow(ordinary, hand, trick, trump, known, last)
    got = rules.cinch_narrow(ordinary.cards, hand, trick, trump, tuple(known), last)
    assert got == want.cards, (
        f"{want.reason.rule}: the kernel narrows {ordinary.cards} to {got} (hand {hand}, trick"
        f" {trick}, trump {trump}, last {last}), StandardCinch.narrow to {want.cards}"
        f" ({ruling_words(want)})"
    )


@TWIN
@given(st.sampled_from(HOUSES), cinch_deal(), st.booleans())
def test_legal_is_the_house_legal_play(
    spec: str, d: tuple[tuple[int, ...], tuple[int, ...], int, frozenset[int], int], last: bool
) -> None:
    h, facts = house(spec)
    hand, trick, trump, known, won = d
    trick = trick[: facts["players"] - 1]
    won = min(won, facts["hand_size"])
    want = legal_play(h.rules[FOLLOW], h.rules[CINCH], 0, hand, trick, trump, known, won, last)
    got = rules.legal(facts, hand, trick, trump, tuple(known), won, last)
    assert got == (want.cards, want.cinch), (
        f"{'/'.join(want.rules)} ({spec}): the kernel's legal cards of {hand} on {trick}"
        f" (trump {trump}, {won} won, last {last}) are {got}, legal_play's"
        f" {(want.cards, want.cinch)}"
    )


@TWIN
@given(st.permutations(range(52)), st.integers(1, 8), st.integers(0, 3), st.sampled_from(HOUSES))
def test_trick_winner_is_the_python_trick_winner(
    deck: list[int], k: int, trump: int, spec: str
) -> None:
    trick = tuple(deck[:k])
    want = tricks.trick_winner(trick, trump)
    got = rules.trick_winner(trick, trump)
    assert got == want == house(spec)[0].rules[TRICK_WINNER](trick, trump), (
        f"R-TRICK: the kernel gives {trick} (trump {trump}) to card {got},"
        f" tricks.trick_winner to card {want}"
    )


@TWIN
@given(st.integers(2, 8), st.data())
def test_lead_is_the_python_lead(n: int, data: Any) -> None:
    dealer = data.draw(st.integers(0, n - 1))
    active = tuple(data.draw(st.lists(st.integers(0, n - 1), min_size=1, unique=True)))
    winner = data.draw(st.one_of(st.none(), st.sampled_from(active)))
    want = lead.make_lead(n)(active, dealer, winner)
    got = rules.lead(active, n, dealer, winner)
    assert got == want == table_of(n).rules[LEAD](active, dealer, winner), (
        f"R-LEAD: the kernel orders the trick of {active} (dealer {dealer}, last winner"
        f" {winner}) {got}, lead.make_lead {want}"
    )


# -- the decisions and the draw -------------------------------------------------------------


def hand_state(n: int, dealer: int, upcard: int, hand_size: int = 5) -> HandState:
    return HandState(
        number=1, n=n, hand_size=hand_size, dealer=dealer, hands=[[] for _ in range(n)],
        upcard=upcard, stock=[], pot=0,
    )  # fmt: skip


@TWIN
@given(st.booleans(), st.integers(2, 8), st.data())
def test_decision_turn_is_the_python_turn(simultaneous: bool, n: int, data: Any) -> None:
    dealer = data.draw(st.integers(0, n - 1))
    upcard = data.draw(st.one_of(st.integers(0, 51), st.sampled_from([12, 25, 38, 51])))
    step = data.draw(st.one_of(st.just(n - 1), st.integers(0, n + 1)))  # (n - 1: the dealer's)
    exchanging = data.draw(st.one_of(st.just(-1), st.integers(-1, n - 1)))
    seats = st.integers(0, n - 1)
    active = data.draw(  # (none, one or more in: R-LAST-STANDS turns on it)
        st.one_of(
            st.lists(seats, max_size=1, unique=True), st.lists(seats, max_size=n, unique=True)
        )
    )
    hs = hand_state(n, dealer, upcard)
    hs.step, hs.exchanging, hs.active = step, exchanging, list(active)
    spec = "standard+simultaneous-reveal" if simultaneous else "standard"
    component = House(f"{spec}+table(players={n})").rules[DECISIONS]
    turn = component.turn(hs)
    want = None if turn is None else (turn.seat, turn.kind, turn.forced)
    got = rules.decision_turn(simultaneous, n, dealer, step, exchanging, upcard, len(active))
    module = "simultaneous_reveal.Simultaneous" if simultaneous else "decisions.Sequential"
    assert got == want, (
        f"R-DECIDE/R-ACE-UP/R-LAST-STANDS/R-SIMULTANEOUS: the kernel's turn (dealer {dealer},"
        f" upcard {upcard}, step {step}, exchanging {exchanging}, {len(active)} in) is {got},"
        f" {module}.turn {want}"
    )
    if not simultaneous:
        assert turn == decisions.Sequential().turn(hs)


class CappedDraw(Draw):
    """A draw whose limit is below the hand size (:meth:`Draw.limit` overridden)."""

    def __init__(self, hand_size: int, cap: int) -> None:
        super().__init__(hand_size)
        self.cap = cap

    def limit(self, hand: HandState, seat: int) -> int:
        return self.cap


@TWIN
@given(st.permutations(range(52)), st.sampled_from(HOUSES), st.data())
def test_draw_is_the_python_draw(deck: list[int], spec: str, data: Any) -> None:
    h, facts = house(spec)
    size = facts["hand_size"]
    limit = data.draw(st.one_of(st.just(size), st.integers(0, size)))
    component = h.rules[DRAW] if limit == size else CappedDraw(size, limit)
    held = sorted(deck[:size])
    stock = deck[size : size + data.draw(st.integers(0, 6))]
    rest = deck[size + len(stock) :]
    pile = rest[: data.draw(st.integers(0, 6))]
    discards = data.draw(st.lists(st.sampled_from(held), max_size=size, unique=True))
    if data.draw(st.integers(0, 5)) == 0:  # a card not held, or one twice: refused
        discards.append(data.draw(st.sampled_from(held + rest[len(pile) :][:3])))
    hs = hand_state(2, 1, held[-1], size)
    hs.hands[0] = list(held)
    hs.stock, hs.pile = list(stock), list(pile)
    hs.discards[1] = list(pile)  # (the other seat's unreturned discards)
    try:
        component.draw(hs, 0, discards)
        want: Any = (tuple(hs.hands[0]), hs.stock, hs.pile, bool(hs.reshuffles))
        assert not hs.reshuffles or hs.discards[1] == []
    except RuleViolation as e:
        want, why = None, f"{e.rule}: {e}"
    else:
        why = "drawn"
    got = rules.draw(tuple(held), tuple(discards), tuple(stock), tuple(pile), limit)
    assert got == want, (
        f"R-DRAW/R-RESHUFFLE ({spec}, limit {limit}): the kernel's exchange of {discards} from {held} (stock"
        f" {stock}, pile {pile}) gives {got}, Draw.draw {want} ({why})"
    )


# -- the money --------------------------------------------------------------------------------


def outcome_exempt(n: int, exempt: frozenset[int]) -> HandOutcome:
    return HandOutcome(None, [0] * n, [0] * n, 0, [], [], exempt)


@TWIN
@given(st.sampled_from(HOUSES), st.booleans(), st.data())
def test_hand_antes_are_the_house_antes(spec: str, first: bool, data: Any) -> None:
    h, facts = house(spec)
    n = facts["players"]
    exempt = frozenset(data.draw(st.sets(st.integers(0, n - 1))))
    previous = None if first else outcome_exempt(n, exempt)
    dealer = data.draw(st.integers(0, n - 1))
    want = [Fraction(x) for x in h.rules[ANTE].hand_antes(n, h.table.ante, previous, dealer)]
    got = [chips(x, facts) for x in rules.hand_antes(facts, first, tuple(sorted(exempt)))]
    assert got == want, (
        f"{'R-FIRST-POT' if first else 'R-ANTE'}/R-DOUBLE-ANTE ({spec}): the kernel's antes"
        f" (exempt {sorted(exempt)}) are {got}, the house's ante component {want}"
    )
    play = Fraction(h.rules[ANTE].play_ante(h.table.ante))
    assert chips(rules.play_ante(facts), facts) == play, (
        f"R-DOUBLE-ANTE ({spec}): the kernel's second ante is not the ante component's {play}"
    )


@TWIN
@given(st.sampled_from(HOUSES), st.integers(0, 2**40))
def test_penalty_is_the_house_penalty(spec: str, pot: int) -> None:
    h, facts = house(spec)
    want = Fraction(h.rules[PENALTY](chips(pot, facts)))
    got = chips(rules.penalty(facts, pot), facts)
    assert got == want, (
        f"R-PENALTY/R-POT-LIMIT ({spec}): the kernel's bourre payment on a pot of"
        f" {chips(pot, facts)} is {got}, the house's penalty {want}"
    )


@TWIN
@given(st.sampled_from(HOUSES), st.data())
def test_payout_is_the_house_payout(spec: str, data: Any) -> None:
    h, facts = house(spec)
    n, size = facts["players"], facts["hand_size"]
    active = data.draw(st.lists(st.integers(0, n - 1), min_size=1, unique=True))
    active.sort()
    won = [0] * n
    if len(active) == 1:
        won[active[0]] = size  # R-SOLE
    else:
        for _ in range(size):
            won[data.draw(st.sampled_from(active))] += 1
    pot = data.draw(st.one_of(st.integers(0, 40 * facts["scale"]), st.integers(0, 2**50)))
    result = PlayResult(n, chips(pot, facts), list(active), list(won), set(), [], len(active) == 1)
    want = h.rules[PAYOUT](result, h.rules[PENALTY])
    winner, takes, paid, after, bourre, exempt = rules.payout(facts, tuple(active), tuple(won), pot)
    got = (
        winner, [chips(x, facts) for x in takes], [chips(x, facts) for x in paid],
        chips(after, facts), bourre, exempt,
    )  # fmt: skip
    twin = (
        want.winner, [Fraction(x) for x in want.takes], [Fraction(x) for x in want.paid],
        Fraction(want.pot_after), sorted(want.bourre), sorted(want.ante_exempt),
    )  # fmt: skip
    rule = "/".join(dict.fromkeys(r.rule for r in want.reasons))
    assert got == twin, (
        f"{rule} ({spec}): the kernel pays out a pot of {chips(pot, facts)} with tricks {won}"
        f" (active {active}) as {got}; the house's payout as {twin}"
    )


@TWIN
@given(st.integers(2, 8), st.data())
def test_next_dealer_is_the_python_next_dealer(n: int, data: Any) -> None:
    dealer = data.draw(st.integers(0, n - 1))
    want = payout.make_next_dealer(n)(dealer, [False] * n)
    got = rules.next_dealer(n, dealer)
    assert got == want == table_of(n).rules[NEXT_DEALER](dealer, [False] * n), (
        f"R-DEALER: the kernel's next dealer after seat {dealer} (of {n}) is {got}, {want} for"
        " payout.make_next_dealer"
    )


@TWIN
@given(
    st.lists(st.one_of(st.integers(-3, 3), st.integers(-(2**40), 2**40)), min_size=2, max_size=8),
    st.one_of(st.integers(0, 8), st.integers(0, 2**40)),
    st.sampled_from([1, 2, 6]),
)
def test_settle_is_the_python_settle(balances: list[int], pot: int, scale: int) -> None:
    n = len(balances)
    want = payout.settle([Fraction(b, scale) for b in balances], Fraction(pot, scale))
    nums, places = rules.settle(balances, pot)
    got = [Fraction(x, n * scale) for x in nums]
    assert (got, places) == ([Fraction(x) for x in want[0]], want[1]), (
        f"R-SETTLE: the kernel settles {balances} with a pot of {pot} (1/{scale} chips) as"
        f" {got} {places}, payout.settle as {want}"
    )
    settle = House(f"standard+table(players={n})").rules[SETTLE]
    assert settle([Fraction(b, scale) for b in balances], Fraction(pot, scale)) == want


# -- the map of twins -------------------------------------------------------------------------


TWIN_TESTS = {
    "follow": test_follow_is_the_python_follow,
    "follow_optional_undertrump": test_follow_optional_undertrump_is_the_python_one,
    "house_follow": test_house_follow_is_the_house_follow_component,
    "has_cinch": test_has_cinch_is_the_python_cinch,
    "highest_trumps": test_highest_trumps_is_the_python_highest_trumps,
    "cinch_narrow": test_cinch_narrow_is_the_python_narrow,
    "legal": test_legal_is_the_house_legal_play,
    "trick_winner": test_trick_winner_is_the_python_trick_winner,
    "lead": test_lead_is_the_python_lead,
    "decision_turn": test_decision_turn_is_the_python_turn,
    "draw": test_draw_is_the_python_draw,
    "hand_antes": test_hand_antes_are_the_house_antes,
    "play_ante": test_hand_antes_are_the_house_antes,
    "penalty": test_penalty_is_the_house_penalty,
    "payout": test_payout_is_the_house_payout,
    "next_dealer": test_next_dealer_is_the_python_next_dealer,
    "settle": test_settle_is_the_python_settle,
}
"""The test that holds each kernel rule to its twin."""


def test_every_kernel_rule_has_its_python_twin() -> None:
    """Each function of ``_kernel.rules`` names its Python modules (fingerprint.TWINS),
    rule modules the kernel copies (mirrors.json), and a test above holds it to them."""
    exported = {name for name in dir(rules) if not name.startswith("_")}
    assert exported == set(fingerprint.TWINS), "a kernel rule without its twin in fingerprint.TWINS"
    assert exported == set(TWIN_TESTS), "a kernel rule without its twin test"
    mirrored = fingerprint.load(fingerprint.MIRRORS) or {}
    for name, modules in fingerprint.TWINS.items():
        assert modules and all(m in mirrored for m in modules), (name, modules)


@pytest.mark.parametrize(
    ("call", "args"),
    [
        ("follow", ((1, 2), (), 0)),  # (a lead: free, not follow's)
        ("follow", ((1, 2), (2,), 0)),  # (a card of the hand on the trick)
        ("follow", ((1, 1), (3,), 0)),
        ("trick_winner", ((), 0)),
        ("lead", ((0, 1), 5, 0, 4)),  # (the last winner is not active)
        ("payout", (None, (0,), (5,), 1)),
        ("settle", ([1], 0)),
        ("draw", ((1, 2), (1,), (2,), (), 5)),  # (the stock holds a card of the hand)
    ],
)
def test_the_kernel_rules_refuse_what_is_not_a_position(call: str, args: tuple[Any, ...]) -> None:
    """Garbage is a ValueError naming the argument, never a crash (issue 42)."""
    with pytest.raises((ValueError, TypeError)):
        getattr(rules, call)(*args)
