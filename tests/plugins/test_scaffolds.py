"""``bourre new variant NAME`` and ``bourre new bot NAME``: the package written
imports and plays at once; installed into a fresh environment it passes its own tests
(bourre's conformance kit) and shows up in ``bourre variants``, ``bourre rules`` and
``bourre compare`` and the web page."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

import pytest
from plugin_env import PluginEnv
from typer.testing import CliRunner

from bourre import kernel
from bourre.cli import app
from bourre.cli.commands.new import HOOKS
from bourre.game.simulate import play_session
from bourre.houses.house import House
from bourre.rules.plugins import load_registry
from bourre.testing import check_variant


def _new(*args: str) -> str:
    result = CliRunner().invoke(app, ["new", *args])
    assert result.exit_code == 0, result.output
    return result.output


def _import(src: Path, module: str):  # type: ignore[no-untyped-def]
    sys.path.insert(0, str(src))
    try:
        return importlib.import_module(module)
    finally:
        sys.path.remove(str(src))


NAMES = {
    "ante": "table-ante",
    "penalty": "double-bourre",
    "draw": "three-most",
    "decisions": "first-in",
}
"""A variant name for each ``--hook`` of ``bourre new variant``."""


def test_every_hook_of_the_scaffold_is_tried_here() -> None:
    assert tuple(NAMES) == HOOKS


@pytest.mark.parametrize("hook", list(NAMES))
def test_a_new_variant_is_written_imports_and_plays(tmp_path: Path, hook: str) -> None:
    name = NAMES[hook]
    out = _new("variant", name, "--hook", hook, "--dir", str(tmp_path / "pkg"))
    module = "bourre_" + name.replace("-", "_")
    pkg = tmp_path / "pkg"
    assert {str(p.relative_to(pkg)) for p in pkg.rglob("*") if p.is_file()} == {
        "pyproject.toml",
        "README.md",
        f"src/{module}/__init__.py",
        f"src/{module}/rule.py",
        f"tests/test_{module}.py",
    }
    assert f'{name} = "{module}"' in (pkg / "pyproject.toml").read_text()
    assert "pip install -e ." in out
    plugin = _import(pkg / "src", module)
    try:
        reg = load_registry(extra=[(name, plugin)])
        assert not reg.errors
        house = House(name, registry=reg)
        rule_id = "R-" + name.upper()
        assert rule_id in {rid for _, _, (rid, _) in house.rule_texts()}
        assert house.answered_by[f"bourre_{hook}"].name == name
        report = check_variant(name, registry=reg, sizes=(3,), compose=False, compare=False)
        assert report.sessions == 2
        play_session(House(f"{name}+table(players=4,hands=2)", registry=reg), seed=1)
    finally:
        for m in [m for m in sys.modules if m == module or m.startswith(module + ".")]:
            del sys.modules[m]


def test_the_dealer_antes_more_in_play(tmp_path: Path) -> None:
    """The scaffold's ante rule does what its text says: on the first hand everyone
    antes 1, the dealer 2, and the reasons say so (R-FIRST-POT, R-TABLE-ANTE)."""
    _new("variant", "table-ante", "--dir", str(tmp_path / "pkg"))
    plugin = _import(tmp_path / "pkg" / "src", "bourre_table_ante")
    try:
        reg = load_registry(extra=[("table-ante", plugin)])
        from bourre.game.state import State
        from bourre.game.tablesteps import hand_log

        state = State(House("table-ante+table(players=4)", registry=reg), seed=3, record=True)
        dealer = state.hand.dealer
        log = hand_log(state)
        assert list(log.antes) == [2 if s == dealer else 1 for s in range(4)]
        assert [r.rule for r in log.ante_reasons] == ["R-FIRST-POT", "R-TABLE-ANTE"]
    finally:
        for m in [m for m in sys.modules if m.startswith("bourre_table_ante")]:
            del sys.modules[m]


def test_names_are_refused_in_words(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["new", "variant", "Split_Pot", "--dir", str(tmp_path)])
    assert result.exit_code == 2 and "lower-case letters" in result.output
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "x").write_text("")
    result = CliRunner().invoke(app, ["new", "bot", "ok", "--dir", str(tmp_path / "full")])
    assert result.exit_code == 2 and "not empty" in result.output
    result = CliRunner().invoke(
        app, ["new", "variant", "ok", "--hook", "follow", "--dir", str(tmp_path / "a")]
    )
    assert result.exit_code == 2 and "--hook" in result.output


def test_new_packages_install_and_pass_their_own_tests(tmp_path: Path) -> None:
    """What an author does: write, ``pip install -e``, ``pytest``; then the plugins are
    in ``bourre variants``, ``bourre rules`` and ``bourre compare``."""
    for args in (
        ("variant", "table-ante"),
        ("variant", "double-bourre", "--hook", "penalty"),
        ("variant", "three-most", "--hook", "draw"),
        ("variant", "first-in", "--hook", "decisions"),
        ("bot", "steady"),
    ):
        _new(*args, "--dir", str(tmp_path / args[1]))
    env = PluginEnv(tmp_path / "venv")
    packages = ("table-ante", "double-bourre", "three-most", "first-in", "steady")
    for pkg in packages:
        env.install(tmp_path / pkg)
    for pkg in packages:
        run = env.run("-m", "pytest", "-q", "-p", "no:cacheprovider", cwd=tmp_path / pkg)
        assert run.returncode == 0, run.stdout + run.stderr
        assert "passed" in run.stdout
    listed = env.run("-m", "bourre.cli", "variants")
    assert listed.returncode == 0, listed.stderr
    assert "table-ante" in listed.stdout and "double-bourre" in listed.stdout
    assert "steady (bourre-steady 0.1.0)" in listed.stdout
    rules = env.run("-m", "bourre.cli", "rules", "table-ante(dealer_ante=3)")
    assert "R-TABLE-ANTE" in rules.stdout and "the dealer antes 3" in rules.stdout
    compared = env.run(
        "-m",
        "bourre.cli",
        "compare",
        "standard",
        "double-bourre",
        "--sessions",
        "4",
        "--bots",
        "steady",
    )
    assert compared.returncode == 0, compared.stderr
    assert "double-bourre" in compared.stdout
    # a third-party draw and decisions: played on the compiled kernel where it is built,
    # the plugin asked through Python, said before the run (issue 41)
    for name, hook in (("three-most", "draw"), ("first-in", "decisions")):
        run = env.run("-m", "bourre.cli", "compare", "standard", name, "--sessions", "4")
        assert run.returncode == 0, run.stderr
        if kernel.available():
            assert f"asking the plugin for {name}'s {hook}" in run.stdout + run.stderr
            assert "engine kernel" in run.stdout
    page = env.run(
        "-c",
        "from starlette.testclient import TestClient; from bourre.web import create_app;"
        " c = TestClient(create_app(), base_url='http://localhost');"
        " print(c.get('/').text); print(c.get('/rules', params={'house': 'table-ante'}).text)",
    )
    assert page.returncode == 0, page.stderr
    assert "table-ante" in page.stdout and "R-TABLE-ANTE" in page.stdout  # the web page too


@pytest.mark.parametrize(
    ("kind", "name", "words"),
    [
        ("bot", "bots", "bourre_bots, which is bourre's own"),
        ("variant", "variants", "bourre_variants, which is bourre's own"),
        ("variant", "standard", "bourre itself has a plugin named 'standard'"),
        ("variant", "pot-limit", "bourre itself has a plugin named 'pot-limit'"),
        ("bot", "compare", "bourre itself has a plugin named 'compare'"),
        ("bot", "random", "a bot of that name is already installed"),
        ("bot", "heuristic", "a bot of that name is already installed"),
    ],
)
def test_names_that_would_shadow_bourre_are_refused(
    tmp_path: Path, kind: str, name: str, words: str
) -> None:
    """Issue 42: ``bourre new bot bots`` then ``pip install`` overwrote the built-in
    bots; ``new variant standard`` wrote a package whose own tests failed."""
    target = tmp_path / name
    result = CliRunner().invoke(app, ["new", kind, name, "--dir", str(target)])
    assert result.exit_code == 2, result.output
    assert words in result.output and "choose another name" in result.output
    assert "Traceback" not in result.output
    assert not target.exists()  # nothing written


def test_a_name_already_installed_as_a_distribution_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import bourre.cli.commands.new as new

    monkeypatch.setattr(new, "_installed", lambda dist: dist == "bourre-mine")
    result = CliRunner().invoke(app, ["new", "variant", "mine", "--dir", str(tmp_path / "m")])
    assert result.exit_code == 2 and "bourre-mine is already installed" in result.output


@pytest.mark.parametrize("where", ["/dev/null", "file", "file/below", "/proc/bourre-x"])
def test_a_dir_that_is_not_a_writable_directory_is_refused(tmp_path: Path, where: str) -> None:
    (tmp_path / "file").write_text("keep me")
    target = where if where.startswith("/") else str(tmp_path / where)
    result = CliRunner().invoke(app, ["new", "variant", "fine", "--dir", target])
    assert result.exit_code == 2, result.output
    assert "--dir" in result.output and "Traceback" not in result.output
    assert (tmp_path / "file").read_text() == "keep me"
