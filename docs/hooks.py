"""MkDocs hooks (``hooks:`` in ``mkdocs.yml``): the pages that describe what the code
does are generated from the code at build time, so they cannot drift from it.

- ``rules/index.md`` and one page per built-in variant, from the variants' own rule
  texts (:meth:`bourre.houses.house.House.rule_texts`, :func:`bourre.houses.text.rules_markdown`);
- the house-rules file reference, from the pydantic models (``TableSettings`` and each
  variant's ``Settings``);
- the list of hooks, from :mod:`bourre.rules.hookspec` and the built-in variants;
- the command-line reference, from the typer app;
- the figures of ``bourre compare`` with their captions, from
  :data:`bourre.sim.reports.plots.FIGURES` (the captions of the HTML report).

A static page asks for a generated part with a marker comment on a line of its own,
e.g. ``<!-- bourre:cli-reference -->`` (see :data:`MARKERS`).  The functions here need
only ``bourre`` (not mkdocs), so the tests can call them.
"""

from __future__ import annotations

import inspect
import json
import re
from collections.abc import Callable
from typing import Any

RULES_DIR = "rules"
EXAMPLE_SETTINGS: dict[str, dict[str, Any]] = {"pot-limit": {"limit": 10}}
"""Values shown for settings that have no default (a house needs them)."""
REGISTRATION_HOOKS = (
    "bourre_register_variants",
    "bourre_register_bots",
    "bourre_register_commands",
)


# ------------------------------------------------------------------------ variants


def builtin_variants() -> dict[str, Any]:
    """The variants of the ``bourre_variants`` package: ``{name: VariantInfo}``,
    the documented profile first."""
    from bourre.rules.plugins import default_registry

    found = {
        name: info
        for name, info in default_registry().variants.items()
        if info.cls.__module__.split(".")[0] == "bourre_variants"
    }
    return dict(sorted(found.items(), key=lambda kv: (kv[0] != "standard", kv[0])))


def example_house(name: str, cls: Any) -> str:
    """A house string for the variant alone, with example values for the settings
    that have no default."""
    needed = {}
    for key, f in cls.Settings.model_fields.items():
        if f.is_required():
            examples = f.examples or []
            given = EXAMPLE_SETTINGS.get(name, {})
            if key in given:
                needed[key] = given[key]
            elif examples:
                needed[key] = examples[0]
            else:
                raise ValueError(
                    f"variant {name!r}: setting {key!r} has no default and no example;"
                    " add one to EXAMPLE_SETTINGS in docs/hooks.py or Field(examples=…)"
                )
    if not needed:
        return name
    return f"{name}({','.join(f'{k}={json.dumps(v)}' for k, v in needed.items())})"


def _shift(markdown: str, levels: int = 1) -> str:
    """Demote the headings of ``markdown`` and drop its title."""
    out = []
    for line in markdown.splitlines():
        if line.startswith("# "):
            continue
        if line.startswith("#"):
            line = "#" * levels + line
        out.append(line)
    return "\n".join(out).strip() + "\n"


def _settings_table(model: Any) -> str:
    schema = model.model_json_schema()
    props = schema.get("properties", {})
    if not props:
        return "No settings.\n"
    required = set(schema.get("required", []))
    rows = [
        "| key | type | default | constraints | meaning |",
        "|-----|------|---------|-------------|---------|",
    ]
    for key, p in props.items():
        default = "*required*" if key in required else f"`{json.dumps(p.get('default'))}`"
        rows.append(
            f"| `{key}` | {_type_of(p)} | {default} | {_constraints(p)} | {p.get('description', '')} |"
        )
    return "\n".join(rows) + "\n"


def _type_of(p: dict[str, Any]) -> str:
    if "anyOf" in p:
        return " or ".join(_type_of(x) for x in p["anyOf"])
    if "const" in p:
        return f"`{json.dumps(p['const'])}`"
    if p.get("format") == "fraction":
        return 'fraction `"p/q"`'
    if p.get("type") == "array":
        return f"list of {_type_of(p.get('items', {}))}"
    return {"integer": "integer", "string": "string", "boolean": "boolean", "number": "number"}.get(
        p.get("type", ""), p.get("type", "any")
    )


def _constraints(p: dict[str, Any]) -> str:
    marks = {"minimum": "≥", "maximum": "≤", "exclusiveMinimum": ">", "exclusiveMaximum": "<"}
    marks |= {"ge": "≥", "le": "≤", "gt": ">", "lt": "<"}
    out = [f"{m} {p[k]}" for k, m in marks.items() if k in p]
    return ", ".join(out) or "—"


def variant_page(name: str) -> str:
    """The page of one built-in variant: what it changes, its settings, and the
    full rules of the house it makes (generated from its rule texts)."""
    from bourre.houses.house import House
    from bourre.houses.text import rules_markdown
    from bourre.rules.hookspec import RULE_HOOKS
    from bourre.rules.variant import answers

    info = builtin_variants()[name]
    cls = info.cls
    spec = example_house(name, cls)
    house = House(spec)
    lines: list[str] = []
    if name == "standard":
        lines += [
            "# The documented profile: `standard`",
            "",
            f"{cls.summary}",
            "",
            "Every other built-in variant builds on this one. These are the rules that"
            " `bourre` enforces when no variant is named (`bourre rules`, `bourre play`).",
        ]
    else:
        lines += [f"# `{name}`", "", cls.summary]
    lines += [
        "",
        f"- **Builds on:** {', '.join(f'[`{b}`]({b}.md)' for b in cls.builds_on) or 'nothing'}",
        f"- **Plugin:** entry point `{info.plugin}` → module `{cls.__module__}` ({info.package})",
        f"- **Try it:** `bourre rules '{spec}'`, `bourre play '{spec}'`",
        "",
    ]
    hooks = [h for h in RULE_HOOKS if answers(cls, h.name)]
    if name != "standard":
        lines += ["## What it changes", ""]
        v = next(v for v in house.variants if v.name == name)
        for hook in hooks:
            lines += [f"### {hook.section}: [`{hook.name}`][bourre.rules.hookspec.{hook.name}]", ""]
            for rid, text in v.rule_texts(hook.name):
                lines.append(f"- **{rid}** {text}")
            lines.append("")
        general = v.rule_texts("general")
        if general:
            lines += ["### Table and session", ""]
            lines += [f"- **{rid}** {text}" for rid, text in general]
            lines.append("")
    lines += ["## Settings", "", _settings_table(cls.Settings)]
    if spec != name:
        lines += [
            f"The rules below are shown with {spec[len(name) + 1 : -1].replace('=', ' = ')}.",
            "",
        ]
    title = "The rules in full" if name == "standard" else f"The rules of `{house.spec}` in full"
    lines += [
        f"## {title}",
        "",
        "Generated from the plugins' rule texts: the text of each hook comes from the"
        " variant that answers it, so this is exactly what the engine enforces."
        + ("" if name == "standard" else f" Rules marked *({name})* come from this variant."),
        "",
        _shift(rules_markdown(house), 1),
    ]
    return "\n".join(lines).rstrip() + "\n"


def rules_index() -> str:
    from bourre.rules.hookspec import RULE_HOOKS
    from bourre.rules.variant import answers

    rows = [
        "# Rules",
        "",
        "The rules of the documented profile and of each built-in variant, generated from"
        " the text that each plugin carries for the rules it enforces (the same text"
        " `bourre rules` prints). Every rule has an id (`R-…`) that error messages, hand"
        " records and tests cite.",
        "",
        "| variant | summary | builds on | hooks answered | settings |",
        "|---------|---------|-----------|----------------|----------|",
    ]
    for name, info in builtin_variants().items():
        cls = info.cls
        hooks = [h.field for h in RULE_HOOKS if answers(cls, h.name)]
        settings = ", ".join(f"`{k}`" for k in cls.Settings.model_fields) or "—"
        rows.append(
            f"| [`{name}`]({name}.md) | {cls.summary} | {', '.join(cls.builds_on) or '—'} |"
            f" {len(hooks) if name == 'standard' else ', '.join(hooks)}"
            f"{' (all)' if name == 'standard' else ''} | {settings} |"
        )
    rows += [
        "",
        "Variants combine: `standard+pot-limit(limit=10)+no-cinch` uses all three. A variant"
        " joins a house with the variants it builds on; two variants that answer the same"
        " hook cannot be combined unless one builds on the other"
        " (see [House rules](../house-rules.md) and the [hook reference](../hook-reference.md)).",
        "",
    ]
    return "\n".join(rows)


def generated_pages() -> dict[str, str]:
    """``{path under docs/: Markdown}`` of the generated pages."""
    pages = {f"{RULES_DIR}/index.md": rules_index()}
    for name in builtin_variants():
        pages[f"{RULES_DIR}/{name}.md"] = variant_page(name)
    return pages


# -------------------------------------------------------------------------- hooks


def hook_reference() -> str:
    """A table of every hook, in lifecycle order: kind, what it fills, the rules it
    covers and which built-in variants answer it."""
    from bourre.rules import hookspec
    from bourre.rules.variant import answers

    variants = builtin_variants()
    specs = {h.name: h for h in hookspec.RULE_HOOKS}
    rows = [
        "| # | hook | kind | the game asks | rules | answered by (built-in) | what it answers |",
        "|---|------|------|---------------|-------|------------------------|-----------------|",
    ]
    for i, name in enumerate((*REGISTRATION_HOOKS, *specs), start=1):
        fn = getattr(hookspec, name)
        doc = inspect.getdoc(fn) or ""
        first = doc.split("\n\n")[0].replace("\n", " ")
        first = re.sub(r"\s*\((R-[^)]*)\)\.?$", ".", first)
        first = re.sub(r":\w+:`~?([\w.]+)`", lambda m: f"`{m.group(1).split('.')[-1]}`", first)
        ids = sorted(set(re.findall(r"R-[A-Z][A-Z-]*[A-Z]", doc)), key=doc.index)
        if name in REGISTRATION_HOOKS:
            kind, fills = "registration", "—"
            who = "every plugin that registers"
        else:
            kind, fills = "rule, first answer", f"`rules[{specs[name].field.upper()}]`"
            who = ", ".join(
                f"[`{v}`](rules/{v}.md)" for v, info in variants.items() if answers(info.cls, name)
            )
        rows.append(
            f"| {i} | [`{name}`][bourre.rules.hookspec.{name}] | {kind} | {fills} |"
            f" {' '.join(ids) or '—'} | {who} | {first} |"
        )
    return "\n".join(rows) + "\n"


# ----------------------------------------------------------------- house-rules file


def house_rules_reference() -> str:
    """The keys of a house-rules file: ``[table]`` and each variant's settings."""
    from bourre.rules.settings import TableSettings

    lines = [
        "### `[table]`",
        "",
        _settings_table(TableSettings),
        "### `[variants]`",
        "",
        "| key | type | default | meaning |",
        "|-----|------|---------|---------|",
        '| `use` | list of variant names | `["standard"]` | the variant plugins, in order;'
        " each joins with the variants it builds on |",
        "| *variant name* | table | `{}` | that variant's settings (below) |",
        "",
        "### Settings of each built-in variant",
        "",
    ]
    for name, info in builtin_variants().items():
        lines += [f"#### `{name}`", "", _settings_table(info.cls.Settings)]
    schema = json.dumps(TableSettings.model_json_schema(), indent=2, ensure_ascii=False)
    lines += [
        '??? note "JSON schema of `[table]`"',
        "",
        "    ```json",
        *("    " + line for line in schema.splitlines()),
        "    ```",
        "",
    ]
    return "\n".join(lines)


# ---------------------------------------------------------------------------- CLI


def cli_reference() -> str:
    """Every command of ``bourre``: its help, usage, arguments and options (from the
    typer app, as ``bourre COMMAND --help`` prints them)."""
    import typer

    from bourre.cli import app

    group = typer.main.get_command(app)
    root = group.context_class(group, info_name="bourre")
    lines = []
    for name, cmd in group.commands.items():  # type: ignore[attr-defined]
        ctx = cmd.context_class(cmd, info_name=name, parent=root)
        usage = cmd.get_usage(ctx).removeprefix("Usage: ")
        lines += [f"## `bourre {name}`", "", inspect.cleandoc(cmd.help or ""), ""]
        lines += ["```console", f"$ {usage}", "```", ""]
        rows = []
        for p in cmd.get_params(ctx):
            record = p.get_help_record(ctx)
            if record is None or "--help" in p.opts:
                continue
            decl, text = record
            kind = "argument" if p.param_type_name == "argument" else "option"
            text = text.replace("|", "\\|").replace("\n", " ")
            rows.append(f"| `{decl}` | {kind} | {text} |")
        if rows:
            lines += ["| name | kind | description |", "|------|------|-------------|", *rows, ""]
    return "\n".join(lines)


# ------------------------------------------------------------------ compare figures


def compare_figure(name: str) -> Callable[[], str]:
    """A figure of ``bourre compare`` with its caption, as the HTML report shows it
    (:data:`bourre.sim.reports.plots.FIGURES`), its image from ``img/compare``."""

    def make() -> str:
        from bourre.sim.reports.plots import FIGURES

        spec = next(f for f in FIGURES if f.name == name)
        return f"![{spec.title}](img/compare/{name}.png)\n\n**{spec.title}.** {spec.caption}"

    return make


def _compare_figures() -> dict[str, Callable[[], str]]:
    from bourre.sim.reports.plots import FIGURES

    return {f"compare-figure-{f.name}": compare_figure(f.name) for f in FIGURES}


MARKERS: dict[str, Callable[[], str]] = {
    "hook-reference": hook_reference,
    "house-rules-reference": house_rules_reference,
    "cli-reference": cli_reference,
    **_compare_figures(),
}
"""``<!-- bourre:NAME -->`` in a page is replaced by ``MARKERS[NAME]()``."""
_MARKER = re.compile(r"^<!-- bourre:([\w-]+) -->$", re.M)


def expand_markers(markdown: str, where: str = "page") -> str:
    def sub(m: re.Match[str]) -> str:
        if m.group(1) not in MARKERS:
            raise ValueError(f"{where}: unknown marker {m.group(0)}; known: {', '.join(MARKERS)}")
        return MARKERS[m.group(1)]()

    return _MARKER.sub(sub, markdown)


# ------------------------------------------------------------------ mkdocs events


def on_config(config: Any) -> Any:
    """Add a page per built-in variant to the "Rules" section of the nav."""
    nav = config.get("nav") or []
    for item in nav:
        if isinstance(item, dict) and "Rules" in item:
            section = item["Rules"]
            listed = {next(iter(e.values())) if isinstance(e, dict) else e for e in section}
            for name in builtin_variants():
                path = f"{RULES_DIR}/{name}.md"
                if path not in listed:
                    title = "The documented profile" if name == "standard" else name
                    section.append({title: path})
    return config


def on_files(files: Any, config: Any) -> Any:
    from mkdocs.structure.files import File

    for path, content in generated_pages().items():
        existing = files.get_file_from_path(path)
        if existing is not None:
            files.remove(existing)
        files.append(File.generated(config, path, content=content))
    return files


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any) -> str:
    return expand_markers(markdown, page.file.src_uri)
