"""Decisions: pass or play in turn, each player who plays exchanging at once (R-DECIDE,
R-PASS, R-ACE-UP, R-LAST-STANDS, R-SOLE, R-PREMATURE): their text, their code and the
words of their refusals.  The procedure is stepped by the game: it says whose turn it
is (:meth:`Sequential.turn`) and applies each answer, keeping its progress in the
:class:`~bourre.state.HandState`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from mypy_extensions import mypyc_attr

from bourre.components import DecisionComponent
from bourre.rules import DECIDE, EXCHANGE, RuleViolation, Turn
from bourre.state import HandState, PublicDecision

ACE: Final = 12
_new: Final = tuple.__new__  # builds a NamedTuple without its Python-level __new__
_SEATS: Final = 8
_PLAIN: Final = [Turn(s, DECIDE, None) for s in range(_SEATS)]
_ACE_UP: Final = [Turn(s, DECIDE, "R-ACE-UP") for s in range(_SEATS)]
_LAST: Final = [Turn(s, DECIDE, "R-LAST-STANDS") for s in range(_SEATS)]
_EXCHANGE: Final = [Turn(s, EXCHANGE, None) for s in range(_SEATS)]
"""The turns of tables up to 8 seats, made once (the game asks at every step)."""
_PASSED: Final[list[Any]] = [_new(PublicDecision, (s, False, 0)) for s in range(_SEATS)]
_PLAYED: Final[list[list[Any]]] = [
    [_new(PublicDecision, (s, True, k)) for k in range(53)] for s in range(_SEATS)
]
"""Every public decision, made once and shared (values): a seat passed, or played
and exchanged k cards.  Held as objects: compiled code then stores them as they are."""

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


def fold(state: HandState, seat: int) -> None:
    """R-PASS: the hand goes face down, out of play for this deal."""
    state.folded[seat] = state.hands[seat]
    state.hands[seat] = []
    state.decisions.append(_PASSED[seat])


def order(state: HandState) -> list[int]:
    """Seats in decision order: the dealer's left first, the dealer last (R-DECIDE)."""
    n, dealer = state.n, state.dealer
    return [(dealer + k) % n for k in range(1, n + 1)]


@mypyc_attr(allow_interpreted_subclasses=True)  # compiled (setup.py); subclass freely
class Sequential(DecisionComponent):
    """Each player in turn from the dealer's left says pass or play, and a player
    who plays exchanges before the next decides (R-DECIDE, R-DRAW)."""

    announcements = True
    """Players announce in turn, so an announcement out of turn can happen
    (R-PREMATURE)."""

    def forced(self, state: HandState, seat: int) -> str | None:
        """The rule that forbids ``seat`` to pass, if any (R-ACE-UP, R-LAST-STANDS)."""
        if seat != state.dealer:
            return None
        if state.upcard % 13 == ACE:
            return "R-ACE-UP"
        if not state.active:
            return "R-LAST-STANDS"
        return None

    def turn(self, state: HandState) -> Turn | None:
        if state.exchanging >= 0:
            return _EXCHANGE[state.exchanging]
        k = state.step
        if k >= state.n:
            return None
        s = (state.dealer + 1 + k) % state.n
        rule = self.forced(state, s)
        if rule is None:
            return _PLAIN[s]
        return (
            _ACE_UP[s]
            if rule == "R-ACE-UP"
            else _LAST[s]
            if rule == "R-LAST-STANDS"
            else (Turn(s, DECIDE, rule))
        )

    def decide(self, state: HandState, seat: int, play: bool) -> None:
        if not play:
            rule = self.forced(state, seat)
            if rule is not None:
                raise refuse_pass(seat, rule)
        state.step += 1
        state.chosen[seat] = 1 if play else 0
        if play:
            state.active.append(seat)
            state.exchanging = seat
        else:
            fold(state, seat)

    def exchanged(self, state: HandState, seat: int, discards: Sequence[int]) -> None:
        state.exchanging = -1
        state.decisions.append(_PLAYED[seat][len(discards)])
