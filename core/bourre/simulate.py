"""Playing whole sessions with bots: the building block of benchmarks and comparisons.

Every session is determined by its seed: the decks come from :class:`~bourre.engine.Chance`
(the same for every house given one seed: common random numbers) and the bots of a
session share one generator seeded from the same seed.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from bourre.engine import Chance, HandResult, Session
from bourre.house import House
from bourre.money import Amount
from bourre.players import BotAgents, Player, RandomPlayer

PlayerFactory = Callable[[int, random.Random], Player]
"""``factory(seat, rng)`` → the player at ``seat``.  The players of a session share one
generator seeded from the session's seed (seeding costs more than a short session's
play), apart from the chance events."""


def random_players(seat: int, rng: random.Random) -> Player:
    return RandomPlayer(rng)


@dataclass
class SessionResult:
    """A session played by bots."""

    seed: int | str
    hands: list[HandResult] = field(default_factory=list)
    final: list[Amount] = field(default_factory=list)
    ranks: list[int] = field(default_factory=list)


def play_session(
    house: House,
    seed: int | str = 0,
    players: PlayerFactory | Sequence[Player] = random_players,
    *,
    record: bool = False,
    keep_hands: bool = True,
    on_hand: Callable[[HandResult], None] | None = None,
) -> SessionResult:
    """Play one session of ``house`` with bots; the same seed gives the same session."""
    chance = Chance(seed)
    n = house.table.players
    if callable(players):
        rng = random.Random(f"bourre-bots:{seed}")
        seats = [players(s, rng) for s in range(n)]
    else:
        seats = list(players)
    first = chance.seat(n) if house.table.first_dealer == "random" else None
    session = Session(house, first_dealer=first)
    agents = BotAgents(seats)
    result = SessionResult(seed)
    for _ in range(house.table.hands):
        hand = session.play_hand(chance.deck(), agents, reshuffle=chance.reshuffle, record=record)
        if keep_hands:
            result.hands.append(hand)
        if on_hand is not None:
            on_hand(hand)
    result.final, result.ranks = session.settle()
    return result
