"""One position weighed: what each legal card of the seat to play is worth, with every
hand known and on what that seat knows.  The one evaluation behind the review of a hand
(:mod:`bourre.advice.review`, each card played) and the advice during a hand
(:mod:`bourre.advice.inhand`, the card to play now): both call :func:`weigh`, so for
the same position, deals and seed they give the same values (issue 44).

- *Every hand known*: :func:`bourre.advice.solve` on the position (double dummy: each
  card's chips, every seat playing for itself, R-WIN, R-BOURRE …, and the tricks it
  makes sure of, R-SURE's count).  Left out when a playing seat's cards are not known.
- *On what the seat knows*: deals that agree with everything that seat has seen
  (:func:`bourre.game.worlds.sample_world` from its
  :class:`~bourre.game.observation.Observation`: its cards and discards, the upcard,
  the decisions and exchange counts announced, every card played, the voids the house's
  obligations reveal, R-FOLLOW … R-CINCH-LAST), every such deal counted alike, each
  solved the same way.  The deals are drawn from ``key``: the same key, the same deals.

A house the compiled kernel plays is solved by the kernel's solver; any other by the
Python rules with the plain search (every card searched, nothing remembered).  On a
house the kernel plays, the kernel also draws the deals
(:func:`bourre.kernel.rollouts.sample_worlds`: ``sample_world``'s sampling on the
kernel's stream, 50 deals a call) and its solver solves each where it was drawn
(``_kernel.dd_solve_stepper``): no deal is replayed in Python, the advice's 200 deals in
about 10 ms (issue 44); the kernel's deals follow the same law as the Python rules'
draws, not the same draws.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import bourre.advice.kernel_solver as kernel_solver
from bourre.advice.solver import Solution, solve
from bourre.game.observation import Observation
from bourre.game.state import State
from bourre.game.worlds import _replay, sample_world
from bourre.houses.house import House
from bourre.kernel import _kernel, can_play
from bourre.kernel.rollouts import WORLD_HOOKS, sample_worlds
from bourre.kernel.state import _money
from bourre.rules.money import Amount

__all__ = ["Weighing", "engine_of", "weigh"]


@dataclass(frozen=True)
class Weighing:
    """The values of one position's legal cards (:func:`weigh`)."""

    seat: int
    """The seat to play."""
    legal: tuple[int, ...]
    """Its legal cards, in the state's order (R-FOLLOW … R-CINCH-LAST)."""
    engine: str
    """``kernel``, ``kernel-plain``, ``python`` or ``python-plain`` (:func:`engine_of`)."""
    known: Solution | None
    """The values with every hand known (``None``: a playing seat's cards are not
    known, or the position was not weighed)."""
    unknown: str
    """Why there are no values with every hand known (``""``: there are)."""
    each: dict[int, tuple[Amount, ...]]
    """For each legal card, the seat's chips in each deal imagined (in the order drawn;
    the deals that could not agree with what the seat saw left out)."""
    tried: int
    """The deals drawn (the time allowed may stop them early)."""
    asked: int
    """The deals asked for."""
    refused: str
    """Why the position was not weighed at all (``""``: it was): too long a search on
    the Python rules, or a position the solver cannot read."""
    too_long: bool = False
    """Not weighed because of ``max_held`` (a limit of the caller's, not the hand's)."""

    @property
    def found(self) -> int:
        """The deals that agreed with what the seat saw, each solved."""
        return len(self.each[self.legal[0]]) if self.legal and self.each else 0

    def average(self, card: int) -> Fraction | None:
        """The seat's chips for ``card`` averaged over the deals, exactly (``None``: no
        deal)."""
        got = self.each.get(card, ())
        return sum((Fraction(x) for x in got), Fraction(0)) / len(got) if got else None

    def notes(self) -> list[str]:
        """What the deals left out, in words."""
        out = []
        if self.tried < self.asked:
            out.append(
                f"The time allowed ran out after {self.tried} of the {self.asked} deals: the"
                " averages are over those."
            )
        if self.found < self.tried:
            out.append(
                f"{self.tried - self.found} of the {self.tried} deals imagined could not be made"
                " to agree with what the player had seen; the averages are over the rest."
            )
        return out


def engine_of(state: State) -> str:
    """How ``state`` is solved: ``kernel`` (the kernel's solver), ``kernel-plain`` (the
    kernel's solver by the plain search: a plugin's rule of the play, issue 41),
    ``python`` (the Python search) or ``python-plain`` (the Python plain search: a house
    the kernel's solver cannot solve and whose plugin answers a rule of the play)."""
    if kernel_solver.why_not(state, plain=True) is None:
        return "kernel-plain"
    if kernel_solver.why_not(state) is None:
        return "kernel"
    return "python-plain" if kernel_solver.plain_only(state.house) else "python"


def weigh(
    state: State,
    *,
    deals: int,
    key: str,
    deadline: float | None = None,
    max_held: int | None = None,
    need_known: bool = True,
    hands_known: bool = True,
) -> Weighing:
    """Weigh the legal cards of the seat to play in ``state`` (in the play phase,
    R-LEAD): with every hand known, and over ``deals`` deals drawn from ``key`` that
    agree with what the seat has seen (0: none).

    ``deadline`` (``time.monotonic()``): no deal is drawn after it.  ``max_held``: on
    the Python rules, a position where the playing seats hold more cards than this is
    not weighed.  ``need_known``: when a playing seat's cards are not known, weigh
    nothing (the review); else weigh on the deals alone (advice during a hand).
    ``hands_known=False``: the other seats' cards in ``state`` are stand-ins (a hand
    being tapped, whose tricks will show them): no values with every hand known, the
    deals alone.  ``state`` is not changed."""
    hs = state.hand
    seat = state.current_player()
    legal = tuple(state.legal_with_reasons().cards)
    engine = engine_of(state)
    plain = engine.endswith("-plain")

    def made(
        known: Solution | None = None,
        unknown: str = "",
        each: dict[int, tuple[Amount, ...]] | None = None,
        tried: int = 0,
        refused: str = "",
    ) -> Weighing:
        asked = deals if each is not None else 0
        return Weighing(
            seat, legal, engine, known, unknown, each or {}, tried, asked, refused, too_long
        )

    too_long = False
    known: Solution | None = None
    unknown = "" if hands_known else "the other seats have not shown their cards"
    if engine.startswith("kernel") and hands_known:
        try:
            known = kernel_solver.kernel_solve(state, plain=plain)
        except ValueError:  # (a position the kernel refuses: solve() below says why)
            known = None
        if known is None:  # (or a plugin's answer the kernel does not hold: Python's search)
            engine = engine.replace("kernel", "python")

    held = sum(len(hs.hands[s]) for s in hs.active)
    if engine.startswith("python") and max_held is not None and held > max_held:
        too_long = True
        return made(
            refused=f"{held} cards still in the hands is too long a search on the Python rules"
            f" (at most {max_held}; bourre replay --review has no limit)"
        )
    try:
        if hands_known and known is None:
            known = solve(state, plain=plain)
    except ValueError as e:  # (a position the solver cannot read, or a hand not known)
        if need_known:
            return made(refused=str(e))
        unknown = str(e)
    if not deals:
        return made(known, unknown)
    rng = random.Random(key)
    view = state.observation(seat)
    each: dict[int, list[Amount]] = {c: [] for c in legal}
    tried = 0
    solved = kernel_solver.why_not_house(state.house) is None
    worlds = _KernelWorlds(state, view, deals, rng, solved=solved)
    for _ in range(deals):
        if deadline is not None and time.monotonic() > deadline:
            break
        tried += 1
        got = worlds.next()
        if got is None:  # the Python rules draw the deal (a house the kernel cannot play)
            world = sample_world(state.house, view, rng)
            if world is None:
                continue
            got = [(v.card, v.chips) for v in solve(world, plain=plain).values]
        elif not got:
            continue  # (no deal agreeing with what the seat saw was found)
        if [c for c, _ in got] != list(legal):
            continue  # (cannot happen: the same cards are legal in every deal)
        for c, chips in got:
            each[c].append(chips)
    return made(known, unknown, {c: tuple(x) for c, x in each.items()}, tried)


def _alike(card: int) -> float:
    """Every unseen card as likely anywhere (the deals counted alike, not pimc's guess)."""
    return 1.0


class _KernelWorlds:
    """The deals of :func:`weigh` drawn by the compiled kernel
    (:func:`bourre.kernel.rollouts.sample_worlds`: :func:`~bourre.game.worlds.sample_world`'s
    sampling, the unseen cards dealt alike, a deal the rules refuse drawn again up to 20
    times, replayed on the kernel's rules), :data:`CHUNK` at a time from ``rng``, so that
    the same key gives the same deals however many are solved; each solved by the
    kernel's solver (``_kernel.dd_solve_stepper``), or, when ``solved`` is false
    (:func:`~bourre.advice.kernel_solver.why_not_house` refuses), the same deal rebuilt on the Python rules
    and solved by :func:`bourre.advice.solver.solve`.  :meth:`next` gives ``None`` once
    the kernel cannot draw them (a house it cannot play, a draw from reshuffled
    discards): the Python rules draw the rest."""

    CHUNK = 50
    """The deals the kernel draws at a time."""

    def __init__(
        self, state: State, view: Observation, deals: int, rng: random.Random, *, solved: bool
    ) -> None:
        self.state, self.view, self.left, self.rng = state, view, deals, rng
        self.solved = solved
        self.off = can_play(state.house, hooks=WORLD_HOOKS) is not None
        self.ready: list[object | None] = []
        facts = kernel_solver._facts(state.house)
        self.amount = _money(facts["scale"]) if isinstance(facts, dict) else None

    def next(self) -> list[tuple[int, Amount]] | None:
        """The next deal's (card, the seat's chips) for each legal card, in the state's
        order; ``[]``: no deal agreeing with what the seat saw was found in 20 draws;
        ``None``: the Python rules draw this deal."""
        if self.off or self.amount is None:
            return None
        if not self.ready:
            k = min(self.CHUNK, self.left)
            got = (
                sample_worlds(
                    self.state.house,
                    self.view,
                    k,
                    self.rng,
                    keep=_alike,
                    fold=_alike,
                    misses=True,
                )
                if k > 0
                else None
            )
            if got is None:
                self.off = True
                return None
            self.ready = list(got)
            self.left -= k
        world = self.ready.pop(0)
        if world is None:
            return []
        seat = self.view.seat
        if self.solved:
            solved = _kernel.dd_solve_stepper(world)
            if solved is not None:  # (else a plugin's amount the kernel does not hold)
                return [(card, self.amount(chips[seat])) for card, _, _, chips in solved[0]]
        python = _python_world(self.state.house, self.view, world)
        if python is None:
            return []
        return [(v.card, v.chips) for v in solve(python, engine="python").values]


def _python_world(house: House, view: Observation, world: Any) -> State | None:
    """The kernel's deal ``world`` (a ``Stepper`` at the point ``view`` describes) on
    the Python rules: each playing seat's cards as dealt (what it holds and played, less
    what it drew, plus what it threw, R-DRAW), replayed as :func:`sample_world` replays
    its own samples.  A folded hand, which the kernel no longer holds and which plays no
    part in the rest of the hand (R-DECIDE), is dealt the lowest cards nobody else was
    dealt or drew (the dealer's with the upcard, R-DEAL)."""
    n, h, up = view.players, view.hand_size, view.upcard
    played: dict[int, list[int]] = {s: [] for s in range(n)}
    for s, c in [p for t in view.tricks for p in t.plays] + list(view.trick):
        played[s].append(c)
    dealt: dict[int, list[int]] = {}
    gave: dict[int, list[int]] = {}
    got: dict[int, list[int]] = {}
    active = set(view.active)
    for s in active:
        seen = world.observe(s)
        drew, threw = list(seen[17]), list(seen[16])
        dealt[s] = [c for c in [*seen[3], *played[s]] if c not in drew] + threw
        gave[s], got[s] = threw, drew
    placed = {up}.union(*dealt.values(), *got.values())
    free = iter(c for c in range(52) if c not in placed)
    for s in range(n):
        if s not in active:
            own = [up] if s == view.dealer and up not in dealt.get(view.dealer, ()) else []
            dealt[s] = own + [next(free) for _ in range(h - len(own))]
    # (every seat has decided in the play phase: the replay draws nothing from its rng)
    return _replay(house, view, dealt, gave, got, random.Random(0), None)
