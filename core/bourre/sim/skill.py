"""Does skill pay here?  ``bourre compare --skill``: per house, the mean gain per hand
of one better bot seated among weaker ones (a ``montecarlo`` bot among ``heuristic``
ones, a ``heuristic`` bot among ``random`` ones), with 95% intervals and paired
differences against the first house.

The gain of a seat in a session is its final balance minus the table's mean final
balance (the settlement shares out what is left in the pot, so this is the seat's
final balance minus the starting one), per hand: zero on average for a bot no better
than the others.  Every deal is played ``n`` times, the bot at each seat once
(*duplicate seating*: session ``i`` plays the decks of the main run's session
``i // n`` with the bot at seat ``i % n``); a deal's gain is the mean of its ``n``
seatings, and the intervals are over deals.  The luck of the seat cancels within a
deal, which narrows the intervals (bench/variance.py; docs/comparing.md).  Every
house sees the same deals (common random numbers), so differences between houses
are paired by deal.  The figures in words, in the table's rows and in CSV
are :mod:`bourre.sim.reports.skill`.

The sessions run through :func:`bourre.sim.runs.runner.run` under state-file keys of
their own (``skill|…``), so a stopped ``--skill`` run resumes like any other.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from bourre.sim.runs.collector import for_sessions
from bourre.sim.runs.runner import RunConfig
from bourre.sim.runs.sessions import BotSpec, cached_house, parse_bots, run_session, seat_bots
from bourre.sim.stats.metrics import ci_mean

__all__ = [
    "MATCHES",
    "SKILL_BUDGET",
    "SKILL_SESSIONS",
    "Match",
    "attach",
    "compute",
    "config",
    "gains",
    "house_of",
    "run_matches",
    "session_gain",
    "skill_chunk",
]

SKILL_BUDGET = 16
"""The Monte Carlo bot's budget in ``--skill`` (rollouts per decision, its default):
about 100 hands per second per core among heuristic bots.  At 8 it is about 1.6
times as fast, but its edge over the heuristic bot is too small to see
(docs/comparing.md)."""
SKILL_SESSIONS = 500
"""Sessions per house and match in ``--skill`` (at most ``--sessions``; rounded up
to whole deals, a multiple of every table size)."""

Summary = dict[str, Any]


@dataclass(frozen=True)
class Match:
    """One ``bot`` seated among ``field`` bots."""

    bot: BotSpec
    field: BotSpec

    @property
    def label(self) -> str:
        return f"{self.bot.label} among {self.field.label}"

    def key(self, house: str) -> str:
        """The state-file key of this match in ``house``."""
        return f"skill|{self.bot.label}|{self.field.label}|{house}"


def _match(bot: str, field: str) -> Match:
    return Match(parse_bots(bot)[0], parse_bots(field)[0])


MATCHES = (
    _match(f"montecarlo(budget={SKILL_BUDGET})", "heuristic"),
    _match("heuristic", "random"),
)


def house_of(key: str) -> str:
    """The house of a state-file key made by :meth:`Match.key`."""
    parts = key.split("|", 3)
    if len(parts) != 4 or parts[0] != "skill":
        raise ValueError(f"not a skill key: {key!r}")
    return parts[3]


def lineup(match_bots: Sequence[BotSpec], players: int) -> list[BotSpec]:
    """The bot at seat 0, the field at the others (rotated by the session index)."""
    return [match_bots[0]] + [match_bots[1]] * (players - 1)


def skill_chunk(
    key: str,
    bots: Sequence[BotSpec],
    seed: str | int,
    indices: Sequence[int],
    rotate: bool = True,
    isolate: bool = False,
) -> list[Summary]:
    """Worker task (:func:`bourre.sim.runs.runner.run`'s ``task``): sessions
    ``indices`` of the match ``bots = [bot, field]`` in the house of ``key``:
    session ``i`` plays the decks of deal ``i // n`` with the bot at seat ``i % n``."""
    house = cached_house(house_of(key))
    n = house.table.players
    seats = lineup(bots, n)
    out = []
    with for_sessions():  # the collector as run_chunk has it
        for i in indices:
            s = run_session(house, seat_bots(seats, n, i % n, True), seed, i // n, False, isolate)
            s["i"] = i
            out.append(s)
    return out


def config(
    match: Match, houses: Sequence[str], sessions: int, seed: str, isolate: bool = False
) -> RunConfig:
    """The run of one match over ``houses``: ``sessions`` each, rounded up to whole
    deals of every table."""
    n = math.lcm(*(cached_house(h).table.players for h in houses))
    whole = math.ceil(sessions / n) * n
    return RunConfig(
        [match.key(h) for h in houses], whole, seed, [match.bot, match.field], True, isolate
    )


# -- statistics ----------------------------------------------------------------------------


def session_gain(s: Summary, seat: int) -> float:
    """Chips per hand won by ``seat``: its final balance minus the table's mean."""
    final = s["final"]
    return float(final[seat] - math.fsum(final) / len(final)) / max(1, int(s["hands"]))


def gains(summaries: Iterable[Summary]) -> dict[int, float]:
    """The bot's gain per deal (the mean of its ``n`` seatings, seat ``i % n`` in
    session ``i``), by deal index; deals not played at every seat are left out.
    ``summaries`` in any order (a stream: one float a session is kept)."""
    by: dict[int, list[float]] = {}
    first: tuple[int, int] | None = None  # (lowest session index, its players)
    for s in summaries:
        i, n = int(s["i"]), int(s["players"])
        by.setdefault(i // n, []).append(session_gain(s, i % n))
        if first is None or i < first[0]:
            first = i, n
    n = first[1] if first is not None else 0
    return {g: math.fsum(v) / n for g, v in sorted(by.items()) if len(v) == n}


def compute(result: Any, houses: Sequence[str], match: Match) -> dict[str, Any]:
    """One match's statistics in every house (a :class:`RunResult` of
    :func:`config`): ``gain`` (chips per hand, over deals) and ``vs_first`` (paired
    by deal)."""
    entries = []
    first: dict[int, float] | None = None
    for h in houses:
        key = match.key(h)
        g = gains(s for _, s in result.entries([key]))
        entry: dict[str, Any] = {
            "house": h,
            "sessions": result.count(key),
            "deals": len(g),
            "gain": ci_mean([g[i] for i in sorted(g)]),
            "vs_first": None,
        }
        if first is None:
            first = g
        else:
            entry["vs_first"] = ci_mean([g[i] - first[i] for i in sorted(set(first) & set(g))])
        entries.append(entry)
    return {"bot": match.bot.label, "among": match.field.label, "houses": entries}


def attach(metrics: dict[str, Any]) -> None:
    """Give each house of ``metrics`` its own figures of ``metrics["skill"]``
    (``house["skill"]``: bot, among, gain, vs_first), for the summary and the table."""
    by = {h["house"]: h for h in metrics["houses"]}
    for m in metrics.get("skill", {}).get("matches", []):
        for e in m["houses"]:
            if e["house"] in by:
                by[e["house"]].setdefault("skill", []).append(
                    {
                        "bot": m["bot"],
                        "among": m["among"],
                        "gain": e["gain"],
                        "vs_first": e["vs_first"],
                    }
                )


def run_matches(
    run_one: Callable[[RunConfig, str], Any],
    houses: Sequence[str],
    sessions: int,
    seed: str,
    isolate: bool = False,
) -> dict[str, Any]:
    """Play every match of :data:`MATCHES` over ``houses`` (``run_one(config,
    label)`` runs one with :func:`skill_chunk` and returns its
    :class:`~bourre.sim.runs.runner.RunResult`) and return ``metrics["skill"]``.
    A match that stops early stops the rest (``complete`` false, ``stopped``)."""
    out: dict[str, Any] = {
        "complete": True,
        "stopped": None,
        "sessions_planned": 0,
        "budget": SKILL_BUDGET,
        "matches": [],
    }
    for match in MATCHES:
        cfg = config(match, houses, sessions, seed, isolate)
        out["sessions_planned"] = cfg.sessions
        result = run_one(cfg, f"skill: {match.label}")
        out["matches"].append(compute(result, houses, match))
        if not result.complete:
            out["complete"], out["stopped"] = False, result.stopped
            break
    return out
