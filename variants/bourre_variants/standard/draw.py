"""The draw (R-DRAW, R-RESHUFFLE): its text, its code and the words of its refusals.
A player who plays exchanges 0 to all the cards of the hand with the top of the
stock; when the stock runs out, earlier players' unreturned discards make a new one."""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

from mypy_extensions import mypyc_attr

from bourre.cards import card_str
from bourre.components import DrawComponent
from bourre.rules import RuleViolation
from bourre.state import HandState
from bourre_variants.standard.deal import sorted_five

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
class Draw(DrawComponent):
    """Exchange 0…``hand_size`` cards with the top of the stock (R-DRAW); when the stock
    runs out, earlier players' unreturned discards make a new stock (R-RESHUFFLE).
    Subclass and override :meth:`limit` for a house that caps the exchange."""

    def __init__(self, hand_size: int) -> None:
        self.hand_size = hand_size

    def limit(self, state: HandState, seat: int) -> int:
        return self.hand_size

    def check(self, state: HandState, seat: int, discards: Sequence[int]) -> None:
        _checked(state, seat, tuple(discards), self.limit(state, seat))

    def __call__(self, state: HandState, seat: int, discards: Sequence[int]) -> None:
        if not discards:
            return  # standing pat
        ds = tuple(discards)  # the same object when a tuple is given (the game's)
        limit = self.limit(state, seat)
        k = len(ds)
        hand = state.hands[seat]
        stock = state.stock
        kept: list[int] | None = None
        if k <= limit and len(hand) == 5 and len(stock) >= k:
            # the usual hand: the discards replaced and sorted natively, without the
            # hand's mask, once they are k distinct cards of the hand (else the checks
            # below refuse them)
            mask = _distinct(ds)
            if mask >= 0:
                kept = _replaced5(hand, mask, k, stock)
        if kept is not None:
            del stock[:k]
        else:
            mask = _checked(state, seat, ds, limit)  # refuses what is not allowed (R-DRAW)
            kept = [c for c in hand if not (mask >> c) & 1]
            if len(stock) < k:
                _draw_through_reshuffle(state, kept, k)
            else:
                kept.extend(stock[:k])
                del stock[:k]
            kept.sort()
        state.hands[seat] = kept  # a new list: list methods, not operators, run natively
        # a few cards, appended one by one (cheaper than extend), moved as they are:
        # compiled, no unboxing and boxing again
        pile = cast("list[object]", state.pile)
        own = cast("list[object]", state.discards[seat])
        given: tuple[object, ...] = ds
        for x in given:
            pile.append(x)
            own.append(x)
        known = state.known
        known[seat] = known[seat] | mask


def _distinct(discards: tuple[object, ...]) -> int:
    """The mask of ``discards`` if they are distinct cards, else -1."""
    mask = 0
    for x in discards:
        if not isinstance(x, int) or not 0 <= x < 52 or (mask >> x) & 1:
            return -1
        mask |= 1 << x
    return mask


def _replaced5(hand: list[int], mask: int, k: int, stock: list[int]) -> list[int] | None:
    """A hand of five with its ``k`` cards of ``mask`` replaced by the top of ``stock``
    (in order), sorted; ``None`` unless the hand holds exactly ``k`` of them."""
    a, b, c, d, e = hand[0], hand[1], hand[2], hand[3], hand[4]
    ra, rb, rc, rd = (mask >> a) & 1, (mask >> b) & 1, (mask >> c) & 1, (mask >> d) & 1
    if ra + rb + rc + rd + ((mask >> e) & 1) != k:
        return None
    j = 0
    if ra:
        a = stock[j]
        j += 1
    if rb:
        b = stock[j]
        j += 1
    if rc:
        c = stock[j]
        j += 1
    if rd:
        d = stock[j]
        j += 1
    if j < k:
        e = stock[j]
    return sorted_five(a, b, c, d, e)


def _checked(state: HandState, seat: int, discards: tuple[object, ...], limit: int) -> int:
    """The mask of ``discards`` once they are allowed: at most ``limit``, each a card
    the seat holds, none twice (R-DRAW); else the refusal."""
    k = len(discards)
    if k > limit:
        raise RuleViolation("R-DRAW", f"seat {seat} may exchange at most {limit} cards, not {k}")
    held = state.hand_mask(seat)
    mask = 0
    for x in discards:
        if not isinstance(x, int) or not 0 <= x < 52 or not (held >> x) & 1:
            name = card_str(x) if isinstance(x, int) and 0 <= x < 52 else repr(x)
            raise RuleViolation("R-DRAW", f"seat {seat} does not hold {name}")
        if (mask >> x) & 1:
            raise RuleViolation("R-DRAW", f"seat {seat} discards {card_str(x)} twice")
        mask |= 1 << x
    return mask


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
        hand.extend(stock[:take])
        del stock[:take]
        need -= take


def make_draw(hand_size: int) -> Draw:
    """The standard draw for hands of ``hand_size`` cards."""
    return Draw(hand_size)
