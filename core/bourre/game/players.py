"""Players: bots and people answer the game one action at a time, seeing only an
:class:`~bourre.game.observation.Observation` (made for that call).

A bot implements :class:`Bot` (``act(view) -> Action``) or the three questions of
:class:`Player` (``decide``, ``discard``, ``play``).  A :class:`PlayerBase` that says
``needs_view = False`` (the random bot) is shown only its legal choices and answers
:meth:`~PlayerBase.choose`, :meth:`~PlayerBase.choose_card` or
:meth:`~PlayerBase.choose_discards`.  :func:`ask` puts one question to one seat;
:func:`play_out` drives a state to its end with a bot at every seat.  An answer the
rules forbid is refused with the rule and the words of the rule component that
forbids it (:class:`IllegalAnswer`).  Bots are made by name with :func:`make_bot`
(:mod:`bourre.game.botmaking`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from bourre.game.actions import CARDS, PASS, PLAY, Action, discard
from bourre.game.botmaking import BotFactory, make_bot, takes_house
from bourre.game.observation import Observation
from bourre.game.playerbase import (
    Bot,
    BotError,
    BotFailed,
    IllegalAnswer,
    Player,
    PlayerBase,
    SessionStop,
    bot_name,
    may_not_pass,
    not_a_card,
    not_an_action,
    wrong_type,
)
from bourre.game.state import HandResult, State
from bourre.rules import RuleViolation
from bourre.rules.hookspec import PluginError

if TYPE_CHECKING:
    from bourre.houses.house import House

__all__ = [
    "Bot",
    "BotFactory",
    "BotFailed",
    "IllegalAnswer",
    "Player",
    "PlayerBase",
    "SessionStop",
    "ask",
    "make_bot",
    "play_out",
    "play_seeded",
    "play_turn",
    "takes_house",
]


_VIEW_QUESTIONS = ("act", "decide", "discard", "play")


def _owner(cls: type, name: str) -> type:
    """The class of ``cls``'s method resolution order that defines ``name``."""
    return next(k for k in cls.__mro__ if name in vars(k))


def blind(player: object) -> bool:
    """Whether ``player`` is shown its legal actions only: it says ``needs_view =
    False``, and no class below the one that says so answers with a view itself."""
    if not isinstance(player, PlayerBase):
        return False
    cls: type = type(player)
    if cls not in _BLIND:  # a class is looked at once
        owner = _owner(cls, "needs_view")
        _BLIND[cls] = getattr(cls, "needs_view", True) is False and all(
            getattr(cls, m, None) is getattr(owner, m, None) for m in _VIEW_QUESTIONS
        )
    return _BLIND[cls]


_BLIND: dict[type, bool] = {}


def _asks(player: PlayerBase, question: str) -> bool:
    """Whether a blind bot is asked ``question`` (``choose_card``, ``choose_discards``)
    rather than ``choose``: its class defines it at or below the class that defines
    ``choose`` (a subclass that overrides only ``choose`` is asked ``choose``)."""
    cls: type = type(player)
    if (cls, question) not in _ASKS:  # a class is looked at once
        mro, owner = cls.__mro__, _owner(cls, question)
        _ASKS[cls, question] = owner is not PlayerBase and mro.index(owner) <= mro.index(
            _owner(cls, "choose")
        )
    return _ASKS[cls, question]


_ASKS: dict[tuple[type, str], bool] = {}


def _blind_answer(state: State, player: PlayerBase, seat: int) -> Action:
    """A blind bot's answer, from its legal choices only."""
    phase = state.phase_name
    try:
        if phase == "play" and _asks(player, "choose_card"):
            cards = tuple(state.legal_cards())
            c = player.choose_card(cards)
            if not isinstance(c, int) or not 0 <= c < 52:
                raise not_a_card(seat, c, cards)
            return CARDS[c]
        if phase == "exchange" and _asks(player, "choose_discards"):
            hand = state.cards_of(seat)
            return discard(player.choose_discards(hand, state.exchange_limit()))
        a = player.choose(state.legal_actions())
    except TypeError as e:  # an override answered something of another type
        rule = "R-DECK" if phase == "play" else "R-DRAW" if phase == "exchange" else "R-DECIDE"
        raise wrong_type(seat, rule, e) from None
    if not isinstance(a, Action):
        raise not_an_action(seat, a)
    return a


def _answer(player: Any, view: Observation) -> Action:
    """The answer of a bot asked with a view: its ``act``, else the three questions."""
    act = getattr(player, "act", None)
    if act is not None:
        a = act(view)
        if not isinstance(a, Action):
            raise not_an_action(view.seat, a)
        return a
    phase = view.phase
    try:
        if phase == "play":
            c = player.play(view)
            if not isinstance(c, int) or isinstance(c, bool) or not 0 <= c < 52:
                raise not_a_card(view.seat, c, view.legal)
            return CARDS[c]
        if phase == "exchange":
            cards = player.discard(view)
            try:
                return discard(cards)
            except TypeError:
                raise IllegalAnswer(
                    view.seat, "R-DRAW", f"{cards!r} is not a set of cards"
                ) from None
        ok = player.decide(view)
    except TypeError as e:
        rule = "R-DECK" if phase == "play" else "R-DRAW" if phase == "exchange" else "R-DECIDE"
        raise wrong_type(view.seat, rule, e) from None
    if not ok and view.forced is not None:
        raise may_not_pass(view.seat, view.forced)
    return PLAY if ok else PASS


def ask(state: State, player: Any) -> Action:
    """Ask ``player``, seated at the seat to act, for its action (not applied).  An
    answer the rules refuse is an :class:`IllegalAnswer`; a bot that raises is a
    :class:`BotFailed` naming the seat and the bot (its exception the ``__cause__``);
    a rule component's own failure stays a :class:`PluginError`, and a player's
    :class:`SessionStop` (a person who quits) and an isolated bot's
    :class:`BotError` (named by its isolation) pass as they are."""
    seat = state.current_player()
    try:
        if blind(player):
            return _blind_answer(state, player, seat)
        return _answer(player, state.observation(seat))
    except (RuleViolation, PluginError, BotFailed, BotError, SessionStop):
        raise
    except Exception as e:
        raise BotFailed(seat, bot_name(player), repr(e)[:200]) from e


def play_out(
    state: State,
    players: Sequence[Any],
    on_hand: Callable[[HandResult], None] | None = None,
) -> None:
    """Drive ``state`` to its end with ``players[seat]`` answering for each seat; a
    bot whose ``asked_when_forced`` is false is not asked for an only legal action
    (it is applied).  ``on_hand`` is called with each hand's result as it ends.  A
    state that stops at a chance node (no seed) raises ``RuleViolation``."""
    if len(players) != state.n:
        raise ValueError(f"{len(players)} players for a table of {state.n}")
    if on_hand is not None and not state.keep_results:
        raise ValueError("on_hand needs each hand's result: a state made with keep_results")
    done, number = len(state.results), state.number
    while not state.is_terminal():
        seat = state.current_player()
        if seat < 0:
            raise RuleViolation("R-DEAL", "chance acts now: give its outcome (apply_chance)")
        play_turn(state, players[seat], seat)
        if on_hand is not None and (
            state.number != number or state.is_terminal() or state.is_chance_node()
        ):
            number, results = state.number, state.results  # (a hand ended: a new list)
            while done < len(results):
                on_hand(results[done])
                done += 1


def play_turn(state: State, player: Any, seat: int) -> None:
    """``seat`` (the seat to act) answers through ``player`` and its answer is applied;
    a bot whose ``asked_when_forced`` is false is not asked for an only legal action
    (it is applied).  A bot that touches the table itself, or answers what the rules
    refuse, is an :class:`IllegalAnswer` naming the seat and the rule."""
    action = None
    if getattr(player, "asked_when_forced", True) is False:
        action = state.only_action()
    if action is None:
        before = state.holdings()
        action = ask(state, player)
        if state.holdings() != before:  # it reached the table itself: chips or cards
            raise IllegalAnswer(
                seat,
                "R-SESSION",
                f"{bot_name(player)} changed the balances, the pot or the hands while it was"
                " asked: a bot only answers",
            )
    try:
        state.apply_action(action)
    except IllegalAnswer:
        raise
    except RuleViolation as e:
        raise IllegalAnswer(seat, e.rule, e.reason, e.legal) from None


def play_seeded(
    house: House,
    seed: int | str,
    players: Sequence[Any],
    record: bool,
    keep_results: bool,
    on_hand: Callable[[HandResult], None] | None,
) -> State:
    """A new session of ``house`` whose chance is drawn from ``seed``, driven to its
    end by ``players`` (:func:`play_out`)."""
    state = State(house, seed=seed, record=record, keep_results=keep_results)
    play_out(state, players, on_hand)
    return state
