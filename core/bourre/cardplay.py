"""The tricks of a hand, as the game steps them: who leads (R-LEAD), the legal set of
the player to play (the follow and cinch components: R-FOLLOW … R-CINCH-LAST), a card
played and the trick it completes (the trick-winner rule, R-TRICK), and the words of a
refusal (the component that decided it).

Functions of the state they step (its fields, :class:`~bourre.statefields.StateFields`);
the engine calls them and, when the last trick is done, ends the hand
(:func:`bourre.flow.end_hand`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final, cast

from mypy_extensions import i64

from bourre.actions import CARDS, TablePlay
from bourre.cards import card_str
from bourre.handlogs import PAIRS
from bourre.results import PlayLog
from bourre.rules import RuleViolation, refuse_card
from bourre.state import HandState

if TYPE_CHECKING:
    from bourre.statefields import StateFields

__all__ = ["lead", "legal", "legal_mask", "play_card", "public_trick", "refusal"]

_CARDS: Final = CARDS  # read as a constant by compiled code, not from the globals
_PAIRS: Final = PAIRS  # every (seat, card) play, made once (bourre.handlogs)
_ONE: Final[tuple[tuple[int, ...], ...]] = tuple([(c,) for c in range(52)])
"""Each card's legal set when it is the only legal card, made once."""


def _take(hand: list[object], card: object) -> None:
    """``hand.remove(card)``, compiled: the card is found by identity (a card is a
    small int, one object each) and the cards above it shifted down, on machine
    integers (a list's ``remove`` compares as Python objects and deletes by slice
    assignment)."""
    n: i64 = len(hand)
    i: i64 = 0
    while i < n:
        if hand[i] is card:
            while i < n - 1:
                hand[i] = hand[i + 1]
                i += 1
            hand.pop()
            return
        i += 1
    hand.remove(card)  # an equal card of another type (a caller of a pure build)


def lead(st: StateFields, hs: HandState, leader: int) -> None:
    """A new trick led by ``leader``; the others follow clockwise (R-LEAD)."""
    seats = st.rotations[leader]  # each leader's order is made once a hand
    if seats is None:
        active = hs.active
        i = active.index(leader)
        seats = st.rotations[leader] = active[i:] + active[:i] if i else active[:]
    st.seats = seats
    hs.trick = []
    hs.trick_seats = seats
    hs.leader = leader
    st.pub_trick = ()
    st.legal = None
    st.legal_ready = False


def legal_mask(st: StateFields) -> int:
    """The legal set of the player to play as a mask (bit ``1 << card``, within the
    hand), computed once per turn by the follow and cinch components (``st.has_cinch``
    says whether the cinch narrowed it).  No tuple of cards is made: :func:`legal`
    makes it when asked."""
    if st.legal_ready:
        return st.legal_mask
    hs = st.hs
    assert hs is not None
    trick = hs.trick
    s = st.seats[len(trick)]
    held = hs.held[s]
    lm = st.follow.legal(held, trick, hs.trump)
    has = False
    cf = st.cinch_from
    if cf is not None and hs.won[s] >= cf[s]:
        kn = hs.played | hs.known[s]
        cinch = st.cinch
        if cinch.has_cinch(held, hs.trump, kn, hs.won[s]):
            has = True
            lm = cinch.narrow(lm, held, trick, hs.trump, kn, len(trick) == len(st.seats) - 1)
    lm &= held  # (a component's card outside the hand is never legal)
    st.legal_mask, st.has_cinch, st.legal_ready = lm, has, True
    return lm


def _legal_cards(st: StateFields) -> tuple[int, ...]:
    lm = legal_mask(st)
    hs = st.hs
    assert hs is not None
    s = st.seats[len(hs.trick)]
    held = hs.held[s]
    if not lm & (lm - 1):  # one legal card (a last card, a forced play): a shared 1-tuple
        got: tuple[int, ...] = _ONE[lm.bit_length() - 1] if lm else ()
        if lm == held:
            st.pub_hands[s] = got
    elif lm == held:  # every card legal (a lead, a void): the hand's tuple, shared with
        pub = st.pub_hands[s]  # the observations (bourre.observe) until the hand changes
        hand = hs.hands[s]
        if pub is None or len(pub) != len(hand):
            pub = st.pub_hands[s] = tuple(hand)
        got = pub
    else:
        got = tuple([c for c in hs.hands[s] if (lm >> c) & 1])  # the hand's order
    st.legal = got
    return got


def public_trick(st: StateFields) -> tuple[tuple[int, int], ...]:
    """The current trick's ``(seat, card)`` plays as one value (what everyone sees),
    extended only when asked after a card: a trick nobody looks at is made once."""
    hs = st.hs
    assert hs is not None
    trick = hs.trick
    got = st.pub_trick
    k = len(got)
    n = len(trick)
    if k != n:
        seats = st.seats
        if k + 1 == n:  # one card since last asked (an observation after each card)
            pair: Any = _PAIRS[seats[k]][trick[k]]
            got = got + (pair,)  # noqa: RUF005 (a C concatenation)
        elif not k and 2 <= n <= 5:  # a whole trick nobody looked at: one tuple, no list
            a: Any = _PAIRS[seats[0]][trick[0]]
            b: Any = _PAIRS[seats[1]][trick[1]]
            if n == 2:
                got = (a, b)
            else:
                c: Any = _PAIRS[seats[2]][trick[2]]
                if n == 3:
                    got = (a, b, c)
                else:
                    d: Any = _PAIRS[seats[3]][trick[3]]
                    if n == 4:
                        got = (a, b, c, d)
                    else:
                        e: Any = _PAIRS[seats[4]][trick[4]]
                        got = (a, b, c, d, e)
        else:
            plays: Any = tuple([_PAIRS[seats[i]][trick[i]] for i in range(k, n)])
            got = got + plays if k else plays
        st.pub_trick = got
    return got


def legal(st: StateFields) -> tuple[int, ...]:
    """The legal set of the player to play, ascending, made once per turn from its
    mask (:func:`legal_mask`)."""
    got = st.legal
    return _legal_cards(st) if got is None else got


def refusal(st: StateFields, card: int, allowed: tuple[int, ...]) -> RuleViolation:
    """Why the player to play may not play ``card``: the deciding component's words."""
    hs = st.hs
    assert hs is not None
    s = st.seats[len(hs.trick)]
    held = hs.held[s]
    if not 0 <= card < 52 or not (held >> card) & 1:
        what = card_str(card) if 0 <= card < 52 else repr(card)
        return RuleViolation("R-DEAL", f"seat {s} does not hold {what}", allowed)
    e = refuse_card(st.rules, held, hs.trick, hs.trump, card, legal_mask(st))
    return RuleViolation(e.rule, f"seat {s}: {e.reason}", allowed)


def play_card(
    st: StateFields,
    card: int,
    allowed: tuple[int, ...] | None,
    renege: bool,
    corrected: bool,
    first: int | None,
) -> bool:
    """The player to play plays ``card`` (a renege, or a correction of ``first``, on the
    referee's path: R-RENEGE, R-CORRECTED); a full trick goes to its winner, who leads
    the next.  True when it was the hand's last trick (the caller ends the hand).
    ``allowed`` is the legal set, for the play log (``None``: made if one is kept)."""
    hs = st.hs
    assert hs is not None
    if not st.legal_ready:
        legal_mask(st)  # (whether the seat holds a cinch: R-SURE)
    if st.record and allowed is None:
        allowed = legal(st)
    trick = hs.trick
    s = st.seats[len(trick)]
    has = st.has_cinch
    if has:
        hs.cinch_plays += 1
    if corrected or renege:
        st.forfeits.add(s)
        if renege:
            st.reneges.append(s)
        st.history_.append(TablePlay(card, None) if first is None else TablePlay(first, card))
    else:
        st.history_.append(_CARDS[card])
    _take(cast("list[object]", hs.hands[s]), card)
    held = hs.held
    held[s] = held[s] ^ (1 << card)
    trick.append(card)
    st.pub_hands[s] = None
    hs.played |= 1 << card
    if allowed is not None and st.record:
        st.plays.append(PlayLog(s, card, allowed, has, renege, corrected, first))
    st.legal = None
    st.legal_ready = False
    st.has_cinch = False
    seats = st.seats
    if len(trick) < len(seats):
        return False
    w = seats[st.trick_winner.winner(trick, hs.trump)]
    won = hs.won
    won[w] = won[w] + 1  # (an item's += is a generic Python addition, compiled)
    done = hs.completed  # the trick's seats and cards: a TrickLog is made only when read
    done.append((hs.leader, seats, trick, w))  # (neither list changes from now on)
    if len(done) < st.h:
        lead(st, hs, w)
        return False
    hs.trick = []
    hs.trick_seats = []
    st.pub_trick = ()
    return True
