"""bourre inside OpenSpiel: the game ``python_bourre`` (``pip install bourre[openspiel]``).

Importing this module registers ``python_bourre`` with ``pyspiel``, after which
OpenSpiel's Python algorithms run on bourre's rules::

    import pyspiel
    import bourre.openspiel  # registers python_bourre

    game = pyspiel.load_game("python_bourre", {"house": "standard", "players": 3})

Parameters: ``house``, a house string (any installed variant, ``table(...)``
settings included) and ``players``, the number of players (2–8, R-SEAT), which
overrides the house's ``table.players``.

One OpenSpiel game is **one hand** of the house (a session of one hand: R-FIRST-POT
antes, the deal, the decisions and exchanges, the tricks, the payout, then R-SETTLE
shares what is left in the pot), refereed by :class:`bourre.game.state.State`, so every
rule of the house (its components, its refusals) is the game's.

- **Chance**: the deck is dealt card by card, 52 outcomes the first time, each of the
  cards not yet drawn equally likely (R-DECK, R-DEAL); in a state resampled by
  :meth:`BourreState.resample_from_infostate`, the replacements drawn at an exchange
  are chance outcomes too (R-DRAW).  A reshuffle of the discards (R-RESHUFFLE)
  keeps them in the order discarded, as a table script does.
- **Actions**: ``0``–``51`` play a card (R-FOLLOW), ``52`` pass, ``53`` play the hand
  (R-DECIDE), ``54 + mask`` exchange the cards of the hand (sorted ascending) whose
  bits are set in ``mask`` (R-DRAW).  The legal actions are the state's.
- **Observations**: the observation string and tensor show what the seat sees now
  (its hand, the upcard, the trick, the cards played, who is in and the tricks won);
  the information state string is what it has seen in the hand (its hand as dealt,
  its exchange, every public decision and card played, in order).
- **Returns** are in chips: each seat's balance after the hand and the settlement,
  less the balance it sat down with (exact amounts as floats); zero-sum.
- ``resample_from_infostate`` draws a world consistent with the seat's information
  with :func:`bourre.game.worlds.sample_world`.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from fractions import Fraction
from typing import Any

from pydantic import ValidationError

try:
    import numpy as np
    import pyspiel
except ImportError as e:  # pragma: no cover - exercised where open_spiel is absent
    raise ImportError(
        "bourre.openspiel needs OpenSpiel: pip install 'bourre[openspiel]'"
        f" (open_spiel and numpy; {e})"
    ) from None

from bourre.game.actions import CARDS, PASS, PLAY, Action, Deck, Drew, discard
from bourre.game.observation import Observation
from bourre.game.state import State
from bourre.game.tablesteps import waiting
from bourre.game.worlds import sample_world
from bourre.houses.house import House
from bourre.houses.models import HouseError
from bourre.houses.strings import parse_house_string
from bourre.houses.validation import validation_message
from bourre.rules import RuleViolation
from bourre.rules.cards import card_str, cards_str
from bourre.rules.hookspec import ANTE, PENALTY, SETTLE
from bourre.rules.money import Amount
from bourre.rules.settings import TableSettings

__all__ = ["GAME_TYPE", "BourreGame", "BourreState", "action_of", "house_of"]

PASS_ID = 52
PLAY_ID = 53
DISCARD_BASE = 54

GAME_TYPE = pyspiel.GameType(
    short_name="python_bourre",
    long_name="Python Bourré (bourre)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=8,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification={"house": "standard", "players": 3},
)


def house_of(spec: str, players: int) -> House:
    """The house of ``spec`` at a table of ``players``, for one hand (R-SEAT, R-SESSION)."""
    rules = parse_house_string(spec)
    where = f"house string {spec!r}"
    given = {**rules.table.model_dump(), "players": players, "hands": 1}
    try:
        table = TableSettings.model_validate(given)
    except ValidationError as e:
        raise HouseError(validation_message(e, where, "table", TableSettings)) from None
    return House(rules.model_copy(update={"table": table}), source=where)


def action_of(state: State, action_id: int) -> Action:
    """The bourre action of an OpenSpiel action id at ``state`` (see the module); an
    id that names no action (a negative one, a mask with a bit past the cards held)
    is refused with ``pyspiel.SpielError``, never read as another exchange (R-DRAW)."""
    if isinstance(action_id, bool) or not isinstance(action_id, int):
        raise pyspiel.SpielError(f"{action_id!r} is not an action id (a whole number)")
    if 0 <= action_id < 52:
        return CARDS[action_id]
    if action_id == PASS_ID:
        return PASS
    if action_id == PLAY_ID:
        return PLAY
    mask = action_id - DISCARD_BASE
    hand = state.hand.hand_of(state.current_player())
    if not 0 <= mask < 1 << len(hand):
        raise pyspiel.SpielError(
            f"action {action_id} is no action of this game: 0-51 play a card, {PASS_ID} pass,"
            f" {PLAY_ID} play the hand, {DISCARD_BASE} to {DISCARD_BASE + (1 << len(hand)) - 1}"
            f" exchange the {len(hand)} cards held by mask (R-DRAW)"
        )
    return discard(c for i, c in enumerate(hand) if mask >> i & 1)


def _id_of(state: State, action: Action) -> int:
    if action.kind == "card":
        return action.cards[0]
    if action.kind == "pass":
        return PASS_ID
    if action.kind == "play":
        return PLAY_ID
    hand = state.hand.hands[state.current_player()]
    return DISCARD_BASE + sum(1 << hand.index(c) for c in action.cards)


def _cards(cards: Iterable[int]) -> str:
    """``2S 3H``: cards in R-DECK notation."""
    return " ".join(cards_str(cards))


class _Table:
    """The bourre state behind an OpenSpiel state, with the chance cards drawn so far;
    copied by :meth:`State.clone` (the house and its components are shared)."""

    def __init__(self, st: State, start: list[Amount], drawn: list[int]) -> None:
        self.st, self.start, self.drawn = st, start, drawn

    def __deepcopy__(self, memo: dict[int, Any]) -> _Table:
        return _Table(self.st.clone(), list(self.start), list(self.drawn))


class BourreGame(pyspiel.Game):  # type: ignore[misc]
    """One hand of a bourre house as an OpenSpiel game."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        spec = str(params.get("house", "standard"))
        players = int(params.get("players", 3))
        self.house = house_of(spec, players)
        n, h = players, self.house.rules.hand_size
        ante = self.house.table.ante
        extra = self.house.rules[ANTE].play_ante(ante)
        most = n * (ante + extra)  # the largest pot at stake in one hand
        penalty = self.house.rules[PENALTY](most)
        info = pyspiel.GameInfo(
            num_distinct_actions=DISCARD_BASE + 2**h,
            max_chance_outcomes=52,
            num_players=n,
            min_utility=-float(ante + extra + penalty),
            max_utility=float(most + (n - 1) * penalty),
            utility_sum=0.0,
            max_game_length=2 * n + 2 * n * h,
        )
        super().__init__(GAME_TYPE, info, {"house": spec, "players": players})

    def new_initial_state(self) -> BourreState:
        return BourreState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> BourreObserver:
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        kind = iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False)
        return BourreObserver(kind, self.num_players())


class BourreState(pyspiel.State):  # type: ignore[misc]
    """A hand in progress: the bourre state, stepped by OpenSpiel's actions."""

    def __init__(self, game: BourreGame, table: _Table | None = None) -> None:
        super().__init__(game)
        self.house: House = game.house
        if table is None:
            first = self.house.table.first_dealer
            st = State(self.house, hands=1, dealer=first if isinstance(first, int) else 0)
            table = _Table(st, list(st.balances), [])
        self.table = table

    @property
    def st(self) -> State:
        return self.table.st

    # -- who acts -----------------------------------------------------------------

    def current_player(self) -> int:
        st = self.st
        if st.is_terminal():
            return int(pyspiel.PlayerId.TERMINAL)
        if st.is_chance_node():
            return int(pyspiel.PlayerId.CHANCE)
        return st.current_player()

    def is_terminal(self) -> bool:
        return self.st.is_terminal()

    def _legal_actions(self, player: int) -> list[int]:
        st = self.st
        return sorted(_id_of(st, a) for a in st.legal_actions())

    def _candidates(self) -> list[int]:
        """The cards chance may draw next: for the deck, those not drawn; for the
        replacements of an exchange, those nobody at the table has seen."""
        st = self.st
        if st.chance_wants == "deal":
            drawn = set(self.table.drawn)
            return [c for c in range(52) if c not in drawn]
        hs = st.hand
        seen = set(hs.places()) | set(self.table.drawn) | set(_discards(st))
        return [c for c in range(52) if c not in seen]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        outcomes = self._candidates()
        p = 1.0 / len(outcomes)
        return [(c, p) for c in outcomes]

    # -- stepping -----------------------------------------------------------------

    def _apply_action(self, action: int) -> None:
        st, t = self.st, self.table
        if st.is_chance_node():
            if action not in self._candidates():
                named = card_str(action) if 0 <= action < 52 else f"outcome {action} (not a card)"
                raise pyspiel.SpielError(f"chance cannot draw {named} now (R-DECK)")
            t.drawn.append(action)
            if st.chance_wants == "deal":
                if len(t.drawn) == 51:  # the last card is what is left
                    t.drawn.append(next(c for c in range(52) if c not in t.drawn))
                if len(t.drawn) == 52:
                    st.apply_chance(Deck(tuple(t.drawn)))
                    t.drawn = []
            elif len(t.drawn) == len(_discards(st)):
                st.apply_chance(Drew(tuple(t.drawn)))
                t.drawn = []
            return
        try:
            st.apply_action(action_of(st, action))
        except RuleViolation as e:  # OpenSpiel's refusal, in the rule's words
            raise pyspiel.SpielError(f"action {action} is not legal now: {e}") from e

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"Draw:{card_str(action)}"
        if action < 52:
            return card_str(action)
        if action == PASS_ID:
            return "pass"
        if action == PLAY_ID:
            return "play"
        return f"exchange mask {action - DISCARD_BASE}"

    def returns(self) -> list[float]:
        st = self.st
        if not st.is_terminal():
            return [0.0] * st.n
        if st.final is not None:
            balances = st.final[0]
        else:  # a resampled world, not settled: the house's settlement (R-SETTLE)
            balances = self.house.rules[SETTLE](list(st.balances), st.pot)[0]
        return [
            float(Fraction(b) - Fraction(s))
            for b, s in zip(balances, self.table.start, strict=True)
        ]

    def __str__(self) -> str:
        st = self.st
        if st.chance_wants == "deal":
            return f"dealing: {len(self.table.drawn)} cards drawn"
        hs = st.hand
        hands = " | ".join(_cards(h) for h in hs.hands)
        return f"dealer {hs.dealer}, trump {card_str(hs.upcard)}; {hands}; {st.phase_name}"

    # -- information ----------------------------------------------------------------

    def view(self, player: int) -> Observation | None:
        """What ``player`` sees now, ``None`` while the deck is being dealt."""
        st = self.st
        if st.chance_wants == "deal":
            return None
        return st.observation(player)

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> BourreState:
        """A state the seat ``player_id`` cannot tell from this one: the unseen cards
        dealt at random (:func:`bourre.game.worlds.sample_world`), seeded from
        ``probability_sampler``; this state itself when the seat has seen everything
        there is (while dealing, or at the end)."""
        view = self.view(player_id)
        st = self.st
        if view is None or st.is_terminal() or st.is_chance_node():
            return self.clone()  # type: ignore[no-any-return]
        rng = random.Random(probability_sampler())
        world = sample_world(self.house, view, rng, tries=50)
        if world is None:
            return self.clone()  # type: ignore[no-any-return]
        state = BourreState(self.get_game(), _Table(world, list(self.table.start), []))
        return state


def _discards(st: State) -> tuple[int, ...]:
    """The discards of the seat whose replacements chance draws now (else none)."""
    wait = waiting(st)
    return wait.discards if wait is not None else ()


def _info_string(state: BourreState, player: int) -> str:
    """Everything ``player`` has seen in the hand, in order (perfect recall)."""
    view = state.view(player)
    if view is None:
        return f"p{player} dealing"
    played = [c for t in view.tricks for _, c in t.plays] + [c for _, c in view.trick]
    mine_played = [c for t in view.tricks for s, c in t.plays if s == player]
    mine_played += [c for s, c in view.trick if s == player]
    held = list(view.hand) + mine_played
    dealt = sorted({*(c for c in held if c not in view.got), *view.gave})
    decisions = " ".join(
        f"{d.seat}:{'play' if d.play else 'pass'}/{d.exchanged}" for d in view.decisions
    )
    plays = " ".join(
        f"{s}:{card_str(c)}"
        for s, c in [p for t in view.tricks for p in t.plays] + list(view.trick)
    )
    mine = f"me {view.my_decision}" if view.my_decision >= 0 else "me ?"
    return (
        f"p{player} dealer {view.dealer} up {card_str(view.upcard)} dealt {_cards(dealt)}"
        f" | {decisions} | {mine} gave {_cards(view.gave)} got {_cards(view.got)}"
        f" | {plays} | {len(played)} played, {view.phase} {view.to_act}"
    )


class BourreObserver:
    """OpenSpiel's observer of :class:`BourreState` (the ``PyObserver`` interface)."""

    def __init__(self, iig_obs_type: Any, n: int) -> None:
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        self.n = n
        pieces: list[tuple[str, int, tuple[int, ...]]] = []
        if not self.perfect_recall:
            pieces = [
                ("player", n, (n,)),
                ("hand", 52, (52,)),
                ("upcard", 52, (52,)),
                ("trick", 52, (52,)),
                ("played", 52, (52,)),
                ("active", n, (n,)),
                ("won", n, (n,)),
                ("to_act", n, (n,)),
                ("phase", 3, (3,)),
                ("pot", 1, (1,)),
            ]
        self.tensor = np.zeros(sum(size for _, size, _ in pieces), np.float32)
        self.dict: dict[str, Any] = {}
        index = 0
        for name, size, shape in pieces:
            self.dict[name] = self.tensor[index : index + size].reshape(shape)
            index += size

    def set_from(self, state: BourreState, player: int) -> None:
        self.tensor.fill(0)
        if self.perfect_recall:
            return
        d = self.dict
        d["player"][player] = 1
        view = state.view(player)
        if view is None:
            return
        for c in view.hand:
            d["hand"][c] = 1
        d["upcard"][view.upcard] = 1
        for _, c in view.trick:
            d["trick"][c] = 1
        for t in view.tricks:
            for _, c in t.plays:
                d["played"][c] = 1
        for s in view.active:
            d["active"][s] = 1
        for s, w in enumerate(view.tricks_won):
            d["won"][s] = w
        if 0 <= view.to_act < self.n:
            d["to_act"][view.to_act] = 1
        phases = ("decide", "exchange", "play")
        if view.phase in phases:
            d["phase"][phases.index(view.phase)] = 1
        d["pot"][0] = float(view.pot)

    def string_from(self, state: BourreState, player: int) -> str:
        if self.perfect_recall:
            return _info_string(state, player)
        view = state.view(player)
        if view is None:
            return f"p{player} dealing"
        trick = " ".join(f"{s}:{card_str(c)}" for s, c in view.trick)
        won = ",".join(str(w) for w in view.tricks_won)
        return (
            f"p{player} hand {_cards(view.hand)} up {card_str(view.upcard)}"
            f" trick [{trick}] won {won} active {list(view.active)} pot {view.pot}"
            f" {view.phase} {view.to_act}"
        )


pyspiel.register_game(GAME_TYPE, BourreGame)
