"""The equilibrium chart of a house (:func:`equilibrium_chart`, ``bourre chart HOUSE
--equilibrium``): play or pass (R-DECIDE) for each hand class of the strategy chart
(:func:`bourre.advice.chart.hand_classes`), each place from the dealer and each number
of seats already in, such that when every seat decides by the chart (and exchanges and
plays its cards as the heuristic bot) no seat gains much by deciding otherwise.

The method is fictitious play (Brown 1951) over this decision abstraction, its best
responses estimated by simulation as in fictitious self-play (Heinrich, Lanctot and
Silver 2015): the first chart is the best response to the heuristic bot's decisions;
each round deals fresh random hands in which every seat decides by the chart so far,
finds for each cell whether playing or passing earns more (every seat's decision in
every deal is played out both ways on the compiled kernel, the later seats deciding by
the chart, on the same cards), and the next chart is the average of all the best
responses so far (a cell's figure is the share of hands of the cell it plays).  Plain
iterated best response can cycle in such games (one seat entering more makes another
enter less); the average settles.

The exploitability is measured on deals the chart never saw: a best response to the
final chart is found on one fresh seed and its gain over playing the chart measured on
another, per seat and per cell, each with its 95% range.

The deals are played out on the kernel's worlds (:func:`bourre.kernel.rollouts.
heuristic_outcomes` with the decision table), so the chart plays every house those
worlds play (issue 41): the built-in rules, and a house whose plugin rules are among
:data:`HOOKS`, which the kernel asks through Python as the Python rules ask them: a
penalty (R-BOURRE) or a payout (R-WIN, R-SOLE) at the end of every played-out hand, a
lead (R-LEAD) at every trick's start, a follow rule (R-FOLLOW, R-TRUMP, R-DISCARD) and a
cinch (R-SURE … R-CINCH-LAST) for every card played, a trick winner (R-TRICK) at every
trick's end and, as the heuristic bot asks it, for every card it weighs; the decisions
(R-DECIDE) and the draw (R-DRAW) at every decision and exchange, on the hand's run (the
chart chooses a seat's play or pass, the plugin judges it); an ante's first pot as the
deals' stake (R-FIRST-POT) and its play ante when the tricks start (R-DOUBLE-ANTE); a
next dealer and a settlement never (a deal is one hand, never settled).  The seats
already in are those the seat sees (R-DECIDE: none before a simultaneous reveal).  A
plugin's deal is refused, naming it; so is a house whose plugin answers what the kernel
does not hold (an amount not a whole number of its units, a follow rule's or a cinch's
cards out of the hand's order, decisions in another order than one seat at a time from
the dealer's left: the chart has no Python path, and a rounded amount would be a wrong
chart).
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bourre.advice.chart import ChartError, HandClass, _load, hand_classes
from bourre.advice.deals import Estimate, first_pot, interval
from bourre.game import Game
from bourre.game.actions import PASS, PLAY, Deck
from bourre.game.botmaking import make_bot
from bourre.game.players import _answer, ask
from bourre.game.state import State
from bourre.game.tablesteps import set_hand
from bourre.houses.house import House
from bourre.kernel import can_play, python_hooks
from bourre.kernel.hooks import MONEY_HOOKS, SESSION_HOOKS, asked_words
from bourre.kernel.rollouts import _BUILT, _CHARTS, ADVICE_HOOKS, heuristic_outcomes
from bourre.rules.hookspec import (
    ANTE,
    CINCH,
    DECISIONS,
    DRAW,
    FOLLOW,
    LEAD,
    NEXT_DEALER,
    PENALTY,
    SETTLE,
    TRICK_WINNER,
)

__all__ = [
    "HOOKS",
    "METHOD",
    "ChartBot",
    "EquilibriumChart",
    "Exploitability",
    "Strategy",
    "cached_equilibrium",
    "equilibrium_chart",
]

METHOD = "fictitious-play-2"
"""The method's version: a cached chart made by another version is made again (2: the
seats already in are those a seat sees, which a simultaneous reveal hides)."""

CELLS_SHOWN = 3
"""Cells named under the chart where a best reply gains most (``--json``: every cell)."""

RARE = 20
"""A cell met fewer times than this over the rounds is shown with a ``?``: a guess."""

ROUNDS = 12
"""Rounds of fictitious play by default."""

DEALS = 4000
"""Deals a round by default (every seat decides in each: about ``players`` decisions)."""

CHECK = 10_000
"""Deals by default for each half of the exploitability check (find, then measure)."""

HOOKS = ADVICE_HOOKS
"""The plugin hooks a house may answer for the chart's deals, and when they are asked
through Python: a penalty and a payout, at each played-out hand's end, a lead, at every
trick's start, a follow rule and a cinch, for every card played, a trick winner, at every
trick's end and for every card the heuristic bot weighs (:data:`~bourre.kernel.rollouts.
LOAD_HOOKS`); the decisions and the draw, at every decision and exchange (R-DECIDE,
R-DRAW: the hand's run, :data:`~bourre.kernel.hooks.SESSION_HOOKS`; the chart chooses a
seat's play or pass, the plugin judges it); an ante, whose play ante is asked when the
tricks start (R-DOUBLE-ANTE) and whose first pot is the deals' stake (R-FIRST-POT), and a
next dealer and a settlement, never asked (a deal is one hand, never settled:
:data:`~bourre.kernel.rollouts.ONE_HAND_HOOKS`).  Its deals are the kernel's worlds loaded
from a Python state (``_deal`` → :func:`~bourre.kernel.rollouts.heuristic_outcomes` →
``load_world``, ``set_chart``, ``rollout_outcomes``): the hooks advice's batches ask too,
:data:`~bourre.kernel.rollouts.ADVICE_HOOKS`."""

AGAINST_HEURISTIC = "against heuristic opponents"
AGAINST_EQUILIBRIUM = "against players who all play the equilibrium chart"

Table = list[list[list[float]]]
"""``table[row][place - 1][seats already in]``: the share of hands played."""


_ROWS: dict[tuple[tuple[HandClass, ...], tuple[int, int, int, int]], int] = {}
"""The row of each hand shape, by the rows of a chart."""


@dataclass(frozen=True)
class Strategy:
    """Decisions by the chart: ``table`` (see :data:`Table`) for the rows ``classes``;
    ``None``: the heuristic bot decides."""

    classes: tuple[HandClass, ...]
    table: tuple[tuple[tuple[float, ...], ...], ...] | None

    def row(self, hand: Sequence[int], trump: int) -> int:
        """The row of ``hand`` (the classes cover every hand, R-DEAL): found once for
        each shape (trumps held, the top trump, side aces and kings)."""
        ranks = [c % 13 for c in hand if c // 13 == trump]
        side = [c % 13 for c in hand if c // 13 != trump]
        shape = (len(ranks), max(ranks, default=-1), side.count(12), side.count(11))
        got = _ROWS.get((self.classes, shape))
        if got is None:
            t, high, aces, kings = shape
            like = [trump * 13 + high] if t else []
            like += [trump * 13 + r for r in range(high) if r != high][: max(0, t - 1)]
            other = [(trump + 1 + i) % 4 for i in range(3)]
            like += [s * 13 + 12 for s in other[:aces]] + [s * 13 + 11 for s in other[:kings]]
            for i, c in enumerate(self.classes):
                if c.matches(like, trump):
                    got = i
                    break
            else:
                raise ChartError("hands", f"no row of the chart holds the hand {sorted(hand)}")
            _ROWS[(self.classes, shape)] = got
        return got

    def share(self, row: int, place: int, k: int) -> float:
        assert self.table is not None
        return self.table[row][place - 1][k]

    def kernel_table(
        self, hands: Sequence[Sequence[int]], trump: int, dealer: int, rng: random.Random
    ) -> list[list[int]]:
        """The kernel's decision table for one deal (``hands`` by seat): each seat's
        pass (1) or play (2) by the seats already in, a mixed cell drawn from ``rng``
        (R-DECIDE); all 0 (the heuristic) when the heuristic decides."""
        n = len(hands)
        if self.table is None:
            return [[0] * n for _ in range(n)]
        out = []
        for s in range(n):
            place = (s - dealer) % n or n
            row = self.row(hands[s], trump)
            out.append(
                [
                    2 if k < place and rng.random() < self.share(row, place, k) else 1
                    for k in range(n)
                ]
            )
        return out


class ChartBot:
    """A player that decides by a :class:`Strategy` (R-DECIDE: its hand's row, its place
    from the dealer, the seats already in; a mixed cell drawn from ``rng``) and
    exchanges and plays as ``bot`` (the heuristic)."""

    def __init__(self, strategy: Strategy, bot: Any, rng: random.Random) -> None:
        self.strategy, self.bot, self.rng = strategy, bot, rng

    def act(self, view: Any) -> Any:
        if view.phase != "decide" or view.forced is not None or self.strategy.table is None:
            return _answer(self.bot, view)
        place = (view.seat - view.dealer) % view.players or view.players
        k = sum(1 for d in view.decisions if d.play)
        if k >= place:  # (a plugin's decisions in another order: no cell of the chart)
            return _answer(self.bot, view)
        share = self.strategy.share(self.strategy.row(view.hand, view.trump), place, k)
        return PLAY if self.rng.random() < share else PASS


@dataclass(frozen=True)
class _Point:
    """One seat's decision in one deal: its cell, the chips playing minus passing
    (from the decision on, the same cards both ways) and the share the strategy plays."""

    row: int
    place: int
    k: int
    delta: float
    share: float


def _deal(game: Game, strategy: Strategy, bot: Any, rng: random.Random, stake: Any) -> list[_Point]:
    """One random deal decided by ``strategy`` at every seat (R-DECIDE), each seat's
    decision played out both ways on the kernel."""
    n = game.players
    state = game.new_hand(dealer=0, engine="python")
    assert isinstance(state, State)
    set_hand(state, dealer=0, pot=stake)
    deck = list(range(52))
    rng.shuffle(deck)
    state.apply_chance(Deck(tuple(deck)))
    trump = state.hand.upcard // 13
    rows = [strategy.row(state.cards_of(s), trump) for s in range(n)]
    if strategy.table is None:
        table = [[0] * n for _ in range(n)]
    else:
        table = [
            [
                2
                if k < (s % n or n) and rng.random() < strategy.share(rows[s], s % n or n, k)
                else 1
                for k in range(n)
            ]
            for s in range(n)
        ]
    points: list[_Point] = []
    while not state.is_terminal() and state.phase_name in ("decide", "exchange"):
        s = state.current_player()
        if state.phase_name != "decide":
            state.apply_action(ask(state, bot))
            continue
        place = s % n or n
        view = state.observation(s)
        k = sum(1 for d in view.decisions if d.play)  # (the seats it sees in, R-DECIDE)
        if k >= place:  # (a plugin's decisions in another order than the dealer's left first)
            raise ChartError("equilibrium", _out_of_turn(game.house, s, k))
        mine = ask(state, bot) if strategy.table is None else PLAY if table[s][k] == 2 else PASS
        if view.forced is None:
            got = heuristic_outcomes(state, [PLAY, PASS], s, rng, chart=table)
            if got is None:
                raise ChartError("equilibrium", _unheld(game.house))
            share = float(mine == PLAY)
            if strategy.table is not None:
                share = strategy.share(rows[s], place, k)
            points.append(_Point(rows[s], place, k, got[0].chips - got[1].chips, share))
        else:
            mine = PLAY
        state.apply_action(mine)
    return points


def _unheld(house: House) -> str:
    """Why the kernel did not play a deal of the chart (its gate let the house in): a
    plugin's amount it does not hold, its follow rule's or cinch's cards out of the
    hand's order, its decisions' or draw's turn out of the order the kernel plays, or,
    for a built-in house, a deal it does not play."""
    asked = python_hooks(house)
    if not asked:
        return "the kernel does not play a deal of this house"
    cards = [x for x in asked if _hook(x) in _CARD_RULES]
    money = [x for x in asked if _hook(x) in MONEY_HOOKS]
    turns = [x for x in asked if _hook(x) in SESSION_HOOKS]
    if not cards and not turns:
        return (
            f"{asked_words(money or asked)} answered an amount that is not a whole number of"
            " the kernel's chips in a played-out hand (R-BOURRE, R-WIN): the equilibrium chart"
            " is worked out on the kernel only and would be wrong with the amount rounded;"
            " the strategy chart (without --equilibrium) plays this house on the Python rules"
        )
    what = []
    if cards:
        what.append(
            f"legal cards out of the hand's order ({', '.join(_CARD_RULES[_hook(x)] for x in cards)})"
        )
    if turns:
        what.append(
            "a turn to decide or exchange out of the order the kernel plays (one seat at a"
            " time from the dealer's left, R-DECIDE, R-DRAW)"
        )
    if money:
        what.append("an amount that is not a whole number of its chips (R-BOURRE, R-WIN)")
    return (
        f"{asked_words(cards + turns + money)} answered what the kernel does not hold in a"
        f" played-out hand: {' or '.join(what)}; the equilibrium chart is worked out on the"
        " kernel only and would be wrong with another order or a rounded amount; the"
        " strategy chart (without --equilibrium) plays this house on the Python rules"
    )


def _out_of_turn(house: House, seat: int, k: int) -> str:
    """Why a deal of the chart stopped: a plugin's decisions let ``seat`` decide with
    ``k`` seats already in, more than decide before its place from the dealer's left."""
    turns = [x for x in python_hooks(house) if _hook(x) in SESSION_HOOKS]
    n = house.table.players
    place = seat % n or n
    return (
        f"{asked_words(turns) or 'the decisions'} let the seat at place {place} from the dealer"
        f" decide with {k} seat(s) already in, where only {place - 1} decide before it from"
        " the dealer's left: the chart's cells are a hand, a place and the seats already in"
        " before it (R-DECIDE); the strategy chart (without --equilibrium) plays this house"
    )


_CARD_RULES = {FOLLOW.name: "R-FOLLOW", CINCH.name: "R-SURE"}
"""The plugin's rules asked for every card played (their legal cards: a follow rule, a
cinch), and the rule each answers."""


def _hook(asked: str) -> str:
    """The hook of ``"variant (hook)"``."""
    return asked[:-1].split(" (", 1)[-1]


def _refusal(house: House) -> str | None:
    """Why the equilibrium chart cannot be worked out for ``house`` (``None``: it can),
    naming a plugin's rule its deals do not ask (a deal: any other is :data:`HOOKS`)."""
    if not _BUILT:
        return "the equilibrium chart is worked out on the compiled kernel, which is not built"
    why = can_play(house, "heuristic", hooks=HOOKS)
    if why is None:
        if not _CHARTS:
            return (
                "the kernel is older than this module (build it again: python setup.py"
                " build_ext --inplace)"
            )
        return None
    return (  # (a plugin's deal, R-DEAL, or a house the kernel cannot play at all)
        "the equilibrium chart is worked out on the compiled kernel only (which asks a"
        " plugin for its decisions, its draw, its ante, its lead, its follow rule, its"
        " cinch, its trick winner, its penalty or its payout), and it cannot play this"
        f" house: {why}; the strategy chart (without --equilibrium) plays this house"
    )


def _asked_line(asked: Sequence[str]) -> str:
    """What a chart of a house with a plugin's rule says of it, in a player's words: who
    is asked what, and when (the decisions at every decision, the draw at every exchange,
    an ante when the tricks start, a lead at every trick's start, a follow rule or a cinch
    for every card played, a trick winner for every trick and every card the heuristic
    bot weighs, a money rule once for each different result of a hand; a next dealer and
    a settlement never: each deal is one hand)."""
    of = {h: [x for x in asked if _hook(x) == h] for h in _ASKED_ORDER}
    never = [x for x in asked if _hook(x) in (NEXT_DEALER.name, SETTLE.name)]
    money = [x for x in asked if _hook(x) in MONEY_HOOKS]
    parts = [f"{asked_words(of[h])}{when}" for h, when in _ASKED_ORDER.items() if of[h]]
    if money:
        when = [
            "when someone is bourré"
            if x.endswith(f"({PENALTY.name})")
            else "at the end of every hand played out"
            for x in money
        ]
        parts.append(f"{asked_words(money)} {' and '.join(dict.fromkeys(when))}")
    plugins = "plugins" if len({x.split(" (", 1)[0] for x in asked}) > 1 else "plugin"
    line = (
        f"Played out on the compiled kernel, which asks the {plugins} for"
        f" {' and for '.join(parts)}"
        f"{' (once for each different result of a hand)' if money else ''}."
        if parts
        else "Played out on the compiled kernel."
    )
    if never:
        line += f" Never {' nor '.join(asked_words([x]) for x in never)}: each deal is one hand."
    return line


_ASKED_ORDER = {
    DECISIONS.name: " at every decision",
    DRAW.name: " at every exchange",
    ANTE.name: " for the first pot and when the tricks start",
    LEAD.name: " at every trick's start",
    FOLLOW.name: " rule for every card played",
    CINCH.name: " for every card played",
    TRICK_WINNER.name: " for every trick and for every card a player weighs",
}
"""The plugin's rules a chart asks during a hand, in the order a hand asks them, and
when (a money rule: at the hand's end, :func:`_asked_line`)."""


def _sample(
    game: Game, strategy: Strategy, deals: int, seed: str, progress: Callable[[], None] | None
) -> list[list[_Point]]:
    bot = make_bot("heuristic", random.Random(seed), house=game.house)
    stake = first_pot(game.house)  # (R-FIRST-POT)
    out = []
    for i in range(deals):
        out.append(_deal(game, strategy, bot, random.Random(f"{seed}/{i}"), stake))
        if progress is not None:
            progress()
    return out


def _cells(n: int, classes: int) -> list[tuple[int, int, int]]:
    return [(r, p, k) for r in range(classes) for p in range(1, n + 1) for k in range(p)]


def _seen(sampled: list[list[_Point]], into: dict[tuple[int, int, int], int]) -> None:
    for deal in sampled:
        for p in deal:
            into[(p.row, p.place, p.k)] = into.get((p.row, p.place, p.k), 0) + 1


def _best(sampled: list[list[_Point]], n: int, classes: int, fallback: Strategy) -> Table:
    """The best response to the strategy that made ``sampled``: play in a cell where
    playing earned more on its hands; a cell never met keeps ``fallback``'s choice
    (the heuristic's, pass)."""
    total: dict[tuple[int, int, int], float] = {}
    for deal in sampled:
        for pt in deal:
            key = (pt.row, pt.place, pt.k)
            total[key] = total.get(key, 0.0) + pt.delta
    out: Table = [[[0.0] * place for place in range(1, n + 1)] for _ in range(classes)]
    for r, place, k in _cells(n, classes):
        if (r, place, k) in total:
            out[r][place - 1][k] = 1.0 if total[(r, place, k)] > 0 else 0.0
        elif fallback.table is not None:
            out[r][place - 1][k] = round(fallback.share(r, place, k))
    return out


def _frozen(classes: tuple[HandClass, ...], t: Table) -> Strategy:
    return Strategy(classes, tuple(tuple(tuple(x) for x in place) for place in t))


@dataclass(frozen=True)
class Exploitability:
    """What a best response to a chart gains over playing it, per hand, measured on
    deals neither saw: ``seats[place - 1]`` each seat's gain per hand with its 95% range,
    ``worst`` the largest, ``cells`` each cell's share of it (per hand) and the gain
    when holding such a hand."""

    seats: tuple[Estimate, ...]
    cells: dict[tuple[int, int, int], tuple[Estimate, Estimate, int]]
    deals: int
    seed: int

    @property
    def worst(self) -> Estimate:
        return max(self.seats, key=lambda e: e.mean)

    def as_dict(self, classes: Sequence[HandClass]) -> dict[str, Any]:
        def est(e: Estimate) -> dict[str, float]:
            return {"mean": e.mean, "low": e.low, "high": e.high}

        return {
            "deals": self.deals,
            "seed": self.seed,
            "worst_seat": est(self.worst),
            "seats": [est(e) for e in self.seats],
            "cells": [
                {
                    "hand": classes[r].label,
                    "place": p,
                    "seats_in": k,
                    "per_hand": est(a),
                    "when_held": est(b),
                    "hands": m,
                }
                for (r, p, k), (a, b, m) in sorted(self.cells.items())
            ],
        }


def exploitability(
    house: House,
    strategy: Strategy,
    deals: int,
    seed: int,
    progress: Callable[[], None] | None = None,
) -> Exploitability:
    """The gain of a best response to ``strategy``: found on ``deals`` deals of seed
    ``seed``/find, measured on ``deals`` others (``seed``/measure), per hand."""
    game = Game(house, engine="python")
    n = game.players
    classes = len(strategy.classes)
    br = _best(_sample(game, strategy, deals, f"x{seed}/find", progress), n, classes, strategy)
    measured = _sample(game, strategy, deals, f"x{seed}/measure", progress)
    per_seat: list[list[float]] = [[0.0] * deals for _ in range(n)]
    per_cell: dict[tuple[int, int, int], list[float]] = {}
    for i, deal in enumerate(measured):
        for p in deal:
            g = (br[p.row][p.place - 1][p.k] - p.share) * p.delta
            per_seat[p.place - 1][i] += g
            per_cell.setdefault((p.row, p.place, p.k), []).append(g)
    cells = {
        key: (interval(gs + [0.0] * (deals - len(gs))), interval(gs), len(gs))
        for key, gs in per_cell.items()
    }
    return Exploitability(tuple(interval(s) for s in per_seat), cells, deals, seed)


@dataclass(frozen=True)
class EquilibriumChart:
    """The equilibrium chart of ``house``: ``strategy`` (the share of hands played per
    cell), how it was made (``rounds`` of ``deals`` each from ``seed``, ``seconds`` of
    work), its ``exploitability`` and that of the heuristic's chart (``start``)."""

    house: str
    players: int
    size: int
    strategy: Strategy
    rounds: int
    deals: int
    seed: int
    seconds: float
    exploitability: Exploitability | None
    start: Exploitability | None = None
    method: str = METHOD
    against: str = AGAINST_EQUILIBRIUM
    seen: tuple[tuple[tuple[int, int, int], int], ...] = ()
    """How many decisions of each cell the rounds met (a cell never met: no choice
    there, R-LAST-STANDS, R-ACE-UP, or too rare a hand)."""
    asked: tuple[str, ...] = ()
    """The plugin's rules the kernel asked through Python (``"split-pot (bourre_payout)"``,
    ``"suit-only (bourre_follow)"``: a house whose only plugin rules are a penalty, a
    payout, a lead, a follow rule, a cinch or a trick winner, :data:`HOOKS`); none for a
    built-in house."""

    def met(self, row: int, place: int, k: int) -> int:
        return dict(self.seen).get((row, place, k), 0)

    def decision(self, row: int, place: int, k: int) -> str:
        """``"play"``, ``"pass"`` or ``"play 40%"`` (a mixed cell: play that share)."""
        x = self.strategy.share(row, place, k)
        if x >= 0.9:
            return "play"
        if x <= 0.1:
            return "pass"
        return f"play {100 * x:.0f}%"

    def lines(self) -> list[str]:
        """The chart as text: a row a hand class, a column a place and seats in."""
        n = self.players
        heads = [f"{p}:{k}in" for p in range(1, n + 1) for k in range(p)]
        w = max(len(c.label) for c in self.strategy.classes)
        out = [
            f"Equilibrium chart of {self.house}: {n} players, {self.size} cards, the first"
            f" pot; {self.against}.",
        ]
        if self.asked:
            out.append(_asked_line(self.asked))
        out += [
            "Columns: the place from the dealer (1 is the dealer's left, "
            f"{n} the dealer) : how many seats before you are already in.",
            " " * w + "  " + " ".join(f"{h:>8}" for h in heads),
        ]
        for r, c in enumerate(self.strategy.classes):
            cells = []
            for p in range(1, n + 1):
                for k in range(p):
                    if not c.possible(self.size, p == n):
                        cells.append("—")
                    elif not self.met(r, p, k):
                        cells.append("·")
                    elif self.met(r, p, k) < RARE:
                        cells.append(self.decision(r, p, k).replace("play ", "") + "?")
                    else:
                        cells.append(self.decision(r, p, k).replace("play ", ""))
            out.append(f"{c.label:<{w}}  " + " ".join(f"{x:>8}" for x in cells))
        out.append(
            f"Made by fictitious play: {self.rounds} rounds of {self.deals:,} deals (seed"
            f" {self.seed}), every seat deciding by the chart so far and exchanging and"
            f" playing as the heuristic bot; {self.seconds:.0f} s of work. A percentage:"
            " play that share of such hands (the chips are the same either way, near"
            f" enough); ?: met fewer than {RARE} times in all the rounds, a guess (such a"
            " hand there is rare); · never met in the deals (no choice there, as the dealer"
            " when everyone passed, R-LAST-STANDS, or too rare a hand); — no such hand."
        )
        out += self.exploitability_lines()
        return out

    def exploitability_lines(self) -> list[str]:
        e = self.exploitability
        if e is None:
            return []
        w = e.worst
        out = [
            f"How far a player can beat it: a seat that knows this chart and answers it"
            f" at best gains {w.mean:+.3f} chips a hand ({w.low:+.3f} to {w.high:+.3f};"
            " the range holds the true figure 19 times in 20), found and measured on"
            f" {e.deals:,} + {e.deals:,} fresh deals (seed {e.seed}) the chart never saw.",
            "By place: "
            + ", ".join(
                f"{i + 1}: {s.mean:+.3f} (±{s.half_width:.3f})" for i, s in enumerate(e.seats)
            )
            + ".",
        ]
        top = sorted(e.cells.items(), key=lambda kv: -kv[1][0].mean)[:CELLS_SHOWN]
        top = [(key, v) for key, v in top if v[0].mean > 0]
        if top:
            out.append("Where the best reply gains most (a hand of the row at place:seats in):")
            out += [
                f"  {self.strategy.classes[r].label} at {p}:{k}in: {a.mean:+.3f} chips a hand"
                f" (±{a.half_width:.3f}); {b.mean:+.2f} (±{b.half_width:.2f}) when holding it,"
                f" {m:,} such hands"
                for (r, p, k), (a, b, m) in top
            ]
        if self.start is not None:
            s = self.start.worst
            out.append(
                f"The same against the heuristic bot's decisions: {s.mean:+.3f} chips a hand"
                f" ({s.low:+.3f} to {s.high:+.3f})."
            )
        return out

    def as_dict(self) -> dict[str, Any]:
        n = self.players
        return {
            "house": self.house,
            "players": n,
            "hand_size": self.size,
            "against": self.against,
            "method": self.method,
            "rounds": self.rounds,
            "deals_per_round": self.deals,
            "seed": self.seed,
            "seconds": round(self.seconds, 3),
            "asked_through_python": list(self.asked),
            "rows": [
                {
                    "hand": c.label,
                    "cells": [
                        {
                            "place": p,
                            "seats_in": k,
                            "play_share": self.strategy.share(r, p, k),
                            "decision": self.decision(r, p, k),
                            "decisions_met": self.met(r, p, k),
                        }
                        for p in range(1, n + 1)
                        for k in range(p)
                    ],
                }
                for r, c in enumerate(self.strategy.classes)
            ],
            "exploitability": None
            if self.exploitability is None
            else self.exploitability.as_dict(self.strategy.classes),
            "heuristic_exploitability": None
            if self.start is None
            else self.start.as_dict(self.strategy.classes),
        }


def equilibrium_chart(
    house: House | str,
    *,
    players: int | None = None,
    rounds: int = ROUNDS,
    deals: int = DEALS,
    check: int | None = CHECK,
    seed: int = 0,
    measure_start: bool = False,
    classes: Sequence[HandClass] | None = None,
    progress: Callable[[str], None] | None = None,
) -> EquilibriumChart:
    """The equilibrium chart of ``house`` (see the module): ``rounds`` rounds of
    fictitious play of ``deals`` deals each from ``seed``, then the exploitability on
    ``check`` + ``check`` fresh deals (``None``: not measured); ``measure_start``: the
    heuristic's too.  A house whose plugin rules are among :data:`HOOKS` is played too,
    the kernel asking the plugin (``asked``).  Raises :class:`ChartError` naming the
    option and the rule: ``"equilibrium"`` for a house the kernel's deals do not play (a
    plugin's deal, named) or whose plugin answers what the kernel does not hold (an
    amount, a follow rule's or a cinch's order, decisions in another order)."""
    h = _load(house, players, "house")
    for name, v, top in (("rounds", rounds, 1000), ("deals", deals, 100_000)):
        if not isinstance(v, int) or isinstance(v, bool) or not 1 <= v <= top:
            raise ChartError(name, f"{v} {name}: from 1 to {top:,}")
    why = _refusal(h)
    if why is not None:
        raise ChartError("equilibrium", why)
    start = time.process_time()
    game = Game(h, engine="python")
    n = game.players
    rows = tuple(classes) if classes is not None else hand_classes(game.hand_size)
    heuristic = Strategy(rows, None)

    def tick(what: str) -> Callable[[], None] | None:
        return None if progress is None else (lambda: progress(what))

    seen: dict[tuple[int, int, int], int] = {}
    # round 0: the best response to the heuristic's decisions
    got = _sample(game, heuristic, deals, f"{seed}/0", tick("round 0"))
    _seen(got, seen)
    avg = _best(got, n, len(rows), heuristic)
    strategy = _frozen(rows, avg)
    for t in range(1, rounds):
        got = _sample(game, strategy, deals, f"{seed}/{t}", tick(f"round {t}"))
        _seen(got, seen)
        br = _best(got, n, len(rows), strategy)
        for r, p, k in _cells(n, len(rows)):
            avg[r][p - 1][k] += (br[r][p - 1][k] - avg[r][p - 1][k]) / (t + 1)
        strategy = _frozen(rows, avg)
    measured = (
        None if check is None else exploitability(h, strategy, check, seed + 1, tick("check"))
    )
    before = (
        exploitability(h, heuristic, check, seed + 1, tick("check"))
        if measure_start and check is not None
        else None
    )
    return EquilibriumChart(
        house=h.spec,
        players=n,
        size=game.hand_size,
        strategy=strategy,
        rounds=rounds,
        deals=deals,
        seed=seed,
        seconds=time.process_time() - start,
        exploitability=measured,
        start=before,
        seen=tuple(sorted(seen.items())),
        asked=python_hooks(h),
    )


def cache_dir() -> Path:
    """Where equilibrium charts are kept: ``$BOURRE_CACHE_DIR``, else the user's cache
    directory (``$XDG_CACHE_HOME/bourre``, ``~/.cache/bourre``)."""
    given = os.environ.get("BOURRE_CACHE_DIR")
    if given:
        return Path(given)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "bourre"


def cache_path(house: House, rounds: int = ROUNDS, deals: int = DEALS, seed: int = 0) -> Path:
    """The file of ``house``'s equilibrium chart: keyed by the house string, the
    method's version (:data:`METHOD`) and its budget."""
    key = f"{house.spec}|{METHOD}|{rounds}|{deals}|{seed}"
    digest = hashlib.sha256(key.encode()).hexdigest()[:20]
    return cache_dir() / "equilibrium" / f"{digest}.json"


def _to_cache(got: EquilibriumChart) -> dict[str, Any]:
    assert got.strategy.table is not None
    return {
        "method": got.method,
        "house": got.house,
        "players": got.players,
        "size": got.size,
        "rounds": got.rounds,
        "deals": got.deals,
        "seed": got.seed,
        "seconds": got.seconds,
        "rows": [c.label for c in got.strategy.classes],
        "table": [[list(place) for place in row] for row in got.strategy.table],
        "seen": [[*key, m] for key, m in got.seen],
        "asked": list(got.asked),
    }


def _from_cache(d: dict[str, Any]) -> EquilibriumChart | None:
    """A cached chart, or ``None`` when it is not one this version made."""
    try:
        if d["method"] != METHOD:
            return None
        rows = hand_classes(int(d["size"]))
        if [c.label for c in rows] != list(d["rows"]):
            return None
        table: Table = [[[float(x) for x in place] for place in row] for row in d["table"]]
        return EquilibriumChart(
            house=str(d["house"]),
            players=int(d["players"]),
            size=int(d["size"]),
            strategy=_frozen(rows, table),
            rounds=int(d["rounds"]),
            deals=int(d["deals"]),
            seed=int(d["seed"]),
            seconds=float(d["seconds"]),
            exploitability=None,
            seen=tuple(((int(r), int(p), int(k)), int(m)) for r, p, k, m in d["seen"]),
            asked=tuple(str(x) for x in d.get("asked", ())),
        )
    except (KeyError, TypeError, ValueError):
        return None


def cached_equilibrium(
    house: House, notice: Callable[[str], None] | None = None
) -> EquilibriumChart:
    """``house``'s equilibrium chart at the default budget, from the cache
    (:func:`cache_path`) or made now and kept there (its exploitability is not measured:
    ``bourre chart HOUSE --equilibrium`` measures it); ``notice`` is told, before a
    chart is made, how long it takes."""
    path = cache_path(house)
    try:
        got = _from_cache(json.loads(path.read_text(encoding="utf-8")))
    except (OSError, ValueError):
        got = None
    if got is not None and got.house == house.spec:
        return got
    if notice is not None:
        notice(
            f"Working out the equilibrium chart of {house.spec} once ({ROUNDS} rounds of"
            f" {DEALS:,} deals, about a minute of work on a 5-player table); it is kept in"
            f" {path} for the next time."
        )
    got = equilibrium_chart(house, check=None)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps(_to_cache(got)), encoding="utf-8")
        tmp.replace(path)
    except OSError:
        pass  # (a cache that cannot be written: made again next time)
    return got
