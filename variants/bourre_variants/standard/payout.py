"""Antes, payout, dealer rotation and settlement (R-FIRST-POT, R-ANTE, R-WIN, R-SOLE,
R-BOURRE, R-RENEGE, R-CORRECTED, R-DEALER, R-PREMATURE, R-SETTLE): their text, their
code, and the reasons of every payout in the table's words."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from bourre.rules import HandOutcome, PlayResult, Reason
from bourre.rules.hookspec import NextDealerFn, PenaltyFn
from bourre.rules.money import Amount, chips

ANTE_TEXTS = [
    ("R-FIRST-POT", "Before hand 1 every player antes {table.ante}."),
    (
        "R-ANTE",
        "Before each later hand every player antes {table.ante}, except those who paid a"
        " zero-trick penalty and those tied for the most tricks in the last hand.",
    ),
]
PENALTY_TEXTS = [
    ("R-PENALTY", "A bourré or renege payment is the pot at stake P, the same old P for each."),
]
PAYOUT_TEXTS = [
    (
        "R-WIN",
        "The single player with the most tricks takes the pot P; a tie for the most"
        " carries all of P to the next hand.",
    ),
    (
        "R-BOURRE",
        "Each active player with 0 tricks is bourré and pays a penalty into the next pot.",
    ),
    (
        "R-RENEGE",
        "Each renege (an illegal card not corrected in time) stands and costs a penalty;"
        " the player also loses the right to the pot and their next turn to deal, as in"
        " R-CORRECTED.",
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


class StandardAnte:
    """Everyone antes hand 1 (R-FIRST-POT); later, all but the exempt (R-ANTE)."""

    def hand_antes(
        self, n: int, ante: Amount, previous: HandOutcome | None, dealer: int
    ) -> list[Amount]:
        exempt = previous.ante_exempt if previous is not None else frozenset()
        return [0 if s in exempt else ante for s in range(n)]

    def play_ante(self, ante: Amount) -> Amount:
        return 0

    def reasons(
        self, n: int, ante: Amount, previous: HandOutcome | None, dealer: int
    ) -> tuple[Reason, ...]:
        if previous is None:
            return (Reason("R-FIRST-POT", f"every player antes {chips(ante)}", ante),)
        spared = sorted(previous.ante_exempt)
        if not spared:
            return (Reason("R-ANTE", f"every player antes {chips(ante)}", ante),)
        verb = "does" if len(spared) == 1 else "do"
        words = (
            f"{seats(spared)} {verb} not ante (bourré or tied for the most tricks last hand);"
            f" the others ante {chips(ante)}"
        )
        return (Reason("R-ANTE", words, ante, tuple(spared)),)


def full_pot(pot_at_stake: Amount) -> Amount:
    """A zero-trick player or a renege pays the pot at stake (R-BOURRE, R-RENEGE)."""
    return pot_at_stake


def seats(xs: Sequence[int]) -> str:
    """``seat 2``, ``seats 1 and 3``, ``seats 0, 1 and 4``."""
    if len(xs) == 1:
        return f"seat {xs[0]}"
    return "seats " + ", ".join(str(s) for s in xs[:-1]) + f" and {xs[-1]}"


def payout(result: PlayResult, penalty: PenaltyFn) -> HandOutcome:
    """R-WIN, R-SOLE, R-BOURRE, R-RENEGE, R-CORRECTED and the R-ANTE exemptions, with
    the reason of each."""
    n, pot, active, won = result.n, result.pot_at_stake, result.active, result.tricks_won
    takes: list[Amount] = [0] * n
    paid: list[Amount] = [0] * n
    stake = chips(pot)
    if result.sole:  # R-SOLE: takes the pot, nobody is bourré
        (alone,) = active
        takes[alone] = pot
        why = Reason(
            "R-SOLE",
            f"seat {alone} plays alone and takes the pot of {stake} without play",
            pot,
            (alone,),
        )
        return HandOutcome(alone, takes, paid, 0, [], [], frozenset(), (), (why,))
    most = max(won[s] for s in active)
    top = [s for s in active if won[s] == most]
    bourre = [s for s in active if won[s] == 0]
    reneges = list(result.reneges)
    reasons: list[Reason] = []
    winner: int | None = None
    carry: Amount = pot
    if len(top) > 1:  # R-WIN: a tie carries the whole pot; the tied skip the ante
        words = f"{seats(top)} tied for the most tricks ({most}): nobody takes the pot; all {stake} carries"
        reasons.append(Reason("R-WIN", words, pot, tuple(top)))
    elif top[0] in result.forfeits:  # R-CORRECTED: the single most tricks forfeited
        words = (
            f"seat {top[0]} took the most tricks ({most}) but lost the right to the pot:"
            f" the pot of {stake} carries"
        )
        reasons.append(Reason("R-CORRECTED", words, pot, (top[0],)))
    else:
        winner = top[0]
        takes[winner] = pot
        carry = 0
        words = f"seat {winner} took the most tricks ({most}) and takes the pot of {stake}"
        reasons.append(Reason("R-WIN", words, pot, (winner,)))
    if bourre or reneges:
        x = penalty(pot)  # every payment uses the same old P (R-BOURRE)
        for s in bourre:
            paid[s] += x
            words = f"seat {s} took no trick: bourré, pays {chips(x)} into the next pot"
            reasons.append(Reason("R-BOURRE", words, x, (s,)))
        for s in reneges:
            paid[s] += x
            words = f"seat {s} reneged: pays {chips(x)} into the next pot"
            reasons.append(Reason("R-RENEGE", words, x, (s,)))
    for s in sorted(result.forfeits):
        rule = "R-RENEGE" if s in reneges else "R-CORRECTED"
        words = f"seat {s} loses the right to the pot and their next turn to deal"
        reasons.append(Reason(rule, words, 0, (s,)))
    exempt = frozenset(bourre + top) if len(top) > 1 else frozenset(bourre)
    tied = tuple(top) if len(top) > 1 else ()
    return HandOutcome(
        winner, takes, paid, carry + sum(paid), bourre, reneges, exempt, tied, tuple(reasons)
    )


def make_next_dealer(n: int) -> NextDealerFn:
    """The left neighbour deals next, skipping (and clearing) lost turns to deal
    (R-DEALER, R-PREMATURE, R-CORRECTED), at a table of ``n``."""

    def next_dealer(dealer: int, marks: list[bool]) -> int:
        s = (dealer + 1) % n
        while marks[s]:
            marks[s] = False
            s = (s + 1) % n
        return s

    return next_dealer


def ranks_of(balances: Sequence[Amount]) -> list[int]:
    """Shared places, highest balance first: 1, 2, 2, 4 … (R-SETTLE): one more than
    the number of balances above."""
    return [1 + sum(1 for other in balances if other > b) for b in balances]


def settle(balances: list[Amount], pot: Amount) -> tuple[list[Amount], list[int]]:
    """R-SETTLE: the pot left is divided equally among all players, exactly."""
    share = Fraction(pot) / len(balances)
    final: list[Amount] = []
    for b in balances:
        x = b + share
        final.append(int(x) if x.denominator == 1 else x)
    return final, ranks_of(final)
