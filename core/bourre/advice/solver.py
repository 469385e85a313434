"""An exact solver for a hand whose cards are all known (double dummy), over the state
API alone: ``solve(state)`` plays the rest of the hand out on clones of the
:class:`~bourre.game.state.State` (:meth:`~bourre.game.state.State.clone`,
:meth:`~bourre.game.state.State.apply_action`) and reads the payout off
:meth:`~bourre.game.state.State.returns`, so the house's own components decide every
legal set (R-FOLLOW … R-CINCH-LAST), every trick (R-TRICK), who leads (R-LEAD) and every
payment (R-WIN, R-BOURRE …): any house is solved, third-party rules included.

For the seat to play, each legal card gets two values:

(a) ``sure_tricks``: the tricks the seat takes in the whole hand (those already won
    included, as in R-SURE) whatever the others do, the others playing as one side to
    hold it down: the max over the seat's own choices of the min over everyone else's
    (alpha-beta).
(b) ``chips``: the seat's money from here to the end of the hand (what the payout gives
    it, R-WIN, less what it pays, R-BOURRE, R-POT-LIMIT …; the antes already in the pot
    are spent and not counted) when every seat plays for its own chips (max^n).  A seat
    with several cards of the same best value for itself plays the first of them in the
    order the state lists its legal cards (ascending: by suit ♠ ♥ ♦ ♣, then rank 2 … A).

Two plain speed-ups (``plain=True`` turns both off):

- *Equivalent cards merged*: two legal cards of one seat of one suit are equivalent
  when every card of that suit ranked between them is in the same hand or in a
  completed trick (R-EQUIV's idea, from everyone's view: a card in the stock, a
  discard pile or the current trick keeps them apart).  The first is searched, the
  others take its values.
- *Positions remembered*: a transposition table keyed on what decides the rest of the
  hand: each active seat's cards, the trick so far and its order of play, the tricks
  each has won.

Both assume that the house's rules tell cards apart by suit and rank only and read a
position through those facts (every built-in house does); for a house whose rules
single out a card or read the order of past tricks, solve with ``plain=True``.
"""

from __future__ import annotations

import bourre.advice.kernel_solver as kernel_solver
from bourre.advice.solution import CardValue, Solution
from bourre.game.actions import CARDS
from bourre.game.copies import hand_only
from bourre.game.protocol import GameState
from bourre.game.state import State
from bourre.kernel.state import KernelState
from bourre.rules.money import Amount, whole

__all__ = ["CardValue", "Solution", "solve"]

_Key = tuple[object, ...]


ENGINES = ("auto", "kernel", "python")


def solve(state: GameState, *, plain: bool = False, engine: str = "auto") -> Solution:
    """The double-dummy values of each legal card of the seat to play (see the module).

    ``state`` must be in the play phase (a card is to be played, R-LEAD) with every
    active seat's cards known; an :class:`~bourre.game.observation.Observation` (one
    seat's view) or a state in another phase is refused with ``ValueError``.
    ``state`` is not changed.  ``plain=True`` searches every card and remembers no
    position: slower, and right for any house whatever its rules read (the Python
    search).

    ``engine``: ``"python"`` this module's search; ``"kernel"`` the compiled kernel's
    (:mod:`bourre.advice.kernel_solver`: the same values, for a house the kernel can
    play, its plugins' rules included, a plugin's rule of the play only with
    ``plain=True``; else ``ValueError`` saying why; a plugin's answer the kernel does
    not hold, such as an amount that is not a whole number of its units, is this
    module's to solve, as sessions hand it to the Python rules); ``"auto"`` the
    kernel's when it can, else this module's."""
    if engine not in ENGINES:
        raise ValueError(f"engine {engine!r}: one of {', '.join(ENGINES)}")
    if engine != "python":
        if not kernel_solver.stepped_in_play(state):
            _check(state)
        why = kernel_solver.why_not(state, plain=plain)
        if why is None:
            got = kernel_solver.kernel_solve(state, plain=plain)
            if got is not None:
                return got
            # a plugin's answer the kernel does not hold: this module's search, as
            # sessions hand it to the Python rules (never a rounded amount)
        elif engine == "kernel":
            raise ValueError(f"the kernel's solver cannot solve this state: {why}")
    _check(state)
    return _Search(state, plain).solve()


def _check(state: object) -> None:
    """Refuse what cannot be solved, saying why."""
    if not isinstance(state, (State, KernelState)):
        raise ValueError(
            f"solve needs the full State of a hand, not {type(state).__name__}: an "
            "observation shows one seat's cards and hides the others' (sample a world "
            "with bourre.game.worlds.sample_world to solve a guess)"
        )
    if state.phase_name != "play":
        raise ValueError(
            f"no card is to be played now: the state is at {state.phase_name!r}, and the "
            "solver solves the play of a hand (R-LEAD)"
        )
    hs = state.hand
    hidden = [s for s in hs.active if hs.hidden[s]]
    if hidden:
        raise ValueError(
            f"seat {hidden[0]}'s cards are not known: a double-dummy solve needs every hand"
        )
    left = hs.hand_size - len(hs.tricks)
    for i, seat in enumerate(hs.trick_seats):
        held = left - (1 if i < len(hs.trick) else 0)
        if len(hs.hands[seat]) != held:
            raise ValueError(
                f"seat {seat} holds {len(hs.hands[seat])} known cards, not {held}: "
                "a double-dummy solve needs every hand"
            )


class _Search:
    """One solve: the seat to play, the tables of positions, the money at the start."""

    def __init__(self, state: GameState, plain: bool) -> None:
        # A private Python copy that ends the session with this hand, unsettled and
        # unrecorded: its returns() at the end less those now are this hand's payout.
        root = hand_only(state)
        self.root = root
        self.seat = root.current_player()
        self.n = root.n
        self.active = tuple(root.hand.active)
        self.plain = plain
        self.start = tuple(root.returns())
        self.chips_table: dict[_Key, tuple[Amount, ...]] = {}
        self.tricks_table: dict[_Key, tuple[int, int]] = {}

    def solve(self) -> Solution:
        root = self.root
        values: list[CardValue] = []
        hand_size = root.hand.hand_size
        for group in self.groups(root):
            child = root.clone()
            child.apply_action(CARDS[group[0]])
            chips = self.chips(child.clone())  # (the search plays on the state it is given)
            tricks = self.sure_tricks(child, -1, hand_size + 1)
            for card in group:
                values.append(CardValue(card, tricks, chips[self.seat], chips, group[0]))
        order = {c: i for i, c in enumerate(root.legal_cards())}
        values.sort(key=lambda v: order[v.card])
        top = max(v.chips for v in values)
        most = max(v.sure_tricks for v in values)
        best = tuple(v.card for v in values if v.chips == top)
        return Solution(
            self.seat,
            tuple(values),
            best,
            tuple(v.card for v in values if v.sure_tricks == most),
            best[0],
            len(self.chips_table) + len(self.tricks_table),
        )

    # -- the position ---------------------------------------------------------------

    def key(self, state: State) -> _Key:
        """What decides the rest of the hand: the cards each active seat holds, the
        trick so far and its order of play, the tricks each has won.  (The cards gone
        are the ones no longer held: the stock and discards do not change in play.)"""
        hs = state.hand
        return (
            tuple(tuple(hs.hands[s]) for s in self.active),
            tuple(hs.trick),
            tuple(hs.trick_seats),
            tuple(hs.won[s] for s in self.active),
        )

    def groups(self, state: State) -> list[list[int]]:
        """The legal cards of the player to play in the state's order, equivalent
        cards together (R-EQUIV, from everyone's view): a card joins the one before it
        when both are of one suit and every card between them is in the same hand or
        in a completed trick.  With ``plain`` each card stands alone."""
        legal = state.legal_with_reasons()
        if self.plain:
            return [[c] for c in legal.cards]
        hs = state.hand
        own = set(hs.hands[legal.seat])
        gone = hs.played.difference(hs.trick)  # the cards of the completed tricks
        out: list[list[int]] = []
        for card in legal.cards:
            if out:
                prev = out[-1][-1]
                if (
                    prev // 13 == card // 13
                    and prev < card
                    and all(c in own or c in gone for c in range(prev + 1, card))
                ):
                    out[-1].append(card)
                    continue
            out.append([card])
        return out

    def payout(self, state: State) -> tuple[Amount, ...]:
        """Each seat's money change since the position solved (the hand is over)."""
        return tuple(whole(r - s) for r, s in zip(state.returns(), self.start, strict=True))

    # -- (b) every seat for itself --------------------------------------------------

    def chips(self, state: State) -> tuple[Amount, ...]:
        """Every seat's chips when each plays for its own (max^n); among cards of equal
        value to the player, the first in the state's order.  ``state`` is the
        search's own and may be played on."""
        if state.is_terminal():
            return self.payout(state)
        key = None if self.plain else self.key(state)
        if key is not None and key in self.chips_table:
            return self.chips_table[key]
        player = state.current_player()
        groups = self.groups(state)
        best: tuple[Amount, ...] | None = None
        for i, group in enumerate(groups):
            child = state if i == len(groups) - 1 else state.clone()
            child.apply_action(CARDS[group[0]])
            value = self.chips(child)
            if best is None or value[player] > best[player]:
                best = value
        assert best is not None
        if key is not None:
            self.chips_table[key] = best
        return best

    # -- (a) the others hold the seat down ------------------------------------------

    def sure_tricks(self, state: State, alpha: int, beta: int) -> int:
        """The seat's tricks of the hand, the seat maximising and everyone else
        minimising, by alpha-beta (fail-soft) within (``alpha``, ``beta``): a value at or
        below ``alpha`` is an upper bound, at or above ``beta`` a lower bound.  The table
        keeps the bounds learnt for each position."""
        hs = state.hand
        if state.is_terminal():
            return hs.won[self.seat]
        lo = hs.won[self.seat]
        hi = lo + hs.hand_size - len(hs.tricks)
        key = None if self.plain else self.key(state)
        if key is not None and key in self.tricks_table:
            known_lo, known_hi = self.tricks_table[key]
            lo, hi = max(lo, known_lo), min(hi, known_hi)
        if lo == hi or lo >= beta:
            return lo
        if hi <= alpha:
            return hi
        alpha, beta = max(alpha, lo), min(beta, hi)
        maximising = state.current_player() == self.seat
        groups = self.groups(state)
        if maximising:  # the likeliest winners first: the highest cards
            groups.reverse()
        a, b = alpha, beta
        best = -1 if maximising else hs.hand_size + 1
        for i, group in enumerate(groups):
            child = state if i == len(groups) - 1 else state.clone()
            child.apply_action(CARDS[group[0]])
            value = self.sure_tricks(child, a, b)
            if maximising:
                best = max(best, value)
                a = max(a, value)
            else:
                best = min(best, value)
                b = min(b, value)
            if a >= b:
                break
        if key is not None:
            if best <= alpha:
                hi = min(hi, best)
            elif best >= beta:
                lo = max(lo, best)
            else:
                lo = hi = best
            self.tricks_table[key] = (lo, hi)
        return best
