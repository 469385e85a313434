"""Every Python block of docs/api.md runs as written (the state API's examples: a
session, refusals, a hand from what a table saw, a ten-line bot, sampled worlds, a
"dealer antes 2" variant, PettingZoo, OpenSpiel)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

PAGE = Path(__file__).parents[2] / "docs" / "api.md"
BLOCKS = re.findall(r"```python\n(.*?)```", PAGE.read_text(encoding="utf-8"), re.S)


def test_the_page_has_its_examples() -> None:
    assert len(BLOCKS) >= 7


@pytest.mark.parametrize("i", range(len(BLOCKS)))
def test_block_runs(i: int) -> None:
    code = BLOCKS[i]
    if "bourre.pettingzoo" in code:
        pytest.importorskip("pettingzoo")
    if "bourre.openspiel" in code:
        pytest.importorskip("pyspiel", reason="open_spiel is not installed: bourre[openspiel]")
    exec(compile(code, f"docs/api.md block {i + 1}", "exec"), {"__name__": f"api_doc_{i}"})


def test_the_readme_library_snippet_runs_as_pasted() -> None:
    """The README's "As a library" block, run as a user pastes it (from the repository)."""
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    text = (root / "README.md").read_text(encoding="utf-8")
    section = text.split("## As a library", 1)[1]
    block = re.search(r"```python\n(.*?)```", section, re.S)
    assert block is not None
    import contextlib
    import io
    import os

    here = os.getcwd()
    try:
        os.chdir(root)
        with contextlib.redirect_stdout(io.StringIO()) as out:
            exec(compile(block.group(1), "README.md", "exec"), {})
    finally:
        os.chdir(here)
    assert "balances=" in out.getvalue()
