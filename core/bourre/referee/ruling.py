"""A ruling in plain words (what ``bourre replay`` prints on a terminal): per hand, who
played, every illegal card with the rule that forbids it, who takes the pot and why,
who pays what, the next pot and who skips the ante.

The facts come from the refereed game (the hand records and the payout component's
outcome); the reasons are the house's own: a refused card in the words of the follow
rule or the cinch, every rule cited with its id and this house's text.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from bourre.game.state import PlayLog
from bourre.referee import Refereed
from bourre.referee.records import HandRecord, PartialHandRecord
from bourre.rules.cards import SUIT_NAMES, SUITS, card_symbol, parse_card, shown
from bourre.rules.money import Amount, chips, decimal

__all__ = ["ruling", "tricks_taken"]


def _amount(x: Amount) -> str:
    return chips(x)


def tricks_taken(won: Sequence[int], seats: Iterable[int]) -> str:
    """The tricks each playing seat took, in the players' words: ``2 by seat 0, none by
    seat 1``."""
    return ", ".join(f"{won[s] or 'none'} by seat {s}" for s in seats)


def _seats(seats: Sequence[int]) -> str:
    names = [f"seat {s}" for s in seats]
    if not names:
        return "nobody"
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _logs(done: Refereed, k: int) -> list[PlayLog]:
    """Every card played in hand ``k`` (0-based) as the game logged it, in order."""
    results = done.state.results
    return results[k].plays if k < len(results) else list(done.table.log().plays)


def _why_illegal(logs: list[PlayLog], rec: HandRecord | PartialHandRecord, t: int, i: int) -> str:
    """The reason (rule id and words) that forbade the ``i``-th card of trick ``t``, as
    the rule component gave it when the card was played."""
    log = logs[sum(len(rec.tricks[k].plays) for k in range(t)) + i]
    if log.why is None:
        return "not among the cards allowed"
    return f"{log.why.words} ({log.why.rule})"


def ruling(done: Refereed) -> list[str]:
    """The ruling of a refereed script, line by line."""
    texts = {rid: text for _, _, (rid, text) in done.house.rule_texts()}

    def cite(rid: str) -> str:
        return f"{rid}: {texts[rid]}" if rid in texts else rid

    lines: list[str] = [f"House {done.record.house}."]
    results = done.state.results
    for k, rec in enumerate(done.record.hands):
        lines.append("")
        up = parse_card(str(rec.upcard)) if isinstance(rec.upcard, str) else rec.upcard
        lines.append(
            f"Hand {rec.number}: seat {rec.dealer} deals; the upcard {card_symbol(up)} makes"
            f" {SUIT_NAMES[SUITS.index(rec.trump)]} trump; the pot at stake is"
            f" {_amount(rec.pot_at_stake)}."
        )
        antes = results[k].ante_reasons if k < len(results) else done.table.log().ante_reasons
        for why in antes:  # the ante component's own reasons (a hand still under way: now)
            lines.append(f"Antes: {why.words}. ({cite(why.rule)})")
        n = len(rec.tricks_won)
        deciding = isinstance(rec, PartialHandRecord) and done.state.phase_name in (
            "decide",
            "exchange",
        )
        if deciding:  # stopped during the decisions: who has decided, and how (by seat)
            chosen = done.state.hand.chosen
            said = [
                f"seat {s} {'plays' if c == 1 else 'passes'}"
                for s, c in enumerate(chosen)
                if c >= 0
            ]
            lines.append(f"Decided so far: {', '.join(said) or 'nobody'}.")
        else:
            passed = [s for s in range(n) if s not in rec.active]
            lines.append(f"Playing: {_seats(rec.active)}; passed: {_seats(passed)}.")
        logs = _logs(done, k)
        for t, trick in enumerate(rec.tricks):
            for i, p in enumerate(trick.plays):
                if p.renege:
                    lines.append(
                        f"Seat {p.seat} played {card_symbol(p.card)} in trick {t + 1}, which was"
                        f" not allowed and stood: a renege. Why: {_why_illegal(logs, rec, t, i)}."
                    )
                elif p.corrected:
                    lines.append(
                        f"Seat {p.seat} corrected an illegal card in trick {t + 1} and played"
                        f" {card_symbol(p.card)} instead (R-CORRECTED)."
                    )
        if isinstance(rec, PartialHandRecord):
            nxt = rec.next
            lines.append(
                f"The hand stops here. Seat {nxt.seat} is to act and may: "
                + ", ".join(shown(x) for x in nxt.legal)
                + ". "
                + " ".join(f"({cite(r)})" for r in nxt.rules)
            )
            continue
        out = results[k].outcome
        if len(rec.active) > 1:
            lines.append(f"Tricks taken: {tricks_taken(rec.tricks_won, rec.active)}.")
        for why in out.reasons:  # the payout component's own reasons, in its order
            lines.append(f"{why.words[0].upper()}{why.words[1:]}. ({cite(why.rule)})")
        lines.append(f"The next pot starts at {_amount(rec.pot_after)} before the antes.")
        lines.append(
            "Balances: "
            + ", ".join(f"seat {s} {decimal(b)}" for s, b in enumerate(rec.balances))
            + "."
        )
    final = done.record.final
    played, planned = len(done.record.hands), done.house.table.hands
    if final is not None and played < planned:  # a dispute, not an evening: no settlement
        lines.append("")
        lines.append(
            f"The session goes on ({played} of {planned} hands): nothing is settled yet"
            f" ({cite('R-SETTLE')}); the JSON record (bourre replay --json) holds the"
            " settlement as if it ended here."
        )
    elif final is not None:
        lines.append("")
        lines.append(
            "Settled (what was left in the pot shared equally): "
            + ", ".join(
                f"seat {s} {decimal(b)} (place {r})"
                for s, (b, r) in enumerate(zip(final.balances, final.ranks, strict=True))
            )
            + f". ({cite('R-SETTLE')})"
        )
    return lines
