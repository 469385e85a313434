"""Figures of a comparison (matplotlib, Agg backend), each with the caption that says
how to read it (:data:`FIGURES`: one source for ``--plot``, the HTML report and the
docs).  Every axis is in chips or per cent; houses keep their name and colour in
every figure; each figure carries the run (sessions, seed, bots) in its title.

``pot_chance``, ``pot_growth``, ``balance_path``, ``balance_spread`` and
``money_by_place``; :func:`plot` writes them as PNG and SVG, :func:`figures` makes
them for the report.  matplotlib is imported here only.  The figures take bounded
data from one pass over the run's sessions (:func:`sample`): every pot's value in a
histogram, and the first :data:`SAMPLE` sessions of each house for the balances.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bourre.sim.reports.labels import coverage, house_label, title
from bourre.sim.reports.table import position_label
from bourre.sim.stats.metrics import start_balance

__all__ = ["FIGURES", "FigureSpec", "figures", "plot"]

Summaries = dict[str, list[dict[str, Any]]]

SAMPLE = 5000
"""The figures of balances draw the first this many sessions of each house (the same
decks in every house): a bounded sample, whatever the number of sessions."""


class Sample(dict[str, list[dict[str, Any]]]):
    """The sessions the figures draw, by house (the first :data:`SAMPLE` of each),
    and the histogram of every pot of each house (``pots``)."""

    def __init__(self) -> None:
        super().__init__()
        self.pots: dict[str, Counter[float]] = {}


def sample(result: Any, houses: list[str], size: int = SAMPLE) -> Sample:
    """One pass over the sessions of ``result`` (streamed): the first ``size`` of each
    house in session order, and every pot's value counted."""
    out = Sample()
    for h in houses:
        out[h] = []
        out.pots[h] = Counter()
    for h, s in result.entries(houses):
        out.pots[h].update(s["pot"])
        if s["i"] < size:
            out[h].append(s)
    for h in houses:
        out[h].sort(key=lambda s: s["i"])
    return out


@dataclass(frozen=True)
class FigureSpec:
    """A figure: its file name, its title, how to read it, and how to draw it."""

    name: str
    title: str
    caption: str
    draw: Callable[[Any, Summaries, dict[str, Any], str], None]
    """``draw(figure, summaries by house, metrics, subtitle)``"""


def _houses(metrics: dict[str, Any]) -> list[tuple[str, str, str]]:
    """(spec, label, colour) of each house, in the table's order."""
    return [(h["house"], house_label(h["house"]), f"C{j}") for j, h in enumerate(metrics["houses"])]


def _finish(ax: Any, heading: str, sub: str, legend: bool = True) -> None:
    ax.set_title(f"{heading}\n{sub}", fontsize=10)
    if legend:
        ax.legend(fontsize=8, title="house")
    ax.grid(alpha=0.3)


# -- the chance that the pot at stake exceeds X ---------------------------------------

POT_CHANCE = (
    "Pick a pot on the bottom axis: the height of a house's line is the share of hands"
    " played for more than that many chips. A line further right means bigger pots. The"
    " legend gives the pot that half the hands do not exceed and the pot that 1 hand in"
    " 100 reaches; the axis stops a little past the largest of those, where the lines are"
    " near zero."
)


def _pot_chance(fig: Any, by: Summaries, metrics: dict[str, Any], sub: str) -> None:
    ax = fig.add_subplot()
    tops = []
    for spec, label, colour in _houses(metrics):
        hist = (
            by.pots[spec]
            if isinstance(by, Sample)
            else Counter(p for s in by[spec] for p in s["pot"])
        )
        total = sum(hist.values())
        if not total:
            continue
        xs = sorted(hist)
        ys, at_most = [], 0
        for x in xs:  # every pot of the run, from its histogram
            at_most += hist[x]
            ys.append(100 * (total - at_most) / total)
        m = next(h for h in metrics["houses"] if h["house"] == spec)
        med, p99 = m["pot_median"]["mean"], m["pot_p99"]["mean"]
        tops.append(p99)
        ax.step(
            [0, *xs],
            [100.0, *ys],
            where="post",
            color=colour,
            linewidth=1.6,
            label=f"{label}: half ≤ {med:g}, 1 in 100 ≥ {p99:g} chips",
        )
    ax.set_xlim(0, max(tops, default=1) * 1.15)
    ax.set_ylim(0, 101)
    ax.set_xlabel("pot at stake when play begins (chips)")
    ax.set_ylabel("hands played for more than that (%)")
    _finish(ax, "How often the pot is bigger than a given size", sub)


# -- the mean pot by hand number ------------------------------------------------------

POT_GROWTH = (
    "The average pot at stake in each hand of a session, with a band where the true"
    " average lies 19 times in 20. Bourré players pay the pot into the next one and ties"
    " carry it, so pots grow as the session goes on; a cap on payments keeps them flat."
)


def _pot_growth(fig: Any, by: Summaries, metrics: dict[str, Any], sub: str) -> None:
    ax = fig.add_subplot()
    for (_, label, colour), m in zip(_houses(metrics), metrics["houses"], strict=True):
        ivs = m.get("pot_by_hand", [])
        if not ivs:
            continue
        xs = list(range(1, len(ivs) + 1))
        ax.plot(xs, [iv["mean"] for iv in ivs], marker="o", color=colour, label=label)
        if all(iv.get("lo") is not None for iv in ivs):
            lo, hi = [iv["lo"] for iv in ivs], [iv["hi"] for iv in ivs]
            ax.fill_between(xs, lo, hi, color=colour, alpha=0.2)
    hands = max((len(m.get("pot_by_hand", [])) for m in metrics["houses"]), default=0)
    ax.set_xticks(range(1, hands + 1))
    ax.set_xlabel("hand of the session")
    ax.set_ylabel("average pot at stake (chips)")
    _finish(ax, "How the pot grows during a session", sub)


# -- a player's balance over a session ------------------------------------------------

BALANCE_PATH = (
    "A player's chips after each hand of a session: the line is the middle player (half"
    " have more, half less), the band holds the middle half of players. Balances drift"
    " down while chips sit in the pot; at the end (the last point) the pot left over is"
    f" shared out equally. Drawn from the first {SAMPLE:,} sessions of each house."
)


def _quartiles(xs: list[float]) -> tuple[float, float, float]:
    xs = sorted(xs)
    n = len(xs)
    return xs[n // 4], xs[n // 2], xs[min(n - 1, (3 * n) // 4)]


def _paths(ss: list[dict[str, Any]], hands: int) -> list[list[float]]:
    """Each player's chips at the start, after each hand, and at the end."""
    paths = []
    for s in ss:
        for seat in range(s["players"]):
            b = start_balance(s)
            path = [b]
            for row in s["delta"][:hands]:
                b += row[seat]
                path.append(b)
            path.append(s["final"][seat])
            paths.append(path)
    return paths


def _balance_path(fig: Any, by: Summaries, metrics: dict[str, Any], sub: str) -> None:
    houses = _houses(metrics)
    cols = min(2, len(houses))
    rows = -(-len(houses) // cols)
    fig.set_size_inches(9, 3.2 * rows + 1.2)
    axes = fig.subplots(rows, cols, sharex=True, sharey=True, squeeze=False)
    hands = max((s["hands"] for ss in by.values() for s in ss), default=0)
    xs = list(range(hands + 2))
    for k, (spec, label, colour) in enumerate(houses):
        ax = axes[k // cols][k % cols]
        ss = by[spec]
        if ss:
            qs = [_quartiles([p[j] for p in _paths(ss, hands)]) for j in xs]
            ax.fill_between(xs, [q[0] for q in qs], [q[2] for q in qs], color=colour, alpha=0.25)
            ax.plot(xs, [q[1] for q in qs], marker="o", markersize=3, color=colour)
            ax.axhline(start_balance_of(ss), color="black", linewidth=0.6)
        ax.set_title(label, fontsize=9)
        ax.grid(alpha=0.3)
    for ax in axes.flat[len(houses) :]:
        ax.set_visible(False)
    step = max(1, hands // 6)
    ticks = [0, *range(step, hands + 1, step), hands + 1]
    for ax in axes[-1]:
        ax.set_xticks(ticks, ["start", *map(str, ticks[1:-1]), "end"])
        ax.set_xlabel("after hand … (end: the pot left over shared out)", fontsize=8)
    for row in axes:
        row[0].set_ylabel("a player's chips", fontsize=8)
    fig.suptitle(
        f"A player's chips during a session (line: middle player; band: middle half)\n{sub}",
        fontsize=10,
    )


def start_balance_of(ss: list[dict[str, Any]]) -> float:
    return start_balance(ss[0])


# -- final balances --------------------------------------------------------------------

BALANCE_SPREAD = (
    "A player's chips at the end of a session. The box holds the middle half of players,"
    " the line in it is the middle player, the whiskers reach the luckiest and unluckiest"
    " 1 in 100. The dashed line is the --below threshold: under each box, the share of"
    f" players who end below it (of every session). Drawn from the first {SAMPLE:,}"
    " sessions of each house."
)


def _balance_spread(fig: Any, by: Summaries, metrics: dict[str, Any], sub: str) -> None:
    ax = fig.add_subplot()
    below = metrics["below"]
    finals, labels = [], []
    for (spec, label, _), m in zip(_houses(metrics), metrics["houses"], strict=True):
        finals.append([f for s in by[spec] for f in s["final"]] or [float("nan")])
        bl = (m.get("below") or {}).get("mean")
        labels.append(f"{label}\nbelow {below:g}: {100 * bl:.1f}%" if bl is not None else label)
    box = ax.boxplot(
        finals, whis=(1, 99), showfliers=False, patch_artist=True, medianprops={"color": "black"}
    )
    for j, patch in enumerate(box["boxes"]):
        patch.set(facecolor=f"C{j}", alpha=0.35)
    ax.set_xticks(range(1, len(labels) + 1), labels, fontsize=8)
    ax.axhline(
        below,
        color="tab:red",
        linestyle="--",
        linewidth=1,
        label=f"{below:g} chips: sessions ending below count under each box",
    )
    ax.set_ylabel("a player's chips at the end of a session")
    ax.set_xlabel("house (box: middle half; whiskers: 1st to 99th in 100)")
    ax.legend(fontsize=8, loc="upper right")
    _finish(ax, "Chips at the end of a session", sub, legend=False)


# -- money by place at the table -------------------------------------------------------

MONEY_BY_PLACE = (
    "What each place at the table wins or loses in a hand, on average, in chips, with the"
    " range where the true figure lies 19 times in 20. Places count from the dealer, who"
    " decides last; the deal rotates, so every player sits at every place in turn. The"
    " bars of a house add up to the chips that stay in the pot, won later or shared out"
    " at the end."
)


def _money_by_place(fig: Any, by: Summaries, metrics: dict[str, Any], sub: str) -> None:
    ax = fig.add_subplot()
    hs = metrics["houses"]
    n = max((m.get("players", 0) for m in hs), default=0)
    width = 0.8 / max(1, len(hs))
    for j, ((_, label, colour), m) in enumerate(zip(_houses(metrics), hs, strict=True)):
        ivs = list(m.get("position", []))
        ivs += [{}] * (n - len(ivs))
        means = [iv.get("mean", float("nan")) for iv in ivs]
        err = [
            [iv["mean"] - iv["lo"] if iv.get("lo") is not None else 0.0 for iv in ivs],
            [iv["hi"] - iv["mean"] if iv.get("hi") is not None else 0.0 for iv in ivs],
        ]
        xs = [g + (j - (len(hs) - 1) / 2) * width for g in range(n)]
        ax.bar(xs, means, width=width, yerr=err, capsize=3, color=colour, label=label)
    ax.axhline(0, color="black", linewidth=0.8)
    ax.set_xticks(range(n), [position_label(p, n).replace(" (", "\n(") for p in range(n)])
    ax.set_xlabel("place at the table, counted from the dealer")
    ax.set_ylabel("chips won (+) or lost (−) per hand")
    _finish(ax, "Chips won per hand by place at the table", sub)


FIGURES: list[FigureSpec] = [
    FigureSpec(
        "pot_chance", "How often the pot is bigger than a given size", POT_CHANCE, _pot_chance
    ),
    FigureSpec("pot_growth", "How the pot grows during a session", POT_GROWTH, _pot_growth),
    FigureSpec("balance_path", "A player's chips during a session", BALANCE_PATH, _balance_path),
    FigureSpec("balance_spread", "Chips at the end of a session", BALANCE_SPREAD, _balance_spread),
    FigureSpec(
        "money_by_place",
        "Chips won per hand by place at the table",
        MONEY_BY_PLACE,
        _money_by_place,
    ),
]
"""Every figure, in the order of the report."""


def figures(result: Any, metrics: dict[str, Any]) -> Iterator[tuple[FigureSpec, Any]]:
    """Each figure of a run as a matplotlib ``Figure``, with its spec."""
    # lazy: the optional 'plot' extra, loaded when a figure is drawn
    import matplotlib

    matplotlib.use("Agg", force=True)
    from matplotlib.figure import Figure

    by = sample(result, [h["house"] for h in metrics["houses"]])
    note = coverage(metrics)
    sub = title(metrics) + (f"\n{note}" if note else "")
    for spec in FIGURES:
        fig = Figure(figsize=(9, 5.5))
        spec.draw(fig, by, metrics, sub)
        fig.tight_layout()
        yield spec, fig


def plot(result: Any, metrics: dict[str, Any], directory: Path | str) -> list[Path]:
    """Write the figures of a run into ``directory`` (PNG and SVG); returns the files."""
    out = Path(directory)
    out.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    for spec, fig in figures(result, metrics):
        for ext in ("png", "svg"):
            p = out / f"{spec.name}.{ext}"
            fig.savefig(p, dpi=120)
            written.append(p)
    return written
