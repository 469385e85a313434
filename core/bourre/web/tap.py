"""Referee a hand by tapping (``/tap`` of ``bourre serve``): every step is a choice on
the screen, each tap one button of a form.

The page keeps nothing: the hand so far travels in the form as hand notation (one
step a line, :mod:`bourre.referee.notation`) and is refereed again on every tap by
the same code as ``bourre replay``.  A step that takes several taps (a seat that
plays: the cards it shows, how many it changes, which, what it drew; a card the
rules forbid: does it stand, or was it taken back) waits in a short ``pending``
field until it is whole, then becomes a line.

The table's cards are asked only where the script needs them.  A seat that passes
shows nothing; a seat that plays gives how many cards it changes and which it threw,
and its hand is read from its tricks once it has played them all (docs/table-scripts.md,
"What the tricks show").  Until then the referee is given a provisional hand for it
(the cards it played, cards nobody named), from which only whose turn it is and who
took each trick are read; its cards are checked when its tricks show them, and a
renege found then is put to the table.  A seat may show its dealt cards instead (one
tap more): each of its cards is then checked as it is played.  A seat that takes the
pot without play shows its cards at the end (R-SOLE).

What a card may be, and why not, is the house's rule components' answer (the state's
:meth:`~bourre.game.state.State.legal_with_reasons`); the ruling at the end is
:func:`bourre.referee.ruling.ruling`'s.  Nothing here restates a rule.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from bourre.game.actions import CARDS, PLAY, Dealt
from bourre.game.tablesteps import waiting
from bourre.game.unseen import unplaced
from bourre.referee import Refereed, ScriptError, referee
from bourre.referee.notation import NotationError, parse_script
from bourre.referee.records import PartialHandRecord
from bourre.referee.ruling import tricks_taken
from bourre.rules import RuleViolation
from bourre.rules.cards import (
    SUIT_NAMES,
    SUITS,
    CardError,
    card_str,
    card_symbol,
    display_order,
    parse_card,
)
from bourre.rules.hand import HandState
from bourre.rules.house import House, PluginError
from bourre.rules.money import chips

__all__ = ["TapError", "TapFlow"]

MAX_LINES = 400
"""The most lines a tapped script holds (a hand is about 40)."""


class TapError(ValueError):
    """A tap that does not fit the hand (a forged or stale form): shown on the page."""


def _card(text: str) -> int:
    try:
        return parse_card(text)
    except CardError as e:
        raise TapError(str(e)) from None


def _cards(text: str) -> list[int]:
    return [_card(t) for t in text.split()]


def _words(cards: list[int]) -> str:
    return " ".join(card_str(c) for c in cards)


def _symbols(cards: list[int] | tuple[int, ...]) -> str:
    return " ".join(card_symbol(c) for c in cards)


_SEAT = re.compile(r"[0-9]{1,2}")


def _seats(seats: list[int]) -> str:
    names = [f"seat {s}" for s in seats]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _count(k: int, what: str = "card") -> str:
    return f"{k} {what}" if k == 1 else f"{k} {what}s"


@dataclass
class Pending:
    """A step being tapped: a seat that plays (``decide``), or a card the rules forbid
    that the table rules on (``card``)."""

    seat: int
    kind: str
    dealt: list[int] = field(default_factory=list)
    change: int | None = None
    throw: list[int] = field(default_factory=list)
    drew: list[int] = field(default_factory=list)
    card: int | None = None
    back: bool = False
    deck: bool = False
    """The hand's deck is given: the seat's cards and its replacements follow from it."""
    show: bool = False
    """The seat shows the cards it was dealt (else its tricks will show its hand)."""

    def text(self) -> str:
        if self.kind == "card":
            assert self.card is not None
            return f"seat {self.seat}; card {card_str(self.card)}" + ("; back" if self.back else "")
        parts = [f"seat {self.seat}", self.kind, f"dealt {_words(self.dealt)}"]
        if self.deck:
            parts.append("deck")
        if self.show:
            parts.append("show")
        if self.change is not None:
            parts += [
                f"change {self.change}",
                f"throw {_words(self.throw)}",
                f"drew {_words(self.drew)}",
            ]
        return "; ".join(parts)

    @staticmethod
    def parse(text: str) -> Pending | None:
        """The pending step of the form (``None`` if none); :class:`TapError` if it is
        not one this page writes."""
        text = text.strip()
        if not text:
            return None
        parts = [p.strip() for p in text.split(";")]
        head = parts[0].split()
        if len(head) != 2 or head[0] != "seat" or not _SEAT.fullmatch(head[1]) or len(parts) < 2:
            raise TapError("the step under way is not one this page wrote: start it again")
        p = Pending(seat=int(head[1]), kind="decide")
        for part in parts[1:]:
            key, _, rest = part.partition(" ")
            if key in ("decide", "sole"):
                p.kind = key
            elif key == "dealt":
                p.dealt = _cards(rest)
            elif key == "change" and _SEAT.fullmatch(rest):
                p.change = int(rest)
            elif key == "throw":
                p.throw = _cards(rest)
            elif key == "drew":
                p.drew = _cards(rest)
            elif key == "card":
                p.kind, p.card = "card", _card(rest)
            elif key == "back":
                p.back = True
            elif key == "deck":
                p.deck = True
            elif key == "show":
                p.show = True
            else:
                raise TapError("the step under way is not one this page wrote: start it again")
        return p


@dataclass
class Button:
    value: str
    label: str
    css: str = ""
    disabled: bool = False
    title: str = ""


@dataclass
class Step:
    """What the page shows: the one thing it still needs, and how to give it."""

    ask: str
    help: list[str] = field(default_factory=list)
    buttons: list[Button] = field(default_factory=list)
    picker: list[list[Button]] | None = None
    question: str | None = None
    """A card the rules forbid: why, for the table to rule on."""
    over: bool = False
    more: bool = False
    """At the end of a hand: whether the session has hands left."""


def _rows(state: dict[int, tuple[str, bool, str]]) -> list[list[Button]]:
    """The 52-card picker, a row per suit, ace high: each card's tap value prefix,
    css class and whether it can be tapped come from ``state``."""
    rows = []
    for s in range(4):
        row = []
        for r in reversed(range(13)):
            c = s * 13 + r
            verb, enabled, css = state.get(c, ("", False, "off"))
            red = " red" if SUITS[s] in "HD" else ""
            row.append(
                Button(
                    f"{verb}:{card_str(c)}" if verb else "",
                    card_symbol(c),
                    css + red,
                    disabled=not enabled,
                    title=card_str(c),
                )
            )
        rows.append(row)
    return rows


def _picker(
    verb: str,
    enabled: set[int],
    picked: set[int] | None = None,
    css: dict[int, str] | None = None,
) -> list[list[Button]]:
    """The 52-card picker: ``enabled`` cards can be tapped (the others are greyed
    out), ``picked`` ones are shown chosen, ``css`` marks legal and played cards."""
    picked = picked or set()
    out: dict[int, tuple[str, bool, str]] = {}
    for c in range(52):
        style = (css or {}).get(c, "")
        if c in picked:
            out[c] = (verb, c in enabled, "picked")
        elif c in enabled:
            out[c] = (verb, True, style or "free")
        else:
            out[c] = (verb, False, style or "off")
    return _rows(out)


class TapFlow:
    """A hand being tapped at a house: the lines so far and the step under way."""

    def __init__(self, house: House, script: str, pending: str) -> None:
        self.house = house
        self.n = house.table.players
        self.size = house.rules.hand_size
        self.lines = [x.strip() for x in script.splitlines() if x.strip()]
        if len(self.lines) > MAX_LINES:
            raise TapError(f"the hand is too long (at most {MAX_LINES} lines)")
        for line in self.lines:
            if line.split(" ", 1)[0].lower() in ("house", "rules"):
                raise TapError("the house is chosen with the page, not in the hand")
        self.pending = Pending.parse(pending)
        self.guessed: set[int] = set()
        """Seats whose tricks will show their hands, given provisional ones for now."""
        self.done: Refereed | None = None
        self.error: str | None = None
        self._referee()
        if self.pending is not None and not self._fits(self.pending):
            self.pending = None
            raise TapError("the step under way is not this hand's: start it again")

    def _fits(self, p: Pending) -> bool:
        """Whether a pending step from the form belongs where the hand is."""
        phase = self._phase()
        counts = (
            len(p.dealt) <= self.size
            and len(set(p.dealt)) == len(p.dealt)
            and (p.change is None or len(p.throw) <= p.change <= self.size)
            and len(p.drew) <= (p.change or 0)
            and len(set(p.throw)) == len(p.throw)
            and len(set(p.drew)) == len(p.drew)
        )
        if not counts:
            return False
        if p.kind == "decide":
            return phase == "decide" and self._next_seat()[0] == p.seat
        if p.kind == "card":
            return phase == "play" and self._next_seat()[0] == p.seat
        return phase == "show" and min(self.guessed) == p.seat

    # -- the hand so far ---------------------------------------------------------------

    @property
    def script(self) -> str:
        return "\n".join(self.lines)

    def _hand_lines(self, lines: list[str] | None = None) -> list[str]:
        """The lines of the last hand (from its ``hand`` line)."""
        lines = self.lines if lines is None else lines
        starts = [i for i, x in enumerate(lines) if x.split()[0].lower() == "hand"]
        return lines[starts[-1] :] if starts else []

    def _has(self, word: str, lines: list[str] | None = None) -> bool:
        return any(x.split()[0].lower() == word for x in self._hand_lines(lines))

    def _parse(self, lines: list[str]) -> dict[str, Any]:
        text = f"house {self.house.spec}\n" + "\n".join(lines)
        try:
            return parse_script(text, "the hand")
        except NotationError as e:
            raise TapError(str(e)) from None

    def _run(self, lines: list[str], guess: bool = True) -> tuple[Refereed, set[int]]:
        """The hands refereed; while the last is under way, each seat whose tricks
        will show its hand is given a provisional one (:meth:`_guess`): the referee
        then says whose turn it is and who won each trick, and the seats that show
        their cards get their rulings; those seats are returned."""
        script = self._parse(lines)
        guessed = self._guess(script, lines) if guess else set()
        try:
            return referee(script, place="the hand"), guessed
        except ScriptError as e:
            raise TapError(str(e)) from None

    def _referee(self) -> None:
        if not self._has("hand") or not self._has("upcard"):
            if self.lines and not self._has("hand"):
                self.error = "the hand: the first line names the dealer (hand dealer N)"
            elif self._has("hand"):
                try:
                    self._dealer_seat()
                except TapError as e:
                    self.error = str(e)
            return
        try:
            self.done, self.guessed = self._run(self.lines)
        except TapError as e:
            self.error = str(e)

    def _commit(self, *lines: str, lines_now: list[str] | None = None) -> None:
        """Add lines (or put ``lines_now`` in place) if the referee accepts them; else
        :class:`TapError`, unchanged."""
        candidate = self.lines + list(lines) if lines_now is None else lines_now
        done, guessed = self._run(candidate) if self._has("upcard", candidate) else (None, set())
        self.lines, self.done, self.guessed = candidate, done, guessed
        self.pending, self.error = None, None

    # -- what the table knows of the last hand -------------------------------------------

    def _dealer_of(self, lines: list[str]) -> int:
        words = self._hand_lines(lines)[0].split()
        if "dealer" in words:
            return int(words[words.index("dealer") + 1])
        return self._dealer_seat(lines)[0]

    @staticmethod
    def _stood(hand: dict[str, Any], seat: int) -> list[int]:
        """The cards ``seat`` played that stood (a card taken back: the one instead)."""
        out = []
        for p in hand.get("plays", []):
            if p["seat"] == seat:
                out.append(_card(p.get("corrected_to") or p["card"]))
        return out

    @staticmethod
    def _named(hand: dict[str, Any]) -> set[int]:
        """Every card the last hand names (the upcard, hands shown, discards, draws,
        plays)."""
        named = {_card(hand["upcard"])} if hand.get("upcard") else set()
        for cards in (hand.get("dealt") or {}).values():
            named.update(_card(c) for c in cards)
        for d in hand.get("decisions", []):
            named.update(_card(c) for c in (d.get("discard") or []) + (d.get("drew") or []))
        for p in hand.get("plays", []):
            named.update(_card(c) for c in (p["card"], p.get("corrected_to")) if c)
        return named

    def _tricks_seats(self, hand: dict[str, Any]) -> list[tuple[int, dict[str, Any]]]:
        """The seats that play without showing their cards, with their decisions."""
        if hand.get("deck") is not None or hand.get("upcard") is None:
            return []
        shown = {int(s) for s in (hand.get("dealt") or {})}
        return [
            (d["seat"], d)
            for d in hand.get("decisions", [])
            if d["action"] == "play" and d["seat"] not in shown and d.get("drew") is None
        ]

    def _guess(self, script: dict[str, Any], lines: list[str]) -> set[int]:
        """Give each seat whose tricks will show its hand, but do not show it all yet, a
        provisional hand: the cards it played, the upcard for the dealer, and cards
        nobody has named.  Only whose turn it is and who won the tricks are read from
        the referee for these seats, never their rulings."""
        hand = script["hands"][-1]
        seats = self._tricks_seats(hand)
        if not seats:
            return set()
        up, dealer = _card(hand["upcard"]), self._dealer_of(lines)
        free = [c for c in range(52) if c not in self._named(hand)]
        guessed = set()
        for seat, d in seats:
            played = self._stood(hand, seat)
            if len(played) >= self.size:
                continue  # its tricks show its hand
            for q in hand.get("plays", []):  # a card taken back: still in its hand
                c = _card(q["card"])
                if q["seat"] == seat and q.get("corrected_to") and c not in played:
                    played.append(c)
            thrown = [_card(c) for c in d.get("discard") or []]
            cards = [up] if seat == dealer and up not in thrown + played else []
            cards += played
            while len(cards) < self.size and free:
                cards.append(free.pop(0))
            kept = self.size - len(thrown)
            hand.setdefault("dealt", {})[str(seat)] = [card_str(c) for c in cards[:kept] + thrown]
            d["drew"] = [card_str(c) for c in cards[kept:]]
            guessed.add(seat)
        return guessed

    def _could_hold(self, seat: int) -> set[int]:
        """The cards a seat whose tricks will show its hand may still hold: none the
        hand names elsewhere (its own card taken back it still holds)."""
        hand = self._parse(self.lines)["hands"][-1]
        named = self._named(hand)
        up, dealer = _card(hand["upcard"]), self._dealer_of(self.lines)
        mine = {_card(p["card"]) for p in hand.get("plays", []) if p["seat"] == seat}
        stood = set(self._stood(hand, seat))
        thrown = set()
        for d in hand.get("decisions", []):
            if d["seat"] == seat:
                thrown = {_card(c) for c in d.get("discard") or []}
        out = set(range(52)) - named
        out |= mine - stood  # taken back: still in its hand
        if seat == dealer and up not in thrown and up not in stood:
            out.add(up)
        return out

    # -- where the hand is -------------------------------------------------------------

    def _partial(self) -> PartialHandRecord | None:
        if self.done is None:
            return None
        last = self.done.record.hands[-1]
        return last if isinstance(last, PartialHandRecord) else None

    def _hs(self) -> HandState:
        assert self.done is not None
        return self.done.state.hand

    def _state(self) -> Any:
        assert self.done is not None
        return self.done.state

    def _phase(self) -> str:
        """``dealer``, ``upcard``, ``decide``, ``play``, ``show`` (a seat's cards are
        needed to end the hand), ``over`` or ``broken``."""
        if self.error is not None:
            return "broken"
        if not self._has("hand"):
            return "dealer"
        if not self._has("upcard"):
            return "upcard"
        if self._partial() is None:
            return "show" if self.guessed else "over"
        return "play" if self._state().phase_name == "play" else "decide"

    def _last(self) -> dict[str, Any]:
        """The last hand as the script gives it (no provisional hands)."""
        hand: dict[str, Any] = self._parse(self.lines)["hands"][-1]
        return hand

    def _unnamed(self) -> set[int]:
        """The cards the last hand names nowhere yet."""
        return set(range(52)) - self._named(self._last())

    def _limit(self, p: Pending) -> int:
        """The most cards seat ``p.seat`` may change (R-DRAW), by the house's draw
        component: the state after its ``play`` with its cards shown (or, when its
        tricks will show them, cards nobody holds in their place)."""
        done = self.done
        cards = list(p.dealt)
        if p.show and not p.deck:
            done, _ = self._run([*self.lines, f"dealt {p.seat}: {_words(p.dealt)}"])
        elif not p.deck:
            hs = self._hs()
            free = unplaced(hs)
            cards += free[: self.size - len(cards)]
        assert done is not None
        st = done.state.clone()
        try:
            st.apply_action(PLAY)
            if (w := waiting(st)) is not None and w.wants == "hand" and w.seat == p.seat:
                st.apply_chance(Dealt.of(st.hand.upcard, {p.seat: cards}))
            if st.phase_name == "exchange" and st.current_player() == p.seat:
                return st.exchange_limit()
        except (RuleViolation, PluginError) as e:
            raise TapError(f"seat {p.seat}'s cards: {e}") from None
        return self.size

    # -- a tap -------------------------------------------------------------------------

    def tap(self, value: str) -> None:
        """Apply one tap (a button's value); :class:`TapError` if it does not fit."""
        verb, _, arg = value.strip().partition(":")
        phase = self._phase()
        if verb == "undo":
            return self._undo()
        if verb == "dealer" and phase == "dealer":
            if not _SEAT.fullmatch(arg) or int(arg) >= self.n:
                raise TapError(f"no seat {arg!r} at a table of {self.n} (R-SEAT)")
            return self._commit(f"hand dealer {int(arg)}")
        if verb == "upcard" and phase == "upcard":
            return self._commit(f"upcard {card_str(_card(arg))}")
        if phase == "over":
            return self._over(verb)
        if phase == "decide":
            return self._decide(verb, arg)
        if phase == "play":
            return self._play(verb, arg)
        if phase == "show":
            p = self.pending = self._to_show()
            return self._exchange_tap(p, verb, arg)
        raise TapError("that tap does not fit this step of the hand: tap again")

    def _more(self) -> bool:
        """Whether the session has hands left after this one (R-SESSION)."""
        hands = sum(1 for x in self.lines if x.split()[0].lower() == "hand")
        return hands < self.house.table.hands

    def _undo(self) -> None:
        p = self.pending
        if p is not None:
            sole = p.kind == "sole"
            if p.kind == "card":
                if p.back:
                    p.back = False
                else:
                    self.pending = None
            elif p.drew:
                p.drew.pop()
            elif p.throw and not sole:
                p.throw.pop()
            elif p.change is not None and not sole:
                p.change = None
            elif p.show and len(p.dealt) > self._fixed(p):
                p.dealt.pop()
            elif p.show and not sole and not p.deck:
                p.show = False
            else:
                self.pending = None
            if not sole or self.pending is not None:
                return
        if not self.lines:
            raise TapError("nothing to take back")
        self.lines.pop()
        self.done, self.error, self.guessed = None, None, set()
        self._referee()

    def _fixed(self, p: Pending) -> int:
        """Cards of the seat's hand known before it shows them (the dealer's upcard;
        at the end, its discards)."""
        hs = self._hs()
        up = 1 if p.seat == hs.dealer and hs.upcard in p.dealt else 0
        return up + (len(p.throw) if p.kind == "sole" else 0)

    def _next_seat(self) -> tuple[int, list[str]]:
        part = self._partial()
        assert part is not None
        return part.next.seat, part.next.legal

    def _decide(self, verb: str, arg: str) -> None:
        seat, legal = self._next_seat()
        hs = self._hs()
        p = self.pending
        if p is None:
            if verb not in ("pass", "play") or verb not in legal:
                raise TapError(f"seat {seat} may: {' or '.join(legal)} (R-DECIDE)")
            if verb == "pass":
                return self._commit(f"decide {seat} pass")
            dealt = [hs.upcard] if seat == hs.dealer else []
            deck = not hs.hidden[seat] and seat not in self.guessed  # a deck: cards known
            if deck:
                dealt = list(hs.hand_of(seat))
            self.pending = Pending(seat=seat, kind="decide", dealt=dealt, deck=deck)
            return None
        if p.kind != "decide" or p.seat != seat:
            raise TapError("the step under way is not this seat's: start it again")
        return self._exchange_tap(p, verb, arg)

    def _exchange_tap(self, p: Pending, verb: str, arg: str) -> None:
        """A tap of a seat that plays: the cards it shows, how many it changes, which
        it throws, which it draws (each only where the script needs them)."""
        seat = p.seat
        if p.show and len(p.dealt) < self.size:
            if verb != "dealt":
                raise TapError(f"tap the {self.size} cards seat {seat} was dealt first")
            c = _card(arg)
            if c in p.dealt:
                if p.dealt.index(c) < self._fixed(p):
                    raise TapError(f"{card_symbol(c)} is known to be in seat {seat}'s hand")
                p.dealt.remove(c)
            elif c not in self._unnamed():
                raise TapError(f"{card_symbol(c)} is already elsewhere (R-DECK)")
            else:
                p.dealt.append(c)
            if len(p.dealt) == self.size and p.kind == "decide":
                self._limit(p)  # refuses a hand the deal cannot give, now
            if len(p.dealt) == self.size and p.kind == "sole" and not p.change:
                self._commit_decision(p)
            return None
        if p.change is None:
            if verb == "show" and not p.show and not p.deck:
                p.show = True
                return None
            limit = self._limit(p)
            if verb != "change" or not _SEAT.fullmatch(arg) or int(arg) > limit:
                raise TapError(f"seat {seat} changes 0 to {limit} cards (R-DRAW)")
            p.change = int(arg)
            if p.change == 0:
                self._commit_decision(p)
            return None
        if len(p.throw) < p.change:
            c = _card(arg) if verb == "throw" else -1
            if c not in self._throwable(p) and c not in p.throw:
                raise TapError(f"tap the cards seat {seat} threw, among its own")
            if c in p.throw:
                p.throw.remove(c)
            else:
                p.throw.append(c)
            if len(p.throw) == p.change and not (p.show and not p.deck):
                self._commit_decision(p)
            return None
        if verb != "drew":
            raise TapError(f"tap the cards seat {seat} drew")
        c = _card(arg)
        if c in p.drew:
            p.drew.remove(c)
            return None
        if c not in self._drawable(p):
            raise TapError(f"{card_symbol(c)} is already elsewhere (R-DECK)")
        p.drew.append(c)
        if len(p.drew) == p.change:
            self._commit_decision(p)
        return None

    def _throwable(self, p: Pending) -> set[int]:
        if p.show or p.deck:
            return set(p.dealt)
        hs = self._hs()
        return self._unnamed() | ({hs.upcard} if p.seat == hs.dealer else set())

    def _drawable(self, p: Pending) -> set[int]:
        free = self._unnamed() - set(p.dealt)
        hs = self._hs()
        if hs.unseen_stock < (p.change or 0):  # the stock runs out: discards come back
            free |= set(hs.pile) - set(p.throw)  # (R-RESHUFFLE)
        return free

    def _commit_decision(self, p: Pending) -> None:
        line = f"decide {p.seat} play"
        if p.throw:
            line += f" {_words(p.throw)}"
            if p.show and not p.deck:
                line += f" > {_words(p.drew)}"
        shown = f"dealt {p.seat}: {_words(p.dealt)}"
        try:
            if p.kind == "sole":  # its cards, needed at the end, go with its decision
                start = max(i for i, x in enumerate(self.lines) if x.split()[0] == "hand")
                lines = list(self.lines)
                for i in range(start, len(lines)):
                    if lines[i].split()[:3] == ["decide", str(p.seat), "play"]:
                        lines[i : i + 1] = [shown, line]
                        break
                self._commit(lines_now=lines)
            elif p.show and not p.deck:
                self._commit(shown, line)
            else:
                self._commit(line)
        except TapError:
            self.pending = p
            raise

    def _play(self, verb: str, arg: str) -> None:
        seat, _ = self._next_seat()
        st = self._state()
        p = self.pending
        if seat in self.guessed:  # its cards will show in the tricks: checked at the end
            if verb != "card" or (p is not None and (p.kind != "card" or not p.back)):
                raise TapError(f"tap the card seat {seat} played")
            c = _card(arg)
            if c not in self._could_hold(seat) or (p is not None and c == p.card):
                raise TapError(f"{card_symbol(c)} cannot be seat {seat}'s card now (R-DECK)")
            if p is not None and p.card is not None:  # the card played instead
                return self._commit(f"play {seat} {card_str(p.card)}/{card_str(c)}")
            return self._commit(f"play {seat} {card_str(c)}")
        if p is not None and (p.kind != "card" or p.seat != seat or p.card is None):
            raise TapError("the step under way is not this seat's: start it again")
        if p is not None and not p.back:
            if verb == "stands":
                return self._commit(f"play {seat} {card_str(p.card)}")  # type: ignore[arg-type]
            if verb == "back":
                p.back = True
                return None
            raise TapError("say first whether the card stands or was taken back")
        if verb != "card":
            raise TapError(f"tap the card seat {seat} played")
        c = _card(arg)
        if c not in st.hand.hand_of(seat):
            raise TapError(f"seat {seat} does not hold {card_symbol(c)} (R-DEAL)")
        if p is not None:  # the card played instead of one taken back
            if c == p.card:
                raise TapError(f"{card_symbol(c)} was taken back: tap the card played instead")
            return self._commit(f"play {seat} {card_str(p.card)}/{card_str(c)}")  # type: ignore[arg-type]
        if st.why_not(CARDS[c]) is None:
            return self._commit(f"play {seat} {card_str(c)}")
        self.pending = Pending(seat=seat, kind="card", card=c)
        return None

    # -- the end of the hand -----------------------------------------------------------

    def _to_show(self) -> Pending:
        """The seat whose tricks do not show its hand (it took the pot without play,
        R-SOLE): the cards it was dealt are needed."""
        seat = min(self.guessed)
        p = self.pending
        if p is not None and p.kind == "sole" and p.seat == seat:
            return p
        hand = self._last()
        d = next(d for s, d in self._tricks_seats(hand) if s == seat)
        thrown = [_card(c) for c in d.get("discard") or []]
        hs = self._hs()
        up = [hs.upcard] if seat == hs.dealer and hs.upcard not in thrown else []
        return Pending(
            seat=seat,
            kind="sole",
            dealt=up + thrown,
            change=len(thrown),
            throw=thrown,
            show=True,
        )

    def _found_later(self) -> list[tuple[int, int, int, Any]]:
        """The reneges of seats whose hands only the tricks showed, which the table has
        not yet ruled on: ``(play index, seat, trick, why)``."""
        done = self.done
        if done is None or not done.state.results:
            return []
        hand = self._last()
        shown = {int(s) for s in (hand.get("dealt") or {})}
        ruled = {x for x in self._hand_lines() if x.startswith("# stood:")}
        out, k = [], 0
        rec = done.record.hands[-1]
        logs = done.state.results[-1].plays
        for t, trick in enumerate(rec.tricks):
            for play in trick.plays:
                mark = f"# stood: seat {play.seat} {card_str(play.card)} in trick {t + 1}"
                if play.renege and play.seat not in shown and mark not in ruled:
                    out.append((k, play.seat, t + 1, logs[k]))
                k += 1
        return out

    def _over(self, verb: str) -> None:
        found = self._found_later()
        if verb == "next":
            if found:
                raise TapError("say first whether the card the tricks show stood")
            if not self._more():
                raise TapError(
                    f"the session's {self.house.table.hands} hands are played (R-SESSION)"
                )
            return self._commit("hand")
        if not found or verb not in ("stands", "back"):
            raise TapError("that tap does not fit this step of the hand: tap again")
        k, seat, trick, log = found[0]
        if verb == "stands":
            return self._commit(f"# stood: seat {seat} {card_str(log.card)} in trick {trick}")
        # taken back: the hand again from that card, which the table taps anew
        start = max(i for i, x in enumerate(self.lines) if x.split()[0] == "hand")
        keep = [x for x in self.lines[start:] if x.split()[0] not in ("play", "#")]
        plays = self._last()["plays"][:k]
        lines = (
            self.lines[:start]
            + keep
            + [
                f"play {q['seat']} {q['card']}"
                + (f"/{q['corrected_to']}" if q.get("corrected_to") else "")
                for q in plays
            ]
        )
        self._commit(lines_now=lines)
        self.pending = Pending(seat=seat, kind="card", card=log.card, back=True)
        return None

    # -- the step the page shows -------------------------------------------------------

    def texts(self) -> dict[str, str]:
        return {rid: text for _, _, (rid, text) in self.house.rule_texts()}

    def cite(self, rid: str) -> str:
        text = self.texts().get(rid)
        return f"{rid}: {text}" if text else rid

    def step(self) -> Step:
        phase = self._phase()
        if phase == "broken":
            return Step("This hand cannot go on as written: take back the last step.")
        if phase == "dealer":
            return Step(
                "Who deals? Tap the dealer's seat.",
                buttons=[Button(f"dealer:{s}", f"Seat {s}", "seat") for s in range(self.n)],
            )
        if phase == "upcard":
            return Step(
                self._who_deals()
                + "Tap the upcard: the dealer's last card, dealt face up. Its suit is trump.",
                help=self._dealer_help(),
                picker=_picker("upcard", set(range(52))),
            )
        if phase == "over":
            return self._over_step()
        if phase == "show":
            return self._exchange_step(self._to_show(), self._hs())
        seat, legal = self._next_seat()
        hs = self._hs()
        if phase == "decide":
            return self._decide_step(seat, legal, hs)
        return self._play_step(seat, hs)

    def _dealer_seat(self, lines: list[str] | None = None) -> tuple[int, list[int]]:
        """Who deals the last hand, and the seats the deal skipped (a lost turn)."""
        lines = self.lines if lines is None else lines
        words = self._hand_lines(lines)[0].split()
        if "dealer" in words:
            return int(words[words.index("dealer") + 1]), []
        starts = [i for i, x in enumerate(lines) if x.split()[0].lower() == "hand"]
        if len(starts) < 2:  # the first hand: the house's first dealer (R-DEALER)
            first = self.house.table.first_dealer
            if not isinstance(first, int):
                raise TapError("the hand: the first hand names its dealer (hand dealer N)")
            return first, []
        done, _ = self._run(lines[: starts[-1]], guess=False)  # the hands before, over
        dealer, skipped = done.table.dealing()
        assert dealer is not None
        return dealer, list(skipped)

    def _who_deals(self) -> str:
        dealer, _ = self._dealer_seat()
        return f"Seat {dealer} deals. "

    def _dealer_help(self) -> list[str]:
        skipped = self._dealer_seat()[1]
        if not skipped:
            return []
        return [
            f"{_seats(skipped).capitalize()} lost the next turn to deal. ({self.cite('R-DEALER')})"
        ]

    def _decide_step(self, seat: int, legal: list[str], hs: HandState) -> Step:
        p = self.pending
        if p is None:
            part = self._partial()
            assert part is not None
            if legal == ["play"]:
                return Step(
                    f"Seat {seat} must play.",
                    help=[self.cite(r) for r in part.next.rules],
                    buttons=[Button("play", f"Seat {seat} plays", "primary")],
                )
            return Step(
                f"Seat {seat}: pass or play?",
                buttons=[
                    Button("pass", f"Seat {seat} passes"),
                    Button("play", f"Seat {seat} plays", "primary"),
                ],
            )
        return self._exchange_step(p, hs)

    def _exchange_step(self, p: Pending, hs: HandState) -> Step:
        seat = p.seat
        if p.show and len(p.dealt) < self.size:
            fixed = set(p.dealt[: self._fixed(p)])
            enabled = self._unnamed() | (set(p.dealt) - fixed)
            why = (
                f"Seat {seat} took the pot without playing a card, so its tricks do not"
                f" show its hand ({self.cite('R-SOLE')}). "
                if p.kind == "sole"
                else f"Seat {seat} plays: "
            )
            known = f" {_symbols(sorted(fixed))} known." if fixed else ""
            return Step(
                f"{why}Tap the {self.size} cards it was dealt ({len(p.dealt)} of"
                f" {self.size}).{known}",
                help=["Tap a card again to take it back."],
                picker=_picker("dealt", enabled, set(p.dealt)),
            )
        if p.change is None:
            limit = self._limit(p)
            holds = (
                f" It holds {_symbols(display_order(p.dealt, hs.trump))}."
                if p.show or p.deck
                else ""
            )
            buttons = [Button("change:0", "None (stands pat)")] + [
                Button(f"change:{k}", str(k), "seat") for k in range(1, limit + 1)
            ]
            help = []
            if not p.show and not p.deck:
                buttons.append(Button("show", "Show its cards first", "secondary"))
                help.append(
                    "Its cards need not be tapped: once the hand is played out, they all"
                    " show in the tricks, and every card is checked then. Show them first"
                    " to have each card checked as it is played."
                )
            return Step(
                f"How many cards does seat {seat} change?{holds}", help=help, buttons=buttons
            )
        if len(p.throw) < p.change:
            return Step(
                f"Which {_count(p.change)} does seat {seat} throw? ({len(p.throw)} of {p.change})",
                picker=_picker("throw", self._throwable(p) | set(p.throw), set(p.throw)),
            )
        return Step(
            f"Which {_count(p.change)} did seat {seat} draw? ({len(p.drew)} of {p.change})",
            picker=_picker("drew", self._drawable(p) | set(p.drew), set(p.drew)),
        )

    def _play_step(self, seat: int, hs: HandState) -> Step:
        st = self._state()
        css = {c: "played" for c in hs.played | set(hs.trick)}
        trick = len(hs.tricks) + 1
        so_far = [
            f"seat {s} {card_symbol(c)}" for s, c in zip(hs.trick_seats, hs.trick, strict=False)
        ]
        lead = f" The trick so far: {', '.join(so_far)}." if so_far else f" Seat {seat} leads."
        ask = f"Trick {trick}: tap the card seat {seat} played.{lead}"
        p = self.pending
        if seat in self.guessed:
            enabled = self._could_hold(seat)
            if p is not None and p.card is not None:
                enabled.discard(p.card)
                css[p.card] = "back"
                ask = f"Seat {seat} took {card_symbol(p.card)} back: tap the card played instead.{lead}"
            return Step(
                ask,
                help=[
                    f"Seat {seat}'s cards are checked when the hand is over, as its tricks"
                    " show them. Grey: played, or known to be elsewhere."
                ],
                picker=_picker("card", enabled, css=css),
            )
        legal = st.legal_with_reasons()
        held = set(hs.hand_of(seat))
        p = self.pending
        if p is not None and p.card is not None and not p.back:
            reason = legal.reason_for(p.card)  # the rule component's words
            return Step(
                f"{card_symbol(p.card)} is not allowed here. Does it stand, or was it taken back?",
                question=f"Seat {seat} played {card_symbol(p.card)}: {reason.words} ({reason.rule}).",
                help=[self.cite("R-RENEGE"), self.cite("R-CORRECTED")],
                buttons=[
                    Button("stands", "It stands: a renege (R-RENEGE)", "warn"),
                    Button("back", "Taken back before the next card (R-CORRECTED)", "primary"),
                ],
            )
        for c in held:
            css[c] = "legal" if c in legal.cards else "illegal"
        enabled = set(held)
        if p is not None and p.card is not None:
            enabled.discard(p.card)
            css[p.card] = "back"
            ask = f"Seat {seat} took {card_symbol(p.card)} back: tap the card played instead.{lead}"
        allowed = ", ".join(card_symbol(c) for c in display_order(legal.cards, hs.trump))
        why = "; ".join(f"{r.words} ({r.rule})" for r in legal.reasons)
        return Step(
            ask,
            help=[f"Allowed (green): {allowed}. {why[:1].upper()}{why[1:]}."],
            picker=_picker("card", enabled, css=css),
        )

    def _over_step(self) -> Step:
        found = self._found_later()
        if not found:
            return Step("The hand is over.", over=True, more=self._more())
        _, seat, trick, log = found[0]
        why = f"{log.why.words} ({log.why.rule})" if log.why is not None else ""
        return Step(
            f"The hand is over. The tricks show that seat {seat}'s {card_symbol(log.card)} in"
            f" trick {trick} was not allowed. Did it stand, or was it taken back?",
            question=f"Seat {seat} played {card_symbol(log.card)} in trick {trick}: {why}.",
            help=[self.cite("R-RENEGE"), self.cite("R-CORRECTED")],
            buttons=[
                Button("stands", "It stood: a renege (R-RENEGE)", "warn"),
                Button(
                    "back", "Taken back before the next card (R-CORRECTED): tap again from there"
                ),
            ],
            over=True,
        )

    def status(self) -> list[str]:
        """A line or two on where the hand stands (trump, the pot, the tricks)."""
        if self.done is None:
            return []
        hs = self._hs()
        number = self.done.state.number
        out = [
            f"Hand {number} · seat {hs.dealer} deals · trump {SUIT_NAMES[hs.trump]}"
            f" ({card_symbol(hs.upcard)}) · the pot {chips(self.done.record.hands[-1].pot_at_stake)}"
        ]
        if hs.active and self._phase() == "play":
            out.append(f"Tricks taken: {tricks_taken(hs.won, hs.active)}")
        return out
