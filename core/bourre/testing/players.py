"""The players the kit seats to check a variant or a house: a random bot and an eager
player, turn about, so that the sessions both pass (and hear the refusals of a pass)
and reach the tricks (where the legal sets and the cinch are asked)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from bourre.game.actions import PLAY, Action
from bourre.game.botmaking import make_bot
from bourre.game.playerbase import PlayerBase
from bourre.houses.house import House


class Eager(PlayerBase):
    """Plays every hand it may (R-DECIDE), otherwise random: so that the sessions reach
    the tricks, where the legal sets and the cinch are asked."""

    needs_view = False

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, actions: Sequence[Action]) -> Action:
        if PLAY in actions:
            return PLAY
        return actions[self.rng.randrange(len(actions))]


def random_players(seat: int, rng: random.Random, house: House) -> Any:
    """Seats alternate: the random bot (which passes half the time, so that passes and
    their refusals are asked) and an eager player that always plays."""
    return make_bot("random", rng) if seat % 2 else Eager(random.Random(rng.random()))
