"""A PettingZoo AEC environment for one session of a house (``pip install bourre[pettingzoo]``)::

    from bourre.pettingzoo import env
    e = env("standard+table(players=2)", seed=7)
    e.reset()
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        mask = obs["action_mask"]
        e.step(None if terminated else e.action_space(agent).sample(mask))

Agents ``player_0`` … are the seats.  **Actions** (``Discrete(54 + 2**hand_size)``):
``0..51`` play that card (R-FOLLOW …), ``52`` pass, ``53`` play (R-DECIDE), and
``54 + m`` discards the cards at the set bits of ``m`` over the positions of the
seat's sorted hand (bit i = ``hand[i]``; ``m = 0`` stands pat, R-DRAW).

**Observations** hold ``action_mask`` and ``observation``, a 0/1 ``int8`` vector made by
:meth:`Encoder.encode` from ``state.observation(seat)`` alone (nothing hidden), in order:
own hand (52), cards played this deal (52), current trick (52), upcard (52), own
discards not yet reshuffled (52), trump suit (4); the seat is to decide / exchange /
play (3); must play (forced, R-DECIDE) / holds a cinch (R-SURE) (2); own decision pass /
play (2); then for each seat from this one clockwise: dealer, active, decided play,
decided pass, to act, has played to the current trick, leads it (7), exchanged ``>= k``
cards and won ``>= k`` tricks for ``k = 1..hand_size`` (2 x hand_size), shown out of each
suit (4); stock size ``>= k`` for ``k = 1..52`` (52); pot ``>= k`` antes for ``k = 1..32``
(32); hand number ``>= k`` for ``k = 1..hands`` (hands).  Balances are not encoded.

**Rewards** after each step: every seat's change of ``state.returns()`` since the last
step, as a float (antes included, the first hand's in the first step, and at the end
the settlement, R-SETTLE), so a session's rewards add up to its returns.  ``infos[agent]`` has the exact
``"reward"`` and running ``"returns"`` (int or Fraction).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

try:
    import numpy as np
    import numpy.typing as npt
    from gymnasium import spaces
    from pettingzoo import AECEnv  # type: ignore[import-untyped]
    from pettingzoo.utils import wrappers  # type: ignore[import-untyped]
except ImportError as _missing:  # the extra is not installed: say how to get it
    raise ImportError(
        f"bourre.pettingzoo needs PettingZoo ({_missing.name} is not installed):"
        " pip install 'bourre[pettingzoo]'"
    ) from None

from bourre.game import Game
from bourre.game.actions import CARDS, PASS, PLAY, Action
from bourre.game.observation import Observation
from bourre.game.protocol import GameState
from bourre.game.state import State
from bourre.rules import RuleViolation
from bourre.rules.cards import SUIT_NAMES, card_str
from bourre.rules.money import Amount

__all__ = ["DISCARD", "PASS_INDEX", "PLAY_INDEX", "BourreEnv", "Encoder", "env"]

PASS_INDEX, PLAY_INDEX, DISCARD = 52, 53, 54
"""Action indices: PASS, PLAY and the first discard (stand pat)."""
POT_LEVELS = 32
_PHASES = ("decide", "exchange", "play")
RENDER_MODES = ["ansi"]
Obs = dict[str, npt.NDArray[np.int8]]


def action_index(action: Action, hand: Sequence[int]) -> int:
    """The index of ``action`` for a seat holding the sorted ``hand``."""
    if action.kind == "card":
        return action.cards[0]
    if action.kind == "discard":
        return DISCARD + sum(1 << hand.index(c) for c in action.cards)
    return {"pass": PASS_INDEX, "play": PLAY_INDEX}[action.kind]


def index_action(index: int, hand: Sequence[int]) -> Action:
    """The action of ``index`` for a seat holding the sorted ``hand`` (R-DRAW: a discard
    names cards in the order of the hand)."""
    if 0 <= index < 52:
        return CARDS[index]
    if index in (PASS_INDEX, PLAY_INDEX):
        return PASS if index == PASS_INDEX else PLAY
    m = index - DISCARD
    if index < DISCARD or m >> len(hand):
        raise ValueError(f"action {index}: no such action for a hand of {len(hand)} (R-DRAW)")
    return Action("discard", tuple(c for i, c in enumerate(hand) if m >> i & 1))


class Encoder:
    """Turns an :class:`~bourre.game.observation.Observation` into the observation vector and
    the action mask (module docstring); it reads nothing else."""

    def __init__(self, players: int, hand_size: int, hands: int, ante: Amount = 1) -> None:
        self.players, self.hand_size, self.hands, self.ante = players, hand_size, hands, ante
        self.per_seat = 7 + 2 * hand_size + 4
        self.size = 5 * 52 + 4 + 3 + 2 + 2 + players * self.per_seat + 52 + POT_LEVELS + hands
        self.actions = DISCARD + 2**hand_size

    def encode(self, obs: Observation) -> npt.NDArray[np.int8]:
        """The observation vector of ``obs`` (its layout: the module's docstring), written
        into one byte buffer and handed to numpy once."""
        v = bytearray(self.size)
        for c in obs.hand:
            v[c] = 1
        for t in obs.tricks:
            for _, c in t.plays:
                v[52 + c] = 1
        for _, c in obs.trick:
            v[52 + c] = v[104 + c] = 1
        if obs.upcard >= 0:
            v[156 + obs.upcard] = 1
            v[260 + obs.trump] = 1
        for c in obs.own_discards:
            v[208 + c] = 1
        i = 264
        if obs.to_act == obs.seat and obs.phase in _PHASES:
            v[i + _PHASES.index(obs.phase)] = 1
        v[i + 3], v[i + 4] = obs.forced is not None, obs.cinch
        if obs.my_decision >= 0:
            v[i + 5 + obs.my_decision] = 1
        i += 7
        n, h = self.players, self.hand_size
        per = self.per_seat
        where = {(obs.seat + r) % n: i + r * per for r in range(n)}  # each seat's block
        for plays in [t.plays for t in obs.tricks] + [obs.trick]:
            if plays:  # a seat that did not follow the suit led is shown out of it (R-FOLLOW)
                led = plays[0][1] // 13
                for s, c in plays[1:]:
                    if c // 13 != led:
                        v[where[s] + 7 + 2 * h + led] = 1
        decided = {d.seat: d for d in obs.decisions}
        in_trick = {p for p, _ in obs.trick}
        leader = obs.trick[0][0] if obs.trick else -1
        active, won = obs.active, obs.tricks_won
        for s, b in where.items():
            d = decided.get(s)
            v[b : b + 7] = bytes((
                s == obs.dealer, s in active, d is not None and d.play,
                d is not None and not d.play, s == obs.to_act, s in in_trick, s == leader,
            ))  # fmt: skip
            if d is not None:
                _ones(v, b + 7, min(d.exchanged, h))
            _ones(v, b + 7 + h, min(won[s], h))
        i += n * per
        _ones(v, i, min(obs.stock_size, 52))
        _ones(v, i + 52, min(int(obs.pot / self.ante), POT_LEVELS))
        _ones(v, i + 52 + POT_LEVELS, min(obs.number, self.hands))
        return np.frombuffer(v, dtype=np.int8)

    def mask(self, obs: Observation) -> npt.NDArray[np.int8]:
        m = bytearray(self.actions)
        hand = obs.hand
        for a in obs.legal_actions:
            m[action_index(a, hand)] = 1
        return np.frombuffer(m, dtype=np.int8)


def _ones(v: bytearray, start: int, k: int) -> None:
    """``k`` ones from ``start`` (a thermometer code: "at least k")."""
    if k > 0:
        v[start : start + k] = b"\x01" * k


class BourreEnv(AECEnv):  # type: ignore[misc]  # pettingzoo is untyped
    """One session of a house (``max_hands`` may shorten it: 1 plays one hand with
    ``Game.new_hand``, without the settlement, so the pot left is nobody's reward).
    ``engine``: :class:`~bourre.game.Game`'s (a whole session or a single hand is the
    kernel's when it can play the house; another number of hands, the Python rules')."""

    metadata = {"name": "bourre_v0", "render_modes": RENDER_MODES, "is_parallelizable": False}

    def __init__(
        self,
        house: str = "standard",
        seed: int | None = None,
        render_mode: str | None = None,
        max_hands: int | None = None,
        engine: str | None = None,
    ) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(f"render_mode {render_mode!r}: 'ansi' or None")
        self.game = Game(house, engine=engine)
        self.render_mode, self.max_hands = render_mode, max_hands
        hands = max_hands if max_hands is not None else self.game.hands
        n = self.game.players
        enc = self.encoder = Encoder(n, self.game.hand_size, hands, self.game.house.table.ante)
        self.possible_agents = [f"player_{s}" for s in range(n)]
        self.agent_name_mapping = {a: s for s, a in enumerate(self.possible_agents)}
        box, mask = (spaces.Box(0, 1, (k,), np.int8) for k in (enc.size, enc.actions))
        space = spaces.Dict({"observation": box, "action_mask": mask})
        self.observation_spaces = dict.fromkeys(self.possible_agents, space)
        self.action_spaces = {a: spaces.Discrete(enc.actions) for a in self.possible_agents}
        self._next_seed = seed if seed is not None else 0
        self.game_state: GameState | None = None
        self._returns: list[Amount] = [0] * n

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def _new_state(self, seed: int) -> GameState:
        if self.max_hands is None:
            return self.game.new_session(seed=seed)
        if self.max_hands == 1:
            return self.game.new_hand(seed=seed)
        return State(self.game.house, seed=seed, hands=self.max_hands)  # no Game method

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new seeded state: ``seed``, else the next of a counter (from ``env(seed=…)``)."""
        if seed is not None:
            self._next_seed = seed
        state = self.game_state = self._new_state(self._next_seed)
        self._next_seed += 1
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._returns = [0] * len(self.agents)  # the first antes count in the first reward
        self.agent_selection = self.possible_agents[state.current_player()]

    def _state(self) -> GameState:
        assert self.game_state is not None, "reset() the environment first"
        return self.game_state

    def observe(self, agent: str) -> Obs:
        obs = self._state().observation(self.agent_name_mapping[agent])
        return {"observation": self.encoder.encode(obs), "action_mask": self.encoder.mask(obs)}

    def step(self, action: int | None) -> None:
        """Apply the selected agent's action; a masked-out one raises ``ValueError``
        naming the rule that forbids it (R-DECIDE, R-DRAW, R-FOLLOW …), nothing changed."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} is to act: None is only for a finished agent")
        state, seat = self._state(), self.agent_name_mapping[agent]
        act = index_action(int(action), state.cards_of(seat))
        legal = act in state.legal_actions()
        try:  # an illegal action is tried on a copy, for the rule's own words
            (state if legal else state.clone()).apply_action(act)
        except RuleViolation as e:
            raise ValueError(f"{agent}: action {int(action)} ({act}) is illegal: {e}") from e
        if not legal:
            raise ValueError(f"{agent}: action {int(action)} ({act}) is masked out")
        self._cumulative_rewards[agent] = 0.0
        now = state.returns()
        for a, s in self.agent_name_mapping.items():
            delta = now[s] - self._returns[s]
            self.rewards[a] = float(delta)
            self.infos[a] = {"reward": delta, "returns": now[s]}
        self._returns = now
        if state.is_terminal():
            self.terminations = dict.fromkeys(self.agents, True)
        else:
            self.agent_selection = self.possible_agents[state.current_player()]
        self._accumulate_rewards()

    def render(self) -> str | None:
        """The table as text, every hand shown (a spectator's view, not a seat's)."""
        if self.render_mode is None or self.game_state is None:
            return None
        state, hs = self.game_state, self.game_state.hand
        lines = [
            f"hand {hs.number}/{state.hands_total}  dealer player_{hs.dealer}  upcard "
            f"{card_str(hs.upcard)} (trump {SUIT_NAMES[hs.trump]})  pot {hs.pot}  "
            f"{state.phase_name}"
        ]
        for s, cards in enumerate(hs.hands):
            lines.append(
                f"{'*' if state.current_player() == s else ' '}player_{s}: "
                f"{' '.join(map(card_str, cards)) or '-':<15} won {hs.won[s]}  "
                f"balance {state.balances[s]}{'  active' if s in hs.active else ''}"
            )
        if hs.trick:
            plays = zip(hs.trick_seats, hs.trick, strict=False)
            lines.append("trick: " + ", ".join(f"player_{s} {card_str(c)}" for s, c in plays))
        if state.is_terminal():
            lines.append(f"returns: {', '.join(map(str, state.returns()))}")
        return "\n".join(lines)

    def close(self) -> None:
        self.game_state = None


def env(
    house: str = "standard",
    seed: int | None = None,
    render_mode: str | None = None,
    max_hands: int | None = None,
    engine: str | None = None,
) -> AECEnv:
    """The AEC environment of ``house`` (one session), order-enforced as PettingZoo's own
    environments are; ``.unwrapped`` is the :class:`BourreEnv`.  ``engine`` is
    :class:`~bourre.game.Game`'s: by default the compiled kernel steps the sessions of
    a house it can play (the same states as the Python rules')."""
    return wrappers.OrderEnforcingWrapper(BourreEnv(house, seed, render_mode, max_hands, engine))
