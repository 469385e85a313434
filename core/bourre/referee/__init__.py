"""The referee: a table script in, hand records out (``bourre replay``).

A script that cannot describe a real hand raises :class:`ScriptError`, whose message
names the hand, the field and the rule.  An illegal but possible play is not an error:
it is refereed (R-RENEGE, R-CORRECTED).

Reading a script is :mod:`bourre.referee.scripts`, what refuses it before play
:mod:`bourre.referee.scriptcheck`, and each hand's play :mod:`bourre.referee.hand`; their
public names are importable from here too.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from bourre.game.state import State
from bourre.houses.house import House, PluginError
from bourre.houses.models import HouseError, house_from_data
from bourre.houses.validation import validation_message
from bourre.referee.hand import Watch, referee_hand
from bourre.referee.places import Places
from bourre.referee.records import (
    FinalRecord,
    HandRecord,
    NextRecord,
    PartialHandRecord,
    Script,
    SessionRecord,
    hand_record,
    partial_record,
)
from bourre.referee.scriptcheck import check_hand, script_error
from bourre.referee.scripts import MAX_SCRIPT, ScriptError, load_script, parse_text
from bourre.referee.table import TableState
from bourre.rules.plugins import Registry

__all__ = ["MAX_SCRIPT", "ScriptError", "load_script", "replay"]


def replay(data: Any, *, place: str = "script", registry: Registry | None = None) -> SessionRecord:
    """Referee a table script (parsed JSON) and return the session's hand records."""
    return referee(data, place=place, registry=registry).record


@dataclass(frozen=True)
class Refereed:
    """A refereed script: its record, the state that played it and the house."""

    record: SessionRecord
    state: State
    house: House
    table: TableState
    """The table that stepped ``state`` (its log: the current hand's plays, reneges …)."""
    premature: tuple[tuple[int, ...], ...] = ()
    """Each hand's announcements out of turn (R-PREMATURE), by seat: table events the
    hand records do not hold."""


def check_script(data: Any, place: str = "script") -> None:
    """Refuse (:class:`ScriptError`) a script whose form is wrong: its fields, types
    and cards, and its house rules; the hands are not played (``convert``)."""
    places = Places(place, data)
    try:
        script = Script.model_validate(data)
    except ValidationError as e:
        raise script_error(e, places) from None
    try:
        place_, prefix, locate = places.rules()
        house_from_data(script.rules, place_, locate, prefix)
    except HouseError as e:
        raise ScriptError(str(e)) from None


def referee(
    data: Any,
    *,
    place: str = "script",
    registry: Registry | None = None,
    watch: Watch | None = None,
) -> Refereed:
    """Referee a table script; the record with the game state that played it (for a
    ruling in words, :mod:`bourre.referee.ruling`).  ``watch`` is told each card just
    before it is played, with the state it is played from
    (:data:`~bourre.referee.hand.Watch`: a review of the play reads the positions so)."""
    places = Places(place, data)
    try:
        script = Script.model_validate(data)
    except ValidationError as e:
        raise script_error(e, places) from None
    try:
        place, prefix, locate = places.rules()
        house = House(
            house_from_data(script.rules, place, locate, prefix),
            registry=registry,
            source=f"{place}: {prefix}" if prefix else place,
            keys=(place, prefix, locate),
        )
    except (HouseError, PluginError) as e:
        raise ScriptError(str(e)) from None
    n = house.table.players
    if not script.hands:
        raise places.error(("hands",), "the script holds no hand (R-SESSION)")
    if script.balances is not None and len(script.balances) != n:
        raise places.error(
            ("balances",), f"{len(script.balances)} balances given for {n} players (R-SESSION)"
        )
    if len(script.hands) > house.table.hands:
        raise places.error(
            ("hands", house.table.hands),
            f"{len(script.hands)} hands given, but the session has"
            f" {house.table.hands} (table.hands, R-SESSION)",
        )
    table = TableState.new(house, balances=script.balances, hands=len(script.hands))
    state = table.state
    announcements = state.announce
    stopped: NextRecord | None = None
    for i, hand in enumerate(script.hands):
        where = places.hand(i)
        check_hand(hand, where, n, announcements)
        try:
            stopped = referee_hand(table, hand, where, last=i == len(script.hands) - 1, watch=watch)
        except PluginError as e:
            raise where.error(message=str(e)) from None
    records: list[HandRecord | PartialHandRecord] = [hand_record(r) for r in state.results]
    premature = tuple(tuple(e.seat for e in h.events) for h in script.hands)
    if stopped is not None:  # the last hand stopped part-way: no settlement yet
        records.append(partial_record(table, stopped))
        return Refereed(
            SessionRecord(house=house.spec, hands=records), state, house, table, premature
        )
    assert state.final is not None
    final, ranks = state.final
    record = SessionRecord(
        house=house.spec, hands=records, final=FinalRecord(balances=final, ranks=ranks)
    )
    return Refereed(record, state, house, table, premature)


def referee_file(
    path: str | Path, registry: Registry | None = None, watch: Watch | None = None
) -> Refereed:
    """Referee the script in a file, with its state (see :func:`referee`)."""
    return referee(load_script(path), place=str(path), registry=registry, watch=watch)


def replay_file(path: str | Path, registry: Registry | None = None) -> SessionRecord:
    """Referee the script in a file."""
    return replay(load_script(path), place=str(path), registry=registry)


__all__ += [
    "Refereed",
    "Watch",
    "parse_text",
    "referee",
    "referee_file",
    "replay_file",
    "validation_message",
]
