"""Figures of a comparison (matplotlib, Agg backend): PNG and SVG of each.

* ``pot_distribution``: the pot at stake per hand, one step histogram per house;
* ``pot_growth``: the mean pot at stake by hand number, with its 95% band;
* ``balance_spread``: the final balances of a session per house (box plots), with
  the ``--below`` threshold;
* ``seat_advantage``: the mean balance change per hand by seat and for the dealer,
  per house, with 95% intervals.

Each figure carries its own title, axis labels, legend and the run (sessions, seed,
bots), so that it reads without the table.  matplotlib is imported here only.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

__all__ = ["plot"]


def _err(ivs: list[dict[str, Any]]) -> tuple[list[float], list[list[float]]]:
    means, lo, hi = [], [], []
    for iv in ivs:
        m = iv.get("mean") if iv else None
        means.append(m if m is not None else float("nan"))
        if iv and iv.get("lo") is not None and m is not None:
            lo.append(m - iv["lo"])
            hi.append(iv["hi"] - m)
        else:
            lo.append(0.0)
            hi.append(0.0)
    return means, [lo, hi]


def plot(result: Any, metrics: dict[str, Any], directory: Path | str) -> list[Path]:
    """Write the figures of a run into ``directory``; returns the files written."""
    import matplotlib

    matplotlib.use("Agg", force=True)
    from matplotlib.figure import Figure

    from bourre.compare.report import coverage, house_label, title

    out = Path(directory)
    out.mkdir(parents=True, exist_ok=True)
    houses = [h["house"] for h in metrics["houses"]]
    run = title(metrics)
    note = coverage(metrics)
    sub = run + (f"\n{note}" if note else "")
    written: list[Path] = []

    def save(fig: Any, name: str) -> None:
        fig.tight_layout()
        for ext in ("png", "svg"):
            p = out / f"{name}.{ext}"
            fig.savefig(p, dpi=120)
            written.append(p)

    by_house = {h: result.ordered(h) for h in houses}

    # -- pot distribution -----------------------------------------------------------
    fig = Figure(figsize=(9, 5.5))
    ax = fig.add_subplot()
    allpots = [p for h in houses for s in by_house[h] for p in s["pot"]]
    top = max(allpots, default=1.0)
    bins = min(60, max(10, int(top) + 1))
    for h, m in zip(houses, metrics["houses"], strict=True):
        pots = [p for s in by_house[h] for p in s["pot"]]
        if not pots:
            continue
        mean = m["pot_mean"]["mean"]
        med = m["pot_median"]["mean"]
        ax.hist(
            pots,
            bins=bins,
            range=(0, top),
            histtype="step",
            linewidth=1.6,
            weights=[1 / len(pots)] * len(pots),
            label=f"{house_label(h)} (mean {mean:.1f}, median {med:g}, max {m['pot_max']:g})",
        )
    ax.set_yscale("log")
    ax.set_xlabel("pot at stake when play begins (chips)")
    ax.set_ylabel("share of hands (log scale)")
    ax.set_title(f"Distribution of the pot at stake per hand\n{sub}", fontsize=10)
    ax.legend(fontsize=8, title="house")
    ax.grid(alpha=0.3)
    save(fig, "pot_distribution")

    # -- pot growth --------------------------------------------------------------------
    fig = Figure(figsize=(9, 5.5))
    ax = fig.add_subplot()
    for m in metrics["houses"]:
        ivs = m.get("pot_by_hand", [])
        if not ivs:
            continue
        xs = list(range(1, len(ivs) + 1))
        means = [iv["mean"] for iv in ivs]
        ax.plot(xs, means, marker="o", label=house_label(m["house"]))
        if all(iv.get("lo") is not None for iv in ivs):
            ax.fill_between(xs, [iv["lo"] for iv in ivs], [iv["hi"] for iv in ivs], alpha=0.2)
    ax.set_xlabel("hand number in the session")
    ax.set_ylabel("mean pot at stake (chips), 95% band")
    ax.set_title(f"Pot growth across a session\n{sub}", fontsize=10)
    ax.legend(fontsize=8, title="house")
    ax.grid(alpha=0.3)
    save(fig, "pot_growth")

    # -- balance spread -------------------------------------------------------------
    fig = Figure(figsize=(max(6, 2.2 * len(houses) + 3), 5.5))
    ax = fig.add_subplot()
    finals = [[f for s in by_house[h] for f in s["final"]] for h in houses]
    labels = []
    for h, m in zip(houses, metrics["houses"], strict=True):
        sp = m.get("spread", {}).get("mean")
        bl = m.get("below", {}).get("mean")
        name = house_label(h)
        labels.append(
            f"{name}\nstd {sp:.1f}, P(<{metrics['below']:g}) {100 * bl:.1f}%"
            if sp is not None
            else name
        )
    if any(finals):
        ax.boxplot([f or [float("nan")] for f in finals], whis=(1, 99), showfliers=False)
        ax.set_xticks(range(1, len(labels) + 1), labels, fontsize=8)
    ax.axhline(
        metrics["below"],
        color="tab:red",
        linestyle="--",
        linewidth=1,
        label=f"{metrics['below']:g} chips: sessions ending below count in P(<{metrics['below']:g})",
    )
    ax.set_ylabel("final balance of a player (chips)")
    ax.set_xlabel("house (box: quartiles and median; whiskers: 1st and 99th percentiles)")
    ax.set_title(f"Spread of final balances after a session\n{sub}", fontsize=10)
    ax.legend(fontsize=8, loc="upper right")
    ax.grid(alpha=0.3, axis="y")
    save(fig, "balance_spread")

    # -- seat advantage -------------------------------------------------------------
    n = max((m.get("players", 0) for m in metrics["houses"]), default=0)
    groups = [f"seat {k}" for k in range(n)] + ["dealer"]
    fig = Figure(figsize=(max(8, 1.2 * len(groups) * max(1, len(houses)) / 2 + 4), 5.5))
    ax = fig.add_subplot()
    width = 0.8 / max(1, len(houses))
    for j, m in enumerate(metrics["houses"]):
        ivs = [*m.get("seat", []), m.get("dealer", {})]
        ivs += [{}] * (len(groups) - len(ivs))
        means, err = _err(ivs)
        bx = [g + (j - (len(houses) - 1) / 2) * width for g in range(len(groups))]
        ax.bar(bx, means, width=width, yerr=err, capsize=3, label=house_label(m["house"]))
    ax.axhline(0, color="black", linewidth=0.8)
    ax.set_xticks(range(len(groups)), groups)
    ax.set_xlabel("seat (seat 0 deals hand 1) and the dealer of each hand")
    ax.set_ylabel("mean balance change per hand (chips), 95% CI")
    ax.set_title(f"Seat and dealer advantage\n{sub}", fontsize=10)
    ax.legend(fontsize=8, title="house")
    ax.grid(alpha=0.3, axis="y")
    save(fig, "seat_advantage")
    return written
