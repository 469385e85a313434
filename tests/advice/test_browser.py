"""The advice pages of ``bourre serve`` in a real browser (Debian's Chromium through
Playwright, on a phone-sized screen and a desktop one): ask ``/advise`` whether to play
a hand, and review the play of a pasted hand (``/review``), each checked against the
same answer computed in process.  The screenshots it takes are the ones docs/advice.md
shows.  Skips, saying why, where no browser can be found."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
pytest.importorskip("uvicorn")

from browser import chromium, served

from bourre import kernel
from bourre.advice import advise
from bourre.advice.review import Recorder, review
from bourre.referee import load_script, referee
from bourre.web import WEB_DEALS

ROOT = Path(__file__).parents[2]
SHOTS = ROOT / "docs" / "img" / "advice"
TRICKS = ROOT / "docs" / "examples" / "hands" / "tricks.hand"
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}


@pytest.fixture(scope="module")
def server() -> Any:
    with served() as url:
        yield url


@pytest.fixture(scope="module")
def browser() -> Any:
    with chromium() as b:
        yield b


def test_ask_whether_to_play_a_hand(server: str, browser: Any) -> None:
    """The form of /advise filled in as a player would, from the header's link; the
    advice on the page is the library's, word for word."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    page = browser.new_page(viewport=PHONE)
    page.goto(server + "/paste")
    page.click("#nav-advise")
    page.fill("#place", "2")
    page.fill("#upcard", "5H")
    page.fill("#hand", "AH KH 7C 4D 2S")
    page.fill("#hands", "400")
    page.click("#ask")
    page.wait_for_selector("#advice", timeout=120_000)
    shown = [x.strip() for x in page.inner_text("#advice").splitlines() if x.strip()]
    expected = advise("standard", ["AH", "KH", "7C", "4D", "2S"], "5H", place=2, hands=400).words()
    assert shown == [x.strip() for x in expected if x.strip()]
    assert shown[0].startswith("standard, 5 players, you are place 2")
    assert "you take the pot about" in shown[1]
    page.locator("#advice").scroll_into_view_if_needed()
    page.screenshot(path=str(SHOTS / "advise.png"), full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390  # fits a phone
    page.close()


@pytest.mark.skipif(
    not kernel.available(),
    reason="the page's review is checked against the kernel's solver, word for word; without"
    " the compiled kernel a whole hand's review on the Python rules takes hours (its Python"
    " path is tested in tests/advice/test_review.py)",
)
@pytest.mark.parametrize(("size", "viewport"), [("phone", PHONE), ("desktop", DESKTOP)])
def test_review_a_pasted_hand(
    server: str, browser: Any, size: str, viewport: dict[str, int]
) -> None:
    """Paste the hand of docs/examples/hands/tricks.hand, read the ruling, press
    "Review the play": every card's lines are the review's of ``bourre replay
    --review --deals 20``; the costly plays are marked."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    suffix = "" if size == "phone" else "-desktop"
    page = browser.new_page(viewport=viewport)
    page.goto(server + "/paste")
    page.fill("#script", TRICKS.read_text(encoding="utf-8"))
    page.click("#rule")
    assert "nobody takes the pot" in page.inner_text("#ruling")
    page.click("#review")
    page.wait_for_selector("#review-summary", timeout=120_000)
    recorder = Recorder()
    done = referee(load_script(TRICKS), watch=recorder)
    expected = review(recorder.moments, house=done.house.spec, deals=WEB_DEALS, seed=0)
    items = page.locator("#review > li")
    assert items.count() == len(expected.plays) == 25
    for i, p in enumerate(expected.plays):
        shown = [x.strip() for x in items.nth(i).inner_text().splitlines() if x.strip()]
        assert shown == [w.strip() for w in p.words()]
    assert "solved by the kernel's solver" in page.inner_text("#review-intro")
    marked = page.locator("#review li.marked")
    assert marked.count() == sum(1 for p in expected.plays if p.marks())
    first = marked.first.inner_text()
    assert "✗ Playing 9♥ instead of 4♣ let seat 0 take the pot and left you bourré" in first
    assert page.locator("#review li.marked .cost").first.evaluate(
        "e => getComputedStyle(e).fontWeight"
    ) in ("600", "bold")
    summary = page.inner_text("#review-summary")
    assert summary.splitlines()[0].startswith("Seat 0: 5 cards played")
    page.locator("#review li.marked").nth(1).scroll_into_view_if_needed()
    page.screenshot(path=str(SHOTS / f"review{suffix}.png"))
    if size == "phone":
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.close()


def test_review_from_the_typed_hand_page(server: str, browser: Any) -> None:
    """A hand typed line by line, once over, offers its review at the same house."""
    page = browser.new_page(viewport=DESKTOP)
    page.goto(server + "/hand?house=standard")
    lines = TRICKS.read_text(encoding="utf-8").splitlines()
    body = "\n".join(x for x in lines if x and not x.startswith(("#", "house")))
    page.fill("#script", body)
    page.click("#add")
    assert page.inner_text("#payout") == "The hand is over"
    page.click("#review")
    page.wait_for_selector("#review-summary", timeout=120_000)
    assert "house standard" in page.inner_text("#review-intro")
    assert page.locator("#review > li").count() == 25
    page.close()
