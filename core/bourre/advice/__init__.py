"""Advice from outside the game: an exact double-dummy solver over the state API
(:mod:`bourre.advice.solver`, ``bourre.solve(state)``) and, before a seat's decision,
whether to play and what to throw, by simulation (:mod:`bourre.advice.advise`,
``bourre.advice.advise(...)``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from bourre.advice.advise import Advice, AdviceError, Estimate, Option, advise

if TYPE_CHECKING:
    from bourre.advice.solver import CardValue, Solution, solve

__all__ = [
    "Advice",
    "AdviceError",
    "CardValue",
    "Estimate",
    "Option",
    "Solution",
    "advise",
    "solve",
]


def __getattr__(name: str) -> Any:
    """The solver's names, loaded when first asked for (``bourre advise`` does not)."""
    if name in ("CardValue", "Solution", "solve"):
        # lazy: bourre advise's start does not load the solver
        import bourre.advice.solver as solver

        return getattr(solver, name)
    raise AttributeError(f"module 'bourre.advice' has no attribute {name!r}")
