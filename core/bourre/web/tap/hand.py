"""The hand being tapped: its lines in hand notation (one step a line), refereed again
by the same code as ``bourre replay`` whenever they change, and the step under way.

A seat whose tricks will show its hand is given a stand-in until they do
(:func:`bourre.web.tap.table.provisional`); its cards are checked then, and a renege
found then is put to the table (:meth:`TappedHand.found_later`).  What the page says of
the cards nobody showed (what a seat may hold, what is still unplaced) is the referee's
(:mod:`bourre.game.unseen` through :class:`~bourre.referee.table.TableState`).
"""

from __future__ import annotations

from typing import Any

from bourre.houses.house import House
from bourre.referee import Refereed, ScriptError, referee
from bourre.referee.notation import NotationError, parse_script
from bourre.referee.records import PartialHandRecord
from bourre.referee.ruling import next_deal
from bourre.rules.cards import card_str
from bourre.rules.hookspec import DECISIONS

from .form import Exchange, Forbidden, Pending, TapError, read_pending, words
from .phases import Phase
from .table import (
    Renege,
    StandIns,
    Table,
    could_hold,
    exchange_limit,
    provisional,
    reneges,
    table_of,
)
from .told import Told, plays_unseen

__all__ = ["MAX_LINES", "TappedHand"]

MAX_LINES = 400
"""The most lines a tapped script holds (a hand is about 40)."""


def _word(line: str) -> str:
    return line.split()[0].lower()


def _stood_mark(r: Renege) -> str:
    """The line that records the table's ruling that a renege the tricks showed stood."""
    return f"# stood: seat {r.seat} {card_str(r.card)} in trick {r.trick}"


class TappedHand:
    """A hand being tapped at a house: the lines so far, refereed, and the step under
    way (:data:`~bourre.web.tap.form.Pending`)."""

    def __init__(self, house: House, script: str, pending: str) -> None:
        self.house = house
        self.n = house.table.players
        self.size = house.rules.hand_size
        self.lines = [x.strip() for x in script.splitlines() if x.strip()]
        if len(self.lines) > MAX_LINES:
            raise TapError(f"the hand is too long (at most {MAX_LINES} lines)")
        if any(_word(x) in ("house", "rules") for x in self.lines):
            raise TapError("the house is chosen with the page, not in the hand")
        self.pending: Pending | None = read_pending(pending)
        self.stand_ins = StandIns()
        """Seats whose tricks will show their hands, given stand-ins for now, and the
        stand-ins' cards nobody named."""
        self.done: Refereed | None = None
        self.error: str | None = None
        self._table: Table | None = None
        self._referee()
        if self.pending is not None and not self._fits(self.pending):
            self.pending = None
            raise TapError("the step under way is not this hand's: start it again")

    # -- the lines, refereed ------------------------------------------------------------

    @property
    def script(self) -> str:
        return "\n".join(self.lines)

    def _hand_lines(self, lines: list[str] | None = None) -> list[str]:
        """The lines of the last hand (from its ``hand`` line)."""
        lines = self.lines if lines is None else lines
        starts = [i for i, x in enumerate(lines) if _word(x) == "hand"]
        return lines[starts[-1] :] if starts else []

    def _has(self, word: str, lines: list[str] | None = None) -> bool:
        return any(_word(x) == word for x in self._hand_lines(lines))

    def _parse(self, lines: list[str], line_offset: int = -1) -> dict[str, Any]:
        """The lines as a script; ``line_offset``: where they start among the hand's
        lines (messages count the lines of the hand, not the house line put first)."""
        text = f"house {self.house.spec}\n" + "\n".join(lines)
        try:
            return parse_script(text, "the hand", line_offset=line_offset)
        except NotationError as e:
            raise TapError(str(e)) from None

    @property
    def guessed(self) -> frozenset[int]:
        """Seats whose tricks will show their hands, given stand-ins for now."""
        return self.stand_ins.seats

    def _run(self, lines: list[str], guess: bool = True) -> tuple[Refereed, StandIns]:
        """The hands refereed; while the last is under way, each seat whose tricks will
        show its hand is given a provisional one: the referee then says whose turn it is
        and who won each trick, and the seats that show their cards get their rulings.
        Those stand-ins are returned."""
        script = self._parse(lines)
        stand_ins = StandIns()
        hand = script["hands"][-1]
        if guess and plays_unseen(hand):
            told = Told.of(hand)
            stand_ins = provisional(hand, told, self.size, self._dealer_of(lines))
        try:
            return referee(script, place="the hand"), stand_ins
        except ScriptError as e:
            raise TapError(str(e)) from None

    def _settle(self, lines: list[str], done: Refereed | None, stand_ins: StandIns) -> None:
        self.lines, self.done, self.stand_ins = lines, done, stand_ins
        self._table = None

    def _referee(self) -> None:
        if not self._has("hand") or not self._has("upcard"):
            if self.lines and not self._has("hand"):
                self.error = "the hand: the first line names the dealer (hand dealer N)"
            elif self._has("hand"):
                try:
                    self.dealer_seat()
                except TapError as e:
                    self.error = str(e)
            return
        try:
            self._settle(self.lines, *self._run(self.lines))
        except TapError as e:
            self.error = str(e)

    def commit(self, *lines: str, lines_now: list[str] | None = None) -> None:
        """Add lines (or put ``lines_now`` in place) if the referee accepts them, the
        step under way then done; else :class:`TapError`, nothing changed."""
        candidate = self.lines + list(lines) if lines_now is None else lines_now
        done, stand_ins = (
            self._run(candidate) if self._has("upcard", candidate) else (None, StandIns())
        )
        self._settle(candidate, done, stand_ins)
        self.pending, self.error = None, None

    def commit_exchange(self, p: Exchange) -> None:
        """The seat's decision to play, whole: its line (and the cards it showed)."""
        line = f"decide {p.seat} play"
        if p.throw:
            line += f" {words(p.throw)}"
            if p.gives_drawn:
                line += f" > {words(p.drew)}"
        shown = f"dealt {p.seat}: {words(p.dealt)}"
        if p.sole:  # its cards, needed at the end, go with its decision
            start = len(self.lines) - len(self._hand_lines())
            lines = list(self.lines)
            for i in range(start, len(lines)):
                if lines[i].split()[:3] == ["decide", str(p.seat), "play"]:
                    lines[i : i + 1] = [shown, line]
                    break
            self.commit(lines_now=lines)
        elif p.gives_drawn:
            self.commit(shown, line)
        else:
            self.commit(line)

    def take_back(self, r: Renege) -> None:
        """A renege the tricks showed, taken back (R-CORRECTED): the hand again from
        that card, which the table taps anew."""
        start = len(self.lines) - len(self._hand_lines())
        keep = [x for x in self.lines[start:] if x.split()[0] not in ("play", "#")]
        plays = [
            f"play {q.seat} {card_str(q.card)}"
            + (f"/{card_str(q.instead)}" if q.instead is not None else "")
            for q in self.told().plays[: r.index]
        ]
        self.commit(lines_now=self.lines[:start] + keep + plays)
        self.pending = Forbidden(r.seat, r.card, back=True)

    def undo(self) -> None:
        """Take back the last tap: of the step under way, else the last line."""
        p = self.pending
        if p is not None:
            if isinstance(p, Forbidden):
                self.pending = p.undone()
                return
            self.pending = p.undone(self.fixed(p))
            if not p.sole or self.pending is not None:
                return
        if not self.lines:
            raise TapError("nothing to take back")
        self._settle(self.lines[:-1], None, StandIns())
        self.error = None
        self._referee()

    # -- where the hand is -------------------------------------------------------------

    def _partial(self) -> PartialHandRecord | None:
        if self.done is None:
            return None
        last = self.done.record.hands[-1]
        return last if isinstance(last, PartialHandRecord) else None

    @property
    def phase(self) -> Phase:
        if self.error is not None:
            return Phase.BROKEN
        if not self._has("hand"):
            return Phase.DEALER
        if not self._has("upcard"):
            return Phase.UPCARD
        p = self.pending
        if self._partial() is None:
            if self.guessed:
                return self.exchange().phase(self.size)
            return Phase.FOUND if self.found_later() else Phase.OVER
        if not self.table.in_play:
            return p.phase(self.size) if isinstance(p, Exchange) else Phase.DECIDE
        if isinstance(p, Forbidden) and not p.back and self.seat not in self.guessed:
            return Phase.RULE
        return Phase.PLAY

    def _fits(self, p: Pending) -> bool:
        """Whether a step under way from the form belongs where the hand is."""
        if isinstance(p, Exchange):
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
        if self.error is not None or self.done is None:
            return False
        if self._partial() is None:  # over: the cards of a seat that took it without play
            return (
                isinstance(p, Exchange)
                and p.sole
                and bool(self.guessed)
                and min(self.guessed) == p.seat
            )
        if isinstance(p, Exchange) and p.sole:
            return False
        return isinstance(p, Exchange) != self.table.in_play and self.seat == p.seat

    @property
    def refereed(self) -> Refereed:
        """The lines refereed (only once the upcard is given and the referee accepts
        them)."""
        assert self.done is not None
        return self.done

    @property
    def table(self) -> Table:
        """The hand as the referee holds it (only once it is refereed)."""
        if self._table is None:
            self._table = table_of(self.refereed, self.stand_ins)
        return self._table

    @property
    def seat(self) -> int:
        """The seat to act (while the hand is under way)."""
        part = self._partial()
        assert part is not None
        return part.next.seat

    @property
    def legal_words(self) -> list[str]:
        """What the seat to act may do, as the record says it (``pass``, ``play``)."""
        part = self._partial()
        assert part is not None
        return part.next.legal

    @property
    def rules_now(self) -> list[str]:
        """The ids of the rules that narrow what the seat to act may do."""
        part = self._partial()
        assert part is not None
        return part.next.rules

    @property
    def announces(self) -> bool:
        """Whether the house's players announce in turn, so that an announcement out
        of turn can happen (R-PREMATURE)."""
        return self.house.rules[DECISIONS].announcements

    def premature_now(self) -> set[int]:
        """The seats whose announcement out of turn the last hand records."""
        return {int(x.split()[1]) for x in self._hand_lines() if _word(x) == "premature"}

    def more(self) -> bool:
        """Whether the session has hands left after this one (R-SESSION)."""
        return sum(1 for x in self.lines if _word(x) == "hand") < self.house.table.hands

    def told(self) -> Told:
        """The last hand as the lines tell it (no provisional hands)."""
        return Told.of(self._parse(self.lines)["hands"][-1])

    def unnamed(self) -> set[int]:
        """The cards the last hand names nowhere yet: nobody has placed them, the
        stand-ins' cards counted as unplaced (:attr:`~bourre.web.tap.table.Table.unnamed`, the referee's)."""
        return set(self.table.unnamed)

    def dealer_seat(
        self, lines: list[str] | None = None
    ) -> tuple[int, list[tuple[int, tuple[str, ...]]]]:
        """Who deals the last hand, and the seats the deal skipped (a lost turn), each
        with the rules that cost it (:func:`bourre.referee.ruling.next_deal`)."""
        lines = self.lines if lines is None else lines
        starts = [i for i, x in enumerate(lines) if _word(x) == "hand"]
        if not starts:
            raise TapError("the hand: the first line names the dealer (hand dealer N)")
        # the hand line read as the notation reads it (TapError naming its line if not)
        head = self._parse(lines[starts[-1] : starts[-1] + 1], line_offset=starts[-1] - 1)
        named = head["hands"][-1].get("dealer")
        if named is not None:
            return int(named), []
        if len(starts) < 2:  # the first hand: the house's first dealer (R-DEALER)
            first = self.house.table.first_dealer
            if not isinstance(first, int):
                raise TapError("the hand: the first hand names its dealer (hand dealer N)")
            return first, []
        done, _ = self._run(lines[: starts[-1]], guess=False)  # the hands before, over
        return next_deal(done)

    def _dealer_of(self, lines: list[str]) -> int:
        return self.dealer_seat(lines)[0]

    def could_hold(self, seat: int) -> set[int]:
        """The cards a seat whose tricks will show its hand may still hold (the
        referee's :meth:`~bourre.referee.table.TableState.could_hold`)."""
        return could_hold(self.refereed, seat, self.stand_ins)

    def found_later(self) -> list[Renege]:
        """The reneges of seats whose hands only the tricks showed, which the table has
        not yet ruled on."""
        if self.done is None:
            return []
        shown = set(self.told().dealt)
        ruled = {x for x in self._hand_lines() if x.startswith("# stood:")}
        return [
            r for r in reneges(self.done) if r.seat not in shown and _stood_mark(r) not in ruled
        ]

    def let_stand(self, r: Renege) -> None:
        """The table's ruling that a renege the tricks showed stood (R-RENEGE)."""
        self.commit(_stood_mark(r))

    # -- a seat that plays -------------------------------------------------------------

    def exchange(self) -> Exchange:
        """The exchange being tapped: the step under way, or, once the hand is over, the
        seat whose tricks do not show its hand (it took the pot without play, R-SOLE),
        whose dealt cards are needed."""
        p = self.pending
        if self._partial() is not None:
            assert isinstance(p, Exchange)
            return p
        seat = min(self.guessed)
        if isinstance(p, Exchange) and p.sole and p.seat == seat:
            return p
        d = next(d for _, d in self.told().unseen() if d.seat == seat)
        t = self.table
        up = (t.upcard,) if seat == t.dealer and t.upcard not in d.discard else ()
        return Exchange(
            seat, sole=True, dealt=up + d.discard, change=len(d.discard), throw=d.discard, show=True
        )

    def fixed(self, p: Exchange) -> int:
        """Cards of the seat's hand known before it shows them (the dealer's upcard; at
        the end, its discards)."""
        t = self.table
        up = 1 if p.seat == t.dealer and t.upcard in p.dealt else 0
        return up + (len(p.throw) if p.sole else 0)

    def limit(self, p: Exchange) -> int:
        """The most cards seat ``p.seat`` may change (R-DRAW), by the house's draw
        component: the state after its ``play`` with its cards shown (or, when its
        tricks will show them, cards nobody holds in their place)."""
        done = self.done
        cards = list(p.dealt)
        if p.gives_drawn:
            done, _ = self._run([*self.lines, f"dealt {p.seat}: {words(p.dealt)}"])
        elif not p.deck:
            cards += sorted(self.table.unplaced)[: self.size - len(cards)]
        assert done is not None
        return exchange_limit(done, p.seat, cards, self.size)

    def throwable(self, p: Exchange) -> set[int]:
        if p.show or p.deck:
            return set(p.dealt)
        t = self.table
        return self.unnamed() | ({t.upcard} if p.seat == t.dealer else set())

    def drawable(self, p: Exchange) -> set[int]:
        free = self.unnamed() - set(p.dealt)
        t = self.table
        if t.unseen_stock < (p.change or 0):  # the stock runs out: discards come back
            free |= set(t.pile) - set(p.throw)  # (R-RESHUFFLE)
        return free

    # -- the house's words --------------------------------------------------------------

    def cite(self, rid: str) -> str:
        """A rule id with the house's words for it."""
        texts = {r: text for _, _, (r, text) in self.house.rule_texts()}
        text = texts.get(rid)
        return f"{rid}: {text}" if text else rid
