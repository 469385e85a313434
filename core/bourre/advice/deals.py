"""The simulated deals behind every piece of advice (``bourre advise``, the strategy
chart, the equilibrium chart): a seat put to decide with a given hand (R-DECIDE), the
exchanges worth weighing (R-DRAW), each option played out on the same deals, and the
range of an average as card players read it (it holds the true figure 19 times in 20)."""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from bourre.game import Game
from bourre.game.actions import PASS, PLAY, Action, Deck, discard
from bourre.game.players import ask
from bourre.game.state import State
from bourre.game.tablesteps import set_hand
from bourre.houses.house import House
from bourre.kernel.rollouts import heuristic_outcomes
from bourre.rules.hookspec import ANTE
from bourre.rules.money import Amount

Z95 = 1.959963984540054
"""The normal quantile of a two-sided 95% interval."""


class AdviceError(ValueError):
    """A question :func:`advise` cannot answer: ``field`` names the argument (the
    command's option), the message the rule it breaks."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field


@dataclass(frozen=True)
class Estimate:
    """A mean over the simulated hands with its 95% interval (normal approximation)."""

    mean: float
    low: float
    high: float

    @property
    def half_width(self) -> float:
        return (self.high - self.low) / 2


def interval(values: Sequence[float]) -> Estimate:
    """The mean of ``values`` and its 95% interval, ``mean ± 1.96 × sd / √n`` (the
    sample standard deviation; a single value has a zero-width interval)."""
    n = len(values)
    if n == 0:
        return Estimate(0.0, 0.0, 0.0)
    mean = math.fsum(values) / n
    if n < 2:
        return Estimate(mean, mean, mean)
    var = math.fsum([(x - mean) ** 2 for x in values]) / (n - 1)
    half = Z95 * math.sqrt(var / n)
    return Estimate(mean, mean - half, mean + half)


def _weakness(card: int, trump: int) -> int:
    """The order in which cards are thrown: plain cards by rank, then off-suit kings
    and aces, then trumps by rank (the heuristic's keeping order)."""
    s, r = divmod(card, 13)
    if s == trump:
        return 100 + r
    if r == 12:
        return 60
    if r == 11:
        return 40
    return r


def candidates(hand: Sequence[int], trump: int, limit: int, every: bool) -> list[tuple[int, ...]]:
    """The exchanges tried: with ``every``, every subset of the hand of at most
    ``limit`` cards; else the pruned set, for each count k from 0 to ``limit`` the k
    weakest cards (plain cards lowest first, then off-suit kings and aces, trumps
    last: a weaker card is never kept while a stronger one goes)."""
    if every:
        return [c for k in range(limit + 1) for c in combinations(sorted(hand), k)]
    order = sorted(hand, key=_ORDER[trump].__getitem__)
    return [tuple(sorted(order[:k])) for k in range(min(limit, len(order)) + 1)]


_ORDER = tuple(tuple(_weakness(c, trump) * 64 + c for c in range(52)) for trump in range(4))
"""For each trump suit, each card's place in :func:`candidates`' throwing order (its
weakness, then the card)."""


def _deck(
    hand: Sequence[int], upcard: int, seat: int, dealer: int, n: int, h: int, rng: random.Random
) -> Deck:
    """A deck (R-DEAL: card i to seat (dealer+1+i) mod n, the upcard last dealt) that
    gives ``seat`` its ``hand`` and the dealer the upcard; the rest at random."""
    known = set(hand) | {upcard}
    rest = [c for c in range(52) if c not in known]
    rng.shuffle(rest)
    cards: list[int | None] = [None] * 52
    mine = iter(sorted(c for c in hand if c != upcard))
    for i in range(h * n - 1):
        if (dealer + 1 + i) % n == seat:
            cards[i] = next(mine)
    cards[h * n - 1] = upcard
    others = iter(rest)
    return Deck(tuple(c if c is not None else next(others) for c in cards))


def first_pot(house: House) -> Amount:
    """The pot of a house's first hand (R-FIRST-POT, R-ANTE): what its ante rule (a
    plugin's too) has every seat ante before hand 1, the dealer at seat 0.  The stake of
    advice's and the charts' deals (nobody antes there: the pot is in the middle)."""
    t = house.table
    antes: list[Amount] = house.rules[ANTE].hand_antes(t.players, t.ante, None, 0)
    return sum(antes, 0)


def _with_players(spec: str, players: int) -> str:
    """A house string with its table's players set (``standard+table(players=4)``);
    a ``table(…)`` already in it is given the new count."""
    parts = [p for p in spec.split("+") if not p.startswith("table(players=")]
    return "+".join([*parts, f"table(players={players})"])


def seat_to_decide(
    game: Game,
    stake: Amount,
    mine: Sequence[int],
    up: int,
    seat: int,
    decided: Sequence[bool],
    bot: Any,
    rng: random.Random,
    *,
    dealer: int = 0,
) -> State:
    """One simulated deal up to ``seat``'s decision: a hand from the pot ``stake``, the
    deck of :func:`_deck` (``seat`` holds ``mine``, the dealer the upcard ``up``; the
    rest shuffled from ``rng``, R-DEAL), the earlier seats deciding as ``decided`` says
    (R-DECIDE), the rest of them as ``bot``."""
    n, h = game.players, game.hand_size
    state = game.new_hand(dealer=dealer, engine="python")  # (a pot in the middle: a table's)
    assert isinstance(state, State)
    set_hand(state, dealer=dealer, pot=stake)
    state.apply_chance(_deck(mine, up, seat, dealer, n, h, rng))
    if sorted(state.cards_of(seat)) != sorted(mine) or state.hand.upcard != up:
        raise AdviceError("house", f"house {game.house.spec!r} does not deal as R-DEAL says")
    k = 0
    while state.current_player() != seat:
        if k < len(decided) and state.phase_name == "decide":
            state.apply_action(PLAY if decided[k] else PASS)
            k += 1
        else:
            state.apply_action(ask(state, bot))
    return state


def exchange_rule(state: State, seat: int, bot: Any) -> tuple[int, set[Action]]:
    """How many cards ``seat`` may exchange if it plays in this deal (R-DRAW) and its
    legal exchanges (empty, and the hand size, when it wins alone without an
    exchange, R-SOLE), from a copy of ``state`` at its decision."""
    probe = state.clone()
    probe.apply_action(PLAY)
    while not probe.is_terminal() and not (
        probe.current_player() == seat and probe.phase_name == "exchange"
    ):  # the others who decide before the exchange (simultaneous-reveal)
        probe.apply_action(ask(probe, bot))
    if probe.phase_name != "exchange":
        return len(state.cards_of(seat)), set()
    return probe.exchange_limit(), set(probe.legal_actions())


def option_rows(
    state: State,
    seat: int,
    opts: list[tuple[int, ...]],
    forced: str | None,
    bot: Any,
    rng: random.Random,
    engine: str,
    chart: Sequence[Sequence[int]] | None = None,
) -> list[tuple[float, float, float]] | None:
    """One deal played out from ``seat``'s decision, once per exchange in ``opts`` and
    once passing (``(0, 0, 0)`` when ``forced``): (took the pot, bourré, chips) for each,
    the pass last.  ``engine`` ``"kernel"``: on the compiled kernel, ``None`` when it
    cannot play this deal; ``"python"``: on the Python rules, card by card.  ``chart``:
    the kernel's decision table for the seats still to decide (on the Python rules,
    ``bot`` decides for them)."""
    if engine == "kernel":
        return _kernel_row(state, seat, opts, forced, rng, chart)
    got = [_rollout(state, seat, bot, c) for c in opts]
    got.append(_rollout(state, seat, bot, None) if forced is None else (0.0, 0.0, 0.0))
    return got


def _kernel_row(
    state: State,
    seat: int,
    opts: list[tuple[int, ...]],
    forced: str | None,
    rng: random.Random,
    chart: Sequence[Sequence[int]] | None = None,
) -> list[tuple[float, float, float]] | None:
    """Every option of one deal played out on the kernel (``None`` when it cannot):
    (took the pot, bourré, chips from the decision on), the outcome as the kernel's
    payout decided it (R-WIN, R-SOLE, R-BOURRE), as :func:`_rollout` reads the Python
    rules' outcome."""
    before = state.returns()[seat]
    after = state.clone()
    after.apply_action(PLAY)
    if after.current_player() == seat and after.phase_name == "exchange":
        plays = heuristic_outcomes(after, [discard(c) for c in opts], seat, rng, chart)
    elif not after.is_terminal():
        return None  # others decide before the exchange (simultaneous-reveal): Python's
    else:  # no exchange (the hand was won alone, R-SOLE): every option is the same
        one = heuristic_outcomes(state, [PLAY], seat, rng, chart)
        plays = None if one is None else one * len(opts)
    if plays is None:
        return None
    if forced is None:  # a pass (or, forced in this deal, R-LAST-STANDS: a play)
        alone = heuristic_outcomes(
            state, [PASS if PASS in state.legal_actions() else PLAY], seat, rng, chart
        )
        if alone is None:
            return None
        plays = [*plays, alone[0]]
    out = [
        (
            1.0 if r.winner == seat else 0.0,
            1.0 if seat in r.bourre else 0.0,
            float(r.chips - before),
        )
        for r in plays
    ]
    if forced is not None:
        out.append((0.0, 0.0, 0.0))
    return out


def _rollout(
    state: State, seat: int, bot: Any, throw: tuple[int, ...] | None
) -> tuple[float, float, float]:
    """One option played out from a clone of ``state`` (the seat to decide):
    (took the pot, bourré, chips from the decision on)."""
    s = state.clone()
    before = s.returns()[seat]
    if throw is None and PASS not in s.legal_actions():
        throw = ()  # forced in this deal (R-LAST-STANDS): the heuristic's exchange
        first = False
    else:
        first = True
    s.apply_action(PASS if throw is None else PLAY)
    while not s.is_terminal():
        if (
            first
            and throw is not None
            and s.current_player() == seat
            and s.phase_name == "exchange"
        ):
            s.apply_action(discard(throw))
            first = False
            continue
        s.apply_action(ask(s, bot))
    out = s.results[-1].outcome
    return (
        1.0 if out.winner == seat else 0.0,
        1.0 if seat in out.bourre else 0.0,
        float(s.returns()[seat] - before),
    )
