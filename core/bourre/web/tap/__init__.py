"""Referee a hand by tapping (``/tap`` of ``bourre serve``): every step is a choice on
the screen, each tap one button of a form.

The page keeps nothing: the hand so far travels in the form as hand notation (one
step a line, :mod:`bourre.referee.notation`) and is refereed again on every tap by
the same code as ``bourre replay``.  A step that takes several taps (a seat that
plays: the cards it shows, how many it changes, which, what it drew; a card the
rules forbid: does it stand, or was it taken back) waits in a short ``pending``
field until it is whole, then becomes a line.

The table's cards are asked only where the script needs them.  A seat that passes
shows nothing; a seat that plays gives how many cards it changes and which it threw,
and its hand is read from its tricks once it has played them all (docs/table-scripts.md,
"What the tricks show").  Until then the referee is given a stand-in hand for it (the
cards it played or took back, the upcard for the dealer, cards no line names), from
which only whose turn it is and who took each trick are read; its cards are checked
when its tricks show them, and a renege found then is put to the table.  What the page
says of the cards nobody showed (which a seat may still hold, which are still free to
tap) is the referee's one inference (:mod:`bourre.game.unseen`, through
:class:`~bourre.referee.table.TableState`), the stand-ins' cards nobody named counted
as unplaced: the page infers nothing of its own.  A seat may show its dealt cards
instead (one tap more): each of its cards is then checked as it is played.  A seat that takes the
pot without play shows its cards at the end (R-SOLE).

What a card may be, and why not, is the house's rule components' answer (the state's
:meth:`~bourre.game.state.State.legal_with_reasons`); the ruling at the end is
:func:`bourre.referee.ruling.ruling`'s.  Nothing here restates a rule.

The page is a small state machine, one concept a module:

- :mod:`~bourre.web.tap.phases`: the phases (what the page asks for next);
- :mod:`~bourre.web.tap.form`: what the form carries (a tap, the step under way);
- :mod:`~bourre.web.tap.told`: the last hand as its lines tell it, cards as ints;
- :mod:`~bourre.web.tap.table`: every read of the game state (the one place the page
  meets the game), the referee's answers on the cards nobody showed, and the stand-in
  hands the referee needs first;
- :mod:`~bourre.web.tap.hand`: the hand being tapped: its lines, refereed, and where
  it is;
- :mod:`~bourre.web.tap.steps`: each phase's step, what the page shows and what a
  tap does, in one table;
- :mod:`~bourre.web.tap.page`: what the page draws (the picker's cards become
  symbols there);
- :mod:`~bourre.web.tap.flow`: :class:`TapFlow`, the machine the web page drives;
- :mod:`~bourre.web.tap.session`: the session around the hands (R-SESSION,
  R-SETTLE): the players' names, the ledger, the settlement, the session as a file;
  kept in the browser's storage, never on the server.
"""

from __future__ import annotations

from .flow import TapFlow
from .form import TapError

__all__ = ["TapError", "TapFlow"]
