"""Decisions and the draw: pass or play in turn, exchange at once from the stock
(R-DECIDE, R-PASS, R-DRAW, R-ACE-UP, R-LAST-STANDS, R-RESHUFFLE)."""

from __future__ import annotations

from collections.abc import Sequence

from mypy_extensions import mypyc_attr

from bourre.cards import card_str
from bourre.rules import Agents, DrawFn, Rules, RuleViolation
from bourre.state import HandState, PublicDecision

ACE = 12
_new = tuple.__new__  # builds a NamedTuple without its Python-level __new__


def make_draw(hand_size: int) -> DrawFn:
    """Exchange 0…``hand_size`` cards with the top of the stock (R-DRAW); when the stock
    runs out, earlier players' unreturned discards make a new stock (R-RESHUFFLE)."""

    def draw(state: HandState, seat: int, discards: Sequence[int]) -> None:
        k = len(discards)
        if not k:
            return  # standing pat
        if k > hand_size:
            raise RuleViolation("R-DRAW", f"at most {hand_size} cards may be exchanged, not {k}")
        hand = state.hands[seat]
        removed: list[int] = []
        try:
            for c in discards:
                hand.remove(c)
                removed.append(c)
        except ValueError:
            hand.extend(removed)
            hand.sort()
            c = discards[len(removed)]
            why = "discards the same card twice" if c in removed else f"does not hold {card_str(c)}"
            raise RuleViolation("R-DRAW", f"seat {seat} {why}") from None
        stock = state.stock
        if len(stock) >= k:
            hand += stock[:k]
            del stock[:k]
        else:
            _draw_through_reshuffle(state, hand, k)
        hand.sort()
        state.pile += discards
        state.discards[seat] += discards
        mask = 0
        for c in discards:
            mask |= 1 << c
        state.known[seat] |= mask

    return draw


def _draw_through_reshuffle(state: HandState, hand: list[int], need: int) -> None:
    """Serve ``need`` cards when the stock runs out (R-RESHUFFLE): the discards of
    earlier players not yet returned (never this player's own) make a new stock."""
    stock = state.stock
    while need:
        if not stock:
            if not state.pile:
                raise RuleViolation(
                    "R-RESHUFFLE", "the stock ran out and there are no discards to reshuffle"
                )
            stock[:] = state.reshuffle(state.pile)
            state.reshuffles.append(list(stock))
            state.pile = []
            for s in range(state.n):
                state.discards[s] = []
                state.known[s] = 0
        take = min(need, len(stock))
        hand += stock[:take]
        del stock[:take]
        need -= take


def fold(state: HandState, seat: int) -> None:
    """R-PASS: the hand goes face down, out of play for this deal."""
    state.folded[seat] = state.hands[seat]
    state.hands[seat] = []
    state.decisions.append(_new(PublicDecision, (seat, False, 0)))


def join(state: HandState, agents: Agents, rules: Rules, seat: int, exchange: bool = True) -> None:
    """A player plays: they exchange at once (R-DRAW) and become active."""
    discards = agents.discard(state, seat) if exchange else ()
    rules.draw(state, seat, discards)
    state.active.append(seat)
    state.decisions.append(_new(PublicDecision, (seat, True, len(discards))))


@mypyc_attr(allow_interpreted_subclasses=True)  # compiled (setup.py); subclass freely
class Sequential:
    """Each player in turn from the dealer's left says pass or play, and a player
    who plays exchanges before the next decides (R-DECIDE, R-DRAW)."""

    announcements = True
    """Players announce in turn, so an announcement out of turn can happen
    (R-PREMATURE)."""

    def __call__(self, state: HandState, agents: Agents, rules: Rules) -> None:
        n, dealer = state.n, state.dealer
        ace_up = state.upcard % 13 == ACE
        for k in range(1, n + 1):
            s = (dealer + k) % n
            forced = None
            if s == dealer:
                if ace_up:
                    forced = "R-ACE-UP"
                elif not state.active:
                    forced = "R-LAST-STANDS"
            if agents.decide(state, s, forced):
                join(state, agents, rules, s)
            elif forced is not None:
                why = (
                    "the upcard is the ace of trumps"
                    if forced == "R-ACE-UP"
                    else "everyone before the dealer passed"
                )
                raise RuleViolation(forced, f"the dealer (seat {s}) may not pass: {why}", ("play",))
            else:
                fold(state, s)
