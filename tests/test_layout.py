"""The test suite's layout holds: a test module per built-in rule module, named after it
(``tests/rules/test_obligations.py`` beside ``bourre_variants/standard/obligations.py``),
and every test module in a folder by layer but the checks of the whole repository."""

from __future__ import annotations

from pathlib import Path

TESTS = Path(__file__).resolve().parent
VARIANTS = TESTS.parent / "variants" / "bourre_variants"
WHOLE_REPOSITORY = {"test_architecture.py", "test_layout.py"}
"""The test modules at the top of tests/: checks of the whole repository, no layer's."""


def rule_modules() -> list[Path]:
    """The built-in rule modules: each module of ``bourre_variants`` (the standard
    profile's package stands for its own ``__init__``: its general rules)."""
    found = [p for p in VARIANTS.rglob("*.py") if p.name != "__init__.py"]
    found += [p for p in VARIANTS.iterdir() if (p / "__init__.py").is_file()]
    return sorted(found)


def test_the_rule_modules_are_found() -> None:
    names = {p.stem for p in rule_modules()}
    assert {"standard", "obligations", "payout", "cinch", "pot_limit", "no_cinch"} <= names


def test_every_built_in_rule_module_has_its_test_module() -> None:
    missing = [
        f"{p.relative_to(VARIANTS.parent)}: no tests/rules/test_{p.stem}.py"
        for p in rule_modules()
        if not (TESTS / "rules" / f"test_{p.stem}.py").is_file()
    ]
    assert not missing, "\n".join(missing)


def test_test_modules_live_in_folders_by_layer() -> None:
    flat = sorted(p.name for p in TESTS.glob("test_*.py") if p.name not in WHOLE_REPOSITORY)
    assert not flat, f"test modules at the top of tests/, not in a layer's folder: {flat}"


def test_every_folder_of_tests_is_a_package() -> None:
    """Two folders may hold modules of the same name (``game/test_state.py``,
    ``kernel/test_state.py``): each folder is a package, so pytest imports them apart."""
    folders = {p.parent for p in TESTS.rglob("test_*.py")} - {TESTS}
    bare = sorted(str(f.relative_to(TESTS)) for f in folders if not (f / "__init__.py").is_file())
    assert not bare, f"folders of tests without an __init__.py: {bare}"
