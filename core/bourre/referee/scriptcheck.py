"""What refuses a table script before it is played: its fields against the script
models (:mod:`bourre.referee.records`), and each hand's deck (or what the table knows
instead) and seats."""

from __future__ import annotations

from pydantic import ValidationError

from bourre.houses.validation import error_words, ordered_errors
from bourre.referee.places import HandPlace, Places
from bourre.referee.records import HandIn, Script
from bourre.referee.scripts import ScriptError
from bourre.rules.cards import card_symbol

__all__ = ["check_hand", "script_error"]


_RULES = (
    ("corrected_to", "R-CORRECTED"),
    ("seat", "R-SEAT"),
    ("dealer", "R-DEALER"),
    ("action", "R-DECIDE"),
    ("discard", "R-DRAW"),
    ("drew", "R-DRAW"),
    ("decisions", "R-DECIDE"),
    ("card", "R-DECK"),
    ("plays", "R-LEAD"),
    ("deck", "R-DECK"),
    ("upcard", "R-DEAL"),
    ("dealt", "R-DEAL"),
    ("pot", "R-FIRST-POT"),
    ("events", "R-PREMATURE"),
    ("reshuffles", "R-RESHUFFLE"),
    ("balances", "R-SESSION"),
    ("hands", "R-SESSION"),
)
"""The rule a script's field is about, for a message that names no rule itself."""


def _rule_of(loc: tuple[int | str, ...]) -> str:
    if "[key]" in loc:  # a key of ``dealt``: a seat
        return "R-SEAT"
    for step in reversed(loc):
        for key, rule in _RULES:
            if step == key:
                return rule
    return ""


def script_error(e: ValidationError, places: Places) -> ScriptError:
    """The script models' validation errors as one :class:`ScriptError`, a line per
    error naming the place as a table says it (and its line), what would be right
    and the rule."""
    msgs = []
    for err, unknown in ordered_errors(e.errors(), Script):
        loc = tuple(err["loc"])
        if unknown is not None:
            msg = unknown
        else:
            msg = err["msg"] if err["type"] == "union" else error_words(err)
            rule = _rule_of(loc)
            if "(R-" not in msg and rule:
                msg += f" ({rule})"
        msgs.append(f"{places.at(loc)}: {msg}")
    return ScriptError("\n".join(msgs))


def check_hand(hand: HandIn, where: HandPlace, n: int, announcements: bool) -> None:
    """What can be refused before the hand is played: the deck (or what the table
    knows instead) and the seats."""
    table_form = hand.upcard is not None or hand.dealt is not None
    if hand.deck is not None and table_form:
        raise where.error(
            "deck",
            message="give the deck or what the table knows (upcard, dealt), not both (R-DEAL)",
        )
    if hand.deck is None and not table_form:
        raise where.error(
            message="the hand needs its deck, or the upcard and the hands dealt to the seats"
            " that play, unless their plays show them (upcard, dealt; R-DEAL)"
        )
    if table_form and hand.upcard is None:
        raise where.error(
            "dealt", message="the upcard is required with dealt: it names trump (R-DEAL)"
        )
    if hand.deck is not None:
        seen: set[int] = set()
        for k, c in enumerate(hand.deck):  # linear: a long deck is refused at once
            if c in seen:
                raise where.error(
                    "deck",
                    k,
                    message=f"{card_symbol(c)} is in the deck twice; it must hold the 52 cards"
                    " once each (R-DECK)",
                )
            seen.add(c)
        if len(hand.deck) != 52:
            raise where.error(
                "deck",
                message=f"the deck has {len(hand.deck)} card{'' if len(hand.deck) == 1 else 's'};"
                " it must hold the 52 cards once each (R-DECK)",
            )
    for j, d in enumerate(hand.decisions):
        if d.drew is not None and hand.deck is not None:
            raise where.error(
                "decisions",
                j,
                "drew",
                message="with a deck the cards drawn follow from it; give them only with what"
                " the table knows (R-DRAW)",
            )
        if d.drew is not None and d.action == "pass":
            raise where.error(
                "decisions", j, "drew", message=f"seat {d.seat} passes: it draws no card (R-PASS)"
            )
    places: list[tuple[tuple[int | str, ...], int | None]] = [
        (("dealer",), hand.dealer),
        *((("dealt", str(s)), s) for s in (hand.dealt or {})),
        *((("decisions", j, "seat"), d.seat) for j, d in enumerate(hand.decisions)),
        *((("plays", j, "seat"), p.seat) for j, p in enumerate(hand.plays)),
        *((("events", j, "seat"), e.seat) for j, e in enumerate(hand.events)),
    ]
    for field, seat in places:
        if seat is not None and seat >= n:
            raise where.error(*field, message=f"no seat {seat} at a table of {n} (R-SEAT)")
    if hand.events and not announcements:
        raise where.error(
            "events",
            message="no premature announcement can arise when everyone decides at once"
            " (R-SIMULTANEOUS, R-PREMATURE)",
        )
