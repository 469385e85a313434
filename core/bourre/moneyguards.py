"""Guards of the third-party components that answer money: antes and penalties must
be amounts ≥ 0, and the payout and the final settlement must conserve the money at
the table (one amount per seat; what comes in is what goes out)."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

from bourre.money import Amount
from bourre.pluginerror import PluginError
from bourre.rules import HandOutcome, PenaltyFn, PlayResult


def _is_amount(x: object) -> bool:
    return (isinstance(x, int) and not isinstance(x, bool)) or isinstance(x, Fraction)


def guarded_payout(value: Any, plugin: str, hook: str, call: Callable[..., Any]) -> Any:
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


def guarded_penalty(value: Any, plugin: str, hook: str, call: Callable[..., Any]) -> Any:
    def penalty(p: Amount) -> Amount:
        x: Amount = call(value, p)
        if not _is_amount(x) or x < 0:
            raise PluginError(plugin, hook, f"penalty must be an amount ≥ 0, got {x!r}")
        return x

    return penalty


def guarded_settle(value: Any, plugin: str, hook: str, call: Callable[..., Any]) -> Any:
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


class GuardedAnte:
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
