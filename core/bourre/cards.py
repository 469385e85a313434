"""Cards, suits and the 52-card deck (R-DECK).

A card is a small int ``suit * 13 + rank`` with rank 0 = deuce … 12 = ace, so that
within a suit a higher int is a higher card and ``card // 13`` is its suit.  Ints keep
the per-card hot loop cheap; :func:`parse_card` and :func:`card_str` convert from and
to the text notation (``AS``, ``TH``, ``10H``, ``2C``).

A *set* of cards (a hand, the legal cards, the cards played) is a bit mask: bit
``1 << card`` is set for each card in it, so a suit is ``mask & suit_mask(s)`` and the
cards above ``c`` are ``mask >> (c + 1) << (c + 1)``.  The rule components of the play
(:class:`~bourre.rules.FollowRule`, :class:`~bourre.rules.CinchPolicy`) take and answer
masks.  :class:`Cards` is the readable form of one (it *is* the int, and also iterates,
counts and prints its cards); :func:`mask_of` and :func:`cards_of` convert.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import overload

__all__ = [
    "DECK",
    "RANKS",
    "SUITS",
    "SUIT_MASK",
    "SUIT_NAMES",
    "CardError",
    "Cards",
    "card_str",
    "card_symbol",
    "cards_of",
    "cards_str",
    "display_order",
    "mask_of",
    "parse_card",
    "parse_cards",
    "rank_of",
    "suit_mask",
    "suit_of",
]

RANKS = "23456789TJQKA"
"""Rank letters, low to high (index = rank)."""
SUITS = "SHDC"
"""Suit letters (index = suit): spades, hearts, diamonds, clubs."""
SUIT_SYMBOLS = "♠♥♦♣"
SUIT_NAMES = ("spades", "hearts", "diamonds", "clubs")
"""Suit names (index = suit), as a table says them."""
DECK: tuple[int, ...] = tuple(range(52))
"""The 52 cards, no jokers (R-DECK)."""

_BY_TEXT: dict[str, int] = {}
for _s, _sl in enumerate(SUITS):
    for _r, _rl in enumerate(RANKS):
        _BY_TEXT[_rl + _sl] = _s * 13 + _r
        if _rl == "T":
            _BY_TEXT["10" + _sl] = _s * 13 + _r
_TEXT = [RANKS[c % 13] + SUITS[c // 13] for c in DECK]


class CardError(ValueError):
    """A string that is not a card in R-DECK notation."""


def parse_card(text: str) -> int:
    """Parse ``AS``, ``TH``, ``10H`` or ``2C`` (case-insensitive) into a card (R-DECK)."""
    try:
        if not text.isascii():  # 'Aſ'.upper() is 'AS': only the plain letters count
            raise KeyError(text)
        return _BY_TEXT[text.strip().upper()]
    except (KeyError, AttributeError):
        raise CardError(
            f"{text!r} is not a card: use rank A K Q J T(10) 9…2 then suit S H D C,"
            " e.g. AS, 10H, 2C (R-DECK)"
        ) from None


def parse_cards(texts: Iterable[str]) -> list[int]:
    """Parse several cards (see :func:`parse_card`)."""
    return [parse_card(t) for t in texts]


def card_str(card: int) -> str:
    """The canonical text of a card, e.g. ``TH``."""
    return _TEXT[card]


def cards_str(cards: Iterable[int]) -> list[str]:
    """Canonical texts of several cards."""
    return [_TEXT[c] for c in cards]


def card_symbol(card: int) -> str:
    """A display form with the suit symbol, e.g. ``J♥`` (``10`` for ten)."""
    rank = RANKS[card % 13]
    return ("10" if rank == "T" else rank) + SUIT_SYMBOLS[card // 13]


def suit_of(card: int) -> int:
    """The suit index of a card."""
    return card // 13


def rank_of(card: int) -> int:
    """The rank index of a card (0 = deuce … 12 = ace)."""
    return card % 13


def display_order(hand: Iterable[int], trump: int) -> tuple[int, ...]:
    """Cards as a player holds them: trumps first, then suit by suit, high to low."""
    return tuple(sorted(hand, key=lambda c: (c // 13 != trump, c // 13, -(c % 13))))


# -- sets of cards as bit masks --------------------------------------------------------------

SUIT_MASK = 0x1FFF
"""The 13 bits of one suit, at suit 0 (spades); ``SUIT_MASK << 13 * s`` for suit ``s``."""


def suit_mask(suit: int) -> int:
    """The mask of all 13 cards of ``suit``."""
    return SUIT_MASK << (13 * suit)


def mask_of(cards: Iterable[int]) -> int:
    """The bit mask of ``cards`` (each a card int 0…51)."""
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def cards_of(mask: int) -> list[int]:
    """The cards of ``mask``, ascending (the order of a sorted hand)."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


class Cards(int):
    """A set of cards as its bit mask, readable: ``Cards.of([0, 51])`` is the int
    ``1 | 1 << 51`` and also iterates its cards ascending, counts them (``len``),
    answers ``card in cards``, indexes and slices like the sorted list of them, and
    prints as ``Cards(2S AC)``.  Bit operations give plain ints (wrap again with
    ``Cards(m)``).  Plugin components written for lists of cards get hands as
    ``Cards``, so ``for c in hand``, ``hand[i:j]`` and ``sorted(hand)`` still work."""

    __slots__ = ()

    def __new__(cls, mask: int = 0) -> Cards:
        if mask < 0 or mask >> 52:
            raise CardError(f"{mask!r} is not a set of cards: bits 0…51 only (R-DECK)")
        return super().__new__(cls, mask)

    @classmethod
    def of(cls, cards: Iterable[int]) -> Cards:
        """The set of ``cards``."""
        return cls(mask_of(cards))

    def __iter__(self) -> Iterator[int]:
        return iter(cards_of(self))

    def __len__(self) -> int:
        return int(self).bit_count()

    def __contains__(self, card: object) -> bool:
        return isinstance(card, int) and 0 <= card < 52 and bool(self >> card & 1)

    @overload
    def __getitem__(self, i: int) -> int: ...
    @overload
    def __getitem__(self, i: slice) -> list[int]: ...
    def __getitem__(self, i: int | slice) -> int | list[int]:
        return cards_of(self)[i]

    def suit(self, suit: int) -> Cards:
        """The cards of ``suit`` in this set."""
        return Cards(self & suit_mask(suit))

    def __repr__(self) -> str:
        return f"Cards({' '.join(cards_str(self))})"

    __str__ = __repr__
