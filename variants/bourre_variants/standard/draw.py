"""The draw (R-DRAW, R-RESHUFFLE): its text, its code and the words of its refusals.
A player who plays exchanges 0 to all the cards of the hand with the top of the
stock; when the stock runs out, earlier players' unreturned discards make a new one.
A table that does not know the stock's order tells the replacements instead
(:meth:`Draw.drawn`), which must be cards that could have come (a table that shows
only the tricks: :mod:`bourre.game.unseen` reads the exchange from them, then
:meth:`Draw.drawn` judges it)."""

from __future__ import annotations

from collections.abc import Sequence

from bourre.rules import RuleViolation
from bourre.rules.cards import card_symbol
from bourre.rules.hand import HandState

TEXTS = [
    (
        "R-DRAW",
        "A player who plays at once discards 0 to all the cards of the hand and draws as"
        " many from the top of the stock before the next player decides; standing pat"
        " is allowed.",
    ),
    (
        "R-RESHUFFLE",
        "If the stock runs out, the discards of earlier players not yet returned are"
        " shuffled into a new stock; a player never receives back their own discards"
        " of this exchange; folded hands are never reused.",
    ),
]
"""The rules of this module, as ``bourre rules`` prints them."""


def reshuffle(hand: HandState) -> None:
    """The stock ran out: the discards not yet returned make a new stock (R-RESHUFFLE),
    in the order chance (or the table) gives."""
    if not hand.pile:
        raise RuleViolation(
            "R-RESHUFFLE", "the stock ran out and there are no discards to reshuffle"
        )
    hand.stock[:] = hand.reshuffle(hand.pile)
    hand.reshuffles.append(list(hand.stock))
    hand.pile = []
    for s in range(hand.n):
        hand.discards[s] = []


class Draw:
    """Exchange 0…``hand_size`` cards with the top of the stock (R-DRAW); when the stock
    runs out, earlier players' unreturned discards make a new stock (R-RESHUFFLE).
    Subclass and override :meth:`limit` for a house that caps the exchange."""

    def __init__(self, hand_size: int) -> None:
        self.hand_size = hand_size

    def limit(self, hand: HandState, seat: int) -> int:
        return self.hand_size

    def check(self, hand: HandState, seat: int, discards: Sequence[int]) -> None:
        """At most :meth:`limit` cards, each held, none twice (R-DRAW)."""
        limit = self.limit(hand, seat)
        if len(discards) > limit:
            raise RuleViolation(
                "R-DRAW", f"seat {seat} may exchange at most {limit} cards, not {len(discards)}"
            )
        held = hand.hands[seat]
        seen: set[int] = set()
        for c in discards:
            if type(c) is not int or c not in held:
                name = card_symbol(c) if isinstance(c, int) and 0 <= c < 52 else repr(c)
                raise RuleViolation("R-DRAW", f"seat {seat} does not hold {name}")
            if c in seen:
                raise RuleViolation("R-DRAW", f"seat {seat} discards {card_symbol(c)} twice")
            seen.add(c)

    def draw(self, hand: HandState, seat: int, discards: Sequence[int]) -> None:
        self.check(hand, seat, discards)
        if not discards:
            return  # standing pat
        kept = [c for c in hand.hands[seat] if c not in discards]
        need = len(discards)
        while need:
            if not hand.stock:
                reshuffle(hand)  # never this player's own discards: they join below
            took = hand.stock[:need]
            del hand.stock[:need]
            kept += took
            need -= len(took)
        hand.hands[seat] = sorted(kept)
        hand.pile.extend(discards)
        hand.discards[seat].extend(discards)

    def drawn(
        self, hand: HandState, seat: int, discards: Sequence[int], drew: Sequence[int]
    ) -> None:
        """The exchange of ``seat`` whose replacements ``drew`` the table tells: the
        first come from the stock (cards nobody has seen, or those of a stock made by
        a reshuffle), the rest from earlier players' discards when the stock ran out
        (R-RESHUFFLE).  Then the draw runs on that stock."""
        self.check(hand, seat, discards)
        k = len(discards)
        if len(drew) != k:
            raise RuleViolation(
                "R-DRAW", f"seat {seat} discarded {k} cards and must draw {k}, not {len(drew)}"
            )
        if len(set(drew)) != k:
            raise RuleViolation("R-DRAW", f"seat {seat} draws the same card twice")
        known_stock = list(hand.stock)  # a reshuffled stock: its cards, in no known order
        available = hand.unseen_stock + len(known_stock)
        from_stock, rest = list(drew[:available]), list(drew[available:])
        placed = hand.located()
        fresh = 0
        for c in from_stock:
            if c in known_stock:
                continue
            if c in placed:
                where = "a card still held" if c in hand.hands[seat] else "a card already elsewhere"
                raise RuleViolation(
                    "R-DRAW", f"seat {seat} cannot draw {card_symbol(c)}: {where}, not in the stock"
                )
            fresh += 1
        if fresh > hand.unseen_stock:
            raise RuleViolation(
                "R-DRAW", f"seat {seat} draws more unseen cards than the stock holds"
            )
        for c in rest:
            if c not in hand.pile:
                pile = " ".join(card_symbol(x) for x in hand.pile) or "none"
                raise RuleViolation(
                    "R-RESHUFFLE",
                    f"seat {seat} cannot draw {card_symbol(c)}: the stock ran out, and a new stock"
                    f" is made only of earlier players' discards ({pile})",
                )
        if rest and fresh != hand.unseen_stock:
            raise RuleViolation(
                "R-RESHUFFLE", f"seat {seat} draws from discards while the stock still holds cards"
            )
        hand.stock = from_stock + [c for c in known_stock if c not in from_stock]
        hand.unseen_stock -= fresh
        if rest:  # the new stock is told: the drawn discards first, in that order
            order = rest + [c for c in hand.pile if c not in rest]
            chance = hand.reshuffle

            def told(pile: list[int]) -> list[int]:
                hand.reshuffle = chance
                return list(order)

            hand.reshuffle = told
        self.draw(hand, seat, discards)
