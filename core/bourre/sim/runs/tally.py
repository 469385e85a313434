"""What a comparison keeps of each hand of a session (:class:`SessionTally`)."""

from __future__ import annotations

import math

from bourre.game.state import HandResult

__all__ = ["SessionTally"]


class SessionTally:
    """What ``bourre compare``'s summary keeps of each hand of a session: pass it as
    ``on_hand``.  Per hand: the pot at stake, the players, the bourré players
    (R-BOURRE), whether the pot carried (no winner), the dealer and each seat's
    change; over the session: cards played and those played with a cinch (R-SURE)."""

    def __init__(self, start: float, n: int) -> None:
        self.prev: list[float] = [start] * n
        self.pots: list[float] = []
        self.active: list[int] = []
        self.bourre: list[int] = []
        self.carried: list[int] = []
        self.dealers: list[int] = []
        self.deltas: list[list[float]] = []
        self.plays = 0
        self.cinch = 0

    def __call__(self, h: HandResult) -> None:
        hs = h.state
        self.plays += sum(len(t.plays) for t in hs.tricks)
        self.cinch += hs.cinch_plays
        self.pots.append(float(hs.pot_at_stake))
        self.active.append(len(hs.active))
        self.bourre.append(len(h.outcome.bourre))
        self.carried.append(1 if h.outcome.winner is None else 0)
        self.dealers.append(h.dealer)
        now = [float(b) for b in h.balances]
        self.deltas.append([now[s] - self.prev[s] for s in range(len(now))])
        self.prev = now

    def places(self) -> list[float]:
        """Chips won over the session by place from the dealer (0 = the dealer, 1 =
        the dealer's left …), each an exactly rounded sum (``math.fsum``)."""
        n = len(self.prev)
        deltas, dealers = self.deltas, self.dealers
        return [
            math.fsum([deltas[k][(dealers[k] + p) % n] for k in range(len(deltas))])
            for p in range(n)
        ]
