"""``bourre serve`` in a real browser (Debian's Chromium through Playwright, on a
phone-sized screen and a desktop one): compose standard+pot-limit(limit=10), referee
one full hand typed in the notation with one illegal card refused, read the payout;
tap the tour's hand (five players, the standard house, one renege the table lets
stand) through to the payout and the lost deal, and check the page's ruling against
``bourre replay --words``; tap an announcement out of turn (R-PREMATURE) and read it
in the ruling.  The screenshots it takes are the ones docs/referee.md
shows.  Skips, saying why, where no browser can be found."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
pytest.importorskip("uvicorn")

from browser import chromium, served
from tapflow import ASKED, PREMATURE, SHOWN, TOUR, last_hand_words, taps
from webflow import an_illegal_card, hand_lines

SHOTS = Path(__file__).parents[2] / "docs" / "img" / "referee"


@pytest.fixture(scope="module")
def server() -> Any:
    with served() as url:
        yield url


PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}


@pytest.fixture(scope="module")
def browser() -> Any:
    with chromium() as b:
        yield b


@pytest.fixture(scope="module")
def page(browser: Any) -> Any:
    return browser.new_page(viewport=PHONE)  # a phone


def test_compose_referee_and_read_the_payout(server: str, page: Any) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.goto(server + "/")
    page.check('input[name="use:pot-limit"]')
    page.fill('input[name="pot-limit.limit"]', "10")
    page.click("#compose")
    assert page.inner_text("#house") == "standard+pot-limit(limit=10)"
    assert "R-POT-LIMIT" in page.content()
    page.screenshot(path=str(SHOTS / "house.png"))

    page.click("#referee-type")
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
    summary = page.inner_text("#summary")
    winner = record["hands"][0]["winner"]
    assert summary.startswith(f"Seat {winner} takes the pot:") and "(R-WIN)" in summary
    assert "pays 5 chips (bourré)" in summary and "(R-BOURRE)" in summary
    assert not page.is_visible("#rules dd")  # the rule texts behind the disclosure
    page.click("#rules summary")
    assert page.is_visible("#rules dd")
    page.screenshot(path=str(SHOTS / "payout.png"), full_page=True)
    # the page fits a phone: nothing wider than the screen
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


def tap(page: Any, value: str) -> None:
    """Tap the button that gives ``value`` (what a finger on the screen does)."""
    page.click(f'button[name="tap"][value="{value}"]')
    assert not page.query_selector("#error"), page.inner_text("#error")


def replay_words(text: str, tmp: Path) -> list[str]:
    path = tmp / "tour.hand"
    path.write_text(text)
    out = subprocess.run(
        [sys.executable, "-m", "bourre.cli", "replay", str(path), "--words"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return last_hand_words(out)


@pytest.mark.parametrize(("size", "viewport"), [("phone", PHONE), ("desktop", DESKTOP)])
def test_tap_a_hand_through_to_the_payout(
    server: str, browser: Any, size: str, viewport: dict[str, int], tmp_path: Path
) -> None:
    """The tour's hand by taps only: the dealer, the upcard, each seat's pass or play
    and discards (no dealt cards: the tricks show them), each card; the renege the
    tricks show is put to the table, which lets it stand; then the payout and the
    lost deal."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    page = browser.new_page(viewport=viewport)
    suffix = "" if size == "phone" else "-desktop"
    # the house composed on the first page is kept by the header's links
    page.goto(server + "/?house=standard")
    page.click("#compose")
    page.click("#nav-tap")
    assert "house=standard" in page.url
    assert page.inner_text("#ask") == "Who deals? Tap the dealer's seat."
    shots = {"upcard:9H": "tap-upcard", "throw:9D": "tap-throw", "card:8C": "tap-card"}
    for value in taps(TOUR):
        if value.startswith(ASKED):
            if not page.query_selector("#question"):
                continue
            value = value[len(ASKED) :]
            question = page.inner_text("#question")
            assert question.startswith(
                "Seat 1 played 8♣ in trick 2: without spades it must play one of its hearts"
            )
            assert question.endswith("(R-TRUMP).")
            assert "R-RENEGE: " in page.content() and "R-CORRECTED: " in page.content()
            if size == "phone":
                page.screenshot(path=str(SHOTS / "tap-question.png"), full_page=True)
        elif value in shots and (size == "phone" or value == "card:8C"):
            page.screenshot(path=str(SHOTS / f"{shots[value]}{suffix}.png"), full_page=True)
        tap(page, value)
    assert page.inner_text("#payout") == "The ruling"
    summary = [x.strip() for x in page.inner_text("#summary").splitlines() if x.strip()]
    seats = [x.strip() for x in page.inner_text("#seats").splitlines() if x.strip()]
    ruling = summary + seats
    assert summary[0] == "Seat 2 takes the pot: 5 chips, with 3 tricks. (R-WIN)"
    assert "seat 1 pays 5 chips (a renege)" in summary[1]
    assert summary[3] == "Seat 2 deals next: seat 1 loses the deal (R-RENEGE)."
    assert "reneged in trick 2: 8♣ was not allowed" in seats[1]
    assert not page.is_visible("#rules dd")  # the rule texts wait behind the disclosure
    page.screenshot(path=str(SHOTS / f"tap-payout{suffix}.png"), full_page=True)
    # the same hand written in the notation: the same ruling from the command line
    assert ruling == replay_words("house standard\n" + TOUR, tmp_path)
    # the next deal skips the seat that lost it
    tap(page, "next")
    assert page.inner_text("#ask").startswith("Seat 2 deals.")
    assert "Seat 1 lost the deal: R-RENEGE: " in page.content()
    if size == "phone":  # the page fits a phone: nothing wider than the screen
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.close()


def test_tap_with_the_cards_shown_each_card_is_checked(server: str, page: Any) -> None:
    """With a seat's cards shown, the picker marks the allowed cards; a forbidden card
    is put to the table at once."""
    page.goto(server + "/tap?house=standard")
    for value in taps(SHOWN):
        if value == "card:8C":
            break
        if not value.startswith(ASKED):
            tap(page, value)
    legal = page.query_selector('button[data-card="KH"]')
    assert "legal" in (legal.get_attribute("class") or "")
    assert page.query_selector('button[data-card="AS"]').is_disabled()  # played
    page.screenshot(path=str(SHOTS / "tap-legal.png"), full_page=True)
    tap(page, "card:8C")
    assert page.inner_text("#ask") == "8♣ is not allowed here. Does it stand, or was it taken back?"
    page.screenshot(path=str(SHOTS / "tap-forbidden.png"), full_page=True)
    tap(page, "stands")
    assert page.inner_text("#ask").startswith("Trick 3: tap the card seat 2 played.")


def test_tap_a_premature_announcement_into_the_ruling(server: str, browser: Any) -> None:
    """On a phone: seat 3 announces its pass before seat 2 has decided (R-PREMATURE);
    one tap records it, the ruling at the end says it and what it costs (its next
    deal), the summary first and the rule texts behind a disclosure."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    page = browser.new_page(viewport=PHONE)
    page.goto(server + "/tap?house=standard")
    for value in taps(PREMATURE):
        if value.startswith(ASKED):
            if not page.query_selector("#question"):
                continue
            assert not page.query_selector("#ruling")  # the question, not the ruling
            value = value[len(ASKED) :]
        if value == "premature:3":
            assert page.inner_text("#ask") == "Seat 2: pass or play?"
            page.click("#premature summary")  # the disclosure opens on a tap
            page.screenshot(path=str(SHOTS / "tap-premature.png"), full_page=True)
        tap(page, value)
    assert page.inner_text("#payout") == "The ruling"
    summary = [x.strip() for x in page.inner_text("#summary").splitlines() if x.strip()]
    assert summary[0] == "Seat 2 takes the pot: 5 chips, with 3 tricks. (R-WIN)"
    assert summary[3] == (
        "Seat 2 deals next: seat 1 loses the deal (R-RENEGE); seat 3 loses its next turn to"
        " deal (R-PREMATURE)."
    )
    seats = page.inner_text("#seats")
    assert "Seat 3 passed; announced out of turn: it loses its next deal (R-PREMATURE)" in seats
    # the summary sits at the top of the ruling, above the seats' lines
    top = page.eval_on_selector("#summary", "e => e.getBoundingClientRect().top")
    assert top < page.eval_on_selector("#seats", "e => e.getBoundingClientRect().top")
    assert not page.is_visible("#rules dd")
    page.screenshot(path=str(SHOTS / "tap-premature-ruling.png"), full_page=True)
    page.click("#rules summary")
    assert "R-PREMATURE" in page.inner_text("#rules")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.close()
