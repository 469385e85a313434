"""One headless Chromium for the browser tests (Debian's, through Playwright): the
tests that need it skip, saying why, where no browser can be found; and ``bourre
serve``'s app served on a free local port for it to visit."""

from __future__ import annotations

import os
import shutil
import socket
import threading
import time
import urllib.request
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


@contextmanager
def served() -> Iterator[str]:
    """``bourre serve``'s app on a free port of this machine, in a thread: its address
    once it answers ``/health``; stopped afterwards."""
    uvicorn = pytest.importorskip("uvicorn")
    from bourre.web import create_app

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    config = uvicorn.Config(create_app(), host="127.0.0.1", port=port, log_level="warning")
    srv = uvicorn.Server(config)
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    url = f"http://127.0.0.1:{port}"
    for _ in range(100):
        try:
            urllib.request.urlopen(f"{url}/health", timeout=1).read()
            break
        except OSError:
            time.sleep(0.05)
    try:
        yield url
    finally:
        srv.should_exit = True
        thread.join(timeout=5)
