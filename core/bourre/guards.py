"""What a house does with each rule component a plugin answers, once, when the house
is built: check its shape (:func:`check_component`), adapt the plain forms plugins
may give (:func:`adapt_component`: a follow or draw *function*, an ante policy that
is not told the dealer), and wrap third-party ones in checks (:func:`guard`) that
name the plugin and the hook when they raise, answer the wrong type or break an
invariant (a legal set outside the hand, money not conserved).

This module is the front of those steps; each lives in its own module:
:mod:`bourre.componentshape` (the shape), :mod:`bourre.plainforms` (the plain
forms), :mod:`bourre.guarding` (the guard, with the checks of
:mod:`bourre.cardguards`, :mod:`bourre.moneyguards` and :mod:`bourre.seatguards`)
and :mod:`bourre.pluginerror` (the error).
"""

from __future__ import annotations

from bourre.componentshape import check_component
from bourre.guarding import guard
from bourre.plainforms import adapt_component
from bourre.pluginerror import PluginError

__all__ = ["PluginError", "adapt_component", "check_component", "guard"]
