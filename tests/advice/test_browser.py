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
from bourre.advice.advise import HANDS
from bourre.advice.review import Recorder, review
from bourre.houses.house import House
from bourre.referee import load_script, referee
from bourre.web import WEB_DEALS
from bourre.web.work import most_deals

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


@pytest.mark.parametrize(("size", "viewport"), [("phone", PHONE), ("desktop", DESKTOP)])
def test_ask_whether_to_play_a_hand(
    server: str, browser: Any, size: str, viewport: dict[str, int]
) -> None:
    """/advise from the header's link, asked as a player would: the upcard and five
    cards tapped on the tap page's picker, the place tapped; the verdict (PLAY) is the
    first thing on the page, in the first screen, and the figures under it are
    ``bourre advise``'s, word for word, with its defaults."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    suffix = "" if size == "phone" else "-desktop"
    page = browser.new_page(viewport=viewport)
    page.goto(server + "/paste")
    page.click("#nav-advise")
    page.click('#picker [data-card="5H"]')  # the upcard
    for card in ("AH", "KH", "7C", "4D"):
        page.click(f'#picker [data-card="{card}"]')
    assert "1 more card" in page.inner_text("#next")
    if size == "phone":
        page.screenshot(path=str(SHOTS / "advise-picker.png"))
    page.click('#picker [data-card="2S"]')
    assert page.locator("#picker button.picked").count() == 5
    page.click('#places [aria-label="place 2"]')
    page.click("#ask")
    page.wait_for_selector("#verdict", timeout=120_000)
    # (the command's defaults; on the Python rules, the deals one page plays, said)
    hands = min(HANDS, most_deals(5, House("standard")))
    expected = advise("standard", ["AH", "KH", "7C", "4D", "2S"], "5H", place=2, hands=hands)
    assert page.inner_text("#verdict") == expected.headline == "PLAY"
    assert page.inner_text("#stake") == expected.verdict_words()
    shown = [x.strip() for x in page.inner_text("#advice").splitlines() if x.strip()]
    assert shown == [x.strip() for x in expected.figures() if x.strip()]
    assert shown[0].startswith("standard, 5 players, you are place 2")
    assert shown[-1].startswith(f"From {hands:,} simulated deals")
    assert (page.locator("#deals-note").count() == 1) is (hands < HANDS)
    # the verdict first: above the figures and the picker, within the first screen
    top = page.locator("#verdict").bounding_box()
    assert top is not None and top["y"] + top["height"] < viewport["height"] / 2
    assert top["y"] < page.locator("#advice").bounding_box()["y"]
    assert top["y"] < page.locator("#picker").bounding_box()["y"]
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    page.screenshot(path=str(SHOTS / f"advise{suffix}.png"))
    page.close()


@pytest.mark.skipif(not kernel.available(), reason="/chart charts houses the kernel plays")
@pytest.mark.parametrize(("size", "viewport"), [("phone", PHONE), ("desktop", DESKTOP)])
def test_the_strategy_chart_on_a_phone_and_a_desktop(
    server: str, browser: Any, size: str, viewport: dict[str, int]
) -> None:
    """/chart from the header's link: every cell on the screen, none clipped, no
    sideways scrolling; on a phone a card a kind of hand (its places side by side,
    each named), on a desktop the grid."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    page = browser.new_page(viewport=viewport)
    page.goto(server + "/advise")
    with page.expect_navigation(timeout=300_000):  # the first request draws the chart
        page.click("#nav-chart", timeout=300_000)  # (the click waits for the page too)
    page.wait_for_selector("#chart")
    assert "Strategy chart of standard" in page.inner_text("body")
    width = viewport["width"]
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    boxes = page.evaluate(
        "[...document.querySelectorAll('#chart td')].map(e => {"
        " const r = e.getBoundingClientRect(); return [r.left, r.right, e.scrollWidth <= e.clientWidth + 1]; })"
    )
    assert len(boxes) > 100
    assert all(0 <= left and right <= width and whole for left, right, whole in boxes)
    header = page.locator("#chart thead")
    if size == "phone":
        assert not header.is_visible()  # the places named in each cell instead
        first = page.locator("#chart td").first.inner_text()
        assert first.startswith("place 1") or "place 1" in page.evaluate(
            "getComputedStyle(document.querySelector('#chart td'), '::before').content"
        )
        page.screenshot(path=str(SHOTS / "chart.png"))
    else:
        assert header.is_visible()
        page.screenshot(path=str(SHOTS / "chart-desktop.png"))
    page.close()


def test_the_chart_page_of_bourre_chart_html_fits_a_phone(browser: Any) -> None:
    """``bourre chart --html``'s page, the same body, reflows at 390 px too."""
    from bourre.advice.chart import chart
    from bourre.advice.chart_page import chart_html

    page = browser.new_page(viewport=PHONE)
    page.set_content(chart_html(chart("standard", hands=2)))
    assert page.locator("#chart td").count() > 100
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
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
