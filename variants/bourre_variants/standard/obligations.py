"""The ordinary obligations of a player (R-FOLLOW, R-TRUMP, R-DISCARD).

Pure functions of the hand, the trick so far and the trump suit; the legal set is
never empty and always within the hand.
"""

from __future__ import annotations


def current_winner(trick: list[int], trump: int) -> int:
    """The card now winning a (possibly incomplete) trick (R-TRICK)."""
    best = trick[0]
    bs = best // 13
    for c in trick[1:]:
        s = c // 13
        if s == bs:
            if c > best:
                best = c
        elif s == trump:
            best, bs = c, s
    return best


def follow(hand: list[int], trick: list[int], trump: int) -> list[int]:
    """The legal cards under the ordinary obligations.

    Leading is free.  R-FOLLOW: holding the led suit, play it, and beat the winning
    card when it is of the led suit and you can.  R-TRUMP: without it, trump, beating
    the highest trump on the trick when you can, else under-trump.  R-DISCARD: with
    neither, any card.
    """
    if not trick:
        return hand[:]
    lead = trick[0] // 13
    suit = [c for c in hand if c // 13 == lead]
    if suit:
        win = current_winner(trick, trump)
        if win // 13 == lead:
            beat = [c for c in suit if c > win]
            return beat or suit
        return suit  # trumped: any card of the led suit
    trumps = [c for c in hand if c // 13 == trump]
    if not trumps:
        return hand[:]  # R-DISCARD
    top = -1
    for c in trick:
        if c // 13 == trump and c > top:
            top = c
    if top < 0:
        return trumps
    return [c for c in trumps if c > top] or trumps  # under-trumping is obligatory


def follow_optional_undertrump(hand: list[int], trick: list[int], trump: int) -> list[int]:
    """As :func:`follow`, but without the led suit and unable to beat a trump already
    on the trick, a player may discard instead of under-trumping."""
    if not trick:
        return hand[:]
    lead = trick[0] // 13
    if any(c // 13 == lead for c in hand):
        return follow(hand, trick, trump)
    trumps = [c for c in hand if c // 13 == trump]
    if not trumps:
        return hand[:]
    top = -1
    for c in trick:
        if c // 13 == trump and c > top:
            top = c
    if top < 0:
        return trumps
    return [c for c in trumps if c > top] or hand[:]
