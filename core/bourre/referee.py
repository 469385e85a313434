"""The referee: a table script in, hand records out (``bourre replay``).

A script that cannot describe a real hand raises :class:`ScriptError`, whose message
names the hand, the field and the rule.  An illegal but possible play is not an error:
it is refereed (R-RENEGE, R-CORRECTED).
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from bourre.actions import PASS, PLAY, Deck, discard
from bourre.cards import card_str
from bourre.engine import State
from bourre.house import House, PluginError
from bourre.plugins import Registry
from bourre.records import FinalRecord, HandIn, Script, SessionRecord, hand_record
from bourre.rules import RuleViolation
from bourre.settings import HouseError, allowed_keys, house_from_data, validation_message

__all__ = ["ScriptError", "load_script", "replay"]


class ScriptError(ValueError):
    """A script that cannot describe a real hand (or names bad house rules)."""


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
    state = State(house, balances=script.balances, hands=len(script.hands), record=True)
    announcements = house.rules.decisions.announcements
    for i, hand in enumerate(script.hands):
        where = f"{place}: hand {i + 1}"
        _check_hand(hand, where, n, announcements)
        try:
            _referee_hand(state, hand, where)
        except PluginError as e:
            raise ScriptError(f"{where}: {e}") from None
    assert state.final is not None
    final, ranks = state.final
    return SessionRecord(
        house=house.spec,
        hands=[hand_record(r) for r in state.results],
        final=FinalRecord(balances=final, ranks=ranks),
    )


def _check_hand(hand: HandIn, where: str, n: int, announcements: bool) -> None:
    """What can be refused before the hand is played: the deck and the seats."""
    counts = Counter(hand.deck)  # linear: a long deck is refused at once
    if len(hand.deck) != 52 or len(counts) != 52:
        dup = sorted(card_str(c) for c, k in counts.items() if k > 1)
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


def _referee_hand(state: State, hand: HandIn, where: str) -> None:
    """One hand of a script as a sequence of actions on the state."""
    field = "dealer"
    if hand.dealer is None and state.last_dealer is None and state.first_dealer is None:
        raise ScriptError(f"{where}: dealer: required, table.first_dealer is 'random' (R-DEALER)")
    di = pi = 0
    try:
        state.set_hand(dealer=hand.dealer, pot=hand.pot, reshuffle=_reshuffler(hand, where))
        field = "deck"
        state.apply_chance(Deck(tuple(hand.deck)))
        for e in hand.events:
            state.mark_premature(e.seat)
        done = len(state.results) + 1
        while len(state.results) < done:
            seat = state.current_player()
            phase = state.phase_name
            if phase in ("decide", "exchange"):
                ds = hand.decisions
                if phase == "exchange":  # the seat's own decision names its discards
                    j = max(j for j in range(di) if ds[j].seat == seat)
                    field = f"decisions[{j}].discard"
                    state.apply_action(discard(ds[j].discard))
                    continue
                if di >= len(ds):
                    field = "decisions"
                    raise RuleViolation(
                        "R-DECIDE", f"seat {seat} has no decision; every player decides"
                    )
                d = ds[di]
                field = f"decisions[{di}]"
                if d.seat != seat:
                    raise RuleViolation(
                        "R-DECIDE", f"seat {d.seat} decides out of turn: seat {seat} decides now"
                    )
                if d.action == "pass" and d.discard:
                    raise RuleViolation("R-PASS", f"seat {seat} passes but discards")
                di += 1
                state.apply_action(PLAY if d.action == "play" else PASS)
                continue
            ps = hand.plays
            if pi >= len(ps):
                field = "plays"
                raise RuleViolation(
                    "R-LEAD", f"the plays stop early: seat {seat} is to play card {pi + 1}"
                )
            p = ps[pi]
            field = f"plays[{pi}]"
            if p.seat != seat:
                raise RuleViolation(
                    "R-LEAD", f"seat {p.seat} plays out of turn: seat {seat} is to play"
                )
            pi += 1
            state.referee_play(p.card, p.corrected_to)
    except RuleViolation as e:
        raise ScriptError(f"{where}: {field}: {e}") from None
    if di != len(hand.decisions):
        raise ScriptError(
            f"{where}: decisions[{di}]: every player has decided; this decision is"
            " one too many (R-DECIDE)"
        )
    if pi != len(hand.plays):
        why = (
            "a sole participant plays no trick (R-SOLE)"
            if len(state.results[-1].state.active) == 1
            else "the hand is over (R-DEAL)"
        )
        raise ScriptError(f"{where}: plays[{pi}]: one play too many: {why}")


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
