"""The double-dummy solver in the compiled kernel (issue 31): the same values as
:mod:`bourre.advice.solver` (the readable reference, which knows no rule of Bourré),
computed in C++ on the kernel's own rules (``bourre.kernel._kernel``: the obligations,
the cinch, the trick, the payout of the built-in houses) for a house the kernel can
play (:func:`bourre.kernel.can_play`), its plugins' rules included (issue 41), the
kernel asking each plugin's checked component through Python as sessions ask it
(:mod:`bourre.kernel.hooks`):

- a penalty (R-BOURRE) or a payout (R-WIN, R-SOLE, R-BOURRE): once for each different
  count of tricks won, the search otherwise the built-in houses';
- a lead (R-LEAD): the built-in houses' search, the order of play asked of the plugin
  once a solve for each trick's winner;
- a rule of the play that reads the cards (a follow rule, R-FOLLOW …; a cinch, R-SURE
  …; a trick winner, R-TRICK): the reference's *plain* search (``solve(plain=True)``:
  every legal card searched, no bound read from the built-in rules), each different
  question asked once a solve; such a house is solved here only when the plain search
  is asked (:func:`plain_only`), which is how advice and the review solve it;
- a hand's ante, next dealer or settlement: never asked (one hand's play reads none).

An answer that is not the kernel's to hold (an amount not a whole number of its units,
a ruling on cards not in the hand's order) is the Python reference's to solve (never a
rounded amount), and the plugin's error is raised as it is
(:class:`~bourre.rules.hookspec.PluginError`).

The position is read off the state: a :class:`~bourre.kernel.state.KernelState` hands
over its stepped state as it is, a Python :class:`~bourre.game.state.State` its hand's
fields (:attr:`~bourre.game.state.State.hand`).  The search is the reference's, on
bitmasks: (a) sure tricks by alpha-beta, (b) chips by max^n with the same tie rule (the
first card in ascending order), equivalent cards merged as the reference merges them
(and, inside the search, across cards nobody holds), positions remembered (hands, trick
so far, leader, tricks won; at the start of a trick packed, so that positions differing
only in cards nobody holds any more are one), max^n pruned where the payout's classes
settle a seat's choice (docs/advice.md, "The kernel's solver").  Money is counted in
1/D chips (the kernel's D) and given back as the reference gives it: ``int`` when whole,
else an exact ``Fraction``.  ``tests/kernel/test_solver.py`` holds it to the reference.
"""

from __future__ import annotations

from typing import Any

from bourre.advice.solution import CardValue, Solution
from bourre.game.protocol import GameState
from bourre.game.state import State
from bourre.game.tablesteps import hand_log
from bourre.houses.house import House
from bourre.kernel import _house_facts, _kernel, can_play, python_hooks
from bourre.kernel.hooks import CARD_HOOKS, HAND_HOOKS, MONEY_HOOKS, SESSION_HOOKS
from bourre.kernel.state import KernelState, _money
from bourre.rules.hookspec import LEAD
from bourre.rules.money import Amount

__all__ = [
    "CARD_RULES",
    "SOLVER_HOOKS",
    "asked",
    "built",
    "kernel_solve",
    "plain_only",
    "plugin_card_rules",
    "stepped_in_play",
    "why_not",
    "why_not_house",
]

SOLVER_HOOKS = (*MONEY_HOOKS, *CARD_HOOKS, *HAND_HOOKS, *SESSION_HOOKS)
"""The hooks whose plugin component the kernel's solver accepts: those it asks through
Python, and the hand's ante, dealer, settlement, decisions and draw, none of them read
in one hand's play (a position is solved from the tricks on)."""

_BUILT = _kernel is not None and hasattr(_kernel, "dd_solve")
"""The extension is built, and not older than this module."""

_FACTS: list[tuple[House, dict[str, Any]]] = []


def built() -> bool:
    """Whether the compiled solver is there (the extension built and up to date)."""
    return _BUILT


def _facts(house: House) -> dict[str, Any] | str:
    """The kernel's facts of a house (or why it cannot play it), kept for a few houses."""
    for h, f in _FACTS:
        if h is house:
            return f
    why = can_play(house, hooks=SOLVER_HOOKS)  # (a plugin's rule: asked through Python)
    if why is not None:
        return why
    facts = _house_facts(house)
    if isinstance(facts, str):
        return facts
    _FACTS.insert(0, (house, facts))
    del _FACTS[8:]
    return facts


def asked(house: House) -> tuple[str, ...]:
    """The plugin's rules the kernel's solver asks through Python for ``house``, as
    ``"variant (hook)"`` (a plugin's decisions or draw is never asked in the tricks)."""
    return tuple(x for x in python_hooks(house) if x[:-1].split(" (", 1)[1] not in SESSION_HOOKS)


def stepped_in_play(state: object) -> bool:
    """Whether ``state`` is the kernel's stepped state in the play phase: every hand is
    known to it, nothing more to check before solving."""
    return type(state) is KernelState and state.phase_name == "play"


def why_not_house(house: House) -> str | None:
    """Why the kernel's solver cannot solve any position of ``house`` (``None``: it can
    solve a hand of it that the kernel dealt or stepped, a sampled deal included)."""
    if not _BUILT:
        return "the compiled kernel is not built (or older than this module)"
    facts = _facts(house)
    return facts if isinstance(facts, str) else None


CARD_RULES = tuple(h for h in CARD_HOOKS if h != LEAD.name)
"""The rules of the play that read the cards (a follow rule, a cinch, a trick winner):
a plugin's breaks what the merging search assumes of the built-in ones.  A plugin's lead
(R-LEAD: ``lead(active, dealer, winner)``) reads no card: the merging search holds,
the order of play named in the keys by the last winner."""


def plugin_card_rules(house: House) -> tuple[str, ...]:
    """The rules of the play of ``house`` that read the cards (:data:`CARD_RULES`) and
    that a plugin answers, as ``"variant (hook)"``, a built-in variant's checked
    component included; known without the kernel.  The merging of equivalent cards
    assumes the built-in ones."""
    out = []
    for hook in CARD_RULES:
        by = house.answered_by.get(hook)
        if by is None:
            continue
        label = f"{by.name} ({hook})"
        if not house.is_builtin(by) or label in house.guarded:
            out.append(label)
    return tuple(out)


def plain_only(house: House) -> bool:
    """Whether ``house`` is solved by the plain search only, on the kernel as on the
    Python rules: a plugin answers a rule of the play that reads the cards
    (:func:`plugin_card_rules`), which the merging of equivalent cards and the bounds
    from the built-in rules would not respect."""
    return bool(plugin_card_rules(house))


def why_not(state: GameState, *, plain: bool = False) -> str | None:
    """Why the kernel's solver cannot solve ``state`` (``None``: it can); ``plain``: by
    the reference's plain search (see :func:`plain_only`)."""
    why = why_not_house(state.house)
    if why is not None:
        return why
    facts = _facts(state.house)
    assert isinstance(facts, dict)
    if plain != plain_only(state.house):
        return (
            f"a plugin's rule of the play ({', '.join(plugin_card_rules(state.house))}) is solved"
            " by the plain search only (plain=True)"
            if not plain
            else "the plain search of a house whose rules of the play are built in is the"
            " Python reference's (the kernel merges equivalent cards)"
        )
    if type(state) is KernelState:
        return None
    if type(state) is not State:
        return f"a {type(state).__name__} is solved by the Python reference"
    log = hand_log(state)
    if log.premature or log.forfeits or log.reneges:
        return "a hand with a renege, a correction or a premature play (a real table's)"
    hs = state.hand
    scale = facts["scale"]
    if _units(hs.pot_at_stake, scale) is None:
        return "the pot at stake is beyond the kernel's 64-bit inputs"
    return None


def _units(x: Amount, scale: int) -> int | None:
    v = x * scale
    if isinstance(v, int):
        return v if abs(v) < 1 << 62 else None
    return int(v) if v.denominator == 1 and abs(v) < 1 << 62 else None


def kernel_solve(state: GameState, *, plain: bool = False) -> Solution | None:
    """The values of :func:`bourre.advice.solver.solve` (``plain`` as there) for
    ``state`` (in the play phase, every hand known: checked by the caller), computed by
    the kernel; raises ``ValueError`` when :func:`why_not` gives a reason.  ``None``
    when a plugin's rule answers what the kernel does not hold (an amount not a whole
    number of its units, a ruling on cards not in the hand's order): the caller solves
    it on the Python reference, as sessions hand such answers to the Python rules."""
    why = why_not(state, plain=plain)
    if why is not None:
        raise ValueError(f"the kernel's solver cannot solve this state: {why}")
    assert _kernel is not None
    facts = _facts(state.house)
    assert isinstance(facts, dict)
    got: Any
    if type(state) is KernelState:
        got = _kernel.dd_solve_stepper(state.stepper)
    else:
        hs = state.hand
        position = {
            "upcard": hs.upcard,
            "pot_at_stake": _units(hs.pot_at_stake, facts["scale"]),
            "hands": hs.hands,
            "discards": hs.discards,
            "won": hs.won,
            "active": hs.active,
            "trick_seats": hs.trick_seats,
            "trick": hs.trick,
            "played": sorted(hs.played),
            "tricks": len(hs.tricks),
            "dealer": hs.dealer,
        }
        got = _kernel.dd_solve(facts, position)
    if got is None:  # (a plugin's amount the kernel does not hold)
        return None
    rows, positions = got
    amount = _money(facts["scale"])
    seat = state.current_player()
    values = []
    for card, head, tricks, chips in rows:
        money = tuple(amount(x) for x in chips)
        values.append(CardValue(card, tricks, money[seat], money, head))
    top = max(v.chips for v in values)
    most = max(v.sure_tricks for v in values)
    best = tuple(v.card for v in values if v.chips == top)
    return Solution(
        seat,
        tuple(values),
        best,
        tuple(v.card for v in values if v.sure_tricks == most),
        best[0],
        positions,
    )
