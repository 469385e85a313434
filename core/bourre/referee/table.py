"""What a real table adds to the game (:class:`TableState`): a Python
:class:`~bourre.game.state.State` stepped as a table tells it.

A table does not shuffle a deck the state can read: it names each hand's position before
its deal (the dealer, a pot already in the middle, the order of a reshuffle:
R-DEALER, R-RESHUFFLE), shows the hands it saw (:class:`~bourre.game.actions.Dealt`),
tells what a seat drew (:class:`~bourre.game.actions.Drew`) or shows only the hand a
seat held after its exchange, in its tricks (:class:`~bourre.game.actions.AfterDraw`);
it lets an illegal card stand (R-RENEGE) or be taken back (R-CORRECTED), and sees a
player announce out of turn (R-PREMATURE).  It keeps the play log its records need
(every card with its legal set and reasons, the hands after the draw, why each seat
anted what it did).

Every such event goes through this class, which always steps a Python ``State`` (the
compiled kernel steps only what the game's own chance gives): by design, in one place.
The game keeps the few primitives that change the hand (:mod:`bourre.game.tablesteps`);
which exchange is legal and what a reshuffle may bring back stay the rule components'
(R-DRAW, R-RESHUFFLE).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence

from bourre.game import tablesteps, unseen
from bourre.game.actions import Action, AfterDraw, Dealt, Deck, Drew
from bourre.game.protocol import GameState
from bourre.game.state import State
from bourre.game.tablesteps import HandLogView, Waiting
from bourre.houses.house import House
from bourre.rules.hookspec import DRAW
from bourre.rules.money import Amount

__all__ = ["TableState"]


class TableState:
    """A session refereed at a real table (see the module): :attr:`state` is the game,
    the methods are the table's events."""

    def __init__(self, state: GameState) -> None:
        if not isinstance(state, State):
            raise TypeError(
                f"a table steps the Python rules' State, not a {type(state).__name__}:"
                " make it with engine='python'"
            )
        self._state = state

    @classmethod
    def new(
        cls, house: House, *, balances: Sequence[Amount] | None = None, hands: int | None = None
    ) -> TableState:
        """A session of ``hands`` hands at ``house``, recorded (the play log kept)."""
        return cls(State(house, balances=balances, hands=hands, record=True))

    @property
    def state(self) -> State:
        """The game (read it; step it through this table)."""
        return self._state

    # -- before a deal ------------------------------------------------------------------

    def dealer_known(self) -> bool:
        """Whether the next dealer is known without the table naming it (R-DEALER)."""
        return tablesteps.first_dealer_known(self._state)

    def dealing(self) -> tuple[int | None, tuple[int, ...]]:
        """Who deals next if the table names no dealer, and the seats passed over for a
        lost turn (R-DEALER, R-PREMATURE, R-CORRECTED)."""
        return tablesteps.dealing(self._state)

    def set_hand(
        self,
        *,
        dealer: int | None = None,
        pot: Amount | None = None,
        reshuffle: Callable[[list[int]], list[int]] | None = None,
    ) -> None:
        """The next hand's position as the table has it, before its deal: the dealer, a
        pot already in the middle (nobody antes), a reshuffled stock's order."""
        tablesteps.set_hand(self._state, dealer=dealer, pot=pot, reshuffle=reshuffle)

    def deal(self, outcome: Deck | Dealt) -> None:
        """The deal: the whole deck, or what the table saw of it (R-DEAL)."""
        self._state.apply_chance(outcome)

    # -- during a hand --------------------------------------------------------------------

    def waiting(self) -> Waiting | None:
        """What the game waits for from the table now (a hand shown, the cards drawn)."""
        return tablesteps.waiting(self._state)

    def show(self, outcome: Dealt | AfterDraw) -> None:
        """The hand of the seat waited on: as dealt, or as its tricks show it after its
        exchange (R-DEAL, R-DRAW)."""
        self._state.apply_chance(outcome)

    def drew(self, cards: Sequence[int]) -> None:
        """The replacements of the seat waited on (R-DRAW, R-RESHUFFLE)."""
        self._state.apply_chance(Drew(tuple(cards)))

    def act(self, action: Action) -> None:
        """A decision or an exchange (the game's own rules)."""
        self._state.apply_action(action)

    def mark_premature(self, seat: int) -> None:
        """``seat`` announced out of turn (R-PREMATURE): it loses its next turn to deal."""
        tablesteps.mark_premature(self._state, seat)

    def referee_play(self, card: int, corrected_to: int | None = None) -> None:
        """A card played: an illegal card stands as a renege (R-RENEGE), or is taken back
        for ``corrected_to`` (R-CORRECTED); a legal card is simply played."""
        tablesteps.referee_play(self._state, card, corrected_to)

    # -- the cards nobody showed ----------------------------------------------------------

    def unplaced(self) -> list[int]:
        """The cards whose place nobody at the table knows yet (:mod:`bourre.game.unseen`)."""
        return unseen.unplaced(self._state.hand)

    def could_hold(self, seat: int, standing_in: Collection[int] = ()) -> set[int]:
        """The cards ``seat``, whose tricks will show its hand but do not yet, may still
        hold (:func:`bourre.game.unseen.could_hold`; R-DECK): the unplaced cards, its own
        known cards, and ``standing_in``, the cards of stand-in hands nobody named."""
        return unseen.could_hold(self._state.hand, seat, standing_in)

    def read_exchange(
        self, seat: int, discards: Sequence[int], after: Sequence[int]
    ) -> tuple[list[int], list[int]]:
        """What ``seat``, whose dealt hand nobody showed, was dealt and drew, read from
        its discards and the hand it held after (its plays): the one inference of the
        cards nobody showed (:func:`bourre.game.unseen.split`; R-DRAW, R-RESHUFFLE).
        Changes nothing."""
        hs = self._state.hand
        limit = self._state.house.rules[DRAW].limit(hs, seat)  # (the house's draw: R-DRAW)
        return unseen.split(hs, seat, discards, after, limit)

    # -- the log -------------------------------------------------------------------------

    def log(self) -> HandLogView:
        """The current hand's log (a snapshot): the antes and why, the cards played with
        their legal sets, the hands after the draw, the reneges, forfeits and premature
        announcements."""
        return tablesteps.hand_log(self._state)

    def __str__(self) -> str:
        return f"TableState({self._state})"
