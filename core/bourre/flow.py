"""The course of a hand, as the game steps it: antes and the deal, the decisions and
exchanges, the start of play, and the end of the hand with its payout, then the next
hand or the settlement.  The tricks between are :mod:`bourre.cardplay`.

Functions of the state they step (its fields, :class:`~bourre.statefields.StateFields`),
called by the engine; every rule is the house's component
(:class:`~bourre.rules.Rules`), never restated here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final, cast

from bourre.actions import Dealt, Deck, Drew
from bourre.cardplay import lead
from bourre.components import DrawComponent
from bourre.conservation import amount_sum, check_conserved
from bourre.given import dealt_hand, draw_given
from bourre.outcome import PlayResult
from bourre.results import HandResult
from bourre.rules import RuleViolation
from bourre.state import HandState

if TYPE_CHECKING:
    from bourre.statefields import StateFields

__all__ = ["advance", "begin_hand", "deal", "drew", "end_hand", "exchange"]

# the phases of a state (``State.phase``)
DEAL: Final = 0
DECIDE_PHASE: Final = 1
REVEAL: Final = 2
DRAW: Final = 3
PLAY_PHASE: Final = 4
OVER: Final = 5
PHASE_NAMES: Final[tuple[str, ...]] = ("chance", "decide", "chance", "chance", "play", "over")
DECIDE: Final = "decide"
"""A :class:`~bourre.rules.Turn` to say pass or play (the same string as
``bourre.rules.DECIDE``; a constant here, so compiled code compares it directly)."""
_DECK: Final = Deck  # the classes as constants: compiled, no lookup in the globals
_DEALT: Final = Dealt
_TUPLE: Final = tuple
_INT: Final = int  # the builtin likewise: ``type(x) is _INT`` (a plain int, not bool …)


def begin_hand(st: StateFields) -> None:
    """A new hand: its position is open until the deal; a seeded state deals at once."""
    st.phase = DEAL
    st.hs = None
    st.given_dealer = st.given_pot = st.given_reshuffle = None
    st.premature = []
    if not st.keep_results and st.history_:  # a lean session: this hand's actions only
        st.history_.clear()
    if st.chance is not None:
        cards = tuple(st.chance.deck())
        deal(st, cards, True)
        st.history_.append(cards)  # the Deck, made when the history is read (State.history)
        advance(st)


def next_dealer(st: StateFields) -> int:
    """The given dealer, else the first, else the house's next dealer (R-DEALER)."""
    if st.given_dealer is not None:
        return st.given_dealer
    if st.last_dealer is None:
        if st.first_dealer is None:
            raise RuleViolation("R-DEALER", "no dealer: table.first_dealer is 'random'")
        return st.first_dealer
    return st.next_dealer_fn.__call__(st.last_dealer, st.marks)


def deal(st: StateFields, outcome: Deck | Dealt | tuple[int, ...], trusted: bool = False) -> None:
    """The deal (a chance outcome: R-DEAL, R-DECK; a seeded state's own deck is its
    tuple of cards), then the antes (R-FIRST-POT, R-ANTE), told the dealer; the
    decisions begin."""
    n = st.n
    dealer = next_dealer(st)
    reshuffle = st.given_reshuffle
    if reshuffle is None:
        reshuffle = st.reshuffle
    given: Dealt | None = None
    if type(outcome) is _TUPLE:  # a seeded state's own deck (no class to check)
        cards = cast("tuple[int, ...]", outcome)
    elif isinstance(outcome, _DEALT):
        given, cards = outcome, ()
    else:
        cards = outcome.cards if isinstance(outcome, _DECK) else outcome
    if given is None:
        if not trusted and (len(cards) != 52 or len(set(cards)) != 52):
            raise RuleViolation("R-DECK", "a deck holds the 52 cards once each")
        hands, upcard, stock = st.deal_fn.__call__(cards, dealer, n)
        spare = st.spare
        if spare is not None:  # nothing keeps the last hand's state: renewed in place
            st.spare = None
            spare.renew(st.number + 1, dealer, hands, upcard, stock, st.pot, reshuffle)
            hs = spare
        else:
            hs = HandState(
                number=st.number + 1,
                n=n,
                hand_size=st.h,
                dealer=dealer,
                hands=hands,
                upcard=upcard,
                stock=stock,
                pot=st.pot,
                balances=st.balances,
                reshuffle=reshuffle,
            )
    else:
        hs = dealt_hand(st, given, dealer, reshuffle)
    st.last_dealer = dealer
    st.number += 1
    # Antes (R-FIRST-POT, R-ANTE); a pot given is already in the middle
    if st.given_pot is not None:
        st.total += st.given_pot - st.pot  # that pot is already in the middle
        st.pot = st.given_pot
        st.antes = [0] * n
    else:
        antes = st.antes = st.ante.hand_antes(n, st.table_ante, st.previous, dealer)
        balances = st.balances
        for s in range(n):
            balances[s] -= antes[s]
        st.pot += amount_sum(antes)
    hs.pot = st.pot
    st.hs = hs
    st.phase = DECIDE_PHASE
    st.turn = None
    st.money += 1
    st.pub_decisions, st.pub_tricks, st.pub_won = (), (), (0,) * n
    st.pub_active, st.pub_trick = (), ()
    forget_hands(st.pub_hands)


def forget_hands(pub: list[tuple[int, ...] | None]) -> None:
    """Every seat's hand tuple made again when next asked (in place: no new list)."""
    for i in range(len(pub)):
        pub[i] = None


def drew(st: StateFields, outcome: Drew) -> None:
    """The cards a seat drew, as a table tells them (R-DRAW)."""
    assert st.hs is not None
    draw_given(st.hs, st.draw, st.pending_seat, st.pending, outcome.cards)
    st.hs.gave[st.pending_seat] = st.pending
    st.hs.got[st.pending_seat] = tuple(sorted(outcome.cards))
    st.decisions.exchanged(st.hs, st.pending_seat, st.pending)
    st.phase = DECIDE_PHASE


def exchange(st: StateFields, hs: HandState, seat: int, cards: tuple[int, ...]) -> None:
    """A seat's discards: the house's draw, or a chance node when the stock is unseen."""
    draw = st.draw
    if cards and (hs.unseen_stock or hs.hidden[seat]):
        draw.check(hs, seat, cards)
        st.pending, st.pending_seat = cards, seat
        st.phase = DRAW  # what a table knows: the replacements are told
        return
    _draw_noting(hs, draw, seat, cards)
    st.decisions.exchanged(hs, seat, cards)


def _draw_noting(hs: HandState, draw: DrawComponent, seat: int, cards: tuple[int, ...]) -> None:
    """The house's draw, noting what the seat gave and got (what it knows).  The
    draw is called by name (``draw.__call__``): compiled, a call of the object itself
    would be a Python-level call."""
    if not cards:
        draw.__call__(hs, seat, cards)
        return
    before = hs.hand_mask(seat)  # the discards come back to no one this exchange (R-RESHUFFLE)
    draw.__call__(hs, seat, cards)  # refuses what is not allowed, unchanged (R-DRAW)
    hs.gave[seat] = cards
    hs.got[seat] = tuple([c for c in hs.hands[seat] if not (before >> c) & 1])


def advance(st: StateFields) -> None:
    """Run the hand on until someone (or chance) must act."""
    hs = st.hs
    if st.phase != DECIDE_PHASE or hs is None:
        return
    t = st.decisions.turn(hs)
    st.discards = None
    if t is not None:
        st.turn = t
        if t.kind != DECIDE and hs.hidden[t.seat]:
            st.pending_seat = t.seat
            st.phase = REVEAL
        return
    st.turn = None
    for s in hs.active:
        if hs.hidden[s]:  # a seat forced in whose hand nobody showed
            st.pending_seat = s
            st.phase = REVEAL
            return
    start_play(st, hs)


def start_play(st: StateFields, hs: HandState) -> None:
    """The decisions are over: the play ante, R-SOLE, the hands as masks, the first
    lead (R-LEAD)."""
    extra = st.ante.play_ante(st.table_ante)  # double-ante
    st.money += 1
    if extra:
        for s in hs.active:
            st.balances[s] -= extra
        st.pot += extra * len(hs.active)
        hs.pot = st.pot
    hs.pot_at_stake = st.pot
    if st.record:
        st.hands_after = [list(hd) for hd in hs.hands]
    if st.keep_results or st.checked or st.forfeits or st.reneges:  # else empty, unseen
        st.plays, st.forfeits, st.reneges = [], set(), []
    active = hs.active
    if len(active) == 1:  # R-SOLE
        hs.won[active[0]] = st.h
        end_hand(st)
        return
    held = hs.held = [0] * st.n  # the hands as masks for the tricks (bourre.cards)
    for s in active:
        held[s] = hs.hand_mask(s)
    cinch = st.cinch
    st.cinch_from = None
    if cinch.enabled:
        cf = [0] * st.n
        for s in active:
            cf[s] = cinch.min_won(held[s], hs.trump)
        st.cinch_from = cf
    st.rotations = [None] * st.n
    lead(st, hs, active[0])  # R-LEAD
    st.phase = PLAY_PHASE


def end_hand(st: StateFields) -> None:
    """The payout (R-WIN, R-BOURRE, R-ANTE …), the hand's result, then the next hand
    or the settlement (R-SESSION, R-SETTLE)."""
    hs = st.hs
    assert hs is not None
    rules = st.rules
    active = hs.active
    outcome = st.payout(
        PlayResult(
            st.n,
            hs.pot_at_stake,
            active,
            hs.won,
            st.forfeits,
            st.reneges,
            len(active) == 1,
        ),
        rules.penalty,
    )
    balances = st.balances
    st.money += 1
    takes, paid = outcome.takes, outcome.paid
    for s in range(st.n):
        t, p = takes[s], paid[s]
        # most seats neither take nor pay: a plain int balance plus 0 is itself
        if type(t) is _INT and type(p) is _INT and not t and not p and type(balances[s]) is _INT:
            continue
        balances[s] += t - p
    st.pot = outcome.pot_after
    hs.pot = st.pot
    st.previous = outcome
    if st.checked or amount_sum(balances) + st.pot != st.total:
        check_conserved(st, hs)
    marks = st.marks
    if st.forfeits:  # (iterating a set makes an iterator)
        for s in st.forfeits:
            marks[s] = True
    for s in st.premature:
        marks[s] = True
    if st.keep_results:
        st.results.append(
            HandResult(
                hs.number,
                hs.dealer,
                hs,
                outcome,
                list(balances),
                st.antes,
                st.hands_after,
                st.plays,
            )
        )
    elif not st.checked:  # no result holds it, no third-party component has seen it
        st.spare = hs
    if st.number < st.hands_total:
        begin_hand(st)
        return
    st.phase = OVER
    if st.settles:
        st.final = rules.settle(list(balances), st.pot)
