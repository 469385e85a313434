"""Reporting a comparison: the run's title, JSON and CSV files; the terminal report
is :mod:`bourre.sim.reports.table`, the HTML page :mod:`bourre.sim.html`."""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

from bourre.sim.reports.skill import csv_rows
from bourre.sim.reports.table import render as render_table
from bourre.sim.stats.metrics import RATIOS, SCALARS

__all__ = ["render", "rows", "write_csv", "write_json"]


def render(metrics: dict[str, Any], console: Any) -> None:
    """Print the summary and the table (:func:`bourre.sim.reports.table.render`)."""
    render_table(metrics, console)


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
            "pot_p99",
            "pot_max",
            *RATIOS,
            *[k for k in SCALARS if k != "pot_mean"],
            "below",
        ):
            if key in h:
                add(name, key, "", h[key])
        for key in ("start_balance", "below_balance", "hands_per_session"):
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
