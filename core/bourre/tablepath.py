"""What a real table adds to stepping a session (:class:`TablePath`, a base of
:class:`~bourre.engine.State`): the next hand's position given before its deal (the
dealer, a pot already in the middle, a reshuffle's order), an announcement out of turn
(R-PREMATURE), and a card played that the rules forbid, standing as a renege
(R-RENEGE) or taken back (R-CORRECTED).  The referee (:mod:`bourre.referee`) drives
these; bots and people only ever step :meth:`~bourre.engine.State.apply_action`.
"""

from __future__ import annotations

from collections.abc import Callable

from bourre.cardplay import legal as legal_set
from bourre.cardplay import play_card
from bourre.cards import card_str
from bourre.flow import DEAL, PLAY_PHASE, end_hand
from bourre.money import Amount
from bourre.rules import RuleViolation
from bourre.statefields import StateFields

__all__ = ["TablePath"]


class TablePath(StateFields):
    """The referee's path through a session: a real table's facts and mistakes."""

    def set_hand(
        self,
        *,
        dealer: int | None = None,
        pot: Amount | None = None,
        reshuffle: Callable[[list[int]], list[int]] | None = None,
    ) -> None:
        """Give the next hand's position as a real table has it, before its deal:
        the dealer, the pot already in the middle (nobody antes), the order of a
        reshuffled stock (R-RESHUFFLE; by default the discards in the order made)."""
        if self.phase != DEAL:
            raise RuleViolation("R-DEAL", "a hand's position is given before its deal")
        if dealer is not None and not 0 <= dealer < self.n:
            raise RuleViolation("R-SEAT", f"no seat {dealer} at a table of {self.n}")
        self.given_dealer, self.given_pot, self.given_reshuffle = dealer, pot, reshuffle

    def mark_premature(self, seat: int) -> None:
        """The referee's path: ``seat`` announced out of turn (R-PREMATURE)."""
        if not self.decisions.announcements:
            raise RuleViolation(
                "R-PREMATURE", "no announcement out of turn can arise when everyone decides at once"
            )
        self.premature.append(seat)

    def referee_play(self, card: int, corrected_to: int | None = None) -> None:
        """The referee's path for a card played at a real table: an illegal card
        stands as a renege (R-RENEGE), or is taken back for ``corrected_to``
        (R-CORRECTED).  A legal card is simply played."""
        if self.phase != PLAY_PHASE:
            raise RuleViolation("R-LEAD", "no card is to be played now")
        hs = self.hs
        assert hs is not None
        s = self.seats[len(hs.trick)]  # the seat to play
        legal = legal_set(self)
        hand = hs.hands[s]
        if card not in hand:
            raise RuleViolation("R-DEAL", f"seat {s} does not hold {card_str(card)}")
        if corrected_to is None:
            if play_card(self, card, legal, card not in legal, False, None):
                end_hand(self)  # that was the last trick
            return
        if card in legal:
            raise RuleViolation(
                "R-CORRECTED", f"{card_str(card)} was legal: correcting a legal card is impossible"
            )
        if corrected_to == card:
            raise RuleViolation(
                "R-CORRECTED", f"a correction must name another card than {card_str(card)}"
            )
        if corrected_to not in hand:
            raise RuleViolation("R-CORRECTED", f"seat {s} does not hold {card_str(corrected_to)}")
        if play_card(self, corrected_to, legal, corrected_to not in legal, True, card):
            end_hand(self)  # that was the last trick
