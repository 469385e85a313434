"""The plain forms a plugin may give a rule component, adapted once to the form the
game calls (:func:`adapt_component`): a follow rule or a draw given as a function, an
ante policy that is not told the dealer, a cinch policy without its own refusal words,
and card sets answered as lists (:func:`as_mask`)."""

from __future__ import annotations

import inspect
from collections.abc import Callable, Sequence
from typing import Any

from bourre.cards import card_str, cards_of, mask_of
from bourre.money import Amount
from bourre.rules import HandOutcome, RuleViolation
from bourre.state import HandState

__all__ = ["adapt_component"]


class PlainFollow:
    """A follow rule given as a plain ``follow(hand, trick, trump)`` function; its
    refusals cite the first rule its variant states for the hook."""

    def __init__(self, fn: Callable[[list[int], list[int], int], list[int]], rule: str) -> None:
        self.fn, self.rule = fn, rule

    def legal(self, hand: int, trick: list[int], trump: int) -> int:
        return as_mask(self.fn(cards_of(hand), list(trick), trump))

    def refuse(self, hand: int, trick: list[int], trump: int, card: int) -> RuleViolation:
        legal = cards_of(as_mask(self.fn(cards_of(hand), list(trick), trump)))
        return RuleViolation(
            self.rule,
            f"{card_str(card)} is not allowed here; allowed: "
            + " ".join(card_str(c) for c in legal),
            legal,
        )


class PlainDraw:
    """A draw given as a plain ``draw(state, seat, discards)`` function: up to the
    hand size may be exchanged; its own refusals stand."""

    def __init__(self, fn: Callable[[HandState, int, Sequence[int]], None], size: int) -> None:
        self.fn, self.size = fn, size

    def limit(self, state: HandState, seat: int) -> int:
        return self.size

    def check(self, state: HandState, seat: int, discards: Sequence[int]) -> None:
        if len(discards) > self.size:
            raise RuleViolation("R-DRAW", f"at most {self.size} cards may be exchanged")
        hand = state.hands[seat]
        if len(set(discards)) != len(discards) or not set(discards) <= set(hand):
            raise RuleViolation("R-DRAW", f"seat {seat} may discard only cards it holds, once")

    def __call__(self, state: HandState, seat: int, discards: Sequence[int]) -> None:
        self.check(state, seat, discards)
        self.fn(state, seat, discards)


class DealerBlindAnte:
    """An ante policy written before antes were told the dealer."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    def hand_antes(
        self, n: int, ante: Amount, previous: HandOutcome | None, dealer: int
    ) -> list[Amount]:
        out: list[Amount] = self.inner.hand_antes(n, ante, previous)
        return out

    def play_ante(self, ante: Amount) -> Amount:
        out: Amount = self.inner.play_ante(ante)
        return out


def _arity(fn: Any) -> int:
    try:
        return len(inspect.signature(fn).parameters)
    except (TypeError, ValueError):
        return -1


def adapt_component(field: str, value: Any, first_rule: str | None, hand_size: int) -> Any:
    """The component in the form the game calls."""
    if field == "follow" and not hasattr(value, "legal"):
        return PlainFollow(value, first_rule or "R-FOLLOW")
    if field == "draw" and not hasattr(value, "limit"):
        return PlainDraw(value, hand_size)
    if field == "ante" and _arity(value.hand_antes) == 3:
        return DealerBlindAnte(value)
    if field == "cinch" and not hasattr(value, "refuse"):
        return _CinchWithRefusal(value)
    return value


class _CinchWithRefusal:
    """A cinch policy without its own refusal words."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.enabled = bool(inner.enabled)
        self.min_won, self.has_cinch, self.narrow = inner.min_won, inner.has_cinch, inner.narrow

    def refuse(self, card: int, allowed: int, trick: list[int], trump: int) -> RuleViolation:
        rule = "R-CINCH-FOLLOW" if trick else "R-CINCH-LEAD"
        cards = cards_of(allowed)
        return RuleViolation(
            rule,
            f"you have a cinch: {card_str(card)} is not allowed; allowed: "
            + " ".join(card_str(c) for c in cards),
            cards,
        )


def as_mask(answer: object) -> int:
    """A component's answer of cards as a mask: a mask (an int, e.g. a
    :class:`~bourre.cards.Cards`) or, in the older form, a list of cards; -1 when it
    is neither (the guard then reports it)."""
    if isinstance(answer, int) and not isinstance(answer, bool):
        return answer if 0 <= answer < 1 << 52 else -1
    if isinstance(answer, (list, tuple)) and all(
        isinstance(c, int) and not isinstance(c, bool) and 0 <= c < 52 for c in answer
    ):
        return mask_of(answer)
    return -1
