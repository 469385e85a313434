"""The referee: a table script in, hand records out (``bourre replay``).

A script that cannot describe a real hand raises :class:`ScriptError`, whose message
names the hand, the field and the rule.  An illegal but possible play is not an error:
it is refereed (R-RENEGE, R-CORRECTED).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from bourre.actions import PASS, PLAY, Dealt, Deck, Drew, discard
from bourre.cards import card_str, mask_of
from bourre.engine import CHANCE, State
from bourre.house import House, PluginError
from bourre.plugins import Registry
from bourre.records import (
    FinalRecord,
    HandIn,
    HandRecord,
    NextRecord,
    PartialHandRecord,
    Script,
    SessionRecord,
    hand_record,
    partial_record,
)
from bourre.rules import RuleViolation, narrowing
from bourre.settings import HouseError, allowed_keys, house_from_data, validation_message

__all__ = ["ScriptError", "load_script", "replay"]


MAX_SCRIPT = 4_000_000
"""The longest script read (a session of many hands is a few hundred kB)."""


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
    return referee(data, place=place, registry=registry).record


@dataclass(frozen=True)
class Refereed:
    """A refereed script: its record, the state that played it and the house."""

    record: SessionRecord
    state: State
    house: House


def referee(data: Any, *, place: str = "script", registry: Registry | None = None) -> Refereed:
    """Referee a table script; the record with the game state that played it (for a
    ruling in words, :mod:`bourre.ruling`)."""
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
    stopped: NextRecord | None = None
    for i, hand in enumerate(script.hands):
        where = f"{place}: hand {i + 1}"
        _check_hand(hand, where, n, announcements)
        try:
            stopped = _referee_hand(state, hand, where, last=i == len(script.hands) - 1)
        except PluginError as e:
            raise ScriptError(f"{where}: {e}") from None
    records: list[HandRecord | PartialHandRecord] = [hand_record(r) for r in state.results]
    if stopped is not None:  # the last hand stopped part-way: no settlement yet
        records.append(partial_record(state, stopped))
        return Refereed(SessionRecord(house=house.spec, hands=records), state, house)
    assert state.final is not None
    final, ranks = state.final
    record = SessionRecord(
        house=house.spec, hands=records, final=FinalRecord(balances=final, ranks=ranks)
    )
    return Refereed(record, state, house)


def _check_hand(hand: HandIn, where: str, n: int, announcements: bool) -> None:
    """What can be refused before the hand is played: the deck (or what the table
    knows instead) and the seats."""
    table_form = hand.upcard is not None or hand.dealt is not None
    if hand.deck is not None and table_form:
        raise ScriptError(
            f"{where}: deck: give the deck or what the table knows (upcard, dealt), not both"
            " (R-DEAL)"
        )
    if hand.deck is None and not table_form:
        raise ScriptError(
            f"{where}: deck: the hand needs its deck, or the upcard and the hands dealt to"
            " the seats that play (upcard, dealt; R-DEAL)"
        )
    if table_form and hand.upcard is None:
        raise ScriptError(f"{where}: upcard: required with dealt: it names trump (R-DEAL)")
    if hand.deck is not None:
        counts = Counter(hand.deck)  # linear: a long deck is refused at once
        if len(hand.deck) != 52 or len(counts) != 52:
            dup = sorted(card_str(c) for c, k in counts.items() if k > 1)
            detail = f"repeats {' '.join(dup)}" if dup else f"has {len(hand.deck)} cards"
            raise ScriptError(
                f"{where}: deck: the deck {detail}; it must hold the 52 cards once each (R-DECK)"
            )
    for j, d in enumerate(hand.decisions):
        if d.drew is not None and hand.deck is not None:
            raise ScriptError(
                f"{where}: decisions[{j}].drew: with a deck the replacements follow from it;"
                " give drew only with what the table knows (R-DRAW)"
            )
        if d.drew is not None and d.action == "pass":
            raise ScriptError(f"{where}: decisions[{j}].drew: seat {d.seat} passes (R-PASS)")
    for field, seat in (
        [("dealer", hand.dealer)]
        + [(f"dealt.{s}", s) for s in (hand.dealt or {})]
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


def _referee_hand(state: State, hand: HandIn, where: str, last: bool) -> NextRecord | None:
    """One hand of a script as a sequence of actions on the state; the script's last
    hand may stop part-way: then who acts next is returned."""
    field = "dealer"
    if hand.dealer is None and state.last_dealer is None and state.first_dealer is None:
        raise ScriptError(f"{where}: dealer: required, table.first_dealer is 'random' (R-DEALER)")
    di = pi = 0
    ds, ps = hand.decisions, hand.plays
    try:
        state.set_hand(dealer=hand.dealer, pot=hand.pot, reshuffle=_reshuffler(hand, where))
        if hand.deck is not None:
            field = "deck"
            state.apply_chance(Deck(tuple(hand.deck)))
        else:
            field = "dealt"
            assert hand.upcard is not None
            state.apply_chance(Dealt.of(hand.upcard, hand.dealt or {}))
        for e in hand.events:
            state.mark_premature(e.seat)
        done = len(state.results) + 1
        while len(state.results) < done:
            seat = state.current_player()
            phase = state.phase_name
            if seat == CHANCE:  # what a table knows: a hand shown, the cards drawn
                s = state.pending_seat
                j = max((j for j in range(di) if ds[j].seat == s), default=-1)
                if state.chance_wants == "draw":
                    field = f"decisions[{j}].drew"
                    drew = ds[j].drew
                    if drew is None:
                        raise RuleViolation(
                            "R-DRAW",
                            f"seat {s} discarded {len(state.pending)} cards: the cards it drew"
                            " are required",
                        )
                    state.apply_chance(Drew(tuple(drew)))
                else:
                    field = f"dealt.{s}"
                    state.apply_chance(Dealt.of(hand.upcard, hand.dealt or {}))
                continue
            if phase == "exchange":  # the seat's own decision names its discards
                j = max(j for j in range(di) if ds[j].seat == seat)
                field = f"decisions[{j}].discard"
                state.apply_action(discard(ds[j].discard))
                continue
            if phase == "decide":
                if di >= len(ds):
                    if last:
                        return _next(state)
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
            if pi >= len(ps):
                if last and di == len(ds):
                    return _next(state)
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
    if len(hand.reshuffles or []) > len(state.results[-1].state.reshuffles):
        raise ScriptError(
            f"{where}: reshuffles: given, but the stock never ran out that often (R-RESHUFFLE)"
        )
    if pi != len(hand.plays):
        why = (
            "a sole participant plays no trick (R-SOLE)"
            if len(state.results[-1].state.active) == 1
            else "the hand is over (R-DEAL)"
        )
        raise ScriptError(f"{where}: plays[{pi}]: one play too many: {why}")
    return None


def _next(state: State) -> NextRecord:
    """Who acts now, what they may do and the rules that narrow it, in the words of
    the house's own rule components."""
    seat = state.current_player()
    if state.phase_name == "decide":
        legal = [str(a) for a in state.legal_actions()]
        forced = state.turn.forced if state.turn is not None else None
        return NextRecord(seat=seat, legal=legal, rules=[forced] if forced else ["R-DECIDE"])
    legal_cards = state.legal_cards()
    hs = state.hand
    _, rules = narrowing(state.rules, hs.held[seat], hs.trick, hs.trump, mask_of(legal_cards))
    return NextRecord(seat=seat, legal=[card_str(c) for c in legal_cards], rules=rules)


def load_script(path: str | Path) -> Any:
    """Read a script file: JSON, or the hand notation (:mod:`bourre.notation`);
    :class:`ScriptError` names the file on failure."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as e:
        raise ScriptError(f"{p}: cannot read: {e.strerror or e}") from None
    except UnicodeDecodeError as e:
        raise ScriptError(f"{p}: not UTF-8 text: {e}") from None
    return parse_text(text, str(p))


def parse_text(text: str, place: str) -> Any:
    """A script from text: JSON, or the hand notation."""
    from bourre.notation import NotationError, looks_like_notation, parse_script
    from bourre.settings import load_json

    if len(text) > MAX_SCRIPT:
        raise ScriptError(f"{place}: {len(text)} characters: a script holds at most {MAX_SCRIPT}")
    if looks_like_notation(text):
        try:
            return parse_script(text, place)
        except NotationError as e:
            raise ScriptError(str(e)) from None
    if not text.lstrip().startswith(("{", "[")):
        raise ScriptError(f"{place}: not valid JSON (nor hand notation)")
    return load_json(text, place, ScriptError)


def referee_file(path: str | Path, registry: Registry | None = None) -> Refereed:
    """Referee the script in a file, with its state (see :func:`referee`)."""
    return referee(load_script(path), place=str(path), registry=registry)


def replay_file(path: str | Path, registry: Registry | None = None) -> SessionRecord:
    """Referee the script in a file."""
    return replay(load_script(path), place=str(path), registry=registry)


__all__ += [
    "Refereed",
    "parse_text",
    "referee",
    "referee_file",
    "replay_file",
    "validation_message",
]
