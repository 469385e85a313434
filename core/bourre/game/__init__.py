"""The front door of the state API: :class:`Game`, the static facts of a house, and
the states it makes (:class:`~bourre.game.state.State`), in the manner of OpenSpiel's
``Game`` / ``State`` / observer::

    from bourre import Game
    game = Game("standard+pot-limit(limit=10)")
    state = game.new_session(seed=7)
    while not state.is_terminal():
        state.apply_action(random.choice(state.legal_actions()))
    state.returns()                     # each seat's money change, exact; sums to 0

Without a seed a state stops at each chance node (``current_player() == CHANCE``)
and the caller gives the outcome: a whole :class:`~bourre.game.actions.Deck`, or what a
table saw (:class:`~bourre.game.actions.Dealt`, then :class:`~bourre.game.actions.Drew` after
each exchange).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from bourre.game.engines import choose, engines
from bourre.game.protocol import GameState
from bourre.game.state import CHANCE, TERMINAL, State
from bourre.houses.house import House
from bourre.houses.models import HouseRules
from bourre.houses.text import rules_markdown
from bourre.rules import HandOutcome
from bourre.rules.money import Amount

__all__ = ["CHANCE", "TERMINAL", "Game", "GameState", "State"]


class Game:
    """The static facts of a house: players, hand size, the house and its rules.

    ``Game(house)`` takes a :class:`~bourre.houses.house.House`, a house string
    (``"standard+pot-limit(limit=10)"``), a house file path or :class:`HouseRules`.

    ``engine`` says who steps its sessions (:mod:`bourre.game.engines`): ``"auto"``
    (the compiled kernel when it can play the house, else the Python rules),
    ``"kernel"`` (a ``ValueError`` naming the component it cannot play) or
    ``"python"``; ``None`` (the default) is ``"auto"``, or ``"python"`` when the
    environment says ``BOURRE_ENGINE=python``.  Every engine gives the same states:
    the same actions, observations, refusals and returns.
    """

    def __init__(
        self, house: House | HouseRules | str | Path = "standard", *, engine: str | None = None
    ) -> None:
        if isinstance(house, House):
            self.house = house
        elif isinstance(house, str):
            self.house = House.from_arg(house)
        else:
            self.house = House(house)
        self.players: int = self.house.table.players
        self.hand_size: int = self.house.rules.hand_size
        self.hands: int = self.house.table.hands
        """Hands per session (R-SESSION)."""
        self.engine = choose(engine)

    @property
    def rules_text(self) -> str:
        """The rules of the house, with their ids, as ``bourre rules`` prints them."""
        return rules_markdown(self.house)

    def new_session(
        self,
        seed: int | str | None = None,
        *,
        balances: Sequence[Amount] | None = None,
        first_dealer: int | None = None,
        record: bool = False,
        keep_results: bool = True,
        engine: str | None = None,
    ) -> GameState:
        """A whole session (all its hands and the settlement) as a state.  With a
        seed it draws its own chance outcomes; without one it stops at each chance
        node.  ``record`` keeps every card's legal set for hand records;
        ``keep_results=False`` keeps no hand's result (``State.results`` stays empty,
        ``history()`` holds the current hand's actions only: a long session needs the
        memory of one hand).  ``engine`` overrides the game's (:class:`Game`)."""
        return self._state(
            engine,
            seed=seed,
            balances=balances,
            first_dealer=first_dealer,
            record=record,
            keep_results=keep_results,
        )

    def new_hand(
        self,
        seed: int | str | None = None,
        *,
        balances: Sequence[Amount] | None = None,
        pot: Amount = 0,
        dealer: int = 0,
        previous: HandOutcome | None = None,
        record: bool = False,
        engine: str | None = None,
    ) -> GameState:
        """One hand from a given position: the balances, the pot already in the
        middle before this hand's antes, the dealer and the previous hand's outcome
        (``None``: the first hand, everyone antes, R-FIRST-POT).  Terminal after
        the payout; :meth:`~bourre.game.state.State.returns` are the balance changes.
        ``engine`` overrides the game's (:class:`Game`)."""
        return self._state(
            engine,
            seed=seed,
            balances=balances,
            first_dealer=dealer,
            record=record,
            keep_results=True,
            hands=1,
            pot=pot,
            settle=False,
            previous=previous,
        )

    def _state(
        self,
        engine: str | None,
        *,
        seed: int | str | None,
        balances: Sequence[Amount] | None,
        first_dealer: int | None,
        record: bool,
        keep_results: bool,
        hands: int | None = None,
        pot: Amount = 0,
        settle: bool = True,
        previous: HandOutcome | None = None,
    ) -> GameState:
        """A state from the chosen engine (:mod:`bourre.game.engines`): the first that
        can play it under ``"auto"``, else the Python rules."""
        chosen = self.engine if engine is None else choose(engine)
        if chosen != "python":
            named = [chosen] if chosen != "auto" else sorted(engines())
            why = f"no engine {chosen!r} is installed"
            for name in named:
                make = engines().get(name)
                got = (
                    make(
                        self.house,
                        seed=seed,
                        balances=balances,
                        first_dealer=first_dealer,
                        record=record,
                        keep_results=keep_results,
                        hands=hands,
                        pot=pot,
                        settle=settle,
                        previous=previous,
                    )
                    if make is not None
                    else why
                )
                if not isinstance(got, str):
                    return got  # type: ignore[no-any-return]
                why = str(got)
            if chosen != "auto":
                what = "session" if settle else "hand"
                raise ValueError(f"engine {chosen!r} cannot play this {what}: {why}")
        return State(
            self.house,
            seed=seed,
            hands=hands,
            balances=balances,
            pot=pot,
            dealer=first_dealer,
            previous=previous,
            settle=settle,
            record=record,
            keep_results=keep_results,
        )

    def __repr__(self) -> str:
        return f"Game({self.house.spec!r})"
