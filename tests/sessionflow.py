"""A session of three hands at the standard house, tapped on the phone (shared by the
web tests of the session, :mod:`bourre.web.tap.session`): what a table would tap, hand
after hand, the pot and the dealer carried by the referee.

Seat 0 deals hand 1; in it seat 4, whose cards only its tricks show, plays 5♥ in
trick 3, out of spades, while it holds K♦ (trump, R-TRUMP): the table lets it stand (a renege, R-RENEGE), so seat 4
loses its next turn to deal.  In hand 2 (seat 1 deals; the pot carried from hand 1)
seat 0, who shows its cards, plays 10♦ where it may not and takes it back
(R-CORRECTED), playing 3♠ instead.  Hand 3 is dealt by seat 2; in it seat 1
announces before its turn, while seat 4 is to decide (R-PREMATURE): it loses its next
turn to deal, which the money does not feel.  The settlement shares
what is left in the pot in fifths (R-SETTLE): the balances are not whole.

A seeded random session (``session_script("standard", 62, hands=3)`` of
``tests/referee/test_tricks_form.py``), written as the table saw it: each playing seat
by its tricks, seat 0 of hand 2 by the cards it showed.
"""

from __future__ import annotations

SESSION = """\
hand dealer 0
upcard TD
decide 1 pass
decide 2 pass
decide 3 pass
decide 4 play 7H KH 5C
decide 0 play 3S 4H
play 4 AC
play 0 3D
play 0 AS
play 4 TS
play 0 2S
play 4 5H
play 0 TD
play 4 KD
play 4 3H
play 0 8S
hand
upcard AD
dealt 0: 2C TD JH 4H JC
decide 2 play 6S 9S 8C AC
decide 3 pass
decide 4 play 7H TH KH
decide 0 play 4H 2C JC > 3S 3C TC
decide 1 play
play 2 3H
play 4 7D
play 0 JH
play 1 6H
play 4 QS
play 0 TD/3S
play 1 AD
play 2 TS
play 1 7C
play 2 2D
play 4 QC
play 0 TC
play 2 5D
play 4 AS
play 0 TD
play 1 KD
play 1 KC
play 2 JS
play 4 7S
play 0 3C
hand
upcard 6H
decide 3 pass
premature 1
decide 4 play 3S QH QC
decide 0 pass
decide 1 play 3H 4H
decide 2 play TS AS 6H
play 4 4S
play 1 8S
play 2 TH
play 2 8C
play 4 TC
play 1 KC
play 1 5C
play 2 JC
play 4 3C
play 2 6D
play 4 3D
play 1 8D
play 1 KH
play 2 7D
play 4 4C
"""
"""The session, one card a line (as it is tapped)."""

NAMES = ("Ana", "Bo", "Cyd", "Dee", "Eli")
"""The players' names, seat by seat."""

FINAL = ("95.8", "123.8", "99.8", "99.8", "80.8")
"""Each player's chips once the session is settled (R-SETTLE), in decimals."""

PLACES = (4, 1, 2, 2, 5)
"""Their places (ties share a place)."""


def hands(text: str = SESSION) -> list[str]:
    """The session's hands, each as its lines."""
    out: list[str] = []
    for line in text.splitlines():
        if line.startswith("hand"):
            out.append("")
        out[-1] += line + "\n"
    return out
