"""The houses a plugin is checked in, and the ``conflicts`` check.

A plugin is played alone at every table size the deck can serve (R-SEAT, R-DEAL),
then composed with each built-in variant: it either builds on it or is refused with it
clearly (a :class:`~bourre.houses.models.HouseError` naming both variants and the
hook they both answer).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from bourre.houses.house import House, PluginError
from bourre.houses.models import HouseError
from bourre.rules.plugins import Registry
from bourre.testing.report import Failure, Report

SIZES = tuple(range(2, 9))
"""Table sizes played (R-SEAT: 2 to 8 players)."""


def example_settings(cls: Any) -> str:
    """A settings term for a variant whose settings have required fields: the
    smallest value each bound allows (``pot-limit(limit=1)``), else ``""``."""
    parts = []
    for key, f in cls.Settings.model_fields.items():
        if not f.is_required():
            continue
        value: Any = 1
        for m in f.metadata:
            ge, gt = getattr(m, "ge", None), getattr(m, "gt", None)
            if ge is not None:
                value = ge if ge > 0 else 1
            elif gt is not None:
                value = gt + 1
        parts.append(f"{key}={value}")
    return f"({','.join(parts)})" if parts else ""


def term_name(term: str) -> str:
    """``pot-limit`` of ``pot-limit(limit=3)``."""
    return term.partition("(")[0].strip()


def with_table(spec: str, n: int, hands: int) -> str:
    """The house ``spec`` at a table of ``n`` players for ``hands`` hands."""
    return f"{spec}+table(players={n},hands={hands})"


def builtins(registry: Registry, exclude: Iterable[str]) -> list[str]:
    """Every built-in variant but ``standard`` and ``exclude``, as a house term."""
    out = []
    skip = {"standard", *exclude}
    for name, info in sorted(registry.variants.items()):
        if info.builtin and name not in skip:
            out.append(name + example_settings(info.cls))
    return out


def listed_rules(house: House) -> set[str]:
    """The rule ids ``bourre rules`` lists for the house (what a citation may cite)."""
    return {rid for _, _, (rid, _) in house.rule_texts()}


def compositions(
    term: str, registry: Registry, report: Report, subject: str
) -> list[tuple[str, House]]:
    """The plugin's house alone, then with each built-in it combines with; a refusal
    must be clear (the conflicts check)."""
    name = term_name(term)
    try:
        alone = House(term, registry=registry)
    except (HouseError, PluginError) as e:
        text = str(e)
        if " wraps " in text or " is a cycle" in text:  # stacking undeclared: a conflict
            report.fail(
                Failure(
                    "conflicts",
                    term,
                    f"{subject} stacks on another variant without declaring it: {text};"
                    " answer the hook plainly and declare builds_on the variant you refine",
                )
            )
        else:
            report.fail(Failure("build", term, f"the plugin's house cannot be built: {text}"))
        return []
    out = [(term, alone)]
    for other in builtins(registry, alone.names):
        spec = f"{term}+{other}"
        oname = term_name(other)
        try:
            out.append((spec, House(spec, registry=registry)))
        except HouseError as e:
            text = str(e)
            clear = (
                f"{name!r}" in text
                and f"{oname!r}" in text
                and "both answer" in text
                and "bourre_" in text
            )
            deal = "R-DEAL" in text  # too many cards for the table: not a conflict
            if clear or deal:
                report.conflicts.append(f"{oname}: {text}")
            else:
                report.fail(
                    Failure(
                        "conflicts",
                        spec,
                        f"{subject} with {oname} is refused without naming the two variants"
                        f" and the hook they both answer (declare builds_on, or answer a"
                        f" hook plainly rather than wrapping it): {text}",
                    )
                )
        except PluginError as e:
            report.fail(
                Failure("conflicts", spec, f"{subject} cannot be combined with {oname}: {e}")
            )
    return out
