"""A third-party variant plugin end to end: the example distribution
``docs/examples/bourre-split-pot`` is built and installed into a temporary directory
(once per session), then the real ``bourre`` console script runs with that directory
on ``PYTHONPATH`` and finds the plugin through the ``bourre`` entry-point group.

Also in process: the same plugin given to :func:`bourre.rules.plugins.load_registry` as an
``extra`` plugin, and used by a :class:`bourre.houses.house.House` with that registry.
"""

from __future__ import annotations

import copy
import importlib
import importlib.util
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:  # for tests.reference (the independent referee)
    sys.path.insert(0, str(ROOT))

from bourre.game.simulate import play_session  # noqa: E402
from bourre.houses.house import House, PluginError  # noqa: E402
from bourre.houses.models import HouseError  # noqa: E402
from bourre.referee import ScriptError, replay  # noqa: E402
from bourre.rules import HandOutcome, PlayResult  # noqa: E402
from bourre.rules.hookspec import PAYOUT  # noqa: E402
from bourre.rules.plugins import _process, load_registry  # noqa: E402
from tests.reference.referee import referee  # noqa: E402

EXAMPLE = ROOT / "docs" / "examples" / "bourre-split-pot"
TIE_SCRIPT = EXAMPLE / "examples" / "tie.script.json"


# ----------------------------------------------------------------------------- fixtures


def _can_build_wheels_without_isolation() -> bool:
    """setuptools builds wheels itself from 70.1 on; before that it needs ``wheel``."""
    if importlib.util.find_spec("wheel") is not None:
        return True
    try:
        from importlib.metadata import version

        major, minor = (int(x) for x in version("setuptools").split(".")[:2])
    except Exception:
        return False
    return (major, minor) >= (70, 1)


@pytest.fixture(scope="session")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The example distribution installed into a fresh directory (``--target``).

    The source is copied first so that the build leaves nothing in the repository.
    Without a wheel builder in this environment (setuptools < 70.1 and no ``wheel``),
    pip is let to build in an isolated environment instead.
    """
    base = tmp_path_factory.mktemp("split-pot")
    src = base / "src"
    shutil.copytree(EXAMPLE, src, ignore=shutil.ignore_patterns("build", "*.egg-info"))
    target = base / "site"
    cmd = [sys.executable, "-m", "pip", "install", "--no-deps", "--target", str(target)]
    if _can_build_wheels_without_isolation():
        cmd.append("--no-build-isolation")
    cmd += ["--quiet", "--disable-pip-version-check", str(src)]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, f"pip install failed:\n{proc.stdout}\n{proc.stderr}"
    assert (target / "bourre_split_pot" / "__init__.py").is_file()
    assert list(target.glob("bourre_split_pot-0.1.0.dist-info"))
    return target


def _bourre_exe() -> list[str]:
    """The real console script, beside this interpreter (or on PATH)."""
    here = Path(sys.executable).parent / "bourre"
    if here.is_file():
        return [str(here)]
    found = shutil.which("bourre")
    assert found, "the bourre console script is not installed"
    return [found]


def run_bourre(*args: str, pythonpath: Path | None) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    env.pop("PYTHONPATH", None)
    if pythonpath is not None:
        env["PYTHONPATH"] = str(pythonpath)
    env.update(COLUMNS="250", NO_COLOR="1", TERM="dumb")
    return subprocess.run(
        [*_bourre_exe(), *args], capture_output=True, text=True, env=env, timeout=120
    )


@pytest.fixture(scope="session")
def split_pot(installed: Path) -> ModuleType:
    """The plugin module, imported from the installed copy."""
    with pytest.MonkeyPatch.context() as mp:
        mp.syspath_prepend(str(installed))
        module = importlib.import_module("bourre_split_pot")
    assert Path(module.__file__).resolve().is_relative_to(installed.resolve())
    return module


@pytest.fixture(scope="session")
def registry(split_pot: ModuleType):
    reg = load_registry(extra=[("split-pot", split_pot)])
    assert not reg.errors, reg.errors
    return reg


def tie_script() -> dict:
    return json.loads(TIE_SCRIPT.read_text(encoding="utf-8"))


def expected_tie_record() -> dict:
    """What the tie script must give under split-pot, from the independent referee.

    The reference referee plays the standard payout; hand 1 is a tie, so its record is
    adjusted by the split (each tied seat takes P / k, nothing of P carries).  Hand 2
    then differs only by its antes: under split-pot the tied seats ante again, so it
    is computed by hand (see the example's README).
    """
    script = tie_script()
    script["rules"]["variants"]["use"] = ["standard"]
    ref = referee(copy.deepcopy(script))
    h1 = ref["hands"][0]
    P = Fraction(h1["pot_at_stake"])
    best = max(h1["tricks_won"])
    tied = [s for s in h1["active"] if h1["tricks_won"][s] == best]
    assert len(tied) == 2 and h1["winner"] is None and not h1["reneges"]
    balances1 = [
        Fraction(b) + (P / len(tied) if s in tied else 0) for s, b in enumerate(h1["balances"])
    ]
    pot_after1 = Fraction(h1["pot_after"]) - P
    return {"tied": tied, "P": P, "balances1": balances1, "pot_after1": pot_after1}


def amounts(xs: list) -> list[Fraction]:
    return [Fraction(x) for x in xs]


# --------------------------------------------------------------------- the console script


def test_variants_lists_the_installed_plugin(installed: Path) -> None:
    proc = run_bourre("variants", pythonpath=installed)
    assert proc.returncode == 0, proc.stderr
    rows = [line for line in proc.stdout.splitlines() if " split-pot " in line]
    assert len(rows) == 1, proc.stdout
    assert "bourre-split-pot 0.1.0" in rows[0]
    assert "min_tricks" in rows[0]
    for builtin in ("standard", "pot-limit", "double-ante", "no-cinch"):
        assert any(
            f" {builtin} " in line and "bourre 0.1.0" in line for line in proc.stdout.splitlines()
        )
    assert "failed to load" not in proc.stdout


def test_variants_without_the_plugin(installed: Path) -> None:
    proc = run_bourre("variants", pythonpath=None)
    assert proc.returncode == 0, proc.stderr
    assert "split-pot" not in proc.stdout


def test_rules_prints_the_plugin_rule(installed: Path) -> None:
    proc = run_bourre("rules", "standard+split-pot", pythonpath=installed)
    assert proc.returncode == 0, proc.stderr
    out = " ".join(proc.stdout.split())
    assert "R-SPLIT-POT" in out
    assert "R-SPLIT-ANTE" in out
    assert "at least 1 each" in out
    # the standard R-WIN text (a tie carries) is replaced, other standard rules stay
    assert "carries all of P to the next hand. (split-pot)" in out
    assert "a tie for the most carries" not in out
    assert "R-CINCH-LEAD" in out and "R-FOLLOW" in out


def test_rules_with_settings_and_builds_on(installed: Path) -> None:
    proc = run_bourre("rules", "split-pot(min_tricks=2)", pythonpath=installed)
    assert proc.returncode == 0, proc.stderr
    out = " ".join(proc.stdout.split())
    assert "standard+split-pot(min_tricks=2)" in out  # builds_on added standard
    assert "at least 2 each" in out


def test_rules_bad_setting_names_the_key(installed: Path) -> None:
    proc = run_bourre("rules", "standard+split-pot(min_tricks=0)", pythonpath=installed)
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert "variants.split-pot.min_tricks" in proc.stderr
    proc = run_bourre("rules", "standard+split-pot(minimum=2)", pythonpath=installed)
    assert proc.returncode == 2
    assert "variants.split-pot.minimum" in proc.stderr and "unknown key" in proc.stderr


def test_rules_unknown_without_the_plugin() -> None:
    proc = run_bourre("rules", "standard+split-pot", pythonpath=None)
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert "unknown variant 'split-pot'" in proc.stderr


def test_replay_splits_a_tied_pot(installed: Path) -> None:
    proc = run_bourre("replay", str(TIE_SCRIPT), pythonpath=installed)
    assert proc.returncode == 0, proc.stderr
    record = json.loads(proc.stdout)
    assert record["house"] == "standard+split-pot+table(hands=2)"
    exp = expected_tie_record()
    h1, h2 = record["hands"]
    assert h1["winner"] is None  # a split has no single winner
    assert amounts(h1["balances"]) == exp["balances1"]
    assert Fraction(h1["pot_after"]) == exp["pot_after1"]
    # each tied seat took P/2 = 5/2: printed as a "p/q" string (HAND-HISTORY.md)
    assert exp["P"] == 5 and exp["tied"] == [0, 4]
    assert h1["balances"] == ["203/2", 99, 94, 99, "203/2"]
    # hand 2: the tied seats ante again (R-SPLIT-ANTE), only the bourré seat 2 is exempt
    assert h2["pot_at_stake"] == 5 + 4
    assert h2["winner"] == 1
    assert h2["balances"] == ["201/2", 107, 94, 98, "201/2"]
    assert record["final"] == {
        "balances": ["201/2", 107, 94, 98, "201/2"],
        "ranks": [2, 1, 5, 4, 2],
    }
    assert sum(amounts(record["final"]["balances"])) == 500


def test_replay_same_script_standard_carries(installed: Path, tmp_path: Path) -> None:
    """The same hands under the standard payout: the tie carries, the reference agrees."""
    script = tie_script()
    script["rules"]["variants"]["use"] = ["standard"]
    path = tmp_path / "standard.json"
    path.write_text(json.dumps(script), encoding="utf-8")
    proc = run_bourre("replay", str(path), pythonpath=installed)
    assert proc.returncode == 0, proc.stderr
    record = json.loads(proc.stdout)
    ref = referee(script)
    assert [h["balances"] for h in record["hands"]] == [h["balances"] for h in ref["hands"]]
    assert record["final"] == ref["final"]
    assert record["hands"][0]["pot_after"] == 10  # P = 5 carried + 5 from the bourré seat


def test_replay_without_the_plugin_is_refused() -> None:
    proc = run_bourre("replay", str(TIE_SCRIPT), pythonpath=None)
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert "split-pot" in proc.stderr


# ------------------------------------------------------------------------------ in process


@pytest.fixture
def own_default_registry() -> Iterator[None]:
    """The process's default registry made afresh before and after a test that puts
    the plugin on ``sys.path`` (else a registry first made during it keeps the plugin
    for the tests after it, which find 'split-pot' installed)."""
    _process.cache_clear()
    yield
    _process.cache_clear()


def test_entry_point_discovery_in_process(
    installed: Path, monkeypatch: pytest.MonkeyPatch, own_default_registry: None
) -> None:
    monkeypatch.syspath_prepend(str(installed))
    reg = load_registry()
    assert not reg.errors, reg.errors
    info = reg.variants["split-pot"]
    assert info.package == "bourre-split-pot 0.1.0"
    assert info.plugin == "split-pot"
    assert reg.variants["standard"].package.startswith("bourre ")


def test_extra_plugin_registry(registry, split_pot: ModuleType) -> None:
    info = registry.variants["split-pot"]
    assert info.cls is split_pot.SplitPot
    assert info.package == "bourre_split_pot"  # an extra plugin is named by its module
    assert set(registry.variants) >= {"standard", "pot-limit", "split-pot"}


def test_house_with_the_registry(registry) -> None:
    house = House("split-pot", registry=registry)
    assert house.names == ["standard", "split-pot"]
    assert house.spec == "standard+split-pot"
    assert house.answered_by["bourre_payout"].name == "split-pot"
    assert house.answered_by["bourre_penalty"].name == "standard"
    ids = [rid for _, _, (rid, _) in house.rule_texts()]
    assert "R-SPLIT-POT" in ids and "R-BOURRE" in ids
    # default registry: not installed there
    with pytest.raises(HouseError, match="unknown variant 'split-pot'"):
        House("standard+split-pot")
    with pytest.raises(HouseError, match=r"variants\.split-pot\.min_tricks"):
        House("split-pot(min_tricks=0)", registry=registry)
    combo = House("pot-limit(limit=3)+split-pot(min_tricks=2)", registry=registry)
    assert combo.answered_by["bourre_penalty"].name == "pot-limit"
    assert combo.answered_by["bourre_payout"].name == "split-pot"


def test_replay_in_process_matches_cli(registry, installed: Path) -> None:
    record = replay(tie_script(), registry=registry).model_dump(mode="json")
    proc = run_bourre("replay", str(TIE_SCRIPT), pythonpath=installed)
    assert json.loads(proc.stdout) == record
    with pytest.raises(ScriptError, match="split-pot"):
        replay(tie_script())  # the default registry does not have it


def _result(won: list[int], active: list[int], P=5, forfeits=(), reneges=()) -> PlayResult:
    return PlayResult(len(won), P, active, won, set(forfeits), list(reneges), False)


def test_payout_shares_exact(registry) -> None:
    payout = House("split-pot", registry=registry).rules[PAYOUT]
    pen = lambda p: p  # noqa: E731
    out = payout(_result([2, 0, 2, 1, 0], [0, 1, 2, 3, 4]), pen)
    assert isinstance(out, HandOutcome)
    assert out.winner is None
    assert out.takes == [Fraction(5, 2), 0, Fraction(5, 2), 0, 0]
    assert out.paid == [0, 5, 0, 0, 5]
    assert out.pot_after == 10  # the bourré payments only
    assert out.ante_exempt == {1, 4}  # the sharers ante again
    # a three-way tie of 7: 7/3 each, exactly
    out = payout(_result([1, 1, 1, 0, 0], [0, 1, 2], P=7), pen)
    assert out.takes[:3] == [Fraction(7, 3)] * 3 and sum(out.takes) == 7
    assert out.pot_after == 0
    # a single winner: the standard payout
    out = payout(_result([3, 2, 0, 0, 0], [0, 1, 2]), pen)
    assert out.winner == 0 and out.takes == [5, 0, 0, 0, 0] and out.pot_after == 5


def test_payout_forfeited_share_carries(registry) -> None:
    payout = House("split-pot", registry=registry).rules[PAYOUT]
    pen = lambda p: p  # noqa: E731
    out = payout(_result([2, 2, 1], [0, 1, 2], P=6, forfeits=[1]), pen)
    assert out.takes == [3, 0, 0]
    assert out.pot_after == 3  # seat 1's share
    assert out.ante_exempt == {1}  # the forfeiting tied player keeps the tie exemption
    out = payout(_result([2, 2, 1], [0, 1, 2], P=6, forfeits=[0, 1]), pen)
    assert out.takes == [0, 0, 0] and out.pot_after == 6 and out.tied == (0, 1)


def test_payout_min_tricks(registry) -> None:
    payout = House("split-pot(min_tricks=2)", registry=registry).rules[PAYOUT]
    pen = lambda p: p  # noqa: E731
    out = payout(_result([1, 1, 1, 1, 1], [0, 1, 2, 3, 4]), pen)  # a tie of 1 each: carries
    assert out.takes == [0] * 5 and out.pot_after == 5 and out.ante_exempt == {0, 1, 2, 3, 4}
    out = payout(_result([2, 2, 1, 0, 0], [0, 1, 2]), pen)
    assert out.takes == [Fraction(5, 2), Fraction(5, 2), 0, 0, 0]


def test_sessions_conserve_money(registry) -> None:
    for players in (2, 3, 5, 8):
        house = House(f"split-pot+table(players={players})", registry=registry)
        for seed in range(3):
            res = play_session(house, seed=seed)
            assert sum(res.final) == players * 100
            for hand in res.hands:
                out = hand.outcome
                assert hand.pot_at_stake + sum(out.paid) == sum(out.takes) + out.pot_after


def test_third_party_payout_is_guarded(registry) -> None:
    """house.py wraps third-party components: a payout that breaks conservation is a
    PluginError naming the plugin and the hook."""
    house = House("split-pot", registry=registry)
    hand = PlayResult(3, 5, [0, 1, 2], [3, 2, 0], set(), [], False)
    out = house.rules[PAYOUT](hand, lambda p: p)
    assert sum(out.takes) + out.pot_after == 5 + sum(out.paid)
    with pytest.raises(PluginError) as err:
        house.rules[PAYOUT](hand, lambda p: "x")  # a broken penalty makes the payout raise
    assert err.value.plugin == "split-pot" and err.value.hook == "bourre_payout"


@pytest.mark.parametrize(
    "args",
    [
        ("compare", "standard", "standard+split-pot"),
        ("simulate", "standard+split-pot"),
        ("sweep", "standard+split-pot(min_tricks={1,2})"),
    ],
)
def test_a_plugins_rule_asked_through_python_is_said_before_the_run(
    installed: Path, args: tuple[str, ...]
) -> None:
    """Issue 41: before the run, which plugin's rule the kernel asks through Python (the
    payout: the rest is compiled) and about how long."""
    pytest.importorskip("bourre.kernel._kernel", reason="the compiled kernel is not built")
    paths = [str(installed), str(ROOT / "core"), str(ROOT / "variants")]  # this tree's bourre
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(paths), "COLUMNS": "250", "NO_COLOR": "1"}
    proc = subprocess.run(
        [sys.executable, "-m", "bourre.cli", *args, "--sessions", "6", "--workers", "1"],
        capture_output=True, text=True, env=env, timeout=300, check=False,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    # the kernel plays it, asking the plugin's payout through Python (bourre.kernel.hooks)
    said = [ln for ln in proc.stderr.splitlines() if "plays on the compiled kernel" in ln]
    assert said, proc.stderr
    assert all(
        "asking the plugin for split-pot's payout once for each different hand result" in ln
        and "for 6 sessions" in ln
        for ln in said
    ), said
    assert all("standard " not in ln.split(" plays")[0] for ln in said)  # only the plugin's
