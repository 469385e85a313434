"""The few primitives a real table steps a :class:`~bourre.game.state.State` with, kept
in the game layer because they change the hand itself; the table's bookkeeping around
them (which of them a script or a tap asks for, the cards nobody showed) is
:class:`bourre.referee.table.TableState`'s.

- what a table saw instead of a deck: a :class:`~bourre.game.actions.Dealt` deal (some
  hands unknown), a hand shown later (``Dealt``), the replacements of an exchange from
  an unseen stock (:class:`~bourre.game.actions.Drew`), the hand a seat held after its
  exchange (:class:`~bourre.game.actions.AfterDraw`): :func:`table_chance`, which
  :meth:`State.apply_chance <bourre.game.state.State.apply_chance>` calls;
- a hand's position given before its deal (the dealer, the pot in the middle, the
  order of a reshuffle): :func:`set_hand`;
- a premature announcement (R-PREMATURE): :func:`mark_premature`;
- a renege or a correction (R-RENEGE, R-CORRECTED): :func:`referee_play`;
- what chance waits for (:func:`waiting`), who deals next (:func:`next_dealer`) and the
  hand's log (:func:`hand_log`, the record's: what each seat anted and why, the cards
  played with their legal sets).

Worlds sampled for a bot (:mod:`bourre.game.worlds`) use the first two too: a world is a
hand whose unseen cards are given as a table would.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, NamedTuple

from bourre.game.log import PlayLog
from bourre.game.phase import Phase
from bourre.rules import Reason, RuleViolation
from bourre.rules.cards import card_symbol
from bourre.rules.hand import HandState
from bourre.rules.money import Amount

if TYPE_CHECKING:
    from bourre.game.state import State

__all__ = [
    "HandLogView",
    "Waiting",
    "dealing",
    "first_dealer_known",
    "hand_log",
    "mark_premature",
    "next_dealer",
    "referee_play",
    "set_hand",
    "waiting",
]


class Waiting(NamedTuple):
    """What chance waits for: ``wants`` (``"deal"``, ``"hand"``, ``"draw"``), the seat
    it waits on (-1 for a deal) and, for a draw, that seat's discards."""

    wants: str
    seat: int
    discards: tuple[int, ...]


def waiting(state: State) -> Waiting | None:
    """What chance waits for at ``state``'s chance node, else ``None``."""
    wants = state.chance_wants
    if not wants:
        return None
    told = state._told
    if wants == "deal":
        return Waiting(wants, -1, ())
    return Waiting(wants, told.seat, told.discards if wants == "draw" else ())


@dataclass(frozen=True)
class HandLogView:
    """The current hand's log, read-only (:func:`hand_log`)."""

    antes: tuple[Amount, ...]
    ante_reasons: tuple[Reason, ...]
    hands_after: tuple[tuple[int, ...], ...]
    plays: tuple[PlayLog, ...]
    forfeits: frozenset[int]
    reneges: tuple[int, ...]
    premature: tuple[int, ...]


def hand_log(state: State) -> HandLogView:
    """The current hand's log (a snapshot): what the record of an unfinished hand and
    the ruling read."""
    log = state._log
    return HandLogView(
        tuple(log.antes), log.ante_reasons, tuple(map(tuple, log.hands_after)),
        tuple(log.plays), frozenset(log.forfeits), tuple(log.reneges),
        tuple(state._told.premature),
    )  # fmt: skip


def next_dealer(state: State) -> int | None:
    """Who deals the next hand if the table gives no dealer (R-DEALER, the seats that
    lost their turn skipped: R-PREMATURE, R-CORRECTED); ``None`` when the first dealer
    is drawn at random and not yet known."""
    if state._last_dealer is None:
        return state._first_dealer
    return state._next_dealer(state._last_dealer, list(state._marks))


def first_dealer_known(state: State) -> bool:
    """Whether a hand's dealer is known without the table naming it (R-DEALER)."""
    return state._last_dealer is not None or state._first_dealer is not None


# -- a hand's position, reneges, corrections, premature announcements ------------------


def set_hand(
    state: State,
    *,
    dealer: int | None = None,
    pot: Amount | None = None,
    reshuffle: Callable[[list[int]], list[int]] | None = None,
) -> None:
    """Give the next hand's position as a real table has it, before its deal: the
    dealer, the pot already in the middle (nobody antes), the order of a reshuffled
    stock (R-RESHUFFLE; by default the discards in the order made)."""
    if state._phase is not Phase.DEAL:
        raise RuleViolation("R-DEAL", "a hand's position is given before its deal")
    n = state._n
    if dealer is not None and (not isinstance(dealer, int) or not 0 <= dealer < n):
        raise RuleViolation("R-SEAT", f"no seat {dealer} at a table of {n}")
    amount = (isinstance(pot, int) and not isinstance(pot, bool)) or isinstance(pot, Fraction)
    if pot is not None and (not amount or pot < 0):
        raise RuleViolation("R-ANTE", f"a pot is an amount ≥ 0, not {pot!r}")
    told = state._told
    told.dealer, told.pot, told.reshuffle = dealer, pot, reshuffle


def mark_premature(state: State, seat: int) -> None:
    """``seat`` announced out of turn (R-PREMATURE): it loses its next turn to deal."""
    if not state._announce:
        raise RuleViolation(
            "R-PREMATURE", "no announcement out of turn can arise when everyone decides at once"
        )
    if not isinstance(seat, int) or not 0 <= seat < state._n:
        raise RuleViolation("R-SEAT", f"no seat {seat!r} at a table of {state._n}")
    state._told.premature.append(seat)


def referee_play(state: State, card: int, corrected_to: int | None = None) -> None:
    """A card played at a real table: an illegal card stands as a renege
    (R-RENEGE), or is taken back for ``corrected_to`` (R-CORRECTED).  A legal card
    is simply played."""
    if state._phase is not Phase.PLAY:
        raise RuleViolation("R-LEAD", "no card is to be played now")
    for c in (card,) if corrected_to is None else (card, corrected_to):
        if type(c) is not int or not 0 <= c < 52:  # (None, 99, 1.0, True: no card, R-DECK)
            raise RuleViolation("R-DECK", f"{c!r} is not a card (a card is a number 0 to 51)")
    hs = state.hand
    seat = state.current_player()
    legal = state.legal_with_reasons().cards
    if card not in hs.hands[seat]:
        raise _not_held(hs, seat, card)
    if corrected_to is None:
        state._play(card, renege=card not in legal)
        return
    if card in legal:
        raise RuleViolation(
            "R-CORRECTED", f"{card_symbol(card)} was legal: correcting a legal card is impossible"
        )
    if corrected_to == card:
        raise RuleViolation(
            "R-CORRECTED", f"a correction must name another card than {card_symbol(card)}"
        )
    if corrected_to not in hs.hands[seat]:
        raise _not_held(hs, seat, corrected_to, "R-CORRECTED")
    state._play(corrected_to, renege=corrected_to not in legal, first=card)


def _not_held(hs: HandState, seat: int, card: int, rule: str = "R-DEAL") -> RuleViolation:
    """A card the seat to play does not hold: already played in a trick of this
    hand (R-DECK), or simply not in its hand."""
    tricks = [[c for _, c in t.plays] for t in hs.tricks] + [list(hs.trick)]
    for i, cards in enumerate(tricks):
        if card in cards:
            return RuleViolation(
                "R-DECK",
                f"seat {seat} cannot play {card_symbol(card)} here: it was already played"
                f" in trick {i + 1}",
            )
    return RuleViolation(rule, f"seat {seat} does not hold {card_symbol(card)}")


def dealing(state: State) -> tuple[int | None, tuple[int, ...]]:
    """Who deals the next hand if the table names no dealer (R-DEALER) and the seats
    passed over on the way, having lost their turn (R-PREMATURE, R-CORRECTED)."""
    dealer = next_dealer(state)
    last = state._last_dealer
    if last is None or dealer is None:
        return dealer, ()
    skipped: list[int] = []
    s = (last + 1) % state._n
    while s != dealer and len(skipped) < state._n:
        if state._marks[s]:
            skipped.append(s)
        s = (s + 1) % state._n
    return dealer, tuple(skipped)
