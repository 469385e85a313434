"""The ``compare`` check: a short run of ``bourre compare``
(:func:`bourre.sim.runs.sessions.run_session`, and :func:`bourre.sim.runs.runner.run`
when the plugin is installed) plays the house, or the bot."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bourre.houses.house import House
from bourre.rules.plugins import Registry, default_registry
from bourre.sim.runs.runner import RunConfig, run
from bourre.sim.runs.sessions import BotSpec, run_session
from bourre.testing.report import Failure, Report


def compare(
    spec: str, house: House, report: Report, registry: Registry, bots: Sequence[str], seed: str
) -> None:
    """A short ``bourre compare``: two sessions of the house, against standard."""
    specs = [BotSpec(b) for b in bots]
    total = float(house.table.balance) * house.table.players
    try:
        for i in range(2):
            summary = run_session(house, specs, seed, i, engine="python")
            if not summary["hands"] or abs(sum(summary["final"]) - total) > 1e-6:
                report.fail(
                    Failure("compare", spec, f"a compare session ends unbalanced: {summary}")
                )
    except Exception as e:
        report.fail(Failure("compare", spec, f"a compare session fails: {e!r}"))
        return
    installed = all(
        registry.variants.get(v.name) is default_registry().variants.get(v.name)
        for v in house.variants
    )
    if not installed:
        return  # not installed: ``bourre compare`` in another process cannot find it
    result = run(RunConfig([house.spec, "standard"], 2, seed=seed, bots=specs))
    if not result.complete:
        report.fail(Failure("compare", spec, f"`bourre compare` stopped: {result.stopped}"))


def compare_bot(
    bot: str, options: dict[str, Any], report: Report, registry: Registry, seed: str
) -> None:
    """A ``bourre compare`` session of standard with the bot at every seat."""
    try:
        run_session(
            House("standard", registry=registry), [BotSpec(bot, tuple(options.items()))], seed, 0
        )
    except Exception as e:
        report.fail(Failure("compare", "standard", f"a compare session with the bot fails: {e!r}"))
