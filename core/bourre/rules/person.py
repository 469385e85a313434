"""A reason's words said of a seat, not to it.

The rule components write their reasons to the player who acts ("you must follow suit:
you hold hearts"): that is what ``bourre check``, the play prompt and the advice pages
tell a player.  Where the referee speaks *about* a seat ("Seat 3 played 7♠ in trick 2,
which was not allowed …") the same words must read in the third person, or the
sentence switches to "you" half-way (issue 43).  :func:`of_seat` rewrites them:
"you hold" → "it holds", "you must" → "it must", "your" → "its" …, for the words of any
house's components, a plugin's too (R-FOLLOW, R-TRUMP, R-CINCH-LEAD … are only quoted).
"""

from __future__ import annotations

import re

__all__ = ["of_seat"]

_MODALS = frozenset({"must", "may", "can", "cannot", "could", "should", "will", "would", "might"})
_IRREGULAR = {"have": "has", "are": "is", "were": "was", "do": "does", "go": "goes"}
_NOT_VERBS = frozenset({"and", "or", "but", "nor", "so", "then", "too", "also", "alone", "all"})
_WORD = re.compile(r"\b(you|your|yours|yourself)\b(?:(\s+)([a-z]+)\b)?", re.IGNORECASE)


def _verb(word: str) -> str:
    """``word`` after "it" instead of "you": ``hold`` → ``holds``, ``must`` unchanged."""
    low = word.lower()
    if low in _MODALS or low.endswith(("ed", "ing")) or low in _NOT_VERBS:
        return word
    if low in _IRREGULAR:
        return _IRREGULAR[low]
    if low.endswith(("s", "sh", "ch", "x", "z")):
        return word + "es"
    if low.endswith("y") and len(low) > 1 and low[-2] not in "aeiou":
        return word[:-1] + "ies"
    return word + "s"


def _swap(m: re.Match[str]) -> str:
    found, space, after = m.group(1), m.group(2) or "", m.group(3)
    low = found.lower()
    subject = low == "you" and after is not None and _after_subject(m)
    if low == "your" or low == "yours":
        said = "its"
    elif low == "yourself":
        said = "itself"
    else:
        said = "it"
    if found[0].isupper():
        said = said.capitalize()
    if after is None:
        return said
    return said + space + (_verb(after) if subject else after)


def _after_subject(m: re.Match[str]) -> bool:
    """Whether this "you" is the subject of the word after it ("when you can",
    "without spades you must"), not the object of a verb or preposition before it
    ("beats you", "to you")."""
    before = m.string[: m.start()].split()
    return not before or before[-1].lower() not in _OBJECT_BEFORE


_OBJECT_BEFORE = frozenset(
    {
        "to", "for", "with", "beats", "beat", "against", "than", "from", "of", "by",
        "tell", "tells", "give", "gives", "let", "lets", "make", "makes", "at", "on",
        "about", "behind", "before", "after", "like",
    }
)  # fmt: skip


def of_seat(words: str) -> str:
    """``words`` written to a player, said of its seat in the third person
    (R-FOLLOW: "hearts were led and you hold hearts: play one" → "… and it holds
    hearts: play one")."""
    return _WORD.sub(_swap, words)
