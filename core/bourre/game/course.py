"""The course of a hand, as the :class:`~bourre.game.state.State` runs it between the
actions it is given: the deal and the antes (R-DEAL, R-ANTE), who acts next
(:func:`advance`), the play ante, the lead (R-LEAD), the cards played and the tricks
(R-TRICK), the payout and the next hand or the settlement (R-SESSION, R-SETTLE).  Every
rule is the house's component's; these functions only run them in order, on the
state's own fields (they are the state's private half: nothing outside
:mod:`bourre.game` calls them)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from bourre.game.actions import Dealt, Deck
from bourre.game.phase import Phase
from bourre.game.tablesteps import HandLog, PlayLog, Told, dealt_hand
from bourre.rules import DECIDE, HandOutcome, PlayResult, Reason, RuleViolation
from bourre.rules.hand import HandState, TrickLog, keep_order
from bourre.rules.hookspec import DEAL, DECISIONS, PluginError
from bourre.rules.money import Amount

if TYPE_CHECKING:
    from bourre.game.state import State
    from bourre.rules.house import House

__all__ = ["HandResult", "advance", "begin_hand", "deal_hand", "play"]


@dataclass
class HandResult:
    """What a hand did (the hand record is made from it, :mod:`bourre.referee.records`)."""

    number: int
    dealer: int
    state: HandState
    outcome: HandOutcome
    balances: list[Amount]
    """Balances after the hand's payments, before the next antes."""
    antes: list[Amount]
    hands_after_draw: list[list[int]]
    plays: list[PlayLog]
    """Every card played, in order (kept when the state records)."""
    ante_reasons: tuple[Reason, ...] = ()
    """Why the seats anted what they did (kept when the state records)."""

    def __repr__(self) -> str:
        return f"HandResult(number={self.number}, dealer={self.dealer}, outcome={self.outcome!r})"

    @property
    def pot_at_stake(self) -> Amount:
        return self.state.pot_at_stake

    @property
    def tricks(self) -> list[TrickLog]:
        return self.state.tricks


def begin_hand(state: State) -> None:
    """A new hand: its position is open until the deal; a seeded state deals at once."""
    state._phase, state._hs, state._told = Phase.DEAL, None, Told()
    if not state._keep_results:
        state._history.clear()  # a lean session: this hand's actions only
    if state._chance is not None:
        deck = Deck(tuple(state._chance.deck()))
        deal_hand(state, deck)
        state._history.append(deck)
        advance(state)


def _dealer(state: State) -> int:
    """The given dealer, else the first, else the house's next dealer (R-DEALER)."""
    if state._told.dealer is not None:
        return state._told.dealer
    if state._last_dealer is None:
        if state._first_dealer is None:
            raise RuleViolation("R-DEALER", "no dealer: table.first_dealer is 'random'")
        return state._first_dealer
    return state._next_dealer(state._last_dealer, state._marks)


def deal_hand(state: State, outcome: Deck | Dealt) -> None:
    """The deal (a chance outcome: R-DEAL, R-DECK), then the antes (R-FIRST-POT,
    R-ANTE), told the dealer; the decisions begin."""
    n, dealer = state._n, _dealer(state)
    reshuffle = state._told.reshuffle
    if reshuffle is None:
        reshuffle = state._chance.reshuffle if state._chance is not None else keep_order
    if isinstance(outcome, Dealt):
        hs = dealt_hand(state, outcome, dealer, reshuffle)
    else:
        hands, upcard, stock = state._deal.deal(outcome.cards, dealer, n)
        if any(len(hand) != state._h for hand in hands) or len(hands) != n:
            who = state._house.answered_by[DEAL.name].name
            raise PluginError(
                who, DEAL.name, f"the deal must give {n} hands of {state._h} cards (R-DEAL)"
            )
        hs = HandState(
            number=state._number + 1, n=n, hand_size=state._h, dealer=dealer, hands=hands,
            upcard=upcard, stock=stock, pot=state._pot, reshuffle=reshuffle,
        )  # fmt: skip
    state._last_dealer = dealer
    state._number += 1
    log = state._log = HandLog()
    if state._told.pot is not None:  # a pot already in the middle: nobody antes
        state._total += state._told.pot - state._pot
        state._pot = state._told.pot
        log.antes = [0] * n
    else:
        ante, rule = state._house.table.ante, state._ante
        log.antes = rule.hand_antes(n, ante, state._previous, dealer)
        if state._record:
            log.ante_reasons = rule.reasons(n, ante, state._previous, dealer)
        for s in range(n):
            state._balances[s] -= log.antes[s]
        state._pot += sum(log.antes)
    hs.pot = state._pot
    state._hs, state._phase, state._turn, state._steps = hs, Phase.DECIDE, None, 0


def advance(state: State) -> None:
    """Run the hand on until someone (or chance) must act."""
    if state._phase is not Phase.DECIDE:
        return
    hs = state.hand
    state._steps += 1
    if state._steps > 4 * state._n + 4:  # each seat decides once and exchanges once
        who = state._house.answered_by[DECISIONS.name].name
        raise PluginError(
            who, DECISIONS.name, "the decisions do not end: no progress after every seat acted"
        )
    t = state._turn = state._decisions.turn(hs)
    if t is not None:
        if t.kind != DECIDE and hs.hidden[t.seat] and state._told.after_draw is None:
            state._told.seat, state._phase = t.seat, Phase.REVEAL
        return
    for s in hs.active:
        if hs.hidden[s]:  # a seat forced in whose hand nobody showed
            state._told.seat, state._phase = s, Phase.REVEAL
            return
    _start_play(state, hs)


def _start_play(state: State, hs: HandState) -> None:
    """The decisions are over: the play ante, R-SOLE, the first lead (R-LEAD)."""
    extra = state._ante.play_ante(state._house.table.ante)  # double-ante
    for s in hs.active:
        state._balances[s] -= extra
    state._pot += extra * len(hs.active)
    hs.pot = hs.pot_at_stake = state._pot
    state._log.start_play([list(cards) for cards in hs.hands] if state._record else [])
    if len(hs.active) == 1:  # R-SOLE
        hs.won[hs.active[0]] = state._h
        _end_hand(state)
        return
    _new_trick(state, hs, None)
    state._phase = Phase.PLAY


def _new_trick(state: State, hs: HandState, winner: int | None) -> None:
    """A new trick: who leads it and plays to it in what order is the house's lead
    (R-LEAD), told the winner of the last trick (``None``: the first)."""
    hs.trick_seats = list(state._lead(tuple(hs.active), hs.dealer, winner))
    hs.trick, hs.leader, state._legal = [], hs.trick_seats[0], None


def play(state: State, card: int, renege: bool = False, first: int | None = None) -> None:
    """The player to play plays ``card`` (a renege, or a correction of ``first``, on
    a table's path: :func:`bourre.game.tablesteps.referee_play`); a full trick goes
    to its winner, who leads the next (R-TRICK); after the last trick the hand ends."""
    hs, legal = state.hand, state.legal_with_reasons()
    seat = legal.seat
    if legal.cinch:
        hs.cinch_plays += 1
    state._history.append(state._log.played(legal, card, renege, first, state._record))
    hs.hands[seat].remove(card)
    hs.trick.append(card)
    hs.played.add(card)
    state._legal = None
    if len(hs.trick) < len(hs.trick_seats):
        return
    winner = hs.trick_seats[state._trick_winner(tuple(hs.trick), hs.trump)]
    hs.won[winner] += 1
    hs.tricks.append(
        TrickLog(hs.leader, tuple(zip(hs.trick_seats, hs.trick, strict=False)), winner)
    )
    if len(hs.tricks) < state._h:
        _new_trick(state, hs, winner)
        return
    hs.trick, hs.trick_seats = [], []
    _end_hand(state)


def _end_hand(state: State) -> None:
    """The payout (R-WIN, R-BOURRE, R-ANTE …), the hand's result, then the next hand
    or the settlement (R-SESSION, R-SETTLE)."""
    hs, log, n = state.hand, state._log, state._n
    result = PlayResult(
        n, hs.pot_at_stake, list(hs.active), list(hs.won), set(log.forfeits),
        list(log.reneges), len(hs.active) == 1,
    )  # fmt: skip
    outcome = state._payout(result, state._penalty)
    for s in range(n):
        state._balances[s] += outcome.takes[s] - outcome.paid[s]
    state._pot = hs.pot = outcome.pot_after
    state._previous = outcome
    _check_conserved(
        state._house, state._checked, sum(state._balances) + state._pot, state._total, hs
    )
    for s in (*log.forfeits, *state._told.premature):
        state._marks[s] = True  # the next turn to deal is lost (R-CORRECTED, R-PREMATURE)
    if state._keep_results:
        state._results.append(
            HandResult(
                hs.number, hs.dealer, hs, outcome, list(state._balances), log.antes,
                log.hands_after, log.plays, log.ante_reasons,
            )
        )  # fmt: skip
    if state._number < state._hands_total:
        begin_hand(state)
        return
    state._phase = Phase.OVER
    if state._settles:
        state._final = state._settle(list(state._balances), state._pot)


def _check_conserved(
    house: House, checked: bool, money: Amount, total: Amount, hs: HandState
) -> None:
    """After every hand the money at the table is whole, and with components not
    built in the cards too; else the game stops naming those components."""
    problem = ""
    if money != total:
        problem = f"money not conserved: the table holds {money}, not {total}"
    elif checked and not hs.unseen_stock and not any(hs.hidden):
        try:
            hs.places()
        except AssertionError as e:
            problem = f"cards not conserved: {e}"
    if problem:
        who = ", ".join(house.guarded) or "the house's components"
        raise PluginError(who, f"hand {hs.number}", problem)
