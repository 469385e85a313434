"""Where a hand's time goes on the Python rules: each rule component's share
(``bourre bench --components``).

A house's hands are played by the :class:`~bourre.game.state.State` stepping the rule
components the house resolved (:mod:`bourre.rules.hookspec`).  To say what each
component costs, sessions with random bots are played once on a copy of the house
whose components are wrapped by a :class:`_Recorder`: every call the state makes is kept
with a copy of its arguments as they were when it was made (a call made by a component
inside its own call, such as the payout asking the penalties, is left to the outer
one).  Then each component's calls are made again, on fresh copies, and timed as a
block, less the same loop calling nothing.  The deck (the session's chance: a shuffle
of 52 cards a hand) is timed alike; what remains of a whole hand is the state's own
stepping, the bots and the loop that asks them.

The rounds are interleaved (a round times the whole sessions, the deck and every
component once), and each figure is the median of the rounds, so a drift of the
machine hits them alike.  The kernel plays no components: this measures the Python
rules, the path of every house with a third-party component.
"""

from __future__ import annotations

import copy
import pickle
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from bourre.game.chance import Chance
from bourre.game.simulate import play_session
from bourre.houses.house import House, Rules
from bourre.rules.hookspec import RULE_HOOKS
from bourre.sim.runs.collector import for_sessions

__all__ = ["LEAST_HANDS", "MOST_HANDS", "Cost", "Costs", "measure"]

LEAST_HANDS = 120
"""Hands recorded at least, however slow the house."""
MOST_HANDS = 1200
"""Hands recorded at most (every call's arguments are kept, pickled: about 20 kB a hand)."""


class _Kept:
    """The arguments of a call as they were when it was made: pickled (quick to make
    again), else deep-copied (a plugin's argument that cannot be pickled)."""

    __slots__ = ("blob", "value")

    def __init__(self, args: tuple[Any, ...], kw: dict[str, Any]) -> None:
        self.blob: bytes | None = None
        self.value: tuple[tuple[Any, ...], dict[str, Any]] | None = None
        try:
            self.blob = pickle.dumps((args, kw), pickle.HIGHEST_PROTOCOL)
        except Exception:  # (what an object's own pickling raises is its own)
            self.value = copy.deepcopy((args, kw))

    def fresh(self) -> tuple[tuple[Any, ...], dict[str, Any]]:
        """A new copy of the arguments, as they were."""
        if self.blob is not None:
            return pickle.loads(self.blob)  # type: ignore[no-any-return]
        return copy.deepcopy(self.value)  # type: ignore[return-value]


Call = tuple[Callable[..., object], _Kept]


class _Log:
    """The calls recorded, per hook; ``depth`` > 0 while a recorded call runs (the calls
    it makes itself are part of it), ``on`` false while the calls are made again."""

    def __init__(self) -> None:
        self.calls: dict[str, list[Call]] = {}
        self.depth = 0
        self.on = True

    def call(
        self, hook: str, fn: Callable[..., object], args: tuple[Any, ...], kw: dict[str, Any]
    ) -> object:
        # a component handed to another (the penalties to the payout) is handed as itself
        args = tuple(a._component if isinstance(a, _Recorder) else a for a in args)
        if not self.on or self.depth:
            return fn(*args, **kw)
        kept = _Kept(args, kw)  # the arguments as they are now (a call may change them)
        self.depth += 1
        try:
            out = fn(*args, **kw)
        finally:
            self.depth -= 1
        self.calls.setdefault(hook, []).append((fn, kept))
        return out


class _Recorder:
    """A rule component as the state sees it, each call kept in the log: a function
    component is called, an object component's methods are."""

    def __init__(self, hook: str, component: Any, log: _Log) -> None:
        self._hook, self._component, self._log = hook, component, log

    def __call__(self, *args: Any, **kw: Any) -> object:
        return self._log.call(self._hook, self._component, args, kw)

    def __getattr__(self, name: str) -> Any:
        value = getattr(self._component, name)
        if not callable(value):
            return value  # a plain attribute (the decisions' announcements)
        hook, log = self._hook, self._log
        return lambda *args, **kw: log.call(hook, value, args, kw)


def _recording(house: House, log: _Log) -> House:
    """A copy of ``house`` whose components record their calls in ``log``."""
    rec = copy.copy(house)
    rec.rules = Rules(
        {
            h.name: house.rules[h] if h.value else _Recorder(h.field, house.rules[h], log)
            for h in RULE_HOOKS
        }
    )
    return rec


def _noop(*args: Any, **kw: Any) -> None:
    return None


def _timed(calls: list[Call], chunk: int = 1000) -> float:
    """Seconds to make ``calls`` again on fresh copies of their arguments, less the
    same loop calling nothing; ``chunk`` calls at a time (their copies in memory)."""
    spent = 0.0
    for i in range(0, len(calls), chunk):
        part = calls[i : i + chunk]
        fresh = [kept.fresh() for _, kept in part]
        start = time.perf_counter()
        for (fn, _), (a, k) in zip(part, fresh, strict=True):
            fn(*a, **k)
        spent += time.perf_counter() - start
        fresh = [kept.fresh() for _, kept in part]
        start = time.perf_counter()
        for (_fn, _), (a, k) in zip(part, fresh, strict=True):
            _noop(*a, **k)
        spent -= time.perf_counter() - start
    return max(spent, 0.0)


@dataclass
class Cost:
    """One line of the measure: a rule component (its hook and the variant that
    answers it), the deck, or what remains; the seconds of each round, over the hands."""

    what: str
    by: str
    calls: int
    hands: int
    rounds: list[float] = field(default_factory=list)

    @property
    def per_hand(self) -> float:
        """Microseconds a hand (the median of the rounds)."""
        return statistics.median(self.rounds) / self.hands * 1e6 if self.rounds else 0.0


@dataclass
class Costs:
    """What a hand of ``house`` costs on the Python rules, piece by piece."""

    house: str
    hands: int
    sessions: int
    whole: Cost
    deck: Cost
    components: list[Cost]
    reference: list[float] = field(default_factory=list)
    """The yardstick's hands/s in each round, when one was run."""

    @property
    def rules(self) -> float:
        """Microseconds a hand in the rule components."""
        return sum(c.per_hand for c in self.components)

    @property
    def rest(self) -> float:
        """Microseconds a hand in the state, the bots and the loop: the whole hand less
        the components and the deck."""
        return max(self.whole.per_hand - self.rules - self.deck.per_hand, 0.0)

    def lines(self) -> list[str]:
        """The report: a line per component (the costliest first), the deck, the rest,
        the whole hand; with a yardstick, the best these components allow."""
        whole = self.whole.per_hand or 1.0
        rows = [
            (f"{c.what} ({c.by})", f"{c.calls / self.hands:.1f}", c.per_hand)
            for c in sorted(self.components, key=lambda c: -c.per_hand)
        ]
        rows += [
            ("the rule components, together", "", self.rules),
            ("the deck (a shuffle a hand)", "1.0", self.deck.per_hand),
            ("the state, the bots and the loop (the rest)", "", self.rest),
            ("a whole hand", "", self.whole.per_hand),
        ]
        w = max(len(r[0]) for r in rows)
        out = [
            f"{self.house}: where a hand's time goes on the Python rules, random bots"
            f" ({self.hands:,} hands in {self.sessions} sessions; medians of"
            f" {len(self.whole.rounds)} rounds)",
            f"  {'':{w}}  calls a hand  µs a hand  share",
        ]
        for i, (label, calls, us) in enumerate(rows):
            if i == len(rows) - 4:
                out.append(f"  {'-' * (w + 32)}")
            out.append(f"  {label:{w}}  {calls:>12}  {us:9.1f}  {us / whole:5.1%}")
        if self.reference:
            ref = statistics.median(self.reference)
            with_deck = self.rules + self.deck.per_hand
            out.append(
                f"  the yardstick: {1e6 / ref:.1f} µs a hand ({ref:,.0f} hands/s); this house"
                f" plays at {1e6 / whole / ref:.3f}× it"
            )
            out.append(
                "  at best, with a state and bots that cost nothing:"
                f" {1e6 / with_deck / ref:.3f}× it with the deck,"
                f" {1e6 / max(self.rules, 1e-9) / ref:.3f}× with the rule components alone"
            )
        return out


def measure(
    house: House,
    seconds: float = 3.0,
    *,
    rounds: int = 5,
    reference: Callable[[float], float] | None = None,
) -> Costs:
    """What a hand of ``house`` costs, rule component by rule component, over
    ``rounds`` interleaved rounds: as many whole sessions (random bots) as take about
    ``seconds / rounds`` to play (from :data:`LEAST_HANDS` to :data:`MOST_HANDS` hands)
    are recorded once, then timed in each
    round with the deck and every component's calls; ``reference(seconds)``, if given,
    runs a yardstick for ``seconds / rounds`` in each round and returns its hands/s."""
    per = max(seconds / rounds, 0.02)
    start = time.perf_counter()
    play_session(house, seed="components:warm-up", keep_hands=False)
    one = time.perf_counter() - start
    hands = house.table.hands
    most = max(MOST_HANDS // hands, 1)  # the recorded arguments are kept in memory
    sessions = min(max(round(per / max(one, 1e-6)), -(-LEAST_HANDS // hands)), most)
    log = _Log()
    rec = _recording(house, log)
    for s in range(sessions):
        play_session(rec, seed=f"components:{s}", keep_hands=False)
    log.on = False  # the recorded calls are made again below, unrecorded
    played = sessions * hands
    by = {h.field: house.answered_by[h.name].name for h in RULE_HOOKS if not h.value}
    comps = [Cost(hook, by[hook], len(calls), played) for hook, calls in log.calls.items()]
    whole = Cost("a whole hand", "", played, played)
    deck = Cost("the deck", "", played, played)
    ref: list[float] = []
    with for_sessions():  # the collector as bourre bench's and compare's sessions have it
        for _ in range(rounds):
            if reference is not None:
                ref.append(reference(per))
            start = time.perf_counter()
            for s in range(sessions):
                play_session(house, seed=f"components:{s}", keep_hands=False)
            whole.rounds.append(time.perf_counter() - start)
            start = time.perf_counter()
            for s in range(sessions):
                chance = Chance(f"components:{s}")  # the sessions' own decks
                for _ in range(hands):
                    chance.deck()
            deck.rounds.append(time.perf_counter() - start)
            for c in comps:
                c.rounds.append(_timed(log.calls[c.what]))
    return Costs(house.spec, played, sessions, whole, deck, comps, ref)
