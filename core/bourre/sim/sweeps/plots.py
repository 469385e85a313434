"""Figures of a sweep (matplotlib, Agg backend): one per metric, ``sweep_NAME.png``
and ``.svg``, the figure across the points with a band where it lies 19 times in 20,
and the caption that says how to read it (:func:`caption`, for the HTML report).

The first numeric list of the sweep is the x axis (log scale when its values span a
factor of ten or more, labelled with the setting and its unit); each combination of
the other lists is a curve of its own.  A sweep without a numeric list shows its
points as categories, with error bars.  matplotlib is imported here only.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bourre.sim.reports.table import MARK
from bourre.sim.sweeps.braces import number
from bourre.sim.sweeps.points import METRICS, PointRecord, SweepRecord, coverage, title

__all__ = ["caption", "figure", "plot"]


def _scaled(iv: Any, share: bool) -> tuple[float, float, float]:
    """Mean, low and high end in the unit shown: a share in per cent, its band
    within 0–100."""
    nan = float("nan")
    factor = 100.0 if share else 1.0
    mean = iv.mean * factor if iv.mean is not None else nan
    if iv.lo is None or iv.hi is None:
        return mean, nan, nan
    lo, hi = iv.lo * factor, iv.hi * factor
    return (mean, max(0.0, lo), min(100.0, hi)) if share else (mean, lo, hi)


def _x_axis(record: SweepRecord) -> int | None:
    """The index of the list that is the x axis: the first numeric one."""
    return next((k for k, a in enumerate(record.axes) if a.numeric), None)


def _log(values: list[str]) -> bool:
    """A log scale: positive values that span a factor of ten or more."""
    xs = [_number(v) for v in values]
    return min(xs) > 0 and max(xs) / min(xs) >= 10


def caption(record: SweepRecord, name: str) -> str:
    """How to read the figure of one metric, in plain words (its title is the
    metric's words)."""
    xi = _x_axis(record)
    if xi is None:
        where = "One mark per point, with a bar that holds the true figure 19 times in 20."
    else:
        axis = record.axes[xi]
        how = [f"in {axis.unit}" if axis.unit else "", ""]
        if _log(list(axis.values)):
            how[1] = "on a log scale: each step is the same factor"
        extra = ", ".join(h for h in how if h)
        where = f"The bottom axis is the {axis.label}" + (f" ({extra})" if extra else "")
        if len(record.axes) > 1:
            where += ", with a line for each combination of the other settings"
        where += "; the band holds the true figure 19 times in 20."
    return (
        f"{where} Every point plays the same deals, so the difference between two points"
        f" is known more closely than the {'bands' if xi is not None else 'bars'} show:"
        f" the table marks with {MARK} a point that differs from the first by more than"
        " luck explains."
    )


def figure(record: SweepRecord, name: str) -> Any:
    """The figure of one metric (a :class:`matplotlib.figure.Figure`)."""
    # lazy: the optional 'plot' extra, loaded when a figure is drawn
    import matplotlib

    matplotlib.use("Agg", force=True)
    from matplotlib.figure import Figure
    from matplotlib.ticker import NullFormatter

    metric = METRICS[name]
    share = metric.unit == "%"
    unit = "per cent" if metric.unit == "%" else "chips"
    note = coverage(record)
    fig = Figure(figsize=(9, 5.5))
    ax = fig.add_subplot()
    xi = _x_axis(record)
    if xi is not None:
        axis = record.axes[xi]
        others = [k for k in range(len(record.axes)) if k != xi]
        groups: dict[tuple[str, ...], list[PointRecord]] = {}
        for p in record.points:
            groups.setdefault(tuple(p.values[k] for k in others), []).append(p)
        xs_all = [_number(v) for v in axis.values]
        for key, points in groups.items():
            xs = [_number(p.values[xi]) for p in points]
            ys = [_scaled(p.metrics[name], share) for p in points]
            label = ", ".join(
                f"{record.axes[k].key or 'house'}={v}" for k, v in zip(others, key, strict=True)
            )
            line = ax.plot(xs, [y[0] for y in ys], marker="o", label=label or None)[0]
            ax.fill_between(
                xs, [y[1] for y in ys], [y[2] for y in ys], alpha=0.2, color=line.get_color()
            )
        log = _log(list(axis.values))
        if log:
            ax.set_xscale("log")
        ax.set_xticks(xs_all, list(axis.values))
        ax.set_xticks([], minor=True)
        ax.xaxis.set_minor_formatter(NullFormatter())
        parts = [axis.unit or "", "log scale" if log else ""]
        extra = ", ".join(p for p in parts if p)
        ax.set_xlabel(f"{axis.label}" + (f" ({extra})" if extra else ""))
        if len(groups) > 1:
            ax.legend(fontsize=8, title="other settings")
    else:
        ys = [_scaled(p.metrics[name], share) for p in record.points]
        xs = list(range(len(record.points)))
        means = [y[0] for y in ys]
        err = [
            [max(0.0, y[0] - y[1]) if y[1] == y[1] else 0.0 for y in ys],
            [max(0.0, y[2] - y[0]) if y[2] == y[2] else 0.0 for y in ys],
        ]
        ax.errorbar(xs, means, yerr=err, fmt="o", capsize=4)
        ax.set_xticks(xs, [p.label for p in record.points], fontsize=8, rotation=20, ha="right")
        ax.set_xlabel(" × ".join(a.label for a in record.axes))
    short = metric.short.format(down=f"{record.down:g}")
    ax.set_ylabel(f"{short} ({unit})")
    sub = title(record) + (f"\n{note}" if note else "")
    ax.set_title(f"{metric.text(record.down).capitalize()}\n{record.sweep}\n{sub}", fontsize=10)
    ends = [y for p in record.points for y in _scaled(p.metrics[name], share) if y == y]
    if ends and min(ends) >= 0:  # from zero: a small change does not look like a big one
        top = max(ends) * 1.1 or 1.0
        ax.set_ylim(0, min(top, 100.0) if share and max(ends) <= 100 else top)
    else:
        ax.axhline(0, color="black", linewidth=0.8)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    return fig


def _number(value: str) -> float:
    x = number(value)
    return x if x is not None else float("nan")


def plot(record: SweepRecord, directory: Path | str) -> list[Path]:
    """Write one figure per metric of ``record.metrics`` into ``directory`` (PNG and
    SVG); returns the files written."""
    out = Path(directory)
    out.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    for name in record.metrics:
        fig = figure(record, name)
        for ext in ("png", "svg"):
            p = out / f"sweep_{name.replace('-', '_')}.{ext}"
            fig.savefig(p, dpi=120)
            written.append(p)
    return written
