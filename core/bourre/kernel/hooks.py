"""A plugin's money rules on the compiled kernel (issue 41, "open to plugins"): a house
whose penalty (R-BOURRE, R-RENEGE) or payout (R-WIN, R-SOLE, R-BOURRE, R-ANTE) is a
plugin's plays on the kernel for every built-in rule, and the kernel calls the plugin's
component through Python, once a hand, for the hooks it answers.

- :func:`through_python`: which hooks of a house go through Python, or why the kernel
  cannot play it (a plugin's hook the kernel cannot call: the Python rules play it);
- :func:`money_hook`: the callable the kernel calls at each hand's end instead of its
  own payout (the plugin answers ``bourre_payout``);
- :func:`penalty_hook`: the callable the kernel's own payout calls for a penalty (the
  plugin answers ``bourre_penalty`` only), when somebody is bourré, as the standard
  payout calls it;
- :func:`follow_hook`: the callable the kernel calls for every card's legal set (the
  plugin answers ``bourre_follow``), in whole sessions, the stepped state and advice's
  deals; an answer it cannot hold hands the session (or the deal) to the Python rules;
- the trick winner (``bourre_trick_winner``): the house's checked component itself,
  called with each full trick.

Both call the house's *checked* component (``house.rules``: the guard of
:mod:`bourre.rules.hookspec` checks every answer, as on the Python rules, and a plugin's
error is the same :class:`~bourre.rules.hookspec.PluginError`), and answer in the
kernel's 1/D chips.  D is widened for such a house by :data:`WIDEN` (a pot split among
up to 8 players is a whole number of 1/(840·D) chips); an amount still not a whole
number of them, or beyond 2^62, is answered ``None``: the kernel then hands the session
to the Python rules, as it does for money beyond its range, so the result is the Python
rules' hand for hand, never rounded.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

from bourre.houses.house import House
from bourre.rules import PlayResult
from bourre.rules.hookspec import FOLLOW, PAYOUT, PENALTY, RULE_HOOKS, TRICK_WINNER

__all__ = [
    "CARD_HOOKS",
    "MONEY_HOOKS",
    "WIDEN",
    "asked_words",
    "follow_hook",
    "money_hook",
    "penalty_hook",
    "through_python",
]

MONEY_HOOKS = (PENALTY.name, PAYOUT.name)
"""The money hooks whose plugin component the kernel calls through Python."""

CARD_HOOKS = (FOLLOW.name, TRICK_WINNER.name)
"""The per-card hooks whose plugin component the kernel calls through Python: the follow
rule (whole sessions, the stepped state and advice's deals) and the trick
winner (its component called as it is, ``winner(trick, trump)``)."""

WIDEN = 840
"""lcm(1, …, 8): the factor D is widened by for a house with a plugin's money rule, so
that a pot shared by up to 8 players stays a whole number of the kernel's units."""

_LIMIT = 1 << 62

Money = Callable[[int, list[int], list[int]], tuple[int, ...] | None]


def through_python(house: House, kernel_variants: frozenset[str] | set[str]) -> list[str] | str:
    """The hooks of ``house`` that the kernel calls through Python, as ``"variant
    (hook)"`` (none: every component is built in), or why the kernel cannot play it:
    a plugin (or a checked component) answers a hook other than :data:`MONEY_HOOKS`."""
    through: list[str] = []
    guarded = set(house.guarded)
    for hook in RULE_HOOKS:
        by = house.answered_by.get(hook.name)
        if by is None:
            continue
        own = by.name in kernel_variants and house.is_builtin(by)
        label = f"{by.name} ({hook.name})"
        if own and label not in guarded:
            continue
        if hook.name in MONEY_HOOKS or hook.name in CARD_HOOKS:
            through.append(label)
        elif not own:
            return (
                f"variant {by.name!r} ({type(by).__module__}.{type(by).__qualname__}) is not"
                f" a built-in variant and answers {hook.name}: only the Python rules can play it"
            )
        else:
            return f"the house has checked third-party components: {', '.join(house.guarded)}"
    return through


def asked_words(asked: Sequence[str]) -> str:
    """The plugin's rules the kernel asks through Python (``"variant (hook)"``, as
    :func:`through_python` names them), as a card player reads them:
    ``("split-pot (bourre_payout)",)`` → ``"split-pot's payout"``."""
    out = []
    for x in asked:
        name, hook = x[:-1].split(" (", 1)
        out.append(f"{name}'s {hook.removeprefix('bourre_')}")
    return " and ".join(out)


def _units(scale: int) -> Callable[[Any], int | None]:
    """An amount (int or Fraction, as the guards let through) in 1/``scale`` chips, or
    ``None`` when it is not a whole number of them within 2^62."""

    def units(x: Any) -> int | None:
        if type(x) is int:
            u = x * scale
        else:
            den = x.denominator
            if scale % den:
                return None
            u = x.numerator * (scale // den)
        return u if -_LIMIT < u < _LIMIT else None  # (the kernel checks it again)

    return units


def money_hook(house: House, scale: int) -> Money:
    """The kernel's call at a hand's end for a house whose payout is a plugin's:
    ``money(P, active, won)`` (the pot at stake in 1/``scale`` chips, the active seats
    in order and each seat's tricks, two new lists) → ``(winner or -1, carried, bourre
    count, bourre mask, exempt mask, pot after, each seat's change of balance…)`` in
    1/``scale`` chips (the kernel refuses those beyond 2^62), or ``None`` when an amount
    is not a whole number of them.  The house's checked payout is called with its
    checked penalty, as :func:`bourre.game.state._end_hand` calls them (a kernel's hand
    has no renege and no forfeit: the bots play legal cards)."""
    payout, penalty = house.rules[PAYOUT], house.rules[PENALTY]
    n = house.table.players
    bits = [(s, 1 << s) for s in range(n)]
    units = _units(scale)

    def money(pot: int, active: list[int], won: list[int]) -> tuple[int, ...] | None:
        p = pot // scale if pot % scale == 0 else Fraction(pot, scale)
        out = payout(PlayResult(n, p, active, won, set(), [], len(active) == 1), penalty)
        deltas: list[int] = []
        for t, q in zip(out.takes, out.paid, strict=True):
            if type(t) is int and type(q) is int:
                deltas.append((t - q) * scale)
                continue
            ut, uq = units(t), units(q)  # (a Fraction: int arithmetic, no Fraction made)
            if ut is None or uq is None:
                return None
            deltas.append(ut - uq)
        after = units(out.pot_after)
        if after is None:
            return None
        exempt = out.ante_exempt
        emask = 0
        if exempt:
            for s, b in bits:
                if s in exempt:
                    emask |= b
        bourre = out.bourre
        bmask = 0
        for s in bourre:
            if type(s) is int and 0 <= s < n:
                bmask |= 1 << s
        w = out.winner
        winner = w if type(w) is int and 0 <= w < n else -1
        return (winner, w is None, len(bourre), bmask, emask, after, *deltas)

    return money


def penalty_hook(house: House, scale: int) -> Callable[[int], int | None]:
    """The kernel's call for a penalty when its own (the standard) payout plays a house
    whose penalty is a plugin's: ``penalty(P)`` in 1/``scale`` chips, the house's checked
    penalty called once a hand with a bourré player, with the pot at stake, as
    :func:`bourre_variants.standard.payout.payout` calls it; ``None`` when its answer is
    not the kernel's to hold."""
    penalty = house.rules[PENALTY]
    units = _units(scale)

    def pen(pot: int) -> int | None:
        return units(penalty(pot // scale if pot % scale == 0 else Fraction(pot, scale)))

    return pen


def follow_hook(house: House) -> Callable[[tuple[int, ...], tuple[int, ...], int], int | None]:
    """The kernel's call for every card of a house whose obligations (R-LEAD, R-FOLLOW,
    R-TRUMP, R-DISCARD) are a plugin's: ``follow(hand, trick, trump)`` (the hand sorted,
    the trick so far in play order, none for a lead) → the legal cards as a mask of
    bits, the house's checked follow rule asked as
    :func:`bourre.game.state.State.legal_with_reasons` asks it; ``None`` when its cards
    are not in the hand's order (a random bot chooses among them in their order, which
    the kernel's mask does not keep: the Python rules play the session).  The cinch
    (R-SURE …) then narrows them in the kernel, as the built-in cinch does."""
    legal = house.rules[FOLLOW].legal

    def follow(hand: tuple[int, ...], trick: tuple[int, ...], trump: int) -> int | None:
        mask, prev = 0, -1
        for c in legal(hand, trick, trump).cards:
            if c <= prev:
                return None
            mask |= 1 << c
            prev = c
        return mask

    return follow
