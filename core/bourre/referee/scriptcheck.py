"""What refuses a table script before it is played: its fields against the script
models (:mod:`bourre.referee.records`), and each hand's deck (or what the table knows
instead) and seats."""

from __future__ import annotations

from collections import Counter

from pydantic import ValidationError

from bourre.referee.records import HandIn, Script
from bourre.referee.scripts import ScriptError
from bourre.rules.cards import card_str
from bourre.rules.settings import allowed_keys
from bourre.rules.validation import error_words

__all__ = ["check_hand", "script_error"]


def script_error(e: ValidationError, place: str) -> ScriptError:
    """The script models' validation errors as one :class:`ScriptError`, a line per
    error naming the hand, the field and the rule."""
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
        msg = error_words(err)
        if err["type"] == "extra_forbidden":
            allowed = allowed_keys(Script, tuple(err["loc"]))
            msg = "unknown key" + (f"; allowed: {', '.join(allowed)}" if allowed else "")
        rule = " (R-DECK)" if "card" in msg and "R-DECK" not in msg else ""
        msgs.append(f"{where}: {key or '(top)'}: {msg}{rule}")
    return ScriptError("\n".join(msgs))


def check_hand(hand: HandIn, where: str, n: int, announcements: bool) -> None:
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
            " the seats that play, unless their plays show them (upcard, dealt; R-DEAL)"
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
