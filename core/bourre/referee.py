"""The referee: a table script in, hand records out (``bourre replay``).

A script that cannot describe a real hand raises :class:`ScriptError`, whose message
names the hand, the field and the rule.  An illegal but possible play is not an error:
it is refereed (R-RENEGE, R-CORRECTED).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from bourre.cards import card_str
from bourre.engine import Session
from bourre.house import House, PluginError
from bourre.plugins import Registry
from bourre.records import FinalRecord, HandIn, Script, SessionRecord, hand_record
from bourre.rules import RuleViolation
from bourre.settings import HouseError, allowed_keys, house_from_data, validation_message
from bourre.state import HandState

__all__ = ["ScriptError", "load_script", "replay"]


class ScriptError(ValueError):
    """A script that cannot describe a real hand (or names bad house rules)."""


class ScriptAgents:
    """Answers the engine from one hand of a script, checking turn order."""

    def __init__(self, hand: HandIn) -> None:
        self.hand = hand
        self.di = 0
        self.pi = 0
        self.field = "decisions"
        self.pending: dict[int, list[int]] = {}

    def decide(self, state: HandState, seat: int, forced: str | None) -> bool:
        ds = self.hand.decisions
        if self.di >= len(ds):
            self.field = "decisions"
            raise RuleViolation("R-DECIDE", f"seat {seat} has no decision; every player decides")
        d = ds[self.di]
        self.field = f"decisions[{self.di}]"
        if d.seat != seat:
            raise RuleViolation(
                "R-DECIDE", f"seat {d.seat} decides out of turn: seat {seat} decides now"
            )
        self.di += 1
        if d.action == "pass" and d.discard:
            raise RuleViolation("R-PASS", f"seat {seat} passes but discards")
        self.pending[seat] = list(d.discard)
        return d.action == "play"

    def discard(self, state: HandState, seat: int) -> Sequence[int]:
        self.field = f"decisions[{self.di - 1}].discard"
        return self.pending.pop(seat, [])

    def play(
        self, state: HandState, seat: int, legal: list[int], cinch: bool
    ) -> tuple[int, int | None]:
        ps = self.hand.plays
        if self.pi >= len(ps):
            self.field = "plays"
            raise RuleViolation(
                "R-LEAD", f"the plays stop early: seat {seat} is to play card {self.pi + 1}"
            )
        p = ps[self.pi]
        self.field = f"plays[{self.pi}]"
        if p.seat != seat:
            raise RuleViolation(
                "R-LEAD", f"seat {p.seat} plays out of turn: seat {seat} is to play"
            )
        self.pi += 1
        return p.card, p.corrected_to


def _reshuffler(hand: HandIn, where: str) -> Any:
    given = list(hand.reshuffles or [])

    def reshuffle(pile: list[int]) -> list[int]:
        if hand.reshuffles is None:
            return list(pile)
        if not given:
            raise ScriptError(
                f"{where}: reshuffles: the stock ran out once more than given (R-RESHUFFLE)"
            )
        order = given.pop(0)
        if sorted(order) != sorted(pile):
            raise ScriptError(
                f"{where}: reshuffles: a new stock must hold exactly the discards"
                f" {' '.join(card_str(c) for c in pile)} (R-RESHUFFLE)"
            )
        return list(order)

    return reshuffle


def _pydantic_error(e: ValidationError, place: str) -> ScriptError:
    msgs = []
    for err in e.errors():
        loc = list(err["loc"])
        where = place
        if len(loc) >= 2 and loc[0] == "hands" and isinstance(loc[1], int):
            where = f"{place}: hand {loc[1] + 1}"
            loc = loc[2:]
        key = ".".join(str(x) if not isinstance(x, int) else f"[{x}]" for x in loc).replace(
            ".[", "["
        )
        msg = err["msg"]
        if err["type"] == "extra_forbidden":
            allowed = allowed_keys(Script, tuple(err["loc"]))
            msg = "unknown key" + (f"; allowed: {', '.join(allowed)}" if allowed else "")
        rule = " (R-DECK)" if "card" in msg and "R-DECK" not in msg else ""
        msgs.append(f"{where}: {key or '(top)'}: {msg}{rule}")
    return ScriptError("\n".join(msgs))


def replay(data: Any, *, place: str = "script", registry: Registry | None = None) -> SessionRecord:
    """Referee a table script (parsed JSON) and return the session's hand records."""
    try:
        script = Script.model_validate(data)
    except ValidationError as e:
        raise _pydantic_error(e, place) from None
    try:
        house = House(
            house_from_data(script.rules, f"{place}: rules"),
            registry=registry,
            source=f"{place}: rules",
        )
    except (HouseError, PluginError) as e:
        raise ScriptError(str(e)) from None
    n = house.table.players
    if not script.hands:
        raise ScriptError(f"{place}: hands: the script holds no hand (R-SESSION)")
    if script.balances is not None and len(script.balances) != n:
        raise ScriptError(
            f"{place}: balances: {len(script.balances)} given for {n} players (R-SESSION)"
        )
    if len(script.hands) > house.table.hands:
        raise ScriptError(
            f"{place}: hands: {len(script.hands)} hands given, but the session has"
            f" {house.table.hands} (table.hands, R-SESSION)"
        )
    session = Session(house, balances=script.balances)
    announcements = house.rules.decisions.announcements
    records = []
    for i, hand in enumerate(script.hands):
        where = f"{place}: hand {i + 1}"
        if len(hand.deck) != 52 or len(set(hand.deck)) != 52:
            dup = sorted({card_str(c) for c in hand.deck if hand.deck.count(c) > 1})
            detail = f"repeats {' '.join(dup)}" if dup else f"has {len(hand.deck)} cards"
            raise ScriptError(
                f"{where}: deck: the deck {detail}; it must hold the 52 cards once each (R-DECK)"
            )
        for field, seat in (
            [("dealer", hand.dealer)]
            + [(f"decisions[{j}].seat", d.seat) for j, d in enumerate(hand.decisions)]
            + [(f"plays[{j}].seat", p.seat) for j, p in enumerate(hand.plays)]
            + [(f"events[{j}].seat", e.seat) for j, e in enumerate(hand.events)]
        ):
            if seat is not None and seat >= n:
                raise ScriptError(f"{where}: {field}: no seat {seat} at a table of {n} (R-SEAT)")
        if hand.events and not announcements:
            raise ScriptError(
                f"{where}: events: no premature announcement can arise when everyone"
                " decides at once (R-SIMULTANEOUS, R-PREMATURE)"
            )
        if hand.dealer is None and session.dealer is None:
            raise ScriptError(
                f"{where}: dealer: required, table.first_dealer is 'random' (R-DEALER)"
            )
        agents = ScriptAgents(hand)
        try:
            res = session.play_hand(
                hand.deck,
                agents,
                dealer=hand.dealer,
                pot=hand.pot,
                premature=[e.seat for e in hand.events],
                reshuffle=_reshuffler(hand, where),
                record=True,
            )
        except RuleViolation as e:
            raise ScriptError(f"{where}: {agents.field}: {e}") from None
        except PluginError as e:
            raise ScriptError(f"{where}: {e}") from None
        if agents.di != len(hand.decisions):
            raise ScriptError(
                f"{where}: decisions[{agents.di}]: every player has decided; this decision is"
                " one too many (R-DECIDE)"
            )
        if agents.pi != len(hand.plays):
            why = (
                "a sole participant plays no trick (R-SOLE)"
                if len(res.state.active) == 1
                else ("the hand is over (R-DEAL)")
            )
            raise ScriptError(f"{where}: plays[{agents.pi}]: one play too many: {why}")
        records.append(hand_record(res))
    final, ranks = session.settle()
    return SessionRecord(
        house=house.spec, hands=records, final=FinalRecord(balances=final, ranks=ranks)
    )


def load_script(path: str | Path) -> Any:
    """Read a script file as JSON; :class:`ScriptError` names the file on failure."""
    import json

    p = Path(path)
    try:
        return json.loads(p.read_text(encoding="utf-8"))
    except OSError as e:
        raise ScriptError(f"{p}: cannot read: {e.strerror or e}") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        raise ScriptError(f"{p}: not valid JSON: {e}") from None


def replay_file(path: str | Path, registry: Registry | None = None) -> SessionRecord:
    """Referee the script in a file."""
    return replay(load_script(path), place=str(path), registry=registry)


__all__ += ["replay_file", "validation_message"]
