"""A ruling in plain words (what ``bourre replay`` prints on a terminal): per hand, who
played, every illegal card with the rule that forbids it, who takes the pot and why,
who pays what, the next pot and who skips the ante.

The facts come from the refereed game (the hand records and the payout component's
outcome); the reasons are the house's own: a refused card in the words of the follow
rule or the cinch, every rule cited with its id and this house's text.
"""

from __future__ import annotations

from collections.abc import Sequence

from bourre.cards import SUIT_NAMES, SUITS, card_symbol, mask_of, parse_card
from bourre.money import Amount, amount_json
from bourre.records import HandRecord, PartialHandRecord
from bourre.referee import Refereed
from bourre.rules import refuse_card

__all__ = ["ruling"]


def _amount(x: Amount) -> str:
    v = amount_json(x)
    return f"{v} chip" if v == 1 else f"{v} chips"


def _seats(seats: Sequence[int]) -> str:
    names = [f"seat {s}" for s in seats]
    if not names:
        return "nobody"
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _why_illegal(done: Refereed, rec: HandRecord | PartialHandRecord, t: int, i: int) -> str:
    """The rule (and its words) that forbade the ``i``-th card of trick ``t``."""
    play = rec.tricks[t].plays[i]
    rules = done.house.rules
    trump = SUITS.index(rec.trump)
    card = play.card if not play.corrected else None
    hand = list(rec.hands_after_draw[play.seat])
    for k in range(t + 1):
        for j, p in enumerate(rec.tricks[k].plays):
            if (k, j) >= (t, i):
                break
            if p.seat == play.seat:
                hand.remove(p.card)
    trick = [p.card for p in rec.tricks[t].plays[:i]]
    legal = list(play.legal)
    tried = card if card is not None else next((c for c in hand if c not in legal), None)
    if tried is None or tried not in hand:
        return "not among the cards allowed"
    e = refuse_card(rules, mask_of(hand), trick, trump, tried, mask_of(legal))
    return f"{e.reason} ({e.rule})"


def ruling(done: Refereed) -> list[str]:
    """The ruling of a refereed script, line by line."""
    texts = {rid: text for _, _, (rid, text) in done.house.rule_texts()}

    def cite(rid: str) -> str:
        return f"{rid}: {texts[rid]}" if rid in texts else rid

    answering = done.house.answered_by.get("bourre_penalty")
    penalty_texts = answering.rule_texts("bourre_penalty") if answering is not None else []
    bourre_rule = penalty_texts[0][0] if penalty_texts else "R-BOURRE"
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
        n = len(rec.tricks_won)
        passed = [s for s in range(n) if s not in rec.active]
        lines.append(f"Playing: {_seats(rec.active)}; passed: {_seats(passed)}.")
        for t, trick in enumerate(rec.tricks):
            for i, p in enumerate(trick.plays):
                if p.renege:
                    lines.append(
                        f"Seat {p.seat} played {card_symbol(p.card)} in trick {t + 1}, which was"
                        f" not allowed and stood: a renege. Why: {_why_illegal(done, rec, t, i)}."
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
                + ", ".join(nxt.legal)
                + ". "
                + " ".join(f"({cite(r)})" for r in nxt.rules)
            )
            continue
        out = results[k].outcome
        won = ", ".join(f"seat {s} {rec.tricks_won[s]}" for s in rec.active)
        if len(rec.active) > 1:
            lines.append(f"Tricks: {won}.")
        if len(rec.active) == 1:
            lines.append(
                f"Seat {rec.active[0]} is the only player and takes the pot of"
                f" {_amount(rec.pot_at_stake)} without play. ({cite('R-SOLE')})"
            )
        elif rec.winner is not None:
            lines.append(
                f"Seat {rec.winner} takes the pot of {_amount(out.takes[rec.winner])}"
                f" with {rec.tricks_won[rec.winner]} tricks. ({cite('R-WIN')})"
            )
        elif out.tied:
            lines.append(
                f"{_seats(sorted(out.tied)).capitalize()} tie for the most tricks: nobody"
                f" takes the pot, and {_amount(rec.pot_at_stake)} carries. ({cite('R-WIN')})"
            )
        else:
            lines.append(
                "The most tricks went to a player who lost the right to the pot: it"
                f" carries. ({cite('R-CORRECTED')})"
            )
        for s in range(n):
            if not out.paid[s]:
                continue
            why = []
            if s in rec.bourre:
                why.append("bourré (no trick)")
            if s in rec.reneges:
                why.append("reneged")
            rule = bourre_rule if s in rec.bourre else "R-RENEGE"
            lines.append(
                f"Seat {s} is {' and '.join(why)} and pays {_amount(out.paid[s])} into the"
                f" next pot. ({cite(rule)})"
            )
        lines.append(f"The next pot starts at {_amount(rec.pot_after)} before the antes.")
        if out.ante_exempt and k + 1 < len(done.record.hands):
            lines.append(
                f"No ordinary ante next hand for {_seats(sorted(out.ante_exempt))}."
                f" ({cite('R-ANTE')})"
            )
        lines.append(
            "Balances: "
            + ", ".join(f"seat {s} {amount_json(b)}" for s, b in enumerate(rec.balances))
            + "."
        )
    final = done.record.final
    if final is not None:
        lines.append("")
        lines.append(
            "Settled (what was left in the pot shared equally): "
            + ", ".join(
                f"seat {s} {amount_json(b)} (place {r})"
                for s, (b, r) in enumerate(zip(final.balances, final.ranks, strict=True))
            )
            + f". ({cite('R-SETTLE')})"
        )
    return lines
