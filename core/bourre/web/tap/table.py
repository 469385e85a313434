"""What the tap page reads of the refereed game: the one place the page meets the game
state.

Every read of :class:`~bourre.game.state.State` is a function here (:func:`table_of`,
:func:`legal`, :func:`allowed`, :func:`exchange_limit`, :func:`reneges`), and what the
page says of the cards nobody showed is the referee's one inference
(:mod:`bourre.game.unseen`, through :class:`~bourre.referee.table.TableState`):
:attr:`Table.unplaced`, :attr:`Table.unnamed` and :func:`could_hold`.

One thing the page must do before the referee can answer: a seat whose tricks will
show its hand, but do not yet, needs a hand for the referee to step its plays
(:func:`provisional`).  Its stand-in is made from the page's input, not inferred: the
cards the seat's lines show (played, taken back, R-CORRECTED; the upcard for the
dealer, R-DEAL), and, for the rest, cards no line of the hand names
(:meth:`~bourre.web.tap.told.Told.named`).  Those are read from the lines, not from a
referee, because the referee places a card only when it reaches its line, and the
stand-in is needed before the lines after the seat's exchange (the draws of the seats
after it, every play) are reached; a card one of them names must not stand in.  The
stand-ins' cards nobody named are handed back (:class:`StandIns`) and counted as
unplaced in every answer on the cards nobody showed, so none of those answers depends on
which of them were chosen (``tests/web/test_tap_unseen.py`` holds the page to the
referee's answer over the whole hand).  The rest of the page sees cards as ints in small
frozen types.
"""

from __future__ import annotations

from collections.abc import MutableMapping
from dataclasses import dataclass
from typing import Any

from bourre.game.actions import CARDS, PLAY, Dealt
from bourre.game.state import Legal
from bourre.game.tablesteps import waiting
from bourre.houses.house import PluginError
from bourre.referee import Refereed
from bourre.rules import Reason, RuleViolation
from bourre.rules.cards import card_str

from .form import TapError
from .told import Told

__all__ = [
    "Renege",
    "StandIns",
    "Table",
    "allowed",
    "could_hold",
    "exchange_limit",
    "legal",
    "provisional",
    "reneges",
    "table_of",
]


@dataclass(frozen=True)
class Table:
    """The hand under way (or the last one, over), as the page reads it."""

    number: int
    dealer: int
    upcard: int
    trump: int
    hands: tuple[tuple[int, ...], ...]
    """Each seat's cards as the referee holds them (a provisional hand for a seat
    whose tricks will show it)."""
    hidden: tuple[bool, ...]
    """Seats whose dealt cards nobody has shown."""
    unplaced: frozenset[int]
    """The cards nobody has placed, as the referee holds the hand
    (:meth:`bourre.referee.table.TableState.unplaced`: a stand-in's cards are placed)."""
    unnamed: frozenset[int]
    """The cards nobody has placed once the stand-ins' cards are counted as unplaced:
    those no line of the hand names."""
    unseen_stock: int
    pile: tuple[int, ...]
    """Discards not yet back in a stock (R-RESHUFFLE)."""
    played: frozenset[int]
    """Cards that stood in a trick, the current one included."""
    trick: tuple[tuple[int, int], ...]
    """The current trick: ``(seat, card)`` in play order."""
    tricks: int
    """Tricks completed."""
    active: tuple[int, ...]
    won: tuple[int, ...]
    in_play: bool
    """Whether the hand is at its tricks (else at its decisions and exchanges)."""


def table_of(done: Refereed, stand_ins: StandIns) -> Table:
    st = done.state
    unplaced = frozenset(done.table.unplaced())
    hs = st.hand
    return Table(
        number=st.number,
        dealer=hs.dealer,
        upcard=hs.upcard,
        trump=hs.trump,
        hands=tuple(hs.hand_of(s) for s in range(hs.n)),
        hidden=tuple(hs.hidden),
        unplaced=unplaced,
        unnamed=unplaced | stand_ins.cards,
        unseen_stock=hs.unseen_stock,
        pile=tuple(hs.pile),
        played=frozenset(hs.played),
        trick=tuple(zip(hs.trick_seats, hs.trick, strict=False)),
        tricks=len(hs.tricks),
        active=tuple(hs.active),
        won=tuple(hs.won),
        in_play=st.phase_name == "play",
    )


def legal(done: Refereed) -> Legal:
    """The cards the seat to play may play, and why (the house's rule components)."""
    return done.state.legal_with_reasons()


def allowed(done: Refereed, c: int) -> bool:
    """Whether the seat to play may play ``c``."""
    return done.state.why_not(CARDS[c]) is None


def exchange_limit(done: Refereed, seat: int, cards: list[int], size: int) -> int:
    """The most cards ``seat``, to decide, may change if it plays holding ``cards``
    (R-DRAW), by the house's draw component; :class:`TapError` if the deal cannot
    give it those cards."""
    st = done.state.clone()
    try:
        st.apply_action(PLAY)
        waited = waiting(st)
        if waited is not None and waited.wants == "hand" and waited.seat == seat:
            st.apply_chance(Dealt.of(st.hand.upcard, {seat: cards}))
        if st.phase_name == "exchange" and st.current_player() == seat:
            return st.exchange_limit()
    except (RuleViolation, PluginError) as e:
        raise TapError(f"seat {seat}'s cards: {e}") from None
    return size


@dataclass(frozen=True)
class Renege:
    """A card of the last hand, over, that was not allowed and stood."""

    index: int
    """Its place among the hand's plays."""
    seat: int
    trick: int
    """Its trick, from 1."""
    card: int
    why: Reason | None


def reneges(done: Refereed) -> list[Renege]:
    """The reneges of the last hand, over (none while no hand is over)."""
    if not done.state.results:
        return []
    logs = done.state.results[-1].plays
    out, k = [], 0
    for t, trick in enumerate(done.record.hands[-1].tricks):
        for play in trick.plays:
            if play.renege:
                out.append(Renege(k, play.seat, t + 1, logs[k].card, logs[k].why))
            k += 1
    return out


# -- the cards nobody showed -----------------------------------------------------------


@dataclass(frozen=True)
class StandIns:
    """The stand-in hands the page gave (:func:`provisional`): for whom, and which of
    their cards nobody named (cards the referee holds placed, which are not)."""

    seats: frozenset[int] = frozenset()
    cards: frozenset[int] = frozenset()


def provisional(hand: MutableMapping[str, Any], told: Told, size: int, dealer: int) -> StandIns:
    """Give each seat whose tricks will show its hand, but do not show it all yet, a
    stand-in hand in ``hand`` (the last hand of the script to referee): the cards it
    played or took back, the upcard for the dealer (R-DEAL), and, for the rest, cards
    no line names.  Only whose turn it is and who won the tricks are read from the
    referee for these seats, never their rulings.  Those seats and those cards are
    returned: the cards are as unplaced as any the referee holds unplaced
    (:func:`could_hold`)."""
    up = told.upcard
    free = [c for c in range(52) if c not in told.named()]
    seats, cards_ = set(), set()
    for i, d in told.unseen():
        seat = d.seat
        played = told.stood(seat)
        if len(played) >= size:
            continue  # its tricks show its hand
        played += told.taken_back(seat)  # still in its hand (R-CORRECTED)
        thrown = list(d.discard)
        cards = list(played)
        if seat == dealer and up is not None and up not in thrown:  # the upcard is dealt:
            cards = [up] + [c for c in cards if c != up]  # among the cards it kept (R-DEAL)
        while len(cards) < size and free:
            c = free.pop(0)
            cards.append(c)
            cards_.add(c)
        kept = size - len(thrown)
        hand.setdefault("dealt", {})[str(seat)] = [card_str(c) for c in cards[:kept] + thrown]
        hand["decisions"][i]["drew"] = [card_str(c) for c in cards[kept:]]
        seats.add(seat)
    return StandIns(frozenset(seats), frozenset(cards_))


def could_hold(done: Refereed, seat: int, stand_ins: StandIns) -> set[int]:
    """The cards a seat whose tricks will show its hand may still hold: the referee's
    answer (:meth:`bourre.referee.table.TableState.could_hold`), the stand-ins' cards
    nobody named counted as unplaced."""
    return done.table.could_hold(seat, stand_ins.cards)
