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

import copy
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, NamedTuple

from bourre.game.actions import CARDS, AfterDraw, Dealt, Drew, TablePlay
from bourre.game.phase import Phase
from bourre.rules import DECIDE, Reason, RuleViolation
from bourre.rules.cards import card_symbol
from bourre.rules.hand import HandState, Reshuffle
from bourre.rules.money import Amount

if TYPE_CHECKING:
    from bourre.game.state import Legal, State

__all__ = [
    "HandLog",
    "HandLogView",
    "PlayLog",
    "Told",
    "Waiting",
    "dealing",
    "first_dealer_known",
    "hand_log",
    "mark_premature",
    "next_dealer",
    "referee_play",
    "set_hand",
    "table_chance",
    "waiting",
]


@dataclass
class Told:
    """What a table told the state of the hand now, besides its actions."""

    dealer: int | None = None
    pot: Amount | None = None
    reshuffle: Reshuffle | None = None
    seat: int = -1
    """The seat chance waits on (its hand, or its replacements)."""
    discards: tuple[int, ...] = ()
    """That seat's discards, while chance waits for its replacements."""
    after_draw: tuple[int, ...] | None = None
    """The hand that seat held after its exchange, shown before it: its discards then
    tell its deal (R-DRAW)."""
    premature: list[int] = field(default_factory=list)
    """Seats that announced out of turn this hand (R-PREMATURE)."""

    def copy(self) -> Told:
        c = copy.copy(self)
        c.premature = list(self.premature)
        return c


@dataclass(frozen=True)
class PlayLog:
    """One card played, as the hand record reports it."""

    seat: int
    card: int
    legal: tuple[int, ...]
    cinch: bool
    renege: bool
    corrected: bool
    played_first: int | None = None
    """The illegal card taken back, for a corrected play."""
    why: Reason | None = None
    """For a renege or a correction: why the illegal card was not allowed."""


@dataclass
class HandLog:
    """A hand's antes and plays as its record reports them; the reneges and forfeits
    the payout reads (R-RENEGE, R-CORRECTED)."""

    antes: list[Amount] = field(default_factory=list)
    ante_reasons: tuple[Reason, ...] = ()
    """Why the seats anted what they did (kept when the state records)."""
    hands_after: list[list[int]] = field(default_factory=list)
    """The hands after the draw (kept when the state records)."""
    plays: list[PlayLog] = field(default_factory=list)
    """Every card played, in order (kept when the state records)."""
    forfeits: set[int] = field(default_factory=set)
    reneges: list[int] = field(default_factory=list)

    def copy(self) -> HandLog:
        return HandLog(
            list(self.antes), self.ante_reasons, [list(h) for h in self.hands_after],
            list(self.plays), set(self.forfeits), list(self.reneges),
        )  # fmt: skip

    def start_play(self, hands_after: list[list[int]]) -> None:
        self.hands_after, self.plays, self.forfeits, self.reneges = hands_after, [], set(), []

    def played(
        self, legal: Legal, card: int, renege: bool, first: int | None, record: bool
    ) -> object:
        """A card played (a renege, or a correction of ``first``): logged; the history's
        item for it."""
        seat, corrected = legal.seat, first is not None
        if record:
            illegal = first if first is not None else card if renege else None
            why = legal.reason_for(illegal) if illegal is not None else None
            self.plays.append(
                PlayLog(seat, card, legal.cards, legal.cinch, renege, corrected, first, why)
            )
        if not (corrected or renege):
            return CARDS[card]
        self.forfeits.add(seat)
        if renege:
            self.reneges.append(seat)
        return TablePlay(card, None) if first is None else TablePlay(first, card)


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


def refusal(state: State, card: int) -> RuleViolation:
    """Why the player to play may not play ``card``: the deciding component's words."""
    legal = state.legal_with_reasons()
    if not isinstance(card, int) or card not in state.hand.hands[legal.seat]:
        what = card_symbol(card) if isinstance(card, int) and 0 <= card < 52 else repr(card)
        return RuleViolation("R-DEAL", f"seat {legal.seat} does not hold {what}", legal.cards)
    return legal.refusal(card)


# -- what a table saw instead of a deck ----------------------------------------------


def table_chance(state: State, outcome: object) -> None:
    """Apply what a table saw at ``state``'s chance node (a ``Dealt`` deal or hand, an
    ``AfterDraw``, a ``Drew``); the state then goes on (:meth:`State.apply_chance`).
    An impossible outcome raises ``RuleViolation``, unchanged."""
    phase, told = state._phase, state._told
    if phase is Phase.REVEAL and isinstance(outcome, Dealt):
        _reveal(state, state.hand, told.seat, outcome)
        state._phase = Phase.DECIDE
    elif phase is Phase.REVEAL and isinstance(outcome, AfterDraw):
        hs, seat, t = state.hand, told.seat, state._turn
        if t is not None and t.kind != DECIDE and t.seat == seat:
            told.after_draw = tuple(outcome.cards)  # read with the discards it names
        else:  # no exchange follows: the hand it was dealt
            _reveal(state, hs, seat, Dealt.of(hs.upcard, {seat: outcome.cards}))
        state._phase = Phase.DECIDE
    elif phase is Phase.DRAW and isinstance(outcome, Drew):
        hs, seat, discards = state.hand, told.seat, told.discards
        state._draw.drawn(hs, seat, discards, outcome.cards)
        hs.gave[seat], hs.got[seat] = discards, tuple(sorted(outcome.cards))
        state._decisions.exchanged(hs, seat, discards)
        state._phase = Phase.DECIDE
    else:
        want = {
            Phase.DEAL: "a Deck or Dealt",
            Phase.REVEAL: "a Dealt hand or an AfterDraw",
            Phase.DRAW: "a Drew",
        }
        raise RuleViolation(
            "R-DEAL",
            f"chance does not act now, or wants {want.get(phase, 'nothing')}: got {outcome!r}",
        )


def exchange_unseen(state: State, hs: HandState, seat: int, cards: tuple[int, ...]) -> None:
    """The exchange of a seat when the table has not shown what it drew: after its hand
    after the exchange was shown (an ``AfterDraw``), or a chance node for its
    replacements (a ``Drew``: the stock, or its hand, unseen)."""
    told = state._told
    if told.after_draw is not None:
        _exchange_shown(state, hs, seat, cards, told.after_draw)
        told.after_draw = None
        return
    state._draw.check(hs, seat, cards)
    told.discards, told.seat = cards, seat
    state._phase = Phase.DRAW  # what a table knows: the replacements are told


def _exchange_shown(
    state: State, hs: HandState, seat: int, cards: tuple[int, ...], after: tuple[int, ...]
) -> None:
    """The exchange of a seat whose hand after it was shown (its plays): the draw
    reads the hand it was dealt and what it drew (R-DRAW, R-RESHUFFLE), the deal
    checks that hand (R-DEAL), and the exchange runs as one a table tells."""
    dealt, drew = state._draw.split(hs, seat, cards, after)
    _check_hand(state, seat, dealt, hs.dealer, hs.upcard)
    before, hidden = hs.hands[seat], hs.hidden[seat]
    hs.hands[seat], hs.hidden[seat] = sorted(dealt), False
    try:
        state._draw.drawn(hs, seat, cards, drew)
    except RuleViolation:
        hs.hands[seat], hs.hidden[seat] = before, hidden
        raise
    if cards:
        hs.gave[seat], hs.got[seat] = cards, tuple(sorted(drew))
    state._decisions.exchanged(hs, seat, cards)


def _check_hand(state: State, seat: int, cards: Sequence[int], dealer: int, upcard: int) -> None:
    n = state._n
    if not isinstance(seat, int) or not 0 <= seat < n:
        raise RuleViolation("R-SEAT", f"no seat {seat} at a table of {n}")
    if not all(type(c) is int and 0 <= c < 52 for c in cards):
        raise RuleViolation("R-DECK", f"seat {seat} was dealt something that is not a card")
    state._deal.check_hand(seat, cards, dealer, upcard)


def dealt_hand(state: State, outcome: Dealt, dealer: int, reshuffle: Reshuffle) -> HandState:
    """A deal given by what the table saw: the upcard, the hands shown (R-DEAL)."""
    n, up = state._n, outcome.upcard
    if type(up) is not int or not 0 <= up < 52:
        raise RuleViolation("R-DEAL", "the upcard is required: it names trump")
    hands: list[list[int]] = [[] for _ in range(n)]
    hidden = [True] * n
    seen: dict[int, int] = {}
    for seat, cards in outcome.hands.items():
        _check_hand(state, seat, cards, dealer, up)
        for c in cards:
            if c in seen:
                raise RuleViolation(
                    "R-DECK", f"{card_symbol(c)} is dealt to seats {seen[c]} and {seat}"
                )
            seen[c] = seat
        hands[seat] = sorted(cards)
        hidden[seat] = False
    if hidden[dealer]:
        hands[dealer] = [up]  # the upcard is known to be in the dealer's hand
    hs = HandState(
        number=state._number + 1, n=n, hand_size=state._h, dealer=dealer, hands=hands,
        upcard=up, stock=[], pot=state._pot, reshuffle=reshuffle,
    )  # fmt: skip
    hs.hidden = hidden
    hs.unseen_stock = 52 - n * state._h
    return hs


def _reveal(state: State, hs: HandState, seat: int, outcome: Dealt) -> None:
    """The hand of ``seat``, who plays, shown after the deal (R-DEAL)."""
    if seat not in outcome.hands:
        raise RuleViolation("R-DEAL", f"seat {seat} plays: the cards it was dealt are required")
    cards = outcome.hands[seat]
    _check_hand(state, seat, cards, hs.dealer, hs.upcard)
    placed = hs.located()
    for c in cards:
        if c in placed and not (seat == hs.dealer and c == hs.upcard):
            raise RuleViolation(
                "R-DECK", f"{card_symbol(c)} is already elsewhere: seat {seat} cannot hold it"
            )
    hs.hands[seat] = sorted(cards)
    hs.hidden[seat] = False


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
