"""``bourre serve`` in a real browser (Debian's Chromium through Playwright, on a
phone-sized screen): compose standard+pot-limit(limit=10), referee one full hand
with one illegal card refused, read the payout.  The screenshots it takes are the
ones docs/referee.md shows.  Skips, saying why, where no browser can be found."""

from __future__ import annotations

import socket
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
uvicorn = pytest.importorskip("uvicorn")

from browser import chromium  # noqa: E402
from webflow import an_illegal_card, hand_lines  # noqa: E402

from bourre.web import create_app  # noqa: E402

SHOTS = Path(__file__).parents[1] / "docs" / "img" / "referee"


@pytest.fixture(scope="module")
def server() -> Any:
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
    yield url
    srv.should_exit = True
    thread.join(timeout=5)


@pytest.fixture(scope="module")
def page() -> Any:
    with chromium() as browser:
        yield browser.new_page(viewport={"width": 390, "height": 844})  # a phone


def test_compose_referee_and_read_the_payout(server: str, page: Any) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.goto(server + "/")
    page.check('input[name="use:pot-limit"]')
    page.fill('input[name="pot-limit.limit"]', "10")
    page.click("#compose")
    assert page.inner_text("#house") == "standard+pot-limit(limit=10)"
    assert "R-POT-LIMIT" in page.content()
    page.screenshot(path=str(SHOTS / "house.png"))

    page.click("#referee")
    lines, record = hand_lines()
    index, bad, seat = an_illegal_card(record)
    plays = 0
    for line in lines:
        if line.startswith("play "):
            if plays == index:
                page.fill("#line", f"play {seat} {bad}")
                page.click("#add")
                refusal = page.inner_text("#refusal")
                assert "Refused:" in refusal and "(R-" in refusal
                page.screenshot(path=str(SHOTS / "refusal.png"), full_page=True)
            plays += 1
        page.fill("#line", line)
        page.click("#add")
        assert not page.query_selector("#error"), page.inner_text("#error")
    assert page.inner_text("#payout") == "The hand is over"
    ruling = page.inner_text("#ruling")
    winner = record["hands"][0]["winner"]
    assert f"Seat {winner} took the most tricks" in ruling and "(R-WIN" in ruling
    assert "took no trick: bourré, pays 5 chips into the next pot" in ruling
    assert "(R-BOURRE" in ruling
    page.screenshot(path=str(SHOTS / "payout.png"), full_page=True)
    # the page fits a phone: nothing wider than the screen
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
