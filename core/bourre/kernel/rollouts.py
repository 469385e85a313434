"""Monte Carlo rollouts on the kernel: a sampled world of the Monte Carlo bot
(:func:`bourre.game.worlds.sample_world`, a Python :class:`~bourre.game.state.State` of
one hand at a player's turn) is loaded into the kernel once, and each candidate action
is applied to a copy of it and the hand played out by the heuristic bot at every seat
(default options, the house's trick winner: what the bot's Python rollouts do), in C++.

The cards nobody at the world's table has seen make its stock, in an order drawn from
the bot's ``random.Random`` as :func:`bourre.game.worlds.chance_outcome` draws the
replacements of an exchange (the same draws, shuffled once per world: every candidate
of the world draws the same cards, common random numbers); a stock that runs out is
made again from the discards on a stream seeded from the same generator.  So a rollout
here follows the same rules and the same policy as the Python one, not the same random
draws: the decisions agree in law, not draw for draw.

A house whose only plugin rules are a penalty, a payout, a lead, a follow rule, a cinch
or a trick winner is sampled, replayed (:data:`WORLD_HOOKS`: a plugin's decisions or
draw too, each sample replayed through the hand's run), loaded from a Python state
(:data:`LOAD_HOOKS`: :func:`heuristic_rollouts`, :func:`heuristic_outcomes`, and so the
equilibrium chart) and rolled out here too: the rollout's hand ends with the plugin's
money rule asked through Python, as whole sessions end theirs (:mod:`bourre.kernel.hooks`),
the plugin's lead is asked at every trick's start (R-LEAD), its trick winner at every
trick's end (R-TRICK; the heuristic bot asks it too, whether a card would win, as the
Python bot does) and its follow rule and cinch for every card replayed or played out
(R-FOLLOW …, R-SURE …).
A world whose plugin's answer the kernel does not hold (an amount not a whole number of
its units, a follow rule's or a cinch's cards out of the hand's order) is the Python
rules' (``None``: :func:`heuristic_rollouts`, :func:`heuristic_outcomes`,
:func:`world_rollouts`).
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Literal, overload

from bourre.game.actions import Action
from bourre.game.observation import Observation
from bourre.game.state import State
from bourre.game.unseen import unplaced
from bourre.game.worlds import Weight, _powers, _replay, shuffle
from bourre.game.xoshiro import Xoshiro128
from bourre.houses.house import House
from bourre.kernel import _house_facts, _kernel, can_play
from bourre.kernel.decisions import HandDecisions, told_hook
from bourre.kernel.hooks import HAND_HOOKS, MONEY_HOOKS, SESSION_HOOKS
from bourre.rules import DECIDE, EXCHANGE, Turn
from bourre.rules.hookspec import ANTE, CINCH, DECISIONS, DRAW, FOLLOW, LEAD, TRICK_WINNER
from bourre.rules.money import Amount

__all__ = [
    "ADVICE_HOOKS",
    "LOAD_HOOKS",
    "ONE_HAND_HOOKS",
    "TRICKS_HOOKS",
    "WORLD_HOOKS",
    "DecisionRows",
    "Rollout",
    "decision_rows",
    "heuristic_outcomes",
    "heuristic_rollouts",
    "replay_world",
    "sample_worlds",
    "world_rollouts",
]

_PHASES = {"decide": 1, "exchange": 2, "play": 3}
_BUILT = _kernel is not None and hasattr(_kernel, "sample_worlds")
"""The extension is built, and not older than this module (an editable install not
built again plays the Python rules: ``bourre.build.stale()`` says so)."""
_OUTCOMES = _BUILT and hasattr(getattr(_kernel, "Stepper", None), "rollout_outcomes")
"""The extension gives each rollout's outcome (not an older build)."""
_CHARTS = _OUTCOMES and hasattr(getattr(_kernel, "Stepper", None), "set_chart")
"""The extension takes a decision table for the seats still to decide (not an older build)."""
_FORCED = {None: 0, "R-ACE-UP": 1, "R-LAST-STANDS": 2}
_ROWS = _BUILT and hasattr(_kernel, "advice_rows")
"""The extension deals and plays out advice's deals in batches (not an older build)."""
UNHELD = 4
"""The status of a deal whose money the kernel could not hold (a plugin's amount not a
whole number of its units, R-BOURRE / R-WIN), from an extension that marks it (the
watched hooks of :class:`_Watch` tell it too); the Python rules then play the batch."""
LOAD_HOOKS = (*MONEY_HOOKS, LEAD.name, FOLLOW.name, CINCH.name, TRICK_WINNER.name)
"""The plugin hooks of a house whose Python worlds the kernel loads and rolls out
(:func:`_load`: :func:`heuristic_rollouts` for the Monte Carlo bot,
:func:`heuristic_outcomes` for advice's deals and the equilibrium chart,
:mod:`bourre.advice.equilibrium`): a penalty and a payout, asked at each rollout's end;
a lead (R-LEAD), asked at every trick's start (``Stepper::lead``); a follow rule
(R-FOLLOW, R-TRUMP, R-DISCARD) and a cinch (R-SURE, R-EQUIV, R-CINCH-LEAD …
R-CINCH-LAST), asked for every card of the rollouts (worlds.cpp ``load_world``,
``play_out``: ``Stepper::compute_legal``, ``plugin_cinch``; the heuristic bot chooses
among those legal cards, as the Python bot among the Python state's), as the advice
batches ask them (:data:`ADVICE_HOOKS`).  An answer the kernel does not hold (a follow
rule's or a cinch's cards out of the hand's order, :func:`bourre.kernel.hooks.follow_hook`,
:func:`~bourre.kernel.hooks.cinch_hook`; an amount not a whole number of its units)
stops the world at the first such answer (worlds.cpp ``UNHELD_WORLD``): the Python rules
roll it out (``None``).  A trick winner (R-TRICK), asked at every trick's end
(``Stepper::play_legal``) and by the heuristic bot whether each of its legal cards would
win the trick so far (bots.cpp ``heuristic_card``, where the Python bot asks the house's
trick winner: the heuristic bot's ``choose_card``)."""

ONE_HAND_HOOKS = HAND_HOOKS
"""The per-hand plugin hooks a Python world of one hand (:func:`_world`) may have beside
:data:`TRICKS_HOOKS`: its ante, whose play ante the kernel asks when the world's tricks
start (R-DOUBLE-ANTE; the hand's antes were paid at its deal, before the world), its next
dealer, never asked (no hand follows), and its settlement, never asked of a world that
does not settle (:attr:`~bourre.game.state.State.settles`: a world, a hand from a given
position; a session that settles is the Python rules')."""

WORLD_HOOKS = (*LOAD_HOOKS, *SESSION_HOOKS, *ONE_HAND_HOOKS)
"""The plugin hooks of a house whose worlds the kernel samples and replays itself
(:func:`sample_worlds`, :func:`replay_world`, worlds.cpp ``sample_worlds`` /
``replay_world``): a penalty and a payout, which the sampling and the replay never ask
(they end no hand) and the rollouts of those worlds (:func:`world_rollouts`) ask at a
rollout's end; a lead and a trick winner, asked at every trick's start and end of the
public history replayed and of the rollouts (the winner by the rollouts' heuristic bot
too); a follow rule and a cinch, asked for every card of the history
(``Stepper::play`` refuses a sample where the plugin's rules refuse a card, as the
Python replay does, :func:`bourre.game.worlds._replay`: the sampling itself infers
nothing from any obligations, worlds.cpp ``sample_into``) and of the rollouts.  A
decisions rule and a draw (R-DECIDE, R-DRAW, R-RESHUFFLE, issue 41): each sample's hand
run is made in Python as the Python replay makes its hand
(:func:`bourre.kernel.decisions.told_hook`: every hand shown, the stock unseen, the pot
in the middle), every public decision and exchange of the history handed to it (the
plugin judges each: a refusal refuses the sample, as the Python replay's; the others'
replacements as the sample tells them, ``HandDecisions.drawn``), the opponents whose
decision is still secret deciding as the heuristic bot; a world reached at a decision
point gets the unseen cards as its run's stock (``HandDecisions.stocked``), and each of
its rollouts plays on its own copy of the run.  An answer the kernel does not hold in
the replay (a turn out of its order, a hand it cannot read back, the plugin's own
forced rule at the seat to act, a replacement from reshuffled discards) or the plugin's
own error hands that sampling to the Python rules (which raise that error); in a
rollout, the bot's decision (:func:`world_rollouts` ``None``).  The double-dummy
solver of advice's worlds (:mod:`bourre.advice.weigh`: the review, advice during the
hand) solves these worlds where they were drawn, asking a plugin's rules of the play
as its plain search asks them.  A plugin's ante, next dealer and settlement
(:data:`ONE_HAND_HOOKS`): a world is one hand, never settled (worlds.cpp, as the Python
replay's): its play ante is asked when the replayed or rolled-out tricks start (the
balances and the pot before it given back, ``_before_play_ante``), its next dealer and
settlement never."""

_UNHELD = "a plugin's answer the kernel cannot hold"
"""The start of the kernel's refusal of a world whose plugin's answer it does not hold
(worlds.cpp ``UNHELD_WORLD``): the Python rules roll that world out."""

ADVICE_HOOKS = (*LOAD_HOOKS, *SESSION_HOOKS, *ONE_HAND_HOOKS)
"""The plugin hooks the kernel's advice batches ask through Python (:func:`decision_rows`):
a penalty and a payout, once a played-out hand, a lead, at every trick's start, a
follow rule (R-FOLLOW …) and a cinch (R-SURE …), for every card, and a trick winner
(R-TRICK), at every trick's end and by the heuristic bot for each card it weighs
(:mod:`bourre.kernel.hooks`); a plugin's decisions and draw (R-DECIDE, R-DRAW,
R-RESHUFFLE: each deal's hand run made with the pot in the middle, every option played
on its own copy of it, :mod:`bourre.kernel.decisions`; a deal whose seat the plugin
forces or whose turn is not the seat's decision is the Python rules', status 3); a
plugin's ante, next dealer and settlement (:data:`ONE_HAND_HOOKS`: a deal is one hand
from the pot in the middle, never settled: its play ante asked when the tricks start,
R-DOUBLE-ANTE, the others never)."""


_FACTS: list[tuple[House, dict[str, Any], Amount]] = []


def _facts(house: House) -> tuple[dict[str, Any], Amount]:
    """The kernel's facts of a house it can play and its play ante, kept for the last
    few houses (by identity)."""
    for h, f, x in _FACTS:
        if h is house:
            return f, x
    facts = _house_facts(house)
    assert isinstance(facts, dict)
    extra = house.rules[ANTE].play_ante(house.table.ante)
    _FACTS.insert(0, (house, facts, extra))
    del _FACTS[8:]
    return facts, extra


def _units(x: Amount, scale: int) -> int | None:
    if type(x) is int and scale == 1:
        return x if abs(x) < 1 << 62 else None
    v = Fraction(x) * scale
    return int(v) if v.denominator == 1 and abs(v) < 1 << 62 else None


@dataclass(frozen=True)
class Rollout:
    """One candidate played out (:func:`heuristic_outcomes`): the seat's money change
    over the hand, and the hand's outcome as the kernel's payout decided it (R-WIN,
    R-SOLE, R-BOURRE): the seat that took the pot (``None``: a tie carried it) and the
    bourré seats."""

    chips: float
    winner: int | None
    bourre: frozenset[int]


@dataclass(frozen=True)
class DecisionRows:
    """A batch of advice's deals played out (:func:`decision_rows`): per deal, ``status``
    (0 played; 1 / 2 the seat could not pass in that deal, R-ACE-UP / R-LAST-STANDS,
    played all the same; 3 the kernel cannot play it: others decide between the seat's
    decision and its exchange), and ``flat``: deal after deal, per option then the pass,
    took the pot (0 or 1), bourré (0 or 1) and the chips from the decision on; deal ``d``'s
    from ``starts[d]``."""

    status: list[int]
    flat: list[float]
    starts: list[int]

    def row(self, d: int) -> list[tuple[float, float, float]]:
        """Deal ``d``'s (took the pot, bourré, chips) per option, the pass last."""
        f, a, b = self.flat, self.starts[d], self.starts[d + 1]
        return list(zip(f[a:b:3], f[a + 1 : b : 3], f[a + 2 : b : 3], strict=True))

    @property
    def rows(self) -> list[list[tuple[float, float, float]]]:
        """Every deal's :meth:`row`."""
        return [self.row(d) for d in range(len(self.status))]


def decision_rows(
    house: House,
    seat: int,
    dealer: int,
    pot: Amount,
    decided: Sequence[bool],
    hands: Sequence[Sequence[int]],
    upcards: Sequence[int],
    words: Sequence[int],
    options: Sequence[Sequence[Sequence[int]]],
    passing: bool,
) -> DecisionRows | None:
    """Many deals to ``seat`` at its decision, each played out on the kernel once per
    option and once passing, in one call (``bourre advise``, the strategy chart): deal
    ``d`` gives ``seat`` ``hands[d]`` and the dealer ``upcards[d]`` (R-DEAL), the rest of
    the deck shuffled on the kernel's stream of ``words[4d:4d+4]``, with ``pot`` in the
    middle (nobody antes); the seats before decide as ``decided`` says, else as the
    heuristic bot (R-DECIDE); the seat plays and throws each of ``options[d]`` (R-DRAW),
    everyone then playing as the heuristic bot, and passes (when ``passing``).  ``None``
    when the kernel cannot play the house (the Python rules then).

    A house whose only plugin rules are a penalty, a payout, a lead, a follow rule, a
    cinch or a trick winner (:data:`ADVICE_HOOKS`) is played here too, the kernel asking the plugin's
    checked component through Python as the Python rules ask it: its money rule at each
    played-out hand's end (R-BOURRE, R-WIN, R-SOLE; each different hand result once:
    :class:`_Watch`), its lead at every trick's start (R-LEAD), its follow rule and its
    cinch for every card (R-FOLLOW …, R-SURE …), its trick winner at every trick's end
    and for every card the heuristic bot weighs (R-TRICK); ``None`` when an answer is not the
    kernel's to hold (an amount not a whole number of its units, a follow rule's or a
    cinch's cards out of the hand's order: the Python rules then play the batch, never
    a rounded amount nor the built-in rule).  A plugin's decisions or draw (R-DECIDE,
    R-DRAW, R-RESHUFFLE) too: each deal's hand run (:mod:`bourre.kernel.decisions`) made
    with ``pot`` in the middle and the deal's reshuffle stream, the seats before
    deciding through it, each option on its own copy; a deal where the seat's first
    turn is not its decision or the plugin's own rule forbids its pass is status 3, an
    option beyond the plugin's draw ``None`` (the Python rules then)."""
    if not _ROWS or can_play(house, "heuristic", hooks=ADVICE_HOOKS) is not None:
        return None
    facts, _ = _facts(house)
    units = _units(pot, facts["scale"])
    if units is None:
        return None
    watch = _watched(house, facts)
    refused = [False]
    if watch is not None:
        facts, refused = watch.bind()
    status, flat = _kernel.advice_rows(
        facts,
        seat,
        dealer,
        units,
        [int(d) for d in decided],
        hands,
        upcards,
        words,
        options,
        passing,
    )
    if refused[0] or UNHELD in status:
        return None
    starts = [0, *itertools.accumulate(3 * (len(o) + 1) for o in options)]
    return DecisionRows(status, flat, starts)


class _Watch:
    """A house's money hooks for the advice batches (:meth:`bind`, once a batch): a
    batch's flag is set when a hook answers what the kernel will not hold (``None``, or
    a pot below nothing), so the batch is the Python rules' (an extension that marks such
    a deal itself, :data:`UNHELD`, says so per deal too).  The flag is the batch's own: a
    hook runs Python, so another thread's batch may run meanwhile.  (The hooks themselves
    ask the plugin once for each different hand result: :data:`bourre.kernel.hooks.REMEMBER`;
    a chart's hundreds of thousands of hands end in a few hundred different results.)"""

    def __init__(self, facts: dict[str, Any]) -> None:
        self.facts = facts

    def bind(self) -> tuple[dict[str, Any], list[bool]]:
        """The facts a batch gives the kernel, and the batch's flag (``[True]``: an
        answer the kernel will not hold)."""
        facts = self.facts
        money: Any = facts.get("money_hook")
        penalty: Any = facts.get("penalty_hook")
        refused = [False]

        def paid(pot: int, active: list[int], won: list[int]) -> Any:  # (the hook's answer)
            got = money(pot, active, won)
            if got is None or (type(got) is tuple and len(got) > 5 and got[5] < 0):
                refused[0] = True
            return got

        def pays(pot: int) -> Any:  # (the hook's answer)
            got = penalty(pot)
            if got is None:
                refused[0] = True
            return got

        bound = {
            **facts,
            "money_hook": None if money is None else paid,
            "penalty_hook": None if penalty is None else pays,
        }
        return bound, refused


_WATCHES: list[tuple[House, _Watch]] = []


def _watched(house: House, facts: dict[str, Any]) -> _Watch | None:
    """The wrapped facts of a house with a plugin's money rule (kept for the last few
    houses), or ``None``: no plugin's money hook."""
    if facts.get("money_hook") is None and facts.get("penalty_hook") is None:
        return None
    for h, w in _WATCHES:
        if h is house:
            return w
    w = _Watch(facts)
    _WATCHES.insert(0, (house, w))
    del _WATCHES[8:]
    return w


def heuristic_rollouts(
    world: State, candidates: Sequence[Action], me: int, rng: random.Random
) -> list[float] | None:
    """``me``'s money change over the hand for each candidate action, played out on
    the kernel from ``world``; ``None`` when the kernel cannot play it (a house with a
    third-party component, the extension not built, a world it does not hold): the
    Python rollouts then; so too when a plugin's answer is not the kernel's to hold (an
    amount, or a follow rule's or a cinch's cards out of the hand's order:
    :data:`LOAD_HOOKS`; a plugin's decisions or draw, :data:`TRICKS_HOOKS`, asked on
    the world's hand run: :func:`_run`)."""
    loaded = _load(world, rng)
    if loaded is None:
        return None
    with _refusals(world, candidates):
        return _rolled(loaded, candidates, me)


def heuristic_outcomes(
    world: State,
    candidates: Sequence[Action],
    me: int,
    rng: random.Random,
    chart: Sequence[Sequence[int]] | None = None,
) -> list[Rollout] | None:
    """:func:`heuristic_rollouts` with each hand's outcome beside the money (the same
    draws from ``rng``, the same play): who took the pot and who was bourré, as the
    kernel's payout says (not read back from the money).  ``None`` when the kernel
    cannot play it.  ``chart``: a decision table that replaces the heuristic's pass or
    play (R-DECIDE) of the seats still to decide, ``chart[seat][seats already in]`` 1
    pass, 2 play, 0 the heuristic (:mod:`bourre.advice.equilibrium`; the count of seats
    already in read from the public decisions, R-DECIDE: a plugin's decisions tell them
    as its hand's run gives them, and the plugin judges each decision the chart makes)."""
    if not _OUTCOMES or (chart is not None and not _CHARTS):
        return None
    loaded = _load(world, rng)
    if loaded is None:
        return None
    if chart is not None:
        loaded.set_chart([list(row) for row in chart])  # type: ignore[attr-defined]
    with _refusals(world, candidates):
        try:
            got = loaded.rollout_outcomes(_codes(candidates), me)  # type: ignore[attr-defined]
        except ValueError as e:
            if str(e).startswith(_UNHELD):  # (a plugin's answer the kernel does not hold)
                return None
            raise
    return [
        Rollout(
            chips=money,
            winner=None if winner < 0 else winner,
            bourre=frozenset(s for s in range(world.n) if mask >> s & 1),
        )
        for money, winner, mask in got
    ]


@contextmanager
def _refusals(world: State, candidates: Sequence[Action]) -> Iterator[None]:
    """A candidate the kernel refuses is refused as the Python rules refuse it: their
    :class:`~bourre.rules.RuleViolation` (the rule id and words), as when it is applied to
    ``world``; the kernel's ``ValueError`` only if the Python rules take every candidate."""
    try:
        yield
    except ValueError as e:
        if not str(e).startswith("candidates:"):
            raise
        for a in candidates:
            why = world.why_not(a)
            if why is not None:
                raise why from None
        raise


def _load(world: State, rng: random.Random) -> object | None:
    """``world`` loaded into the kernel (its unknown stock shuffled from ``rng``), or
    ``None`` when the kernel cannot play it; a world whose fields are not a hand the
    rules could reach (edited: a seat or card out of range, a card in two places, a
    count beyond the hand's size …) is a ``ValueError`` naming the field.  ``None`` too
    when a plugin's follow rule or cinch answers, for the card to play, what the kernel
    does not hold (its cards out of the hand's order: :data:`LOAD_HOOKS`).  A world at a
    decision point of a house whose decisions or draw is a plugin's is loaded with the
    hand's run (:func:`_world`)."""
    got = _world(world, rng)
    if got is None:
        return None
    facts, w = got
    try:
        loaded: object = _kernel.load_world(facts, w)
    except ValueError as e:
        if str(e).startswith(_UNHELD):  # (the follow rule or cinch asked for the card to play)
            return None
        raise
    return loaded


TRICKS_HOOKS = (*LOAD_HOOKS, *SESSION_HOOKS)
"""The plugin hooks of a house whose Python world the kernel rolls out (:func:`_world`):
:data:`LOAD_HOOKS`, and a plugin's decisions or draw: in the tricks of the world's one
hand no card asks them (the kernel is told the house without them: ``decisions_hook``
none, so it never steps a decision); at a decision or an exchange the world is loaded
with the hand's run (:func:`_run`), which asks them every decision and exchange of the
rollouts, each rollout on its own copy (the decision table's too: the table chooses
the heuristic's play or pass, the plugin's rules judge it)."""

_STRIPPED: list[tuple[dict[str, Any], tuple[str, ...], dict[str, Any]]] = []
"""The facts of the last few houses without the hooks one hand never asks."""


def _without(facts: dict[str, Any], hooks: tuple[str, ...]) -> dict[str, Any]:
    """``facts`` with each of ``hooks`` (their keys) none, kept for the last few."""
    hooks = tuple(k for k in hooks if facts.get(k) is not None)
    if not hooks:
        return facts
    for f, k, g in _STRIPPED:
        if f is facts and k == hooks:
            return g
    got = {**facts, **dict.fromkeys(hooks)}
    _STRIPPED.insert(0, (facts, hooks, got))
    del _STRIPPED[16:]
    return got


def _world(world: State, rng: random.Random) -> tuple[dict[str, Any], dict[str, Any]] | None:
    """What the kernel is told of ``world`` (:func:`_load`): the house's facts and the
    world's fields, or ``None`` when the kernel cannot play it (a plugin's rule beyond
    :data:`TRICKS_HOOKS` and :data:`ONE_HAND_HOOKS` among them).  A plugin's decisions or
    draw (:data:`TRICKS_HOOKS`): in the tricks the kernel is told the house without them;
    at a decision or an exchange (R-DECIDE, R-DRAW) the world is loaded
    with the hand's run (:func:`_run`), which asks the house's components every decision
    and exchange of the rollouts, as the Python rollout's state does.  A plugin's next
    dealer or settlement (:data:`ONE_HAND_HOOKS`): the kernel is told the house without
    them (one hand).  A state that settles (a session of one hand, R-SETTLE: its returns
    share the pot left, which the kernel's rollouts, a hand's money, do not) is
    ``None``: the Python rules roll it out."""
    if not _BUILT or type(world) is not State or world.is_chance_node():
        return None
    house = world.house
    if world.hands_total != 1:
        return None
    if can_play(house, hooks=(*TRICKS_HOOKS, *ONE_HAND_HOOKS)) is not None:
        return None
    tricks = run = False
    if can_play(house, hooks=(*LOAD_HOOKS, *ONE_HAND_HOOKS)) is not None:
        if world.phase_name == "play":
            tricks = True  # (one hand, in its tricks: no decision or exchange is left)
        elif world.phase_name in ("decide", "exchange"):
            run = True
        else:
            return None
    if world.settles:  # (a session of one hand: its settlement, R-SETTLE, the Python rules')
        return None
    facts, _ = _facts(house)
    facts = _without(facts, ("dealer_hook", "settle_hook", *(("decisions_hook",) * tricks)))
    scale = facts["scale"]
    hs = world.hand
    if any(hs.hidden):
        return None
    money = [_units(b, scale) for b in (*world.balances, *world.start, world.pot, hs.pot_at_stake)]
    if any(x is None for x in money):
        return None
    n = world.n
    stock = unplaced(hs) + list(hs.stock)
    shuffle(stock, rng)  # (chance_outcome's draw: the unseen cards and the known stock)
    seat = world.current_player()
    forced = world.observation(seat).forced if seat >= 0 else None
    w = {
        "balances": money[:n],
        "start": money[n : 2 * n],
        "pot": money[2 * n],
        "pot_at_stake": money[2 * n + 1],
        "dealer": hs.dealer,
        "upcard": hs.upcard,
        "hands": hs.hands,
        "discards": hs.discards,
        "gave": hs.gave,
        "got": hs.got,
        "stock": stock,
        "pile": hs.pile,
        "chosen": hs.chosen,
        "active": hs.active,
        "won": hs.won,
        "step": hs.step,
        "exchanging": hs.exchanging,
        "decisions": [tuple(d) for d in hs.decisions],
        "tricks": [[t.leader, t.winner, *(x for p in t.plays for x in p)] for t in hs.tricks],
        "played": list(hs.played),
        "reshuffle": [rng.getrandbits(32) for _ in range(4)],
        "phase": _PHASES[world.phase_name],
        "seat": seat,
        "forced": _FORCED.get(forced, 0),
        "trick_seats": hs.trick_seats,
        "trick": hs.trick,
        "leader": hs.leader,
    }
    if run and not _run(world, w, stock, Turn(seat, _KINDS[world.phase_name], forced)):
        return None
    return facts, w


_KINDS = {"decide": DECIDE, "exchange": EXCHANGE}
"""A decision point's kind of turn, by the state's phase name."""


def _run(world: State, w: dict[str, Any], stock: list[int], turn_now: Turn) -> bool:
    """The hand's run of a world at a decision point of a house whose decisions or draw
    is a plugin's (worlds.cpp ``load_world_run``): the house's components on a copy of
    the world's hand state whose stock is ``stock``, the order the kernel's rollouts
    draw (nothing left unseen: the plugin's draw draws those cards, R-DRAW), reshuffled
    on the world's reshuffle stream (R-RESHUFFLE), from the turn and step where the
    Python state stands (``turn_now``, read from its public surface: the seat to act,
    the phase, the observation's ``forced``; :meth:`HandDecisions.resume`); ``False``
    when that turn is not the kernel's to hold (the Python rules roll the world out)."""
    rules = world.house.rules
    hs = world.hand.copy()
    hs.stock, hs.unseen_stock = list(stock), 0
    words = w["reshuffle"]
    if not any(words):  # (as the kernel's stream: never all zero)
        words[3] = 1
    run, turn = HandDecisions.resume(
        (rules[DECISIONS], rules[DRAW]), hs, rules.hand_size, Xoshiro128(*words), turn_now
    )
    if type(turn) is not tuple:
        return False
    w["run"], w["turn"] = run, turn
    return True


def _codes(candidates: Sequence[Action]) -> list[object]:
    """The kernel's codes of actions: a card, 52 pass, 53 play, a discard's cards."""
    codes: list[object] = []
    for a in candidates:
        if a.kind == "card":
            codes.append(a.cards[0])
        elif a.kind == "discard":
            codes.append(list(a.cards))
        else:
            codes.append(53 if a.kind == "play" else 52)
    return codes


def world_rollouts(world: object, candidates: Sequence[Action], me: int) -> list[float] | None:
    """The rollouts of a world the kernel holds (:func:`replay_world`, :func:`_load`);
    ``None`` when a plugin's answer is not the kernel's to hold (its money at a
    rollout's end; its follow rule's or cinch's cards out of the hand's order), or
    when a plugin's decisions or draw refuse a candidate in a world it sampled (R-DECIDE,
    R-DRAW: a pass its ``decide`` refuses though its turn allows it; the Python rules
    then say why in their words): the Python rules' then."""
    try:
        return _rolled(world, candidates, me)
    except ValueError as e:
        if str(e).startswith("candidates:") and world.run() is not None:  # type: ignore[attr-defined]
            return None
        raise


def _rolled(world: object, candidates: Sequence[Action], me: int) -> list[float] | None:
    """:func:`world_rollouts` of a loaded world, a refused candidate the kernel's
    ``ValueError`` (:func:`heuristic_rollouts` says why in the Python rules' words)."""
    try:
        return list(world.rollouts(_codes(candidates), me))  # type: ignore[attr-defined]
    except ValueError as e:
        if str(e).startswith(_UNHELD):
            return None
        raise


def replay_world(
    house: House,
    view: Observation,
    dealt: dict[int, list[int]],
    gave: dict[int, list[int]],
    got: dict[int, list[int]],
    rng: random.Random,
    decide: object,
) -> object | None:
    """A sample of :func:`bourre.game.worlds.sample_deal` replayed by the kernel, as
    :func:`bourre.game.worlds._replay` replays it (the same rules, the same refusals),
    its unknown stock shuffled from ``rng`` for the rollouts: a world for
    :func:`world_rollouts`, or ``None`` when the rules refuse the sample.  Opponents
    whose decision is still secret decide as the heuristic bot (default options: the
    Monte Carlo bot's ``decide``).  The Python replay when the kernel cannot play it,
    or when a plugin's follow rule or cinch, asked for a card of the history
    (:data:`WORLD_HOOKS`), answers what the kernel does not hold.  A plugin's decisions
    or draw (R-DECIDE, R-DRAW): the sample replayed through its hand run (the plugin
    judges every public decision and exchange, the replacements as the sample tells
    them); what the kernel does not hold there, or the plugin's own error, the Python
    replay of the same sample (its world, its refusal or its error)."""
    phase = _PHASES.get(view.phase)
    if not _BUILT or phase is None or can_play(house, hooks=WORLD_HOOKS) is not None:
        return _replay(house, view, dealt, gave, got, rng, decide)  # type: ignore[arg-type]
    facts, extra = _facts(house)
    scale = facts["scale"]
    balances, pot = _before_play_ante(view, extra)
    w = _view(view, balances, pot, scale, rng)
    if w is None:
        return _replay(house, view, dealt, gave, got, rng, decide)  # type: ignore[arg-type]
    _told(house, facts, view, pot, w)
    n, me = view.players, view.seat
    w["dealt"] = [dealt[s] for s in range(n)]
    w["gave"] = [list(view.gave) if s == me else gave.get(s, []) for s in range(n)]
    w["got"] = [list(view.got) if s == me else got.get(s, []) for s in range(n)]
    world: object = _kernel.replay_world(facts, w)
    if type(world) is int:  # 0: the rules refuse the sample; 1: the Python rules replay it
        return None if world == 0 else _replay(house, view, dealt, gave, got, rng, decide)  # type: ignore[arg-type]
    return world


def _told(
    house: House, facts: dict[str, Any], view: Observation, pot: Amount, w: dict[str, Any]
) -> None:
    """A plugin's decisions or draw (:data:`WORLD_HOOKS`): the call that makes each
    sample's hand run (:func:`bourre.kernel.decisions.told_hook`, the view's dealer,
    upcard and pot in the middle, as :func:`bourre.game.worlds._replay` sets the hand)."""
    if facts["decisions_hook"] is not None:
        w["told"] = told_hook(house, view.dealer, view.upcard, pot)


def _before_play_ante(view: Observation, extra: Amount) -> tuple[list[Amount], Amount]:
    """The balances and the pot before the play ante (paid again on replay)."""
    pot, balances = view.pot, list(view.balances)
    if view.phase == "play" and extra:
        pot -= extra * len(view.active)
        for s in view.active:
            balances[s] += extra
    return balances, pot


def _view(
    view: Observation, balances: list[Amount], pot: Amount, scale: int, rng: random.Random
) -> dict[str, Any] | None:
    """What the kernel is told of a view (bourre.game.worlds' reading of it)."""
    money = [_units(b, scale) for b in (*balances, pot)]
    if any(x is None for x in money):
        return None
    n = view.players
    return {
        "balances": money[:n],
        "pot": money[n],
        "me": view.seat,
        "dealer": view.dealer,
        "upcard": view.upcard,
        "decisions": [tuple(d) for d in view.decisions],
        "active": list(view.active),
        "my_decision": view.my_decision,
        "plays": [p for t in view.tricks for p in t.plays] + list(view.trick),
        "to_act": view.to_act,
        "phase": _PHASES[view.phase],
        "hand": list(view.hand),
        "gave_mine": list(view.gave),
        "got_mine": list(view.got),
        "words": [rng.getrandbits(32) for _ in range(4)],
    }


@overload
def sample_worlds(
    house: House,
    view: Observation,
    count: int,
    rng: random.Random,
    *,
    keep: Weight,
    fold: Weight,
    tries: int = 20,
    misses: Literal[False] = False,
) -> list[object] | None: ...


@overload
def sample_worlds(
    house: House,
    view: Observation,
    count: int,
    rng: random.Random,
    *,
    keep: Weight,
    fold: Weight,
    tries: int = 20,
    misses: Literal[True],
) -> list[object | None] | None: ...


def sample_worlds(
    house: House,
    view: Observation,
    count: int,
    rng: random.Random,
    *,
    keep: Weight,
    fold: Weight,
    tries: int = 20,
    misses: bool = False,
) -> list[object] | list[object | None] | None:
    """Up to ``count`` worlds of :func:`bourre.game.worlds.sample_deal`'s making (the same
    sampling: the unseen cards dealt by the weights ``keep`` and ``fold``, the samples
    the rules refuse drawn again up to ``tries`` times), sampled and replayed by the
    kernel on a stream seeded from ``rng`` (not ``rng``'s own draws), opponents whose
    decision is still secret deciding as the heuristic bot; worlds for
    :func:`world_rollouts`.  ``None`` when the Python rules must sample them.  A world
    for which no sample was found in ``tries`` draws is left out, or with ``misses`` is
    ``None`` in its place (``count`` items).  A house whose only plugin rules are a
    penalty, a payout, a lead, a follow rule, a cinch or a trick winner
    (:data:`WORLD_HOOKS`) is sampled here too: the replay asks the lead and the trick
    winner at every trick's start and end and the follow rule and the cinch for every
    card of the history (an answer the kernel does not hold: ``None``,
    the Python rules sample), the money rule never (it ends no hand); the rollouts
    (:func:`world_rollouts`) ask them all.  A house whose decisions or draw is a
    plugin's too (R-DECIDE, R-DRAW, R-RESHUFFLE): each sample replayed through a hand
    run made in Python (:data:`WORLD_HOOKS`), the plugin asked every public decision
    and exchange; an answer the kernel does not hold or the plugin's own error:
    ``None`` (the Python rules sample, and raise it)."""
    phase = _PHASES.get(view.phase)
    if not _BUILT or phase is None or can_play(house, hooks=WORLD_HOOKS) is not None:
        return None
    facts, extra = _facts(house)
    balances, pot = _before_play_ante(view, extra)
    w = _view(view, balances, pot, facts["scale"], rng)
    if w is None:
        return None
    _told(house, facts, view, pot, w)
    got = _kernel.sample_worlds(facts, w, count, tries, _powers(keep), _powers(fold))
    if type(got) is int:  # a draw from reshuffled discards: the Python rules sample
        return None
    return list(got) if misses else [x for x in got if x is not None]
