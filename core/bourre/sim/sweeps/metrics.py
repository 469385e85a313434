"""The metrics a sweep can follow (``--metric``), in a module of their own so that the
command line names them without loading the sweep's records (pydantic models)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

__all__ = ["DEFAULT_METRICS", "METRICS", "Metric"]


@dataclass(frozen=True)
class Metric:
    """A figure a sweep can follow: its key in compare's statistics, its words (in
    full for a figure's title, short for a column and an axis) and its unit
    (``chips``, or ``%`` for a share)."""

    key: str
    words: str
    short: str
    unit: Literal["chips", "%"]

    def text(self, down: float) -> str:
        return self.words.format(down=f"{down:g}")

    def header(self, down: float) -> str:
        """A column heading: the short words, and the unit of a figure in chips (a
        share shows its ``%`` in each cell)."""
        return self.short.format(down=f"{down:g}") + (" (chips)" if self.unit == "chips" else "")

    @property
    def kind(self) -> str:
        """How :func:`bourre.sim.reports.table.cell` prints it."""
        if self.key in ("pot_median", "pot_p99"):
            return "quantile"
        return "percent" if self.unit == "%" else "chips"


METRICS: dict[str, Metric] = {
    "pot": Metric("pot_mean", "the pot at stake, on average", "pot on average", "chips"),
    "pot-median": Metric(
        "pot_median", "the pot that half the hands do not exceed", "half the hands, up to", "chips"
    ),
    "pot-p99": Metric(
        "pot_p99", "the pot that 1 hand in 100 reaches", "1 hand in 100 reaches", "chips"
    ),
    "bourre": Metric("bourre", "players in play who are bourré", "bourré when playing", "%"),
    "bourre-hands": Metric("bourre_hands", "hands with a bourré", "hands with a bourré", "%"),
    "down": Metric(
        "below",
        "players ending a session over {down} chips down",
        "ending over {down} chips down",
        "%",
    ),
    "swing": Metric(
        "swing", "the chips a player wins or loses in a session", "chips won or lost", "chips"
    ),
    "spread": Metric(
        "spread", "how far apart the players' chips end a session", "spread of final chips", "chips"
    ),
    "playing": Metric("playing", "players who play their hand", "players who play", "%"),
    "unopposed": Metric("sole", "hands won unopposed", "hands won unopposed", "%"),
    "carried": Metric("carried", "pots carried by a tie", "pots carried (a tie)", "%"),
    "cinch": Metric("cinch", "cards played under a cinch", "plays under a cinch", "%"),
    "dealer": Metric("dealer", "the chips the dealer wins a hand", "dealer wins a hand", "chips"),
    "edge": Metric(
        "dealer_edge",
        "what dealing is worth a hand over the other places",
        "dealer's edge",
        "chips",
    ),
}
"""The metrics of ``--metric``, by the name given on the command line."""

DEFAULT_METRICS = ("pot", "bourre", "down")
