"""The ``check`` check: ``bourre check`` (:func:`bourre.referee.check.check_card`) on
a position of the sessions answers the state's legal set (R-FOLLOW)."""

from __future__ import annotations

from collections.abc import Collection

from bourre.game.state import State
from bourre.referee.check import CheckError, check_card
from bourre.rules.cards import cards_str


class Disagreement(Exception):
    """``bourre check`` refuses the position, or answers another legal set."""


def check_agrees(st: State, legal: Collection[int]) -> bool:
    """Put the position of the player to play in ``st`` to ``bourre check``: ``True``
    when it answers ``legal``, the state's legal set; ``False`` when the position is
    not one ``bourre check`` can be told (the seat knows cards a table does not show).
    Raises :class:`Disagreement` when it refuses the position or answers otherwise."""
    hs = st.hand
    seat = st.current_player()
    held = tuple(hs.hands[seat])
    trick = tuple(hs.trick)
    played = tuple(sorted(hs.played.difference(trick)))
    mine = tuple(sorted(set(hs.discards[seat]) - set(played) - set(trick)))
    known = frozenset((*played, *trick, *mine))
    if known != hs.known_to(seat) or set(mine) & set(held):
        return False
    last = len(hs.trick) == len(hs.trick_seats) - 1
    try:
        ruling = check_card(
            st.house,
            held,
            trick,
            trump=hs.trump,
            played=played,
            won=hs.won[seat],
            discards=mine,
            last=last,
        )
    except CheckError as e:
        raise Disagreement(f"`bourre check` refuses the position: {e}") from e
    if set(ruling.legal) != set(legal):
        raise Disagreement(
            f"`bourre check` answers {cards_str(ruling.legal)}, the game {cards_str(legal)}"
        )
    return True
