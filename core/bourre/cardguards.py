"""Guards of the third-party components that answer or move cards: the follow
rule's legal set must lie within the hand and the cinch's narrowing within the legal
set (either may answer a mask or a list, and gets its card sets as
:class:`~bourre.cards.Cards`); the deal and the draw must keep every card in one
place."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from bourre.cards import Cards
from bourre.plainforms import as_mask
from bourre.pluginerror import PluginError
from bourre.rules import RuleViolation
from bourre.state import HandState


class GuardedFollow:
    """A third-party follow rule: it gets the hand as :class:`~bourre.cards.Cards`
    (a mask that also reads as the sorted list) and may answer a mask or a list."""

    def __init__(self, inner: Any, plugin: str, hook: str, call: Callable[..., Any]) -> None:
        self.inner, self.plugin, self.hook, self.call = inner, plugin, hook, call

    def legal(self, hand: int, trick: list[int], trump: int) -> int:
        answer = self.call(self.inner.legal, Cards(hand), list(trick), trump)
        legal = as_mask(answer)
        if legal <= 0 or legal & ~hand:
            raise PluginError(
                self.plugin,
                self.hook,
                f"legal set {answer!r} is empty or not within the hand {Cards(hand)!r}",
            )
        return legal

    def refuse(self, hand: int, trick: list[int], trump: int, card: int) -> RuleViolation:
        out = self.call(self.inner.refuse, Cards(hand), list(trick), trump, card)
        if not isinstance(out, RuleViolation):
            raise PluginError(
                self.plugin, self.hook, f"refuse must answer a RuleViolation: {out!r}"
            )
        return out


class GuardedCinch:
    """A third-party cinch policy: card sets as :class:`~bourre.cards.Cards`; it may
    answer ``narrow`` with a mask or a list."""

    def __init__(self, inner: Any, plugin: str, hook: str, call: Callable[..., Any]) -> None:
        self.inner, self.plugin, self.hook, self.call = inner, plugin, hook, call
        self.enabled = bool(inner.enabled)

    def min_won(self, hand: int, trump: int) -> int:
        k = self.call(self.inner.min_won, Cards(hand), trump)
        if not isinstance(k, int) or k < 0:
            raise PluginError(self.plugin, self.hook, f"min_won must be an int ≥ 0, got {k!r}")
        return k

    def has_cinch(self, hand: int, trump: int, known: int, won: int) -> bool:
        return bool(self.call(self.inner.has_cinch, Cards(hand), trump, known, won))

    def narrow(
        self,
        legal: int,
        hand: int,
        trick: list[int],
        trump: int,
        known: int,
        last: bool,
    ) -> int:
        answer = self.call(
            self.inner.narrow, Cards(legal), Cards(hand), list(trick), trump, known, last
        )
        out = as_mask(answer)
        if out <= 0 or out & ~legal:
            raise PluginError(
                self.plugin,
                self.hook,
                f"cinch narrowed {Cards(legal)!r} to {answer!r}: must be a non-empty subset",
            )
        return out

    def refuse(self, card: int, allowed: int, trick: list[int], trump: int) -> RuleViolation:
        out = self.call(self.inner.refuse, card, Cards(allowed), list(trick), trump)
        if not isinstance(out, RuleViolation):
            raise PluginError(
                self.plugin, self.hook, f"refuse must answer a RuleViolation: {out!r}"
            )
        return out


def guarded_deal(value: Any, plugin: str, hook: str, call: Callable[..., Any]) -> Any:
    def deal(deck: Sequence[int], dealer: int, n: int) -> tuple[list[list[int]], int, list[int]]:
        out = call(value, deck, dealer, n)
        try:
            hands, upcard, stock = out
            cards = [c for h in hands for c in h] + list(stock)
            ok = (
                len(hands) == n
                and len(set(len(h) for h in hands)) == 1
                and sorted(cards) == sorted(deck)
                and upcard in hands[dealer]
            )
        except (TypeError, ValueError, IndexError):
            ok = False
        if not ok:
            raise PluginError(
                plugin,
                hook,
                "the deal must give each of the n seats as many cards, every card of the deck"
                " once (hands and stock), and the upcard in the dealer's hand (R-DEAL)",
            )
        return [sorted(h) for h in hands], upcard, list(stock)

    return deal


class GuardedDraw:
    def __init__(self, inner: Any, plugin: str, hook: str, call: Callable[..., Any]) -> None:
        self.inner, self.plugin, self.hook, self.call = inner, plugin, hook, call

    def limit(self, state: HandState, seat: int) -> int:
        k = self.call(self.inner.limit, state, seat)
        if not isinstance(k, int) or isinstance(k, bool) or k < 0:
            raise PluginError(self.plugin, self.hook, f"limit must be an int ≥ 0, got {k!r}")
        return k

    def check(self, state: HandState, seat: int, discards: Sequence[int]) -> None:
        self.call(self.inner.check, state, seat, discards)

    def __call__(self, state: HandState, seat: int, discards: Sequence[int]) -> None:
        size = len(state.hands[seat])
        before = state.located()
        self.call(self.inner, state, seat, discards)
        hand = state.hands[seat]
        if len(hand) != size or len(set(hand)) != size or state.located() != before:
            raise PluginError(
                self.plugin,
                self.hook,
                "the draw must give back as many cards as it took, each card in one place (R-DRAW)",
            )
        hand.sort()
