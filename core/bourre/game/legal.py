"""The cards the player to play may play, and why (:class:`Legal`, :func:`legal_play`):
the ordinary obligations' answer (R-FOLLOW …), narrowed by the cinch when the player
has one (R-SURE … R-CINCH-LAST)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from bourre.rules import Reason, RuleViolation
from bourre.rules.cards import card_symbol
from bourre.rules.person import of_seat

if TYPE_CHECKING:
    from bourre.rules.hookspec import CinchRule, FollowRule

__all__ = ["Legal", "legal_play"]


@dataclass(frozen=True)
class Legal:
    """The cards the player to play may play and why (:meth:`State.legal_with_reasons`):
    the ordinary obligations' reason, then the cinch's when the player has one."""

    seat: int
    cards: tuple[int, ...]
    """The legal cards, in the hand's order; never none."""
    reasons: tuple[Reason, ...]
    cinch: bool
    """Whether the player has a cinch (R-SURE)."""
    ordinary: tuple[int, ...]
    """The cards the ordinary obligations allow (before the cinch)."""

    @property
    def rules(self) -> list[str]:
        """The ids of the rules that decided the legal set, in order."""
        return [r.rule for r in self.reasons]

    def reason_for(self, card: int) -> Reason:
        """Why ``card``, held and not legal, may not be played: the reason of the rule
        that left it out (the ordinary obligations', else the cinch's)."""
        return self.reasons[0] if card not in self.ordinary else self.reasons[-1]

    def refusal(self, card: int) -> RuleViolation:
        """The refusal of ``card``, held and not legal, in :meth:`reason_for`'s words."""
        reason = self.reason_for(card)
        return RuleViolation(
            reason.rule,
            f"seat {self.seat} may not play {card_symbol(card)}: {of_seat(reason.words)}",
            self.cards,
        )


def legal_play(
    follow: FollowRule,
    cinch: CinchRule,
    seat: int,
    hand: tuple[int, ...],
    trick: tuple[int, ...],
    trump: int,
    known: frozenset[int],
    won: int,
    last: bool,
) -> Legal:
    """The legal cards of ``seat`` holding ``hand`` on ``trick`` and why: the ordinary
    obligations' answer (R-FOLLOW …), narrowed by the cinch when the player has one
    (R-SURE … R-CINCH-LAST).  ``known``: the cards the player knows are out of every
    opponent's hand; ``won``: its tricks; ``last``: it plays last to the trick."""
    ordinary = follow.legal(hand, trick, trump)
    ruling, reasons = ordinary, [ordinary.reason]
    has = cinch.has_cinch(hand, trump, known, won)
    if has:
        ruling = cinch.narrow(ordinary, hand, trick, trump, known, last)
        if ruling is not ordinary:
            reasons.append(ruling.reason)
    return Legal(seat, ruling.cards, tuple(reasons), has, ordinary.cards)
