"""A session on the phone without a browser (:mod:`bourre.web.tap.session`): the
players' names on every line of the page that names a seat, three hands tapped with the
pot and the dealer carried by the referee (R-SESSION, R-DEALER), a renege let stand
and a card taken back, the running ledger in decimals with who is up and who is down,
the settlement at the end (R-SETTLE), and the session saved as a file that ``bourre
replay`` referees to the same money, names and all."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from fractions import Fraction
from pathlib import Path
from urllib.parse import quote

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

from sessionflow import FINAL, NAMES, PLACES, SESSION, hands
from starlette.testclient import TestClient
from tapflow import ASKED, hidden, taps, text_of

from bourre.houses.house import House
from bourre.referee import replay
from bourre.referee.notation import parse_script
from bourre.web import create_app
from bourre.web.tap import TapError
from bourre.web.tap.page import Button, Step
from bourre.web.tap.session import Names, decimal, export

client = TestClient(create_app(), base_url="http://localhost", raise_server_exceptions=False)


class Phone:
    """A phone at the table: each tap posts the form the last page gave, the names
    with it (they travel in the form, as the page's inputs)."""

    def __init__(self, house: str = "standard") -> None:
        self.url = f"/tap?house={quote(house)}"
        self.page = client.get(self.url).text
        self.status = 200

    def fields(self) -> dict[str, str]:
        data = {"script": hidden(self.page, "script"), "pending": hidden(self.page, "pending")}
        for s in range(5):
            m = re.search(rf'name="name{s}" form="tap" value="([^"]*)"', self.page)
            data[f"name{s}"] = m.group(1) if m else ""
        return data

    def tap(self, value: str, **fields: str) -> str:
        data = self.fields() | fields
        data["tap"] = value
        r = client.post(self.url, data=data)
        self.status, self.page = r.status_code, r.text
        return r.text

    def taps(self, values: list[str]) -> None:
        for value in values:
            if value.startswith(ASKED):
                if 'id="question"' not in self.page:
                    continue
                value = value[len(ASKED) :]
            self.tap(value)
            assert self.status == 200, (value, text_of(self.page, "error"))


def names() -> dict[str, str]:
    return {f"name{s}": name for s, name in enumerate(NAMES)}


def standing(page: str) -> list[str]:
    block = page.split('id="standing">', 1)[1].split("</ul>", 1)[0]
    return [
        " ".join(re.sub(r"<[^>]+>", " ", x).split())
        for x in re.findall(r"<li[^>]*>(.*?)</li>", block)
    ]


def settlement(page: str) -> list[str]:
    block = page.split('id="settlement">', 1)[1].split("</ol>", 1)[0]
    return [
        " ".join(re.sub(r"<[^>]+>", " ", x).split())
        for x in re.findall(r"<li[^>]*>(.*?)</li>", block)
    ]


def ledger_rows(page: str) -> list[list[str]]:
    block = page.split('id="ledger">', 1)[1].split("</table>", 1)[0]
    return [
        [re.sub(r"<[^>]+>", "", c).strip() for c in re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", row)]
        for row in re.findall(r"<tr>(.*?)</tr>", block)
    ]


@pytest.fixture(scope="module")
def played() -> Phone:
    """The session tapped through its three hands, the names given first."""
    phone = Phone()
    phone.tap("names", **names())
    assert phone.status == 200
    for hand in hands():
        phone.taps(taps(hand))
    return phone


def test_the_names_travel_and_name_every_seat() -> None:
    phone = Phone()
    assert 'data-fresh="1"' in phone.page  # a page opened with nothing: the script restores
    phone.tap("names", **names())
    assert 'data-fresh="0"' in phone.page
    assert text_of(phone.page, "ask") == "Who deals? Tap the dealer's seat."
    assert ">Ana (seat 0)</button>" in phone.page and ">Eli (seat 4)</button>" in phone.page
    assert 'value="dealer:0"' in phone.page  # the taps are the seats, as before
    phone.taps(["dealer:0", "upcard:TD"])
    assert text_of(phone.page, "ask") == "Bo (seat 1): pass or play?"
    assert "Hand 1 · Ana (seat 0) deals" in phone.page
    assert 'name="name1" form="tap" value="Bo"' in phone.page  # still in the form


def test_a_name_too_long_is_refused_with_a_message() -> None:
    phone = Phone()
    phone.tap("names", name2="x" * 40)
    assert phone.status == 400
    assert "seat 2's name: at most 24 letters (R-SESSION)" in text_of(phone.page, "error")


def test_names_in_the_sentences_of_the_page() -> None:
    n = Names(("Ana", "", "Cyd", "Dee", ""))
    assert n.text("Seat 1 passes; seat 0 deals") == "Seat 1 passes; Ana (seat 0) deals"
    assert n.text("Antes: seats 0, 1 and 3 do not ante") == (
        "Antes: seats 0 (Ana), 1 and 3 (Dee) do not ante"
    )
    step = n.step(Step("Seat 2: pass or play?", buttons=(Button("pass", "Seat 2 passes"),)))
    assert step.ask == "Cyd (seat 2): pass or play?"
    assert step.buttons == (Button("pass", "Cyd (seat 2) passes"),)
    assert Names.read({"name0": " Ana\n  Maria\x00 "}, 2).names == ("Ana Maria", "")
    with pytest.raises(TapError):
        Names.read({"name0": "y" * 25}, 1)


def test_amounts_in_decimals() -> None:
    from fractions import Fraction

    assert [decimal(x) for x in (12, Fraction(434, 5), Fraction(-17, 5), Fraction(100, 3))] == [
        "12",
        "86.8",
        "-3.4",
        "33.33",
    ]


def test_three_hands_with_the_pot_and_the_dealer_carried(played: Phone) -> None:
    page = played.page
    script = hidden(page, "script")
    assert [x for x in script.splitlines() if x.startswith("hand")] == [
        "hand dealer 0",
        "hand",
        "hand",
    ]
    assert "play 0 TD/3S" in script  # hand 2's card taken back (R-CORRECTED)
    assert "# stood: seat 4" in script  # hand 1's renege let stand (R-RENEGE)
    rows = ledger_rows(page)
    assert rows[0] == ["#", "Deals", "Pot", "Won by", *NAMES]
    # hand by hand: who dealt is the referee's, the pot carried from the hand before
    assert [r[0] for r in rows[1:]] == ["1", "2", "3"]
    assert [r[1] for r in rows[1:]] == ["Ana", "Bo", "Cyd"]
    assert [r[2] for r in rows[1:]] == ["5", "10", "14"]
    assert "The session: 3 of 12 hands played" in page
    # the money of each hand: the referee's, as bourre replay gives it
    record = replay(parse_script("house standard\n" + SESSION)).model_dump(mode="json")
    for row, hand in zip(rows[1:], record["hands"], strict=True):
        assert row[4:] == [decimal(Fraction(b)) for b in hand["balances"]]


def test_the_ledger_says_who_is_up_and_who_is_down(played: Phone) -> None:
    rows = standing(played.page)
    assert len(rows) == 5 and rows[0].startswith("Ana ")
    for row in rows:
        _who, balance, *word = row.split()
        change = float(balance) - 100
        assert " ".join(word) == (
            f"up {decimal_text(change)}"
            if change > 0
            else f"down {decimal_text(-change)}"
            if change < 0
            else "even"
        )
    assert 'class="up"' in played.page and 'class="down"' in played.page


def decimal_text(x: float) -> str:
    return f"{x:.2f}".rstrip("0").rstrip(".")


def test_the_settlement_if_the_session_ends_here(played: Phone) -> None:
    assert 'id="settle-early"' in played.page  # 3 of 12 hands: offered, not imposed
    got = settlement(played.page)
    by_seat = {row.split()[2]: row for row in got}
    for s, name in enumerate(NAMES):
        assert f"Place {PLACES[s]}: {name} {FINAL[s]} chips" in by_seat[name]
    assert [int(x.split()[1].rstrip(":")) for x in got] == sorted(PLACES)


def test_the_session_ends_after_its_hands_with_the_settlement() -> None:
    phone = Phone("standard+table(hands=3)")
    phone.tap("names", **names())
    for i, hand in enumerate(hands()):
        phone.taps(taps(hand))
        assert f"The session: {i + 1} of 3 hands played" in phone.page
    assert 'id="settlement-head"' in phone.page and 'id="next-hand"' not in phone.page
    assert "The session is over: the settlement" in phone.page
    got = settlement(phone.page)
    assert got[0].startswith("Place 1: Bo 123.8 chips, up 23.8")


def test_nothing_is_in_the_ledger_before_the_table_rules_on_a_renege() -> None:
    phone = Phone()
    values = taps(hands()[0])
    while values[-1].startswith(ASKED):
        values.pop()
    phone.taps(values)  # over; the tricks show seat 4's renege
    assert 'id="question"' in phone.page
    assert 'id="ledger"' not in phone.page and 'id="settlement"' not in phone.page
    phone.tap("stands")
    assert 'id="ledger"' in phone.page


def test_the_session_as_a_file_replays_to_the_same_money(played: Phone, tmp_path: Path) -> None:
    data = played.fields()
    r = client.post("/tap/export?house=standard", data=data)
    assert r.status_code == 200
    assert r.headers["content-disposition"] == 'attachment; filename="session.hand"'
    text = r.text
    assert text.splitlines()[:6] == [
        "house standard",
        *(f"# seat {s}: {n}" for s, n in enumerate(NAMES)),
    ]
    # the page shows the same text
    assert text.strip() == text_of(played.page, "notation")
    # the names come back from the file
    assert Names.from_notation(text, 5).names == NAMES
    path = tmp_path / "session.hand"
    path.write_text(text)
    out = subprocess.run(
        [sys.executable, "-m", "bourre.cli", "replay", str(path), "--json"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    record = json.loads(out)
    final = record["final"]
    assert [decimal(Fraction(x)) for x in final["balances"]] == list(FINAL)
    assert final["ranks"] == list(PLACES)
    # the same hands as the session tapped, line for line
    assert parse_script(text)["hands"] == parse_script("house standard\n" + SESSION)["hands"]


def test_export_of_a_session_keeps_its_lines() -> None:
    house = House("standard")
    text = export(house, "hand dealer 0\n\nupcard TD\n", Names(("", "Bo", "", "", "")))
    assert text == "house standard\n# seat 1: Bo\nhand dealer 0\nupcard TD\n"


def test_the_page_loads_its_script_from_the_server_only() -> None:
    r = client.get("/tap/session.js")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/javascript")
    assert "localStorage" in r.text
    csp = client.get("/tap").headers["content-security-policy"]
    assert "script-src 'self'" in csp and "unsafe-inline" not in csp
    page = client.get("/tap").text
    assert '<script src="/tap/session.js" defer></script>' in page
    assert "<script>" not in page  # no inline script


def test_two_phones_do_not_share_a_session() -> None:
    """The server keeps nothing: what one phone taps is in its own form (and storage)."""
    a, b = Phone(), Phone()
    a.tap("names", **names())
    a.taps(["dealer:0", "upcard:TD"])
    b.taps(["dealer:3"])
    assert "Ana" not in b.page and hidden(b.page, "script") == "hand dealer 3"
    assert hidden(a.page, "script") == "hand dealer 0\nupcard TD"
    assert client.get("/tap").text.count('value=""') >= 5  # a new phone: nothing of either


def test_the_ledger_between_hands(played: Phone) -> None:
    """Before the next hand's upcard is tapped, the ledger of the hands before."""
    phone = Phone()
    phone.page = played.page
    phone.tap("next")
    assert text_of(phone.page, "ask").startswith("Dee (seat 3) deals.")
    assert "The session: 3 of 12 hands played" in phone.page
    assert len(ledger_rows(phone.page)) == 4
    assert 'id="settlement"' not in phone.page  # the next hand is under way


def test_a_dealer_whose_tricks_show_its_hand_plays_the_upcard() -> None:
    """Hand 1: seat 0 deals 10♦ up, plays without showing its cards, and plays 10♦ in
    trick 4; its provisional hand keeps the upcard among the cards it was dealt
    (R-DEAL), not among the ones it drew."""
    phone = Phone()
    values = taps(hands()[0])
    phone.taps(values[: values.index("card:TD")])
    phone.tap("card:TD")
    assert phone.status == 200, text_of(phone.page, "error")
    assert "play 0 TD" in hidden(phone.page, "script")


def test_a_saved_session_opens_where_it_was(played: Phone) -> None:
    """The file the page saves, opened again (on another phone, say): the same hands,
    the same names, the same ledger."""
    text = client.post("/tap/export?house=standard", data=played.fields()).text
    phone = Phone()
    phone.tap("open", session=text)
    assert phone.status == 200, text_of(phone.page, "error")
    assert hidden(phone.page, "script") == hidden(played.page, "script")
    assert phone.fields() | {"pending": ""} == played.fields() | {"pending": ""}
    assert ledger_rows(phone.page) == ledger_rows(played.page)


def test_a_premature_announcement_typed_in_the_notation(played: Phone) -> None:
    """The tap page has no button for it here: the session is opened with the line
    typed in (R-PREMATURE), and the hand goes on from there."""
    text = client.post("/tap/export?house=standard", data=played.fields()).text
    phone = Phone()
    phone.tap("open", session=text + "hand\nupcard 2C\npremature 1\n")
    assert phone.status == 200, text_of(phone.page, "error")
    assert hidden(phone.page, "script").endswith("hand\nupcard 2C\npremature 1")
    assert text_of(phone.page, "ask") == "Eli (seat 4): pass or play?"


def test_a_saved_session_at_another_house_opens_at_its_house() -> None:
    phone = Phone()
    phone.tap("open", session="house standard+table(hands=3)\n# seat 2: Cyd\nhand dealer 1\n")
    assert phone.status == 200
    assert 'action="/tap?house=standard%2Btable%28hands%3D3%29"' in phone.page
    assert text_of(phone.page, "ask").startswith("Seat 1 deals. Tap the upcard")
    assert 'name="name2" form="tap" value="Cyd"' in phone.page
    assert hidden(phone.page, "script") == "hand dealer 1"


def test_a_saved_session_given_as_a_rules_object_is_refused() -> None:
    phone = Phone()
    phone.tap("open", session='rules {"table": {"players": 5}}\nhand\n')
    assert phone.status == 400
    assert "opens a session at a house string" in phone.page
