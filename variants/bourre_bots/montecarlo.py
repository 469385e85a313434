"""The Monte Carlo bot (:class:`MonteCarloPlayer`): from its observation alone it
samples worlds consistent with what it saw (:func:`bourre.game.worlds.sample_world`),
rolls each candidate action out through clones of those worlds with the heuristic
policy, under the house's own rule components, and takes the best mean outcome.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from bourre.game.actions import CARDS, PASS, PLAY, Action
from bourre.game.engines import choose
from bourre.game.observation import Observation
from bourre.game.players import ask
from bourre.game.state import CHANCE, State
from bourre.game.worlds import chance_outcome, legal_or_nearest, sample_deal
from bourre.houses.house import House
from bourre.kernel.rollouts import (
    heuristic_rollouts,
    replay_world,
    sample_worlds,
    world_rollouts,
)
from bourre_bots.heuristic import (
    HeuristicPlayer,
    choose_card,
    discard_weak,
    fold_weight,
    house_winner,
    keep_weight,
    known_out,
)

__all__ = ["MonteCarloPlayer"]


MAX_BUDGET = 10_000
"""The most rollouts per decision (its worlds are held at once: memory is bounded)."""


class MonteCarloPlayer:
    """Samples the unseen cards consistently with its observation (own hand and
    discards, the upcard, the cards played, the public decisions and exchange counts,
    and whatever the house's obligations reveal), and rolls the hand out.

    ``budget`` is the number of rollouts per decision, shared among the candidates:
    every candidate is rolled out in each sampled world (common samples), and there
    are ``budget // candidates`` worlds (at least 2).  For cards, the heuristic's
    answer stands unless another beats it by ``margin`` standard errors of the paired
    differences; the decision to play takes the better mean.  The exchange is the
    heuristic's (within the house's limit).  ``house`` (a
    :class:`~bourre.houses.house.House` or a house string) supplies the rules.
    ``on_rollout``, if given, sees every finished rollout state (for tests).

    ``engine`` (:class:`~bourre.game.Game`'s): with ``"auto"`` (the default) the
    rollouts run on the compiled kernel when it can play the house
    (:func:`bourre.kernel.rollouts.heuristic_rollouts`: the same rules and policy, its
    own draws of the unseen cards), else on the Python rules; ``"python"`` (or
    ``BOURRE_ENGINE=python``) always on the Python rules, as does ``on_rollout``."""

    def __init__(
        self,
        rng: random.Random | int | None = None,
        *,
        house: House | str | None = None,
        budget: int = 16,
        margin: float = 1.0,
        on_rollout: Callable[[State], None] | None = None,
        engine: str | None = None,
    ) -> None:
        self.rng = rng if isinstance(rng, random.Random) else random.Random(rng)
        if not 1 <= budget <= MAX_BUDGET:
            raise ValueError(f"montecarlo: budget must be from 1 to {MAX_BUDGET:,}, not {budget:,}")
        self.budget = int(budget)
        self.margin = float(margin)
        self.house = house if isinstance(house, House) else _house(house or "standard")
        self.policy = HeuristicPlayer(0, winner=house_winner(self.house))
        self.on_rollout = on_rollout
        self.kernel = choose(engine) != "python" and on_rollout is None

    # -- rollouts ----------------------------------------------------------------------

    def _rollout(self, world: State, action: Action, me: int) -> float:
        """Apply ``action`` in a clone of ``world`` and play the hand out with the
        heuristic at every seat; this seat's money outcome of the hand."""
        state = world.clone()
        state.apply_action(action)
        policy, rng = self.policy, self.rng
        while not state.is_terminal():
            if state.current_player() == CHANCE:
                state.apply_chance(chance_outcome(state, rng))
                continue
            state.apply_action(ask(state, policy))
        if self.on_rollout is not None:
            self.on_rollout(state)
        return float(state.returns()[me])

    def _rollouts(self, world: object, candidates: list[Action], me: int) -> list[float]:
        """Each candidate rolled out in ``world``: on the kernel when it can, else here."""
        if not isinstance(world, State):  # a world the kernel replayed
            got = world_rollouts(world, candidates, me)
            if got is None:  # a plugin's answer the kernel does not hold: no Python twin
                raise _Unheld
            return got
        if self.kernel:
            got = heuristic_rollouts(world, candidates, me, self.rng)
            if got is not None:
                return got
        return [self._rollout(world, c, me) for c in candidates]

    def _worlds(self, view: Observation, candidates: int) -> list[object]:
        count = max(2, self.budget // max(1, candidates))
        keep, fold = keep_weight(view.trump), fold_weight(view.trump)
        if self.kernel:  # sampled and replayed on the kernel, when it can
            got = sample_worlds(self.house, view, count, self.rng, keep=keep, fold=fold)
            if got is not None:
                return got
        replay = replay_world if self.kernel else None
        worlds: list[object] = []
        for _ in range(count):
            w = sample_deal(
                self.house,
                view,
                self.rng,
                keep=keep,
                fold=fold,
                decide=self.policy.decide,
                replay=replay,
            )
            if w is not None:
                worlds.append(w)
        return worlds

    def best(self, view: Observation, candidates: list[Action], margin: float) -> Action:
        """The candidate with the best mean outcome over sampled worlds.  The first
        candidate is the heuristic's answer: another replaces it only when its mean
        gain, paired world by world, exceeds ``margin`` standard errors.  Public: another
        bot may weigh its own candidates this way (``pimc(decide="rollouts")`` does)."""
        worlds = self._worlds(view, len(candidates))
        if not worlds:
            return candidates[0]  # no consistent sample: the heuristic's answer
        me = view.seat
        try:
            rows = [self._rollouts(w, candidates, me) for w in worlds]
        except _Unheld:  # the Python rules from now on, as a session is handed over
            self.kernel = False
            return self.best(view, candidates, margin)
        m = len(rows)
        best, best_gain = 0, 0.0
        for i in range(1, len(candidates)):
            d = [r[i] - r[0] for r in rows]
            mean = sum(d) / m
            if mean <= best_gain:
                continue
            if m > 1 and margin > 0:
                var = sum([(x - mean) * (x - mean) for x in d]) / (m - 1)  # no generator
                if mean <= margin * (var / m) ** 0.5:
                    continue
            best, best_gain = i, mean
        return candidates[best]

    # -- the bot --------------------------------------------------------------------------

    def act(self, view: Observation) -> Action:
        legal = list(view.legal_actions)
        if len(legal) == 1:
            return legal[0]
        if view.phase == "exchange":
            return legal_or_nearest(discard_weak(view.hand, view.trump), legal)
        if view.phase == "decide":
            first = PLAY if self.policy.decide(view) else PASS
            return self.best(view, [first, PASS if first is PLAY else PLAY], 0.0)
        cards = list(view.legal)
        trick = [c for _, c in view.trick]
        known = known_out(view)
        last = len(trick) == len(view.active) - 1
        top = choose_card(cards, trick, view.trump, known, last, self.policy.winner)
        order = [CARDS[top], *(CARDS[c] for c in cards if c != top)]
        return self.best(view, order, self.margin)


class _Unheld(Exception):
    """A world the kernel replayed whose rollout ended with a plugin's money answer the
    kernel does not hold (not a whole number of its units), or whose plugin's decisions
    or draw refused a candidate: the bot samples and rolls out on the Python rules from
    then on."""


_HOUSES: dict[str, House] = {}


def _house(spec: str) -> House:
    """Houses by spec, built once per process (factories get a spec string when a
    House cannot be passed, e.g. across processes)."""
    h = _HOUSES.get(spec)
    if h is None:
        h = _HOUSES[spec] = House.from_arg(spec)
    return h
