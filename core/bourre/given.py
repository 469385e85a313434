"""Hands given by what a table knows (``docs/table-scripts.md``, "What a table
knows"): the upcard, the hands of the seats that play, each exchange's replacements;
never the order of the stock.  Every outcome is checked against the cards already
placed, so an impossible hand is refused naming the rule (R-DECK, R-DEAL, R-DRAW,
R-RESHUFFLE).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from bourre.actions import Dealt
from bourre.cards import card_str
from bourre.rules import DrawRule, RuleViolation
from bourre.state import HandState

if TYPE_CHECKING:
    from bourre.statefields import StateFields

__all__ = ["dealt_hand", "draw_given", "reveal"]


def _names(cards: Sequence[int]) -> str:
    return " ".join(card_str(c) for c in cards)


def _check_hand(hs_n: int, h: int, seat: int, cards: Sequence[int], dealer: int, up: int) -> None:
    if not 0 <= seat < hs_n:
        raise RuleViolation("R-SEAT", f"no seat {seat} at a table of {hs_n}")
    if len(cards) != h or len(set(cards)) != h:
        raise RuleViolation(
            "R-DEAL", f"seat {seat} was dealt {len(set(cards))} different cards, not {h}"
        )
    if seat == dealer and up not in cards:
        raise RuleViolation("R-DEAL", f"the dealer (seat {seat}) holds the upcard {card_str(up)}")
    if seat != dealer and up in cards:
        raise RuleViolation(
            "R-DEAL", f"seat {seat} cannot hold the upcard {card_str(up)}: it is the dealer's"
        )


def dealt_hand(
    state: StateFields, outcome: Dealt, dealer: int, reshuffle: Callable[[list[int]], list[int]]
) -> HandState:
    """The hand state of a deal given by what the table saw (R-DEAL)."""
    n, h = state.n, state.h
    up = outcome.upcard
    if up is None or not 0 <= up < 52:
        raise RuleViolation("R-DEAL", "the upcard is required: it names trump")
    hands: list[list[int]] = [[] for _ in range(n)]
    hidden = [True] * n
    seen: dict[int, int] = {}
    for seat, cards in outcome.hands.items():
        _check_hand(n, h, seat, cards, dealer, up)
        for c in cards:
            if c in seen:
                raise RuleViolation(
                    "R-DECK", f"{card_str(c)} is dealt to seats {seen[c]} and {seat}"
                )
            seen[c] = seat
        hands[seat] = sorted(cards)
        hidden[seat] = False
    if hidden[dealer]:
        hands[dealer] = [up]  # the upcard is known to be in the dealer's hand
    hs = HandState(
        number=state.number + 1,
        n=n,
        hand_size=h,
        dealer=dealer,
        hands=hands,
        upcard=up,
        stock=[],
        pot=state.pot,
        balances=state.balances,
        reshuffle=reshuffle,
    )
    hs.hidden = hidden
    hs.unseen_stock = 52 - n * h
    return hs


def reveal(hs: HandState, seat: int, outcome: Dealt) -> None:
    """The hand of ``seat``, who plays, shown after the deal (R-DEAL)."""
    if seat not in outcome.hands:
        raise RuleViolation("R-DEAL", f"seat {seat} plays: the cards it was dealt are required")
    cards = outcome.hands[seat]
    _check_hand(hs.n, hs.hand_size, seat, cards, hs.dealer, hs.upcard)
    placed = hs.located()
    for c in cards:
        if (placed >> c) & 1 and not (seat == hs.dealer and c == hs.upcard):
            raise RuleViolation(
                "R-DECK", f"{card_str(c)} is already elsewhere: seat {seat} cannot hold it"
            )
    hs.hands[seat] = sorted(cards)
    hs.hidden[seat] = False


def draw_given(
    hs: HandState, draw: DrawRule, seat: int, discards: Sequence[int], drew: Sequence[int]
) -> None:
    """The exchange of ``seat`` whose replacements ``drew`` the table tells (R-DRAW,
    R-RESHUFFLE): the first ones come from the stock (cards nobody has seen, or the
    cards of a stock made by a reshuffle), the rest from earlier players' discards
    when the stock ran out.  Then the house's own draw runs on that stock."""
    k = len(discards)
    if len(drew) != k:
        raise RuleViolation(
            "R-DRAW", f"seat {seat} discarded {k} cards and must draw {k}, not {len(drew)}"
        )
    if len(set(drew)) != k:
        raise RuleViolation("R-DRAW", f"seat {seat} draws the same card twice")
    known_stock = list(hs.stock)  # a reshuffled stock: its cards, in no known order
    available = hs.unseen_stock + len(known_stock)
    from_stock, rest = list(drew[:available]), list(drew[available:])
    placed = hs.located()
    fresh = 0
    for c in from_stock:
        if c in known_stock:
            continue
        if (placed >> c) & 1:
            where = "a card still held" if c in hs.hands[seat] else "a card already elsewhere"
            raise RuleViolation(
                "R-DRAW", f"seat {seat} cannot draw {card_str(c)}: {where}, not in the stock"
            )
        fresh += 1
    if fresh > hs.unseen_stock:
        raise RuleViolation("R-DRAW", f"seat {seat} draws more unseen cards than the stock holds")
    pile = hs.pile
    for c in rest:
        if c not in pile:
            raise RuleViolation(
                "R-RESHUFFLE",
                f"seat {seat} cannot draw {card_str(c)}: the stock ran out, and a new stock is"
                f" made only of earlier players' discards ({_names(pile) or 'none'})",
            )
    if rest and fresh != hs.unseen_stock:
        raise RuleViolation(
            "R-RESHUFFLE", f"seat {seat} draws from discards while the stock still holds cards"
        )
    hs.stock = from_stock + [c for c in known_stock if c not in from_stock]
    hs.unseen_stock -= fresh
    if rest:
        order = rest + [c for c in pile if c not in rest]
        inner = hs.reshuffle

        def told(p: list[int]) -> list[int]:
            hs.reshuffle = inner
            return list(order)

        hs.reshuffle = told
    draw(hs, seat, discards)
