"""A plugin's rules on the compiled kernel (issue 41, "open to plugins"): a house whose
penalty (R-BOURRE, R-RENEGE) or payout (R-WIN, R-SOLE, R-BOURRE, R-ANTE), lead (R-LEAD),
follow rule (R-FOLLOW …), cinch (R-SURE …) or trick winner (R-TRICK) is a plugin's plays
on the kernel for every built-in rule, and the kernel calls the plugin's component
through Python for the hooks it answers: the money once a hand, the lead once a trick,
the follow rule and the cinch once a card, the trick winner once a trick.

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
  called with each full trick;
- the lead (``bourre_lead``): the house's checked component itself, called at every
  trick's start with the active seats, the dealer and the last trick's winner;
- :func:`cinch_hook`: the callable the kernel calls for every card of a house whose
  cinch (R-SURE … R-CINCH-LAST) is a plugin's, with the ordinary legal cards.
- the per-hand hooks (:data:`HAND_HOOKS`), each asked once a hand and never a card:
  :func:`ante_hook` and :func:`play_ante_hook` (the plugin answers ``bourre_ante``: the
  antes at the deal, R-FIRST-POT, R-ANTE, told the previous hand's
  :class:`~bourre.rules.HandOutcome` exactly as the Python state passes it, and the play
  ante when the decisions are over), :func:`dealer_hook` (``bourre_next_dealer``, R-DEALER,
  with the marks the Python state would pass) and :func:`settle_hook` (``bourre_settle``,
  R-SETTLE, at the session's end);
- a plugin's hand size (``bourre_hand_size``, R-DEAL-SIZE) is a value, no call: the kernel
  deals any size its arrays hold (:data:`KERNEL_HAND_SIZES`).

Each calls the house's *checked* component (``house.rules``: the guard of
:mod:`bourre.rules.hookspec` checks every answer, as on the Python rules, and a plugin's
error is the same :class:`~bourre.rules.hookspec.PluginError`); the money hooks answer
in the kernel's 1/D chips.  D is widened for such a house by :data:`WIDEN` (a pot split among
up to 8 players is a whole number of 1/(840·D) chips); an amount still not a whole
number of them, or beyond 2^62, is answered ``None``: the kernel then hands the session
to the Python rules, as it does for money beyond its range, so the result is the Python
rules' hand for hand, never rounded.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any, TypeVar

from bourre.houses.house import House
from bourre.rules import HandOutcome, PlayResult, Ruling
from bourre.rules.hookspec import (
    ANTE,
    CINCH,
    DECISIONS,
    DRAW,
    FOLLOW,
    HAND_SIZE,
    LEAD,
    NEXT_DEALER,
    PAYOUT,
    PENALTY,
    RULE_HOOKS,
    SETTLE,
    TRICK_WINNER,
)
from bourre.rules.money import Amount

__all__ = [
    "CARD_HOOKS",
    "HAND_HOOKS",
    "KERNEL_HAND_SIZES",
    "MONEY_HOOKS",
    "REMEMBER",
    "REMEMBERED",
    "SESSION_HOOKS",
    "STATE_HOOKS",
    "VALUE_HOOKS",
    "WIDEN",
    "ante_hook",
    "asked_words",
    "cinch_hook",
    "dealer_hook",
    "follow_hook",
    "money_hook",
    "outcome_of",
    "penalty_hook",
    "play_ante_hook",
    "remembered",
    "settle_hook",
    "through_python",
]

MONEY_HOOKS = (PENALTY.name, PAYOUT.name)
"""The money hooks whose plugin component the kernel calls through Python."""

CARD_HOOKS = (LEAD.name, FOLLOW.name, CINCH.name, TRICK_WINNER.name)
"""The per-card and per-trick hooks whose plugin component the kernel calls through
Python: the lead (its component called as it is, ``lead(active, dealer, winner)``, at
every trick's start), the follow rule (whole sessions, the stepped state, advice's
deals, the worlds and the equilibrium chart), the cinch (:func:`cinch_hook`, for every
card) and the trick winner (its component called as it is, ``winner(trick, trump)``);
the double-dummy solver asks all four (:mod:`bourre.advice.kernel_solver`)."""

HAND_HOOKS = (ANTE.name, NEXT_DEALER.name, SETTLE.name)
"""The per-hand hooks whose plugin component the kernel calls through Python, once a hand
(the ante twice: its hand antes at the deal, its play ante when the tricks start) or once
a session (the settlement)."""

SESSION_HOOKS = (DECISIONS.name, DRAW.name)
"""The per-decision hooks whose plugin component whole sessions and the stepped state ask
through Python (the decisions and the draw: each hand's decisions and exchanges played
on a hand state by the house's checked components, :mod:`bourre.kernel.decisions`), and
the rollouts of a Python world (:data:`bourre.kernel.rollouts.TRICKS_HOOKS`) and
advice's batches (:data:`bourre.kernel.rollouts.ADVICE_HOOKS`); the kernel's own worlds
and the equilibrium chart's decision table leave such a house to the Python rules (the
solver plays it from the tricks, asking nothing)."""

STATE_HOOKS = (*MONEY_HOOKS, *CARD_HOOKS, *HAND_HOOKS, *SESSION_HOOKS)
"""The plugin hooks the kernel's stepped state asks through Python: every one
(:data:`SESSION_HOOKS` included: issue 41)."""

VALUE_HOOKS = (HAND_SIZE.name,)
"""The hooks whose plugin answer is a value the kernel is told (no call): the hand size."""

KERNEL_HAND_SIZES = range(1, 6)
"""The hand sizes the kernel deals (its arrays hold 5 cards a hand and 5 tricks)."""

WIDEN = 840
"""lcm(1, …, 8): the factor D is widened by for a house with a plugin's money rule, so
that a pot shared by up to 8 players stays a whole number of the kernel's units."""

_LIMIT = 1 << 62

Money = Callable[[int, list[int], list[int]], tuple[int, ...] | None]


def through_python(house: House, kernel_variants: frozenset[str] | set[str]) -> list[str] | str:
    """The hooks of ``house`` that the kernel calls through Python, as ``"variant
    (hook)"`` (none: every component is built in), or why the kernel cannot play it:
    a plugin (or a checked component) answers a hook other than :data:`MONEY_HOOKS`,
    :data:`CARD_HOOKS`, :data:`HAND_HOOKS` and :data:`SESSION_HOOKS` (a hand size,
    :data:`VALUE_HOOKS`, is no call: never named here)."""
    through: list[str] = []
    guarded = set(house.guarded)
    for hook in RULE_HOOKS:
        by = house.answered_by.get(hook.name)
        if by is None or hook.name in VALUE_HOOKS:
            continue
        own = by.name in kernel_variants and house.is_builtin(by)
        label = f"{by.name} ({hook.name})"
        if own and label not in guarded:
            continue
        if hook.name in STATE_HOOKS or hook.name in SESSION_HOOKS:
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
    ``("split-pot (bourre_payout)",)`` → ``"split-pot's payout"``,
    ``("two-left (bourre_next_dealer)",)`` → ``"two-left's next dealer"``."""
    out = []
    for x in asked:
        name, hook = x[:-1].split(" (", 1)
        out.append(f"{name}'s {hook.removeprefix('bourre_').replace('_', ' ')}")
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


def _amount_of(scale: int) -> Callable[[int], Amount]:
    """An amount in 1/``scale`` chips as the Python rules hold it (an int when whole)."""
    return lambda x: x // scale if x % scale == 0 else Fraction(x, scale)


Outcome = Callable[[int, list[int], list[int], bool], HandOutcome]


def outcome_of(house: House, scale: int) -> Outcome:
    """The hand's :class:`~bourre.rules.HandOutcome` as the Python state makes it (its
    ``_end_hand``): ``outcome(P, active, won)`` (the pot at stake in 1/``scale`` chips,
    the active seats in order, each seat's tricks) calls the house's checked payout
    with its checked penalty on the hand's :class:`~bourre.rules.PlayResult` (no renege,
    no forfeit: the kernel's bots play legal cards).  ``fresh``: the payout is asked
    (:func:`money_hook`, at the hand's end, as the Python state asks it once a hand); else
    the last answer is given again when it was for the same hand (:func:`ante_hook`, the
    next hand's ``previous``, which the Python state does not ask again)."""
    payout, penalty = house.rules[PAYOUT], house.rules[PENALTY]
    n = house.table.players
    amount = _amount_of(scale)
    last: list[Any] = [None, None]

    def outcome(pot: int, active: list[int], won: list[int], fresh: bool) -> HandOutcome:
        key = (pot, tuple(active), tuple(won))
        if not fresh and last[0] == key:
            got: HandOutcome = last[1]
            return got
        p = pot // scale if pot % scale == 0 else amount(pot)
        out = payout(PlayResult(n, p, active, won, set(), [], len(active) == 1), penalty)
        last[0], last[1] = key, out
        return out

    return outcome


def money_hook(house: House, scale: int, outcome: Outcome | None = None) -> Money:
    """The kernel's call at a hand's end for a house whose payout is a plugin's:
    ``money(P, active, won)`` (the pot at stake in 1/``scale`` chips, the active seats
    in order and each seat's tricks, two new lists) → ``(winner or -1, carried, bourre
    count, bourre mask, exempt mask, pot after, each seat's change of balance…)`` in
    1/``scale`` chips (the kernel refuses those beyond 2^62), or ``None`` when an amount
    is not a whole number of them.  The house's checked payout is called with its
    checked penalty, as :func:`bourre.game.state._end_hand` calls them (a kernel's hand
    has no renege and no forfeit: the bots play legal cards), through ``outcome``
    (:func:`outcome_of`) when given."""
    payout, penalty = house.rules[PAYOUT], house.rules[PENALTY]
    n = house.table.players
    bits = [(s, 1 << s) for s in range(n)]
    units = _units(scale)

    def money(pot: int, active: list[int], won: list[int]) -> tuple[int, ...] | None:
        if outcome is not None:
            out = outcome(pot, active, won, True)
        else:
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


Follow = Callable[[tuple[int, ...], tuple[int, ...], int], int | None]


def follow_hook(house: House, last: list[Ruling] | None = None) -> Follow:
    """The kernel's call for every card of a house whose obligations (R-LEAD, R-FOLLOW,
    R-TRUMP, R-DISCARD) are a plugin's: ``follow(hand, trick, trump)`` (the hand sorted,
    the trick so far in play order, none for a lead) → the legal cards as a mask of
    bits, the house's checked follow rule asked as
    :func:`bourre.game.state.State.legal_with_reasons` asks it; ``None`` when its cards
    are not in the hand's order (a random bot chooses among them in their order, which
    the kernel's mask does not keep: the Python rules play the session).  The cinch
    (R-SURE …) then narrows them in the kernel, as the built-in cinch does, or the
    plugin's cinch (:func:`cinch_hook`), which reads the ruling kept in ``last``."""
    legal = house.rules[FOLLOW].legal

    def follow(hand: tuple[int, ...], trick: tuple[int, ...], trump: int) -> int | None:
        mask, prev = 0, -1
        ruling = legal(hand, trick, trump)
        if last is not None:
            last[0] = ruling
        for c in ruling.cards:
            if c <= prev:
                return None
            mask |= 1 << c
            prev = c
        return mask

    return follow


Cinch = Callable[
    [tuple[int, ...], tuple[int, ...], int, frozenset[int], int, bool, int], int | None
]


def cinch_hook(house: House, last: list[Ruling] | None = None) -> Cinch:
    """The kernel's call for every card of a house whose cinch (R-SURE, R-EQUIV,
    R-CINCH-LEAD, R-CINCH-FOLLOW, R-CINCH-LAST) is a plugin's: ``cinch(hand, trick,
    trump, known, won, last, ordinary)`` (the hand sorted, the trick so far, the cards
    the player knows out, its tricks, whether it plays last, the ordinary legal cards as
    a mask) → ``0`` when the player has no cinch, else the legal cards as a mask; the
    house's checked ``has_cinch`` and ``narrow`` asked as
    :func:`bourre.game.legal.legal_play` asks them.  ``narrow`` is given the ordinary
    obligations' own ruling: the plugin's follow rule's last answer (``last``, kept by
    :func:`follow_hook`), or the built-in follow rule's, asked only for a cinch.
    ``None`` when its cards are not in the hand's order (the Python rules play on)."""
    rule = house.rules[CINCH]
    has_cinch, narrow = rule.has_cinch, rule.narrow
    follow = house.rules[FOLLOW].legal

    def cinch(
        hand: tuple[int, ...],
        trick: tuple[int, ...],
        trump: int,
        known: frozenset[int],
        won: int,
        is_last: bool,
        ordinary: int,
    ) -> int | None:
        if not has_cinch(hand, trump, known, won):
            return 0
        ruling = last[0] if last is not None else follow(hand, trick, trump)
        mask, prev = 0, -1
        for c in narrow(ruling, hand, trick, trump, known, is_last).cards:
            if c <= prev:
                return None
            mask |= 1 << c
            prev = c
        return mask

    return cinch


REMEMBER = True
"""Whether the kernel asks a plugin's penalty or payout once for each different hand
result and keeps its checked answer for the house (whole sessions, the stepped state,
the chart and advice): a money rule answers from the hand's result alone (the pot at
stake, who played, the tricks won: a component that keeps state between calls fails
the conformance kit's ``determinism`` check), and a comparison's millions of hands end
in a few thousand different results.  ``False``: the rule is asked at every hand, as
the Python rules ask it (the figures of docs/performance.md give both)."""

REMEMBERED = 16384
"""Different hand results remembered a house at most (a few megabytes); a result met
after that is asked each time."""

_A = TypeVar("_A")


def remembered(ask: Callable[..., _A]) -> Callable[..., _A]:
    """``ask`` (a :func:`money_hook` or :func:`penalty_hook` call), asked once for each
    different arguments while :data:`REMEMBER` holds, its checked answer kept (at most
    :data:`REMEMBERED`).  An answer the kernel will not hold (``None``) is kept too: the
    same result is the Python rules' again.  A plugin's error is never kept: it is
    raised again at the next call."""
    memo: dict[Any, Any] = {}

    def again(*args: Any) -> Any:
        key = tuple(tuple(a) if type(a) is list else a for a in args)
        got = memo.get(key, memo)
        if got is memo:
            got = ask(*args)
            if REMEMBER and len(memo) < REMEMBERED:
                memo[key] = got
        return got

    return again


# -- the per-hand hooks (issue 41, "open to plugins": per-hand hooks) ----------------------


def ante_hook(
    house: House, scale: int, outcome: Outcome
) -> Callable[[int, list[int], list[int], int], tuple[int, ...] | None]:
    """The kernel's call at each deal of a house whose ante (R-FIRST-POT, R-ANTE) is a
    plugin's: ``antes(P, active, won, dealer)`` (the last hand as the kernel keeps it:
    its pot at stake in 1/``scale`` chips, -1 before the session's first hand, its
    active seats and tricks) → each seat's ante in 1/``scale`` chips, the house's checked
    ``hand_antes(n, ante, previous, dealer)`` asked as
    :func:`bourre.game.state.deal_hand` asks it, ``previous`` the last hand's
    :class:`~bourre.rules.HandOutcome` as the payout gave it (:func:`outcome_of`);
    ``None`` when an amount is not a whole number of those units within 2^62."""
    rule = house.rules[ANTE]
    n, ante = house.table.players, house.table.ante
    units = _units(scale)

    def antes(pot: int, active: list[int], won: list[int], dealer: int) -> tuple[int, ...] | None:
        previous = None if pot < 0 else outcome(pot, active, won, False)
        out: list[int] = []
        for x in rule.hand_antes(n, ante, previous, dealer):
            u = units(x)
            if u is None:
                return None
            out.append(u)
        return tuple(out)

    return antes


def play_ante_hook(house: House, scale: int) -> Callable[[], int | None]:
    """The kernel's call once a hand, when the decisions are over, of a house whose ante
    is a plugin's: the house's checked ``play_ante(ante)`` (what each player who plays
    adds, as :func:`bourre.game.state._start_play` asks it) in 1/``scale`` chips, or
    ``None`` when it is not a whole number of them."""
    rule = house.rules[ANTE]
    ante = house.table.ante
    units = _units(scale)

    def play_ante() -> int | None:
        return units(rule.play_ante(ante))

    return play_ante


def dealer_hook(house: House) -> Callable[[int, int], tuple[int, int]]:
    """The kernel's call at each deal after the first of a house whose next dealer
    (R-DEALER) is a plugin's: ``dealer(last, marks)`` (the seats that lost their next
    turn to deal as a mask: none in the kernel's own hands, unless the plugin marked
    some) → ``(seat, marks after)``, the house's checked ``next_dealer(last, marks)``
    given the marks as the list of bools the Python state passes; the marks after are
    -1 when the plugin left something other than n bools in it (the kernel then hands
    the money to the Python rules)."""
    next_dealer = house.rules[NEXT_DEALER]
    n = house.table.players
    none = [False] * n

    def dealer(last: int, mask: int) -> tuple[int, int]:
        marks = list(none) if not mask else [bool(mask >> s & 1) for s in range(n)]
        seat = next_dealer(last, marks)
        after = 0
        if len(marks) != n:
            return seat, -1
        for s, m in enumerate(marks):
            if m is True:
                after |= 1 << s
            elif m is not False:
                return seat, -1
        return seat, after

    return dealer


def settle_hook(
    house: House, scale: int
) -> Callable[[list[int], int], tuple[list[Amount], list[int]]]:
    """The kernel's call at the end of a settled session of a house whose settlement
    (R-SETTLE) is a plugin's: ``settle(balances, pot)`` in 1/``scale`` chips → the house's
    checked ``settle`` asked with the balances and the pot as the Python state holds
    them (its answer, ``(final balances, places)``, is the session's, as it is)."""
    settle = house.rules[SETTLE]
    amount = _amount_of(scale)

    def settled(balances: list[int], pot: int) -> tuple[list[Amount], list[int]]:
        return settle([amount(b) for b in balances], amount(pot))

    return settled
