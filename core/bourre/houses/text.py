"""The printed rules of a house and the list of installed variants, composed from the
plugins' own rule texts (so the printed rules are the enforced ones)."""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, get_args

from bourre.rules import plugins
from bourre.rules.hookspec import RULE_HOOKS

if TYPE_CHECKING:
    from rich.console import Console

    from bourre.houses.house import House

SECTIONS = {"general": "Table and session", **{h.name: h.section for h in RULE_HOOKS}}
"""The title of each section of the printed rules: the hooks' own (:mod:`bourre.rules.hookspec`)."""


def rules_sections(house: House) -> list[tuple[str, list[tuple[str, str, str]]]]:
    """The house's rules by section: ``(section title, [(rule id, text, variant)])``,
    in lifecycle order (``bourre rules``, the docs and the compare report)."""
    out: list[tuple[str, list[tuple[str, str, str]]]] = []
    current = None
    for hook, variant, (rid, text) in house.rule_texts():
        if hook != current:
            current = hook
            out.append((SECTIONS.get(hook, hook), []))
        out[-1][1].append((rid, text, variant))
    return out


def rules_markdown(house: House) -> str:
    """The house's rules as Markdown (also used by the docs)."""
    lines = [f"# House `{house.spec}`", ""]
    for title, items in rules_sections(house):
        lines += ["", f"## {title}", ""]
        for rid, text, variant in items:
            src = "" if variant == "standard" else f" *({variant})*"
            lines.append(f"- **{rid}** {text}{src}")
    return "\n".join(lines).strip() + "\n"


def type_name(annotation: object) -> str:
    """A setting's type in words (amounts are integers or 'p/q' strings)."""
    if Fraction in get_args(annotation):
        return "amount"
    return getattr(annotation, "__name__", str(annotation))


def render_rules(house: House, console: Console) -> None:
    # lazy: rich's Markdown costs ~35 ms to import; only 'bourre rules' renders it
    from rich.markdown import Markdown

    console.print(Markdown(rules_markdown(house)))


def render_variants(console: Console) -> None:
    # lazy: loaded by 'bourre variants' only (the rules layer stays light to import)
    from rich.table import Table

    reg = plugins.default_registry()
    if console.width < NARROW:
        _render_variants_stacked(console, reg)
        return
    table = Table(title="Installed variant plugins")
    table.add_column("variant", style="bold", no_wrap=True, min_width=19)
    table.add_column("package", no_wrap=True)
    table.add_column("builds on")
    table.add_column("settings")
    table.add_column("summary")
    for name, info in sorted(reg.variants.items()):
        fields = _settings_lines(info)
        table.add_row(
            name,
            info.package,
            ", ".join(info.cls.builds_on) or "—",
            "\n".join(fields) or "—",
            info.cls.summary,
        )
    console.print(table)
    _render_bots_and_errors(console, reg)


NARROW = 110
"""Below this many columns ``bourre variants`` stacks each variant's lines instead of a
table, whose summary column would shrink to a word a line."""


def _settings_lines(info: plugins.VariantInfo) -> list[str]:
    lines = []
    for key, f in info.cls.Settings.model_fields.items():
        req = "required" if f.is_required() else f"default {f.default!r}"
        lines.append(f"{key}: {type_name(f.annotation)} ({req})")
    return lines


def _render_variants_stacked(console: Console, reg: plugins.Registry) -> None:
    """``bourre variants`` on a narrow terminal: a variant's name, package and what it
    builds on on one line, its summary and settings indented under it."""
    # lazy: rich, loaded by 'bourre variants' only (as render_variants)
    from rich.padding import Padding
    from rich.text import Text

    console.print(Text("Installed variant plugins", style="italic"))
    for name, info in sorted(reg.variants.items()):
        head = Text(name, style="bold")
        builds = ", ".join(info.cls.builds_on)
        head.append(f"  ({info.package}" + (f", builds on {builds})" if builds else ")"))
        console.print(head)
        body = [info.cls.summary] + [f"setting {line}" for line in _settings_lines(info)]
        console.print(Padding(Text("\n".join(body)), (0, 0, 0, 4), expand=False))
    _render_bots_and_errors(console, reg)


def _render_bots_and_errors(console: Console, reg: plugins.Registry) -> None:
    if reg.bots:
        console.print("bots: " + ", ".join(f"{b} ({p})" for b, (_, p) in sorted(reg.bots.items())))
    for err in reg.errors:
        console.print(f"[red]failed to load[/red] {err}", highlight=False)
