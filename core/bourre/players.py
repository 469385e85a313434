"""Players: bots and people answer the game one action at a time, seeing only an
:class:`~bourre.observation.Observation` (made for that call).

A bot implements :class:`~bourre.rules.Bot` (``act(view) -> Action``) or the older
three questions of :class:`~bourre.rules.Player` (``decide``, ``discard``, ``play``).
:func:`ask` puts one question to one seat; :func:`play_out` drives a state to its end
with a bot at every seat.  An answer the rules forbid is refused with the rule and
the words of the rule component that forbids it (:class:`IllegalAnswer`).  Bots are
made by name with :func:`make_bot` (:mod:`bourre.botmaking`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, ClassVar, Final

from mypy_extensions import mypyc_attr

from bourre.actions import CARDS, PASS, PLAY, Action, discard
from bourre.botmaking import BotFactory, make_bot, takes_house
from bourre.cardplay import legal as legal_set
from bourre.cardplay import legal_mask
from bourre.cards import cards_of
from bourre.engine import HandResult, State
from bourre.flow import PLAY_PHASE
from bourre.observation import Observation
from bourre.rules import Player, RuleViolation

__all__ = [
    "BotFactory",
    "IllegalAnswer",
    "Player",
    "PlayerBase",
    "ask",
    "make_bot",
    "play_out",
    "takes_house",
]

_CARDS: Final = CARDS
_PASS_A: Final = PASS  # read as constants by compiled code, not from the globals
_PLAY_A: Final = PLAY
_new: Final = tuple.__new__  # builds a NamedTuple without its Python-level __new__
_ACTION: Final = Action  # the class as a constant: compiled, no lookup in the globals


class IllegalAnswer(RuleViolation):
    """A player's answer the rules forbid; ``seat`` says whose."""

    def __init__(self, seat: int, rule: str, message: str, legal: Sequence[object] = ()) -> None:
        super().__init__(rule, f"seat {seat}: {message}", legal)
        self.seat = seat
        self.words = message

    def __reduce__(self) -> tuple[object, ...]:
        return (IllegalAnswer, (self.seat, self.rule, self.words, self.legal))


@mypyc_attr(allow_interpreted_subclasses=True)  # compiled (setup.py); subclass freely
class PlayerBase:
    """A base class for bots of the three-question form (:class:`~bourre.rules.Player`):
    a subclass is asked through the compiled method table, without Python's argument
    passing (the built-in bots are).  Overrides written in Python work the same.

    On its own it is the plainest player at the table: it plays every hand, stands
    pat and plays its lowest legal card; a subclass overrides what it does otherwise."""

    asked_when_forced: ClassVar[bool] = True
    """Whether :func:`play_out` asks this bot when it has one legal action (a last
    card, a forced play).  A bot whose answers depend only on the observation, and
    that draws no random number then, may say ``False``: the action is applied
    without an observation made for it (the heuristic and random bots do; a subclass
    of theirs that wants every turn sets it back to ``True``)."""

    needs_view: ClassVar[bool] = True
    """Whether the bot is asked with an observation.  A bot that picks among its
    legal actions without looking at the table (the random bot) says ``False`` and
    answers :meth:`choose` instead: no observation is made for it.  A subclass of such
    a bot that answers with a view (overrides ``act``, ``decide``, ``discard`` or
    ``play``) is asked with one, unless it says ``needs_view = False`` itself."""

    def choose(self, actions: Sequence[Action]) -> Action:
        """For a bot whose ``needs_view`` is false: one of ``actions``, the seat's
        legal actions now (``State.legal_actions``), which is all it is shown.  This
        one answers as the three questions above do."""
        first = actions[0]
        return actions[-1] if first.kind == "pass" else first  # play; stand pat; lowest

    def choose_card(self, cards: tuple[int, ...]) -> int:
        """For a bot whose ``needs_view`` is false, at a card to play with more than
        one legal: one of ``cards``, the legal cards (ascending), answering as
        :meth:`choose` would for their actions.  ``play_out`` and ``ask`` ask this
        instead of :meth:`choose` (no list of actions made) when the bot's class
        defines it at or below the class that defines its :meth:`choose`: a subclass
        that overrides only :meth:`choose` is asked :meth:`choose`."""
        return self.choose([_CARDS[c] for c in cards]).cards[0]

    def choose_card_mask(self, legal: int) -> int:
        """For a bot whose ``needs_view`` is false, at a card to play with more than
        one legal: one of the legal cards, given as a bit mask (bit ``1 << card``,
        :mod:`bourre.cards`), answering as :meth:`choose_card` would for them.  No
        tuple of cards is made for a bot that answers this (the random bot does):
        ``play_out`` and ``ask`` ask it when the bot's class defines it at or below
        the class that defines its :meth:`choose_card`; this one asks
        :meth:`choose_card` with the cards, ascending."""
        return self.choose_card(tuple(cards_of(legal)))

    def decide(self, view: Observation) -> bool:
        return True

    def discard(self, view: Observation) -> Sequence[int]:
        return ()

    def play(self, view: Observation) -> int:
        return view.legal[0]  # the legal cards are sorted, lowest first


def _native_answer(player: PlayerBase, view: Observation) -> Action:
    """:func:`_answer` for a :class:`PlayerBase` (the same checks)."""
    phase = view.phase
    try:
        if phase == "play":
            c = player.play(view)
            if not 0 <= c < 52:
                raise IllegalAnswer(view.seat, "R-DECK", f"{c!r} is not a card", view.legal)
            return _CARDS[c]
        if phase == "exchange":
            return _new(Action, ("discard", tuple(player.discard(view))))
        ok = player.decide(view)
    except TypeError as e:  # a Python override answered something of another type
        rule = "R-DECK" if phase == "play" else "R-DRAW" if phase == "exchange" else "R-DECIDE"
        raise IllegalAnswer(view.seat, rule, f"answered the wrong type: {e}") from None
    if not ok and view.forced is not None:
        raise IllegalAnswer(view.seat, view.forced, "may not pass", ("play",))
    return _PLAY_A if ok else _PASS_A


def _answer(player: Any, view: Observation, act: Any) -> Action:
    """The player's answer as an action: ``act`` is the bot's ``act`` method, or
    ``None`` for the three-question form."""
    if isinstance(player, PlayerBase) and act is None:
        return _native_answer(player, view)
    if act is not None:
        a = act(view)
        if not isinstance(a, _ACTION):
            raise IllegalAnswer(view.seat, "R-DECIDE", f"answered {a!r}, which is not an action")
        return a
    phase = view.phase
    if phase == "play":
        c = player.play(view)
        if not isinstance(c, int) or not 0 <= c < 52:
            raise IllegalAnswer(view.seat, "R-DECK", f"{c!r} is not a card", view.legal)
        return CARDS[c]
    if phase == "exchange":
        cards = player.discard(view)
        try:
            return discard(cards)
        except TypeError:
            raise IllegalAnswer(view.seat, "R-DRAW", f"{cards!r} is not a set of cards") from None
    ok = player.decide(view)
    if not ok and view.forced is not None:
        raise IllegalAnswer(view.seat, view.forced, "may not pass", ("play",))
    return PLAY if ok else PASS


def _chosen(player: PlayerBase, seat: int, actions: Sequence[Action]) -> Action:
    """The answer of a bot that is shown only its legal actions (``needs_view``)."""
    try:
        a = player.choose(actions)
    except TypeError as e:  # a Python override answered something of another type
        raise IllegalAnswer(seat, "R-DECIDE", f"answered the wrong type: {e}") from None
    if not isinstance(a, _ACTION):
        raise IllegalAnswer(seat, "R-DECIDE", f"answered {a!r}, which is not an action")
    return a


def _card_chosen(player: PlayerBase, seat: int, cards: tuple[int, ...]) -> Action:
    """The card a blind bot chooses among the legal ``cards`` (:meth:`PlayerBase.choose_card`),
    as an action; apply_action refuses one outside them."""
    try:
        c = player.choose_card(cards)
        card = 0 <= c < 52
    except TypeError as e:  # a Python override answered something of another type
        raise IllegalAnswer(seat, "R-DECK", f"answered the wrong type: {e}") from None
    if not card:
        raise IllegalAnswer(seat, "R-DECK", f"{c!r} is not a card", cards)
    return _CARDS[c]


def _mask_chosen(player: PlayerBase, seat: int, legal: int) -> Action:
    """The card a blind bot chooses in the ``legal`` mask
    (:meth:`PlayerBase.choose_card_mask`), as an action; apply_action refuses one
    outside it."""
    try:
        c = player.choose_card_mask(legal)
        card = 0 <= c < 52
    except TypeError as e:  # a Python override answered something of another type
        raise IllegalAnswer(seat, "R-DECK", f"answered the wrong type: {e}") from None
    if not card:
        raise IllegalAnswer(seat, "R-DECK", f"{c!r} is not a card", cards_of(legal))
    return _CARDS[c]


BY_CHOICE: Final = 0
BY_CARDS: Final = 1
BY_MASK: Final = 2


def _card_form(player: PlayerBase) -> int:
    """How a blind ``player`` is asked for a card: :data:`BY_MASK`
    (:meth:`~PlayerBase.choose_card_mask`) when its class defines that at or below
    the class that defines its ``choose_card``, else :data:`BY_CARDS`
    (:meth:`~PlayerBase.choose_card`) when that is defined at or below its
    ``choose``, else :data:`BY_CHOICE` (its ``choose``, with the cards' actions)."""
    cls = type(player)
    got = _FORM.get(cls)
    if got is None:
        mro = cls.__mro__
        card_owner = _owner(cls, "choose_card")
        mask_owner = _owner(cls, "choose_card_mask")
        if card_owner is PlayerBase or mro.index(card_owner) > mro.index(_owner(cls, "choose")):
            got = BY_CHOICE
        elif mask_owner is not PlayerBase and mro.index(mask_owner) <= mro.index(card_owner):
            got = BY_MASK
        else:
            got = BY_CARDS
        _FORM[cls] = got
    return got


def _owner(cls: type, name: str) -> type:
    """The class of ``cls``'s method resolution order that defines ``name``."""
    return next(k for k in cls.__mro__ if name in vars(k))


_FORM: dict[type, int] = {}
"""Classes already looked at by :func:`_card_form`."""

_ASKED_WITH_A_VIEW: Final = ("act", "decide", "discard", "play")


def _blind(player: object) -> bool:
    """Whether ``player`` is shown its legal actions only: it says ``needs_view =
    False``, and no subclass below the class that says so answers with a view itself
    (overrides ``act`` or one of the three questions)."""
    if not isinstance(player, PlayerBase) or getattr(player, "needs_view", True) is not False:
        return False
    cls = type(player)
    got = _BLIND.get(cls)
    if got is None:
        owner = _owner(cls, "needs_view")
        got = _BLIND[cls] = all(
            getattr(cls, m, None) is getattr(owner, m, None) for m in _ASKED_WITH_A_VIEW
        )
    return got


_BLIND: dict[type, bool] = {}
"""Classes already looked at by :func:`_blind`."""


def ask(state: State, player: Any) -> Action:
    """Ask ``player``, seated at the seat to act, for its action (not applied)."""
    seat = state.current_player()
    if _blind(player):
        if state.phase == PLAY_PHASE:
            form = _card_form(player)
            if form == BY_MASK:
                return _mask_chosen(player, seat, legal_mask(state))
            if form == BY_CARDS:
                return _card_chosen(player, seat, legal_set(state))
        return _chosen(player, seat, state.choices())
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
    blind = [_blind(p) for p in seated]  # shown only their legal actions
    forms = [_card_form(p) if b else BY_CHOICE for p, b in zip(seated, blind, strict=True)]
    # each bot's form, once (a blind bot is never asked with a view: no lookup of an
    # ``act`` it lacks, which costs a raised and caught AttributeError)
    acts = [None if b else getattr(p, "act", None) for p, b in zip(seated, blind, strict=True)]
    forced = [getattr(p, "asked_when_forced", True) is False for p in seated]
    while not state.is_terminal():
        seat = state.current_player()
        if seat < 0:
            raise RuleViolation("R-DEAL", "chance acts now: give its outcome (apply_chance)")
        if not (forced[seat] and state.apply_only_action()):  # else its only legal action, applied
            form = forms[seat]
            if form and state.phase == PLAY_PHASE:  # a card, chosen in the mask or the cards
                if form == BY_MASK:
                    action = _mask_chosen(seated[seat], seat, legal_mask(state))
                else:
                    action = _card_chosen(seated[seat], seat, legal_set(state))
            elif blind[seat]:
                action = _chosen(seated[seat], seat, state.choices())
            else:
                action = _answer(seated[seat], state.observation(seat), acts[seat])
            try:
                state.apply_action(action)
            except IllegalAnswer:
                raise
            except RuleViolation as e:
                raise IllegalAnswer(seat, e.rule, e.reason, e.legal) from None
        if on_hand is not None:
            while done < len(results):
                on_hand(results[done])
                done += 1
