"""The hand notation: a table script in a few lines a person can type (as PBN is for
bridge), read by ``bourre replay`` and ``bourre check`` and written by
``bourre play --save``.  It converts to and from the JSON script
(``docs/table-scripts.md``) without loss::

    # a dispute at Tuesday's table
    house standard+pot-limit(limit=10)
    balances 100 100 100 100 100

    hand dealer 0
    upcard 7S
    dealt 1: JH QH 2C 3D 9S
    dealt 0: 4C 5C 6C 8H 7S
    decide 1 play 2C 3D > KH 4S
    decide 2 pass
    decide 3 pass
    decide 4 pass
    decide 0 play
    play 1 JH, 0 8H

- ``house`` takes a house string; ``rules`` a house-rules object as JSON (exact).
- Each ``hand`` line starts a hand (``dealer N`` and ``pot P`` optional). Give
  ``deck`` (52 cards, top first) or what the table knows: ``upcard``, ``dealt SEAT:``;
  a playing seat whose plays show its whole hand may have no ``dealt`` line (what
  the tricks show), and then no ``> DRAWN``.
- ``decide SEAT play [DISCARDS] [> DRAWN]`` or ``decide SEAT pass``.
- ``play SEAT CARD`` (several separated by commas); ``CARD/CORRECTION`` for an illegal
  card taken back (R-CORRECTED).  ``premature SEAT`` (R-PREMATURE).  ``reshuffle
  CARDS`` gives the order of a reshuffled stock (a simulated hand's).
- ``#`` starts a comment; blank lines are ignored; keywords are case-insensitive.
"""

from __future__ import annotations

import json
import re
from typing import Any

from bourre.houses.models import HouseError
from bourre.houses.strictjson import load_json
from bourre.houses.strings import parse_house_string
from bourre.referee.located import Loc, Located, notation_map
from bourre.rules.money import MAX_AMOUNT

__all__ = ["NotationError", "format_script", "looks_like_notation", "parse_script", "seat_number"]

KEYWORDS = (
    "house",
    "rules",
    "balances",
    "hand",
    "deck",
    "upcard",
    "dealt",
    "decide",
    "play",
    "premature",
    "reshuffle",
)


class NotationError(ValueError):
    """A line that is not hand notation: the message names the place, the line and
    the column (1-based)."""


def looks_like_notation(text: str) -> bool:
    """Whether ``text`` is hand notation rather than JSON."""
    for line in text.splitlines():
        word = line.split("#", 1)[0].strip().split(" ", 1)[0].lower()
        if word:
            return word in KEYWORDS
    return False


_SEAT = re.compile(r"[0-9]{1,3}")
_WHOLE = re.compile(r"-?[0-9]+")
_FRACTION = re.compile(r"-?[0-9]{1,16}/[0-9]{1,16}")
_TOKEN = re.compile(r"[^\s,]+")

Token = tuple[str, int]
"""A word of a line and its column (1-based)."""


def _shown(token: str) -> str:
    """A token as a message quotes it (a long one cut)."""
    return repr(token if len(token) <= 24 else token[:20] + "…")


def _tokens(text: str, start: int) -> list[Token]:
    """The words of ``text`` (commas separate too) with their columns; ``text`` begins
    at column ``start + 1`` of its line."""
    return [(m.group(), start + m.start() + 1) for m in _TOKEN.finditer(text)]


class _Line:
    """One line being read: its number, where an error on it is, and the source map."""

    def __init__(self, place: str, number: int, source: dict[Loc, tuple[int, int]]) -> None:
        self.place, self.number, self.source = place, number, source

    def at(self, col: int) -> str:
        return f"{self.place}, line {self.number}, column {col}"

    def error(self, col: int, message: str) -> NotationError:
        return NotationError(f"{self.at(col)}: {message}")

    def mark(self, loc: Loc, col: int) -> None:
        """Remember that ``loc`` of the script was written here (the first place wins)."""
        self.source.setdefault(loc, (self.number, col))


def seat_number(text: str) -> int | None:
    """A seat number as hand notation writes it (one to three ASCII digits, R-SEAT),
    else ``None``: ``²`` or ``٣`` are digits to :meth:`str.isdigit` but no seat, and
    ``int()`` of them fails or reads another number."""
    return int(text) if _SEAT.fullmatch(text) else None


def _seat(token: Token, line: _Line) -> int:
    if not _SEAT.fullmatch(token[0]):
        raise line.error(token[1], f"{_shown(token[0])} is not a seat number (R-SEAT)")
    return int(token[0])


def _amount(token: Token, line: _Line) -> Any:
    """An amount of chips: a whole number or ``p/q``, at most :data:`MAX_AMOUNT`."""
    text, col = token
    if _WHOLE.fullmatch(text):
        if len(text.lstrip("-")) > 16 or abs(int(text)) > MAX_AMOUNT:
            raise line.error(
                col,
                f"{_shown(text)} chips is more than a table holds (amounts up to {MAX_AMOUNT:,})",
            )
        return int(text)
    if _FRACTION.fullmatch(text):
        return text
    raise line.error(col, f"{_shown(text)} is not an amount of chips (a whole number, or p/q)")


def parse_script(text: str, place: str = "script", line_offset: int = 0) -> dict[str, Any]:
    """The JSON table script a notation text describes (validate it with
    :func:`bourre.referee.replay`).  It knows the line and column each of its places
    was written at (:class:`~bourre.referee.located.Located`), so that an error found
    when it is refereed names them; ``line_offset`` is added to the line numbers (a
    text given after lines the reader does not see)."""
    source: dict[Loc, tuple[int, int]] = {}
    script = Located({"rules": {}, "hands": []})
    script.find = notation_map(source)
    hand: dict[str, Any] | None = None
    for number, raw in enumerate(text.splitlines(), start=1 + line_offset):
        code = raw.split("#", 1)[0]
        m = re.match(r"\s*(\S+)", code)
        if m is None:
            continue
        line = _Line(place, number, source)
        word, word_col = m.group(1).lower(), m.start(1) + 1
        rest_start = m.end(1)
        rest = code[rest_start:].strip()
        rest_col = rest_start + len(code[rest_start:]) - len(code[rest_start:].lstrip()) + 1
        if word == "house":
            try:
                rules = parse_house_string(rest or "standard")
            except HouseError as e:
                raise line.error(rest_col if rest else word_col, f"house: {e}") from None
            script["rules"] = rules.model_dump(mode="json", exclude_defaults=True)
            line.mark(("rules",), rest_col if rest else word_col)
        elif word == "rules":
            try:
                script["rules"] = load_json(rest, "", NotationError)
            except NotationError as e:  # the JSON's own column, counted on this line
                at = re.match(r", line 1, column (\d+): (.*)", str(e), re.S)
                col, what = (
                    (rest_col + int(at.group(1)) - 1, at.group(2))
                    if at
                    else (rest_col, str(e).removeprefix(": "))
                )
                raise line.error(col, f"rules: {what}") from None
            line.mark(("rules",), rest_col)
        elif word == "balances":
            tokens = _tokens(code[rest_start:], rest_start)
            script["balances"] = [_amount(t, line) for t in tokens]
            line.mark(("balances",), rest_col)
            for k, t in enumerate(tokens):
                line.mark(("balances", k), t[1])
        elif word == "hand":
            hand = {"decisions": [], "plays": []}
            h = len(script["hands"])
            script["hands"].append(hand)
            line.mark(("hands", h), word_col)
            words = _tokens(code[rest_start:], rest_start)
            if len(words) % 2:
                raise line.error(words[-1][1], "hand: give 'dealer N' and/or 'pot P'")
            for key, value in zip(words[::2], words[1::2], strict=True):
                if key[0] == "dealer":
                    hand["dealer"] = _seat(value, line)
                elif key[0] == "pot":
                    hand["pot"] = _amount(value, line)
                else:
                    raise line.error(key[1], f"hand: unknown {key[0]!r}; allowed: dealer, pot")
                line.mark(("hands", h, key[0]), value[1])
        elif word in KEYWORDS:
            if hand is None:
                raise line.error(word_col, f"{word}: comes after a 'hand' line")
            loc: Loc = ("hands", len(script["hands"]) - 1)
            _hand_line(hand, word, code, rest_start, line, loc)
        else:
            raise line.error(word_col, f"{word!r} is not a keyword; allowed: {', '.join(KEYWORDS)}")
    if not script["hands"]:
        raise NotationError(f"{place}: no 'hand' line: the script holds no hand (R-SESSION)")
    return script


def _hand_line(
    hand: dict[str, Any], word: str, code: str, start: int, line: _Line, loc: Loc
) -> None:
    """A line inside a hand: ``code`` is the line without its comment, its words
    after the keyword start at ``start``; ``loc`` is the hand's place in the script."""
    tokens = _tokens(code[start:], start)
    first = tokens[0][1] if tokens else start + 1
    if word == "deck":
        hand["deck"] = [t for t, _ in tokens]
        line.mark((*loc, "deck"), first)
        for k, (_, col) in enumerate(tokens):
            line.mark((*loc, "deck", k), col)
    elif word == "upcard":
        hand["upcard"] = code[start:].strip()
        line.mark((*loc, "upcard"), first)
    elif word == "dealt":
        head, colon, _ = code[start:].partition(":")
        if not colon:
            raise line.error(first, "dealt: write 'dealt SEAT: CARDS'")
        seat_tokens = _tokens(head, start)
        if len(seat_tokens) != 1:
            raise line.error(first, "dealt: write 'dealt SEAT: CARDS' (R-SEAT)")
        seat = str(_seat(seat_tokens[0], line))
        cards = _tokens(code[start + len(head) + 1 :], start + len(head) + 1)
        hand.setdefault("dealt", {})[seat] = [t for t, _ in cards]
        line.mark((*loc, "dealt"), line_start(code))
        line.mark((*loc, "dealt", seat), line_start(code))
        for k, (_, col) in enumerate(cards):
            line.mark((*loc, "dealt", seat, k), col)
    elif word == "decide":
        if len(tokens) < 2 or tokens[1][0].lower() not in ("play", "pass"):
            at = tokens[1][1] if len(tokens) > 1 else first
            said = f"{tokens[1][0]!r} is neither play nor pass: " if len(tokens) > 1 else ""
            raise line.error(at, f"decide: {said}write 'decide SEAT play|pass …' (R-DECIDE)")
        j = len(hand["decisions"])
        here = (*loc, "decisions", j)
        d: dict[str, Any] = {"seat": _seat(tokens[0], line), "action": tokens[1][0].lower()}
        line.mark((*loc, "decisions"), line_start(code))
        line.mark(here, line_start(code))
        line.mark((*here, "seat"), tokens[0][1])
        line.mark((*here, "action"), tokens[1][1])
        cards = tokens[2:]
        texts = [t for t, _ in cards]
        if ">" in texts:
            k = texts.index(">")
            d["drew"] = texts[k + 1 :]
            line.mark((*here, "drew"), cards[k][1])
            for i, (_, col) in enumerate(cards[k + 1 :]):
                line.mark((*here, "drew", i), col)
            cards = cards[:k]
        if cards:
            d["discard"] = [t for t, _ in cards]
            line.mark((*here, "discard"), cards[0][1])
            for i, (_, col) in enumerate(cards):
                line.mark((*here, "discard", i), col)
        hand["decisions"].append(d)
    elif word == "play":
        offset = start
        for item in code[start:].split(","):
            parts = _tokens(item, offset)
            if len(parts) != 2:
                at = parts[0][1] if parts else offset + 1
                raise line.error(at, "play: write 'play SEAT CARD, SEAT CARD' (R-LEAD)")
            j = len(hand["plays"])
            here = (*loc, "plays", j)
            p: dict[str, Any] = {"seat": _seat(parts[0], line)}
            card, slash, corrected = parts[1][0].partition("/")
            p["card"] = card
            line.mark((*loc, "plays"), line_start(code))
            line.mark(here, parts[0][1])
            line.mark((*here, "seat"), parts[0][1])
            line.mark((*here, "card"), parts[1][1])
            if slash:
                p["corrected_to"] = corrected
                line.mark((*here, "corrected_to"), parts[1][1] + len(card) + 1)
            hand["plays"].append(p)
            offset += len(item) + 1
    elif word == "premature":
        if len(tokens) != 1:
            raise line.error(first, "premature: write 'premature SEAT' (R-PREMATURE)")
        events = hand.setdefault("events", [])
        line.mark((*loc, "events"), line_start(code))
        line.mark((*loc, "events", len(events)), line_start(code))
        line.mark((*loc, "events", len(events), "seat"), tokens[0][1])
        events.append({"type": "premature", "seat": _seat(tokens[0], line)})
    elif word == "reshuffle":
        orders = hand.setdefault("reshuffles", [])
        line.mark((*loc, "reshuffles"), line_start(code))
        line.mark((*loc, "reshuffles", len(orders)), line_start(code))
        for i, (_, col) in enumerate(tokens):
            line.mark((*loc, "reshuffles", len(orders), i), col)
        orders.append([t for t, _ in tokens])


def line_start(code: str) -> int:
    """The column of a line's first word."""
    return len(code) - len(code.lstrip()) + 1


def _trick_size(hand: dict[str, Any]) -> int:
    """How many cards a trick of ``hand`` holds: one for each seat that plays (its
    decisions say which), else a few a line when the decisions are not given."""
    playing = {d.get("seat") for d in hand.get("decisions", []) if d.get("action") == "play"}
    return len(playing) if len(playing) >= 2 else 8


def format_script(script: dict[str, Any]) -> str:
    """The notation of a JSON table script (the inverse of :func:`parse_script`)."""
    lines = []
    if script.get("rules"):
        lines.append("rules " + json.dumps(script["rules"], separators=(",", ":")))
    if script.get("balances") is not None:
        lines.append("balances " + " ".join(str(b) for b in script["balances"]))
    for hand in script.get("hands", []):
        head = "hand"
        if hand.get("dealer") is not None:
            head += f" dealer {hand['dealer']}"
        if hand.get("pot") is not None:
            head += f" pot {hand['pot']}"
        lines += ["", head]
        if hand.get("deck") is not None:
            lines.append("deck " + " ".join(hand["deck"]))
        if hand.get("upcard") is not None:
            lines.append(f"upcard {hand['upcard']}")
        for seat, cards in (hand.get("dealt") or {}).items():
            lines.append(f"dealt {seat}: " + " ".join(cards))
        for d in hand.get("decisions", []):
            text = f"decide {d['seat']} {d['action']}"
            if d.get("discard"):
                text += " " + " ".join(d["discard"])
            if d.get("drew") is not None:
                text += " > " + " ".join(d["drew"])
            lines.append(text)
        for e in hand.get("events", []):
            lines.append(f"premature {e['seat']}")
        plays = [
            f"{p['seat']} {p['card']}" + (f"/{p['corrected_to']}" if p.get("corrected_to") else "")
            for p in hand.get("plays", [])
        ]
        per = _trick_size(hand)
        for i in range(0, len(plays), per):  # a trick a line, as the table saw it
            lines.append("play " + ", ".join(plays[i : i + per]))
        for order in hand.get("reshuffles") or []:
            lines.append("reshuffle " + " ".join(order))
    return "\n".join(lines).strip() + "\n"
