"""What one seat may know, as an immutable value (:class:`Observation`), and the
legal discards of an exchange as a value (:class:`Discards`).

:func:`bourre.game.state.observe` makes a new one for each call from the public facts of
the hand and that seat's own cards: its hand and discards, the upcard, the decisions
and exchange counts announced, the cards played, tricks won, the pot and the
balances.  It holds plain ints, strings and tuples of them, never a reference to the
game, the deck, the stock or another player's cards: nothing hidden can be reached
from it (``tests/test_state.py`` walks it with :func:`gc.get_referents`).  Its
attributes are read-only.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import astuple, dataclass
from typing import overload

from bourre.game.actions import Action, discard
from bourre.rules.cards import card_str
from bourre.rules.hand import PublicDecision, TrickLog
from bourre.rules.money import Amount

__all__ = ["Discards", "Observation"]


@dataclass(frozen=True, slots=True, repr=False)
class Observation:
    """What the player at ``seat`` sees now (read-only)."""

    seat: int
    players: int
    hand_size: int
    number: int
    """The hand's number in the session (1 for the first)."""
    dealer: int
    upcard: int
    trump: int
    hand: tuple[int, ...]
    """This seat's cards, sorted."""
    own_discards: tuple[int, ...]
    """This seat's discards not yet returned to a stock (R-RESHUFFLE)."""
    decisions: tuple[PublicDecision, ...]
    """The decisions announced so far, with each exchange count."""
    active: tuple[int, ...]
    """The seats playing (public ones only while decisions are secret)."""
    tricks: tuple[TrickLog, ...]
    trick: tuple[tuple[int, int], ...]
    """The current trick so far, ``(seat, card)`` in play order."""
    tricks_won: tuple[int, ...]
    pot: Amount
    balances: tuple[Amount, ...]
    stock_size: int
    to_act: int
    """The seat to act now (-1 when chance or nobody acts)."""
    phase: str
    """``"decide"``, ``"exchange"``, ``"play"``, ``"chance"`` or ``"over"``."""
    legal_actions: Sequence[Action]
    """What this seat may do now (empty unless ``to_act == seat``): a tuple, or for an
    exchange a :class:`Discards`."""
    legal: tuple[int, ...]
    """The cards this seat may play now (when ``phase == "play"``)."""
    cinch: bool
    """Whether this seat has a cinch now (R-SURE)."""
    forced: str | None
    """When deciding: the rule that forbids passing, if any."""
    my_decision: int
    """This seat's own decision so far: -1 none, 0 pass, 1 play (it knows it even
    while decisions are secret)."""
    gave: tuple[int, ...]
    """The cards this seat discarded this hand, in order."""
    got: tuple[int, ...]
    """The replacements this seat received this hand."""
    exchange_limit: int
    """When exchanging: the most cards this seat may discard (R-DRAW), else 0."""
    played: int = -1
    """Bitmask (bit ``card``) of the cards played this deal, current trick included:
    what ``tricks`` and ``trick`` show, ready for bit arithmetic (made from them when
    not given)."""

    def __post_init__(self) -> None:
        if self.played < 0:
            mask = 0
            for _, c in (*(p for t in self.tricks for p in t.plays), *self.trick):
                mask |= 1 << c
            object.__setattr__(self, "played", mask)

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
        """Every field, in order."""
        return astuple(self)

    def __repr__(self) -> str:
        return (
            f"Observation(seat={self.seat}, phase={self.phase!r}, hand="
            f"{' '.join(card_str(c) for c in self.hand)}, to_act={self.to_act})"
        )


@dataclass(frozen=True, slots=True, repr=False)
class Discards(Sequence[Action]):
    """The legal discards of a hand (R-DRAW), as an immutable sequence of actions
    made on demand: every subset of ``hand`` of at most ``limit`` cards, smallest
    first, each in the hand's order (the order of ``State.legal_actions``)."""

    hand: tuple[int, ...]
    limit: int

    def _subsets(self) -> list[tuple[int, ...]]:
        """Every subset of the hand within the limit, smallest first (see the class)."""
        hand = self.hand
        return [tuple([hand[j] for j in p]) for p in _patterns(len(hand), self.limit)]

    def __len__(self) -> int:
        return len(_patterns(len(self.hand), self.limit))

    @overload
    def __getitem__(self, i: int) -> Action: ...
    @overload
    def __getitem__(self, i: slice) -> list[Action]: ...
    def __getitem__(self, i: int | slice) -> Action | list[Action]:
        """The ``i``-th discard; a slice gives a list of them, as ``list(self)[i]``."""
        hand, patterns = self.hand, _patterns(len(self.hand), self.limit)
        if isinstance(i, slice):
            return [discard([hand[j] for j in p]) for p in patterns[i]]
        try:
            return discard([hand[j] for j in patterns[i]])
        except TypeError:
            what = type(i).__name__
            raise TypeError(f"Discards indices must be integers or slices, not {what}") from None
        except IndexError:
            raise IndexError("Discards index out of range") from None

    def __iter__(self) -> Iterator[Action]:
        hand = self.hand
        return (discard([hand[j] for j in p]) for p in _patterns(len(hand), self.limit))

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


_PATTERNS: dict[tuple[int, int], tuple[tuple[int, ...], ...]] = {}


def _patterns(k: int, limit: int) -> tuple[tuple[int, ...], ...]:
    """The positions of every subset of ``k`` cards of at most ``limit``, in the order of
    :class:`Discards`: made card by card (the subsets without a card, then with it:
    subset ``m`` holds the positions of the bits of ``m``), then the smallest first
    (a stable sort).  Made once for each ``(k, limit)``."""
    got = _PATTERNS.get((k, limit))
    if got is None:
        masks = sorted(range(1 << k), key=lambda m: m.bit_count())
        got = tuple(
            tuple(j for j in range(k) if m >> j & 1) for m in masks if m.bit_count() <= limit
        )
        if len(_PATTERNS) < 256:
            _PATTERNS[(k, limit)] = got
    return got
