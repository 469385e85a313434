"""The public JSON contract of ``bourre replay`` (``../shared/HAND-HISTORY.md``):
table scripts in (:class:`Script`), hand records out (:class:`SessionRecord`).

Key names are public: keep them, add freely, remove none.  Amounts are JSON integers
when whole and ``"p/q"`` strings otherwise; cards use R-DECK notation.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, PlainSerializer, StrictInt

from bourre.cards import SUITS, card_str, parse_card
from bourre.engine import HandResult
from bourre.money import AmountField


def _parse_card_value(v: Any) -> int:
    if not isinstance(v, str):
        raise ValueError(f"{v!r} is not a card: use R-DECK notation such as 'AS' or '10H'")
    return parse_card(v)


CardField = Annotated[int, BeforeValidator(_parse_card_value), PlainSerializer(card_str)]
"""A card in R-DECK notation (input)."""
CardOut = Annotated[int, PlainSerializer(card_str)]
"""A card, printed in R-DECK notation (output)."""

_IN = ConfigDict(extra="forbid", frozen=True)
_OUT = ConfigDict(frozen=True, arbitrary_types_allowed=True)


# ----------------------------------------------------------------------------- input


class DecisionIn(BaseModel):
    """A decision: ``play`` (with the cards discarded, if any) or ``pass``."""

    model_config = _IN
    seat: StrictInt = Field(ge=0)
    action: Literal["play", "pass"]
    discard: list[CardField] = []


class PlayIn(BaseModel):
    """A card played; ``corrected_to`` for an illegal card taken back (R-CORRECTED)."""

    model_config = _IN
    seat: StrictInt = Field(ge=0)
    card: CardField
    corrected_to: CardField | None = None


class EventIn(BaseModel):
    """A table event: an announcement out of turn (R-PREMATURE)."""

    model_config = _IN
    type: Literal["premature"]
    seat: StrictInt = Field(ge=0)


class HandIn(BaseModel):
    """One hand of a table script."""

    model_config = _IN
    dealer: StrictInt | None = Field(None, ge=0)
    pot: AmountField | None = Field(None, ge=0)
    deck: list[CardField]
    decisions: list[DecisionIn] = []
    plays: list[PlayIn] = []
    events: list[EventIn] = []
    reshuffles: list[list[CardField]] | None = None
    """Extension: the order of each reshuffled stock (R-RESHUFFLE), top first, as a
    simulated hand drew it; without it the discards keep the order they were made."""


class Script(BaseModel):
    """A table script: house rules, starting balances and the hands as played."""

    model_config = _IN
    rules: dict[str, Any] = {}
    balances: list[AmountField] | None = None
    hands: list[HandIn]


# ---------------------------------------------------------------------------- output


class PlayRecord(BaseModel):
    model_config = _OUT
    seat: int
    card: CardOut
    legal: list[CardOut]
    cinch: bool
    renege: bool
    corrected: bool


class TrickRecord(BaseModel):
    model_config = _OUT
    leader: int
    winner: int
    plays: list[PlayRecord]


class HandRecord(BaseModel):
    model_config = _OUT
    number: int
    dealer: int
    trump: str
    upcard: CardOut
    pot_at_stake: AmountField
    active: list[int]
    hands_after_draw: list[list[CardOut]]
    tricks: list[TrickRecord]
    tricks_won: list[int]
    winner: int | None
    bourre: list[int]
    reneges: list[int]
    pot_after: AmountField
    balances: list[AmountField]


class FinalRecord(BaseModel):
    model_config = _OUT
    balances: list[AmountField]
    ranks: list[int]


class SessionRecord(BaseModel):
    """What ``bourre replay`` prints."""

    model_config = _OUT
    house: str
    hands: list[HandRecord]
    final: FinalRecord


def hand_record(res: HandResult) -> HandRecord:
    """The record of a hand played with ``record=True``."""
    st = res.state
    k = len(st.active)
    tricks = []
    for i, t in enumerate(st.tricks):
        logs = res.plays[i * k : (i + 1) * k]
        tricks.append(
            TrickRecord(
                leader=t.leader,
                winner=t.winner,
                plays=[
                    PlayRecord(
                        seat=p.seat,
                        card=p.card,
                        legal=list(p.legal),
                        cinch=p.cinch,
                        renege=p.renege,
                        corrected=p.corrected,
                    )
                    for p in logs
                ],
            )
        )
    out = res.outcome
    return HandRecord(
        number=res.number,
        dealer=res.dealer,
        trump=SUITS[st.trump],
        upcard=st.upcard,
        pot_at_stake=st.pot_at_stake,
        active=sorted(st.active),
        hands_after_draw=res.hands_after_draw,
        tricks=tricks,
        tricks_won=list(st.won),
        winner=out.winner,
        bourre=sorted(out.bourre),
        reneges=list(out.reneges),
        pot_after=out.pot_after,
        balances=res.balances,
    )
