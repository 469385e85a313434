"""The conformance kit for plugin authors: ``check_variant`` and ``check_bot``.

A variant or bot package runs these in its own tests (``from bourre.testing import
check_variant; check_variant("split-pot")``), or uses the pytest fixture
``bourre_conformance`` that this package's pytest plugin (:mod:`bourre.testing.plugin`,
the ``pytest11`` entry point ``bourre``) provides.

The kit plays the plugin in random sessions at every table size (2–8 players, where
the hand size lets the deck serve them, R-DEAL) and composed with each built-in
variant it can combine with, and checks at every step (one module per check):

``money``, ``cards``, ``legal set``, ``citations`` (:mod:`bourre.testing.sessions`)
    the balances and the pot add up to the money the session started with, to the
    exact fraction (R-ANTE, R-WIN, R-SETTLE); every one of the 52 cards is in exactly
    one place (R-DECK, R-DEAL, R-DRAW); the legal set is never empty and within the
    player's hand (R-FOLLOW), and every legal action is accepted; every refusal and
    every reason carries a rule id and words, and cites a rule the house lists in
    ``bourre rules``;
``check`` (:mod:`bourre.testing.rulings`)
    ``bourre check`` on the positions of the sessions answers the state's legal set;
``determinism`` (:mod:`bourre.testing.determinism`)
    the same seed gives the same session (every action, chance outcome and balance);
``conflicts`` (:mod:`bourre.testing.houses`)
    the plugin either builds on each built-in variant or is refused with it clearly
    (a :class:`~bourre.houses.models.HouseError` naming both and the hook);
``replay`` (:mod:`bourre.testing.replay`)
    the session's table script (:mod:`bourre.testing.scripts`), refereed by
    ``bourre replay``, gives the same balances;
``compare`` (:mod:`bourre.testing.compare`)
    a short run of ``bourre compare`` plays the house;
``isolated bot`` (:mod:`bourre.testing.isolated`, bots)
    the bot answers through the isolated protocol.

:mod:`bourre.testing.checks` runs them all (:func:`check_variant`, :func:`check_bot`,
:func:`check_house`); a failure (:mod:`bourre.testing.report`) names the check, the
house, the seed, the hand and the seat, with a table script (``bourre replay`` form)
reproducing it where one can be made; :class:`ConformanceError` (an
``AssertionError``, so pytest shows it as a failed test) carries them all.

**Seeds.** Each run draws a fresh seed (:func:`run_seed`, :mod:`bourre.testing.seeds`):
the decks, the bots' choices and the sessions differ from one run to the next, so a
plugin cannot pass by recognising the kit's deals.  The seed is printed in every
failure; give it back to reproduce the run, as the ``seed`` argument or the
environment variable :data:`SEED_VARIABLE` (``BOURRE_TESTING_SEED=... pytest``; the
pytest plugin's ``--bourre-seed``).

**A conformance aid, not a security boundary.** The kit plays a plugin in ordinary
sessions and reports what it sees; it runs in the plugin's own process.  A plugin that
knows it is being checked (it looks for this package, or its callers on the stack) or
that patches this package at import can pass it and misbehave elsewhere.  What stands
between a plugin and a game is the runtime guards, on in every game, checked or not:
the rule hooks' checks (:mod:`bourre.rules.hookspec`: every component answer is
checked and a lie is a :class:`~bourre.rules.hookspec.PluginError` naming the plugin
and the hook), the money and card checks of the state, and the isolation of bots
(:mod:`bourre.game.isolate`).  See ``docs/plugins.md`` and ``docs/security.md``.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

__all__ = [
    "CHECKS",
    "SEED_VARIABLE",
    "ConformanceError",
    "Failure",
    "Report",
    "check_bot",
    "check_house",
    "check_variant",
    "run_seed",
]

_LAZY = {
    "CHECKS": "bourre.testing.report",
    "ConformanceError": "bourre.testing.report",
    "Failure": "bourre.testing.report",
    "Report": "bourre.testing.report",
    "SEED_VARIABLE": "bourre.testing.seeds",
    "SIZES": "bourre.testing.houses",
    "check_bot": "bourre.testing.checks",
    "check_house": "bourre.testing.checks",
    "check_variant": "bourre.testing.checks",
    "run_seed": "bourre.testing.seeds",
}
"""Where each name lives.  They load when first asked: the pytest plugin
(:mod:`bourre.testing.plugin`) lives in this package and loads with every pytest
session, and must not load the game with it."""

if TYPE_CHECKING:
    from bourre.testing.checks import check_bot, check_house, check_variant
    from bourre.testing.houses import SIZES as SIZES
    from bourre.testing.report import CHECKS, ConformanceError, Failure, Report
    from bourre.testing.seeds import SEED_VARIABLE, run_seed


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'bourre.testing' has no attribute {name!r}")
