"""Bots that play Bourré sensibly: :class:`HeuristicPlayer` (hand-strength rules of
thumb) and :class:`MonteCarloPlayer` (samples the cards it cannot see and rolls the
hand out with the heuristic policy).

Both implement :class:`bourre.players.Player` and see only their
:class:`~bourre.state.PlayerView`.  They are registered, with ``random``, through the
``bourre_register_bots`` hook of this module (entry point ``bots``)::

    make_bot("heuristic", rng)
    make_bot("montecarlo", rng, house=house, budget=16)

Cards are ints ``suit * 13 + rank`` (rank 12 = ace), so within a suit a higher int is
a higher card.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from bourre.players import RandomPlayer
from bourre.rules import PlayResult
from bourre.variant import hookimpl

if TYPE_CHECKING:
    from bourre.house import House
    from bourre.players import Player
    from bourre.rules import Rules
    from bourre.state import PlayerView

__all__ = [
    "HeuristicPlayer",
    "MonteCarloPlayer",
    "choose_card",
    "discard_weak",
    "hand_strength",
    "heuristic_decide",
]

ACE = 12
KING = 11

# Expected tricks a single card is worth (rough rules of thumb, 5 players).
_TRUMP_VALUE = (0.30, 0.30, 0.31, 0.32, 0.33, 0.35, 0.37, 0.40, 0.45, 0.55, 0.70, 0.85, 1.00)
_OFF_ACE, _OFF_KING = 0.55, 0.15
_KEEP_WEIGHT = 0.2
"""Weighted sampling exponent (key = u ** (1/w)) for the cards an opponent kept: trumps
and aces get weight 5."""
_FOLD_WEIGHT = 3.0
"""The same for a folded hand: trumps and aces get weight 1/3."""
_DRAW_GAIN = 0.15
"""Expected trick value of one card drawn from the stock (≈ trumps and aces in it)."""


# -- the heuristic policy on plain cards (shared by the bots and the rollouts) --------


def hand_strength(hand: Sequence[int], trump: int) -> float:
    """Expected tricks, roughly: trumps by rank, off-suit aces and kings."""
    e = 0.0
    for c in hand:
        s, r = divmod(c, 13)
        if s == trump:
            e += _TRUMP_VALUE[r]
        elif r == ACE:
            e += _OFF_ACE
        elif r == KING:
            e += _OFF_KING
    return e


def discard_weak(hand: Sequence[int], trump: int) -> list[int]:
    """The heuristic exchange: keep trumps and aces, discard the rest."""
    return [c for c in hand if c // 13 != trump and c % 13 != ACE]


def heuristic_decide(
    hand: Sequence[int],
    trump: int,
    *,
    playing: int,
    to_come: int,
    pot: float = 0.0,
    players: int = 5,
) -> bool:
    """Play or pass by hand strength after the exchange, against the expected number
    of opponents: those already playing plus a share of those still to decide (more
    of them when the pot is large).  Nobody playing and nobody to come: play."""
    kept = len(hand) - len(discard_weak(hand, trump))
    strength = hand_strength(hand, trump) + _DRAW_GAIN * (len(hand) - kept)
    share = 0.4 + 0.1 * min(2.0, pot / max(1.0, 2.0 * players))
    opponents = playing + share * to_come
    return strength >= 0.25 + 0.32 * opponents


def _beats(c: int, w: int, trump: int) -> bool:
    cs, ws = c // 13, w // 13
    return (cs == ws and c > w) or (cs == trump and ws != trump)


def _is_master(c: int, known: int) -> bool:
    """Every higher card of the suit is known (own hand, played, own discards)."""
    top = (c // 13) * 13 + 12
    return all((known >> x) & 1 for x in range(c + 1, top + 1))


def choose_card(
    legal: Sequence[int], trick: Sequence[int], trump: int, known: int, last: bool
) -> int:
    """The heuristic card: ``known`` is the bitmask of cards known out of the
    opponents' hands (own hand, own discards, played cards).

    Leading: a master trump, else a master of another suit, else the lowest card
    (a non-trump if possible).  Following: as last to play, the cheapest winning
    card; earlier, the cheapest winning card that is a master, else the highest
    winning card; unable to win, dump the lowest card (non-trumps first).
    """
    if len(legal) == 1:
        return legal[0]
    if not trick:
        best = -1
        for c in legal:  # a master trump, the highest one
            if c // 13 == trump and _is_master(c, known) and c > best:
                best = c
        if best >= 0:
            return best
        for c in legal:
            if c // 13 != trump and _is_master(c, known):
                return c
        return min(legal, key=lambda c: (c // 13 == trump, c % 13))
    win = trick[0]
    for c in trick[1:]:
        if _beats(c, win, trump):
            win = c
    winners = [c for c in legal if _beats(c, win, trump)]
    if winners:
        if last:
            return min(winners, key=lambda c: (c // 13 == trump, c % 13))
        safe = [c for c in winners if _is_master(c, known)]
        if safe:
            return min(safe, key=lambda c: (c // 13 == trump, c % 13))
        return max(winners, key=lambda c: (c // 13 == trump, c % 13))
    return min(legal, key=lambda c: (c // 13 == trump, c % 13))


def _weighted_order(cards: list[int], trump: int, weight: float, rng: random.Random) -> list[int]:
    """``cards`` in a random order where trumps and aces come first more often
    (``weight`` < 1) or less often (``weight`` > 1) than the other cards."""
    return sorted(
        cards,
        key=lambda c: rng.random() ** (weight if c // 13 == trump or c % 13 == ACE else 1.0),
        reverse=True,
    )


def _mask(cards: Any) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def _draw(pool: list[int], k: int, recycled: list[int]) -> list[int]:
    """``k`` cards from the top of ``pool``; when it runs out, the earlier discards
    of the rollout (``recycled``) refill it (R-RESHUFFLE, roughly)."""
    if len(pool) < k:
        pool.extend(recycled)
        recycled.clear()
    got = pool[:k]
    del pool[:k]
    return got


def _played(view: PlayerView) -> int:
    """Bitmask of the cards played this deal (current trick included)."""
    m = 0
    for t in view.tricks:
        for _, c in t.plays:
            m |= 1 << c
    for _, c in view.trick:
        m |= 1 << c
    return m


def _known(view: PlayerView) -> int:
    """Cards no opponent can hold: own hand and discards, cards played (the upcard
    is not one of them: it is in the dealer's hand until played)."""
    return _mask(view.hand) | _mask(view.own_discards) | _played(view)


def _decision_order(view: PlayerView) -> list[int]:
    """Seats in decision order, dealer's left first, dealer last (R-DECIDE)."""
    n, d = view.players, view.dealer
    return [(d + k) % n for k in range(1, n + 1)]


# -- the heuristic bot ------------------------------------------------------------------


class HeuristicPlayer:
    """Plays or passes by hand strength (trumps, aces, position, pot), exchanges all
    but trumps and aces, wins tricks cheaply and dumps low cards.  Deterministic."""

    def __init__(self, rng: random.Random | int | None = None) -> None:
        self.rng = rng if isinstance(rng, random.Random) else random.Random(rng)

    def decide(self, view: PlayerView) -> bool:
        if view.forced is not None:
            return True
        order = _decision_order(view)
        decided = {d.seat for d in view.decisions}
        to_come = sum(1 for s in order if s != view.seat and s not in decided)
        playing = sum(1 for d in view.decisions if d.play)
        return heuristic_decide(
            view.hand,
            view.trump,
            playing=playing,
            to_come=to_come,
            pot=float(view.pot),
            players=view.players,
        )

    def discard(self, view: PlayerView) -> list[int]:
        return discard_weak(view.hand, view.trump)

    def play(self, view: PlayerView) -> int:
        legal = view.legal
        if len(legal) == 1:
            return legal[0]
        trick = [c for _, c in view.trick]
        last = len(trick) == len(view.active) - 1
        return choose_card(list(legal), trick, view.trump, _known(view), last)


# -- the Monte Carlo bot ----------------------------------------------------------------


class _World:
    """One sample of what the bot cannot see: the opponents' hands and the order of
    the other unseen cards (the stock it would draw from)."""

    __slots__ = ("hands", "pool")

    def __init__(self, hands: dict[int, list[int]], pool: list[int]) -> None:
        self.hands = hands
        self.pool = pool


class MonteCarloPlayer:
    """Samples the unseen cards consistently with its observation (own hand and
    discards, the upcard, the cards played, the public decisions and exchange counts,
    and the voids revealed by not following suit), deals them to the opponents, rolls
    the rest of the hand out with the heuristic policy under the house's rule
    components (``follow``, ``cinch``, ``trick_winner``, ``penalty``, ``payout``), and
    chooses the legal answer with the best mean money outcome for this hand.

    ``budget`` is the number of rollouts per decision, shared among the candidates:
    every candidate is rolled out in each sampled world (common samples, so the
    candidates are compared on the same deals), and there are ``budget // candidates``
    worlds (at least 2).  For cards, the heuristic's answer stands unless another
    beats it by ``margin`` standard errors of the paired differences; the decision to
    play takes the better mean.  The exchange is the heuristic's.  ``house`` (a
    :class:`~bourre.house.House` or a house string) supplies the rules; it defaults
    to ``standard``.
    """

    def __init__(
        self,
        rng: random.Random | int | None = None,
        *,
        house: House | str | None = None,
        budget: int = 16,
        margin: float = 1.0,
    ) -> None:
        from bourre.house import House

        self.rng = rng if isinstance(rng, random.Random) else random.Random(rng)
        if budget < 1:
            raise ValueError(f"montecarlo: budget must be ≥ 1, got {budget}")
        self.budget = int(budget)
        self.margin = float(margin)
        h = house if isinstance(house, House) else _house(house or "standard")
        self.house = h
        self.rules: Rules = h.rules
        self.ante = h.table.ante
        self.simultaneous = not h.rules.decisions.announcements
        self._heuristic = HeuristicPlayer(0)

    # -- sampling -----------------------------------------------------------------

    def _voids(self, view: PlayerView) -> dict[int, set[int]]:
        """Suits each opponent is known to lack: not following the led suit shows a
        void in it; not trumping either, with no trump yet on the trick, a void in
        trumps too (true under every built-in variant)."""
        trump = view.trump
        voids: dict[int, set[int]] = {}
        tricks = [t.plays for t in view.tricks]
        if view.trick:
            tricks.append(view.trick)
        for plays in tricks:
            lead = plays[0][1] // 13
            trumped = lead == trump
            for seat, card in plays[1:]:
                s = card // 13
                if s != lead:
                    v = voids.setdefault(seat, set())
                    v.add(lead)
                    if s != trump and not trumped:
                        v.add(trump)
                if s == trump:
                    trumped = True
        return voids

    def _kept(self, view: PlayerView) -> dict[int, int]:
        """Cards each playing opponent kept at the exchange (hand size minus the
        public exchange count): most likely trumps and aces, since a sensible player
        keeps those."""
        return {d.seat: view.hand_size - d.exchanged for d in view.decisions if d.play}

    def _sample(
        self,
        view: PlayerView,
        need: dict[int, int],
        voids: dict[int, set[int]],
        kept: dict[int, int] | None = None,
        folded: frozenset[int] = frozenset(),
    ) -> _World:
        """Deal the unseen cards: ``need[s]`` to opponent ``s``, none of a suit in
        ``voids[s]``; ``kept[s]`` of them drawn with extra weight on trumps and aces
        (the cards a player keeps at the exchange); the seats in ``folded`` get
        hands light in trumps and aces (they passed; these cards are out of play);
        the rest is the pool (stock and discards)."""
        seen = view.seen()
        trump = view.trump
        rng = self.rng
        unseen = [c for c in range(52) if c not in seen]
        rng.shuffle(unseen)
        hands: dict[int, list[int]] = {}
        taken: set[int] = set()
        kept = kept or {}
        need = dict(need)
        up, dealer = view.upcard, view.dealer
        upcard_held = (
            need.get(dealer, 0) > 0
            and not (_played(view) >> up) & 1
            and trump not in voids.get(dealer, ())
        )
        if upcard_held:  # the dealer holds the upcard (a trump: kept at the exchange)
            need[dealer] -= 1
            if kept.get(dealer, 0) > 0:
                kept = {**kept, dealer: kept[dealer] - 1}
        # the most constrained opponents first
        for s in sorted(need, key=lambda s: (-len(voids.get(s, ())), -kept.get(s, 0), s)):
            k = need[s]
            bad = voids.get(s, set())
            allowed = [c for c in unseen if c not in taken and c // 13 not in bad]
            strong = min(kept.get(s, 0), k)
            got: list[int] = []
            if s in folded:  # a folded hand: probably short of trumps and aces
                got = _weighted_order(allowed, trump, _FOLD_WEIGHT, rng)[:k]
            elif strong:
                got = _weighted_order(allowed, trump, _KEEP_WEIGHT, rng)[:strong]
                allowed = [c for c in allowed if c not in got]
            got += allowed[: k - len(got)]
            if len(got) < k:  # inconsistent inference: fall back to any card
                got += [c for c in unseen if c not in taken and c not in got][: k - len(got)]
            taken.update(got)
            hands[s] = got
        if upcard_held:
            hands[dealer].append(up)
        pool = [c for c in unseen if c not in taken]
        return _World(hands, pool)

    # -- rollouts ----------------------------------------------------------------------

    def _value(self, n: int, P: Any, active: list[int], won: list[int], me: int) -> float:
        rules = self.rules
        out = rules.payout(
            PlayResult(n, P, active, won, set(), [], len(active) == 1), rules.penalty
        )
        return float(out.takes[me] - out.paid[me])

    def _tricks(
        self,
        me: int,
        my_known: int,
        trump: int,
        hands: dict[int, list[int]],
        active: list[int],
        won: list[int],
        trick: list[int],
        leader: int,
        played: int,
    ) -> None:
        """Play the hand out with the heuristic from a trick led by ``leader``
        (``trick``: the cards already on it, possibly all of them)."""
        rules = self.rules
        follow, cinch, winner_of = rules.follow, rules.cinch, rules.trick_winner
        use_cinch = cinch.enabled
        k = len(active)
        pos = {s: i for i, s in enumerate(active)}
        for s in active:
            hands[s].sort()  # rule components may rely on sorted hands
        while trick or hands[leader]:
            i0 = pos[leader]
            seats = active[i0:] + active[:i0]
            for j in range(len(trick), k):
                s = seats[j]
                hand = hands[s]
                legal = follow(hand, trick, trump)
                kn = played | (my_known if s == me else 0)
                if use_cinch and cinch.has_cinch(hand, trump, kn, won[s]):
                    legal = cinch.narrow(legal, hand, trick, trump, kn, j == k - 1)
                card = choose_card(legal, trick, trump, kn | _mask(hand), j == k - 1)
                hand.remove(card)
                trick.append(card)
                played |= 1 << card
            w = seats[winner_of(trick, trump)]
            won[w] += 1
            leader = w
            trick = []

    def _rollout_draw(
        self,
        view: PlayerView,
        world: _World,
        discard: Sequence[int],
        *,
        me_plays: bool = True,
    ) -> float:
        """From the decisions: this player plays with ``discard`` (or passes), the
        undecided opponents decide and exchange by the heuristic, and the hand is
        played out.  Returns this player's money outcome of the hand."""
        n, me, trump, dealer = view.players, view.seat, view.trump, view.dealer
        rules = self.rules
        hands = {s: list(h) for s, h in world.hands.items()}
        pool = list(world.pool)
        already = {d.seat for d in view.decisions}
        active_set = set(view.active)
        my_known = _mask(view.own_discards)
        recycled: list[int] = []
        if me_plays:
            hand = [c for c in view.hand if c not in discard]
            hand += _draw(pool, len(discard), recycled)
            recycled += discard
            my_known |= _mask(discard)
            hands[me] = hand
            active_set.add(me)
        else:
            hands[me] = list(view.hand)
        order = _decision_order(view)
        ace_up = view.upcard % 13 == ACE
        playing = len(active_set) if not self.simultaneous else 0
        later = [s for s in order if s != me and s not in already]
        for idx, s in enumerate(later):
            h = hands[s]
            forced = s == dealer and (ace_up or (not self.simultaneous and not active_set))
            to_come = len(later) - idx - 1
            if self.simultaneous:
                to_come = n - 1
            if forced or heuristic_decide(
                h, trump, playing=playing, to_come=to_come, pot=float(view.pot), players=n
            ):
                d = discard_weak(h, trump)
                if d:
                    keep = [c for c in h if c not in d]
                    keep += _draw(pool, len(d), recycled)
                    recycled += d
                    hands[s] = keep
                active_set.add(s)
                if not self.simultaneous:
                    playing += 1
        if not active_set:  # simultaneous: nobody plays, the dealer is forced in
            active_set.add(dealer)
        if me not in active_set:
            return 0.0
        active = [s for s in order if s in active_set]
        if any(len(hands[s]) != view.hand_size for s in active):
            return 0.0  # the rollout's stock ran dry (huge tables): no information
        extra = rules.ante.play_ante(self.ante)
        P = view.pot + extra * len(active)
        won = [0] * n
        if len(active) > 1:
            self._tricks(me, my_known, trump, hands, active, won, [], active[0], 0)
        else:
            won[me] = view.hand_size
        return self._value(n, P, active, won, me) - float(extra)

    def _decision_worlds(self, view: PlayerView, count: int) -> list[_World]:
        """Worlds before the play: hands for the opponents still in the hand, and the
        cards out of play set aside (folded hands, earlier players' discards: both
        light in trumps and aces), so that the pool is the stock."""
        h = view.hand_size
        need = {s: h for s in range(view.players) if s != view.seat}
        weak = {d.seat for d in view.decisions if not d.play}
        for d in view.decisions:
            if d.play and d.exchanged and d.seat != view.seat:
                need[-1 - d.seat] = d.exchanged  # that player's discards
                weak.add(-1 - d.seat)
        kept = self._kept(view)
        worlds = [self._sample(view, need, {}, kept, frozenset(weak)) for _ in range(count)]
        for w in worlds:
            for s in weak:
                del w.hands[s]
        return worlds

    def _worlds(self, rollouts_each: int) -> int:
        """Worlds for a decision whose candidates need ``rollouts_each`` rollouts per
        world: the budget (rollouts per decision) shared out, at least 2."""
        return max(2, self.budget // max(1, rollouts_each))

    def _best(
        self,
        candidates: list[Any],
        score: Callable[[Any, _World], float],
        worlds: list[_World],
        margin: float,
    ) -> Any:
        """The candidate with the best mean outcome over ``worlds``.  The first
        candidate is the heuristic's answer: another one replaces it only when its
        mean gain over it, paired world by world, exceeds ``margin`` standard errors
        (small budgets otherwise chase noise)."""
        rows = [[score(c, w) for c in candidates] for w in worlds]
        m = len(rows)
        best, best_gain = 0, 0.0
        for i in range(1, len(candidates)):
            d = [r[i] - r[0] for r in rows]
            mean = sum(d) / m
            if mean <= best_gain:
                continue
            if m > 1 and margin > 0:
                var = sum((x - mean) ** 2 for x in d) / (m - 1)
                if mean <= margin * (var / m) ** 0.5:
                    continue
            best, best_gain = i, mean
        return candidates[best]

    # -- the Player protocol -----------------------------------------------------------

    def decide(self, view: PlayerView) -> bool:
        if view.forced is not None:
            return True
        d = discard_weak(view.hand, view.trump)
        choices: list[bool] = [True, False] if self._heuristic.decide(view) else [False, True]
        if self.simultaneous and view.seat == view.dealer:
            worlds = self._decision_worlds(view, self._worlds(2))

            def score(c: bool, w: _World) -> float:
                return self._rollout_draw(view, w, d, me_plays=c)
        else:
            worlds = self._decision_worlds(view, self._worlds(1))

            def score(c: bool, w: _World) -> float:
                return self._rollout_draw(view, w, d) if c else 0.0  # a pass costs nothing more

        return bool(self._best(choices, score, worlds, 0.0))

    def discard(self, view: PlayerView) -> list[int]:
        """The heuristic's exchange (keep trumps and aces).  Searching exchanges by
        rollouts did not pay: at small budgets each of the few worlds per candidate
        is noise, and with many worlds the heuristic's exchange was still the best on
        average (docs/bots.md)."""
        return discard_weak(view.hand, view.trump)

    def play(self, view: PlayerView) -> int:
        legal = list(view.legal)
        if len(legal) == 1:
            return legal[0]
        n, me, trump, h = view.players, view.seat, view.trump, view.hand_size
        active = list(view.active)
        played_by = dict.fromkeys(active, 0)
        played = 0
        won = list(view.tricks_won)
        for t in view.tricks:
            for s, c in t.plays:
                played_by[s] += 1
                played |= 1 << c
        cur = list(view.trick)
        for s, c in cur:
            played_by[s] += 1
            played |= 1 << c
        need = {s: h - played_by[s] for s in active if s != me}
        voids = self._voids(view)
        kept = {s: max(0, k - played_by.get(s, 0)) for s, k in self._kept(view).items()}
        worlds = [self._sample(view, need, voids, kept) for _ in range(self._worlds(len(legal)))]
        my_known = _mask(view.own_discards)
        leader = cur[0][0] if cur else me
        P = view.pot
        trick0 = [c for _, c in cur]
        mine = list(view.hand)

        def score(card: int, w: _World) -> float:
            hands = {s: list(x) for s, x in w.hands.items()}
            hands[me] = [c for c in mine if c != card]
            won2 = list(won)
            self._tricks(
                me,
                my_known,
                trump,
                hands,
                active,
                won2,
                [*trick0, card],
                leader,
                played | (1 << card),
            )
            return self._value(n, P, active, won2, me)

        order = self._prefer(legal, trick0, trump, _known(view), len(trick0) == len(active) - 1)
        result: int = self._best(order, score, worlds, self.margin)
        return result

    @staticmethod
    def _prefer(
        legal: list[int], trick: list[int], trump: int, known: int, last: bool
    ) -> list[int]:
        """Candidates with the heuristic's card first (it wins ties)."""
        first = choose_card(legal, trick, trump, known, last)
        return [first, *(c for c in legal if c != first)]


_HOUSES: dict[str, House] = {}


def _house(spec: str) -> House:
    """Houses by spec, built once per process (the bot factories get a spec string
    when a House cannot be passed, e.g. across processes)."""
    h = _HOUSES.get(spec)
    if h is None:
        from bourre.house import House

        h = _HOUSES[spec] = House.from_arg(spec)
    return h


# -- registration -----------------------------------------------------------------------


def _random(rng: random.Random | None = None, **_: Any) -> Player:
    return RandomPlayer(rng)


def _heuristic(rng: random.Random | None = None, **_: Any) -> Player:
    return HeuristicPlayer(rng)


def _montecarlo(
    rng: random.Random | None = None,
    *,
    house: House | str | None = None,
    budget: int = 16,
    margin: float = 1.0,
    **_: Any,
) -> Player:
    return MonteCarloPlayer(rng, house=house, budget=int(budget), margin=float(margin))


@hookimpl
def bourre_register_bots(register: Callable[[str, Callable[..., Player]], None]) -> None:
    register("random", _random)
    register("heuristic", _heuristic)
    register("montecarlo", _montecarlo)
