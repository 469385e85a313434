"""How a run and its houses are named wherever a comparison is shown: the summary,
the tables, the figures and the HTML report."""

from __future__ import annotations

from typing import Any

__all__ = ["coverage", "house_label", "title"]


def title(metrics: dict[str, Any]) -> str:
    """The run in one line: sessions, seed, bots, and the engine that played them."""
    bots = ",".join(metrics["bots"])
    rot = ", seats rotated" if metrics.get("rotate") else ""
    played = metrics.get("timing", {}).get("engines", {}).values()
    engines = sorted({e for es in played for e in es})
    eng = f", engine {' and '.join(engines)}" if engines else ""
    return (
        f"{metrics['sessions_completed']} sessions per house, seed {metrics['seed']!r},"
        f" bots {bots}{rot}{eng}"
    )


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
