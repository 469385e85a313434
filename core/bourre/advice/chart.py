"""The strategy chart of a house (:func:`chart`, ``bourre chart HOUSE``): for each class
of hand a card player recognises (trumps held, the top trump, side aces and kings) and
each place from the dealer, whether to play or pass at the first pot, with the chips at
stake.

A cell is the advice of :func:`bourre.advice.advise` averaged over the hands of its
class: many hands of the class are dealt at random (:meth:`HandClass.sample`, uniform
over the hands and upcards of the class), each at a whole random deal; each deal is
played out from the seat's decision passing and playing with each count of its weakest
cards thrown (:func:`bourre.advice.deals.candidates`), with the same machinery as
``advise`` (:func:`~bourre.advice.deals.seat_to_decide`,
:func:`~bourre.advice.deals.option_rows`: the kernel for a house it plays, else the
Python rules).  Playing counts the best number of cards to throw over the cell.  The
answer is *play* when the whole 95% range of the chips playing minus passing is above
0, *pass* when it is below, *close* when it holds 0.
"""

from __future__ import annotations

import itertools
import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from bourre.advice.deals import (
    AdviceError,
    Estimate,
    _with_players,
    candidates,
    exchange_rule,
    first_pot,
    interval,
    option_rows,
    seat_to_decide,
)
from bourre.game import Game
from bourre.game.botmaking import make_bot
from bourre.game.engines import choose
from bourre.houses.house import House
from bourre.kernel import can_play, python_hooks
from bourre.kernel.hooks import asked_words
from bourre.kernel.rollouts import _BUILT, ADVICE_HOOKS, decision_rows
from bourre.rules.money import Amount

__all__ = [
    "Cell",
    "Chart",
    "ChartError",
    "HandClass",
    "chart",
    "checked_options",
    "extra_seconds",
    "hand_classes",
]

MAX_HANDS = 100_000
"""The most hands one cell may ask for."""

HANDS = {"kernel": 800, "python": 60}
"""Hands a cell by default, by the engine that plays them: the chart of ``standard`` in
about 7 s of CPU on the kernel (a cell's deals one batch, :func:`_cell_batched`), about
half a minute on the Python rules, where a deal costs a hundred times more (so their
ranges are about three times wider)."""

ACE, KING = 12, 11
"""Ranks of the ace and the king (a card is suit × 13 + rank, R-DECK)."""

TRIES = 50
"""Deals drawn for a cell's first hand before it is found to leave no choice."""

QUICK_HANDS = 3
"""Hands a cell of the quick charts :func:`extra_seconds` times."""


AGAINST = "against heuristic opponents"
"""Whom the chart answers (``bourre chart HOUSE --equilibrium``: players who all play
the equilibrium chart)."""


class ChartError(AdviceError):
    """A chart that cannot be drawn: ``field`` names the option, the message the rule."""


ANY = (0, 1, 2, 3)
"""Any number of side aces, or of side kings."""


@dataclass(frozen=True)
class HandClass:
    """Hands with ``trumps`` trumps (``or_more``: at least that many), the highest of
    them ``top`` (``"A"``, ``"K"``, ``"Q-"`` the queen or lower, ``None`` any), a
    number of side aces (aces of the other suits) in ``aces`` and of side kings in
    ``kings``."""

    trumps: int
    top: str | None
    aces: tuple[int, ...]
    or_more: bool = False
    kings: tuple[int, ...] = ANY

    @property
    def label(self) -> str:
        """The row's name: ``"2 trumps: A, side ace"`` (the top trump after the colon)."""
        t = self.trumps
        if t == 0:
            words = "no trump"
        else:
            words = f"{t}{'+' if self.or_more else ''} trump{'s' if t > 1 or self.or_more else ''}"
        if self.top is not None:
            words += ": " + {"A": "A", "K": "K", "Q-": "Q or lower"}[self.top]
        side = "" if t == 0 else "side "
        if self.aces == (0,) and self.kings == (0,):
            return words + f", no {side}ace or king"
        if self.aces == (0,) and self.kings == (1, 2, 3):
            return words + (", a king, no ace" if t == 0 else ", side king, no ace")
        words += {
            (0,): f", no {side}ace",
            (1,): f", one {side}ace",
            (1, 2, 3): f", {side}ace",
            (2, 3): f", 2+ {side}aces",
        }.get(self.aces, "")
        return words

    def matches(self, hand: Sequence[int], trump: int) -> bool:
        """Whether ``hand`` is of this class when ``trump`` (a suit) is trumps."""
        ranks = [c % 13 for c in hand if c // 13 == trump]
        aces = sum(1 for c in hand if c // 13 != trump and c % 13 == ACE)
        kings = sum(1 for c in hand if c // 13 != trump and c % 13 == KING)
        t = len(ranks)
        if t != self.trumps and not (self.or_more and t > self.trumps):
            return False
        if self.top is not None:
            high = max(ranks, default=-1)
            if {"A": high != ACE, "K": high != KING, "Q-": high > KING - 1}[self.top]:
                return False
        return aces in self.aces and kings in self.kings

    def possible(self, size: int, dealer: bool) -> bool:
        """Whether a hand of ``size`` cards can be of this class (the dealer's holds
        the upcard, a trump, R-DEAL)."""
        side = size - self.trumps
        return (
            side >= 0
            and (not dealer or self.trumps > 0)
            and side >= min(self.aces) + min(self.kings)
        )

    def _sides(self, side: int) -> list[tuple[int, int, int]]:
        """The (side aces, side kings) of this class in ``side`` cards of the three other
        suits, with how many ways each is dealt (the rest from their 33 plain cards)."""
        return [
            (a, k, math.comb(3, a) * math.comb(3, k) * math.comb(33, side - a - k))
            for a in self.aces
            for k in self.kings
            if a + k <= side
        ]

    def _trump_sets(self, t: int) -> int:
        """How many sets of ``t`` trumps have this class's top."""
        if self.top == "A":
            return math.comb(12, t - 1) if t >= 1 else 0
        if self.top == "K":
            return math.comb(11, t - 1) if t >= 1 else 0
        if self.top == "Q-":
            return math.comb(11, t)
        return math.comb(13, t)

    def sample(self, rng: random.Random, size: int, dealer: bool) -> tuple[tuple[int, ...], int]:
        """A hand of ``size`` cards of this class and an upcard, uniform over the pairs
        (hand, upcard) of the class as they are dealt (R-DEAL): trumps a random suit,
        the upcard among the other trumps, or for the dealer one of its own."""
        counts, weights = _plan(self, size, dealer)
        t = rng.choices(counts, cum_weights=weights)[0]
        if self.top == "A":
            ranks = [ACE, *rng.sample(range(ACE), t - 1)]
        elif self.top == "K":
            ranks = [KING, *rng.sample(range(KING), t - 1)]
        elif self.top == "Q-":
            ranks = rng.sample(range(KING), t)
        else:
            ranks = rng.sample(range(13), t)
        side = size - t
        sides, cum = _side_plan(self, side)
        a, k = rng.choices(sides, cum_weights=cum)[0]
        trump = rng.randrange(4)
        aces, kings, plain = _OTHERS[trump]
        hand = (
            [trump * 13 + r for r in ranks]
            + rng.sample(aces, a)
            + rng.sample(kings, k)
            + rng.sample(plain, side - a - k)
        )
        if dealer:
            up = trump * 13 + rng.choice(sorted(ranks))
        else:
            up = trump * 13 + rng.choice([r for r in range(13) if r not in ranks])
        return tuple(sorted(hand)), up


_OTHERS = tuple(
    (
        [s * 13 + ACE for s in range(4) if s != trump],
        [s * 13 + KING for s in range(4) if s != trump],
        [s * 13 + r for s in range(4) if s != trump for r in range(KING)],
    )
    for trump in range(4)
)
"""For each trump suit: the side aces, the side kings and the plain cards of the other
suits, in the order :meth:`HandClass.sample` draws them from."""

_PLANS: dict[tuple[HandClass, int, bool], tuple[list[int], list[int]]] = {}
_SIDE_PLANS: dict[tuple[HandClass, int], tuple[list[tuple[int, int]], list[int]]] = {}


def _plan(cls: HandClass, size: int, dealer: bool) -> tuple[list[int], list[int]]:
    """The trump counts of ``cls`` in a hand of ``size`` and their cumulative weights (how
    many (hand, upcard) pairs hold each, R-DEAL), worked out once."""
    key = (cls, size, dealer)
    got = _PLANS.get(key)
    if got is None:
        counts = [
            t
            for t in range(cls.trumps, size + 1 if cls.or_more else cls.trumps + 1)
            if size - t >= 0
        ]
        weights = [
            cls._trump_sets(t)
            * sum(w for _, _, w in cls._sides(size - t))
            * (t if dealer else 13 - t)  # the upcard's choices
            for t in counts
        ]
        got = _PLANS[key] = (counts, list(itertools.accumulate(weights)))
    return got


def _side_plan(cls: HandClass, side: int) -> tuple[list[tuple[int, int]], list[int]]:
    """The (side aces, side kings) of ``cls`` in ``side`` cards and their cumulative
    weights (:meth:`HandClass._sides`), worked out once."""
    got = _SIDE_PLANS.get((cls, side))
    if got is None:
        sides = cls._sides(side)
        got = _SIDE_PLANS[(cls, side)] = (
            [(a, k) for a, k, _ in sides],
            list(itertools.accumulate(w for _, _, w in sides)),
        )
    return got


def hand_classes(size: int) -> tuple[HandClass, ...]:
    """The chart's rows for hands of ``size`` cards: no trump by side aces and kings
    (neither, a king but no ace, one ace, two or more aces); one and two trumps by the
    top trump (ace, king, queen or lower) and the side cards (neither ace nor king, a
    king but no ace, an ace); three trumps by the top trump; four or more."""
    none, king = (0,), (1, 2, 3)  # side kings, in hands with no side ace
    rows = [HandClass(0, None, (0,), kings=none), HandClass(0, None, (0,), kings=king)]
    rows += [HandClass(0, None, (1,)), HandClass(0, None, (2, 3))]
    for t in (1, 2):
        for top in ("A", "K", "Q-"):
            rows += [
                HandClass(t, top, (0,), kings=none),
                HandClass(t, top, (0,), kings=king),
                HandClass(t, top, (1, 2, 3)),
            ]
    rows += [HandClass(3, top, ANY) for top in ("A", "K", "Q-")]
    rows.append(HandClass(4, None, ANY, or_more=True))
    return tuple(r for r in rows if r.possible(size, dealer=False))


@dataclass(frozen=True)
class Cell:
    """One hand class at one place: ``answer`` ``"play"``, ``"pass"``, ``"close"``,
    ``"must play"`` (no deal of the kind leaves a choice: the dealer's lone trump is
    the ace turned up, R-ACE-UP; ``forced`` names the rule) or ``"none"`` (no
    such hand there: the dealer's holds a trump); ``gain`` the chips playing minus
    passing, ``play`` and ``passing`` each, ``throw`` the number of weakest cards
    thrown when playing, ``take``/``bourre`` the chances when playing."""

    answer: str
    hands: int = 0
    throw: int | None = None
    play: Estimate | None = None
    passing: Estimate | None = None
    gain: Estimate | None = None
    take: Estimate | None = None
    bourre: Estimate | None = None
    redealt: int = 0
    """Deals dealt again because the seat could not pass in them (R-ACE-UP, R-LAST-STANDS)."""
    forced: str | None = None
    """For ``"must play"``: the rule that forbids the pass in every deal tried."""

    def as_dict(self) -> dict[str, Any]:
        def est(e: Estimate | None) -> dict[str, float] | None:
            return None if e is None else {"mean": e.mean, "low": e.low, "high": e.high}

        return {
            "answer": self.answer,
            "hands": self.hands,
            "throw": self.throw,
            "gain": est(self.gain),
            "play": est(self.play),
            "pass": est(self.passing),
            "take": est(self.take),
            "bourre": est(self.bourre),
            "redealt": self.redealt,
            "forced": self.forced,
        }


@dataclass(frozen=True)
class Chart:
    """The chart of one house: ``cells[row][place - 1]`` for the rows ``classes`` and
    the places 1 (the dealer's left) … ``players`` (the dealer); ``versus`` the chart
    of the other house on the same deals (``bourre chart … --versus``)."""

    house: str
    players: int
    size: int
    pot: Amount
    limit: int
    classes: tuple[HandClass, ...]
    cells: tuple[tuple[Cell, ...], ...]
    hands: int
    seed: int
    engine: str
    why_python: str | None
    seconds: float
    versus: Chart | None = None
    deals: int = field(default=0)
    asked: tuple[str, ...] = ()
    """The plugin's rules the kernel asked through Python (``"split-pot (bourre_payout)"``:
    a house whose only plugin rules are a penalty or a payout, issue 41); none for a
    built-in house or the Python rules."""

    def changed(self, row: int, place: int) -> bool:
        """Whether the answer at ``row``, ``place`` differs from ``versus``'s."""
        if self.versus is None:
            return False
        return self.cells[row][place - 1].answer != self.versus.cells[row][place - 1].answer

    @property
    def widest(self) -> float:
        """The largest half-width of a gain's 95% range in the chart."""
        return max(
            (c.gain.half_width for r in self.cells for c in r if c.gain is not None), default=0.0
        )

    def engine_words(self) -> str:
        if self.engine == "kernel":
            if self.asked:
                return f"played by the kernel, asking {asked_words(self.asked)} through Python"
            return "played by the kernel"
        why = f" ({self.why_python})" if self.why_python else ""
        return f"played by the Python rules, card by card{why}: slower"

    def headline(self) -> str:
        """The first line: the house, the table and which engine played."""
        line = (
            f"Strategy chart of {self.house}: {self.players} players, {self.size} cards,"
            f" the first pot ({_chips(self.pot)} chips); {self.engine_words()};"
            f" {AGAINST}."
        )
        if self.versus is not None:
            line += f" Against {self.versus.house} ({self.versus.engine_words()})."
        return line

    def place_name(self, place: int) -> str:
        """A column's heading: ``"1 (dealer's left)"``, ``"2"``, …, ``"5 (dealer)"``."""
        if place == self.players:
            return f"{place} (dealer)"
        return f"{place} (dealer's left)" if place == 1 else str(place)

    def words(self, row: int, place: int, detail: bool = False) -> tuple[str, list[str]]:
        """A cell in words: ``("play +1.2", [further lines])``; the further lines give
        the range and the cards thrown (``detail``) and, for a cell that changes,
        ``versus``'s answer."""
        c = self.cells[row][place - 1]
        if c.answer == "none":
            return "—", []
        if c.answer == "must play":
            return "must play", [c.forced or ""] if detail else []
        assert c.gain is not None
        text = f"{c.answer} {_signed(c.gain.mean)}"
        lines = [f"±{c.gain.half_width:.1f}, throw {c.throw}"] if detail else []
        if self.changed(row, place):
            assert self.versus is not None
            theirs = self.versus.words(row, place, detail)[0]
            lines.append(f"vs {theirs if detail else theirs.split()[0]}")
        return text, lines

    def method(self) -> list[str]:
        """How the chart was made and how far to trust it, in plain words."""
        out = [
            f"Each cell: {self.hands:,} hands of the row's kind, dealt at random (the"
            " rest of the hand, the trump suit and the upcard at random among the deals"
            " that fit the row; the other hands and the stock at random), at the first"
            f" pot of {_chips(self.pot)} chips, the seats before you deciding as the"
            " heuristic bot would.",
            "Each deal is played out once passing and once playing with each count of"
            f" your weakest cards thrown (0 to {self.limit}: plain cards lowest first,"
            " then side kings and aces, trumps last), on the same cards; the others"
            " exchange and play as the heuristic bot, and so do you after your exchange.",
            "The figure is the chips playing minus passing, per hand, from your decision"
            " on (the antes already paid are sunk), playing with the best count over the"
            " cell.",
            "play: its whole range (it holds the true figure 19 times in 20) is above 0;"
            " pass: below 0; close: the range holds 0. The ranges are within"
            f" ±{self.widest:.2f} chips (the widest in the chart).",
            "Deals where you may not pass (the ace of trumps up for the dealer, R-ACE-UP;"
            " everyone before the dealer passed, R-LAST-STANDS) are dealt again: the chart"
            " answers when you have the choice.",
            f"Seed {self.seed}: {self.deals:,} deals"
            + (
                f" and, for {self.versus.house}, "
                + (
                    "the same hands and decks"
                    if self.versus.size == self.size
                    else f"hands of {self.versus.size} cards from the same seeds"
                )
                + f" ({self.versus.deals:,} deals)"
                if self.versus is not None
                else ""
            )
            + f" in {self.seconds + (self.versus.seconds if self.versus else 0.0):.0f} s.",
        ]
        if self.versus is not None:
            n = sum(
                self.changed(r, p)
                for r in range(len(self.classes))
                for p in range(1, self.players + 1)
            )
            out.append(
                f"Marked: the {n} cell(s) whose answer under {self.house} differs from"
                f" {self.versus.house}'s, shown under it after vs."
            )
        return out

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "house": self.house,
            "players": self.players,
            "hand_size": self.size,
            "pot": float(self.pot),
            "exchange_limit": self.limit,
            "hands_per_cell": self.hands,
            "seed": self.seed,
            "engine": self.engine,
            "against": AGAINST,
            "why_python": self.why_python,
            "asked_through_python": list(self.asked),
            "deals": self.deals,
            "seconds": round(self.seconds, 3),
            "places": list(range(1, self.players + 1)),
            "rows": [
                {
                    "hand": c.label,
                    "trumps": c.trumps,
                    "or_more": c.or_more,
                    "top": c.top,
                    "side_aces": list(c.aces),
                    "side_kings": list(c.kings),
                    "cells": [cell.as_dict() for cell in self.cells[i]],
                }
                for i, c in enumerate(self.classes)
            ],
        }
        if self.versus is not None:
            out["versus"] = self.versus.as_dict()
            out["changed"] = [
                {"row": r, "hand": self.classes[r].label, "place": p}
                for r in range(len(self.classes))
                for p in range(1, self.players + 1)
                if self.changed(r, p)
            ]
        return out


def _chips(x: Amount) -> str:
    return f"{x:g}" if isinstance(x, float) else str(x)


def _signed(x: float) -> str:
    return "0.0" if abs(x) < 0.05 else f"{x:+.1f}".replace("-", "−")


class _KernelCannot(Exception):
    """The kernel declined a deal: the whole chart again on the Python rules."""


@dataclass
class _Table:
    """One house's game, bot and engine for the chart."""

    house: House
    game: Game
    bot: Any
    engine: str
    limit: int | None = None
    deals: int = 0


def _table(house: House, seed: int, engine: str) -> _Table:
    return _Table(
        house,
        Game(house, engine="python"),
        make_bot("heuristic", random.Random(seed), house=house),
        engine,
    )


def _cell(table: _Table, cls: HandClass, row: int, place: int, hands: int, seed: int) -> Cell:
    """One cell: ``hands`` hands of ``cls`` at ``place``, each on its own deal (the
    deal ``i`` of row ``row`` is drawn from its own seed: the same cards for every
    house and, but for the dealer's upcard, every place)."""
    n, size = table.game.players, table.game.hand_size
    dealer = place == n
    if not cls.possible(size, dealer):
        return Cell("none")
    seat = place % n
    stake = first_pot(table.house)  # (R-FIRST-POT)
    if table.engine == "kernel":
        return _cell_batched(table, cls, row, place, hands, seed)
    rows: list[list[float]] = []
    takes: list[list[float]] = []
    bourres: list[list[float]] = []
    redealt = 0
    for i in range(hands):
        why: str | None = None
        for j in range(TRIES if i == 0 else 20 * TRIES):
            rng = random.Random(f"{seed}/{row}/{i}/{j}")
            mine, up = cls.sample(rng, size, dealer)
            state = seat_to_decide(table.game, stake, mine, up, seat, (), table.bot, rng)
            why = state.observation(seat).forced
            if why is None:
                break
            redealt += 1  # no choice in this deal (R-ACE-UP, R-LAST-STANDS)
        else:
            if i == 0:  # never a choice (the dealer's lone trump is the ace turned up)
                return Cell("must play", forced=why)
            raise ChartError("hands", f"no deal of {cls.label!r} leaves place {place} a choice")
        if table.limit is None:
            limit, legal = exchange_rule(state, seat, table.bot)
            if legal:  # (a deal won alone says nothing of the limit, R-SOLE)
                table.limit = limit
        opts = candidates(mine, up // 13, size if table.limit is None else table.limit, False)
        got = option_rows(state, seat, opts, None, table.bot, rng, table.engine)
        if got is None:
            raise _KernelCannot
        table.deals += 1
        rows.append([x[2] for x in got])
        takes.append([x[0] for x in got])
        bourres.append([x[1] for x in got])
    return _summed(rows, takes, bourres, hands, redealt)


def _summed(
    rows: list[list[float]],
    takes: list[list[float]],
    bourres: list[list[float]],
    hands: int,
    redealt: int,
) -> Cell:
    """A cell from its hands' chips, takes and bourrés (per hand: each count of cards
    thrown, then the pass): the best count over the cell, and the answer."""
    k = len(rows[0]) - 1
    means = [math.fsum(r[j] for r in rows) for j in range(k)]
    best = max(range(k), key=lambda j: (means[j], -j))
    gain = interval([r[best] - r[k] for r in rows])
    answer = "play" if gain.low > 0 else "pass" if gain.high < 0 else "close"
    return Cell(
        answer,
        hands=hands,
        throw=best,
        play=interval([r[best] for r in rows]),
        passing=interval([r[k] for r in rows]),
        gain=gain,
        take=interval([r[best] for r in takes]),
        bourre=interval([r[best] for r in bourres]),
        redealt=redealt,
    )


def _cell_batched(
    table: _Table, cls: HandClass, row: int, place: int, hands: int, seed: int
) -> Cell:
    """:func:`_cell` on the kernel, every hand of the cell dealt and played out in one call
    a round (:func:`bourre.kernel.rollouts.decision_rows`): hand ``i``'s cards from its own
    seed as on the Python rules, its deck shuffled on the kernel's stream of four words
    drawn from the same seed (the same hands and decks for every house and, but for the
    dealer's upcard, every place); a deal that leaves no choice is dealt again from the
    next seed, as on the Python rules."""
    n, size = table.game.players, table.game.hand_size
    dealer = place == n
    seat = place % n
    stake = first_pot(table.house)  # (R-FIRST-POT)
    tries = [0] * hands
    done: list[tuple[list[float], int, int] | None] = [None] * hands
    pending = list(range(hands))
    redealt = 0
    while pending:
        drawn = []
        for i in pending:
            rng = random.Random(f"{seed}/{row}/{i}/{tries[i]}")
            mine, up = cls.sample(rng, size, dealer)
            drawn.append((mine, up, [rng.getrandbits(32) for _ in range(4)]))
        if table.limit is None:
            table.limit = _limit(table, drawn[0][0], drawn[0][1], seat, stake)
        limit = size if table.limit is None else table.limit
        got = decision_rows(
            table.house,
            seat,
            0,
            stake,
            (),
            [m for m, _, _ in drawn],
            [u for _, u, _ in drawn],
            [w for _, _, ws in drawn for w in ws],
            [candidates(m, u // 13, limit, False) for m, u, _ in drawn],
            True,
        )
        if got is None or 3 in got.status:
            raise _KernelCannot
        left = []
        f, starts = got.flat, got.starts
        for d, (i, st) in enumerate(zip(pending, got.status, strict=True)):
            if st == 0:
                done[i] = (f, starts[d], starts[d + 1])
                continue
            redealt += 1  # no choice in this deal (R-ACE-UP, R-LAST-STANDS)
            tries[i] += 1
            if tries[i] >= (TRIES if i == 0 else 20 * TRIES):
                if i == 0:  # never a choice (the dealer's lone trump is the ace turned up)
                    return Cell("must play", forced="R-ACE-UP" if st == 1 else "R-LAST-STANDS")
                raise ChartError("hands", f"no deal of {cls.label!r} leaves place {place} a choice")
            left.append(i)
        pending = left
    table.deals += hands
    spans = [x for x in done if x is not None]
    takes = [f[a:b:3] for f, a, b in spans]
    bourres = [f[a + 1 : b : 3] for f, a, b in spans]
    rows = [f[a + 2 : b : 3] for f, a, b in spans]
    return _summed(rows, takes, bourres, hands, redealt)


def _limit(table: _Table, mine: tuple[int, ...], up: int, seat: int, stake: Amount) -> int | None:
    """How many cards a seat may exchange in this house (R-DRAW), read from one deal on
    the Python rules (``None``: that deal was won alone, R-SOLE, and says nothing)."""
    state = seat_to_decide(table.game, stake, mine, up, seat, (), table.bot, random.Random(0))
    limit, legal = exchange_rule(state, seat, table.bot)
    return limit if legal else None


def _load(house: House | str, players: int | None, field_name: str) -> House:
    try:
        h = house if isinstance(house, House) else House.from_arg(house)
    except Exception as e:  # a house that does not load: its own message
        raise ChartError(field_name, str(e)) from None
    if players is not None and players != h.table.players:
        try:
            h = House.from_arg(_with_players(h.spec, players))
        except Exception as e:
            raise ChartError("players", str(e)) from None
    return h


def checked_options(
    house: House | str,
    *,
    players: int | None = None,
    versus: House | str | None = None,
    hands: int | None = None,
    engine: str | None = None,
) -> tuple[House, House | None, str]:
    """The houses (at ``players``) and the engine asked of :func:`chart`, its options
    checked as it checks them, before any deal (a command says them before its notice of
    the time it will take); raises :class:`ChartError` naming the option and the rule."""
    h0 = _load(house, players, "house")
    h1 = None if versus is None else _load(versus, h0.table.players, "versus")
    if hands is not None and (
        not isinstance(hands, int) or isinstance(hands, bool) or not 1 <= hands <= MAX_HANDS
    ):
        raise ChartError("hands", f"{hands} hands a cell: from 1 to {MAX_HANDS:,}")
    try:
        wanted = choose(engine)
    except ValueError as e:
        raise ChartError("engine", str(e)) from None
    return h0, h1, wanted


def chart(
    house: House | str,
    *,
    players: int | None = None,
    versus: House | str | None = None,
    hands: int | None = None,
    seed: int = 0,
    engine: str | None = None,
    classes: Sequence[HandClass] | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> Chart:
    """The strategy chart of ``house`` at a table of ``players`` (default the house's):
    ``hands`` hands per cell (default :data:`HANDS` by the engine) from ``seed``; with ``versus``, that house's chart on the
    same hands and decks too (``Chart.versus``, ``Chart.changed``).  ``engine``
    ``"kernel"``, ``"python"`` or ``None``/``"auto"`` (the kernel when it can play every
    house, else the Python rules; ``BOURRE_ENGINE=python`` too).  ``classes``: the rows
    (default :func:`hand_classes` of the hand size).  ``progress(done,
    total)`` is called after each cell.  Raises :class:`ChartError` naming the option
    and the rule."""
    h0, h1, wanted = checked_options(
        house, players=players, versus=versus, hands=hands, engine=engine
    )
    houses = [h0] if h1 is None else [h0, h1]
    why: str | None = None
    if wanted == "python":
        why = "as asked"
    else:
        for h in houses:
            reason = (
                can_play(h, "heuristic", hooks=ADVICE_HOOKS)
                if _BUILT
                else "the kernel is not built"
            )
            if reason is not None:
                why = f"the kernel cannot play {h.spec}: {reason}"
                break
        if why is not None and wanted == "kernel":
            raise ChartError("engine", why)
    ran = "python" if why else "kernel"
    try:
        return _draw(houses, hands or HANDS[ran], seed, ran, why, classes, progress)
    except _KernelCannot:
        why = (
            "the kernel does not play every seat's turn of this house, or a plugin's"
            " amount is not one it holds, or its follow rule or cinch gives the legal cards"
            " out of the hand's order"
        )
        if wanted == "kernel":
            raise ChartError("engine", why) from None
        return _draw(houses, hands or HANDS["python"], seed, "python", why, classes, progress)


def extra_seconds(house: House, players: int | None = None) -> float | None:
    """About how many seconds of CPU a plugin's rules, asked through Python by the
    kernel, add to ``house``'s chart for each hand a cell: a quick chart of
    :data:`QUICK_HANDS` hands a cell of ``house`` and one of the built-in ``standard``
    house at the same table, each timed after a first quick chart that warms it (the
    same rows, places, deals dealt again and exchanges tried as the real chart's), their
    difference a hand.  ``None`` when the kernel does not play the house's chart
    (``bourre chart`` then says the Python rules' time)."""
    plain = _with_players("standard", players or house.table.players)
    times = []
    for h in (house, House(plain)):
        try:
            chart(h, players=players, hands=QUICK_HANDS, seed=1, engine="kernel")
            start = time.process_time()
            chart(h, players=players, hands=QUICK_HANDS, seed=2, engine="kernel")
        except ChartError:
            return None
        times.append(time.process_time() - start)
    return max(0.0, times[0] - times[1]) / QUICK_HANDS


def _draw(
    houses: list[House],
    hands: int,
    seed: int,
    engine: str,
    why: str | None,
    rows: Sequence[HandClass] | None,
    progress: Callable[[int, int], None] | None,
) -> Chart:
    tables = [_table(h, seed, engine) for h in houses]
    n = houses[0].table.players
    sizes = {t.game.hand_size for t in tables}
    classes = tuple(rows) if rows is not None else hand_classes(min(sizes))
    total = len(classes) * n * len(tables)
    done = 0
    cells: list[list[list[Cell]]] = [[] for _ in tables]
    clocks = [0.0 for _ in tables]
    for r, cls in enumerate(classes):
        row: list[list[Cell]] = [[] for _ in tables]
        for place in range(1, n + 1):
            for k, t in enumerate(tables):
                start = time.perf_counter()
                row[k].append(_cell(t, cls, r, place, hands, seed))
                clocks[k] += time.perf_counter() - start
                done += 1
                if progress is not None:
                    progress(done, total)
        for k in range(len(tables)):
            cells[k].append(row[k])
    charts = [
        Chart(
            house=t.house.spec,
            players=n,
            size=t.game.hand_size,
            pot=first_pot(t.house),
            limit=t.limit if t.limit is not None else t.game.hand_size,
            classes=classes,
            cells=tuple(tuple(r) for r in cells[k]),
            hands=hands,
            seed=seed,
            engine=engine,
            why_python=why,
            seconds=clocks[k],
            deals=t.deals,
            asked=python_hooks(t.house) if engine == "kernel" else (),
        )
        for k, t in enumerate(tables)
    ]
    return charts[0] if len(charts) == 1 else replace(charts[0], versus=charts[1])
