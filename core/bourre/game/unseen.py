"""The one inference of the cards nobody showed at a real table (R-DRAW, R-RESHUFFLE).

A table that shows only the tricks tells, for a seat whose dealt hand nobody saw, the
hand it held after its exchange (its plays: :class:`~bourre.game.actions.AfterDraw`)
and its discards; :func:`split` reads from them the hand it was dealt and what it drew,
and the house's draw then judges that exchange (``drawn``: which replacements could
have come is a rule, R-DRAW, R-RESHUFFLE).  :func:`unplaced` is what nobody has placed,
and :func:`could_hold` what a seat whose tricks will show its hand, but do not yet, may
still hold: those cards, and its own known to be in its hand (R-DECK).

It is the game's (a hand given so is stepped by :class:`~bourre.game.state.State`), and
the table's route to it is :class:`bourre.referee.table.TableState`: ``replay``,
``check``, the review and the tap page read the cards nobody showed through it (the tap
page's stand-in hands, for seats whose tricks do not yet show them, place cards nobody
named: it names them back as ``standing_in``).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from bourre.rules import RuleViolation
from bourre.rules.cards import card_symbol
from bourre.rules.hand import HandState

__all__ = ["could_hold", "split", "unplaced"]


def unplaced(hand: HandState) -> list[int]:
    """The cards whose place nobody knows yet (a hidden hand's, the unseen stock's), in
    card order."""
    located = hand.located()
    return [c for c in range(52) if c not in located]


def could_hold(hand: HandState, seat: int, standing_in: Collection[int] = ()) -> set[int]:
    """The cards ``seat``, whose dealt cards nobody showed and whose tricks do not yet
    show them all, may hold now (R-DECK): the cards nobody has placed (:func:`unplaced`),
    the cards the hand holds for it (the dealer's upcard, a card it took back,
    R-CORRECTED), and ``standing_in``: cards a table's page placed in stand-in hands
    (its own or another such seat's) although nobody named them, which are as unplaced
    as the rest.  A card another seat is known to hold, discarded, folded or played is
    never among them."""
    return set(unplaced(hand)) | set(standing_in) | set(hand.hands[seat])


def _where(hand: HandState, card: int) -> str:
    """Where ``card``, already placed, lies: in a seat's words."""
    for s in range(hand.n):
        if card in hand.hands[s]:
            if s == hand.dealer and card == hand.upcard:
                return f"it is the upcard, in the dealer's (seat {s}'s) hand"
            return f"seat {s} holds it"
        if card in hand.folded[s]:
            return f"seat {s} folded it"
        if card in hand.discards[s]:
            return f"seat {s} discarded it"
    if card in hand.stock:
        return "it is in the stock made of earlier discards"
    return "it is already elsewhere"


def split(
    hand: HandState, seat: int, discards: Sequence[int], after: Sequence[int], limit: int
) -> tuple[list[int], list[int]]:
    """The exchange of ``seat``, whose dealt cards nobody showed, read from the
    hand it held after it (``after``, its cards in the tricks): ``(dealt, drew)``
    for the draw's ``drawn``; ``limit``: the most cards it may exchange (R-DRAW).  Of the cards drawn, the first come from the stock (unseen
    cards, or those of a stock made by a reshuffle), the rest, when the stock ran
    out, from earlier players' discards (R-RESHUFFLE): so a card another seat
    discarded is in ``after`` only then, and exactly as many of them as the stock
    lacked.  Which unseen cards of ``after`` were kept and which drawn nobody can
    tell, and no rule depends on it: the first are taken as kept."""
    k = len(discards)
    if k > limit:
        raise RuleViolation("R-DRAW", f"seat {seat} may exchange at most {limit} cards, not {k}")
    size = hand.hand_size
    if len(after) != size or len(set(after)) != size:
        raise RuleViolation(
            "R-DEAL",
            f"seat {seat} holds {len(set(after))} different cards after its exchange, not {size}",
        )
    held = list(hand.hands[seat])  # what is known to be in its hand (the upcard)
    placed = hand.located()
    seen: set[int] = set()
    for c in discards:
        if c in seen:
            raise RuleViolation("R-DRAW", f"seat {seat} discards {card_symbol(c)} twice", card=c)
        seen.add(c)
        if c in after:
            raise RuleViolation(
                "R-RESHUFFLE",
                f"seat {seat} discards {card_symbol(c)} and plays it: a player never"
                " receives back their own discards",
                card=c,
            )
        if c in placed and c not in held:
            raise RuleViolation(
                "R-DECK",
                f"seat {seat} cannot have discarded {card_symbol(c)}: {_where(hand, c)}",
                card=c,
            )
    for c in held:
        if c not in seen and c not in after:
            raise RuleViolation(
                "R-DEAL",
                f"seat {seat} was dealt {card_symbol(c)}: it is among neither its discards"
                " nor its plays",
                card=c,
            )
    kept_known = [c for c in after if c in held]
    pile = [c for c in after if c in hand.pile]
    stock = [c for c in after if c in hand.stock]
    fresh = [c for c in after if c not in placed]
    for c in after:
        if c in placed and c not in held and c not in hand.pile and c not in hand.stock:
            raise RuleViolation(
                "R-DECK", f"seat {seat} plays {card_symbol(c)}, but {_where(hand, c)}", card=c
            )
    if len(kept_known) > size - k:
        c = kept_known[0]
        raise RuleViolation(
            "R-DRAW",
            f"seat {seat} discarded {k} of its {size} cards, so it cannot also have kept"
            f" {card_symbol(c)}",
            card=c,
        )
    available = hand.unseen_stock + len(hand.stock)
    from_pile = max(0, k - available)
    if len(pile) > from_pile:
        c = pile[from_pile]
        who = next((f"seat {t}" for t in range(hand.n) if c in hand.discards[t]), "a seat")
        raise RuleViolation(
            "R-RESHUFFLE",
            f"seat {seat} plays {card_symbol(c)}, which {who} discarded, but it drew {k}"
            f" from a stock of {available}: a discard comes back only when the stock"
            " runs out",
            card=c,
        )
    if len(pile) < from_pile:
        shown = " ".join(card_symbol(c) for c in hand.pile) or "none"
        raise RuleViolation(
            "R-RESHUFFLE",
            f"seat {seat} draws {k} from a stock of {available}: the other {from_pile}"
            f" come from earlier players' discards ({shown}), but its plays show"
            f" {len(pile)} of them",
        )
    fresh_drawn = k - len(pile) - len(stock)
    if fresh_drawn < 0:
        c = stock[k - len(pile)]
        raise RuleViolation(
            "R-DRAW",
            f"seat {seat} draws {k} cards, but plays more of the stock made of earlier"
            f" discards, {card_symbol(c)} among them",
            card=c,
        )
    if fresh_drawn > hand.unseen_stock:
        shown = " ".join(card_symbol(c) for c in hand.stock)
        raise RuleViolation(
            "R-RESHUFFLE",
            f"seat {seat} draws {k} from a stock made of earlier discards ({shown}),"
            f" but its plays show {len(stock)} of them",
        )
    keep = len(fresh) - fresh_drawn
    dealt = sorted([*discards, *kept_known, *fresh[:keep]])
    return dealt, [*fresh[keep:], *stock, *pile]
