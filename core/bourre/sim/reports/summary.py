"""The plain-words summary of one house: a few sentences that answer a card player's
questions (how big pots get, how often someone is bourré and the pot carries, the
chance of a bad session, the dealer's edge, how much a session swings), each figure
with its ± (:mod:`bourre.sim.reports.fmt`).  Shared by the terminal, the HTML report and
``bourre sweep``."""

from __future__ import annotations

from typing import Any

from bourre.sim.reports import fmt
from bourre.sim.reports.skill import summary_line

__all__ = ["summary_lines"]


def _quantile(iv: Any) -> tuple[str, str]:
    """A pot quantile and its range in words (empty when it has none)."""
    if not isinstance(iv, dict) or iv.get("mean") is None:
        return fmt.DASH, ""
    lo, hi = iv.get("lo"), iv.get("hi")
    rng = "" if lo is None or hi is None or lo == hi else f" ({fmt.chips(lo)}–{fmt.chips(hi)})"
    return fmt.chips(iv["mean"]), rng


def _mean(iv: Any) -> float | None:
    return iv.get("mean") if isinstance(iv, dict) else None


def summary_lines(house: dict[str, Any]) -> list[str]:
    """Sentences about one house of :func:`bourre.sim.stats.metrics.compute`'s
    ``houses`` (plain text, no markup)."""
    if not house.get("sessions") or "pot_mean" not in house:
        return ["No session of this house was completed."]
    med, med_rng = _quantile(house.get("pot_median"))
    p99, p99_rng = _quantile(house.get("pot_p99"))
    lines = [
        f"Pots: half the hands are played for {med} chips or less{med_rng}, 1 hand in 100"
        f" for {p99} or more{p99_rng}; {fmt.value(house['pot_mean'])} on average.",
        f"Someone is bourré in {fmt.value(house['bourre_hands'], 'percent')} of hands;"
        f" the pot carries (a tie) in {fmt.value(house['carried'], 'percent')}.",
    ]
    start = house.get("start_balance")
    below = house.get("below_balance")
    if below is not None:
        if _mean(house["below"]) == 0:  # 0% would hide how little was seen
            of = f" of their {fmt.chips(start)}" if start is not None else ""
            n = house["sessions"]
            lines.append(
                f"No player ended a session with fewer than {fmt.chips(below)}{of} chips"
                f" (in {n} session{'s' if n != 1 else ''})."
            )
        else:
            of = f" of one's {fmt.chips(start)}" if start is not None else ""
            lines.append(
                f"Chance of ending a session with fewer than {fmt.chips(below)}{of} chips:"
                f" {fmt.value(house['below'], 'percent')}."
            )
    pos = house.get("position") or []
    others = [m for m in (_mean(iv) for iv in pos[1:]) if m is not None]
    if "dealer_edge" in house and others:
        lines.append(
            f"Dealing is worth {fmt.value(house['dealer_edge'])} chips a hand over the other"
            f" places (the dealer {fmt.value(house['dealer'], sign=True)}, the others"
            f" {fmt.chips(sum(others) / len(others), sign=True)} each: what they lose stays"
            " in the pot)."
        )
    if "swing" in house:
        hands = house.get("hands_per_session")
        lines.append(
            f"A session{f' of {hands} hands' if hands else ''} moves a player's chips by"
            f" {fmt.value(house['swing'])} on average, up or down."
        )

    skill = summary_line(house)  # --skill
    if skill:
        lines.append(skill)
    return lines
