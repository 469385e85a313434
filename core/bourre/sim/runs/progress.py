"""A run played with a progress bar on standard error (rich): sessions done, hands
per second and the time left."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

__all__ = ["run_with_progress"]


def run_with_progress(
    runner: Any,
    config: Any,
    houses: list[Any],
    workers: int,
    client: Any,
    chunk: int | None,
    state: Path,
    done: Any,
    show: bool,
    label: str = "simulating",
    task: Any = None,
) -> Any:
    """``runner.run(config, …)`` on ``workers`` processes or the Dask ``client``, with
    a bar labelled ``label`` (none unless ``show``); its result."""
    hands = sum(h.table.hands for h in houses) / len(houses)
    console = Console(stderr=True)
    columns = (
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("sessions"),
        TextColumn("{task.fields[rate]}"),
        TimeElapsedColumn(),
        TextColumn("ETA"),
        TimeRemainingColumn(),
    )
    start = time.perf_counter()
    first: list[int] = []
    with Progress(*columns, console=console, disable=not show, transient=False) as bar:
        bar_id = bar.add_task(label, total=config.sessions * len(config.houses), rate="")

        def on_progress(n: int, total: int) -> None:
            if not first:
                first.append(n)
            el = time.perf_counter() - start
            rate = (n - first[0]) * hands / el if el > 0 else 0.0
            bar.update(bar_id, completed=n, rate=f"{rate:,.0f} hands/s")

        return runner.run(
            config,
            workers=workers,
            scheduler=client,
            chunk=chunk,
            progress=on_progress,
            state=state,
            resume=done,
            **({} if task is None else {"task": task}),
        )
