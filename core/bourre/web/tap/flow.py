"""The tap page's state machine: a tap is applied by the step of the phase the hand
is in, and the page then shows the step of the phase it is in next
(:data:`~bourre.web.tap.steps.STEPS`, the one dispatcher)."""

from __future__ import annotations

from bourre.referee.ruling import tricks_taken
from bourre.rules.cards import SUIT_NAMES, card_symbol
from bourre.rules.money import chips

from .form import Tap
from .hand import TappedHand
from .page import Step
from .phases import Phase
from .steps import STEPS

__all__ = ["TapFlow"]


class TapFlow(TappedHand):
    """A hand being tapped at a house (:class:`~bourre.web.tap.hand.TappedHand`),
    driven a tap at a time."""

    def tap(self, value: str) -> None:
        """Apply one tap (a button's value); :class:`~bourre.web.tap.form.TapError` if it
        does not fit, the hand unchanged.  ``undo`` takes back the last tap in any
        phase."""
        tap = Tap.read(value)
        if tap.verb == "undo":
            self.undo()
        else:
            STEPS[self.phase].tap(self, tap)

    def step(self) -> Step:
        """What the page shows now."""
        return STEPS[self.phase].view(self)

    def status(self) -> list[str]:
        """A line or two on where the hand stands (trump, the pot, the tricks)."""
        if self.done is None:
            return []
        t = self.table
        pot = self.done.record.hands[-1].pot_at_stake
        out = [
            f"Hand {t.number} · seat {t.dealer} deals · trump {SUIT_NAMES[t.trump]}"
            f" ({card_symbol(t.upcard)}) · the pot {chips(pot)}"
        ]
        if t.active and self.phase in (Phase.PLAY, Phase.RULE):
            out.append(f"Tricks taken: {tricks_taken(t.won, t.active)}")
        return out
