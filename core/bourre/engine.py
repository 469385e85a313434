"""The game core: a session of hands, each flowing antes → deal → decisions and draw
→ tricks → payout → next dealer, and the settlement at the end (R-SESSION, R-SETTLE).

The engine knows no rule itself: every rule is a component of the house's
:class:`~bourre.rules.Rules`, resolved once when the house was built.  Randomness
enters only as chance events handed in by the caller (the deck of each hand, the
order of a reshuffled stock), so any hand can be replayed.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

from mypy_extensions import mypyc_attr

from bourre.build import warn_if_stale
from bourre.cards import DECK, card_str
from bourre.house import House
from bourre.money import Amount
from bourre.rules import Agents, HandOutcome, PlayResult, RuleViolation
from bourre.state import HandState, Reshuffle, TrickLog, keep_order

__all__ = ["Chance", "HandResult", "PlayLog", "Session"]

warn_if_stale()  # an edited source shadowed by its compiled module (editable install)

_new = tuple.__new__  # builds a NamedTuple without its Python-level __new__ (hot loop)


class PlayLog(NamedTuple):
    """One card played, as the hand record reports it."""

    seat: int
    card: int
    legal: tuple[int, ...]
    cinch: bool
    renege: bool
    corrected: bool
    played_first: int | None = None
    """The illegal card taken back, for a corrected play."""


@dataclass(slots=True)
class HandResult:
    """What a hand did (the hand record is made from it, :mod:`bourre.records`)."""

    number: int
    dealer: int
    state: HandState
    outcome: HandOutcome
    balances: list[Amount]
    """Balances after the hand's payments, before the next antes."""
    antes: list[Amount]
    hands_after_draw: list[list[int]]
    plays: list[PlayLog] = field(default_factory=list)
    """Every card played, in order (kept when the hand is recorded)."""

    @property
    def pot_at_stake(self) -> Amount:
        return self.state.pot_at_stake

    @property
    def tricks(self) -> list[TrickLog]:
        return self.state.tricks


@mypyc_attr(allow_interpreted_subclasses=True)  # compiled (setup.py); subclass freely
class Chance:
    """The seeded source of chance events: the deck of each hand (shuffled and cut),
    reshuffles, a random first dealer.  Independent of the players' own randomness,
    so every house given one seed sees the same decks (common random numbers)."""

    def __init__(self, seed: int | str) -> None:
        self.seed = seed
        self._rng = random.Random(f"bourre-deck:{seed}")
        self._reshuffle_rng: random.Random | None = None  # made when first needed

    def deck(self) -> list[int]:
        """A shuffled and cut deck, top first (Fisher–Yates on uniform floats)."""
        cards = list(DECK)
        r = self._rng.random
        for i in range(len(cards) - 1, 0, -1):
            j = int(r() * (i + 1))
            cards[i], cards[j] = cards[j], cards[i]
        return cards

    def reshuffle(self, pile: list[int]) -> list[int]:
        """A new stock from discards (R-RESHUFFLE)."""
        if self._reshuffle_rng is None:  # its own stream: decks never depend on play
            self._reshuffle_rng = random.Random(f"bourre-reshuffle:{self.seed}")
        new = list(pile)
        self._reshuffle_rng.shuffle(new)
        return new

    def seat(self, n: int) -> int:
        return self._rng.randrange(n)


@mypyc_attr(allow_interpreted_subclasses=True)  # compiled (setup.py); subclass freely
class Session:
    """A session at one house: balances, the pot, the dealer, lost-deal marks.

    :meth:`play_hand` plays one hand from a deck with the given agents; :meth:`settle`
    ends the session.  ``balances`` defaults to the table's starting balance.
    """

    def __init__(
        self,
        house: House,
        *,
        balances: Sequence[Amount] | None = None,
        first_dealer: int | None = None,
    ) -> None:
        self.house = house
        self.rules = house.rules
        self.table = house.table
        n = self.n = house.table.players
        self.balances: list[Amount] = (
            list(balances) if balances is not None else [house.table.balance] * n
        )
        if len(self.balances) != n:
            raise ValueError(f"balances: {len(self.balances)} given for {n} players (R-SESSION)")
        self.pot: Amount = 0
        self.previous: HandOutcome | None = None
        self.marks = [False] * n
        fd = house.table.first_dealer if first_dealer is None else first_dealer
        self.first_dealer: int | None = fd if isinstance(fd, int) else None
        self.last_dealer: int | None = None
        self.number = 0

    @property
    def dealer(self) -> int | None:
        """Who deals the next hand by rotation (R-DEALER); ``None`` when the first
        dealer is to be drawn.  Rotation runs when that hand starts, so a hand whose
        dealer is given leaves the lost-deal marks pending."""
        if self.last_dealer is None:
            return self.first_dealer
        return self.rules.next_dealer(self.last_dealer, list(self.marks))

    def play_hand(
        self,
        deck: Sequence[int],
        agents: Agents,
        *,
        dealer: int | None = None,
        pot: Amount | None = None,
        premature: Iterable[int] = (),
        reshuffle: Reshuffle = keep_order,
        record: bool = False,
    ) -> HandResult:
        """Play one hand.  ``dealer`` and ``pot`` override the session's (a given pot
        is already in the middle: nobody antes).  ``premature`` lists seats that
        announced out of turn (R-PREMATURE).  Raises :class:`RuleViolation` for an
        answer the rules forbid."""
        rules, n, table = self.rules, self.n, self.table
        if dealer is None:
            if self.last_dealer is None:
                if self.first_dealer is None:
                    raise RuleViolation("R-DEALER", "no dealer: table.first_dealer is 'random'")
                dealer = self.first_dealer
            else:
                dealer = self.rules.next_dealer(self.last_dealer, self.marks)
        self.last_dealer = dealer
        self.number += 1
        balances = self.balances
        # Antes (R-FIRST-POT, R-ANTE)
        if pot is None:
            antes = rules.ante.hand_antes(n, table.ante, self.previous)
            for s in range(n):
                balances[s] -= antes[s]
            self.pot += sum(antes)
        else:
            antes = [0] * n
            self.pot = pot
        # Deal (R-DEAL)
        h = rules.hand_size
        hands, upcard, stock = rules.deal(deck, dealer, n)
        state = HandState(
            number=self.number,
            n=n,
            hand_size=h,
            dealer=dealer,
            hands=hands,
            upcard=upcard,
            stock=stock,
            pot=self.pot,
            balances=balances,
            reshuffle=reshuffle,
        )
        begin = getattr(agents, "begin", None)
        if begin is not None:
            begin(state)
        # Decisions and the draw (R-DECIDE … R-RESHUFFLE)
        rules.decisions(state, agents, rules)
        active = state.active
        extra = rules.ante.play_ante(table.ante)
        if extra:
            for s in active:
                balances[s] -= extra
            self.pot += extra * len(active)
            state.pot = self.pot
        P = state.pot_at_stake = self.pot
        hands_after = [list(hd) for hd in hands] if record else []
        forfeits: set[int] = set()
        reneges: list[int] = []
        plays: list[PlayLog] = []
        won = state.won
        sole = len(active) == 1
        if sole:  # R-SOLE
            won[active[0]] = h
        else:
            self._tricks(state, agents, forfeits, reneges, plays if record else None)
        # Payout
        outcome = rules.payout(
            PlayResult(n, P, active, won, forfeits, reneges, sole), rules.penalty
        )
        for s in range(n):
            balances[s] += outcome.takes[s] - outcome.paid[s]
        self.pot = outcome.pot_after
        self.previous = outcome
        marks = self.marks
        for s in forfeits:
            marks[s] = True
        for s in premature:
            marks[s] = True
        return HandResult(
            self.number, dealer, state, outcome, list(balances), antes, hands_after, plays
        )

    def _tricks(
        self,
        state: HandState,
        agents: Agents,
        forfeits: set[int],
        reneges: list[int],
        plays: list[PlayLog] | None,
    ) -> None:
        """The five tricks (R-LEAD, R-FOLLOW … R-CINCH-LAST, R-TRICK, R-RENEGE,
        R-CORRECTED).  The hot loop: only plain calls to resolved components."""
        rules = self.rules
        follow, cinch, winner_of = rules.follow, rules.cinch, rules.trick_winner
        use_cinch = cinch.enabled
        has_cinch, narrow = cinch.has_cinch, cinch.narrow
        hands, won, known, trump = state.hands, state.won, state.known, state.trump
        active = state.active
        orders = {s: active[i:] + active[:i] for i, s in enumerate(active)}
        # Tricks each seat must win before a cinch is possible: no need to ask before.
        cinch_from = None
        if use_cinch:
            cinch_from = [0] * len(hands)
            for s in active:
                cinch_from[s] = cinch.min_won(hands[s], trump)
        leader = active[0]  # R-LEAD
        play = agents.play
        tricks = state.tricks
        played = 0
        for _ in range(rules.hand_size):
            seats = orders[leader]
            last_seat = seats[-1]
            trick: list[int] = []
            state.trick = trick
            state.trick_seats = seats  # the first len(trick) have played
            state.leader = leader
            for s in seats:
                hand = hands[s]
                legal = follow(hand, trick, trump)
                has = False
                if cinch_from is not None and won[s] >= cinch_from[s]:
                    kn = played | known[s]
                    if has_cinch(hand, trump, kn, won[s]):
                        has = True
                        state.cinch_plays += 1
                        legal = narrow(legal, hand, trick, trump, kn, s == last_seat)
                card, corrected_to = play(state, s, legal, has)
                if card in legal and corrected_to is None:
                    hand.remove(card)
                    trick.append(card)
                    played |= 1 << card
                    state.played = played
                    if plays is not None:
                        plays.append(PlayLog(s, card, tuple(legal), has, False, False))
                    continue
                # An illegal card, or a correction: refereed (R-RENEGE, R-CORRECTED).
                renege = corrected = False
                first = None
                if card not in hand:
                    raise RuleViolation("R-DEAL", f"seat {s} does not hold {card_str(card)}")
                if card in legal:
                    raise RuleViolation(
                        "R-CORRECTED",
                        f"{card_str(card)} was legal: correcting a legal card is impossible",
                    )
                forfeits.add(s)
                if corrected_to is not None:
                    if corrected_to == card:
                        raise RuleViolation(
                            "R-CORRECTED",
                            f"a correction must name another card than {card_str(card)}",
                        )
                    if corrected_to not in hand:
                        raise RuleViolation(
                            "R-CORRECTED", f"seat {s} does not hold {card_str(corrected_to)}"
                        )
                    first, card, corrected = card, corrected_to, True
                    renege = card not in legal
                else:
                    renege = True
                if renege:
                    reneges.append(s)
                hand.remove(card)
                trick.append(card)
                played |= 1 << card
                state.played = played
                if plays is not None:
                    plays.append(PlayLog(s, card, tuple(legal), has, renege, corrected, first))
            w = seats[winner_of(trick, trump)]
            won[w] += 1
            tricks.append(_new(TrickLog, (leader, tuple(zip(seats, trick)), w)))  # noqa: B905
            leader = w
        state.trick = []
        state.trick_seats = []

    def settle(self) -> tuple[list[Amount], list[int]]:
        """End the session (R-SETTLE): the pot left is shared equally, exactly."""
        return self.rules.settle(list(self.balances), self.pot)
