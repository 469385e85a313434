"""The ordinary obligations of a player (R-LEAD, R-FOLLOW, R-TRUMP, R-DISCARD): their
text, their code and the words of their refusals.

Pure functions of the hand, the trick so far and the trump suit; the legal set is
never empty and always within the hand.  Hands are sorted ascending (an invariant of
:class:`bourre.state.HandState`), so a suit is a contiguous slice: these functions
run for every card played, compiled (setup.py), where short native scans of a hand
beat calls to :mod:`bisect`.
"""

from __future__ import annotations

from mypy_extensions import mypyc_attr

from bourre.cards import SUIT_NAMES, card_str
from bourre.rules import RuleViolation

TEXTS = [
    (
        "R-LEAD",
        "The first active player to the dealer's left leads; the trick's winner leads next.",
    ),
    (
        "R-FOLLOW",
        "Holding the led suit, play it; if the winning card is of the led suit, beat it"
        " when you can. After a trump on the trick, any card of the led suit.",
    ),
    (
        "R-TRUMP",
        "Without the led suit, play a trump; beat the highest trump on the trick when you"
        " can, else under-trump (obligatory).",
    ),
    ("R-DISCARD", "Only with neither the led suit nor trumps may any card be played."),
]
"""The rules of this module, as ``bourre rules`` prints them."""

OPTIONAL_UNDERTRUMP_TEXTS = [
    *TEXTS[:2],
    (
        "R-OPTIONAL-UNDERTRUMP",
        "Without the led suit, play a trump, beating the highest trump on the trick when"
        " you can; unable to beat it, you may play a lower trump or any other card.",
    ),
    ("R-DISCARD", "With neither the led suit nor trumps, any card may be played."),
]
"""``optional-undertrump``: R-TRUMP (and so R-DISCARD) replaced."""


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


def _trick_facts(trick: list[int], trump: int) -> tuple[int, int, int]:
    """The led suit, the highest card of it and the highest trump on the trick."""
    lead = trick[0] // 13
    win = top = -1
    for c in trick:
        if c // 13 == lead:
            win = max(win, c)
        elif c // 13 == trump:
            top = max(top, c)
    return lead, win, top


def refusal(
    hand: list[int], trick: list[int], trump: int, card: int, optional_undertrump: bool = False
) -> RuleViolation:
    """Why ``card`` (held, not legal) may not be played, in the table's words."""
    lead, win, top = _trick_facts(trick, trump)
    led = SUIT_NAMES[lead]
    legal = (follow_optional_undertrump if optional_undertrump else follow)(hand, trick, trump)
    allowed = " ".join(card_str(c) for c in legal)
    if any(c // 13 == lead for c in hand):
        if card // 13 == lead:
            return RuleViolation(
                "R-FOLLOW",
                f"{card_str(card)} does not beat {card_str(win)}: holding a higher {led[:-1]},"
                f" you must beat it ({allowed})",
                legal,
            )
        return RuleViolation(
            "R-FOLLOW", f"{led} were led and you hold {led}: play one ({allowed})", legal
        )
    trumps = SUIT_NAMES[trump]
    if card // 13 == trump:
        return RuleViolation(
            "R-OPTIONAL-UNDERTRUMP" if optional_undertrump else "R-TRUMP",
            f"{card_str(card)} does not beat {card_str(top)}: holding a higher trump, you must"
            f" beat it ({allowed})",
            legal,
        )
    if top >= 0:
        return RuleViolation(
            "R-TRUMP",
            f"without {led} you must trump, and under-trump when you cannot beat"
            f" {card_str(top)} ({allowed})",
            legal,
        )
    return RuleViolation(
        "R-OPTIONAL-UNDERTRUMP" if optional_undertrump else "R-TRUMP",
        f"without {led} you must play one of your {trumps} ({allowed})",
        legal,
    )


@mypyc_attr(allow_interpreted_subclasses=True)  # compiled (setup.py); subclass freely
class StandardFollow:
    """The follow rule of the standard profile (R-FOLLOW, R-TRUMP, R-DISCARD)."""

    def legal(self, hand: list[int], trick: list[int], trump: int) -> list[int]:
        return follow(hand, trick, trump)

    def refuse(self, hand: list[int], trick: list[int], trump: int, card: int) -> RuleViolation:
        return refusal(hand, trick, trump, card)


@mypyc_attr(allow_interpreted_subclasses=True)  # compiled (setup.py); subclass freely
class OptionalUndertrumpFollow:
    """``optional-undertrump``'s follow rule (R-FOLLOW, R-OPTIONAL-UNDERTRUMP)."""

    def legal(self, hand: list[int], trick: list[int], trump: int) -> list[int]:
        return follow_optional_undertrump(hand, trick, trump)

    def refuse(self, hand: list[int], trick: list[int], trump: int, card: int) -> RuleViolation:
        return refusal(hand, trick, trump, card, optional_undertrump=True)
