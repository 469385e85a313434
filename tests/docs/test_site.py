"""The documentation site: its generated pages cover every hook, variant, setting and
command, and ``mkdocs build --strict`` passes (slow)."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from importlib.metadata import entry_points
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from bourre.houses.house import House
from bourre.rules import hookspec
from bourre.rules.hookspec import RULE_HOOKS

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
REGISTRATION = ("bourre_register_variants", "bourre_register_bots", "bourre_register_commands")


def load_hooks() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bourre_docs_hooks", DOCS / "hooks.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def hooks() -> ModuleType:
    return load_hooks()


def builtin_variant_names() -> list[str]:
    """The built-in variants, from the package's entry points (not from the docs code)."""
    return sorted(
        ep.name
        for ep in entry_points(group="bourre")
        if ep.value.split(".")[0] == "bourre_variants"
    )


def test_hookspec_has_no_hook_the_reference_would_miss() -> None:
    defined = {
        n for n in vars(hookspec) if n.startswith("bourre_") and callable(getattr(hookspec, n))
    }
    assert defined == {*(h.name for h in RULE_HOOKS), *REGISTRATION}


def test_the_guides_name_every_rule_hook() -> None:
    """The plugin guide's list of rule hooks and the architecture page name each one
    (a hook added to ``RULE_HOOKS`` and missing there fails here)."""
    guide = (DOCS / "plugins.md").read_text(encoding="utf-8")
    listed = guide.split("answer **rule hooks**:", 1)[1].split("in lifecycle order", 1)[0]
    architecture = (DOCS / "architecture.md").read_text(encoding="utf-8")
    for hook in RULE_HOOKS:
        assert f"`{hook.name}`" in listed, hook.name
        assert f"`{hook.name}`" in architecture, hook.name


def test_hook_reference_lists_every_hook(hooks: ModuleType) -> None:
    source = (DOCS / "hook-reference.md").read_text(encoding="utf-8")
    assert "<!-- bourre:hook-reference -->" in source
    assert "::: bourre.rules.hookspec" in source
    page = hooks.expand_markers(source)
    names = (*REGISTRATION, *(h.name for h in RULE_HOOKS))
    for name in names:
        assert f"[`{name}`][bourre.rules.hookspec.{name}]" in page, name
    # lifecycle order
    positions = [page.index(f"[`{name}`]") for name in names]
    assert positions == sorted(positions)


def test_every_builtin_variant_has_a_page(hooks: ModuleType) -> None:
    names = builtin_variant_names()
    assert {"standard", "pot-limit", "no-cinch"} <= set(names)
    pages = hooks.generated_pages()
    assert set(pages) == {"rules/index.md", *(f"rules/{n}.md" for n in names)}
    for name in names:
        assert f"]({name}.md)" in pages["rules/index.md"]


def test_rule_pages_are_the_rules_enforced(hooks: ModuleType) -> None:
    """Each variant's page holds every rule text of the house it makes, as enforced."""
    pages = hooks.generated_pages()
    for name in builtin_variant_names():
        cls = hooks.builtin_variants()[name].cls
        house = House(hooks.example_house(name, cls))
        page = pages[f"rules/{name}.md"]
        for _hook, _variant, (rid, text) in house.rule_texts():
            assert f"**{rid}** {text}" in page, (name, rid)


def test_nav_lists_every_variant_page(hooks: ModuleType) -> None:
    yaml = pytest.importorskip("yaml")
    config: dict[str, Any] = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))
    assert "docs/hooks.py" in config["hooks"]
    hooks.on_config(config)
    rules = next(
        item["Rules"] for item in config["nav"] if isinstance(item, dict) and "Rules" in item
    )
    listed = {next(iter(e.values())) if isinstance(e, dict) else e for e in rules}
    for name in builtin_variant_names():
        assert f"rules/{name}.md" in listed
    flat = str(config["nav"])
    for page in ("plugins.md", "bots.md", "hook-reference.md", "cli.md", "house-rules.md"):
        assert page in flat


def test_house_rules_reference_has_every_setting(hooks: ModuleType) -> None:
    from bourre.rules.settings import TableSettings

    page = hooks.expand_markers((DOCS / "house-rules.md").read_text(encoding="utf-8"))
    for key in TableSettings.model_fields:
        assert f"| `{key}` |" in page
    for name in builtin_variant_names():
        assert f"#### `{name}`" in page
        for key in hooks.builtin_variants()[name].cls.Settings.model_fields:
            assert f"| `{key}` |" in page


def test_cli_reference_has_every_command(hooks: ModuleType) -> None:
    import typer

    from bourre.cli import app

    page = hooks.expand_markers((DOCS / "cli.md").read_text(encoding="utf-8"))
    group = typer.main.get_command(app)
    for name in group.commands:  # type: ignore[attr-defined]
        assert f"## `bourre {name}`" in page
    assert "`--save <dir>`" in page and "`--bots <list[str]>`" in page


def test_unknown_marker_is_an_error(hooks: ModuleType) -> None:
    with pytest.raises(ValueError, match="unknown marker"):
        hooks.expand_markers("text\n<!-- bourre:nosuch -->\n")


@pytest.mark.slow
def test_mkdocs_build_strict(tmp_path: Path) -> None:
    pytest.importorskip("mkdocs")
    pytest.importorskip("mkdocstrings")
    pytest.importorskip("material")
    site = tmp_path / "site"
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "mkdocs",
            "build",
            "--strict",
            "-f",
            str(ROOT / "mkdocs.yml"),
            "-d",
            str(site),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "WARNING" not in proc.stderr, proc.stderr
    for name in builtin_variant_names():
        assert (site / "rules" / name / "index.html").is_file(), name
    html = (site / "hook-reference" / "index.html").read_text(encoding="utf-8")
    for name in (*REGISTRATION, *(h.name for h in RULE_HOOKS)):
        assert f'id="bourre.rules.hookspec.{name}"' in html, name
