"""Cards, suits and the 52-card deck (R-DECK).

A card is a small int ``suit * 13 + rank`` with rank 0 = deuce … 12 = ace, so that
within a suit a higher int is a higher card and ``card // 13`` is its suit.
:func:`parse_card` and :func:`card_str` convert from and to the text notation (``AS``,
``TH``, ``10H``, ``2C``).  The rule components take sets of cards as tuples of them.

Bots that count cards may keep a set as a bit mask (bit ``1 << card`` for each card):
:func:`mask_of` and :func:`cards_of` convert, :func:`suit_mask` selects a suit.
"""

from __future__ import annotations

from collections.abc import Iterable

__all__ = [
    "DECK",
    "RANKS",
    "SUITS",
    "SUIT_MASK",
    "SUIT_NAMES",
    "CardError",
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
