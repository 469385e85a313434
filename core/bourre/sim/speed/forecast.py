"""Said before the run (issue 41): a house that plays on the Python rules (a plugin's
rule, a plugin's bot, a built-in rule edited since the kernel was built) is named before
``compare``, ``simulate``, ``sweep`` or ``chart`` starts, with what forces it and about
how long the run will take, in a card player's words:

    standard+split-pot plays on the Python rules (its bourre_payout is split-pot's, a
    plugin's): about 2 min for 1,000 sessions, against 9 s for built-in houses

The time comes from a quick timed sample: a few sessions of the house on the Python
rules, and of the built-in ``standard`` house on the kernel, played with the run's bots
on seeds of their own (never the run's), scaled to the run's sessions and workers.
The one place for this: the commands call :func:`python_path_notices` (sessions) or
:func:`why_python` (the chart, whose cells it times itself).

A house whose only plugin rules are money rules (a penalty, a payout) plays its sessions
on the kernel, which asks the plugin through Python once for each different hand result
(:mod:`bourre.kernel.hooks`); that is said too, with the time from the same sample:

    standard+split-pot plays on the compiled kernel, asking the plugin for split-pot's
    payout once for each different hand result: about 2 s for 30,000 sessions, against
    under a second for built-in houses

and so is its chart (:func:`chart_notice`: the kernel's advice deals ask the plugin's
rules the same way), its time from a quick chart of the house against one of the
built-in house (``bourre.advice.chart.extra_seconds``, which the command hands in):

    standard+three-max plays on the compiled kernel, asking the plugin for three-max's
    draw at every exchange: the chart takes about 1 min with 800 hands a cell (the
    built-in houses' chart: about 7 s)
"""

from __future__ import annotations

import time
from collections.abc import Callable, Collection, Sequence
from typing import Any

from bourre import kernel
from bourre.game.botmaking import BotSpec
from bourre.houses.house import House
from bourre.kernel.rollouts import ADVICE_HOOKS
from bourre.sim.runs.sessions import run_session

__all__ = [
    "chart_notice",
    "duration",
    "estimate",
    "python_path_notices",
    "why_python",
]

SAMPLE_SECONDS = 0.4
"""About how long the sample of a house's sessions may take."""
SAMPLE_SESSIONS = 6
"""Sessions sampled at most."""


def why_python(
    house: House,
    bots: str | Sequence[Any] = "heuristic",
    *,
    hooks: bool | Collection[str] = False,
) -> str | None:
    """``None`` when the compiled kernel plays ``house`` with ``bots``; else what forces the
    Python rules, in a player's words: the hooks a plugin answers ("its bourre_payout is
    split-pot's, a plugin's"), a built-in rule edited since the build, a plugin's bot.
    ``hooks=True``: whole sessions, where the kernel calls a plugin's money rule through
    Python (:func:`bourre.kernel.python_hooks`); hook names (the chart's deals:
    :data:`bourre.kernel.rollouts.ADVICE_HOOKS`, a penalty and a payout) accept those
    only; else (rollouts, the solver) such a rule is the Python rules'."""
    reason = kernel.can_play(house, bots, hooks=hooks)
    if reason is None:
        return None
    if not kernel.available():
        return "the compiled kernel is not built"
    plugins: dict[str, list[str]] = {}
    for hook, v in getattr(house, "answered_by", {}).items():
        if not house.is_builtin(v):
            plugins.setdefault(v.name, []).append(hook)
    if plugins:
        return "; ".join(
            f"its {' and '.join(sorted(hooks))} {'is' if len(hooks) == 1 else 'are'}"
            f" {name}'s, a plugin's"
            for name, hooks in sorted(plugins.items())
        )
    changed = kernel.stale_rules()
    edited = [m for v in house.variants for m in changed.get(v.name, [])] + changed.get("*", [])
    if edited:
        return f"its built-in rule {', '.join(sorted(set(edited)))} was edited since the build"
    return reason


def duration(seconds: float) -> str:
    """About how long, as a player says it: "about 9 s", "about 2 min", "about 1 h 20
    min", "under a second"."""
    if seconds < 1:
        return "under a second"
    if seconds < 90:
        return f"about {seconds:.0f} s"
    minutes = round(seconds / 60)
    if minutes < 90:
        return f"about {minutes} min"
    return f"about {minutes // 60} h {minutes % 60:02d} min"


def _per_session(house: House, bots: Sequence[BotSpec], engine: str) -> float:
    """Seconds a session of ``house`` takes on ``engine``, from a quick sample (a first
    session to warm up, then up to :data:`SAMPLE_SESSIONS` or :data:`SAMPLE_SECONDS`)."""
    start = time.perf_counter()
    run_session(house, bots, "forecast", 0, engine=engine)
    first = time.perf_counter() - start
    if first > SAMPLE_SECONDS:
        return first
    played, start = 0, time.perf_counter()
    while played < SAMPLE_SESSIONS and time.perf_counter() - start < SAMPLE_SECONDS:
        played += 1
        run_session(house, bots, "forecast", played, engine=engine)
    return (time.perf_counter() - start) / played


def estimate(
    house: House, bots: Sequence[BotSpec], sessions: int, workers: int, engine: str = "python"
) -> tuple[float, float | None]:
    """About how many seconds ``sessions`` of ``house`` take on ``engine`` (the Python
    rules, or the kernel calling a plugin's money rule through Python) over ``workers``,
    and (when the kernel is built) as many of the built-in ``standard`` house of the same
    table on the kernel."""
    share = max(1, min(workers, sessions))
    python = _per_session(house, bots, engine) * sessions / share
    builtin = None
    if kernel.available():
        plain = House("standard")
        if kernel.can_play(plain, list(bots)) is None:
            builtin = _per_session(plain, bots, "kernel") * sessions / share
    return python, builtin


def python_path_notices(
    houses: Sequence[House],
    bots: Sequence[BotSpec],
    sessions: int,
    workers: int,
    engine: str = "auto",
) -> list[str]:
    """One line for each house the run plays on the Python rules for its rules (a
    plugin's hook, a built-in rule edited since the build) though the kernel is asked
    (``engine`` ``auto``): what forces it and about how long it takes; and one for each
    house the kernel plays asking a plugin's money rule through Python (which rule,
    about how long).  Nothing when the
    kernel is not built (the install said so) or the bots are a plugin's (every house is
    then on the Python rules, and a plugin's bot is never run here, outside the run's
    workers)."""
    if engine != "auto" or not kernel.available():
        return []
    if kernel.can_play(House("standard"), list(bots)) is not None:
        return []  # the bots are a plugin's: every house on the Python rules (never sampled here)
    out: list[str] = []
    for house in houses:
        why = why_python(house, list(bots), hooks=True)
        if why is None:
            through = kernel.python_hooks(house)
            if through:
                out.append(_through_notice(house, through, bots, sessions, workers))
            continue
        try:
            python, builtin = estimate(house, bots, sessions, workers)
        except Exception:  # the run itself will say what is wrong with the house
            out.append(f"{house.spec} plays on the Python rules ({why})")
            continue
        against = "" if builtin is None else f", against {duration(builtin)} for built-in houses"
        out.append(
            f"{house.spec} plays on the Python rules ({why}): {duration(python)}"
            f" for {sessions:,} sessions{against}"
        )
    return out


_WHEN = {
    "payout": "once for each different hand result",
    "penalty": "when someone is bourré, once for each different pot",
    "lead": "for every trick",
    "follow": "for every card",
    "cinch": "for every card",
    "trick_winner": "for every trick",
    "ante": "at every deal",
    "next_dealer": "at every deal",
    "settle": "at the session's end",
    "decisions": "at every decision and exchange",
    "draw": "at every exchange",
}
"""When the kernel asks a plugin's rule (:mod:`bourre.kernel.hooks`), in a player's words."""


def _through_notice(
    house: House, through: Sequence[str], bots: Sequence[BotSpec], sessions: int, workers: int
) -> str:
    """The line for a house the kernel plays asking a plugin's rule through Python:
    which rule, whose, when it is asked, and about how long."""
    head = f"{house.spec} plays on the compiled kernel, asking the plugin for {_asked(through)}"
    try:
        kernel_time, builtin = estimate(house, bots, sessions, workers, engine="kernel")
    except Exception:  # the run itself will say what is wrong with the house
        return head
    against = "" if builtin is None else f", against {duration(builtin)} for built-in houses"
    return f"{head}: {duration(kernel_time)} for {sessions:,} sessions{against}"


CHART_SECONDS = 30.0
"""About how long the chart of a 5-player house takes on the Python rules with its
default hands a cell (measured: ``bourre.advice.chart.HANDS``, "about half a minute")."""
CHART_HANDS = 60
"""The Python rules' default hands a cell that :data:`CHART_SECONDS` is measured with."""
KERNEL_CHART_SECONDS = 7.0
"""About how long ``bourre chart standard`` (5 players, 800 hands a cell) takes on the
kernel (measured: 6.2 to 7.8 s of CPU at load 1 to 2.3, docs/performance.md)."""
KERNEL_CHART_HANDS = 800
"""The kernel's default hands a cell that :data:`KERNEL_CHART_SECONDS` is measured with."""


def chart_notice(
    houses: Sequence[House],
    players: int,
    hands: int | None,
    engine: str | None = None,
    extra: Callable[[House], float | None] | None = None,
) -> str | None:
    """The line ``bourre chart`` says before it starts when a house of the chart plays on
    the Python rules, or on the kernel asking a plugin's rules through Python (``None``
    when the kernel plays them all with their built-in rules, or the Python rules are
    asked for): which path, what forces it, and about how long.  ``extra(house)``: the
    seconds of CPU a plugin's rules add to the house's chart for each hand a cell, from a
    quick timed chart (``bourre.advice.chart.extra_seconds``, which the command gives:
    the chart's own rows, places and deals); ``None``, or no ``extra``: the time is not
    said."""
    if engine not in (None, "auto"):
        return None
    builtin = KERNEL_CHART_SECONDS * players / 5
    for house in houses:  # one house on the Python rules: the whole chart is
        why = why_python(house, "heuristic", hooks=ADVICE_HOOKS)
        if why is None:
            continue
        n = hands if hands is not None else CHART_HANDS
        seconds = CHART_SECONDS * players / 5 * n / CHART_HANDS * len(houses)
        return (
            f"{house.spec} plays on the Python rules ({why}): the chart takes"
            f" {duration(seconds)} with {n:,} hands a cell (the built-in houses' chart:"
            f" {duration(builtin)} with {KERNEL_CHART_HANDS})"
        )
    n = hands if hands is not None else KERNEL_CHART_HANDS
    for house in houses:
        through = kernel.python_hooks(house)
        if not through:
            continue
        head = f"{house.spec} plays on the compiled kernel, asking the plugin for {_asked(through)}"
        try:
            added = None if extra is None else extra(house)
        except Exception:  # the chart itself will say what is wrong with the house
            added = None
        if added is None:  # (a quick chart the kernel handed to the Python rules)
            return f"{head}, or on the Python rules where the kernel cannot hold its answers"
        plain = builtin * n / KERNEL_CHART_HANDS * len(houses)
        return (
            f"{head}: the chart takes {duration(plain + added * n)} with {n:,} hands a cell"
            f" (the built-in houses' chart: {duration(plain)})"
        )
    return None


def _asked(through: Sequence[str]) -> str:
    """Whose rules the kernel asks through Python, and when, in a player's words."""
    asked = []
    for x in through:  # "variant (hook)"
        name, hook = x[:-1].split(" (", 1)
        rule = hook.removeprefix("bourre_")
        words = rule.replace("_", " ")  # (next dealer, trick winner)
        asked.append(f"{name}'s {words} {_WHEN.get(rule, 'when it applies')}")
    return " and ".join(asked)
