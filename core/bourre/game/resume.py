"""A session resumed at a hand's start (:func:`resume`): a :class:`~bourre.game.state.State`
that stands where another engine's session stood before one of its deals, with
everything the hands to come depend on (the balances, the pot, who dealt last, the
seats spared the next ante, the seeded streams of decks and reshuffles), and none of
the hands before it.

The compiled kernel's state keeps only the current hand's actions when it keeps no
results (``keep_results=False``: the memory of one hand); the Python state that answers
its word-heavy questions starts here and replays that hand
(:meth:`bourre.kernel.state.KernelState._python`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, NamedTuple

from bourre.game.chance import Chance
from bourre.game.state import State, begin_hand, checked_balances, is_amount
from bourre.rules import HandOutcome

if TYPE_CHECKING:
    from bourre.houses.house import House
    from bourre.rules.money import Amount

__all__ = ["HandStart", "resume"]

Words = tuple[int, int, int, int]


class HandStart(NamedTuple):
    """Where a session stands before a deal: what the hands to come depend on."""

    number: int
    """Hands dealt before (R-SESSION)."""
    balances: tuple[Amount, ...]
    """Each seat's balance before the antes."""
    pot: Amount
    """The pot carried in, before the antes (R-ANTE)."""
    first_dealer: int
    """Who dealt the first hand (R-DEALER)."""
    last_dealer: int | None
    """Who dealt the last hand (``None``: no hand yet): the next deals after it (R-DEALER)."""
    previous: HandOutcome | None
    """The last hand's outcome, as far as the next hand's antes read it (its seats
    spared the ante: R-ANTE); ``None`` before the first hand (R-FIRST-POT)."""
    deck: Words | None = None
    """The deck stream's four words of state, for a seeded session (R-DECK)."""
    reshuffle: Words | None = None
    """The reshuffle stream's words (``None``: from its start; R-RESHUFFLE)."""
    marks: tuple[bool, ...] | None = None
    """The seats that lost their next turn to deal, as the house's next dealer left them
    (R-DEALER; ``None``: nobody)."""


def resume(
    house: House,
    at: HandStart,
    *,
    seed: int | str | None,
    start: Sequence[Amount],
    hands: int | None = None,
    settle: bool = True,
    keep_results: bool = False,
) -> State:
    """The session of ``house`` (``seed``, ``hands``, ``settle`` and ``keep_results``
    as :class:`~bourre.game.state.State` takes them; ``start``: each seat's balance at
    the session's start, which its returns count from) resumed at ``at``: dealt at
    once when seeded (the deck drawn from ``at.deck``), else waiting for its deck.  No
    seat has lost its turn to deal but those ``at.marks`` names (R-PREMATURE,
    R-CORRECTED: a table's path; a plugin's next dealer may mark some) and no earlier
    hand's result is kept.  A position that cannot be refuses with a
    ``ValueError`` naming the field and the rule."""
    state = State(
        house,
        hands=hands,
        balances=start,
        dealer=at.first_dealer,
        settle=settle,
        keep_results=keep_results,
    )
    n = state.n
    if not isinstance(at.number, int) or not 0 <= at.number < state.hands_total:
        raise ValueError(
            f"number: {at.number!r} hands dealt before one of {state.hands_total} (R-SESSION)"
        )
    balances = checked_balances(at.balances, 0, n)
    if not is_amount(at.pot) or at.pot < 0:
        raise ValueError(f"pot: {at.pot!r} is not an amount ≥ 0 (R-ANTE)")
    last = at.last_dealer
    if last is not None and (not isinstance(last, int) or not 0 <= last < n):
        raise ValueError(f"last_dealer: no seat {last!r} at a table of {n} (R-DEALER)")
    if (last is None) != (at.number == 0) or (at.previous is None) != (at.number == 0):
        raise ValueError("last_dealer, previous: given once a hand was dealt, only then (R-DEALER)")
    if at.previous is not None and not isinstance(at.previous, HandOutcome):
        raise ValueError(f"previous: {at.previous!r:.80} is not a hand's outcome (R-ANTE)")
    chance = None
    if seed is not None:
        deck, again = at.deck, at.reshuffle
        if not _words(deck) or (again is not None and not _words(again)):
            raise ValueError(
                "deck, reshuffle: a seeded session's streams are 4 words of 32 bits each,"
                " not all zero (R-DECK)"
            )
        assert deck is not None
        chance = Chance.at(seed, deck, again)
    state._balances = balances
    state._pot = at.pot
    state._total = sum(balances) + at.pot
    state._number = at.number
    state._last_dealer = last
    state._previous = at.previous
    if at.marks is not None:
        if len(at.marks) != n or not all(type(m) is bool for m in at.marks):
            raise ValueError(f"marks: {at.marks!r:.80} is not one bool a seat (R-DEALER)")
        state._marks = list(at.marks)
    state._chance = chance
    begin_hand(state)
    return state


def _words(x: object) -> bool:
    """Four words of a xoshiro128** state (:class:`~bourre.game.xoshiro.Xoshiro128`)."""
    return (
        isinstance(x, tuple)
        and len(x) == 4
        and all(type(w) is int and 0 <= w < 1 << 32 for w in x)
        and any(x)
    )
