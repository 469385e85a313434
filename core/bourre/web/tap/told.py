"""The last hand of the tapped lines as they tell it (no provisional hands): the
upcard, the hands shown, each decision and each card played, cards as ints."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .form import card

__all__ = ["Decision", "Play", "Told", "plays_unseen"]


@dataclass(frozen=True)
class Decision:
    seat: int
    play: bool
    discard: tuple[int, ...] = ()
    drew: tuple[int, ...] | None = None
    """What it drew, if the lines say (a seat whose tricks show its hand does not)."""


@dataclass(frozen=True)
class Play:
    seat: int
    card: int
    instead: int | None = None
    """The card played instead of ``card``, taken back (R-CORRECTED)."""

    @property
    def stood(self) -> int:
        """The card that stood in the trick."""
        return self.card if self.instead is None else self.instead


def plays_unseen(hand: Mapping[str, Any]) -> bool:
    """Whether a hand of the parsed script has a seat that plays without showing its
    cards (:meth:`Told.unseen`), read before its cards are (a bad card is then the
    referee's to name)."""
    if hand.get("deck") is not None or hand.get("upcard") is None:
        return False
    shown = {int(s) for s in hand.get("dealt") or {}}
    return any(
        d["action"] == "play" and d["seat"] not in shown and d.get("drew") is None
        for d in hand.get("decisions", [])
    )


@dataclass(frozen=True)
class Told:
    """A hand of the parsed script (:func:`bourre.referee.notation.parse_script`)."""

    upcard: int | None
    deck: bool
    dealt: Mapping[int, tuple[int, ...]] = field(default_factory=dict)
    decisions: tuple[Decision, ...] = ()
    plays: tuple[Play, ...] = ()

    @staticmethod
    def of(hand: Mapping[str, Any]) -> Told:
        up = hand.get("upcard")
        return Told(
            upcard=card(up) if up else None,
            deck=hand.get("deck") is not None,
            dealt={
                int(s): tuple(card(c) for c in cs) for s, cs in (hand.get("dealt") or {}).items()
            },
            decisions=tuple(
                Decision(
                    d["seat"],
                    d["action"] == "play",
                    tuple(card(c) for c in d.get("discard") or []),
                    None if d.get("drew") is None else tuple(card(c) for c in d["drew"]),
                )
                for d in hand.get("decisions", [])
            ),
            plays=tuple(
                Play(
                    p["seat"],
                    card(p["card"]),
                    card(p["corrected_to"]) if p.get("corrected_to") else None,
                )
                for p in hand.get("plays", [])
            ),
        )

    def named(self) -> frozenset[int]:
        """Every card the hand names (the upcard, hands shown, discards, draws, plays)."""
        out = {self.upcard} if self.upcard is not None else set()
        for cs in self.dealt.values():
            out.update(cs)
        for d in self.decisions:
            out.update(d.discard + (d.drew or ()))
        for p in self.plays:
            out.add(p.card)
            if p.instead is not None:
                out.add(p.instead)
        return frozenset(out)

    def stood(self, seat: int) -> list[int]:
        """The cards ``seat`` played that stood, in order."""
        return [p.stood for p in self.plays if p.seat == seat]

    def taken_back(self, seat: int) -> list[int]:
        """The cards ``seat`` took back (R-CORRECTED) and has not played since: still in
        its hand."""
        stood = self.stood(seat)
        out: list[int] = []
        for p in self.plays:
            if p.seat == seat and p.instead is not None and p.card not in stood + out:
                out.append(p.card)
        return out

    def discards(self, seat: int) -> tuple[int, ...]:
        """What ``seat`` threw (its last decision's discards)."""
        out: tuple[int, ...] = ()
        for d in self.decisions:
            if d.seat == seat:
                out = d.discard
        return out

    def unseen(self) -> list[tuple[int, Decision]]:
        """The seats that play without showing their cards (their tricks will show
        them): each decision's index and the decision."""
        if self.deck or self.upcard is None:
            return []
        return [
            (i, d)
            for i, d in enumerate(self.decisions)
            if d.play and d.seat not in self.dealt and d.drew is None
        ]
