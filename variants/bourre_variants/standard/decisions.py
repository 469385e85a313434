"""Decisions: pass or play in turn, each player who plays exchanging at once (R-DECIDE,
R-PASS, R-ACE-UP, R-LAST-STANDS, R-SOLE, R-PREMATURE): their text, their code and the
words of their refusals.  The procedure is stepped by the game: it says whose turn it
is (:meth:`Sequential.turn`) and applies each answer, keeping its progress in the
:class:`~bourre.game.state.HandState`."""

from __future__ import annotations

from collections.abc import Sequence

from bourre.rules import DECIDE, EXCHANGE, RuleViolation, Turn
from bourre.rules.cards import rank_of
from bourre.rules.hand import HandState, PublicDecision

ACE = 12
"""The ace's rank (:func:`bourre.rules.cards.rank_of`)."""

TEXTS = [
    ("R-DECIDE", "From the dealer's left to the dealer, each player says pass or play."),
    ("R-PASS", "Passing gives up the hand and the ante already paid, with no other penalty."),
    ("R-ACE-UP", "If the upcard is the ace of trumps, the dealer must play."),
    ("R-LAST-STANDS", "If everyone before the dealer passed, the dealer plays and takes the pot."),
    ("R-SOLE", "A sole participant takes the pot without play; nobody is bourré."),
    (
        "R-PREMATURE",
        "Announcing play, pass or the number of cards to exchange before one's turn"
        " costs one's next turn to deal.",
    ),
]
"""The rules of this module, as ``bourre rules`` prints them."""

FORCED_WORDS = {
    "R-ACE-UP": "the upcard is the ace of trumps",
    "R-LAST-STANDS": "everyone before the dealer passed",
}
"""Why a dealer may not pass, in words (R-ACE-UP, R-LAST-STANDS)."""


def refuse_pass(seat: int, rule: str) -> RuleViolation:
    """The refusal of a forbidden pass."""
    return RuleViolation(
        rule, f"the dealer (seat {seat}) may not pass: {FORCED_WORDS.get(rule, rule)}", ("play",)
    )


def fold(hand: HandState, seat: int) -> None:
    """R-PASS: the hand goes face down, out of play for this deal."""
    hand.folded[seat] = hand.hands[seat]
    hand.hands[seat] = []
    hand.decisions.append(PublicDecision(seat, False, 0))


def ace_up(hand: HandState) -> bool:
    """Whether the upcard is the ace of trumps (R-ACE-UP)."""
    return rank_of(hand.upcard) == ACE


class Sequential:
    """Each player in turn from the dealer's left says pass or play, and a player
    who plays exchanges before the next decides (R-DECIDE, R-DRAW)."""

    announcements = True
    """Players announce in turn, so an announcement out of turn can happen
    (R-PREMATURE)."""

    def forced(self, hand: HandState, seat: int) -> str | None:
        """The rule that forbids ``seat`` to pass, if any (R-ACE-UP, R-LAST-STANDS)."""
        if seat != hand.dealer:
            return None
        if ace_up(hand):
            return "R-ACE-UP"
        if not hand.active:
            return "R-LAST-STANDS"
        return None

    def turn(self, hand: HandState) -> Turn | None:
        if hand.exchanging >= 0:
            return Turn(hand.exchanging, EXCHANGE)
        if hand.step >= hand.n:
            return None
        seat = (hand.dealer + 1 + hand.step) % hand.n
        return Turn(seat, DECIDE, self.forced(hand, seat))

    def decide(self, hand: HandState, seat: int, play: bool) -> None:
        if not play:
            rule = self.forced(hand, seat)
            if rule is not None:
                raise refuse_pass(seat, rule)
        hand.step += 1
        hand.chosen[seat] = 1 if play else 0
        if play:
            hand.active.append(seat)
            hand.exchanging = seat
        else:
            fold(hand, seat)

    def exchanged(self, hand: HandState, seat: int, discards: Sequence[int]) -> None:
        hand.exchanging = -1
        hand.decisions.append(PublicDecision(seat, True, len(discards)))
