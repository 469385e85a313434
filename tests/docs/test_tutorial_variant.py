"""docs/tutorial-variant.md, every command run in order: ``bourre new variant``, its
tests, ``pip install -e .``, ``bourre variants``, ``bourre rules`` and ``bourre
compare``, in a fresh environment that sees bourre (:mod:`plugin_env`)."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

from plugin_env import PluginEnv

PAGE = Path(__file__).resolve().parents[2] / "docs" / "tutorial-variant.md"


def commands() -> list[list[str]]:
    """The commands of the page's ``bash`` blocks, in order."""
    blocks = re.findall(r"```bash\n(.*?)```", PAGE.read_text(encoding="utf-8"), re.S)
    return [shlex.split(line) for b in blocks for line in b.splitlines() if line.strip()]


def test_the_page_is_in_the_nav() -> None:
    nav = (PAGE.parents[1] / "mkdocs.yml").read_text(encoding="utf-8")
    assert "tutorial-variant.md" in nav


def test_every_command_of_the_tutorial_runs(tmp_path: Path) -> None:
    env = PluginEnv(tmp_path / "venv")
    cwd = tmp_path / "work"
    cwd.mkdir()
    ran: list[str] = []
    outputs: dict[str, str] = {}
    for cmd in commands():
        line = shlex.join(cmd)
        if cmd[0] == "cd":
            cwd = (cwd / cmd[1]).resolve()
            assert cwd.is_dir(), line
        elif cmd[0] == "cat":
            assert (cwd / cmd[1]).is_file(), line
        elif cmd[:3] == ["pip", "install", "-e"]:
            env.install(cwd / cmd[3])
        elif cmd[0] == "pytest":
            run = env.run("-m", "pytest", "-q", "-p", "no:cacheprovider", *cmd[1:], cwd=cwd)
            assert run.returncode == 0, f"{line}:\n{run.stdout}\n{run.stderr}"
            outputs[line + f" ({cwd.name})"] = run.stdout
        elif cmd[0] == "bourre":
            extra = ["--workers", "1"] if cmd[1] == "compare" else []  # a shared machine
            run = env.run("-m", "bourre.cli", *cmd[1:], *extra, cwd=cwd)
            assert run.returncode == 0, f"{line}:\n{run.stdout}\n{run.stderr}"
            outputs[line] = run.stdout
        else:
            raise AssertionError(f"the tutorial runs {line!r}, which this test does not know")
        ran.append(line)
    assert ran[0] == "bourre new variant dealer-antes"
    assert "bourre-dealer-antes 0.1.0" in outputs["bourre variants"]
    assert "R-DEALER-ANTES" in outputs["bourre rules dealer-antes"]
    assert "the dealer antes 2 instead of 1" in outputs["bourre rules dealer-antes"]
    assert "R-DOUBLE-BOURRE" in outputs["bourre rules double-bourre"]
    compared = outputs["bourre compare standard dealer-antes --sessions 100"]
    assert "dealer-antes" in compared and "100 sessions per house" in compared
    assert sum("passed" in out for key, out in outputs.items() if key.startswith("pytest")) == 2
