"""``bourre serve`` without a browser: forms generated from the settings models, the
rules of a house, a hand refereed line by line (a refused card, the payout), pasted
scripts, and bad requests answered with a message on the page, never a server error."""

from __future__ import annotations

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

from starlette.testclient import TestClient
from webflow import an_illegal_card, hand_lines

from bourre.web import MAX_BODY, create_app

client = TestClient(create_app(), raise_server_exceptions=False)


def test_compose_a_house_from_the_forms() -> None:
    page = client.get("/")
    assert page.status_code == 200
    assert 'name="pot-limit.limit"' in page.text and 'name="table.players"' in page.text
    r = client.post("/", data={"use:pot-limit": "1", "pot-limit.limit": "10"}, follow_redirects=True)
    assert r.status_code == 200
    assert "standard+pot-limit(limit=10)" in r.text and "R-POT-LIMIT" in r.text


@pytest.mark.parametrize(
    ("data", "words"),
    [
        ({"use:pot-limit": "1", "pot-limit.limit": ""}, "variants.pot-limit.limit"),
        ({"use:pot-limit": "1", "pot-limit.limit": "-3"}, "variants.pot-limit.limit"),
        ({"table.players": "12"}, "table.players"),
        ({"table.players": "five"}, "table.players"),
    ],
)
def test_bad_house_forms_get_a_message(data: dict[str, str], words: str) -> None:
    r = client.post("/", data=data)
    assert r.status_code == 400 and words in r.text and 'role="alert"' in r.text


def test_a_hand_refereed_line_by_line() -> None:
    lines, record = hand_lines()
    index, bad, seat = an_illegal_card(record)
    script, plays = "", 0
    for line in lines:
        if line.startswith("play "):
            if plays == index:
                r = client.post("/hand?house=standard", data={"script": script, "line": f"play {seat} {bad}"})
                assert r.status_code == 400 and "Refused:" in r.text and "(R-" in r.text
            plays += 1
        r = client.post("/hand?house=standard", data={"script": script, "line": line})
        assert r.status_code == 200, (line, r.text[:2000])
        script = r.text.split('id="script" rows="8">', 1)[1].split("</textarea>", 1)[0]
        script = script.replace("&gt;", ">").replace("&lt;", "<").replace("&#39;", "'")
    assert "The hand is over" in r.text
    winner = record["hands"][0]["winner"]
    assert f"Seat {winner} took the most tricks" in r.text


def test_paste_a_script() -> None:
    lines, _ = hand_lines()
    r = client.post("/paste", data={"script": "house standard\n" + "\n".join(lines)})
    assert r.status_code == 200 and "takes the pot" in r.text
    r = client.post("/paste", data={"script": "{not json"})
    assert r.status_code == 400 and "not valid JSON" in r.text


@pytest.mark.parametrize(
    ("method", "url", "data"),
    [
        ("get", "/rules?house=turbo", None),
        ("get", "/rules?house=" + "x" * 5000, None),
        ("get", "/hand?house=standard%2Bfoo(", None),
        ("post", "/hand?house=standard", {"script": "hand\nplay 1 ZZ", "line": ""}),
        ("post", "/hand?house=standard", {"script": "", "line": "frobnicate"}),
        ("post", "/paste", {"script": "x" * (MAX_BODY + 10)}),
    ],
)
def test_bad_requests_never_break_the_server(method: str, url: str, data: dict[str, str] | None) -> None:
    r = client.get(url) if method == "get" else client.post(url, data=data)
    assert r.status_code in (200, 400), r.status_code
    assert "Internal Server Error" not in r.text


def test_serve_binds_to_this_machine_by_default() -> None:
    from typer.testing import CliRunner

    from bourre.cli import app

    out = CliRunner().invoke(app, ["serve", "--help"]).stdout
    assert "127.0.0.1" in out
