"""Every Python block of docs/api.md runs as written (the state API's examples: a
session, refusals, a hand from what a table saw, a ten-line bot, sampled worlds, a
"dealer antes 2" variant, PettingZoo)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

PAGE = Path(__file__).parents[1] / "docs" / "api.md"
BLOCKS = re.findall(r"```python\n(.*?)```", PAGE.read_text(encoding="utf-8"), re.S)


def test_the_page_has_its_examples() -> None:
    assert len(BLOCKS) >= 7


@pytest.mark.parametrize("i", range(len(BLOCKS)))
def test_block_runs(i: int) -> None:
    code = BLOCKS[i]
    if "bourre.pettingzoo" in code:
        pytest.importorskip("pettingzoo")
    exec(compile(code, f"docs/api.md block {i + 1}", "exec"), {"__name__": f"api_doc_{i}"})
