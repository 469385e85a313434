"""Referee a hand by tapping (``/tap`` of ``bourre serve``): every step is a choice on
the screen, each tap one button of a form.

The page keeps nothing: the hand so far travels in the form as hand notation (one
step a line, :mod:`bourre.referee.notation`) and is refereed again on every tap by
the same code as ``bourre replay``.  A step that takes several taps (a seat that
plays: the cards it shows, how many it changes, which, what it drew; a card the
rules forbid: does it stand, or was it taken back) waits in a short ``pending``
field until it is whole, then becomes a line.  The table's cards are asked only
where the script needs them: a seat that passes shows nothing.

What a card may be, and why not, is the house's rule components' answer (the state's
:meth:`~bourre.game.state.State.legal_with_reasons`); the ruling at the end is
:func:`bourre.referee.ruling.ruling`'s.  Nothing here restates a rule.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from bourre.game.actions import CARDS, PLAY, Dealt
from bourre.referee import Refereed, ScriptError, referee
from bourre.referee.notation import NotationError, parse_script
from bourre.referee.records import PartialHandRecord
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

    def text(self) -> str:
        if self.kind == "card":
            assert self.card is not None
            return f"seat {self.seat}; card {card_str(self.card)}" + ("; back" if self.back else "")
        parts = [f"seat {self.seat}", "play", f"dealt {_words(self.dealt)}"]
        if self.deck:
            parts.append("deck")
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
            if key == "play":
                p.kind = "decide"
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
        self.done: Refereed | None = None
        self.error: str | None = None
        self._referee()

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

    def _run(self, lines: list[str]) -> Refereed:
        text = f"house {self.house.spec}\n" + "\n".join(lines)
        try:
            return referee(parse_script(text, "the hand"), place="the hand")
        except (NotationError, ScriptError) as e:
            raise TapError(str(e)) from None

    def _referee(self) -> None:
        if not self._has("hand") or not self._has("upcard"):
            if self.lines and not self._has("hand"):
                self.error = "the hand: the first line names the dealer (hand dealer N)"
            return
        try:
            self.done = self._run(self.lines)
        except TapError as e:
            self.error = str(e)

    def _commit(self, *lines: str) -> None:
        """Add lines if the referee accepts them; else :class:`TapError`, unchanged."""
        candidate = self.lines + list(lines)
        done = self._run(candidate) if self._has("upcard", candidate) else None
        self.lines, self.done, self.pending, self.error = candidate, done, None, None

    # -- where the hand is -------------------------------------------------------------

    def _partial(self) -> PartialHandRecord | None:
        if self.done is None:
            return None
        last = self.done.record.hands[-1]
        return last if isinstance(last, PartialHandRecord) else None

    def _hs(self) -> HandState:
        assert self.done is not None
        return self.done.state.hand

    def _phase(self) -> str:
        """``dealer``, ``upcard``, ``decide``, ``play``, ``over`` or ``broken``."""
        if self.error is not None:
            return "broken"
        if not self._has("hand"):
            return "dealer"
        if not self._has("upcard"):
            return "upcard"
        part = self._partial()
        if part is None:
            return "over"
        return (
            "play" if self.done is not None and self.done.state.phase_name == "play" else "decide"
        )

    def _limit(self, p: Pending) -> int:
        """The most cards seat ``p.seat`` may change (R-DRAW), by the house's draw
        component: the state after its ``play`` with its cards shown."""
        assert self.done is not None
        st = self.done.state.clone()
        try:
            st.apply_action(PLAY)
            if st.chance_wants == "hand" and st.pending_seat == p.seat:
                st.apply_chance(Dealt.of(self._hs().upcard, {p.seat: p.dealt}))
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
        if verb == "next" and phase == "over":
            if not self._more():
                raise TapError(
                    f"the session's {self.house.table.hands} hands are played (R-SESSION)"
                )
            return self._commit("hand")
        if phase == "decide":
            return self._decide(verb, arg)
        if phase == "play":
            return self._play(verb, arg)
        raise TapError("that tap does not fit this step of the hand: tap again")

    def _more(self) -> bool:
        """Whether the session has hands left after this one (R-SESSION)."""
        hands = sum(1 for x in self.lines if x.split()[0].lower() == "hand")
        return hands < self.house.table.hands

    def _undo(self) -> None:
        p = self.pending
        if p is not None:
            if p.kind == "card":
                if p.back:
                    p.back = False
                else:
                    self.pending = None
            elif p.drew:
                p.drew.pop()
            elif p.throw:
                p.throw.pop()
            elif p.change is not None:
                p.change = None
            elif len(p.dealt) > self._fixed(p) and not p.deck:
                p.dealt.pop()
            else:
                self.pending = None
            return
        if not self.lines:
            raise TapError("nothing to take back")
        self.lines.pop()
        self.done, self.error = None, None
        self._referee()

    def _fixed(self, p: Pending) -> int:
        """Cards of the seat's hand known before it shows them (the dealer's upcard)."""
        return 1 if p.seat == self._hs().dealer and self._hs().upcard in p.dealt else 0

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
            deck = not hs.hidden[seat]  # its cards are known already (a deck)
            if deck:
                dealt = list(hs.hand_of(seat))
            self.pending = Pending(seat=seat, kind="decide", dealt=dealt, deck=deck)
            return None
        if p.kind != "decide" or p.seat != seat:
            raise TapError("the step under way is not this seat's: start it again")
        if len(p.dealt) < self.size:
            if verb != "dealt":
                raise TapError(f"tap the {self.size} cards seat {seat} was dealt first")
            c = _card(arg)
            if c in p.dealt:
                if c == hs.upcard and seat == hs.dealer:
                    raise TapError(f"the upcard {card_symbol(c)} is the dealer's (R-DEAL)")
                p.dealt.remove(c)
            elif c in hs.located():
                raise TapError(f"{card_symbol(c)} is already elsewhere (R-DECK)")
            else:
                p.dealt.append(c)
            if len(p.dealt) == self.size:
                self._limit(p)  # refuses a hand the deal cannot give, now
            return None
        if p.change is None:
            limit = self._limit(p)
            if verb != "change" or not _SEAT.fullmatch(arg) or int(arg) > limit:
                raise TapError(f"seat {seat} changes 0 to {limit} cards (R-DRAW)")
            p.change = int(arg)
            if p.change == 0:
                self._commit_decision(p)
            return None
        if len(p.throw) < p.change:
            c = _card(arg) if verb == "throw" else -1
            if c not in p.dealt:
                raise TapError(f"tap the cards seat {seat} threw, among its own")
            if c in p.throw:
                p.throw.remove(c)
            else:
                p.throw.append(c)
            if p.deck and len(p.throw) == p.change:
                self._commit_decision(p)
            return None
        if verb != "drew":
            raise TapError(f"tap the cards seat {seat} drew")
        c = _card(arg)
        if c in p.drew:
            p.drew.remove(c)
            return None
        if c in p.dealt or (c in hs.located() and c not in hs.pile):
            raise TapError(f"{card_symbol(c)} is already elsewhere (R-DECK)")
        p.drew.append(c)
        if len(p.drew) == p.change:
            self._commit_decision(p)
        return None

    def _commit_decision(self, p: Pending) -> None:
        line = f"decide {p.seat} play"
        if p.throw:
            line += f" {_words(p.throw)}" + ("" if p.deck else f" > {_words(p.drew)}")
        try:
            if p.deck:
                self._commit(line)
            else:
                self._commit(f"dealt {p.seat}: {_words(p.dealt)}", line)
        except TapError:
            self.pending = p
            raise

    def _play(self, verb: str, arg: str) -> None:
        seat, _ = self._next_seat()
        st = self._state()
        p = self.pending
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

    def _state(self) -> Any:
        assert self.done is not None
        return self.done.state

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
            return Step("The hand is over.", over=True, more=self._more())
        seat, legal = self._next_seat()
        hs = self._hs()
        if phase == "decide":
            return self._decide_step(seat, legal, hs)
        return self._play_step(seat, hs)

    def _earlier(self) -> Refereed | None:
        """The hands before the last one, refereed (``None`` for the first hand)."""
        starts = [i for i, x in enumerate(self.lines) if x.split()[0].lower() == "hand"]
        if len(starts) < 2:
            return None
        return self._run(self.lines[: starts[-1]])

    def _dealer_seat(self) -> tuple[int, list[int]]:
        """Who deals the last hand, and the seats the deal skipped (a lost turn)."""
        words = self._hand_lines()[0].split()
        if "dealer" in words:
            return int(words[words.index("dealer") + 1]), []
        done = self._earlier()
        assert done is not None
        st = done.state
        assert st.last_dealer is not None
        dealer = st.next_dealer(st.last_dealer, list(st.marks))
        skipped: list[int] = []
        s = (st.last_dealer + 1) % self.n
        while s != dealer and len(skipped) < self.n:
            if st.marks[s]:
                skipped.append(s)
            s = (s + 1) % self.n
        return dealer, skipped

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
        if len(p.dealt) < self.size:
            up = (
                f" The upcard {card_symbol(hs.upcard)} is one of them." if seat == hs.dealer else ""
            )
            fixed = {hs.upcard} if seat == hs.dealer else set()
            enabled = (set(range(52)) - hs.located()) | (set(p.dealt) - fixed)
            return Step(
                f"Seat {seat} plays: tap the {self.size} cards it was dealt"
                f" ({len(p.dealt)} of {self.size}).{up}",
                help=["Tap a card again to take it back."],
                picker=_picker("dealt", enabled, set(p.dealt)),
            )
        if p.change is None:
            limit = self._limit(p)
            return Step(
                f"How many cards does seat {seat} change? It holds"
                f" {_symbols(display_order(p.dealt, hs.trump))}.",
                buttons=[Button("change:0", "None (stands pat)")]
                + [Button(f"change:{k}", str(k), "seat") for k in range(1, limit + 1)],
            )
        if len(p.throw) < p.change:
            return Step(
                f"Which {_count(p.change)} does seat {seat} throw? ({len(p.throw)} of {p.change})",
                picker=_picker("throw", set(p.dealt), set(p.throw)),
            )
        free = set(range(52)) - hs.located() - set(p.dealt)
        if hs.unseen_stock < p.change:  # the stock runs out: discards come back (R-RESHUFFLE)
            free |= set(hs.pile)
        return Step(
            f"Which {_count(p.change)} did seat {seat} draw? ({len(p.drew)} of {p.change})",
            picker=_picker("drew", free | set(p.drew), set(p.drew)),
        )

    def _play_step(self, seat: int, hs: HandState) -> Step:
        st = self._state()
        legal = st.legal_with_reasons()
        held = set(hs.hand_of(seat))
        css = {c: "played" for c in hs.played | set(hs.trick)}
        trick = len(hs.tricks) + 1
        so_far = [
            f"seat {s} {card_symbol(c)}" for s, c in zip(hs.trick_seats, hs.trick, strict=False)
        ]
        lead = f" The trick so far: {', '.join(so_far)}." if so_far else f" Seat {seat} leads."
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
        ask = f"Trick {trick}: tap the card seat {seat} played.{lead}"
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

    def status(self) -> list[str]:
        """A line or two on where the hand stands (trump, the pot, the tricks)."""
        if self.done is None:
            return []
        hs = self._hs()
        number = self.done.state.number
        out = [
            f"Hand {number} · seat {hs.dealer} deals · trump {SUIT_NAMES[hs.trump]}"
            f" ({card_symbol(hs.upcard)}) · the pot {chips(hs.pot)}"
        ]
        if hs.active and self._phase() == "play":
            out.append("Tricks: " + ", ".join(f"seat {s} {hs.won[s]}" for s in hs.active))
        return out
