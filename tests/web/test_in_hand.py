"""``bourre serve``'s advice during the hand without a browser (issue 44): the page
``/advise/hand`` and ``POST /api/advise/hand`` give ``bourre advise --script``'s values;
the tap page offers "What should I play?" when the seat to play has shown its cards;
bad input gets a message, never a server error; the work of a request is bounded."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

from starlette.testclient import TestClient
from tapflow import SHOWN, TOUR
from typer.testing import CliRunner

from bourre import kernel
from bourre.cli import app
from bourre.web import MAX_WEB_HAND_DEALS, create_app

client = TestClient(create_app(), base_url="http://localhost", raise_server_exceptions=False)
HANDS = Path(__file__).resolve().parents[2] / "docs" / "examples" / "hands"
DISPUTE = (HANDS / "dispute.hand").read_text(encoding="utf-8")
KERNEL_BUDGET = pytest.mark.skipif(
    not kernel.available(),
    reason="the deals asked are past one page's work on the Python rules (no compiled"
    " kernel); the budget's own tests cover that",
)


def cut(text: str, plays: int) -> str:
    """The hand's lines up to its ``plays``-th card (the next card is to be played)."""
    out, k = [], 0
    for line in text.splitlines():
        if line.startswith("play "):
            if k == plays:
                break
            k += 1
        out.append(line)
    return "\n".join(out) + "\n"


def cli_json(script: Path, *args: str) -> dict[str, Any]:
    r = CliRunner().invoke(app, ["advise", "--script", str(script), "--json", *args])
    assert r.exit_code == 0, r.stderr
    data: dict[str, Any] = json.loads(r.stdout)
    return data


@KERNEL_BUDGET
def test_the_page_gives_the_command_s_values() -> None:
    r = client.post("/advise/hand", data={"script": DISPUTE, "deals": "30", "seed": "4"})
    assert r.status_code == 200
    want = cli_json(HANDS / "dispute.hand", "--deals", "30", "--seed", "4")
    assert f'id="best">{want["words"][1]}</p>' in r.text
    items = r.text.split('id="cards">', 1)[1].split("</ol>", 1)[0]
    assert items.count("<li>") == 2 and items.index("5♥") < items.index("A♥")
    rows = [w for w in want["words"] if w.startswith("  ")]
    for c, line in zip(want["cards"], rows, strict=True):
        assert line.split("  ", 2)[2].split(";")[0] in items, c
    assert "19 times in 20" in r.text and "30 deals that agree" in r.text


@KERNEL_BUDGET
def test_the_api_gives_the_command_s_json() -> None:
    r = client.post("/api/advise/hand", json={"script": DISPUTE, "deals": 25, "seed": 2})
    assert r.status_code == 200 and r.headers["content-type"].startswith("application/json")
    assert r.json() == cli_json(HANDS / "dispute.hand", "--deals", "25", "--seed", "2")


@KERNEL_BUDGET
def test_the_tap_page_offers_the_advice_when_the_player_has_shown_its_cards() -> None:
    """SHOWN: every playing seat showed its dealt cards, so the advice gives the values
    with every hand known beside those on what the player knows.  TOUR: the seat to play
    has shown nothing (its tricks will show its hand): no button, and a post says why."""
    script = cut(SHOWN, 1)
    page = client.post("/tap?house=standard", data={"script": script, "pending": "", "tap": ""})
    assert page.status_code == 200 and 'id="what-to-play"' in page.text
    form = page.text.split('action="/advise/hand?house=standard"', 1)[1].split("</form>", 1)[0]
    assert 'name="house" value="standard"' in form
    r = client.post(
        "/advise/hand?house=standard", data={"script": script, "house": "standard", "deals": "20"}
    )
    assert r.status_code == 200
    assert "Seat 2 to play (hand 1, trick 1: spades were led, hearts are trump)." in r.text
    assert "every hand known: +5 chips, sure of 3 tricks" in r.text
    assert 'id="back-to-hand"' in r.text
    data = client.post(
        "/api/advise/hand", json={"script": script, "house": "standard", "deals": 20}
    ).json()
    assert data["every_hand_known"] is True and data["seat"] == 2

    tour = cut(TOUR, 1)
    page = client.post("/tap?house=standard", data={"script": tour, "pending": "", "tap": ""})
    assert page.status_code == 200 and 'id="what-to-play"' not in page.text
    r = client.post("/advise/hand", data={"script": tour, "house": "standard"})
    assert r.status_code == 400 and "seat 2 is to play but has not shown its cards" in r.text


@KERNEL_BUDGET
def test_stand_ins_give_the_values_on_what_the_player_knows_only() -> None:
    """TOUR with seat 2's dealt cards shown, the others' not: the other hands are the tap
    page's stand-ins, so no values with every hand known."""
    lines = TOUR.replace("decide 2 play 4C 7D", "decide 2 play 4C 7D > QS 3H").splitlines()
    lines.insert(2, "dealt 2: AS KS 4C 7D 2H")
    script = cut("\n".join(lines), 1)
    page = client.post("/tap?house=standard", data={"script": script, "pending": "", "tap": ""})
    assert 'id="what-to-play"' in page.text
    r = client.post("/api/advise/hand", json={"script": script, "house": "standard", "deals": 20})
    data = r.json()
    assert r.status_code == 200, data
    assert data["every_hand_known"] is False and data["deals"] == 20
    assert all(c["chips"] is None and c["average"] is not None for c in data["cards"])
    assert any("have not shown their cards" in w for w in data["words"])


@pytest.mark.parametrize(
    ("data", "words"),
    [
        ({"script": ""}, "script: the hand is missing"),
        ({"script": DISPUTE, "deals": str(MAX_WEB_HAND_DEALS + 1)}, "deals: from 0 to 500"),
        ({"script": DISPUTE, "deals": "many"}, "deals: &#39;many&#39; is not a whole number"),
        ({"script": "house standard\nhand dealer 2\nupcard 2Z\n"}, "line 3, column 8"),
        ({"script": (HANDS / "tricks.hand").read_text(encoding="utf-8")}, "its last hand is over"),
        ({"script": cut(DISPUTE, 0).replace("decide 2 pass\n", "")}, "seat 2 is to decide"),
        ({"script": "hand dealer 0", "house": "standard"}, "the hand"),
        ({"script": DISPUTE, "house": "no-such-variant"}, "no-such-variant"),
    ],
)
def test_bad_input_gets_a_message_on_the_page(data: dict[str, str], words: str) -> None:
    r = client.post("/advise/hand", data=data)
    assert r.status_code == 400 and 'role="alert"' in r.text
    assert words in r.text, r.text.split('id="error">', 1)[-1][:300]


def test_a_decision_points_to_the_advice_before_the_hand() -> None:
    r = client.post("/advise/hand", data={"script": cut(DISPUTE, 0).replace("decide 2 pass\n", "")})
    assert (
        r.status_code == 400 and 'href="/advise' in r.text and "Should I play this hand?" in r.text
    )


@pytest.mark.parametrize(
    ("body", "words"),
    [
        (b"not json", "a JSON object expected"),
        (b"[1, 2]", "a JSON object expected"),
        (json.dumps({"script": DISPUTE, "hands": 3}).encode(), "hands: not a field"),
        (json.dumps({"script": 7}).encode(), "script: text expected"),
        (json.dumps({"script": DISPUTE, "deals": 10_000}).encode(), "deals: from 0 to 500"),
        (json.dumps({"script": DISPUTE, "deals": True}).encode(), "deals: text expected"),
    ],
)
def test_bad_api_requests_get_a_json_error(body: bytes, words: str) -> None:
    r = client.post("/api/advise/hand", content=body, headers={"content-type": "application/json"})
    assert r.status_code == 400 and words in r.json()["error"]


def test_the_api_is_guarded() -> None:
    """Only POST, from this site; a body over the limit is refused before it is read."""
    assert client.get("/api/advise/hand").status_code == 405
    r = client.post(
        "/api/advise/hand", json={"script": DISPUTE}, headers={"origin": "http://evil.example"}
    )
    assert r.status_code == 403
    r = client.post("/api/advise/hand", json={"script": "x" * (70 * 1024)})
    assert r.status_code == 413
