"""The base class of variant plugins.

A variant is a class whose rule-hook methods (``@hookimpl def bourre_…(self, table)``)
answer the rule hooks of :mod:`bourre.rules.hookspec`.  A house makes one instance per
variant it uses, with the variant's validated ``Settings``; so a variant's answers may
depend on its settings (``self.settings``) and the table.  The house calls these
methods itself (:func:`answers` says which a variant has); pluggy only registers the
plugin that registers the variant.

Every variant carries the text of the rules it enforces, per hook it answers, so that
``bourre rules`` prints exactly what the engine enforces.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

import pluggy
from pydantic import BaseModel, ConfigDict

from bourre.rules.settings import TableSettings

hookimpl = pluggy.HookimplMarker("bourre")
"""Marker for hook implementations: ``@bourre.hookimpl``.  On a plugin module's
function it implements a registration hook (called by pluggy); on a variant's method
it answers a rule hook (called by the house, :func:`answers`)."""


def marked(owner: object, name: str) -> dict[str, Any] | None:
    """The ``@hookimpl`` options of ``owner``'s attribute ``name`` (a class's method, a
    module's function) if it is marked, else ``None``."""
    opts = getattr(getattr(owner, name, None), "bourre_impl", None)
    return opts if isinstance(opts, dict) else None


def answers(cls: type, hook: str) -> bool:
    """Whether the variant class ``cls`` answers the rule hook ``hook``: a method of
    that name marked ``@hookimpl``."""
    return marked(cls, hook) is not None


__all__ = ["NoSettings", "RuleText", "Variant", "answers", "hookimpl", "marked"]


class NoSettings(BaseModel):
    """The settings of a variant that has none."""

    model_config = ConfigDict(frozen=True, extra="forbid")


RuleText = tuple[str, str]
"""``(rule id, text)``; the text may use ``{settings.key}``, ``{table.key}`` and
``{last_seat}``."""


class Variant:
    """Base class of variant plugins (built-in and third-party alike)."""

    name: ClassVar[str]
    """The name in house files and strings, e.g. ``pot-limit``."""
    summary: ClassVar[str] = ""
    """One line for ``bourre variants``."""
    builds_on: ClassVar[tuple[str, ...]] = ("standard",)
    """Variants this one builds on: they join the house before it, and its answers
    to a rule hook take precedence over theirs."""
    Settings: ClassVar[type[BaseModel]] = NoSettings
    """Frozen pydantic model of the variant's settings (``extra="forbid"``)."""
    rules: ClassVar[Mapping[str, Sequence[RuleText]]] = {}
    """Rule texts per rule hook answered (``"bourre_penalty": [("R-…", "…")]``);
    the key ``"general"`` holds rules that belong to no single hook."""

    def __init__(self, settings: BaseModel, table: TableSettings) -> None:
        self.settings = settings
        self.table = table

    def rule_texts(self, hook: str) -> list[RuleText]:
        """This variant's rules for ``hook``, formatted with its settings and table."""
        return [
            (
                rid,
                text.format(
                    settings=self.settings, table=self.table, last_seat=self.table.players - 1
                ),
            )
            for rid, text in self.rules.get(hook, ())
        ]

    def settings_dict(self) -> dict[str, Any]:
        """The settings that differ from the defaults (for the house string)."""
        return self.settings.model_dump(exclude_defaults=True, mode="json")

    def __repr__(self) -> str:
        settings = getattr(self, "settings", None)
        shown = settings.model_dump(exclude_defaults=True) if settings is not None else {}
        return f"<variant {getattr(self, 'name', type(self).__name__)} {shown}>"
