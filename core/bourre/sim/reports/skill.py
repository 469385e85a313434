"""Does skill pay here, as a comparison says it: the summary's sentence
(:func:`summary_line`) and the table's rows (:func:`table_rows`) of the ``--skill``
figures that :func:`bourre.sim.skill.attach` gave each house, and the CSV rows of
``metrics["skill"]`` (:func:`csv_rows`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bourre.sim.reports import fmt
from bourre.sim.reports.cells import figures

__all__ = ["csv_rows", "summary_line", "table_rows"]


def _bot(label: str) -> str:
    name = label.split("(")[0]
    return "Monte Carlo" if name == "montecarlo" else name


def summary_line(house: Mapping[str, Any]) -> str | None:
    """Does skill pay here? One sentence for a house with ``--skill`` figures."""
    parts = [
        f"a {_bot(s['bot'])} bot among {_bot(s['among'])} bots {fmt.value(s['gain'], sign=True)}"
        for s in house.get("skill", [])
    ]
    if not parts:
        return None
    return (
        "Does skill pay? Chips a hand won by one better bot: "
        + ", ".join(parts)
        + " (every deal played from every seat)."
    )


def table_rows(houses: Sequence[Mapping[str, Any]]) -> list[tuple[str, list[str]]]:
    """The rows of the table's skill group (none without ``--skill``): chips a hand,
    with the table's mark where a house differs from the first on the same deals."""
    n = max((len(h.get("skill", [])) for h in houses), default=0)
    rows = []
    for k in range(n):
        label = ""
        ivs: list[Any] = []
        diffs: list[Mapping[str, Any] | None] = []
        for h in houses:
            got = h.get("skill", [])
            s = got[k] if k < len(got) else None
            if s is not None:
                label = f"{_bot(s['bot'])} among {_bot(s['among'])}"
            ivs.append(None if s is None else s["gain"])
            diffs.append(None if s is None else s["vs_first"])
        rows.append((label, figures(ivs, diffs, "chips", sign=True)))
    return rows


def csv_rows(metrics: Mapping[str, Any]) -> list[dict[str, Any]]:
    """``metrics["skill"]`` in the long form of :func:`bourre.sim.reports.files.rows`."""
    out = []
    for m in metrics.get("skill", {}).get("matches", []):
        name = f"skill:{m['bot']} among {m['among']}"
        for e in m["houses"]:
            for metric, iv in ((name, e["gain"]), (f"diff_vs_first:{name}", e["vs_first"])):
                if iv is not None:
                    out.append({"house": e["house"], "metric": metric, "index": "", **iv})
    return out
