"""A ruling a table reads at a glance, for ``bourre replay --words`` and the pages of
``bourre serve`` alike (:func:`ruling_of`, one function for both front ends).

Each hand gives, in this order:

1. **the summary**: who takes the pot or why it carries, who pays what into the next
   pot, the next pot, who deals next and who lost the deal and why (R-WIN, R-BOURRE,
   R-RENEGE, R-CORRECTED, R-PREMATURE, R-DEALER);
2. **each seat's line**, in players' words: passed or played, its tricks, a card the
   rules forbade (with the rule's words for that trick), what it takes or pays, a lost
   turn to deal, an announcement out of turn (R-PREMATURE);
3. **the rules behind it**, by id; their texts are given once, apart (the terminal
   lists them under "Rules" at the end, a page behind a disclosure).

The facts come from the hand records (:mod:`bourre.referee.records`, unchanged), the
payout component's outcome (the chips each seat takes and pays, and the rule ids of
its reasons) and the table's events (the announcements out of turn); who deals next
is the house's next-dealer component's answer.  Nothing here restates a rule.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from pydantic import BaseModel, ConfigDict

from bourre.game.state import PlayLog
from bourre.referee import Refereed
from bourre.referee.records import HandRecord, PartialHandRecord
from bourre.rules import HandOutcome
from bourre.rules.cards import SUIT_NAMES, SUITS, card_symbol, parse_card, shown
from bourre.rules.hookspec import NEXT_DEALER
from bourre.rules.money import Amount, chips
from bourre.rules.person import of_seat

__all__ = ["HandRuling", "Ruling", "chips", "next_deal", "ruling", "ruling_of", "tricks_taken"]

_FROZEN = ConfigDict(frozen=True, extra="forbid")

_LABEL = {
    "R-BOURRE": "bourré",
    "R-RENEGE": "a renege",
    "R-CORRECTED": "a card taken back",
    "R-PREMATURE": "announced out of turn",
}
"""How a table names the rule behind a payment or a lost deal."""


class HandRuling(BaseModel):
    """One hand's ruling: its opening line, the summary, each seat's line and the ids
    of the rules behind it (in the order first cited)."""

    model_config = _FROZEN
    number: int
    opening: str
    """Who deals (and who lost the deal), trump, the pot at stake, the antes."""
    summary: tuple[str, ...]
    seats: tuple[str, ...]
    rules: tuple[str, ...]
    over: bool
    """Whether the hand is over (else it stopped part-way: who acts next)."""


class Ruling(BaseModel):
    """A refereed script's ruling, hand by hand, then the end of the session; the
    house's text of each rule cited, once."""

    model_config = _FROZEN
    house: str
    hands: tuple[HandRuling, ...]
    end: tuple[str, ...]
    """The settlement, or why nothing is settled yet (R-SETTLE)."""
    texts: tuple[tuple[str, str], ...]
    """``(rule id, the house's text)`` of every rule cited, each once, in order."""

    def texts_of(self, ids: Iterable[str]) -> list[tuple[str, str]]:
        """The texts of the rules ``ids`` (those this house has), in this ruling's order."""
        wanted = set(ids)
        return [(rid, text) for rid, text in self.texts if rid in wanted]


def tricks_taken(won: Sequence[int], seats: Iterable[int]) -> str:
    """The tricks each playing seat took, in the players' words: ``2 by seat 0, none by
    seat 1``."""
    return ", ".join(f"{won[s] or 'none'} by seat {s}" for s in seats)


def _who(seats: Sequence[int]) -> str:
    """``seat 1``, ``seats 1 and 3``, ``seats 0, 1 and 3``."""
    if len(seats) == 1:
        return f"seat {seats[0]}"
    names = [str(s) for s in seats]
    return "seats " + ", ".join(names[:-1]) + " and " + names[-1]


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _tricks(k: int) -> str:
    return "no trick" if k == 0 else "1 trick" if k == 1 else f"{k} tricks"


def _ids(ids: Iterable[str]) -> str:
    return ", ".join(dict.fromkeys(ids))


def _logs(done: Refereed, k: int) -> list[PlayLog]:
    """Every card played in hand ``k`` (0-based) as the game logged it, in order."""
    results = done.state.results
    return results[k].plays if k < len(results) else list(done.table.log().plays)


class _Deals:
    """The lost turns to deal, followed hand by hand (R-CORRECTED, R-RENEGE,
    R-PREMATURE): each seat's pending mark and the rules that set it.  Who deals next
    is the house's next-dealer component's answer; the marks it clears are the seats
    that lost the deal."""

    def __init__(self, done: Refereed) -> None:
        self.n = done.house.table.players
        self.next_dealer = done.house.rules[NEXT_DEALER]
        self.why: dict[int, list[str]] = {}

    def _marks(self) -> list[bool]:
        return [s in self.why for s in range(self.n)]

    def after(self, dealer: int) -> tuple[int, list[int]]:
        """Who deals after ``dealer`` with the marks now, and the seats skipped."""
        marks = self._marks()
        nxt = self.next_dealer(dealer, marks)
        return nxt, [s for s in range(self.n) if s in self.why and not marks[s]]

    def deal(self, prev: int | None, dealer: int) -> list[tuple[int, list[str]]]:
        """Hand dealt by ``dealer`` after one dealt by ``prev``: the seats that lost the
        deal, each with its rules, their marks used up (a dealer named by the table
        uses none)."""
        if prev is None:
            return []
        nxt, skipped = self.after(prev)
        if nxt != dealer:
            return []
        return [(s, self.why.pop(s)) for s in skipped]

    def mark(self, seat: int, rule: str) -> None:
        self.why.setdefault(seat, [])
        if rule not in self.why[seat]:
            self.why[seat].append(rule)

    def hand_over(self, rec: HandRecord, premature: Iterable[int]) -> set[int]:
        """A hand over: each seat that reneged (R-RENEGE) or took a card back
        (R-CORRECTED), and each that announced out of turn (R-PREMATURE), loses its
        next turn to deal.  The seats that lost the right to the pot are returned."""
        corrected = {p.seat for t in rec.tricks for p in t.plays if p.corrected}
        forfeits = set(rec.reneges) | corrected
        for s in sorted(forfeits):
            self.mark(s, "R-RENEGE" if s in rec.reneges else "R-CORRECTED")
        for s in premature:
            self.mark(s, "R-PREMATURE")
        return forfeits


class _Hand:
    """The ruling of one hand, line by line, and the rules it cites."""

    def __init__(self) -> None:
        self.rules: list[str] = []

    def cite(self, *ids: str) -> str:
        for rid in ids:
            if rid not in self.rules:
                self.rules.append(rid)
        return f"({_ids(ids)})"

    def lost(self, seats: list[tuple[int, list[str]]], verb: str = "lost the deal") -> str:
        """``seat 1 lost the deal (R-PREMATURE)``, for each seat with its rules."""
        return "; ".join(f"seat {s} {verb} {self.cite(*rules)}" for s, rules in seats)


def _payments(out: HandOutcome, n: int) -> dict[int, list[str]]:
    """For each seat that pays into the next pot, the rules it pays by (the payout's
    reasons that name it with an amount)."""
    why: dict[int, list[str]] = {}
    for r in out.reasons:
        if r.amount and len(r.seats) >= 1 and r.rule != "R-WIN":
            for s in r.seats:
                if 0 <= s < n and out.paid[s]:
                    why.setdefault(s, [])
                    if r.rule not in why[s]:
                        why[s].append(r.rule)
    return why


def _pot_line(h: _Hand, rec: HandRecord, out: HandOutcome, forfeits: set[int]) -> str:
    """Who takes the pot, or why it carries (R-WIN, R-SOLE, R-CORRECTED)."""
    rules_of = [r.rule for r in out.reasons if not r.seats or out.winner in r.seats]
    pot = chips(rec.pot_at_stake)
    if out.winner is not None:
        s = out.winner
        if len(rec.active) == 1:
            rid = "R-SOLE" if "R-SOLE" in rules_of else "R-WIN"
            return f"Seat {s} plays alone and takes the pot: {pot}. {h.cite(rid)}"
        took = chips(out.takes[s])
        return (
            f"Seat {s} takes the pot: {took}, with {_tricks(rec.tricks_won[s])}. {h.cite('R-WIN')}"
        )
    takers = [s for s in range(len(out.takes)) if out.takes[s]]
    if takers:  # nobody took the whole pot, but some share it (a house's payout)
        shares = ", ".join(f"seat {s} {chips(out.takes[s])}" for s in takers)
        ids = [r.rule for r in out.reasons if set(r.seats) & set(takers) and r.amount]
        cite = f" {h.cite(*ids)}" if ids else ""
        return f"{_cap(_who(takers))} share the pot of {pot}: {shares}.{cite}"
    if out.tied:
        most = rec.tricks_won[out.tied[0]]
        return (
            f"{_cap(_who(sorted(out.tied)))} tie with {_tricks(most)}: nobody takes the"
            f" pot, and its {pot} carry to the next hand. {h.cite('R-WIN')}"
        )
    most = max((rec.tricks_won[s] for s in rec.active), default=0)
    top = [s for s in rec.active if rec.tricks_won[s] == most]
    if len(top) == 1 and top[0] in forfeits:
        rid = "R-RENEGE" if top[0] in out.reneges else "R-CORRECTED"
        return (
            f"Seat {top[0]} took the most tricks ({most}) but lost the right to the pot:"
            f" its {pot} carry to the next hand. {h.cite(rid)}"
        )
    why = [r for r in out.reasons if r.amount == 0 or not r.seats]
    if why:
        return f"Nobody takes the pot: {why[0].words}. {h.cite(why[0].rule)}"
    return f"Nobody takes the pot: its {pot} carry to the next hand."


def _who_pays(h: _Hand, out: HandOutcome, paying: dict[int, list[str]]) -> str:
    """Who pays what into the next pot, by the rules it pays by."""
    groups: dict[tuple[Amount, tuple[str, ...]], list[int]] = {}
    for s in sorted(paying):
        groups.setdefault((out.paid[s], tuple(paying[s])), []).append(s)
    parts = []
    for (amount, rules), ss in groups.items():
        label = " and ".join(_LABEL.get(r, r) for r in rules)
        each = " each" if len(ss) > 1 else ""
        verb = "pay" if len(ss) > 1 else "pays"
        why = f" ({label})" if label else ""
        parts.append(f"{_who(ss)} {verb} {chips(amount)}{each}{why}")
    ids = sorted({r for rs in paying.values() for r in rs}, key=_order)
    cite = f" {h.cite(*ids)}" if ids else ""
    return f"Into the next pot: {'; '.join(parts)}.{cite}"


_ORDER = ("R-WIN", "R-SOLE", "R-BOURRE", "R-RENEGE", "R-CORRECTED", "R-PREMATURE")


def _order(rid: str) -> int:
    return _ORDER.index(rid) if rid in _ORDER else len(_ORDER)


def _in_order(h: _Hand, *lines: str) -> tuple[str, ...]:
    """The rules a hand cites, in the order its lines cite them (the opening, the
    summary, the seats)."""
    text = " ".join(lines)

    def first(rid: str) -> int:
        m = re.search(rf"{re.escape(rid)}(?![A-Z-])", text)
        return m.start() if m else len(text)

    return tuple(sorted(h.rules, key=first))


def _hand_ruling(done: Refereed, k: int, deals: _Deals, last: bool) -> HandRuling:
    rec = done.record.hands[k]
    results = done.state.results
    h = _Hand()
    up = parse_card(str(rec.upcard)) if isinstance(rec.upcard, str) else rec.upcard
    prev = done.record.hands[k - 1].dealer if k else None
    lost = deals.deal(prev, rec.dealer)
    dealt = f"Seat {rec.dealer} deals"
    if lost:
        dealt += ": " + h.lost(lost)
    antes = results[k].ante_reasons if k < len(results) else done.table.log().ante_reasons
    ante = " ".join(f"{_cap(a.words)}. {h.cite(a.rule)}" for a in antes)
    opening = (
        f"Hand {rec.number}. {dealt}; {card_symbol(up)} makes"
        f" {SUIT_NAMES[SUITS.index(rec.trump)]} trump; {chips(rec.pot_at_stake)} in the pot."
        + (f" {ante}" if ante else "")
    )
    n = len(rec.tricks_won)
    premature = done.premature[k] if k < len(done.premature) else ()
    logs = _logs(done, k)
    # each seat's plays that the rules forbade: reneges and cards taken back
    faults: dict[int, list[str]] = {}
    forfeits: set[int] = set()
    i = 0
    for t, trick in enumerate(rec.tricks):
        for p in trick.plays:
            log = logs[i]
            i += 1
            why = (
                f" ({of_seat(log.why.words)}: {h.cite(log.why.rule)[1:]}"
                if log.why is not None
                else ""
            )
            if p.renege:
                forfeits.add(p.seat)
                faults.setdefault(p.seat, []).append(
                    f"reneged in trick {t + 1}: {card_symbol(p.card)} was not allowed{why}"
                    " and it stood"
                )
            elif p.corrected:
                forfeits.add(p.seat)
                first = card_symbol(log.played_first) if log.played_first is not None else "a card"
                faults.setdefault(p.seat, []).append(
                    f"took back {first} in trick {t + 1}, which was not allowed{why},"
                    f" and played {card_symbol(p.card)} instead"
                )
    summary: list[str] = []
    seats: list[str] = []
    if isinstance(rec, PartialHandRecord):
        nxt = rec.next
        summary.append(
            f"The hand stops here: seat {nxt.seat} is to act and may: "
            + ", ".join(shown(x) for x in nxt.legal)
            + f". {h.cite(*nxt.rules)}"
        )
        deciding = done.state.phase_name in ("decide", "exchange")
        chosen = done.state.hand.chosen if deciding else ()
        for s in range(n):
            parts: list[str] = []
            if deciding:
                c = chosen[s]
                parts.append("plays" if c == 1 else "passes" if c == 0 else "has not decided")
            elif s in rec.active:
                parts.append(f"plays, {_tricks(rec.tricks_won[s])} so far")
            else:
                parts.append("passed")
            parts += faults.get(s, [])
            if s in premature:
                parts.append(
                    f"announced out of turn: it loses its next deal {h.cite('R-PREMATURE')}"
                )
            seats.append(f"Seat {s} " + "; ".join(parts) + ".")
        return HandRuling(
            number=rec.number,
            opening=opening,
            summary=tuple(summary),
            seats=tuple(seats),
            rules=_in_order(h, opening, *summary, *seats),
            over=False,
        )
    out = results[k].outcome
    summary.append(_pot_line(h, rec, out, forfeits))
    paying = _payments(out, n)
    unexplained = [s for s in range(n) if out.paid[s] and s not in paying]
    for s in unexplained:
        paying[s] = []
    if paying:
        summary.append(_who_pays(h, out, paying))
    else:
        summary.append("Nobody pays into the next pot.")
    summary.append(f"The next pot: {chips(out.pot_after)}, before the antes.")
    deals.hand_over(rec, premature)
    played, planned = len(done.record.hands), done.house.table.hands
    ends = last and played >= planned
    if ends:
        summary.append("That was the session's last hand: nobody deals next.")
    else:
        nxt_dealer, skipped = deals.after(rec.dealer)
        said = f"Seat {nxt_dealer} deals next"
        if skipped:
            said += ": " + h.lost([(s, deals.why[s]) for s in skipped], "loses the deal")
        pending = [(s, rs) for s, rs in sorted(deals.why.items()) if s not in skipped]
        if pending:
            said += "; " + h.lost(pending, "loses its next turn to deal")
        summary.append(said + ".")
    for s in range(n):
        parts = []
        if s not in rec.active:
            parts.append("passed")
        elif len(rec.active) == 1:
            parts.append("played alone")
        else:
            parts.append(f"played and took {_tricks(rec.tricks_won[s])}")
        parts += faults.get(s, [])
        if out.takes[s]:
            parts.append(f"takes {chips(out.takes[s])}")
        if out.paid[s]:
            label = " and ".join(_LABEL.get(r, r) for r in paying.get(s, []))
            why = f": {label} {h.cite(*paying[s])}" if paying.get(s) else ""
            parts.append(f"pays {chips(out.paid[s])} into the next pot{why}")
        later = " (the session is over)" if ends else ""
        if s in forfeits:
            rid = "R-RENEGE" if s in out.reneges else "R-CORRECTED"
            lose = [rid, "R-PREMATURE"] if s in premature else [rid]
            if s in premature:
                parts.append(f"announced out of turn {h.cite('R-PREMATURE')}")
            parts.append(f"loses the right to the pot and its next deal{later} {h.cite(*lose)}")
        elif s in premature:
            parts.append(
                f"announced out of turn: it loses its next deal{later} {h.cite('R-PREMATURE')}"
            )
        parts.append(f"now holds {chips(rec.balances[s])}")
        seats.append(f"Seat {s} " + "; ".join(parts) + ".")
    return HandRuling(
        number=rec.number,
        opening=opening,
        summary=tuple(summary),
        seats=tuple(seats),
        rules=_in_order(h, opening, *summary, *seats),
        over=True,
    )


def next_deal(done: Refereed) -> tuple[int, list[tuple[int, tuple[str, ...]]]]:
    """After the hands ``done`` refereed, the last one over: who deals next (the
    house's next-dealer component), and the seats the deal skips, each with the rules
    that cost it its turn (R-CORRECTED, R-RENEGE, R-PREMATURE)."""
    deals = _Deals(done)
    prev: int | None = None
    for k, rec in enumerate(done.record.hands):
        assert isinstance(rec, HandRecord), "the hands before the next deal are over"
        deals.deal(prev, rec.dealer)
        deals.hand_over(rec, done.premature[k] if k < len(done.premature) else ())
        prev = rec.dealer
    assert prev is not None
    dealer, skipped = deals.after(prev)
    return dealer, [(s, tuple(deals.why[s])) for s in skipped]


def ruling_of(done: Refereed) -> Ruling:
    """The ruling of a refereed script: each hand's summary and seats' lines, the end
    of the session, and the house's text of each rule cited, once.  Both the terminal
    (:func:`ruling`) and the pages of ``bourre serve`` render it."""
    texts = {rid: text for _, _, (rid, text) in done.house.rule_texts()}
    deals = _Deals(done)
    count = len(done.record.hands)
    hands = [_hand_ruling(done, k, deals, last=k == count - 1) for k in range(count)]
    end: list[str] = []
    cited = [r for hr in hands for r in hr.rules]
    final = done.record.final
    played, planned = count, done.house.table.hands
    if final is not None and played < planned:  # a dispute, not an evening: no settlement
        end.append(
            f"The session goes on ({played} of {planned} hands): nothing is settled yet. (R-SETTLE)"
        )
        cited.append("R-SETTLE")
    elif final is not None:
        end.append(
            "Settled, what was left in the pot shared equally: "
            + ", ".join(
                f"seat {s} {chips(b)} (place {r})"
                for s, (b, r) in enumerate(zip(final.balances, final.ranks, strict=True))
            )
            + ". (R-SETTLE)"
        )
        cited.append("R-SETTLE")
    order = list(dict.fromkeys(cited))
    return Ruling(
        house=done.record.house,
        hands=tuple(hands),
        end=tuple(end),
        texts=tuple((rid, texts[rid]) for rid in order if rid in texts),
    )


def ruling(done: Refereed) -> list[str]:
    """The ruling of a refereed script for a terminal, line by line: each hand's
    opening, its summary, each seat's line, then the texts of the rules cited, each
    once, under "Rules"."""
    r = ruling_of(done)
    lines: list[str] = [f"House {r.house}."]
    for hr in r.hands:
        lines += ["", hr.opening]
        lines += [f"  {x}" for x in hr.summary]
        lines += [f"  - {x}" for x in hr.seats]
    if r.end:
        lines += ["", *r.end]
        if done.record.final is not None and len(r.hands) < done.house.table.hands:
            lines.append("(bourre replay --json holds the settlement as if it ended here.)")
    if r.texts:
        lines += ["", "Rules:"]
        lines += [f"  {rid}: {text}" for rid, text in r.texts]
    return lines
