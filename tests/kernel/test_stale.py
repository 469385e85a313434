"""Never a stale rule (issue 41): the compiled kernel plays its own C++ copy of the
built-in rules; when an installed built-in rule module is not the one that copy was
written against (an editable install whose rule was edited), the houses built on it play
on the Python rules, after a one-line notice, never the old copy."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from bourre import kernel
from bourre.houses.house import House
from bourre.kernel import fingerprint

_kernel = pytest.importorskip(
    "bourre.kernel._kernel",
    reason="the compiled kernel is not built (BOURRE_NO_KERNEL=1, or no C++ compiler)",
)

ROOT = Path(__file__).resolve().parents[2]
RULES = ROOT / "variants" / "bourre_variants"


def edited_copy(tmp: Path) -> Path:
    """A copy of the built-in rule modules whose double-ante second ante is five antes."""
    shutil.copytree(RULES, tmp / "bourre_variants", ignore=shutil.ignore_patterns("__pycache__"))
    path = tmp / "bourre_variants" / "double_ante.py"
    text = path.read_text()
    assert "        return ante\n" in text
    path.write_text(text.replace("        return ante\n", "        return ante * 5\n", 1))
    return tmp


@pytest.fixture
def fresh(monkeypatch: pytest.MonkeyPatch) -> None:
    """The kernel's once-a-process reading of the rule modules and its plans, forgotten."""
    monkeypatch.setattr(kernel, "_STALE", [])
    monkeypatch.setattr(kernel, "_FACTS", [])
    monkeypatch.setattr(kernel, "_PLANS", [])


def test_the_committed_fingerprints_are_the_rules_in_this_tree() -> None:
    """mirrors.json says which rule sources the C++ copies: a built-in rule changed without
    its C++ copy and a new fingerprint (python -m bourre.kernel.fingerprint --write) fails here."""
    assert fingerprint.read_sources(RULES) == fingerprint.load(fingerprint.MIRRORS)


def test_kernel_variants_come_from_the_build_facts() -> None:
    assert kernel.KERNEL_VARIANTS == {
        "standard", "double-ante", "pot-limit", "four-card", "simultaneous-reveal",
        "optional-undertrump", "no-cinch",
    }  # fmt: skip


def test_comments_and_blank_lines_do_not_count_code_does() -> None:
    base = "def f(a):\n    return a\n"
    assert fingerprint.fingerprint(base) == fingerprint.fingerprint(
        "# a note\ndef f(a):   # here\n\n    return a   \n"
    )
    assert fingerprint.fingerprint(base) != fingerprint.fingerprint(base.replace("a\n", "a * 5\n"))


def test_the_unedited_tree_keeps_the_kernel(
    fresh: None, capsys: pytest.CaptureFixture[str]
) -> None:
    assert kernel.stale_rules() == {}
    assert kernel.can_play(House("standard+double-ante"), "heuristic") is None
    assert capsys.readouterr().err == ""


def test_an_edited_rule_plays_on_the_python_rules_with_one_notice(
    fresh: None,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    root = edited_copy(tmp_path) / "bourre_variants"
    monkeypatch.setattr(fingerprint, "installed", lambda: fingerprint.read_sources(root))
    why = kernel.can_play(House("standard+double-ante"), "heuristic")
    assert why is not None and "double_ante.py" in why and "Python rules" in why
    assert kernel.can_play(House("standard+no-cinch"), "heuristic") is None
    assert kernel.can_play(House("standard"), "random") is None
    kernel.can_play(House("standard+double-ante+four-card"), "random")
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1, err  # once a process
    assert "bourre_variants/double_ante.py" in err[0] and "double-ante plays" in err[0]
    assert "pip install -e ." in err[0] and "build_ext --inplace" in err[0]


def test_an_edited_standard_rule_sends_every_house_to_the_python_rules(
    fresh: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    facts = dict(fingerprint.built())
    facts["standard/payout.py"] = "0" * 64
    monkeypatch.setattr(kernel, "_BUILT_FROM", facts)
    for spec in ("standard", "standard+no-cinch"):
        assert "standard/payout.py" in (kernel.can_play(House(spec)) or "")
    assert "every house plays" in fingerprint.notice(kernel.stale_rules())


def compare(tmp: Path, pythonpath: list[Path]) -> dict[str, Any]:
    out = tmp / "run.json"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(map(str, pythonpath))}
    done = subprocess.run(
        [sys.executable, "-m", "bourre.cli", "compare", "standard", "double-ante",
         "--sessions", "8", "--workers", "1", "--seed", "stale", "--json", str(out)],
        capture_output=True, text=True, env=env, timeout=300, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    run: dict[str, Any] = json.loads(out.read_text())
    run["stderr"] = done.stderr
    return run


def test_compare_shows_an_edited_double_ante(tmp_path: Path) -> None:
    """The edit of the issue: play_ante made ``ante * 5``; ``bourre compare standard
    double-ante`` shows the bigger pots (on the Python rules), and says so once."""
    core = ROOT / "core"
    plain = compare(tmp_path, [core, ROOT / "variants"])
    edited = compare(edited_copy(tmp_path), [tmp_path, core, ROOT / "variants"])
    engines = {h: e for h, e in plain["timing"]["engines"].items()}
    assert engines == {"standard": ["kernel"], "standard+double-ante": ["kernel"]}
    assert edited["timing"]["engines"]["standard+double-ante"] == ["python"]
    assert edited["timing"]["engines"]["standard"] == ["kernel"]
    pots = [[h["pot_mean"]["mean"] for h in r["houses"]] for r in (plain, edited)]
    assert pots[0][0] == pots[1][0]  # standard: the same
    assert pots[1][1] > 1.5 * pots[0][1]  # double-ante: four more antes from each player
    assert "not the rule the compiled kernel copies" not in plain["stderr"]
    notices = [ln for ln in edited["stderr"].splitlines() if "compiled kernel copies" in ln]
    assert len(notices) == 1 and "double_ante.py" in notices[0]


def test_the_run_says_which_rule_was_edited(
    fresh: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from bourre.sim.speed import forecast

    root = edited_copy(tmp_path) / "bourre_variants"
    monkeypatch.setattr(fingerprint, "installed", lambda: fingerprint.read_sources(root))
    why = forecast.why_python(House("standard+double-ante"), "heuristic")
    assert why == "its built-in rule double_ante.py was edited since the build"
    assert forecast.why_python(House("standard+no-cinch"), "heuristic") is None


def test_rules_installed_without_sources_are_not_called_edited() -> None:
    assert fingerprint.stale(fingerprint.built(), lambda: {}) == {}
    assert fingerprint.stale(fingerprint.built(), lambda: None) == {}
