"""One headless Chromium for the browser tests (Debian's, through Playwright): the
tests that need it skip, saying why, where no browser can be found."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest


def find_chromium() -> str | None:
    for name in (os.environ.get("BOURRE_CHROMIUM", ""), "chromium", "chromium-browser"):
        if name and (found := shutil.which(name)):
            return found
    return None


@contextmanager
def chromium() -> Iterator[Any]:
    """A launched browser, closed afterwards."""
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
    exe = find_chromium()
    if exe is None:
        pytest.skip("no Chromium found (apt-get install chromium): the browser tests are skipped")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=exe, args=["--no-sandbox"])
        try:
            yield b
        finally:
            b.close()
