"""The heuristic bot (:class:`HeuristicPlayer`): hand-strength rules of thumb for
playing or passing, keeping trumps and aces at the exchange, winning tricks cheaply
and dumping low cards.  Its policy functions work on plain cards, so search bots use
them for rollouts too.  Cards are ints ``suit * 13 + rank`` (rank 12 = ace).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, ClassVar, Final

from bourre.game.observation import Observation
from bourre.game.playerbase import PlayerBase
from bourre.game.worlds import legal_or_nearest
from bourre.rules.hookspec import TRICK_WINNER, TrickWinnerFn
from bourre_variants.standard.tricks import trick_winner

__all__ = [
    "HeuristicPlayer",
    "choose_card",
    "discard_weak",
    "fold_weight",
    "hand_strength",
    "heuristic_decide",
    "house_winner",
    "keep_weight",
]

ACE: Final = 12
KING: Final = 11

# Expected tricks a single card is worth (rough rules of thumb, 5 players); Final:
# constants.
_TRUMP_VALUE: Final[tuple[float, ...]] = (
    0.30, 0.30, 0.31, 0.32, 0.33, 0.35, 0.37, 0.40, 0.45, 0.55, 0.70, 0.85, 1.00,
)  # fmt: skip
_OFF_ACE: Final = 0.55
_OFF_KING: Final = 0.15
_DRAW_GAIN: Final = 0.15
"""Expected trick value of one card drawn from the stock (≈ trumps and aces in it)."""

# The bot's thresholds (options of ``heuristic(…)``; chosen by bench/tune_heuristic.py,
# see docs/bots.md).
PLAY_THRESHOLD = 0.25
"""Strength (expected tricks) needed to play with no opponent expected."""
PER_OPPONENT = 0.45
"""Strength needed on top of that per expected opponent."""
KEEP_TRUMP = 2
"""The lowest trump kept at the exchange, by card rank (2…14 = ace): lower ones go."""


# -- the heuristic policy on plain cards (shared by the bots and the rollouts) --------


def hand_strength(hand: Sequence[int], trump: int) -> float:
    """Expected tricks, roughly: trumps by rank, off-suit aces and kings."""
    e = 0.0
    cards: tuple[int, ...] = hand if isinstance(hand, tuple) else tuple(hand)  # native
    for c in cards:
        s, r = c // 13, c % 13  # not divmod: a call and a tuple per card
        if s == trump:
            e += _TRUMP_VALUE[r]
        elif r == ACE:
            e += _OFF_ACE
        elif r == KING:
            e += _OFF_KING
    return e


def discard_weak(hand: Sequence[int], trump: int, keep_trump: int = KEEP_TRUMP) -> list[int]:
    """The heuristic exchange: keep aces and the trumps from rank ``keep_trump`` up
    (2 = every trump), discard the rest."""
    low = keep_trump - 2
    cards: tuple[int, ...] = hand if isinstance(hand, tuple) else tuple(hand)  # native
    return [c for c in cards if c % 13 != ACE and (c // 13 != trump or c % 13 < low)]


def heuristic_decide(
    hand: Sequence[int],
    trump: int,
    *,
    playing: int,
    to_come: int,
    pot: float = 0.0,
    players: int = 5,
    play_threshold: float = PLAY_THRESHOLD,
    per_opponent: float = PER_OPPONENT,
    keep_trump: int = KEEP_TRUMP,
) -> bool:
    """Play or pass by hand strength after the exchange (the trumps it would discard
    do not count, each card it would draw does), against the expected number of
    opponents: those already playing plus a share of those still to decide (more of
    them when the pot is large).  It plays when the strength reaches
    ``play_threshold + per_opponent × opponents``."""
    out = discard_weak(hand, trump, keep_trump)
    strength = hand_strength(hand, trump) + _DRAW_GAIN * len(out)
    if keep_trump > 2:
        strength -= hand_strength([c for c in out if c // 13 == trump], trump)
    share = 0.4 + 0.1 * min(2.0, pot / max(1.0, 2.0 * players))
    opponents = playing + share * to_come
    return strength >= play_threshold + per_opponent * opponents


def _is_master(c: int, known: int) -> bool:
    """Every higher card of the suit is known (own hand, played, own discards)."""
    top = (c // 13) * 13 + 12
    higher = ((1 << (top + 1)) - 1) ^ ((1 << (c + 1)) - 1)
    return known & higher == higher


def _rank_key(c: int, trump: int) -> int:
    """Order of cheapness: non-trumps by rank, then trumps by rank."""
    return c % 13 + 13 if c // 13 == trump else c % 13


def _cheapest(cards: list[int], trump: int) -> int:
    """The first of the cheapest cards (non-trumps first, then by rank)."""
    best, key = cards[0], _rank_key(cards[0], trump)
    for c in cards:
        k = _rank_key(c, trump)
        if k < key:
            best, key = c, k
    return best


def _dearest(cards: list[int], trump: int) -> int:
    """The first of the dearest cards (trumps first, then by rank)."""
    best, key = cards[0], _rank_key(cards[0], trump)
    for c in cards:
        k = _rank_key(c, trump)
        if k > key:
            best, key = c, k
    return best


def choose_card(
    legal: Sequence[int],
    trick: Sequence[int],
    trump: int,
    known: int,
    last: bool,
    winner: TrickWinnerFn | None = None,
) -> int:
    """The heuristic card: ``known`` is the bitmask of cards known out of the
    opponents' hands (own hand, own discards, played cards); ``winner`` is the
    house's trick-winner rule (R-TRICK), ``None`` for the standard one.

    Leading: a master trump, else a master of another suit, else the lowest card
    (a non-trump if possible).  Following: as last to play, the cheapest winning
    card; earlier, the cheapest winning card that is a master, else the highest
    winning card; unable to win, dump the lowest card (non-trumps first).
    """
    if len(legal) == 1:
        return legal[0]
    cards: list[int] = legal if isinstance(legal, list) else list(legal)  # native
    if not trick:
        best = -1
        for c in cards:  # a master trump, the highest one
            if c // 13 == trump and _is_master(c, known) and c > best:
                best = c
        if best >= 0:
            return best
        for c in cards:
            if c // 13 != trump and _is_master(c, known):
                return c
        return _cheapest(cards, trump)
    after = list(trick)  # the trick with each legal card added: who would win it (R-TRICK)
    after.append(-1)
    n = len(trick)
    winners = []
    for c in cards:
        after[n] = c
        full = tuple(after)
        w = trick_winner(full, trump) if winner is None else winner(full, trump)
        if w == n:
            winners.append(c)
    if winners:
        if last:
            return _cheapest(winners, trump)
        safe = [c for c in winners if _is_master(c, known)]
        if safe:
            return _cheapest(safe, trump)
        return _dearest(winners, trump)
    return _cheapest(cards, trump)


def house_winner(house: Any) -> TrickWinnerFn | None:
    """The trick-winner rule of ``house`` (a :class:`~bourre.houses.house.House`) when it is
    not the standard one (R-TRICK): a bot reads the rules the table plays by."""
    rules = getattr(house, "rules", None)
    if rules is None:
        return None
    got = rules[TRICK_WINNER]
    return None if got is trick_winner else got


def _mask(cards: tuple[int, ...]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def known_out(view: Observation) -> int:
    """Cards no opponent can hold: own hand and discards, cards played (the upcard
    is not one of them: it is in the dealer's hand until played)."""
    return _mask(view.hand) | _mask(view.own_discards) | view.played


# -- the heuristic bot ------------------------------------------------------------------


class HeuristicPlayer(PlayerBase):
    """Plays or passes by hand strength (trumps, aces, position, pot), exchanges all
    but trumps and aces, wins tricks cheaply and dumps low cards.  Deterministic.

    ``play_threshold`` and ``per_opponent``: it plays when its strength reaches
    ``play_threshold + per_opponent × expected opponents``; ``keep_trump``: the
    lowest trump it keeps at the exchange (card rank, 2…14).  ``winner``: the
    house's trick-winner rule (:func:`house_winner`), ``None`` for the standard."""

    asked_when_forced: ClassVar[bool] = False  # deterministic: nothing to ask then
    kernel_bot: ClassVar[str] = "heuristic"
    """The compiled kernel (:mod:`bourre.kernel`) plays this class as its ``heuristic``
    bot (its options included: tests/kernel/test_sessions.py; the house's trick winner,
    a plugin's asked through Python where :func:`choose_card` asks it:
    tests/kernel/test_worlds_plugin_cards.py); read off the class itself, so a subclass
    is played by the Python rules unless it says so again."""

    def __init__(
        self,
        rng: random.Random | int | None = None,
        *,
        play_threshold: float = PLAY_THRESHOLD,
        per_opponent: float = PER_OPPONENT,
        keep_trump: int = KEEP_TRUMP,
        winner: TrickWinnerFn | None = None,
    ) -> None:
        self.rng = rng if isinstance(rng, random.Random) else random.Random(rng)
        self.winner = winner
        self.play_threshold = float(play_threshold)
        self.per_opponent = float(per_opponent)
        self.keep_trump = int(keep_trump)

    def decide(self, view: Observation) -> bool:
        if view.forced is not None:
            return True
        decided = len(view.decisions)  # they decide in turn from the dealer's left
        to_come = view.players - 1 - decided
        playing = 0
        for d in view.decisions:
            if d.play:
                playing += 1
        return heuristic_decide(
            view.hand,
            view.trump,
            playing=playing,
            to_come=to_come,
            pot=float(view.pot),
            players=view.players,
            play_threshold=self.play_threshold,
            per_opponent=self.per_opponent,
            keep_trump=self.keep_trump,
        )

    def discard(self, view: Observation) -> Sequence[int]:  # the base's type: no glue
        wanted = discard_weak(view.hand, view.trump, self.keep_trump)
        if len(wanted) <= view.exchange_limit:
            return wanted
        return list(legal_or_nearest(wanted, view.legal_actions).cards)  # a capped exchange

    def play(self, view: Observation) -> int:
        legal = view.legal
        if len(legal) == 1:
            return legal[0]
        trick = [c for _, c in view.trick]
        last = len(trick) == len(view.active) - 1
        return choose_card(list(legal), trick, view.trump, known_out(view), last, self.winner)


def keep_weight(trump: int) -> Any:
    """Sampling weight of a card a player kept at the exchange: trumps and aces are
    likelier (weight 5)."""
    return lambda c: 5.0 if c // 13 == trump or c % 13 == ACE else 1.0


def fold_weight(trump: int) -> Any:
    """Sampling weight of a card in a folded hand: trumps and aces are less likely."""
    return lambda c: 1.0 / 3.0 if c // 13 == trump or c % 13 == ACE else 1.0
