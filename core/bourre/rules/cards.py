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
    "parse_suit",
    "rank_of",
    "shown",
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
for _s, (_sl, _sym) in enumerate(zip(SUITS, SUIT_SYMBOLS, strict=True)):
    for _r, _rl in enumerate(RANKS):
        for _rank in (_rl, "10") if _rl == "T" else (_rl,):
            _BY_TEXT[_rank + _sl] = _BY_TEXT[_rank + _sym] = _s * 13 + _r
_TEXT = [RANKS[c % 13] + SUITS[c // 13] for c in DECK]

_SUIT_WORDS: dict[str, int] = {}
for _s, (_sl, _sym, _name) in enumerate(zip(SUITS, SUIT_SYMBOLS, SUIT_NAMES, strict=True)):
    for _word in (_sl, _sym, _name, _name[:-1]):
        _SUIT_WORDS[_word] = _s


class CardError(ValueError):
    """A string that is not a card in R-DECK notation."""


def parse_card(text: str) -> int:
    """A card as people write it (R-DECK), case-insensitive: ``AS``, ``ah``, ``TH``,
    ``10H``, ``2C``, or with the suit's symbol, ``A♥``, ``10♥``, ``Q♠`` (the emoji forms
    ``♥️``, with the variation selector, too)."""
    try:
        plain = text.strip().replace("\ufe0f", "")
        if not all(c.isascii() or c in SUIT_SYMBOLS for c in plain):
            raise KeyError(text)  # 'Aſ'.upper() is 'AS': only the plain letters count
        return _BY_TEXT[plain.upper()]
    except (KeyError, AttributeError):
        raise CardError(
            f"{text!r} is not a card: write a rank (A K Q J 10 or T, 9 … 2) and a suit"
            " (S H D C, or ♠ ♥ ♦ ♣), e.g. AS or 10H (R-DECK)"
        ) from None


def parse_suit(text: str) -> int:
    """A suit as people write it: ``S``, ``♠``, ``spades`` or ``spade`` (any case)."""
    word = text.strip().replace("\ufe0f", "").lower()
    got = _SUIT_WORDS.get(word.upper() if len(word) == 1 and word.isascii() else word)
    if got is None:
        raise CardError(f"{text!r} is not a suit: S H D C, ♠ ♥ ♦ ♣ or spades, hearts … (R-DECK)")
    return got


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


def shown(text: str) -> str:
    """A card's text as a terminal or a page shows it (``AH`` → ``A♥``); any other
    text (``pass``, ``play``) as it is."""
    try:
        return card_symbol(parse_card(text))
    except CardError:
        return text


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
