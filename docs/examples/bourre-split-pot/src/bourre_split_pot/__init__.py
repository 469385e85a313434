"""``split-pot``: a tie for the most tricks splits the pot instead of carrying it.

A common house rule that the documented profile (RULES.md R-WIN) does not play: when
two or more players tie for the most tricks, the pot at stake P is divided equally
among them, as exact fractions (R-SPLIT-POT).  Everything else is the standard payout,
which this plugin reuses and adjusts.

Decisions taken here (see README.md):

- ``winner`` stays ``None`` for a split (nobody took the whole pot); the shares are in
  :attr:`bourre.rules.HandOutcome.takes`, one amount per seat.
- A tied player who lost the right to the pot (R-CORRECTED, R-RENEGE) gets no share:
  that share carries into the next pot, and that player keeps the ordinary tie
  exemption from the next ante.
- Players who took a share are *not* exempt from the next ante: they won money, and the
  R-ANTE exemption only compensates a pot that carried (R-SPLIT-ANTE).  Bourré players
  stay exempt as usual.
- Setting ``min_tricks`` (default 1): the pot is split only when the tied players have at
  least that many tricks each; a smaller tie carries as in R-WIN.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

from pydantic import BaseModel, ConfigDict, Field

from bourre.rules import HandOutcome, PlayResult, Reason
from bourre.rules.hookspec import PayoutFn, PenaltyFn
from bourre.rules.money import Amount, chips, whole
from bourre.rules.settings import TableSettings
from bourre.rules.variant import Variant, hookimpl
from bourre_variants.standard.payout import payout as standard_payout
from bourre_variants.standard.payout import seats

__all__ = ["SplitPot", "SplitPotSettings", "make_payout"]
__version__ = "0.1.0"


class SplitPotSettings(BaseModel):
    """The settings of ``split-pot`` (``split-pot(min_tricks=2)`` in a house string)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    min_tricks: int = Field(
        1,
        ge=1,
        le=26,
        description="Split only a tie of at least this many tricks each; smaller ties carry.",
    )


def make_payout(min_tricks: int = 1) -> PayoutFn:
    """The standard payout (R-WIN, R-SOLE, R-BOURRE, R-RENEGE, R-CORRECTED), except that
    a tie for the most tricks of at least ``min_tricks`` splits P (R-SPLIT-POT)."""

    def split_payout(result: PlayResult, penalty: PenaltyFn) -> HandOutcome:
        out = standard_payout(result, penalty)
        if not out.tied or result.tricks_won[out.tied[0]] < min_tricks:
            return out  # no tie, or a tie too small to split: the standard outcome
        share = Fraction(result.pot_at_stake) / len(out.tied)
        takes = list(out.takes)
        exempt = set(out.ante_exempt)
        taken: Amount = 0
        sharing = []
        for seat in out.tied:
            if seat in result.forfeits:
                continue  # lost the right to the pot: the share carries, the exemption stays
            takes[seat] = whole(share)
            taken += share
            sharing.append(seat)
            exempt.discard(seat)  # R-SPLIT-ANTE: a player who took a share antes
        if not taken:
            return out  # every tied player forfeited: the whole pot carries
        why = f"{seats(out.tied)} tied for the most tricks and split the pot: {chips(whole(share))} each"
        reasons = [Reason("R-SPLIT-POT", why, whole(taken), tuple(sharing))]
        reasons += [r for r in out.reasons if r.rule not in ("R-WIN", "R-ANTE")]
        if exempt:  # the standard exemptions, less the players who took a share
            verb = "skips" if len(exempt) == 1 else "skip"
            words = (
                f"{seats(sorted(exempt))} {verb} the next hand's ante (bourré, or tied, no share)"
            )
            reasons.append(Reason("R-SPLIT-ANTE", words, 0, tuple(sorted(exempt))))
        return HandOutcome(
            winner=None,
            takes=takes,
            paid=out.paid,
            pot_after=whole(out.pot_after - taken),
            bourre=out.bourre,
            reneges=out.reneges,
            ante_exempt=frozenset(exempt),
            tied=(),
            reasons=tuple(reasons),
        )

    return split_payout


class SplitPot(Variant):
    """A tie for the most tricks splits the pot equally among the tied players."""

    name = "split-pot"
    summary = (
        "A tie for the most tricks splits the pot equally (exact fractions) instead of carrying."
    )
    builds_on = ("standard",)
    Settings = SplitPotSettings
    rules = {
        "bourre_payout": [
            (
                "R-WIN",
                "The single player with the most tricks takes the pot P.",
            ),
            (
                "R-SPLIT-POT",
                "If two or more players tie for the most tricks with at least"
                " {settings.min_tricks} each, P is split equally among them as exact fractions"
                " and nothing of it carries; nobody is the winner. A smaller tie carries all of P"
                " to the next hand.",
            ),
            (
                "R-SPLIT-ANTE",
                "Players who took a share pay the next ordinary ante; the bourré are exempt as"
                " usual, and so is a tied player whose share carried.",
            ),
            (
                "R-BOURRE",
                "Each active player with 0 tricks is bourré and pays a penalty into the next pot.",
            ),
            ("R-RENEGE", "Each renege (an illegal card not corrected in time) costs a penalty."),
            (
                "R-CORRECTED",
                "A player who corrected an illegal card, or reneged, loses the right to the pot"
                " and their next turn to deal; if they have the single most tricks the pot"
                " carries, and if they are tied for the most their share carries.",
            ),
            (
                "R-BOURRE-POT",
                "Zero-trick and renege payments form the next pot, after P is taken or shared.",
            ),
        ]
    }

    @hookimpl
    def bourre_payout(self, table: TableSettings) -> PayoutFn:
        return make_payout(self.settings.min_tricks)  # type: ignore[attr-defined]


@hookimpl
def bourre_register_variants(register: Callable[[type[Variant]], None]) -> None:
    register(SplitPot)
