"""Advice from outside the game: an exact double-dummy solver over the state API
(:mod:`bourre.advice.solver`, ``bourre.solve(state)``)."""

from __future__ import annotations

from bourre.advice.solver import CardValue, Solution, solve

__all__ = ["CardValue", "Solution", "solve"]
