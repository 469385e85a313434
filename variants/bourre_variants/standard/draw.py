"""The draw (R-DRAW, R-RESHUFFLE): its text, its code and the words of its refusals.
A player who plays exchanges 0 to all the cards of the hand with the top of the
stock; when the stock runs out, earlier players' unreturned discards make a new one."""

from __future__ import annotations

from collections.abc import Sequence

from mypy_extensions import mypyc_attr

from bourre.cards import card_str
from bourre.rules import RuleViolation
from bourre.state import HandState

TEXTS = [
    (
        "R-DRAW",
        "A player who plays at once discards 0 to all the cards of the hand and draws as"
        " many from the top of the stock before the next player decides; standing pat"
        " is allowed.",
    ),
    (
        "R-RESHUFFLE",
        "If the stock runs out, the discards of earlier players not yet returned are"
        " shuffled into a new stock; a player never receives back their own discards"
        " of this exchange; folded hands are never reused.",
    ),
]
"""The rules of this module, as ``bourre rules`` prints them."""


@mypyc_attr(allow_interpreted_subclasses=True)  # compiled (setup.py); subclass freely
class Draw:
    """Exchange 0…``hand_size`` cards with the top of the stock (R-DRAW); when the stock
    runs out, earlier players' unreturned discards make a new stock (R-RESHUFFLE).
    Subclass and override :meth:`limit` for a house that caps the exchange."""

    def __init__(self, hand_size: int) -> None:
        self.hand_size = hand_size

    def limit(self, state: HandState, seat: int) -> int:
        return self.hand_size

    def check(self, state: HandState, seat: int, discards: Sequence[int]) -> None:
        k = len(discards)
        limit = self.limit(state, seat)
        if k > limit:
            raise RuleViolation(
                "R-DRAW", f"seat {seat} may exchange at most {limit} cards, not {k}"
            )
        hand = state.hands[seat]
        for i, c in enumerate(discards):
            if not isinstance(c, int) or c not in hand:
                name = card_str(c) if isinstance(c, int) and 0 <= c < 52 else repr(c)
                raise RuleViolation("R-DRAW", f"seat {seat} does not hold {name}")
            if c in discards[:i]:
                raise RuleViolation("R-DRAW", f"seat {seat} discards {card_str(c)} twice")

    def __call__(self, state: HandState, seat: int, discards: Sequence[int]) -> None:
        k = len(discards)
        if not k:
            return  # standing pat
        self.check(state, seat, discards)
        hand = state.hands[seat]
        for c in discards:
            hand.remove(c)
        stock = state.stock
        if len(stock) >= k:
            hand += stock[:k]
            del stock[:k]
        else:
            _draw_through_reshuffle(state, hand, k)
        hand.sort()
        state.pile += discards
        state.discards[seat] += discards
        mask = 0
        for c in discards:
            mask |= 1 << c
        state.known[seat] |= mask


def _draw_through_reshuffle(state: HandState, hand: list[int], need: int) -> None:
    """Serve ``need`` cards when the stock runs out (R-RESHUFFLE): the discards of
    earlier players not yet returned (never this player's own) make a new stock."""
    stock = state.stock
    while need:
        if not stock:
            if not state.pile:
                raise RuleViolation(
                    "R-RESHUFFLE", "the stock ran out and there are no discards to reshuffle"
                )
            stock[:] = state.reshuffle(state.pile)
            state.reshuffles.append(list(stock))
            state.pile = []
            for s in range(state.n):
                state.discards[s] = []
                state.known[s] = 0
        take = min(need, len(stock))
        hand += stock[:take]
        del stock[:take]
        need -= take


def make_draw(hand_size: int) -> Draw:
    """The standard draw for hands of ``hand_size`` cards."""
    return Draw(hand_size)
