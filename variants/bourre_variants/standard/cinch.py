"""The cinch: sure tricks and what a cinch obliges (R-SURE, R-EQUIV, R-CINCH-LEAD,
R-CINCH-FOLLOW, R-CINCH-LAST): their text, their code and their reasons.

``known`` is the set of cards the player knows no opponent holds: cards played this
deal (current trick included) and the player's own discards not returned to a stock.
"""

from __future__ import annotations

from bourre.rules import Reason, Ruling
from bourre.rules.cards import SUIT_NAMES, suit_of
from bourre_variants.standard.obligations import names

CINCH = 3
"""Sure tricks that make a cinch (R-SURE)."""

TEXTS = [
    (
        "R-SURE",
        "Sure tricks = tricks won + master trumps held (every higher trump held, played,"
        " or in one's own discards). A cinch is 3 sure tricks.",
    ),
    ("R-EQUIV", "Trumps with no opponent's card between them are equivalent."),
    ("R-CINCH-LEAD", "With a cinch, lead the highest trump if you hold any."),
    (
        "R-CINCH-FOLLOW",
        "With a cinch, when the ordinary obligations allow a trump, play the highest"
        " allowed trump; following suit keeps priority.",
    ),
    ("R-CINCH-LAST", "The last player of a trick only has to win under the ordinary obligations."),
]
"""The rules of this module, as ``bourre rules`` prints them."""


def trumps_down(trump: int) -> range:
    """The trumps from the ace down to the two."""
    return range(trump * 13 + 12, trump * 13 - 1, -1)


def master_count(hand: tuple[int, ...], trump: int, known: frozenset[int]) -> int:
    """Master trumps held: every higher trump is in the hand or known out (R-SURE)."""
    count = 0
    for c in trumps_down(trump):
        if c in hand:
            count += 1
        elif c not in known:
            break
    return count


def sure_tricks(hand: tuple[int, ...], trump: int, known: frozenset[int], won: int) -> int:
    """Tricks already won plus master trumps held (R-SURE)."""
    return won + master_count(hand, trump, known)


def highest_trumps(
    allowed: tuple[int, ...], hand: tuple[int, ...], trump: int, known: frozenset[int]
) -> tuple[int, ...]:
    """The highest of the ``allowed`` trumps and those equivalent to it: lower ones
    reached with only the player's own or known-out cards in between (R-EQUIV)."""
    top = max(allowed)
    best = {top}
    for c in trumps_down(trump):
        if c >= top:
            continue
        if c in allowed:
            best.add(c)
        elif c not in hand and c not in known:
            break  # an opponent may hold it: the lower trumps are not equivalent
    return tuple(c for c in hand if c in best)


class StandardCinch:
    """R-SURE with the obligations R-CINCH-LEAD, R-CINCH-FOLLOW and R-CINCH-LAST."""

    def has_cinch(self, hand: tuple[int, ...], trump: int, known: frozenset[int], won: int) -> bool:
        return sure_tricks(hand, trump, known, won) >= CINCH

    def narrow(
        self,
        ruling: Ruling,
        hand: tuple[int, ...],
        trick: tuple[int, ...],
        trump: int,
        known: frozenset[int],
        last: bool,
    ) -> Ruling:
        if last and trick:
            words = (
                "you have a cinch, but the last player of a trick only has to win under"
                " the ordinary obligations"
            )
            return Ruling(ruling.cards, Reason("R-CINCH-LAST", words))
        trumps = tuple(c for c in ruling.cards if suit_of(c) == trump)
        if not trumps:
            return ruling  # following suit keeps priority; no trump is allowed
        best = highest_trumps(trumps, hand, trump, known)
        if not trick:
            words = f"you have a cinch: lead your highest {SUIT_NAMES[trump][:-1]}{_equal(best)}"
            return Ruling(best, Reason("R-CINCH-LEAD", words))
        words = f"you have a cinch: play your highest allowed trump{_equal(best)}"
        return Ruling(best, Reason("R-CINCH-FOLLOW", words))


def _equal(best: tuple[int, ...]) -> str:
    """The cards that count as the highest, and why when there are several (R-EQUIV)."""
    if len(best) == 1:
        return f" ({names(best)})"
    return (
        f" or one equal to it, {names(best)} (R-EQUIV: no card an opponent could hold"
        " lies between them)"
    )
