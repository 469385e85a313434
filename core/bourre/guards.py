"""What a house does with each rule component a plugin answers, once, when the house
is built: check its shape (:func:`check_component`), adapt the plain forms plugins
may give (:func:`adapt_component`: a follow or draw *function*, an ante policy that
is not told the dealer), and wrap third-party ones in checks (:func:`guard`) that
name the plugin and the hook when they raise, answer the wrong type or break an
invariant (a legal set outside the hand, money not conserved).
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

from bourre.cards import Cards, card_str, cards_of, mask_of
from bourre.components import undefined
from bourre.money import Amount
from bourre.rules import HandOutcome, PenaltyFn, PlayResult, RuleViolation
from bourre.state import HandState

__all__ = ["PluginError", "adapt_component", "check_component", "guard"]


class PluginError(RuntimeError):
    """A plugin that raised, answered the wrong type or broke an invariant."""

    def __init__(self, plugin: str, hook: str, message: str) -> None:
        super().__init__(f"plugin {plugin!r}, hook {hook}: {message}")
        self.plugin = plugin
        self.hook = hook
        self.message = message

    def __reduce__(self) -> tuple[object, ...]:
        """Picklable with its plugin, hook and message (it crosses to worker
        processes, where an unpicklable error would arrive as BrokenProcessPool)."""
        return (type(self), (self.plugin, self.hook, self.message))


_NEEDS: dict[str, tuple[str, ...]] = {
    "ante": ("hand_antes", "play_ante"),
    "decisions": ("announcements", "turn", "decide", "exchanged"),
    "cinch": ("enabled", "min_won", "has_cinch", "narrow"),
}


def check_component(field: str, value: Any) -> str | None:
    """What is wrong with a component's shape, or ``None``."""
    if value is None:
        return "no answer (None)"
    if field == "hand_size":
        if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= 26:
            return f"hand size must be an int 1…26, got {value!r}"
        return None
    empty = undefined(field, value)  # a compiled base subclassed without its methods
    if empty:
        return (
            f"{type(value).__name__} subclasses a compiled base but defines no {', '.join(empty)}"
        )
    if field in _NEEDS:
        missing = [a for a in _NEEDS[field] if not hasattr(value, a)]
        if missing:
            return f"answered {value!r}, which lacks {', '.join(missing)}"
        return None
    if field == "follow" and hasattr(value, "legal"):
        return None
    if not callable(value):
        return f"must answer a function, got {value!r}"
    return None


# -- the plain forms ----------------------------------------------------------------------


class PlainFollow:
    """A follow rule given as a plain ``follow(hand, trick, trump)`` function; its
    refusals cite the first rule its variant states for the hook."""

    def __init__(self, fn: Callable[[list[int], list[int], int], list[int]], rule: str) -> None:
        self.fn, self.rule = fn, rule

    def legal(self, hand: int, trick: list[int], trump: int) -> int:
        return _as_mask(self.fn(cards_of(hand), list(trick), trump))

    def refuse(self, hand: int, trick: list[int], trump: int, card: int) -> RuleViolation:
        legal = cards_of(_as_mask(self.fn(cards_of(hand), list(trick), trump)))
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


# -- guards for third-party components -------------------------------------------------------


def guard(field: str, value: Any, plugin: str, hook: str) -> Any:
    """Wrap a component so that misbehaviour is reported naming plugin and hook."""

    def call(fn: Callable[..., Any], *args: Any) -> Any:
        try:
            return fn(*args)
        except (PluginError, RuleViolation):
            raise
        except Exception as e:
            raise PluginError(plugin, hook, f"raised {e!r}") from e

    if field == "follow":
        return _GuardedFollow(value, plugin, hook, call)
    if field == "cinch":
        return _GuardedCinch(value, plugin, hook, call)
    if field == "payout":

        def payout(result: PlayResult, penalty: PenaltyFn) -> HandOutcome:
            out = call(value, result, penalty)
            if not isinstance(out, HandOutcome):
                raise PluginError(plugin, hook, f"must answer a HandOutcome, got {out!r}")
            if len(out.paid) != result.n or len(getattr(out, "takes", [])) != result.n:
                raise PluginError(plugin, hook, "paid/takes must have one amount per seat")
            inflow: Amount = result.pot_at_stake + sum(out.paid)
            outflow: Amount = sum(out.takes) + out.pot_after
            if inflow != outflow:
                raise PluginError(
                    plugin,
                    hook,
                    f"money not conserved: pot {result.pot_at_stake} + payments"
                    f" {sum(out.paid)} ≠ taken {sum(out.takes)} + carried {out.pot_after}",
                )
            return out

        return payout
    if field == "penalty":

        def penalty(p: Amount) -> Amount:
            x: Amount = call(value, p)
            if not _is_amount(x) or x < 0:
                raise PluginError(plugin, hook, f"penalty must be an amount ≥ 0, got {x!r}")
            return x

        return penalty
    if field == "ante":
        return _GuardedAnte(value, plugin, hook, call)
    if field == "deal":
        return _guarded_deal(value, plugin, hook, call)
    if field == "draw":
        return _GuardedDraw(value, plugin, hook, call)
    if field == "trick_winner":

        def trick_winner(trick: list[int], trump: int) -> int:
            i = call(value, trick, trump)
            if not isinstance(i, int) or isinstance(i, bool) or not 0 <= i < len(trick):
                raise PluginError(
                    plugin, hook, f"the winner must be an index of the trick, got {i!r}"
                )
            return i

        return trick_winner
    if field == "next_dealer":

        def next_dealer(dealer: int, marks: list[bool]) -> int:
            s = call(value, dealer, marks)
            if not isinstance(s, int) or isinstance(s, bool) or not 0 <= s < len(marks):
                raise PluginError(plugin, hook, f"the next dealer must be a seat, got {s!r}")
            return s

        return next_dealer
    if field == "settle":

        def settle(balances: list[Amount], pot: Amount) -> tuple[list[Amount], list[int]]:
            out = call(value, balances, pot)
            if not (isinstance(out, tuple) and len(out) == 2):
                raise PluginError(plugin, hook, f"must answer (balances, ranks), got {out!r}")
            final, ranks = out
            n = len(balances)
            if len(final) != n or len(ranks) != n or not all(map(_is_amount, final)):
                raise PluginError(plugin, hook, "balances and ranks must have one entry per seat")
            if sum(final) != sum(balances) + pot:
                raise PluginError(
                    plugin,
                    hook,
                    f"money not conserved: balances {sum(balances)} + pot {pot} ≠ {sum(final)}",
                )
            if not all(isinstance(r, int) and 1 <= r <= n for r in ranks):
                raise PluginError(plugin, hook, f"ranks must be places 1…{n}, got {ranks!r}")
            return final, ranks

        return settle
    if field == "decisions":
        return _GuardedObject(value, call)
    if callable(value) and field != "hand_size":
        return _GuardedCall(value, call)
    return value


def _is_amount(x: object) -> bool:
    return (isinstance(x, int) and not isinstance(x, bool)) or isinstance(x, Fraction)


class _GuardedAnte:
    def __init__(self, inner: Any, plugin: str, hook: str, call: Callable[..., Any]) -> None:
        self.inner, self.plugin, self.hook, self.call = inner, plugin, hook, call

    def hand_antes(
        self, n: int, ante: Amount, previous: HandOutcome | None, dealer: int
    ) -> list[Amount]:
        out = self.call(self.inner.hand_antes, n, ante, previous, dealer)
        if (
            not isinstance(out, list)
            or len(out) != n
            or not all(_is_amount(x) and x >= 0 for x in out)
        ):
            raise PluginError(self.plugin, self.hook, f"antes must be {n} amounts ≥ 0, got {out!r}")
        return out

    def play_ante(self, ante: Amount) -> Amount:
        x: Amount = self.call(self.inner.play_ante, ante)
        if not _is_amount(x) or x < 0:
            raise PluginError(self.plugin, self.hook, f"play_ante must be an amount ≥ 0, got {x!r}")
        return x


def _guarded_deal(value: Any, plugin: str, hook: str, call: Callable[..., Any]) -> Any:
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


class _GuardedDraw:
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


class _GuardedCall:
    """A guarded function or procedure."""

    def __init__(self, inner: Any, call: Callable[..., Any]) -> None:
        self._inner, self._call = inner, call

    def __call__(self, *args: Any) -> Any:
        return self._call(self._inner, *args)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)


class _GuardedObject(_GuardedCall):
    """A guarded component object: each method call is guarded; plain attributes
    (a decision procedure's ``announcements``) are the inner component's."""

    def __getattr__(self, name: str) -> Any:
        attr = getattr(self._inner, name)
        if not callable(attr):
            return attr
        call = self._call
        return lambda *args: call(attr, *args)


def _as_mask(answer: object) -> int:
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


class _GuardedFollow:
    """A third-party follow rule: it gets the hand as :class:`~bourre.cards.Cards`
    (a mask that also reads as the sorted list) and may answer a mask or a list."""

    def __init__(self, inner: Any, plugin: str, hook: str, call: Callable[..., Any]) -> None:
        self.inner, self.plugin, self.hook, self.call = inner, plugin, hook, call

    def legal(self, hand: int, trick: list[int], trump: int) -> int:
        answer = self.call(self.inner.legal, Cards(hand), list(trick), trump)
        legal = _as_mask(answer)
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


class _GuardedCinch:
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
        out = _as_mask(answer)
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
