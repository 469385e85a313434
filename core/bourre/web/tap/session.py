"""A session on the phone (R-SESSION, R-SETTLE): the players' names, the running
ledger, the settlement and the session in the hand notation, around the tapped hands.

The session is the tapped script (every hand of it: the pot and the dealer of each
hand after the first are the referee's, carried from the hands before, as in
``bourre replay``) and the players' names.  The page keeps neither on the server: the
names travel in the tap form beside the script (one field a seat, ``name0`` …), and the
browser keeps both in its own storage (``tap-session.js``), so a reload or a phone
that slept finds the session again and two phones never share one.

The notation has no keyword for names: they are written as comment lines
(``# seat 0: Ana``), which ``bourre replay`` ignores and :meth:`Names.from_notation`
reads back.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from fractions import Fraction

from bourre.houses.house import House
from bourre.referee import Refereed, ScriptError, referee
from bourre.referee.notation import NotationError, parse_script
from bourre.referee.records import HandRecord
from bourre.rules.money import Amount

from .form import TapError
from .page import Step

__all__ = [
    "MAX_NAME",
    "Ledger",
    "LedgerRow",
    "Names",
    "Opened",
    "Standing",
    "decimal",
    "export",
    "ledger",
    "so_far",
]

MAX_NAME = 24
"""The longest name a seat may be given."""

_SPACE = re.compile(r"\s+")
_UNPRINTABLE = re.compile(r"[\x00-\x1f\x7f-\x9f]")
_PLURAL = re.compile(r"\b([Ss]eats) ((?:[0-9]{1,2}, )*[0-9]{1,2} and [0-9]{1,2})\b")
_SINGULAR = re.compile(r"\b([Ss])eat ([0-9]{1,2})\b")
_NUMBER = re.compile(r"[0-9]{1,2}")
_COMMENT = re.compile(r"#\s*seat ([0-9]{1,2}):[ \t]*(.*)")


def decimal(x: Amount) -> str:
    """An amount in decimals, as players count chips: ``12``, ``86.8``, ``-3.4``,
    ``33.33`` (a share of the pot in thirds, to the hundredth)."""
    q = Fraction(x)
    if q.denominator == 1:
        return str(q.numerator)
    text = f"{float(q):.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


@dataclass(frozen=True)
class Names:
    """The players' names, one a seat (``""``: a seat without a name)."""

    names: tuple[str, ...]

    @staticmethod
    def read(fields: Mapping[str, str], n: int) -> Names:
        """The names the form gives (``name0`` …); :class:`TapError` for one too long.
        Spaces are collapsed and control characters dropped, so a name stays one line
        (and one comment line of the notation)."""
        out = []
        for s in range(n):
            name = _SPACE.sub(" ", _UNPRINTABLE.sub(" ", fields.get(f"name{s}", ""))).strip()
            if len(name) > MAX_NAME:
                raise TapError(f"seat {s}'s name: at most {MAX_NAME} letters (R-SESSION)")
            out.append(name)
        return Names(tuple(out))

    @staticmethod
    def from_notation(text: str, n: int) -> Names:
        """The names of a session written by :func:`export` (its ``# seat N: NAME``
        lines)."""
        got: dict[str, str] = {}
        for line in text.splitlines():
            m = _COMMENT.fullmatch(line.strip())
            if m and int(m.group(1)) < n:
                got[f"name{int(m.group(1))}"] = m.group(2)[:MAX_NAME]
        return Names.read(got, n)

    def __bool__(self) -> bool:
        return any(self.names)

    def of(self, seat: int) -> str:
        """The seat as the page names it: ``Ana (seat 0)``, or ``seat 0``."""
        name = self.names[seat] if 0 <= seat < len(self.names) else ""
        return f"{name} (seat {seat})" if name else f"seat {seat}"

    def short(self, seat: int) -> str:
        """The seat in a column head: ``Ana``, or ``Seat 0``."""
        name = self.names[seat] if 0 <= seat < len(self.names) else ""
        return name or f"Seat {seat}"

    def text(self, words: str) -> str:
        """A sentence of the page with each seat named: ``Seat 1 passes`` becomes
        ``Ana (seat 1) passes``, ``seats 2 and 3`` becomes ``seats 2 (Bo) and 3 (Cy)``."""
        if not self:
            return words

        def plural(m: re.Match[str]) -> str:
            def one(k: re.Match[str]) -> str:
                s = int(k.group(0))
                name = self.names[s] if s < len(self.names) else ""
                return f"{s} ({name})" if name else str(s)

            return f"{m.group(1)} {_NUMBER.sub(one, m.group(2))}"

        def singular(m: re.Match[str]) -> str:
            s = int(m.group(2))
            name = self.names[s] if s < len(self.names) else ""
            return f"{name} ({m.group(1).lower()}eat {s})" if name else m.group(0)

        return _SINGULAR.sub(singular, _PLURAL.sub(plural, words))

    def step(self, step: Step) -> Step:
        """What the page shows, each seat named (the buttons' labels, never their
        values)."""
        if not self:
            return step
        t: Callable[[str], str] = self.text
        return replace(
            step,
            ask=t(step.ask),
            help=tuple(t(x) for x in step.help),
            question=None if step.question is None else t(step.question),
            buttons=tuple(replace(b, label=t(b.label)) for b in step.buttons),
            aside=tuple(replace(b, label=t(b.label)) for b in step.aside),
            aside_ask=t(step.aside_ask),
        )

    def comments(self) -> list[str]:
        """The names as comment lines of the notation (``# seat 0: Ana``)."""
        return [f"# seat {s}: {name}" for s, name in enumerate(self.names) if name]


@dataclass(frozen=True)
class LedgerRow:
    """One hand over: who dealt, the pot at stake, who took it, and each seat's
    balance after it."""

    hand: int
    dealer: str
    pot: str
    taken: str
    """Who took the pot, or that it carried (R-WIN)."""
    balances: tuple[str, ...]


@dataclass(frozen=True)
class Standing:
    """A seat against its starting balance: up, down or even."""

    seat: int
    name: str
    balance: str
    word: str
    """``up 12``, ``down 3.4``, ``even``."""
    css: str
    place: int | None = None
    """Its place in the settlement (R-SETTLE; ties share a place)."""


@dataclass(frozen=True)
class Ledger:
    """The running ledger of a session (R-SESSION) and, once a hand is over, what
    the settlement would be if the session ended there (R-SETTLE)."""

    heads: tuple[str, ...]
    start: str
    rows: tuple[LedgerRow, ...]
    standing: tuple[Standing, ...]
    """After the last hand over."""
    settled: tuple[Standing, ...]
    """The settlement (the pot left shared equally, R-SETTLE), best place first."""
    left: str
    """What is left in the pot, shared at the settlement."""
    played: int
    planned: int

    @property
    def over(self) -> bool:
        """Whether the session's hands are all played."""
        return self.played >= self.planned


def _standing(seat: int, names: Names, b: Amount, start: Amount, place: int | None) -> Standing:
    d = Fraction(b) - Fraction(start)
    word, css = (
        (f"up {decimal(d)}", "up")
        if d > 0
        else (f"down {decimal(-d)}", "down")
        if d < 0
        else ("even", "")
    )
    return Standing(seat, names.short(seat), decimal(b), word, css, place)


def ledger(
    done: Refereed | None, house: House, names: Names, ruled: bool = True, settle: bool = True
) -> Ledger | None:
    """The ledger of the hands over (``None`` before the first is over).  ``ruled``
    false: the last hand waits for the table's word on a card its tricks showed
    (R-RENEGE), so it is not in the ledger yet and nothing is settled.  ``settle``
    false: no settlement (a hand is under way)."""
    if done is None:
        return None
    hands = [h for h in done.record.hands if isinstance(h, HandRecord)]
    if not ruled and hands:
        hands = hands[:-1]
    if not hands:
        return None
    start = house.table.balance
    n = house.table.players
    rows = tuple(
        LedgerRow(
            h.number,
            names.short(h.dealer),
            decimal(h.pot_at_stake),
            names.short(h.winner) if h.winner is not None else "carried",
            tuple(decimal(b) for b in h.balances),
        )
        for h in hands
    )
    last = hands[-1].balances
    standing = tuple(_standing(s, names, last[s], start, None) for s in range(n))
    final = done.record.final if ruled and settle else None
    settled: tuple[Standing, ...] = ()
    if final is not None:
        settled = tuple(
            sorted(
                (_standing(s, names, final.balances[s], start, final.ranks[s]) for s in range(n)),
                key=lambda x: (x.place or 0, x.seat),
            )
        )
    return Ledger(
        heads=tuple(names.short(s) for s in range(n)),
        start=decimal(start),
        rows=rows,
        standing=standing,
        settled=settled,
        left=decimal(hands[-1].pot_after),
        played=len(hands),
        planned=house.table.hands,
    )


def so_far(house: House, script: str, done: Refereed | None) -> Refereed | None:
    """The session's hands refereed so far: ``done`` (the tapped lines refereed), or,
    while the last hand is being set up (its dealer or upcard to tap, so not refereed
    yet), the hands before it."""
    if done is not None:
        return done
    lines = [x.strip() for x in script.splitlines() if x.strip()]
    starts = [i for i, x in enumerate(lines) if x.split()[0].lower() == "hand"]
    if len(starts) < 2:
        return None
    text = "\n".join([f"house {house.spec}", *lines[: starts[-1]]])
    try:
        return referee(parse_script(text, "the hand"), place="the hand")
    except (NotationError, ScriptError):
        return None


@dataclass(frozen=True)
class Opened:
    """A saved session (what :func:`export` writes, or any hand notation at a house
    string), opened on the tap page: its house, its hands' lines and its names."""

    spec: str
    script: str
    text: str

    @staticmethod
    def read(text: str, spec: str) -> Opened:
        """``spec``: the page's house, for a text without a ``house`` line;
        :class:`TapError` for a house given as a rules object."""
        lines = []
        for raw in text.splitlines():
            line = raw.strip()
            word = line.split(" ", 1)[0].lower()
            if word == "house":
                spec = line.split(" ", 1)[1].strip() if " " in line else ""
            elif word == "rules":
                raise TapError(
                    "the saved session gives its rules as an object: the tap page opens a"
                    " session at a house string (house standard+…); replay it with bourre"
                    " replay"
                )
            elif line.startswith("#") and not line.startswith("# stood:"):
                continue  # a comment (the names are read apart)
            elif line:
                lines.append(line)
        return Opened(spec, "\n".join(lines), text)

    def names(self, n: int) -> Names:
        return Names.from_notation(self.text, n)


def export(house: House, script: str, names: Names) -> str:
    """The whole session in the hand notation, names as comment lines: what
    ``bourre replay`` referees to the same money."""
    head = [f"house {house.spec}", *names.comments()]
    return "\n".join(head + [x for x in script.splitlines() if x.strip()]) + "\n"
