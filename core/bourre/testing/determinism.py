"""The ``determinism`` check: the same seed gives the same session (every action,
chance outcome and balance).

A component that keeps state between calls, or draws its own random numbers, plays
the seed differently the second time.
"""

from __future__ import annotations

from bourre.game.actions import Deck
from bourre.game.state import State
from bourre.testing.report import Failure, Report
from bourre.testing.scripts import script


def fingerprint(st: State) -> list[str]:
    """A session, step by step, as text (what determinism compares)."""
    out = [str(x) for x in st.history()]
    out += [f"hand {r.number}: {[str(b) for b in r.balances]}" for r in st.results]
    return out


def determinism(first: State, second: State | None, report: Report, spec: str, seed: str) -> None:
    """``second``, the session ``first`` played again at its seed, is the same step for
    step (``None``: the second play failed a check, already reported)."""
    if second is None:
        return
    a, b = fingerprint(first), fingerprint(second)
    if a == b:
        return
    i = next((k for k, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b)))
    decks = sum(1 for x in first.history()[:i] if isinstance(x, Deck))
    report.fail(
        Failure(
            "determinism",
            spec,
            f"the same seed played twice differs at step {i}:"
            f" {a[i] if i < len(a) else 'the end'} / {b[i] if i < len(b) else 'the end'}"
            " (a component keeps state between calls, or draws its own random numbers)",
            seed,
            decks or None,
            None,
            script(first, current=False),
        )
    )
