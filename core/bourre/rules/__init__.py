"""The values rule components give and take: a refusal (:class:`RuleViolation`), a
legal set and why (:class:`Ruling`), a reason of a payout (:class:`Reason`), whose
turn it is (:class:`Turn`), what a played hand did (:class:`PlayResult`) and its
payout (:class:`HandOutcome`).

What each rule component must do is its hook's specification
(:mod:`bourre.rules.hookspec`); these are the plain values that cross between the
components, the game and the front ends.  Cards are ints (:mod:`bourre.rules.cards`), sets
of cards tuples of them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from bourre.rules.money import Amount

__all__ = [
    "DECIDE",
    "EXCHANGE",
    "HandOutcome",
    "PlayResult",
    "Reason",
    "RuleViolation",
    "Ruling",
    "Turn",
]


class RuleViolation(Exception):
    """An answer the rules forbid (a pass that is not allowed, a card not held …).

    ``rule`` is the id of the rule (R-…) that forbids it, ``reason`` its words;
    ``legal`` the allowed answers where that helps (e.g. the legal cards); ``card``
    the card it concerns, where one does (a referee names where the card was given).
    """

    def __init__(
        self, rule: str, message: str, legal: Sequence[object] = (), card: int | None = None
    ) -> None:
        super().__init__(f"{message} ({rule})")
        self.rule = rule
        self.reason = message
        self.legal = tuple(legal)
        self.card = card

    def __reduce__(self) -> tuple[object, ...]:
        """Picklable with its rule and words (it crosses to worker processes)."""
        return (type(self), (self.rule, self.reason, self.legal, self.card))


@dataclass(frozen=True)
class Reason:
    """Why something is as it is: a rule id and its words for this case.  The
    explanations of a legal set and of a payout are lists of these, which every
    front end only renders."""

    rule: str
    words: str
    amount: Amount = 0
    """The chips at stake in this reason (a payout's), else 0."""
    seats: tuple[int, ...] = ()
    """The seats it concerns (a payout's), else empty."""


@dataclass(frozen=True)
class Ruling:
    """A legal set and why: the cards allowed (in the hand's order, never empty) and
    the reason that decided them (the rule id and its words for this trick)."""

    cards: tuple[int, ...]
    reason: Reason

    def refuse(self, card: str) -> RuleViolation:
        """The refusal of ``card`` (its name), not among :attr:`cards`."""
        return RuleViolation(
            self.reason.rule, f"{card} may not be played: {self.reason.words}", self.cards
        )


DECIDE = "decide"
"""A :class:`Turn` to say pass or play (R-DECIDE)."""
EXCHANGE = "exchange"
"""A :class:`Turn` to discard and draw (R-DRAW)."""


@dataclass(frozen=True)
class Turn:
    """Who acts next in the decisions and the exchange (the decisions' component)."""

    seat: int
    kind: str
    """:data:`DECIDE` (pass or play) or :data:`EXCHANGE` (the discard, R-DRAW)."""
    forced: str | None = None
    """When deciding: the id of the rule that forbids passing (R-ACE-UP, R-LAST-STANDS)."""


@dataclass
class PlayResult:
    """What the payout needs to know of a hand once it is played."""

    n: int
    pot_at_stake: Amount
    active: list[int]
    tricks_won: list[int]
    forfeits: set[int]
    """Seats that lost the right to the pot (R-CORRECTED, R-RENEGE)."""
    reneges: list[int]
    """One seat per renege, in play order (R-RENEGE)."""
    sole: bool
    """A sole participant (R-SOLE): no trick was played."""


@dataclass
class HandOutcome:
    """The payout of a hand: who takes what, who pays what, what carries, and why."""

    winner: int | None
    """The seat that takes the pot at stake, or ``None`` (tie, forfeit)."""
    takes: list[Amount]
    """What each seat takes from the pot at stake."""
    paid: list[Amount]
    """What each seat pays into the next pot (R-BOURRE, R-RENEGE)."""
    pot_after: Amount
    """The pot carried into the next hand, before its antes."""
    bourre: list[int]
    reneges: list[int]
    ante_exempt: frozenset[int] = frozenset()
    """Seats that skip the ordinary ante of the next hand (R-ANTE)."""
    tied: tuple[int, ...] = ()
    """Seats tied for the most tricks, when nobody took the pot for a tie."""
    reasons: tuple[Reason, ...] = field(default=(), compare=False)
    """Why, in the payout component's words: one :class:`Reason` per rule applied
    (the pot taken or carried, each payment, the lost deals), in the order they
    apply."""
