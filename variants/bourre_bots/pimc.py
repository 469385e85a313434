"""The search bot (:class:`PimcPlayer`, *perfect-information Monte Carlo*): from its
observation alone it samples worlds consistent with what it saw
(:func:`bourre.game.worlds.sample_deal`, weighted by the others' decisions and exchange
counts), solves each world exactly (:func:`bourre.solve`, double dummy: R-SURE's
search with chips, max^n) and plays the card of the best mean chips over the worlds.

Its decision to play or pass is searched the same way: in each sampled world both
answers are played on to the first lead (the others deciding and everyone exchanging
as the heuristic bot, the draws sampled), and the play of the cards is then solved.
The exchange is the heuristic's.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from bourre.advice import solve
from bourre.advice.kernel_solver import plain_only
from bourre.game.actions import CARDS, PASS, PLAY, Action
from bourre.game.observation import Observation
from bourre.game.players import ask
from bourre.game.state import CHANCE, State
from bourre.game.worlds import Weight, chance_outcome, legal_or_nearest, sample_deal
from bourre.houses.house import House
from bourre.rules.money import Amount
from bourre_bots.heuristic import (
    HeuristicPlayer,
    choose_card,
    discard_weak,
    fold_weight,
    house_winner,
    keep_weight,
    known_out,
)
from bourre_bots.montecarlo import MonteCarloPlayer

__all__ = ["DECIDE", "MAX_WORLDS", "PimcPlayer"]

MAX_WORLDS = 1_000
"""The most worlds per question (each is solved: about 1–2 ms a world on the kernel
from the first lead of five players, far more on the Python search)."""

TRIES = 40
"""Samples drawn for one world before the plain sample (without ``doubt``) is taken."""

DECIDE = ("solve", "rollouts")
"""How the decision to play or pass is searched (see :class:`PimcPlayer`)."""


class PimcPlayer:
    """Samples ``worlds`` worlds from its observation (own hand and discards, the
    upcard, the cards played, the public decisions and exchange counts: a player who
    played and exchanged *k* cards kept 5 − *k* cards drawn with extra weight on trumps
    and aces, folded hands and discards are light in them; voids the house's
    obligations reveal are honoured), and solves each exactly.

    - **Cards**: each legal card's chips (the seat's money from here to the end of the
      hand, every seat playing for its own chips) summed over the worlds; the card of
      the most chips is played.  On a tie the heuristic's card is kept, else the
      lowest card in the order the legal cards are listed (by suit ♠ ♥ ♦ ♣, then rank).
    - **Play or pass** (``decide="solve"``, the default): in each world, both answers
      are played on with the same draws (the others decide and everyone exchanges as
      the heuristic bot, R-DRAW's replacements drawn from the cards this seat has not
      seen) up to the first lead, and the play is solved there: the answer's value is
      the seat's money so far plus the chips the solve gives it (the leader playing
      its own best card).  The better mean wins; on a tie, the heuristic's answer.
      Cost: two solves per world from the first lead.  ``decide="rollouts"``: the Monte
      Carlo bot's decision instead (``montecarlo(budget=4 × worlds)``'s rollouts).
    - **Exchange**: the heuristic's (keep trumps and aces, within the house's limit).

    ``house`` (a :class:`~bourre.houses.house.House` or a house string) gives the rules
    of the worlds; a house the compiled kernel cannot play is solved by the Python
    search (the same values, slower).  Deterministic for a seed: the same observation
    and generator give the same answer, whatever the hidden cards are."""

    asked_when_forced = False  # an only action is answered without a draw

    def __init__(
        self,
        rng: random.Random | int | None = None,
        *,
        house: House | str | None = None,
        worlds: int = 16,
        decide: str = "solve",
        doubt: float = 1.0,
    ) -> None:
        self.rng = rng if isinstance(rng, random.Random) else random.Random(rng)
        if isinstance(worlds, bool) or not isinstance(worlds, int):
            raise ValueError(f"pimc: worlds must be a whole number, not {worlds!r}")
        if not 1 <= worlds <= MAX_WORLDS:
            raise ValueError(f"pimc: worlds must be from 1 to {MAX_WORLDS:,}, not {worlds:,}")
        if decide not in DECIDE:
            raise ValueError(f"pimc: decide must be one of {', '.join(DECIDE)}, not {decide!r}")
        if not 0.0 <= doubt <= 1.0:
            raise ValueError(f"pimc: doubt must be from 0 to 1, not {doubt!r}")
        self.doubt = float(doubt)
        self.worlds = worlds
        self.decide_by = decide
        self.house = house if isinstance(house, House) else House.from_arg(house or "standard")
        self.policy = HeuristicPlayer(0, winner=house_winner(self.house))
        self._weights: dict[int, tuple[Weight, Weight]] = {}
        self._mc: MonteCarloPlayer | None = None

    # -- worlds -------------------------------------------------------------------------

    def _sample(self, view: Observation) -> list[State]:
        """Up to ``worlds`` worlds of ``view``, weighted by what the others' decisions
        and exchange counts say (the weights kept per trump: their sampling keys are
        cached by identity)."""
        w = self._weights.get(view.trump)
        if w is None:
            w = self._weights[view.trump] = (keep_weight(view.trump), fold_weight(view.trump))
        keep, fold = w
        likely = self._likely if self.doubt < 1.0 else None
        got: list[State] = []
        for _ in range(self.worlds):
            world = sample_deal(
                self.house,
                view,
                self.rng,
                keep=keep,
                fold=fold,
                decide=self.policy.decide,
                likely=likely,
                tries=TRIES,
            )
            if world is None and likely is not None:  # too unlikely: the plain sample
                world = sample_deal(
                    self.house, view, self.rng, keep=keep, fold=fold, decide=self.policy.decide
                )
            if isinstance(world, State):
                got.append(world)
        return got

    def _likely(self, view: Observation, action: Action) -> float:
        """The chance another player answered ``action`` in a world, seen as the
        heuristic bot: 1 when that bot would have answered the same (for an exchange:
        as many cards), else ``doubt``."""
        legal = view.legal_actions
        if len(legal) == 1:
            return 1.0
        if action.kind == "discard":
            want = legal_or_nearest(discard_weak(view.hand, view.trump), legal)
            return 1.0 if len(want.cards) == len(action.cards) else self.doubt
        return 1.0 if self.policy.decide(view) == (action.kind == "play") else self.doubt

    # -- the card --------------------------------------------------------------------------

    def _card(self, view: Observation, legal: Sequence[Action]) -> Action:
        cards = list(view.legal)
        trick = [c for _, c in view.trick]
        last = len(trick) == len(view.active) - 1
        top = choose_card(cards, trick, view.trump, known_out(view), last, self.policy.winner)
        worlds = self._sample(view)
        if not worlds:
            return CARDS[top]  # no consistent sample: the heuristic's card
        total: dict[int, Amount] = dict.fromkeys(cards, 0)
        for world in worlds:
            solution = solve(world, plain=plain_only(world.house))
            for v in solution.values:
                if v.card in total:
                    total[v.card] += v.chips
        best = max(total.values())
        if total[top] == best:
            return CARDS[top]
        return CARDS[next(c for c in cards if total[c] == best)]

    # -- play or pass ------------------------------------------------------------------

    def _value(self, world: State, action: Action, me: int, seed: int) -> Amount:
        """``me``'s money from ``world`` on, ``action`` answered: played on as the
        heuristic bot to the first lead (draws from ``seed``), then solved."""
        state = world.clone()
        state.apply_action(action)
        rng = random.Random(seed)
        policy = self.policy
        while not state.is_terminal() and state.phase_name != "play":
            if state.current_player() == CHANCE:
                state.apply_chance(chance_outcome(state, rng))
            else:
                state.apply_action(ask(state, policy))
        now = state.returns()[me]
        if state.is_terminal():
            return now
        solution = solve(state, plain=plain_only(state.house))
        lead = solution.value(solution.choice)
        return now + lead.chips_by_seat[me]

    def _decide(self, view: Observation, legal: Sequence[Action]) -> Action:
        first = PLAY if self.policy.decide(view) else PASS
        if first not in legal:
            return legal[0]
        other = PASS if first is PLAY else PLAY
        if self.decide_by == "rollouts":
            if self._mc is None:
                self._mc = MonteCarloPlayer(self.rng, house=self.house, budget=4 * self.worlds)
            return self._mc.best(view, [first, other], 0.0)
        worlds = self._sample(view)
        if not worlds:
            return first
        me = view.seat
        gain: Amount = 0
        for world in worlds:
            seed = self.rng.getrandbits(64)  # both answers see the same draws
            gain += self._value(world, other, me, seed) - self._value(world, first, me, seed)
        return other if gain > 0 else first

    # -- the bot ---------------------------------------------------------------------------

    def act(self, view: Observation) -> Action:
        legal = list(view.legal_actions)
        if len(legal) == 1:
            return legal[0]
        if view.phase == "exchange":
            return legal_or_nearest(discard_weak(view.hand, view.trump), legal)
        if view.phase == "decide":
            return self._decide(view, legal)
        return self._card(view, legal)
