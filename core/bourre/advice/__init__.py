"""Advice from outside the game: an exact double-dummy solver over the state API
(:mod:`bourre.advice.solver`, ``bourre.solve(state)``) and, before a seat's decision,
whether to play and what to throw, by simulation (:mod:`bourre.advice.advise`,
``bourre.advice.advise(...)``)."""

from __future__ import annotations

from bourre.advice.advise import Advice, AdviceError, Estimate, Option, advise
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
