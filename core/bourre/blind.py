"""Blind bots: a :class:`~bourre.playerbase.PlayerBase` that says ``needs_view =
False`` is shown only its legal choices, never an observation.  Which of its
questions it is asked (:func:`card_form`, :func:`asks_discards`: the lowest class
that answers wins, so a subclass that overrides only ``choose`` is asked ``choose``),
and its answers made actions, or refused as a player's answers are
(:class:`~bourre.playerbase.IllegalAnswer`).  :mod:`bourre.players` asks them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Final

from bourre.actions import CARDS, STAND_PAT, Action
from bourre.cards import cards_of
from bourre.playerbase import PlayerBase, not_a_card, not_an_action, wrong_type

if TYPE_CHECKING:
    from bourre.engine import State

__all__ = [
    "BY_CARDS",
    "BY_CHOICE",
    "BY_MASK",
    "asks_discards",
    "blind",
    "card_chosen",
    "card_form",
    "chosen",
    "discard_cards",
    "discards_chosen",
    "mask_chosen",
]

_CARDS: Final = CARDS
_STAND_PAT: Final = STAND_PAT  # read as constants by compiled code, not from the globals
_new: Final = tuple.__new__  # builds a NamedTuple without its Python-level __new__
_ACTION: Final = Action  # the class as a constant: compiled, no lookup in the globals
_TUPLE: Final = tuple


def chosen(player: PlayerBase, seat: int, actions: Sequence[Action]) -> Action:
    """The answer of a bot that is shown only its legal actions (``needs_view``)."""
    try:
        a = player.choose(actions)
    except TypeError as e:  # a Python override answered something of another type
        raise wrong_type(seat, "R-DECIDE", e) from None
    if not isinstance(a, _ACTION):
        raise not_an_action(seat, a)
    return a


def card_chosen(player: PlayerBase, seat: int, cards: tuple[int, ...]) -> Action:
    """The card a blind bot chooses among the legal ``cards`` (:meth:`PlayerBase.choose_card`),
    as an action; apply_action refuses one outside them."""
    try:
        c = player.choose_card(cards)
        card = 0 <= c < 52
    except TypeError as e:  # a Python override answered something of another type
        raise wrong_type(seat, "R-DECK", e) from None
    if not card:
        raise not_a_card(seat, c, cards)
    return _CARDS[c]


def mask_chosen(player: PlayerBase, seat: int, legal: int) -> Action:
    """The card a blind bot chooses in the ``legal`` mask
    (:meth:`PlayerBase.choose_card_mask`), as an action; apply_action refuses one
    outside it."""
    try:
        c = player.choose_card_mask(legal)
        card = 0 <= c < 52
    except TypeError as e:  # a Python override answered something of another type
        raise wrong_type(seat, "R-DECK", e) from None
    if not card:
        raise not_a_card(seat, c, cards_of(legal))
    return _CARDS[c]


BY_CHOICE: Final = 0
BY_CARDS: Final = 1
BY_MASK: Final = 2


def card_form(player: PlayerBase) -> int:
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


def asks_discards(player: PlayerBase) -> bool:
    """Whether a blind ``player`` is asked :meth:`~PlayerBase.choose_discards` at its
    exchange: its class defines it at or below the class that defines its ``choose``
    (else its ``choose`` is asked, with the legal discards)."""
    cls = type(player)
    got = _DISCARDS.get(cls)
    if got is None:
        mro = cls.__mro__
        owner = _owner(cls, "choose_discards")
        got = _DISCARDS[cls] = owner is not PlayerBase and mro.index(owner) <= mro.index(
            _owner(cls, "choose")
        )
    return got


_DISCARDS: dict[type, bool] = {}
"""Classes already looked at by :func:`asks_discards`."""


def discard_cards(player: PlayerBase, state: State, seat: int) -> tuple[int, ...]:
    """The discards a blind bot chooses at its exchange
    (:meth:`PlayerBase.choose_discards`, shown its hand and the house's limit);
    ``apply_discards`` refuses what the draw does not allow (R-DRAW)."""
    hs = state.hs
    assert hs is not None
    hand = tuple(hs.hands[seat])
    try:
        got = player.choose_discards(hand, state.exchange_limit())
        return got if type(got) is _TUPLE else tuple(got)
    except TypeError as e:  # a Python override answered something of another type
        raise wrong_type(seat, "R-DRAW", e) from None


def discards_chosen(player: PlayerBase, state: State, seat: int) -> Action:
    """:func:`discard_cards` as an action."""
    cards = discard_cards(player, state, seat)
    return _new(_ACTION, ("discard", cards)) if cards else _STAND_PAT


def _owner(cls: type, name: str) -> type:
    """The class of ``cls``'s method resolution order that defines ``name``."""
    return next(k for k in cls.__mro__ if name in vars(k))


_FORM: dict[type, int] = {}
"""Classes already looked at by :func:`card_form`."""

_ASKED_WITH_A_VIEW: Final = ("act", "decide", "discard", "play")


def blind(player: object) -> bool:
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
"""Classes already looked at by :func:`blind`."""
