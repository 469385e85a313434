"""Antes, payout, dealer rotation and settlement (R-FIRST-POT, R-ANTE, R-WIN, R-SOLE,
R-BOURRE, R-RENEGE, R-CORRECTED, R-DEALER, R-PREMATURE, R-SETTLE)."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Final

from mypy_extensions import mypyc_attr

from bourre.components import AnteComponent, NextDealerComponent
from bourre.money import Amount
from bourre.rules import HandOutcome, NextDealerFn, PenaltyFn, PlayResult

ANTE_TEXTS = [
    ("R-FIRST-POT", "Before hand 1 every player antes {table.ante}."),
    (
        "R-ANTE",
        "Before each later hand every player antes {table.ante}, except those who paid a"
        " zero-trick penalty and those tied for the most tricks in the last hand.",
    ),
]
PENALTY_TEXTS = [
    ("R-BOURRE", "Each active player with 0 tricks is bourré and pays the pot at stake P."),
    ("R-RENEGE", "Each renege (an illegal card not corrected in time) costs P."),
]
PAYOUT_TEXTS = [
    (
        "R-WIN",
        "The single player with the most tricks takes the pot P; a tie for the most"
        " carries all of P to the next hand.",
    ),
    (
        "R-CORRECTED",
        "A player who corrected an illegal card, or reneged, loses the right to the pot"
        " and their next turn to deal; if they have the single most tricks the pot carries.",
    ),
    ("R-BOURRE-POT", "Zero-trick and renege payments form the next pot, after the winner takes P."),
]
DEALER_TEXTS = [
    (
        "R-DEALER",
        "The next dealer is the left neighbour, skipping a player who lost their turn to deal.",
    )
]
SETTLE_TEXTS = [
    (
        "R-SETTLE",
        "After the last hand, the pot left is divided equally among all players as exact"
        " fractions; the highest balance wins and ties share a place.",
    )
]


@mypyc_attr(allow_interpreted_subclasses=True)  # compiled (setup.py); subclass freely
class StandardAnte(AnteComponent):
    """Everyone antes hand 1 (R-FIRST-POT); later, all but the exempt (R-ANTE)."""

    def hand_antes(
        self, n: int, ante: Amount, previous: HandOutcome | None, dealer: int
    ) -> list[Amount]:
        if previous is None:
            return [ante] * n
        exempt = previous.ante_exempt
        if not exempt:
            return [ante] * n
        return [0 if s in exempt else ante for s in range(n)]

    def play_ante(self, ante: Amount) -> Amount:
        return 0


def full_pot(pot_at_stake: Amount) -> Amount:
    """A zero-trick player or a renege pays the pot at stake (R-BOURRE, R-RENEGE)."""
    return pot_at_stake


def payout(result: PlayResult, penalty: PenaltyFn) -> HandOutcome:
    """R-WIN, R-SOLE, R-BOURRE, R-RENEGE, R-CORRECTED and the R-ANTE exemptions."""
    n, P, active, won = result.n, result.pot_at_stake, result.active, result.tricks_won
    takes: list[Amount] = [0] * n
    paid = takes[:]  # a copy: cheaper than repeating a list again
    if result.sole:  # R-SOLE: takes the pot, nobody is bourré
        takes[active[0]] = P
        return HandOutcome(active[0], takes, paid, 0, [], [], _NOBODY)
    best = -1
    top: list[int] = []
    bourre: list[int] = []
    for s in active:
        w = won[s]
        if w > best:
            best, top = w, [s]
        elif w == best:
            top.append(s)
        if not w:
            bourre.append(s)
    reneges = result.reneges
    if bourre or reneges:
        x = penalty(P)  # every payment uses the same old P (R-BOURRE)
        for s in bourre:
            paid[s] += x
        for s in reneges:
            paid[s] += x
        owed = sum(paid)
    else:
        owed = 0
    winner: int | None = None
    tied: tuple[int, ...] = ()
    carry: Amount = P
    if len(top) > 1:  # R-WIN: a tie carries the whole pot; the tied skip the ante
        tied = tuple(top)
        exempt = frozenset(bourre + top)
    else:
        exempt = frozenset(bourre) if bourre else _NOBODY
        if top[0] not in result.forfeits:
            winner = top[0]
            takes[winner] = P
            carry = 0
        # else: the single most tricks forfeited (R-CORRECTED): the pot carries
    return HandOutcome(winner, takes, paid, carry + owed, bourre, list(reneges), exempt, tied)


_NOBODY: Final[frozenset[int]] = frozenset()  # a constant: compiled, no lookup


def make_next_dealer(n: int) -> NextDealerFn:
    """The left neighbour deals next, skipping (and clearing) lost turns to deal
    (R-DEALER, R-PREMATURE, R-CORRECTED)."""
    return LeftNeighbour(n)


@mypyc_attr(allow_interpreted_subclasses=True)  # compiled (setup.py); subclass freely
class LeftNeighbour(NextDealerComponent):
    """The next dealer of :func:`make_next_dealer` at a table of ``n``: a next-dealer
    function, called through the compiled base
    (:class:`~bourre.components.NextDealerComponent`) by the game."""

    def __init__(self, n: int) -> None:
        super().__init__()
        self.n = n

    def __call__(self, dealer: int, marks: list[bool]) -> int:
        n = self.n
        s = (dealer + 1) % n
        while marks[s]:
            marks[s] = False
            s = (s + 1) % n
        return s


def _whole(x: Amount) -> Amount:
    return int(x) if isinstance(x, Fraction) and x.denominator == 1 else x


def ranks_of(balances: Sequence[Amount]) -> list[int]:
    """Shared places, highest balance first: 1, 2, 2, 4 … (R-SETTLE): one more than
    the balances above, the first place of each balance in descending order."""
    ordered = sorted(balances, reverse=True)
    return [ordered.index(b) + 1 for b in balances]


def settle(balances: list[Amount], pot: Amount) -> tuple[list[Amount], list[int]]:
    """R-SETTLE: the pot left is divided equally among all players, exactly."""
    n = len(balances)
    if isinstance(pot, int):
        # in chips: n × each final balance is a whole number, ranked as it stands
        # (no fraction made but the shares that do not divide evenly)
        scaled: list[int] = []
        for b in balances:
            if not isinstance(b, int):
                break
            scaled.append(b * n + pot)
        else:
            final: list[Amount] = [x // n if not x % n else Fraction(x, n) for x in scaled]
            return final, ranks_of(scaled)
    share: Amount = Fraction(pot) / n
    final = [_whole(b + share) for b in balances]
    return final, ranks_of(final)
