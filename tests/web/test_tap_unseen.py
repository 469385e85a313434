"""The tap page and the referee agree on the cards nobody showed (issue 40: the one
inference, :mod:`bourre.game.unseen` through :class:`~bourre.referee.table.TableState`).

The tour's hands are tapped a card at a time; at each card, what the page says a seat
whose tricks will show its hand may still hold (:meth:`TappedHand.could_hold`, a
picker's cards and the check of a tapped card, R-DECK) and which cards nobody has
named (:meth:`TappedHand.unnamed`) are compared with the referee's answer over the
hand as its tricks finally show it (``bourre replay`` of the whole hand, every seat's
hand read from its tricks), the cards the page could not yet know counted as unplaced.
The page's stand-in hands (cards nobody named, put where the referee needs a hand) must
change none of its answers."""

from __future__ import annotations

import pytest

pytest.importorskip("starlette")  # bourre.web's package imports the web framework

from tapflow import PREMATURE, TOUR

from bourre.game import unseen
from bourre.game.state import State
from bourre.houses.house import House
from bourre.referee import referee
from bourre.referee.notation import parse_script
from bourre.referee.table import TableState
from bourre.web.tap import TapFlow

STANDARD = House("standard")


def _positions(text: str) -> list[State]:
    """The whole hand refereed from its tricks: the state before each card."""
    out: list[State] = []
    script = parse_script(f"house {STANDARD.spec}\n{text}", "the hand")
    referee(script, place="the hand", watch=lambda st, _c, _to: out.append(st.clone()))
    return out


@pytest.mark.parametrize("text", [TOUR, PREMATURE], ids=["tour", "premature"])
def test_the_page_and_the_referee_agree_on_the_cards_nobody_showed(text: str) -> None:
    lines = [x for x in text.splitlines() if x.strip()]
    first = next(i for i, x in enumerate(lines) if x.startswith("play "))
    truth = _positions(text)
    assert len(truth) == len(lines) - first
    checked = 0
    for k, whole in enumerate(truth):  # k cards played
        page = TapFlow(STANDARD, "\n".join(lines[: first + k]), "")
        assert page.error is None and page.guessed
        real = TableState(whole.clone())
        hs = whole.hand
        # what the page knows of the seats it gave stand-ins: their cards nobody named
        # are not (the upcard, a card taken back are)
        known = {s: set(page.table.hands[s]) - page.stand_ins.cards for s in page.guessed}
        not_yet = set().union(*(set(hs.hands[s]) - known[s] for s in page.guessed))
        assert page.unnamed() == set(real.unplaced()) | not_yet
        assert page.unnamed() == set(range(52)) - page.told().named()  # unchanged
        for s in page.guessed:
            hold = page.could_hold(s)
            assert hold == real.could_hold(s, not_yet) == unseen.could_hold(hs, s, not_yet)
            assert set(hs.hands[s]) <= hold  # what it really holds, among them
            others = set(hs.located()) - set(hs.hands[s]) - not_yet
            assert not hold & others  # never a card placed elsewhere
            checked += 1
    assert checked > 20
