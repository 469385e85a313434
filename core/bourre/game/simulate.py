"""Playing whole sessions with bots: the building block of benchmarks and comparisons.

Every session is determined by its seed: the decks come from the state's own chance
(:class:`~bourre.game.state.Chance`, the same for every house given one seed: common
random numbers) and the bots of a session share one generator seeded from the same
seed.  The session is one :class:`~bourre.game.state.State`, made and driven to its end
by :func:`bourre.game.players.play_seeded` (:func:`bourre.game.players.play_out`).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from bourre.game.players import Player, make_bot, play_seeded
from bourre.game.state import HandResult
from bourre.game.xoshiro import Xoshiro128, stream
from bourre.houses.house import House
from bourre.rules.money import Amount

PlayerFactory = Callable[[int, random.Random], Player]
"""``factory(seat, rng)`` → the player at ``seat``.  The players of a session share one
generator seeded from the session's seed (seeding costs more than a short session's
play), apart from the chance outcomes."""


def random_players(seat: int, rng: random.Random | Xoshiro128) -> Player:
    """The ``random`` bot (the benchmark's players), its stream drawn from ``rng`` (or
    ``rng`` itself, a :class:`~bourre.game.xoshiro.Xoshiro128` stream).  It keeps nothing
    but its stream, so ``play_session`` makes one and seats it at every seat, on the
    stream named ``bourre-bots:{seed}`` (no Mersenne Twister seeded a session): the
    seats share one stream of numbers, as players sharing one generator."""
    return make_bot("random", rng)


@dataclass
class SessionResult:
    """A session played by bots."""

    seed: int | str
    hands: list[HandResult] = field(default_factory=list)
    final: list[Amount] = field(default_factory=list)
    ranks: list[int] = field(default_factory=list)
    engine: str = field(default="python", compare=False)
    """Which engine played it: ``"python"`` (the rules' components) or ``"kernel"``
    (:mod:`bourre.kernel`, held to them by tests)."""


def play_session(
    house: House,
    seed: int | str = 0,
    players: PlayerFactory | Sequence[Player] = random_players,
    *,
    record: bool = False,
    keep_hands: bool = True,
    on_hand: Callable[[HandResult], None] | None = None,
) -> SessionResult:
    """Play one session of ``house`` with bots; the same seed gives the same session.
    Without ``keep_hands``, ``record`` or ``on_hand`` no hand's result is kept (the
    session's memory stays that of one hand, however long it is)."""
    n = house.table.players
    if players is random_players:  # one bot, one stream, serves every seat
        seats = [random_players(0, stream(f"bourre-bots:{seed}"))] * n
    elif callable(players):
        rng = random.Random(f"bourre-bots:{seed}")
        seats = [players(s, rng) for s in range(n)]
    else:
        seats = list(players)
    keep = keep_hands or record or on_hand is not None  # else each hand is let go
    state = play_seeded(house, seed, seats, record, keep, on_hand)
    result = SessionResult(seed)
    if keep_hands:
        result.hands = list(state.results)
    assert state.final is not None
    result.final, result.ranks = state.final
    return result
