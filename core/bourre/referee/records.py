"""The public JSON contract of ``bourre replay`` (``docs/table-scripts.md``):
table scripts in (:class:`Script`), hand records out (:class:`SessionRecord`).

Key names are public: keep them, add freely, remove none.  Amounts are JSON integers
when whole and ``"p/q"`` strings otherwise; cards use R-DECK notation.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    PlainSerializer,
    StrictInt,
    WithJsonSchema,
    model_serializer,
)

from bourre.game.state import HandResult, PlayLog
from bourre.referee.table import TableState
from bourre.rules.cards import SUITS, card_str, parse_card
from bourre.rules.money import AmountField


def _parse_card_value(v: Any) -> int:
    if not isinstance(v, str):
        raise ValueError(f'{v!r} is not a card: write it in quotes, such as "AS" or "10H" (R-DECK)')
    return parse_card(v)


_CARD_SCHEMA = WithJsonSchema(
    {
        "type": "string",
        "pattern": "^([2-9AKQJTakqjt]|10)[SHDCshdc]$",
        "description": "A card in R-DECK notation: rank A K Q J T(10) 9…2, suit S H D C.",
    }
)
CardField = Annotated[
    int, BeforeValidator(_parse_card_value), PlainSerializer(card_str), _CARD_SCHEMA
]
"""A card in R-DECK notation (input)."""
CardOut = Annotated[int, PlainSerializer(card_str), _CARD_SCHEMA]
"""A card, printed in R-DECK notation (output)."""

_IN = ConfigDict(extra="forbid", frozen=True)
_OUT = ConfigDict(frozen=True, arbitrary_types_allowed=True)


# ----------------------------------------------------------------------------- input


class DecisionIn(BaseModel):
    """A decision: ``play`` (with the cards discarded, if any) or ``pass``; for a hand
    given by what a table knows, ``drew`` lists the replacements received, in order
    (left out for a seat whose hand its plays show)."""

    model_config = _IN
    seat: StrictInt = Field(ge=0)
    action: Literal["play", "pass"]
    discard: list[CardField] = []
    drew: list[CardField] | None = None


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


def _seat_key(v: Any) -> int:
    if isinstance(v, bool):
        raise ValueError("a seat is a number")
    if isinstance(v, int):
        return v
    if isinstance(v, str) and v.isascii() and v.isdigit() and len(v) <= 3:  # not "²"
        return int(v)
    raise ValueError(f"{v!r} is not a seat number")


SeatKey = Annotated[int, BeforeValidator(_seat_key)]


class HandIn(BaseModel):
    """One hand of a table script: given by its ``deck``, or by what the table knows
    (``upcard``, ``dealt`` and each exchange's ``drew``), where a playing seat whose
    plays show its whole hand may leave out its ``dealt`` cards and ``drew`` (what the
    tricks show: its hand after the exchange is the cards it played)."""

    model_config = _IN
    dealer: StrictInt | None = Field(None, ge=0)
    pot: AmountField | None = Field(None, ge=0)
    deck: list[CardField] | None = None
    upcard: CardField | None = None
    dealt: dict[SeatKey, list[CardField]] | None = None
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


class HandFacts(BaseModel):
    """What every hand record holds, complete or not (the public key order)."""

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


class HandRecord(HandFacts):
    """The record of a complete hand."""

    winner: int | None
    bourre: list[int]
    reneges: list[int]
    pot_after: AmountField
    balances: list[AmountField]


class FinalRecord(BaseModel):
    model_config = _OUT
    balances: list[AmountField]
    ranks: list[int]


class NextRecord(BaseModel):
    """Who acts next in a hand that stopped part-way, what they may do and the ids
    of the rules that narrow it."""

    model_config = _OUT
    seat: int
    legal: list[str]
    """Cards in R-DECK notation, or ``pass`` / ``play``."""
    rules: list[str]


class PartialHandRecord(HandFacts):
    """A hand that stopped part-way (the script's last): what happened so far and
    ``next``; ``pot_at_stake`` is the pot in the middle now, and the current trick
    comes last in ``tricks`` (``winner`` -1).  It has no ``winner``, ``pot_after``
    or ``balances``."""

    reneges: list[int]
    next: NextRecord


class SessionRecord(BaseModel):
    """What ``bourre replay`` prints; ``final`` is left out when the last hand
    stopped part-way."""

    model_config = _OUT
    house: str
    hands: list[HandRecord | PartialHandRecord]
    final: FinalRecord | None = None

    @model_serializer(mode="wrap")
    def _without_missing_final(self, handler: Any) -> Any:
        data = handler(self)
        if isinstance(data, dict) and data.get("final") is None:
            data.pop("final", None)
        return data


def hand_record(res: HandResult) -> HandRecord:
    """The record of a hand played with ``record=True``."""
    st = res.state
    k = len(st.active)
    tricks = [
        TrickRecord(leader=t.leader, winner=t.winner, plays=_plays(res.plays[i * k : (i + 1) * k]))
        for i, t in enumerate(st.tricks)
    ]
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


def _plays(logs: list[PlayLog]) -> list[PlayRecord]:
    return [
        PlayRecord(
            seat=p.seat,
            card=p.card,
            legal=list(p.legal),
            cinch=p.cinch,
            renege=p.renege,
            corrected=p.corrected,
        )
        for p in logs
    ]


def partial_record(table: TableState, nxt: NextRecord) -> PartialHandRecord:
    """The record of the hand ``table`` is in, stopped part-way (a dispute settled on
    the spot): what happened so far and who acts ``next``."""
    state, log = table.state, table.log()
    plays = list(log.plays)
    st = state.hand
    k = len(st.active)
    tricks = [
        TrickRecord(leader=t.leader, winner=t.winner, plays=_plays(plays[i * k : (i + 1) * k]))
        for i, t in enumerate(st.tricks)
    ]
    if st.trick:
        done = len(st.tricks) * k
        tricks.append(TrickRecord(leader=st.leader, winner=-1, plays=_plays(plays[done:])))
    after = (
        [list(h) for h in log.hands_after]
        if state.phase_name == "play"
        else [[] if st.hidden[s] else list(st.hands[s]) for s in range(st.n)]
    )
    return PartialHandRecord(
        number=st.number,
        dealer=st.dealer,
        trump=SUITS[st.trump],
        upcard=st.upcard,
        pot_at_stake=st.pot,
        active=sorted(st.active),
        hands_after_draw=after,
        tricks=tricks,
        tricks_won=list(st.won),
        reneges=list(log.reneges),
        next=nxt,
    )


def json_schemas() -> dict[str, dict[str, Any]]:
    """The JSON Schemas of the table script (input) and the session record (output),
    generated from these models; ``docs/schema/`` holds them as files."""
    return {
        "table-script.schema.json": Script.model_json_schema(mode="validation"),
        "session-record.schema.json": SessionRecord.model_json_schema(mode="validation"),
    }
