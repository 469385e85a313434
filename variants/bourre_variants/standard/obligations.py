"""The ordinary obligations of a player (R-FOLLOW, R-TRUMP, R-DISCARD).

Pure functions of the hand, the trick so far and the trump suit; the legal set is
never empty and always within the hand.  Hands are sorted ascending (an invariant of
:class:`bourre.state.HandState`), so a suit is a contiguous slice: these functions
run for every card played, compiled (setup.py), where short native scans of a hand
beat calls to :mod:`bisect`.
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


def _suit(hand: list[int], lo: int) -> tuple[int, int]:
    """The bounds ``i, j`` of the suit starting at card ``lo`` in a sorted hand."""
    n = len(hand)
    i = 0
    while i < n and hand[i] < lo:
        i += 1
    j = i
    while j < n and hand[j] < lo + 13:
        j += 1
    return i, j


def _above(hand: list[int], i: int, j: int, card: int) -> int:
    """The first index of ``hand[i:j]`` above ``card`` (``j`` if none is)."""
    while i < j and hand[i] < card:
        i += 1
    return i


def follow(hand: list[int], trick: list[int], trump: int) -> list[int]:
    """The legal cards under the ordinary obligations.

    Leading is free.  R-FOLLOW: holding the led suit, play it, and beat the winning
    card when it is of the led suit and you can.  R-TRUMP: without it, trump, beating
    the highest trump on the trick when you can, else under-trump.  R-DISCARD: with
    neither, any card.
    """
    if not trick:
        return hand[:]
    lo = trick[0] // 13 * 13
    t0 = trump * 13
    win = -1  # the highest card of the led suit on the trick (trumps, if trumps led)
    top = -1  # the highest trump on the trick, when another suit was led
    for c in trick:
        if lo <= c < lo + 13:
            if c > win:
                win = c
        elif t0 <= c < t0 + 13 and c > top:
            top = c
    i, j = _suit(hand, lo)
    if i < j:  # R-FOLLOW
        if top >= 0:
            return hand[i:j]  # trumped: any card of the led suit
        b = _above(hand, i, j, win)
        return hand[b:j] if b < j else hand[i:j]
    i, j = _suit(hand, t0)
    if i == j:
        return hand[:]  # R-DISCARD
    if top < 0:
        return hand[i:j]  # R-TRUMP
    b = _above(hand, i, j, top)
    return hand[b:j] if b < j else hand[i:j]  # beat it, else under-trump


def follow_optional_undertrump(hand: list[int], trick: list[int], trump: int) -> list[int]:
    """As :func:`follow`, but without the led suit and unable to beat a trump already
    on the trick, a player may discard instead of under-trumping."""
    if not trick:
        return hand[:]
    i, j = _suit(hand, trick[0] // 13 * 13)
    if i < j:
        return follow(hand, trick, trump)
    t0 = trump * 13
    i, j = _suit(hand, t0)
    if i == j:
        return hand[:]
    top = -1
    for c in trick:
        if c > top and t0 <= c < t0 + 13:
            top = c
    if top < 0:
        return hand[i:j]
    b = _above(hand, i, j, top)
    return hand[b:j] if b < j else hand[:]
