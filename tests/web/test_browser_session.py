"""A session on the phone in a real browser (Debian's Chromium through Playwright, at
390 and 1280 px; :mod:`bourre.web.tap.session`): the players' names, three hands tapped
with the pot and the dealer carried, a renege the tricks show let stand, a card taken
back, the ledger after each hand, an announcement out of turn tapped from its
disclosure (R-PREMATURE), the settlement, the session saved as a file that
``bourre replay`` referees to the same money; then a reload and a tab the phone dropped
(the session comes back from the browser's storage), and two browsers on the same
server that do not mix their sessions.  The screenshots are the ones docs/referee.md
shows.  Skips, saying why, where no browser can be found."""

from __future__ import annotations

import json
import subprocess
import sys
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
pytest.importorskip("uvicorn")

from browser import chromium, served
from sessionflow import FINAL, NAMES, PLACES, hands
from tapflow import ASKED, taps

from bourre.web.tap.session import decimal

SHOTS = Path(__file__).parents[2] / "docs" / "img" / "referee"
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


def tap(page: Any, value: str) -> None:
    """Tap the button that gives ``value``."""
    page.click(f'button[name="tap"][value="{value}"]')
    assert not page.query_selector("#error"), page.inner_text("#error")


def script_of(page: Any) -> str:
    return str(page.eval_on_selector('input[name="script"]', "e => e.value"))


def names_of(page: Any) -> list[str]:
    return [page.input_value(f'input[name="name{s}"]') for s in range(5)]


def restored(page: Any) -> None:
    """Wait for the page the saved session is posted back to."""
    page.wait_for_selector('#session[data-fresh="0"]')
    page.wait_for_load_state()


@pytest.mark.parametrize(("size", "viewport"), [("phone", PHONE), ("desktop", DESKTOP)])
def test_a_session_on_the_phone(
    server: str, browser: Any, size: str, viewport: dict[str, int], tmp_path: Path
) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    suffix = "" if size == "phone" else "-desktop"

    def shot(name: str) -> None:
        page.screenshot(path=str(SHOTS / f"session-{name}{suffix}.png"), full_page=True)

    context = browser.new_context(viewport=viewport)
    page = context.new_page()
    page.goto(server + "/tap?house=standard")
    # the names, before the first hand
    assert page.is_visible("#players input[name=name0]")
    for s, name in enumerate(NAMES):
        page.fill(f'input[name="name{s}"]', name)
    shot("names")
    page.click("#save-names")
    assert page.inner_text('button[value="dealer:0"]') == "Ana (seat 0)"

    for i, hand in enumerate(hands()):
        for value in taps(hand):
            if value.startswith(ASKED):
                if not page.query_selector("#question"):
                    continue
                value = value[len(ASKED) :]
                question = page.inner_text("#question")
                if i == 0:  # the renege the tricks show, named
                    assert question.startswith("Eli (seat 4) played 5♥ in trick 3")
                    assert not page.query_selector("#ledger")  # nothing decided yet
                    shot("renege")
            if value.startswith("premature:"):  # hand 3: seat 1 announces out of turn
                assert i == 2 and page.inner_text("#ask") == "Eli (seat 4): pass or play?"
                assert not page.is_visible('button[value="premature:1"]')  # folded away
                page.click("#premature summary")
                assert page.inner_text("#premature summary").startswith(
                    "Did a seat announce before its turn?"
                )
                assert not page.query_selector('#premature button[value="premature:4"]')
                assert page.inner_text('#premature button[value="premature:1"]') == "Bo (seat 1)"
                shot("premature")
            if value == "back":  # hand 2: the card taken back (R-CORRECTED)
                assert page.inner_text("#question").startswith("Ana (seat 0) played 10♦")
                shot("correction")
            tap(page, value)
        assert page.inner_text("#payout") == "The ruling"
        assert page.inner_text("#ledger-head") == f"The session: {i + 1} of 12 hands played"
        if i == 0:
            assert "Eli (seat 4) pays 5 chips (a renege)" in page.inner_text("#ruling")
            shot("ledger")
        if i == 1:
            assert page.inner_text("#ask").startswith("The hand is over")
        if i == 2:  # the announcement out of turn, said with what it costs
            ruled = page.inner_text("#ruling")
            assert "announced out of turn" in ruled and "R-PREMATURE" in ruled
    # the ledger: a row a hand, the dealer and the pot carried by the referee
    rows = page.query_selector_all("#ledger tbody tr")
    cells = [[c.inner_text() for c in r.query_selector_all("td")] for r in rows]
    assert [c[1] for c in cells] == ["Ana", "Bo", "Cyd"]
    assert [c[2] for c in cells] == ["5", "10", "14"]
    standing = page.inner_text("#standing")
    assert "Bo" in standing and "up " in standing and "down " in standing
    # the settlement, if the session ends here
    page.click("#settle-early summary")
    settled = page.inner_text("#settlement")
    for s, name in enumerate(NAMES):
        assert f"Place {PLACES[s]}: {name} {FINAL[s]} chips" in settled
    shot("settlement")
    if size == "phone":  # the page fits a phone: the ledger scrolls inside its box
        assert page.evaluate("document.documentElement.scrollWidth") <= 390

    # the session as a file, replayed to the same money
    with page.expect_download() as got:
        page.click("#export")
    path = tmp_path / "session.hand"
    got.value.save_as(str(path))
    text = path.read_text()
    assert text.splitlines()[1:6] == [f"# seat {s}: {n}" for s, n in enumerate(NAMES)]
    assert "\npremature 1\n" in text  # the announcement out of turn, tapped in hand 3
    out = subprocess.run(
        [sys.executable, "-m", "bourre.cli", "replay", str(path), "--json"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    final = json.loads(out)["final"]
    assert [decimal(Fraction(x)) for x in final["balances"]] == list(FINAL)
    assert final["ranks"] == list(PLACES)
    page.click("text=The hand in the notation")
    assert page.inner_text("#notation").strip() == text.strip()
    shot("export")

    # a reload: the session comes back from the browser's storage
    before = script_of(page)
    page.reload()
    restored(page)
    assert script_of(page) == before and names_of(page) == list(NAMES)
    assert page.inner_text("#ledger-head") == "The session: 3 of 12 hands played"
    # the phone slept and dropped the tab: a new one finds the session again
    page.close()
    page = context.new_page()
    page.goto(server + "/tap?house=standard")
    restored(page)
    assert script_of(page) == before and names_of(page) == list(NAMES)
    # the next hand goes on from there, the dealer carried
    tap(page, "next")
    assert page.inner_text("#ask").startswith("Dee (seat 3) deals.")
    assert page.inner_text("#ledger-head") == "The session: 3 of 12 hands played"
    shot("restored")

    # another phone on the same server: its own session, nothing of this one
    other = browser.new_context(viewport=viewport)
    page2 = other.new_page()
    page2.goto(server + "/tap?house=standard")
    page2.wait_for_load_state()
    assert page2.get_attribute("#session", "data-fresh") == "1"
    assert script_of(page2) == "" and names_of(page2) == [""] * 5
    assert not page2.query_selector("#ledger")
    page2.fill('input[name="name0"]', "Zoe")
    tap(page2, "dealer:3")
    page2.reload()
    restored(page2)
    assert script_of(page2) == "hand dealer 3" and names_of(page2)[0] == "Zoe"
    # the first phone still has its own
    page.reload()
    restored(page)
    assert script_of(page) == before + "\nhand" and names_of(page) == list(NAMES)
    # a new session drops the saved one, on this phone only
    page.click("#start-again")
    page.wait_for_load_state()
    assert script_of(page) == "" and names_of(page) == [""] * 5
    page.reload()
    page.wait_for_load_state()
    assert script_of(page) == ""
    page2.reload()
    restored(page2)
    assert script_of(page2) == "hand dealer 3"
    other.close()
    context.close()
