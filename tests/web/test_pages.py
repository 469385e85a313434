"""``bourre serve`` without a browser: forms generated from the settings models, the
rules of a house, a hand refereed line by line (a refused card, the payout), pasted
scripts, and bad requests answered with a message on the page, never a server error."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

from starlette.testclient import TestClient
from webflow import an_illegal_card, hand_lines

from bourre.web import MAX_BODY, create_app

client = TestClient(create_app(), base_url="http://localhost", raise_server_exceptions=False)


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
    assert f"Seat {winner} takes the pot:" in r.text


def test_paste_a_script() -> None:
    lines, _ = hand_lines()
    r = client.post("/paste", data={"script": "house standard\n" + "\n".join(lines)})
    assert r.status_code == 200 and "takes the pot" in r.text
    r = client.post("/paste", data={"script": "{not json"})
    assert r.status_code == 400 and "not valid JSON" in r.text
    r = client.post("/paste", data={"script": " \n"})
    assert r.status_code == 400 and "the script is empty" in r.text


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
    assert r.status_code in (200, 400, 413), r.status_code
    assert "Internal Server Error" not in r.text


def test_serve_binds_to_this_machine_by_default() -> None:
    from typer.testing import CliRunner

    from bourre.cli import app

    out = CliRunner().invoke(app, ["serve", "--help"]).stdout
    assert "127.0.0.1" in out


# -- the guard: headers, hosts, other sites, bodies, HEAD --------------------------------


def test_every_answer_carries_the_security_headers() -> None:
    for r in (client.get("/"), client.get("/rules?house=x"), client.post("/paste", data={"script": "{"}),
              client.get("/nowhere"), client.head("/")):
        csp = r.headers["content-security-policy"]
        assert "default-src 'none'" in csp and "frame-ancestors 'none'" in csp
        assert "script-src" not in csp and "unsafe-inline" not in csp
        assert r.headers["x-frame-options"] == "DENY"
        assert r.headers["x-content-type-options"] == "nosniff"
        assert r.headers["referrer-policy"] == "same-origin"


def test_the_page_style_is_the_one_the_policy_allows() -> None:
    import base64
    import hashlib
    import re

    page = client.get("/").text
    style = re.search(r"<style>(.*?)</style>", page, re.S)
    assert style is not None
    digest = base64.b64encode(hashlib.sha256(style.group(1).encode()).digest()).decode()
    assert f"'sha256-{digest}'" in client.get("/").headers["content-security-policy"]


@pytest.mark.parametrize(
    ("host", "status"),
    [("localhost", 200), ("127.0.0.1:8000", 200), ("[::1]:8000", 200), ("LOCALHOST", 200),
     ("evil.example", 400), ("localhost.evil.example", 400), ("localhost:x", 400), ("", 400),
     ("referee.lan", 200)],
)
def test_only_known_host_names_are_answered(host: str, status: int) -> None:
    named = TestClient(create_app(["referee.lan"]), raise_server_exceptions=False)
    r = named.get("/health", headers={"host": host})
    assert r.status_code == status


@pytest.mark.parametrize(
    ("headers", "status"),
    [
        ({"origin": "http://localhost"}, 200),
        ({"sec-fetch-site": "same-origin"}, 200),
        ({"origin": "http://evil.example"}, 403),
        ({"origin": "null"}, 403),
        ({"origin": "null", "sec-fetch-site": "same-origin"}, 200),  # Chromium's own form
        ({"origin": "null", "sec-fetch-site": "cross-site"}, 403),
        ({"origin": "http://localhost.evil.example"}, 403),
        ({"sec-fetch-site": "cross-site"}, 403),
        ({"sec-fetch-site": "same-site"}, 403),
        ({"sec-fetch-site": "same-origin", "origin": "null"}, 200),  # a browser's own form
        ({"sec-fetch-site": "cross-site", "origin": "http://localhost"}, 403),
    ],
)
def test_posts_from_other_sites_are_refused(headers: dict[str, str], status: int) -> None:
    lines, _ = hand_lines()
    r = client.post("/paste", data={"script": "house standard\n" + "\n".join(lines)}, headers=headers)
    assert r.status_code == status
    assert ("takes the pot" in r.text) == (status == 200)


def test_head_is_answered_and_other_methods_refused() -> None:
    for url in ("/", "/rules", "/hand", "/paste", "/health"):
        r = client.head(url)
        assert r.status_code == 200, url
    r = client.request("PUT", "/paste")
    assert r.status_code == 405 and r.headers["allow"] == "GET, HEAD, POST"


def test_a_body_that_never_comes_is_answered_in_time() -> None:
    """A client that promises more than it sends gets 408 when the time is up."""
    import asyncio
    import time

    app = create_app(body_seconds=0.3)
    sent: list[dict[str, object]] = []

    async def receive() -> dict[str, object]:
        if not sent:
            sent.append({})
            return {"type": "http.request", "body": b"script=ab", "more_body": True}
        await asyncio.sleep(30)  # the rest never comes
        return {"type": "http.disconnect"}

    async def send(message: dict[str, object]) -> None:
        sent.append(message)

    scope = {"type": "http", "method": "POST", "path": "/paste", "headers": [(b"host", b"localhost")],
             "query_string": b"", "scheme": "http", "http_version": "1.1", "root_path": ""}
    t0 = time.monotonic()
    asyncio.run(app(scope, receive, send))  # type: ignore[arg-type]
    assert time.monotonic() - t0 < 5
    assert sent[1]["status"] == 408


HOSTILE_WORDS = ["hand", "dealer", "²", "balances", "--5", "[" * 3000, "9" * 5000, "play", "1",
                 "AS", "upcard", "deck", "pot", "decide", "rules", "house", "(", ")", ",", "1e999",
                 "\x00", "é", "99", "discard", "#", "=", "table(players=7)", "{", '"', "pass"]


HOSTILE_LINES = ["hand dealer ²", "balances --5", "rules " + "[" * 5000, "balances " + "9" * 5000,
                  "hand pot 1e999", "hand dealer 9" + "9" * 5000, "play ², 1 AS", "decide ² play",
                  "dealt ³: AS", "rules {\"table\": {\"players\": " + "9" * 5000 + "}}"]


def _hostile(rng: Any, n: int) -> str:
    if rng.random() < 0.4:
        return rng.choice(HOSTILE_LINES)
    return " ".join(rng.choice(HOSTILE_WORDS) for _ in range(rng.randint(1, n)))


def test_two_hundred_concurrent_hostile_requests_get_no_server_error(caplog: Any) -> None:
    """Loopback only, bounded in count and time: a real server (uvicorn on a free
    port) takes 200 hostile requests at once (fuzzed forms, notation and scripts,
    lying lengths, other hosts and sites, huge bodies, garbage) and answers every one
    with no 5xx and nothing in its error log."""
    import asyncio
    import logging
    import random
    import socket
    import threading
    import time

    import httpx
    uvicorn = pytest.importorskip("uvicorn")

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    config = uvicorn.Config(create_app(body_seconds=1.0), host="127.0.0.1", port=port,
                            log_config=None, log_level="warning", timeout_keep_alive=2)
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    for _ in range(200):
        if server.started:
            break
        time.sleep(0.05)
    assert server.started
    base = f"http://127.0.0.1:{port}"

    async def raw(data: bytes, then_wait: bool = True) -> int:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(data)
        await writer.drain()
        line = await asyncio.wait_for(reader.readline(), 20)
        writer.close()
        return int(line.split()[1])

    async def one(k: int, http: httpx.AsyncClient) -> int:
        rng = random.Random(k)
        kind = k % 10
        if kind == 0:
            lines = "hand\n" + "\n".join(_hostile(rng, 5) for _ in range(rng.randint(0, 3)))
            r = await http.post(f"{base}/hand?house=standard", data={"script": lines, "line": _hostile(rng, 4)})
        elif kind == 1:
            key = rng.choice(["table.players", "table.balance", "table.ante", "pot-limit.limit"])
            r = await http.post(f"{base}/", data={key: _hostile(rng, 2), "use:pot-limit": "1"})
        elif kind == 2:
            r = await http.post(f"{base}/paste", data={"script": _hostile(rng, 12)})
        elif kind == 3:
            r = await http.get(f"{base}/rules", params={"house": _hostile(rng, 3)})
        elif kind == 4:
            r = await http.head(f"{base}/")
        elif kind == 5:  # a body promised and never sent
            return await raw(b"POST /paste HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: "
                             b"application/x-www-form-urlencoded\r\nContent-Length: 900\r\n\r\nscript=x")
        elif kind == 6:
            r = await http.get(f"{base}/", headers={"host": "evil.example"})
        elif kind == 7:
            r = await http.post(f"{base}/paste", data={"script": "x"}, headers={"origin": "http://evil.example"})
        elif kind == 8:
            r = await http.post(f"{base}/paste", content=b"script=" + b"9" * 70_000,
                                headers={"content-type": "application/x-www-form-urlencoded"})
        else:
            return await raw(bytes(rng.randrange(256) for _ in range(40)) + b"\r\n\r\n")
        return r.status_code

    async def main() -> list[int]:
        limits = httpx.Limits(max_connections=200, max_keepalive_connections=0)
        async with httpx.AsyncClient(timeout=30, limits=limits) as http:
            return await asyncio.gather(*(one(k, http) for k in range(200)))

    caplog.set_level(logging.ERROR)
    try:
        t0 = time.monotonic()
        statuses = asyncio.run(main())
        seconds = time.monotonic() - t0
    finally:
        server.should_exit = True
        thread.join(10)
    assert len(statuses) == 200 and all(s < 500 for s in statuses), sorted(set(statuses))
    assert {408, 413, 403, 400, 200} <= set(statuses)
    assert seconds < 60
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], caplog.text[:2000]


def test_a_page_that_fails_is_logged_and_answered_400_not_500(caplog: Any) -> None:
    """The last resort (a bug in a page): logged, and a plain page, never a 500."""
    import logging

    from starlette.applications import Starlette
    from starlette.routing import Route

    from bourre.web.guard import Guard

    async def broken(request: Any) -> Any:
        raise RuntimeError("a bug")

    app = Guard(Starlette(routes=[Route("/", broken)]), max_body=MAX_BODY)
    caplog.set_level(logging.ERROR)
    r = TestClient(app, base_url="http://localhost", raise_server_exceptions=False).get("/")
    assert r.status_code == 400 and "could not be refereed" in r.text
    assert r.headers["x-frame-options"] == "DENY"
    assert "a bug" in caplog.text


# -- the ruling at a glance (issue 43) ---------------------------------------------------

SESSION = Path(__file__).parents[2] / "docs" / "examples" / "hands" / "session.hand"


def _rule_ids(page: str) -> list[str]:
    rules = page.split('<details id="rules">', 1)[1].split("</details>", 1)[0]
    return re.findall(r'<dt class="rid">(R-[A-Z-]+)</dt>', rules)


def test_a_pasted_session_reads_at_a_glance() -> None:
    """Every hand's summary before its seats' lines, the rule texts once behind a
    disclosure, both announcements out of turn, no command-line words."""
    r = client.post("/paste", data={"script": SESSION.read_text()})
    assert r.status_code == 200
    page = r.text
    assert page.count('<ul class="summary"') == 4 and page.count('<ul class="seats"') == 4
    first = page.split('<section class="hand-ruling">', 2)[1]
    assert first.index('class="summary"') < first.index('class="seats"')
    ids = _rule_ids(page)
    assert len(ids) == len(set(ids)) and {"R-PREMATURE", "R-RENEGE", "R-SETTLE"} <= set(ids)
    assert page.count("Announcing play, pass or the number of cards") == 1
    assert page.count("announced out of turn") == 2
    assert "Seat 4 deals: seat 3 lost the deal (R-CORRECTED, R-RENEGE)" in page
    assert "bourre replay" not in page and "--json" not in page


def test_a_dispute_says_nothing_is_settled_without_command_line_words() -> None:
    lines, _ = hand_lines()
    r = client.post("/paste", data={"script": "house standard\n" + "\n".join(lines)})
    assert r.status_code == 200
    assert "nothing is settled yet" in r.text
    assert "bourre replay" not in r.text and "JSON record" not in r.text


def test_the_hand_page_shows_the_last_hand_at_a_glance() -> None:
    """/hand: the hand being refereed, its summary first, its rules once."""
    text = SESSION.read_text()
    script = text.split("\n", 2)[2]  # without the comment and the house line
    r = client.post("/hand?house=standard%2Btable(hands%3D4)", data={"script": script, "line": ""})
    assert r.status_code == 200, r.text[:2000]
    page = r.text
    assert page.count('<ul class="summary"') == 1  # the last hand
    assert "Seat 4 plays alone and takes the pot: 206 chips. (R-SOLE)" in page
    assert "Settled, what was left in the pot shared equally" in page
    ids = _rule_ids(page)
    assert len(ids) == len(set(ids)) and "R-PREMATURE" in ids
    assert "bourre replay" not in page
