"""Players: bots and people answer the game one action at a time, seeing only an
:class:`~bourre.observation.Observation` (made for that call).

A bot implements :class:`~bourre.rules.Bot` (``act(view) -> Action``) or the older
three questions of :class:`~bourre.rules.Player` (``decide``, ``discard``, ``play``);
the built-in bots are :class:`PlayerBase` subclasses, and a blind one is shown only
its legal choices (:mod:`bourre.blind`).  :func:`ask` puts one question to one seat;
:func:`play_out` drives a state to its end with a bot at every seat.  An answer the
rules forbid is refused with the rule and the words of the rule component that
forbids it (:class:`IllegalAnswer`).  Bots are made by name with :func:`make_bot`
(:mod:`bourre.botmaking`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Final

from bourre.actions import CARDS, PASS, PLAY, Action, discard
from bourre.blind import (
    BY_CHOICE,
    BY_MASK,
    asks_discards,
    blind,
    card_chosen,
    card_form,
    chosen,
    discard_cards,
    discards_chosen,
    mask_chosen,
)
from bourre.botmaking import BotFactory, make_bot, takes_house
from bourre.cardplay import legal as legal_set
from bourre.cardplay import legal_mask
from bourre.engine import HandResult, State
from bourre.flow import PLAY_PHASE
from bourre.observation import Observation
from bourre.playerbase import (
    IllegalAnswer,
    PlayerBase,
    may_not_pass,
    not_a_card,
    not_an_action,
    wrong_type,
)
from bourre.rules import Player, RuleViolation

if TYPE_CHECKING:
    from bourre.house import House

__all__ = [
    "BotFactory",
    "IllegalAnswer",
    "Player",
    "PlayerBase",
    "ask",
    "make_bot",
    "play_out",
    "play_seeded",
    "takes_house",
]

_CARDS: Final = CARDS
_PASS_A: Final = PASS  # read as constants by compiled code, not from the globals
_PLAY_A: Final = PLAY
_new: Final = tuple.__new__  # builds a NamedTuple without its Python-level __new__
_ACTION: Final = Action  # the class as a constant: compiled, no lookup in the globals


def _native_answer(player: PlayerBase, view: Observation) -> Action:
    """:func:`_answer` for a :class:`PlayerBase` (the same checks)."""
    phase = view.phase
    try:
        if phase == "play":
            c = player.play(view)
            if not 0 <= c < 52:
                raise not_a_card(view.seat, c, view.legal)
            return _CARDS[c]
        if phase == "exchange":
            return _new(Action, ("discard", tuple(player.discard(view))))
        ok = player.decide(view)
    except TypeError as e:  # a Python override answered something of another type
        rule = "R-DECK" if phase == "play" else "R-DRAW" if phase == "exchange" else "R-DECIDE"
        raise wrong_type(view.seat, rule, e) from None
    if not ok and view.forced is not None:
        raise may_not_pass(view.seat, view.forced)
    return _PLAY_A if ok else _PASS_A


def _answer(player: Any, view: Observation, act: Any) -> Action:
    """The player's answer as an action: ``act`` is the bot's ``act`` method, or
    ``None`` for the three-question form."""
    if isinstance(player, PlayerBase) and act is None:
        return _native_answer(player, view)
    if act is not None:
        a = act(view)
        if not isinstance(a, _ACTION):
            raise not_an_action(view.seat, a)
        return a
    phase = view.phase
    if phase == "play":
        c = player.play(view)
        if not isinstance(c, int) or not 0 <= c < 52:
            raise not_a_card(view.seat, c, view.legal)
        return CARDS[c]
    if phase == "exchange":
        cards = player.discard(view)
        try:
            return discard(cards)
        except TypeError:
            raise IllegalAnswer(view.seat, "R-DRAW", f"{cards!r} is not a set of cards") from None
    ok = player.decide(view)
    if not ok and view.forced is not None:
        raise may_not_pass(view.seat, view.forced)
    return PLAY if ok else PASS


def ask(state: State, player: Any) -> Action:
    """Ask ``player``, seated at the seat to act, for its action (not applied)."""
    seat = state.current_player()
    if blind(player):
        if state.phase == PLAY_PHASE:
            form = card_form(player)
            if form == BY_MASK:
                return mask_chosen(player, seat, legal_mask(state))
            if form != BY_CHOICE:
                return card_chosen(player, seat, legal_set(state))
        elif state.phase_name == "exchange" and asks_discards(player):
            return discards_chosen(player, state, seat)
        return chosen(player, seat, state.choices())
    return _answer(player, state.observation(seat), getattr(player, "act", None))


def play_out(
    state: State,
    players: Sequence[Any],
    on_hand: Callable[[HandResult], None] | None = None,
) -> None:
    """Drive ``state`` to its end with ``players[seat]`` answering for each seat
    (a bot whose ``asked_when_forced`` is false is not asked for an only legal
    action: it is applied; one whose ``needs_view`` is false is shown its legal
    actions only, not an observation); ``on_hand`` is called with each hand's result as it ends.
    A state that stops at a chance node (no seed) raises ``RuleViolation``."""
    if len(players) != state.n:
        raise ValueError(f"{len(players)} players for a table of {state.n}")
    if on_hand is not None and not state.keep_results:
        raise ValueError("on_hand needs each hand's result: a state made with keep_results")
    results = state.results
    done = len(results)
    seated = list(players)  # indexed natively
    # each bot's form, looked at once (the same bot at every seat, once): shown only its
    # legal choices (bourre.blind), its card form, whether it is asked its discards, its
    # ``act`` (a blind bot is never asked with a view: no lookup of an ``act`` it lacks,
    # which costs a raised and caught AttributeError), whether it is asked when forced
    shown: list[bool] = []
    forms: list[int] = []
    by_hand: list[bool] = []
    acts: list[Any] = []
    forced: list[bool] = []
    last: Any = None
    b, f, h, a, fo = False, BY_CHOICE, False, None, False
    for k, p in enumerate(seated):
        if not k or p is not last:
            b = blind(p)
            f = card_form(p) if b else BY_CHOICE
            h = b and asks_discards(p)
            a = None if b else getattr(p, "act", None)
            fo = getattr(p, "asked_when_forced", True) is False
            last = p
        shown.append(b)
        forms.append(f)
        by_hand.append(h)
        acts.append(a)
        forced.append(fo)
    action: Action | None = None
    cards: tuple[int, ...] = ()
    while not state.is_terminal():
        seat = state.current_player()
        if seat < 0:
            raise RuleViolation("R-DEAL", "chance acts now: give its outcome (apply_chance)")
        if not (forced[seat] and state.apply_only_action()):  # else its only legal action, applied
            form = forms[seat]
            if form and state.phase == PLAY_PHASE:  # a card, chosen in the mask or the cards
                if form == BY_MASK:
                    action = mask_chosen(seated[seat], seat, legal_mask(state))
                else:
                    action = card_chosen(seated[seat], seat, legal_set(state))
            elif by_hand[seat] and state.phase_name == "exchange":  # discards, from the hand
                action = None
                cards = discard_cards(seated[seat], state, seat)
            elif shown[seat]:
                action = chosen(seated[seat], seat, state.choices())
            else:
                action = _answer(seated[seat], state.observation(seat), acts[seat])
            try:
                if action is None:
                    state.apply_discards(cards)  # (no action made: bourre.engine)
                else:
                    state.apply_action(action)
            except IllegalAnswer:
                raise
            except RuleViolation as e:
                raise IllegalAnswer(seat, e.rule, e.reason, e.legal) from None
        if on_hand is not None:
            while done < len(results):
                on_hand(results[done])
                done += 1


def play_seeded(
    house: House,
    seed: int | str,
    players: Sequence[Any],
    record: bool,
    keep_results: bool,
    on_hand: Callable[[HandResult], None] | None,
) -> State:
    """A new session of ``house`` whose chance is drawn from ``seed``, driven to its
    end by ``players`` (:func:`play_out`): :func:`bourre.simulate.play_session`'s
    state, made here in compiled code (a compiled call passes the state's settings
    natively, where a call from Python parses them by keyword)."""
    state = State(house, seed=seed, record=record, keep_results=keep_results)
    play_out(state, players, on_hand)
    return state
