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

import re
from typing import Any

from bourre.rules.money import MAX_AMOUNT

__all__ = ["NotationError", "format_script", "looks_like_notation", "parse_script"]

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
    """A line that is not hand notation: the message names the place and the line."""


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


def _shown(token: str) -> str:
    """A token as a message quotes it (a long one cut)."""
    return repr(token if len(token) <= 24 else token[:20] + "…")


def _seat(token: str, where: str) -> int:
    if not _SEAT.fullmatch(token):
        raise NotationError(f"{where}: {_shown(token)} is not a seat number (R-SEAT)")
    return int(token)


def _amount(token: str, where: str) -> Any:
    """An amount of chips: a whole number or ``p/q``, at most :data:`MAX_AMOUNT`."""
    if _WHOLE.fullmatch(token):
        if len(token.lstrip("-")) > 16 or abs(int(token)) > MAX_AMOUNT:
            raise NotationError(
                f"{where}: {_shown(token)} chips is more than a table holds"
                f" (amounts up to {MAX_AMOUNT:,})"
            )
        return int(token)
    if _FRACTION.fullmatch(token):
        return token
    raise NotationError(
        f"{where}: {_shown(token)} is not an amount of chips (a whole number, or p/q)"
    )


def parse_script(text: str, place: str = "script") -> dict[str, Any]:
    """The JSON table script a notation text describes (validate it with
    :func:`bourre.referee.replay`)."""
    script: dict[str, Any] = {"rules": {}, "hands": []}
    hand: dict[str, Any] | None = None
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        where = f"{place}: line {number}"
        word, _, rest = line.partition(" ")
        word, rest = word.lower(), rest.strip()
        if word == "house":
            from bourre.rules.settings import HouseError, parse_house_string

            try:
                rules = parse_house_string(rest or "standard")
            except HouseError as e:
                raise NotationError(f"{where}: house: {e}") from None
            script["rules"] = rules.model_dump(mode="json", exclude_defaults=True)
        elif word == "rules":
            from bourre.rules.strictjson import load_json

            script["rules"] = load_json(rest, f"{where}: rules", NotationError)
        elif word == "balances":
            script["balances"] = [_amount(t, where) for t in rest.split()]
        elif word == "hand":
            hand = {"decisions": [], "plays": []}
            script["hands"].append(hand)
            words = rest.split()
            if len(words) % 2:
                raise NotationError(f"{where}: hand: give 'dealer N' and/or 'pot P'")
            for key, value in zip(words[::2], words[1::2], strict=True):
                if key == "dealer":
                    hand["dealer"] = _seat(value, where)
                elif key == "pot":
                    hand["pot"] = _amount(value, where)
                else:
                    raise NotationError(f"{where}: hand: unknown {key!r}; allowed: dealer, pot")
        elif word in KEYWORDS:
            if hand is None:
                raise NotationError(f"{where}: {word}: comes after a 'hand' line")
            _hand_line(hand, word, rest, where)
        else:
            raise NotationError(
                f"{where}: {word!r} is not a keyword; allowed: {', '.join(KEYWORDS)}"
            )
    if not script["hands"]:
        raise NotationError(f"{place}: no 'hand' line: the script holds no hand (R-SESSION)")
    return script


def _hand_line(hand: dict[str, Any], word: str, rest: str, where: str) -> None:
    if word == "deck":
        hand["deck"] = rest.split()
    elif word == "upcard":
        hand["upcard"] = rest
    elif word == "dealt":
        seat, colon, listed = rest.partition(":")
        if not colon:
            raise NotationError(f"{where}: dealt: write 'dealt SEAT: CARDS'")
        hand.setdefault("dealt", {})[str(_seat(seat.strip(), where))] = listed.split()
    elif word == "decide":
        words = rest.split()
        if len(words) < 2 or words[1].lower() not in ("play", "pass"):
            raise NotationError(f"{where}: decide: write 'decide SEAT play|pass …' (R-DECIDE)")
        d: dict[str, Any] = {"seat": _seat(words[0], where), "action": words[1].lower()}
        cards = words[2:]
        if ">" in cards:
            k = cards.index(">")
            d["drew"] = cards[k + 1 :]
            cards = cards[:k]
        if cards:
            d["discard"] = cards
        hand["decisions"].append(d)
    elif word == "play":
        for item in rest.split(","):
            parts = item.split()
            if len(parts) != 2:
                raise NotationError(f"{where}: play: write 'play SEAT CARD, SEAT CARD' (R-LEAD)")
            p: dict[str, Any] = {"seat": _seat(parts[0], where)}
            card, slash, corrected = parts[1].partition("/")
            p["card"] = card
            if slash:
                p["corrected_to"] = corrected
            hand["plays"].append(p)
    elif word == "premature":
        hand.setdefault("events", []).append({"type": "premature", "seat": _seat(rest, where)})
    elif word == "reshuffle":
        hand.setdefault("reshuffles", []).append(rest.split())


def format_script(script: dict[str, Any]) -> str:
    """The notation of a JSON table script (the inverse of :func:`parse_script`)."""
    lines = []
    if script.get("rules"):
        import json

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
        for i in range(0, len(plays), 8):  # a few per line
            lines.append("play " + ", ".join(plays[i : i + 8]))
        for order in hand.get("reshuffles") or []:
            lines.append("reshuffle " + " ".join(order))
    return "\n".join(lines).strip() + "\n"
