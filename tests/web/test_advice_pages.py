"""``bourre serve``'s advice pages without a browser: "Should I play?" (``/advise``)
asked by tapping the tap page's card picker, its verdict first, with ``bourre
advise``'s defaults and figures; the strategy chart (``/chart``), drawn by the
template of ``bourre chart --html``, kept per house, refused with a message for a
house the kernel cannot play; both behind the web's guard."""

from __future__ import annotations

import re
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

from starlette.testclient import TestClient
from typer.testing import CliRunner

import bourre.web.charts as charts
from bourre import kernel
from bourre.advice.advise import HANDS, advise
from bourre.cli import app as cli
from bourre.houses.house import House
from bourre.web import create_app
from bourre.web.work import most_deals

client = TestClient(create_app(), base_url="http://localhost", raise_server_exceptions=False)
KERNEL = kernel.available()


def fields(page: str) -> dict[str, str]:
    """The form's values as the page carries them (hidden and text inputs)."""
    return {
        name: value.replace("&#39;", "'")
        for name, value in re.findall(
            r'<input type="(?:hidden|text)" name="([a-z]+)"[^>]*value="([^"]*)"', page
        )
    }


def tap(page: str, value: str) -> Any:
    """Press the button ``value`` of ``page``'s form, as the browser posts it."""
    assert f'value="{value}"' in page, value
    return client.post("/advise", data={**fields(page), "tap": value})


def between(page: str, start: str, end: str) -> str:
    return page[page.index(start) : page.index(end, page.index(start))]


# -- /advise ------------------------------------------------------------------------------


def test_the_question_is_tapped_on_the_picker_and_the_verdict_comes_first() -> None:
    page = client.get("/advise")
    assert page.status_code == 200
    assert 'id="picker"' in page.text and "Tap the dealer&#39;s upcard" in page.text
    assert fields(page.text)["hands"] == str(HANDS)  # bourre advise's default
    r = tap(page.text, "up:5H")
    assert "Tap your cards: 5 more cards." in r.text
    assert re.search(r'class="card upcard red"[^>]*data-card="5H"[^>]* disabled', r.text)
    for card in ("AH", "KH", "7C", "4D"):
        r = tap(r.text, f"card:{card}")
        assert r.status_code == 200
    assert "1 more card." in r.text
    r = tap(r.text, "card:2S")
    assert "Tap your place from the dealer." in r.text
    # a full hand: the other cards are greyed out, the picked ones can be taken back
    assert re.search(r'data-card="QS"[^>]* disabled', r.text)
    assert not re.search(r'data-card="2S"[^>]* disabled', r.text)
    r = tap(r.text, "place:2")
    assert "Ready" in r.text and 'class="picked" aria-label="place 2"' in r.text
    assert 'id="verdict"' not in r.text  # nothing is asked before the button
    r = tap(r.text, "ask")
    assert r.status_code == 200, r.text
    done = advise("standard", "AH KH 7C 4D 2S".split(), "5H", 2)  # the command's defaults
    assert done.hands == HANDS
    # the verdict first, then the figures: the command's, word for word
    assert r.text.index('id="verdict"') < r.text.index('id="advice"') < r.text.index('id="picker"')
    assert f'id="verdict">{done.headline}</p>' in r.text and done.headline == "PLAY"
    assert f'id="stake">{done.verdict_words()}</p>' in r.text
    shown = re.findall(r"<li>(.*?)</li>", between(r.text, 'id="advice"', "</ul>"))
    assert [x.replace("&#39;", "'") for x in shown] == done.figures()


def test_the_page_and_the_command_give_the_same_answer() -> None:
    """The same hand, the same seed, the defaults of both: the same deals and figures."""
    r = CliRunner().invoke(
        cli, ["advise", "--hand", "QD 9C 7C 4D 2S", "--upcard", "5H", "--place", "4", "--pot", "9"]
    )
    assert r.exit_code == 0, r.output
    page = client.post(
        "/advise",
        data={"upcard": "5H", "hand": "QD 9C 7C 4D 2S", "place": "4", "pot": "9", "tap": "ask"},
    )
    assert page.status_code == 200, page.text
    said = r.output.splitlines()
    assert f"From {HANDS:,} simulated deals" in said[-1]
    headline, verdict = said[1].split(" — ", 1)
    assert f'id="verdict">{headline}</p>' in page.text
    assert verdict[1:] in page.text  # (capitalised on the page)
    shown = re.findall(r"<li>(.*?)</li>", between(page.text, 'id="advice"', "</ul>"))
    assert [x.replace("&#39;", "'").strip() for x in shown] == [
        said[0],
        *(s.strip() for s in said[2:]),
    ]


def test_on_the_python_rules_the_default_deals_are_what_one_page_plays(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Where the Python rules play the advice (``BOURRE_ENGINE=python``, or a house the
    kernel cannot play), the page's default of 3,000 deals is more than one page does:
    asked with the default untouched, it plays as many as it takes and says so, the
    figures those of ``bourre advise`` with that many deals; a number typed past it is
    still refused, naming the most it takes."""
    monkeypatch.setenv("BOURRE_ENGINE", "python")
    most = most_deals(5, House("standard"))
    assert 1 <= most < HANDS
    data = {"upcard": "5H", "hand": "AH KH 7C 4D 2S", "place": "2", "tap": "ask"}
    for hands in ("", str(HANDS)):  # (the form carries the default)
        page = client.post("/advise", data={**data, "hands": hands})
        assert page.status_code == 200, page.text
        done = advise("standard", "AH KH 7C 4D 2S".split(), "5H", 2, hands=most)
        assert done.engine == "python" and f'id="verdict">{done.headline}</p>' in page.text
        shown = re.findall(r"<li>(.*?)</li>", between(page.text, 'id="advice"', "</ul>"))
        assert [x.replace("&#39;", "'") for x in shown] == done.figures()
        note = between(page.text, 'id="deals-note"', "</p>")
        assert f"From {most:,} simulated deals, the most one page plays" in note
        assert f"plays {HANDS:,} by default" in note
    page = client.post("/advise", data={**data, "hands": str(most + 1)})
    assert page.status_code == 400 and f"at most {most:,} here" in page.text
    assert 'id="verdict"' not in page.text
    monkeypatch.delenv("BOURRE_ENGINE")  # the kernel's page: no note, the default deals
    page = client.post("/advise", data={**data, "hands": ""})
    assert page.status_code == 200 and ('id="deals-note"' in page.text) is (not KERNEL)


def test_the_dealer_holds_the_upcard() -> None:
    """At the dealer's place the upcard is picked with the hand (R-DEAL), and cannot be
    taken back; elsewhere it leaves the hand."""
    r = client.post("/advise", data={"upcard": "AS", "hand": "KH QH", "tap": "place:5"})
    assert fields(r.text)["hand"] == "AS KH QH"
    assert "you are the dealer" in r.text
    again = tap(r.text, "card:AS")
    assert again.status_code == 400 and "the dealer&#39;s hand holds the upcard" in again.text
    r = tap(r.text, "place:2")
    assert fields(r.text)["hand"] == "KH QH"
    bad = tap(r.text, "card:AS")
    assert bad.status_code == 400 and "is the upcard" in bad.text and "(R-DEAL)" in bad.text


def test_a_full_hand_and_a_new_upcard() -> None:
    r = client.post("/advise", data={"upcard": "5H", "hand": "AH KH 7C 4D 2S", "tap": "card:3C"})
    assert r.status_code == 400 and "a hand is 5 cards (R-DEAL-SIZE)" in r.text
    r = tap(r.text, "card:KH")  # taken back
    assert fields(r.text)["hand"] == "AH 7C 4D 2S"
    r = tap(r.text, "upcard-again")
    assert fields(r.text)["upcard"] == "" and "Tap the dealer&#39;s upcard" in r.text
    r = tap(r.text, "up:7C")  # the new upcard leaves the hand
    assert fields(r.text)["hand"] == "AH 4D 2S"
    r = tap(r.text, "clear")
    assert fields(r.text)["hand"] == ""


@pytest.mark.parametrize(
    ("data", "words"),
    [
        ({"tap": "card:ZZ"}, "not a card"),
        ({"tap": "place:9"}, "R-SEAT"),
        ({"tap": "launch"}, "not a button"),
        ({"upcard": "5H", "hand": "AH KH", "place": "2", "tap": "ask"}, "R-DEAL-SIZE"),
        ({"upcard": "", "hand": "AH KH 7C 4D 2S", "place": "2", "tap": "ask"}, "upcard:"),
        ({"upcard": "5H", "hand": "AH KH 7C 4D 2S", "tap": "ask"}, "place:"),
    ],
)
def test_bad_taps_get_a_message(data: dict[str, str], words: str) -> None:
    r = client.post("/advise", data=data)
    assert r.status_code == 400 and 'class="error"' in r.text and words in r.text


def test_a_big_table_types_its_place() -> None:
    r = client.get("/advise?house=standard%2Btable(players=8)")
    assert r.status_code == 200 and 'aria-label="place 8">Dealer<' in r.text


# -- /chart -------------------------------------------------------------------------------


@pytest.fixture()
def small(monkeypatch: pytest.MonkeyPatch) -> None:
    """Charts of a few hands a cell, kept apart from the other tests'."""
    monkeypatch.setattr(charts, "WEB_CHART_HANDS", 4)
    monkeypatch.setattr(charts, "_KEPT", type(charts._KEPT)())


@pytest.mark.skipif(not KERNEL, reason="the page charts houses the compiled kernel plays")
def test_the_chart_is_a_page_of_serve(small: None, monkeypatch: pytest.MonkeyPatch) -> None:
    drawn: list[str] = []
    real = charts.chart

    def counted(house: Any, **kw: Any) -> Any:
        drawn.append(house.spec)
        assert kw["engine"] == "kernel" and kw["hands"] == 4
        return real(house, **kw)

    monkeypatch.setattr(charts, "chart", counted)
    r = client.get("/chart")
    assert r.status_code == 200, r.text
    assert 'id="chart"' in r.text and 'id="nav-chart"' in r.text
    assert "Strategy chart of standard: 5 players" in r.text
    cells = re.findall(r'<td class="(\w+)[^"]*" data-place="([^"]+)"', r.text)
    rows = len(re.findall(r"<tr><th>", r.text)) - 1  # (the head)
    assert len(cells) == 5 * rows and rows > 10
    assert {p for _, p in cells} == {"place 1", "place 2", "place 3", "place 4", "dealer"}
    assert {c for c, _ in cells} <= {"play", "pass", "close", "must", "none"}
    assert "How it was made" in r.text
    # kept: the second request draws nothing
    again = client.get("/chart?house=standard")
    assert again.status_code == 200 and drawn == ["standard"]
    # another house, its own chart; the links keep it
    r = client.get("/chart?house=standard%2Btable(players=3)")
    assert r.status_code == 200 and "3 players" in r.text and len(drawn) == 2
    assert 'href="/advise?house=standard%2Btable%28players%3D3%29"' in r.text


def test_a_house_the_kernel_cannot_play_is_not_charted_here(
    small: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(charts, "can_play", lambda house, bots, **kw: "a third-party variant")
    r = client.get("/chart?house=standard")
    assert r.status_code == 400
    assert "minutes of work" in r.text and "bourre chart &#39;standard&#39; --html" in r.text
    bad = client.get("/chart?house=no-such-variant")
    assert bad.status_code == 400 and 'class="error"' in bad.text


@pytest.mark.skipif(not KERNEL, reason="the page charts houses the compiled kernel plays")
def test_the_advice_pages_keep_the_guard(small: None) -> None:
    for url in ("/chart", "/advise"):
        r = client.get(url)
        assert "default-src 'none'" in r.headers["content-security-policy"]
        assert r.headers["x-frame-options"] == "DENY"
        assert "style=" not in r.text  # no inline style: the policy allows the page's own only
        assert client.get(url, headers={"host": "evil.example"}).status_code == 400
    posted = client.post(
        "/advise", data={"tap": "up:5H"}, headers={"origin": "http://evil.example"}
    )
    assert posted.status_code == 403
    huge = client.post(
        "/advise",
        content=b"hand=" + b"A" * 70_000,
        headers={"content-type": "application/x-www-form-urlencoded"},
    )
    assert huge.status_code in (400, 413)
