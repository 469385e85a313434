"""Reporting a comparison: a rich table on the terminal, JSON and CSV files."""

from __future__ import annotations

import csv
import json
import math
from pathlib import Path
from typing import Any

from bourre.compare.metrics import RATIOS, SCALARS

__all__ = ["render", "rows", "write_csv", "write_json"]

ROWS: list[tuple[str, str, str]] = [
    # key, label, format ("n": number, "%": share)
    ("pot_mean", "pot at stake: mean", "n"),
    ("pot_median", "pot at stake: median", "n"),
    ("pot_max", "pot at stake: max", "n"),
    ("playing", "decisions to play", "%"),
    ("sole", "hands won unopposed", "%"),
    ("bourre_hands", "hands with a bourré", "%"),
    ("bourre", "bourré per player in play", "%"),
    ("carried", "carried (tied) pots", "%"),
    ("cinch", "plays made with a cinch", "%"),
    ("spread", "std of final balances", "n"),
    ("below", "P(final balance < {below})", "%"),
    ("dealer", "dealer: change per hand", "n"),
]


def _fmt(x: float | None, kind: str) -> str:
    if x is None or (isinstance(x, float) and not math.isfinite(x)):
        return "–"
    if kind == "%":
        return f"{100 * x:.1f}%"
    return f"{x:,.2f}"


def _cell(iv: Any, kind: str) -> str:
    if iv is None:
        return "–"
    if not isinstance(iv, dict):
        return _fmt(iv, kind)
    if iv.get("mean") is None:
        return "–"
    s = _fmt(iv["mean"], kind)
    if iv.get("lo") is not None:
        half = (iv["hi"] - iv["lo"]) / 2
        s += f" ±{_fmt(half, kind)}"
    return s


def _diff(iv: Any, kind: str) -> str:
    if not isinstance(iv, dict) or iv.get("mean") is None:
        return ""
    m = iv["mean"]
    s = ("+" if m >= 0 else "") + _fmt(m, kind)
    if iv.get("lo") is not None:
        s += f" ±{_fmt((iv['hi'] - iv['lo']) / 2, kind)}"
        if iv["lo"] > 0 or iv["hi"] < 0:
            s = f"[bold]{s}[/bold]"
    return f"\n[dim]Δ[/dim] {s}"


def title(metrics: dict[str, Any]) -> str:
    bots = ",".join(metrics["bots"])
    rot = ", seats rotated" if metrics.get("rotate") else ""
    return f"{metrics['sessions_completed']} sessions per house, seed {metrics['seed']!r}, bots {bots}{rot}"


def coverage(metrics: dict[str, Any]) -> str | None:
    """The partial-run notice, or ``None`` for a complete run."""
    if metrics["complete"]:
        return None
    per = ", ".join(f"{h['house']}: {h['sessions']}" for h in metrics["houses"])
    return (
        f"PARTIAL ({metrics['stopped']}): covers {sum(h['sessions'] for h in metrics['houses'])}"
        f" of {metrics['sessions_planned'] * len(metrics['houses'])} sessions ({per})"
    )


def _short(spec: str) -> str:
    """A column header: the house string without the implied ``standard+``."""
    return spec.removeprefix("standard+")


def house_label(spec: str) -> str:
    """A house as the table and the figures name it (``double-ante`` for
    ``standard+double-ante``)."""
    return _short(spec)


def render(metrics: dict[str, Any], console: Any) -> None:
    """Print the comparison as rich tables."""
    from rich.table import Table

    houses = metrics["houses"]
    note = coverage(metrics)
    if note:
        console.print(f"[bold red]{note}[/bold red]")
    one = len(houses) == 1
    t = Table(
        title=f"bourre {'simulate' if one else 'compare'}: {title(metrics)}",
        caption="± 95% CI"
        + ("" if one else "; Δ: paired difference vs the first house (bold: CI excludes 0)"),
    )
    t.add_column("metric", style="bold")
    for h in houses:
        t.add_column(_short(h["house"]), justify="right", overflow="fold")
    below = metrics.get("below")
    for key, label, kind in ROWS:
        cells = []
        for h in houses:
            c = _cell(h.get(key), kind)
            vs = h.get("vs_first")
            if vs and key in vs:
                c += _diff(vs[key], kind)
            cells.append(c)
        t.add_row(label.format(below=f"{below:g}" if below is not None else "?"), *cells)
    n = max((h.get("players", 0) for h in houses), default=0)
    for k in range(n):
        t.add_row(
            f"seat {k}: change per hand",
            *[_cell(h["seat"][k] if k < len(h.get("seat", [])) else None, "n") for h in houses],
        )
    labels = sorted({b for h in houses for b in h.get("bots", {})})
    for label in labels:
        t.add_row(
            f"bot {label}: change per hand",
            *[_cell(h.get("bots", {}).get(label), "n") for h in houses],
        )
    from bourre.compare.skill import table_rows

    for label, cells in table_rows(metrics):  # --skill
        t.add_row(label, *cells)
    console.print(t)
    hps = metrics.get("timing", {}).get("hands_per_second", {})
    if hps:  # the speed of the run, not a figure of the game: a line of its own
        speeds = ", ".join(f"{_short(h['house'])} {_fmt(hps.get(h['house']), 'n')}" for h in houses)
        console.print(f"Speed (hands per second, per core): {speeds}", highlight=False)
    g = Table(title="pot at stake by hand number (mean ± 95% CI)")
    g.add_column("hand", justify="right")
    for h in houses:
        g.add_column(_short(h["house"]), justify="right", overflow="fold")
    hmax = max((len(h.get("pot_by_hand", [])) for h in houses), default=0)
    for j in range(hmax):
        g.add_row(
            str(j + 1),
            *[
                _cell(h["pot_by_hand"][j] if j < len(h.get("pot_by_hand", [])) else None, "n")
                for h in houses
            ],
        )
    console.print(g)


def write_json(metrics: dict[str, Any], path: Path | str) -> None:
    Path(path).write_text(json.dumps(metrics, indent=2) + "\n", encoding="utf-8")


def rows(metrics: dict[str, Any]) -> list[dict[str, Any]]:
    """The metrics in long form: one row per (house, metric, index)."""
    out: list[dict[str, Any]] = []

    def add(house: str, metric: str, index: Any, iv: Any) -> None:
        if isinstance(iv, dict):
            out.append(
                {
                    "house": house,
                    "metric": metric,
                    "index": index,
                    "mean": iv.get("mean"),
                    "lo": iv.get("lo"),
                    "hi": iv.get("hi"),
                    "n": iv.get("n"),
                }
            )
        else:
            out.append(
                {
                    "house": house,
                    "metric": metric,
                    "index": index,
                    "mean": iv,
                    "lo": None,
                    "hi": None,
                    "n": None,
                }
            )

    for h in metrics["houses"]:
        name = h["house"]
        add(name, "sessions", "", h["sessions"])
        add(name, "hands", "", h.get("hands"))
        for key in (
            "pot_mean",
            "pot_median",
            "pot_max",
            *RATIOS,
            *[k for k in SCALARS if k != "pot_mean"],
            "below",
        ):
            if key in h:
                add(name, key, "", h[key])
        for k, iv in enumerate(h.get("seat", [])):
            add(name, "seat", k, iv)
        for k, iv in enumerate(h.get("position", [])):
            add(name, "position_from_dealer", k, iv)
        for j, iv in enumerate(h.get("pot_by_hand", [])):
            add(name, "pot_by_hand", j + 1, iv)
        for label, iv in h.get("bots", {}).items():
            add(name, "bot", label, iv)
        for key, iv in (h.get("vs_first") or {}).items():
            add(name, f"diff_vs_first:{key}", "", iv)
        add(
            name,
            "hands_per_second",
            "",
            metrics.get("timing", {}).get("hands_per_second", {}).get(name),
        )
    from bourre.compare.skill import csv_rows

    return out + csv_rows(metrics)  # --skill


def write_csv(metrics: dict[str, Any], path: Path | str) -> None:
    """Long-form CSV (house, metric, index, mean, lo, hi, n).  The first rows, with
    house ``(run)``, say what the run covers: ``complete`` (1/0),
    ``sessions_planned`` and ``sessions_completed`` per house, ``seed``, ``bots``."""
    fields = ["house", "metric", "index", "mean", "lo", "hi", "n"]
    run = [
        {
            "house": "(run)",
            "metric": "complete",
            "index": metrics.get("stopped") or "",
            "mean": int(metrics["complete"]),
        },
        {
            "house": "(run)",
            "metric": "sessions_planned",
            "index": "",
            "mean": metrics["sessions_planned"],
        },
        {
            "house": "(run)",
            "metric": "sessions_completed",
            "index": "",
            "mean": metrics["sessions_completed"],
        },
        {"house": "(run)", "metric": "seed", "index": metrics["seed"], "mean": None},
        {"house": "(run)", "metric": "bots", "index": ",".join(metrics["bots"]), "mean": None},
        {"house": "(run)", "metric": "below", "index": "", "mean": metrics.get("below")},
    ]
    with Path(path).open("w", encoding="utf-8", newline="") as f:
        w = csv.DictWriter(f, fieldnames=fields)
        w.writeheader()
        for r in run + rows(metrics):
            w.writerow({k: ("" if r.get(k) is None else r[k]) for k in fields})
