"""What one seat may know, as an immutable value (:class:`Observation`), and the
legal discards of an exchange as a value (:class:`Discards`).

``state.observation(seat)`` makes a new one for each call from the public facts of the
hand and that seat's own cards: its hand and discards, the upcard, the decisions and
exchange counts announced, the cards played, tricks won, the pot and the balances.  It
holds plain ints, strings and tuples of them, never a reference to the game, the
deck, the stock or another player's cards: nothing hidden can be reached from it
(``tests/test_state.py`` walks it with :func:`gc.get_referents`).  Its attributes are
read-only.  Compiled (setup.py): a bot reads its fields at C speed.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Final

from bourre.actions import CARDS, Action
from bourre.cards import card_str
from bourre.money import Amount
from bourre.state import PublicDecision, TrickLog

__all__ = ["Discards", "Observation"]

_FIELDS = [
    "seat",
    "players",
    "hand_size",
    "number",
    "dealer",
    "upcard",
    "trump",
    "hand",
    "own_discards",
    "decisions",
    "active",
    "tricks",
    "trick",
    "tricks_won",
    "pot",
    "balances",
    "stock_size",
    "to_act",
    "phase",
    "legal_actions",
    "legal",
    "cinch",
    "forced",
    "my_decision",
    "gave",
    "got",
    "exchange_limit",
]


class Observation:
    """What the player at ``seat`` sees now (read-only).  The attribute names are
    those bots have always read (``hand``, ``legal``, ``forced``, ``trick`` …)."""

    seat: Final[int]
    players: Final[int]
    hand_size: Final[int]
    number: Final[int]
    """The hand's number in the session (1 for the first)."""
    dealer: Final[int]
    upcard: Final[int]
    trump: Final[int]
    hand: Final[tuple[int, ...]]
    """This seat's cards, sorted."""
    own_discards: Final[tuple[int, ...]]
    """This seat's discards not yet returned to a stock (R-RESHUFFLE)."""
    decisions: Final[tuple[PublicDecision, ...]]
    """The decisions announced so far, with each exchange count."""
    active: Final[tuple[int, ...]]
    """The seats playing (public ones only while decisions are secret)."""
    tricks: Final[tuple[TrickLog, ...]]
    trick: Final[tuple[tuple[int, int], ...]]
    """The current trick so far, ``(seat, card)`` in play order."""
    tricks_won: Final[tuple[int, ...]]
    pot: Final[Amount]
    balances: Final[tuple[Amount, ...]]
    stock_size: Final[int]
    to_act: Final[int]
    """The seat to act now (-1 when chance or nobody acts)."""
    phase: Final[str]
    """``"decide"``, ``"exchange"``, ``"play"``, ``"chance"`` or ``"over"``."""
    _actions: Final[Sequence[Action] | None]
    legal: Final[tuple[int, ...]]
    """The cards this seat may play now (when ``phase == "play"``)."""
    cinch: Final[bool]
    """Whether this seat has a cinch now (R-SURE)."""
    forced: Final[str | None]
    """When deciding: the rule that forbids passing, if any."""
    my_decision: Final[int]
    """This seat's own decision so far: -1 none, 0 pass, 1 play (it knows it even
    while decisions are secret)."""
    gave: Final[tuple[int, ...]]
    """The cards this seat discarded this hand, in order."""
    got: Final[tuple[int, ...]]
    """The replacements this seat received this hand."""
    exchange_limit: Final[int]
    """When exchanging: the most cards this seat may discard (R-DRAW), else 0."""
    played: Final[int]
    """Bitmask (bit ``card``) of the cards played this deal, current trick included:
    what ``tricks`` and ``trick`` show, ready for bit arithmetic."""

    def __init__(
        self,
        seat: int,
        players: int,
        hand_size: int,
        number: int,
        dealer: int,
        upcard: int,
        trump: int,
        hand: tuple[int, ...],
        own_discards: tuple[int, ...],
        decisions: tuple[PublicDecision, ...],
        active: tuple[int, ...],
        tricks: tuple[TrickLog, ...],
        trick: tuple[tuple[int, int], ...],
        tricks_won: tuple[int, ...],
        pot: Amount,
        balances: tuple[Amount, ...],
        stock_size: int,
        to_act: int,
        phase: str,
        legal_actions: Sequence[Action] | None,
        legal: tuple[int, ...],
        cinch: bool,
        forced: str | None,
        my_decision: int,
        gave: tuple[int, ...],
        got: tuple[int, ...],
        exchange_limit: int,
        played: int = -1,
    ) -> None:
        self.seat, self.players, self.hand_size, self.number = seat, players, hand_size, number
        self.dealer, self.upcard, self.trump, self.hand = dealer, upcard, trump, hand
        self.own_discards, self.decisions, self.active = own_discards, decisions, active
        self.tricks, self.trick, self.tricks_won, self.pot = tricks, trick, tricks_won, pot
        self.balances, self.stock_size, self.to_act, self.phase = (
            balances,
            stock_size,
            to_act,
            phase,
        )
        self._actions, self.legal, self.cinch, self.forced = (
            legal_actions,
            legal,
            cinch,
            forced,
        )
        self.my_decision, self.gave, self.got = my_decision, gave, got
        self.exchange_limit = exchange_limit
        self.played = played if played >= 0 else _played(tricks, trick)

    @property
    def legal_actions(self) -> Sequence[Action]:
        """What this seat may do now (empty unless ``to_act == seat``): a tuple, or
        for an exchange a :class:`Discards`.  When playing, the actions of the cards
        of :attr:`legal`, made when read (``None`` given for them)."""
        actions = self._actions
        if actions is None:
            return tuple([CARDS[c] for c in self.legal])
        return actions

    def seen(self) -> frozenset[int]:
        """Every card this seat has seen: own hand and discards, the upcard and the
        cards played this deal.  (The upcard belongs to the dealer's hand until
        played: "seen" is not "out of every opponent's hand".)"""
        cards = set(self.hand) | set(self.own_discards) | {self.upcard}
        for t in self.tricks:
            cards.update(c for _, c in t.plays)
        cards.update(c for _, c in self.trick)
        return frozenset(cards)

    def played_mask(self) -> int:
        """Bitmask of the cards played this deal (current trick included)."""
        return self.played

    def as_tuple(self) -> tuple[object, ...]:
        """Every field, in the order of the constructor."""
        return tuple(getattr(self, f) for f in _FIELDS)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Observation) and self.as_tuple() == other.as_tuple()

    def __hash__(self) -> int:
        return hash(self.as_tuple())

    def __repr__(self) -> str:
        return (
            f"Observation(seat={self.seat}, phase={self.phase!r}, hand="
            f"{' '.join(card_str(c) for c in self.hand)}, to_act={self.to_act})"
        )


def _played(tricks: tuple[TrickLog, ...], trick: tuple[tuple[int, int], ...]) -> int:
    m = 0
    for t in tricks:
        for _, c in t.plays:
            m |= 1 << c
    for _, c in trick:
        m |= 1 << c
    return m


class _Open:
    """A plain object an observation's fields are first made on (pure build)."""


def _sealed(cls: type) -> None:
    """A pure-Python build has no read-only fields: refuse every assignment.  The
    fields are made on a plain object and copied into the instance's dictionary at
    once (a Python ``__setattr__`` per field would cost a call each); a compiled
    build's ``Final`` fields are read-only already."""
    init = getattr(cls, "__init__")  # noqa: B009

    def __init__(self: object, *args: object, **kwargs: object) -> None:
        fields = _Open()
        init(fields, *args, **kwargs)
        self.__dict__.update(fields.__dict__)

    def __setattr__(self: object, name: str, value: object) -> None:
        raise AttributeError(f"an observation is read-only: {name}")

    setattr(cls, "__init__", __init__)  # noqa: B010
    setattr(cls, "__setattr__", __setattr__)  # noqa: B010


if __file__.endswith(".py"):  # not compiled
    _sealed(Observation)


_UPTO: dict[int, list[tuple[int, ...]]] = {}


_new: Final = tuple.__new__  # builds a NamedTuple without its Python-level __new__


def _upto(n: int, limit: int) -> list[tuple[int, ...]]:
    """Index subsets of ``range(n)`` of at most ``limit`` items, smallest first."""
    key = n * 64 + limit
    got = _UPTO.get(key)
    if got is None:
        subsets: list[tuple[int, ...]] = [()]
        for i in range(n):
            subsets = subsets + [(*s, i) for s in subsets]
        subsets.sort(key=len)
        got = _UPTO[key] = [s for s in subsets if len(s) <= limit]
    return got


class Discards:
    """The legal discards of a hand (R-DRAW), as an immutable sequence of actions
    made on demand: every subset of ``hand`` of at most ``limit`` cards, smallest
    first (the order of ``State.legal_actions``)."""

    hand: Final[tuple[int, ...]]
    limit: Final[int]

    def __init__(self, hand: tuple[int, ...], limit: int) -> None:
        self.hand = hand
        self.limit = limit

    def __len__(self) -> int:
        return len(_upto(len(self.hand), self.limit))

    def __getitem__(self, i: int) -> Action:
        ix = _upto(len(self.hand), self.limit)[i]
        hand = self.hand
        return _new(Action, ("discard", tuple([hand[k] for k in ix])))

    def __iter__(self) -> Iterator[Action]:
        hand = self.hand
        for ix in _upto(len(hand), self.limit):
            yield _new(Action, ("discard", tuple([hand[k] for k in ix])))

    def __contains__(self, action: object) -> bool:
        if not isinstance(action, Action) or action.kind != "discard":
            return False
        cards = action.cards
        return (
            len(cards) <= self.limit
            and len(set(cards)) == len(cards)
            and all(c in self.hand for c in cards)
        )

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Discards):
            return self.hand == other.hand and self.limit == other.limit
        return isinstance(other, (list, tuple)) and list(self) == list(other)

    def __hash__(self) -> int:
        return hash((self.hand, self.limit))

    def __repr__(self) -> str:
        return f"Discards({' '.join(card_str(c) for c in self.hand)}, limit={self.limit})"


Sequence.register(Discards)
if __file__.endswith(".py"):
    _sealed(Discards)
