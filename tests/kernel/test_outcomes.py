"""The kernel's rollouts tell the hand's outcome (who took the pot, who was bourré) as
its payout decided it, beside the money (``bourre.kernel.rollouts.heuristic_outcomes``):
the same outcome as the Python rules' payout (R-WIN, R-SOLE, R-BOURRE, R-POT-LIMIT) on
the same deals, and ``bourre advise`` on the kernel reads it instead of the money's sign.
(No built-in house was found where the sign alone misleads: 1,800 options over six
houses, double-ante and pot-limit among them, agreed; so the last test gives
``_kernel_row`` outcomes the sign would read otherwise.)"""

from __future__ import annotations

import random
import sys

import pytest

from bourre.advice.deals import _kernel_row, _rollout
from bourre.game import Game
from bourre.game.actions import PASS, PLAY, Deck
from bourre.game.botmaking import make_bot
from bourre.game.players import ask
from bourre.game.state import State
from bourre.game.tablesteps import set_hand
from bourre.kernel import rollouts
from bourre.rules.money import Amount

pytestmark = pytest.mark.skipif(not rollouts._OUTCOMES, reason="the kernel is not built")

HOUSES = [
    "standard",
    "standard+double-ante",
    "standard+pot-limit(limit=3)",
    "four-card+table(players=3)",
    "no-cinch+optional-undertrump+table(players=6)",
    "standard+table(players=8)",
]


def _deals(spec: str, pot: Amount, count: int) -> list[tuple[State, object]]:
    """``count`` hands dealt at random from ``pot``, each stepped by heuristic bots to a
    seat's first card with a choice (the tricks: nothing left to chance)."""
    game = Game(spec, engine="python")
    bot = make_bot("heuristic", random.Random(1), house=game.house)
    rng = random.Random(spec)
    out: list[tuple[State, object]] = []
    while len(out) < count:
        state = game.new_hand(dealer=0, engine="python")
        set_hand(state, dealer=0, pot=pot)
        cards = list(range(52))
        rng.shuffle(cards)
        state.apply_chance(Deck(tuple(cards)))
        while not state.is_terminal() and not (
            state.phase_name == "play" and len(state.legal_actions()) > 1
        ):
            state.apply_action(ask(state, bot))
        if not state.is_terminal():
            out.append((state, bot))
    return out


@pytest.mark.parametrize("spec", HOUSES)
def test_the_kernel_outcome_is_the_python_payouts_outcome(spec: str) -> None:
    """Every legal card played out by the heuristic at every seat, on both: the same
    pot taker (or none, a tie: R-WIN), the same bourré seats (R-BOURRE), the same money."""
    seen_tie = seen_bourre = 0
    for state, bot in _deals(spec, 7, 12):
        seat = state.current_player()
        cards = state.legal_actions()
        got = rollouts.heuristic_outcomes(state, cards, seat, random.Random(0))
        assert got is not None
        for card, k in zip(cards, got, strict=True):
            s = state.clone()
            s.apply_action(card)
            while not s.is_terminal():
                s.apply_action(ask(s, bot))
            out = s.results[-1].outcome
            assert (k.winner, k.bourre) == (out.winner, frozenset(out.bourre)), (spec, card)
            assert k.chips == float(s.returns()[seat])
            seen_tie += out.winner is None
            seen_bourre += bool(out.bourre)
    assert seen_bourre  # (the comparison saw bourré seats)
    if "players=8" in spec:
        assert seen_tie  # (and ties, which carry the pot)


def test_a_seat_left_alone_takes_the_pot_and_nobody_is_bourre() -> None:
    """Every seat before the dealer passes: the dealer plays alone and takes the pot,
    nobody bourré (R-LAST-STANDS, R-SOLE), on the kernel as on the Python rules."""
    game = Game("standard+table(players=4)", engine="python")
    bot = make_bot("heuristic", random.Random(2), house=game.house)
    rng = random.Random(4)
    for _ in range(5):
        state = game.new_hand(dealer=0, engine="python")
        set_hand(state, dealer=0, pot=4)
        cards = list(range(52))
        rng.shuffle(cards)
        state.apply_chance(Deck(tuple(cards)))
        while state.current_player() != 0:
            state.apply_action(PASS)
        got = rollouts.heuristic_outcomes(state, [PLAY], 0, random.Random(0))
        assert got is not None
        assert (got[0].winner, got[0].bourre, got[0].chips) == (0, frozenset(), 4.0)
        assert _rollout(state, 0, bot, ()) == (1.0, 0.0, 4.0)


def test_advise_on_the_kernel_reads_the_outcome_not_the_money(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``_kernel_row`` takes (took the pot, bourré) from the outcome the kernel's payout
    gives, whatever the money says: given outcomes that the money's sign would read
    otherwise, it reports the outcomes."""
    game = Game("standard", engine="python")
    state = game.new_hand(dealer=0)
    set_hand(state, dealer=0, pot=5)
    cards = list(range(52))
    random.Random(0).shuffle(cards)
    state.apply_chance(Deck(tuple(cards)))
    seat = state.current_player()
    told = [
        rollouts.Rollout(chips=-3.0, winner=seat, bourre=frozenset()),
        rollouts.Rollout(chips=4.0, winner=None, bourre=frozenset({seat})),
    ]
    calls: list[int] = []

    def fake(
        world: State, candidates: list[object], me: int, rng: random.Random, chart: object = None
    ) -> object:
        calls.append(len(candidates))
        return told[: len(candidates)] if len(calls) == 1 else [told[1]]

    monkeypatch.setattr(sys.modules[_kernel_row.__module__], "heuristic_outcomes", fake)
    after = state.clone()
    after.apply_action(PLAY)
    if not (after.phase_name == "exchange" and after.current_player() == seat):
        pytest.skip("this deal has no exchange for the seat")
    row = _kernel_row(state, seat, [(), (min(state.cards_of(seat)),)], None, random.Random(0))
    assert row == [(1.0, 0.0, -3.0), (0.0, 1.0, 4.0), (0.0, 1.0, 4.0)]
