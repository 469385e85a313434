"""What the game checks after every hand: the money at the table is whole (R-SETTLE:
balances and the pot add up to what the table started with), and with third-party
components the cards too (every card in exactly one place); and the sum of amounts
it checks with (:func:`amount_sum`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from bourre.money import Amount
from bourre.state import HandState

if TYPE_CHECKING:
    from bourre.statefields import StateFields

__all__ = ["amount_sum", "check_conserved"]

_SUM: Final = sum  # the builtin as a constant: compiled, no lookup in the builtins


def amount_sum(xs: list[Amount]) -> Amount:
    """``sum(xs)``, compiled: whole chips are added natively (the builtin makes an
    iterator and calls back for each item); any fraction, the builtin."""
    total = 0
    for x in xs:
        if not isinstance(x, int):
            return _SUM(xs)
        total += x
    return total


def check_conserved(st: StateFields, hs: HandState) -> None:
    """After every hand the money at the table is whole, and with third-party
    components the cards too; else the game stops naming those components (bots
    cannot change the game: they answer observations)."""
    from bourre.guards import PluginError

    money = sum(st.balances) + st.pot
    problem = ""
    if money != st.total:
        problem = f"money not conserved: the table holds {money}, not {st.total}"
    elif not hs.unseen_stock and not any(hs.hidden):
        try:
            hs.places()
        except AssertionError as e:
            problem = f"cards not conserved: {e}"
    if problem:
        who = ", ".join(st.house.guarded) or "the house's components"
        raise PluginError(who, f"hand {hs.number}", problem)
