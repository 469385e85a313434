"""``bourre serve``'s tap page without a browser: each step's form (the dealer, the
upcard, pass or play, the cards a seat shows, changes, throws and draws, each card
played), a forbidden card ruled on by the table (it stands: R-RENEGE; taken back:
R-CORRECTED), the ruling at the end the same as ``bourre replay --words``, the next
deal, and bad or forged input answered with a message on the page, never a 500."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

from starlette.testclient import TestClient
from tapflow import (
    ASKED,
    PREMATURE,
    RENEGE,
    SHOWN,
    TOUR,
    hidden,
    last_hand_words,
    ruling_items,
    taps,
    text_of,
)

from bourre.referee.notation import parse_script
from bourre.web import MAX_BODY, create_app

client = TestClient(create_app(), base_url="http://localhost", raise_server_exceptions=False)


class Table:
    """A phone at the table: each tap posts the form the last page gave."""

    def __init__(self, house: str = "standard") -> None:
        self.url = f"/tap?house={house}"
        self.page = client.get(self.url).text
        self.status = 200

    def tap(self, value: str, **forged: str) -> str:
        data = {"script": hidden(self.page, "script"), "pending": hidden(self.page, "pending")}
        data.update(forged)
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

    @property
    def ask(self) -> str:
        return text_of(self.page, "ask")

    def first_legal(self) -> str:
        """The first card the picker shows as allowed."""
        import re

        m = re.search(r'class="card legal[^"]*" data-card="(..)"', self.page)
        assert m, self.ask
        return m.group(1)

    def card(self, code: str) -> str:
        """The picker button of a card (its tag)."""
        import re

        m = re.search(rf'<button[^>]*data-card="{code}"[^>]*>', self.page)
        assert m, code
        return m.group(0)


def tour_until(predicate: Any, hand: str = SHOWN) -> Table:
    """The tour (its cards shown) tapped up to (not including) the first tap that
    ``predicate`` picks."""
    t = Table()
    for value in taps(hand):
        if predicate(value):
            return t
        t.taps([value])
    raise AssertionError("never reached")


def replay_words(text: str, tmp_path: Path) -> list[str]:
    path = tmp_path / "hand.hand"
    path.write_text(text)
    out = subprocess.run(
        [sys.executable, "-m", "bourre.cli", "replay", str(path), "--words"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return last_hand_words(out)


@pytest.mark.parametrize("hand", [TOUR, SHOWN], ids=["tricks-show", "cards-shown"])
def test_the_tour_tapped_gives_the_ruling_of_replay(hand: str, tmp_path: Path) -> None:
    t = Table()
    assert t.ask == "Who deals? Tap the dealer's seat."
    t.taps(taps(hand))
    assert t.ask == "The hand is over."
    page = ruling_items(t.page)
    seat, card = RENEGE
    # the summary first: the pot, who pays what, the next pot, who deals next and why
    assert page[:4] == [
        "Seat 2 takes the pot: 5 chips, with 3 tricks. (R-WIN)",
        "Into the next pot: seat 0 pays 5 chips (bourré); seat 1 pays 5 chips (a renege)."
        " (R-BOURRE, R-RENEGE)",
        "The next pot: 10 chips, before the antes.",
        f"Seat 2 deals next: seat {seat} loses the deal (R-RENEGE).",
    ]
    mine = page[4 + int(seat)]  # then each seat's line
    assert mine.startswith(f"Seat {seat} played and took 2 tricks; reneged in trick 2: 8♣ was")
    assert "loses the right to the pot and its next deal (R-RENEGE)" in mine
    assert page[4] == (
        "Seat 0 played and took no trick; pays 5 chips into the next pot: bourré (R-BOURRE);"
        " now holds 94 chips."
    )
    # the same hand written in the notation: the same ruling from the command line
    assert page == replay_words("house standard\n" + hand, tmp_path)
    # what the page wrote is the same hand
    assert parse_script(hidden(t.page, "script")) == parse_script(hand)
    assert f"play {seat} {card}\n" in hidden(t.page, "script") + "\n"


def test_dealer_and_upcard_steps() -> None:
    t = Table()
    assert t.page.count('name="tap" value="dealer:') == 5
    t.tap("dealer:0")
    assert t.ask.startswith("Seat 0 deals. Tap the upcard")
    assert t.page.count("data-card=") == 52 and " disabled" not in t.card("AS")
    t.tap("upcard:9H")
    assert t.ask == "Seat 1: pass or play?"
    assert "trump hearts (9♥)" in t.page and "the pot 5 chips" in t.page


def test_a_seat_that_plays_shows_changes_throws_and_draws() -> None:
    t = Table()
    t.taps(["dealer:0", "upcard:9H", "play", "show"])
    assert t.ask == "Seat 1 plays: Tap the 5 cards it was dealt (0 of 5)."
    assert " disabled" in t.card("9H")  # the upcard is the dealer's
    t.taps(["dealt:KH", "dealt:QS", "dealt:QS"])  # a card tapped again is taken back
    assert "(1 of 5)" in t.ask and "picked" in t.card("KH")
    t.taps(["dealt:QH", "dealt:5S", "dealt:8C", "dealt:9D"])
    assert t.ask.startswith("How many cards does seat 1 change? It holds K♥ Q♥ 5♠ 9♦ 8♣.")
    assert 'value="change:5"' in t.page and 'value="change:6"' not in t.page
    t.tap("change:1")
    assert t.ask == "Which 1 card does seat 1 throw? (0 of 1)"
    assert " disabled" in t.card("AS") and " disabled" not in t.card("9D")
    t.tap("throw:9D")
    assert t.ask == "Which 1 card did seat 1 draw? (0 of 1)"
    assert " disabled" in t.card("KH") and " disabled" in t.card("9H")
    t.tap("drew:TC")
    assert t.ask == "Seat 2: pass or play?"
    assert "dealt 1: KH QH 5S 8C 9D\ndecide 1 play 9D > TC" in hidden(t.page, "script")
    t.taps(["play", "show"])
    assert " disabled" in t.card("KH") and " disabled" in t.card("TC")  # seat 1 holds them
    assert " disabled" in t.card("9D")  # seat 1 threw it


def test_the_dealer_shows_four_cards_besides_the_upcard() -> None:
    t = Table()
    t.taps(["dealer:0", "upcard:9H", "pass", "pass", "pass", "pass"])
    assert t.ask == "Seat 0 must play."
    assert "R-LAST-STANDS" in t.page  # the rule that forces it, in the house's words
    t.taps(["play", "show"])
    assert "(1 of 5). 9♥ known." in t.ask


def test_the_play_picker_greys_out_what_cannot_be_played() -> None:
    t = tour_until(lambda v: v == "card:8C")
    assert t.ask.startswith("Trick 2: tap the card seat 1 played.")
    assert "legal" in t.card("KH") and "legal" in t.card("QH")
    assert "illegal" in t.card("8C") and " disabled" not in t.card("8C")
    assert " disabled" in t.card("AS") and "played" in t.card("AS")  # played in trick 1
    assert " disabled" in t.card("3H")  # seat 2 holds it
    assert "Allowed (green): K♥, Q♥." in t.page and "(R-TRUMP)" in t.page
    assert '"status">Tricks taken: none by seat 1, 1 by seat 2, none by seat 0<' in t.page


def test_a_forbidden_card_the_table_lets_stand() -> None:
    t = tour_until(lambda v: v == "card:8C")
    t.tap("card:8C")
    assert t.ask == "8♣ is not allowed here. Does it stand, or was it taken back?"
    question = text_of(t.page, "question")
    assert question.startswith("Seat 1 played 8♣: without spades it must play one of its hearts")
    assert "you" not in question.lower().split()  # said of the seat, not to it (issue 43)
    assert question.endswith("(R-TRUMP).")
    assert "R-RENEGE: " in t.page and "R-CORRECTED: " in t.page  # the house's own words
    assert 'id="picker"' not in t.page
    t.tap("stands")
    assert hidden(t.page, "script").endswith("play 1 8C")


def test_a_forbidden_card_taken_back(tmp_path: Path) -> None:
    t = tour_until(lambda v: v == "card:8C")
    t.taps(["card:8C", "back"])
    assert t.ask.startswith("Seat 1 took 8♣ back: tap the card played instead.")
    assert " disabled" in t.card("8C")
    t.tap("card:8C")
    assert t.status == 400 and "was taken back" in text_of(t.page, "error")
    t.tap("card:QH")
    script = hidden(t.page, "script")
    assert script.endswith("play 1 8C/QH")
    while t.ask != "The hand is over.":  # the rest of the hand: a legal card each time
        t.taps([f"card:{t.first_legal()}"])
    text = " ".join(ruling_items(t.page))
    assert "Seat 1 played and took" in text and "took back 8♣ in trick 2" in text
    assert "and played Q♥ instead" in text
    assert "loses the right to the pot and its next deal (R-CORRECTED)" in text
    assert ruling_items(t.page) == replay_words(
        "house standard\n" + hidden(t.page, "script"), tmp_path
    )


def test_undo_takes_back_one_tap_at_a_time() -> None:
    t = Table()
    t.taps(["dealer:0", "upcard:9H", "play", "show", "dealt:KH", "dealt:QH"])
    t.tap("undo")
    assert "(1 of 5)" in t.ask
    t.taps(["undo", "undo"])
    assert t.ask == "How many cards does seat 1 change?"
    t.taps(["undo"])
    assert t.ask == "Seat 1: pass or play?"
    t.tap("undo")
    assert t.ask.startswith("Seat 0 deals. Tap the upcard")
    t.taps(["undo"])
    assert t.ask == "Who deals? Tap the dealer's seat."
    t.tap("undo")
    assert t.status == 400 and "nothing to take back" in t.page


def test_the_next_hand_skips_the_seat_that_lost_its_deal() -> None:
    t = Table()
    t.taps(taps(TOUR))
    t.tap("next")
    assert t.ask.startswith("Seat 2 deals. Tap the upcard")
    assert "Seat 1 lost the deal: R-RENEGE: " in t.page


def test_the_header_keeps_the_house() -> None:
    house, quoted = "standard%2Bpot-limit(limit%3D10)", "standard%2Bpot-limit%28limit%3D10%29"
    for url in (f"/rules?house={house}", f"/tap?house={house}", f"/hand?house={house}"):
        page = client.get(url).text
        assert f'href="/tap?house={quoted}" id="nav-tap"' in page, url
        assert f'href="/?house={quoted}" id="nav-house"' in page, url
    page = client.get(f"/?house={house}").text
    assert 'name="use:pot-limit" value="1" checked' in page
    assert 'name="pot-limit.limit" value="10"' in page
    assert client.get("/?house=turbo").status_code == 400


def test_typing_and_tapping_carry_the_hand_over() -> None:
    t = tour_until(lambda v: v == "card:8C")
    script = hidden(t.page, "script")
    r = client.post("/hand?house=standard", data={"script": script, "line": ""})
    assert r.status_code == 200 and 'id="tap-instead"' in r.text
    r = client.post("/tap?house=standard", data={"script": script, "pending": "", "tap": ""})
    assert r.status_code == 200 and "tap the card seat 1 played" in r.text


@pytest.mark.parametrize(
    ("steps", "forged", "words"),
    [
        ([], {"tap": "dealer:7"}, "no seat '7' at a table of 5"),
        ([], {"tap": "dealer:x"}, "no seat 'x'"),
        ([], {"tap": "card:AS"}, "that tap does not fit"),
        (["dealer:0"], {"tap": "upcard:ZZ"}, "ZZ"),
        (["dealer:0", "upcard:9H"], {"tap": "frobnicate"}, "may: pass or play"),
        (["dealer:0", "upcard:9H", "play", "show"], {"tap": "dealt:9H"}, "already elsewhere"),
        (["dealer:0", "upcard:9H", "play", "show"], {"tap": "change:2"}, "tap the 5 cards"),
        (["dealer:0", "upcard:9H", "play"], {"tap": "change:6"}, "changes 0 to 5 cards"),
        (["dealer:0", "upcard:9H", "play", "change:1"], {"tap": "throw:9H"}, "among its own"),
        (["dealer:0", "upcard:9H", "pass", "pass", "pass", "pass"], {"tap": "pass"}, "may: play"),
        (["dealer:0", "upcard:9H"], {"tap": "stands"}, "may: pass or play"),
        ([], {"pending": "seat 1; card QQ", "tap": ""}, "QQ"),
        ([], {"pending": "rm -rf /", "tap": ""}, "not one this page wrote"),
        ([], {"script": "hand dealer 0\nupcard 9H\ndecide 2 pass", "tap": ""}, "R-DECIDE"),
        ([], {"script": "house turbo\nhand dealer 0", "tap": ""}, "chosen with the page"),
        ([], {"script": "upcard 9H", "tap": ""}, "names the dealer"),
        ([], {"script": "hand\n" * 500, "tap": ""}, "too long"),
        (
            [],
            {"script": "hand dealer 0\nupcard 9H", "pending": "seat 3; card AS", "tap": "stands"},
            "not this hand's",
        ),
    ],
)
def test_bad_or_forged_taps_get_a_message(
    steps: list[str], forged: dict[str, str], words: str
) -> None:
    t = Table()
    t.taps(steps)
    tap = forged.pop("tap")
    t.tap(tap, **forged)
    assert t.status == 400, t.page[:3000]
    assert words in text_of(t.page, "error"), text_of(t.page, "error")
    assert 'role="alert"' in t.page


@pytest.mark.parametrize(
    "steps",
    [
        [
            "dealer:0",
            "upcard:9H",
            "play",
            "show",
            *[f"dealt:{c}" for c in "KH QH 5S 8C 9D".split()],
            "change:9",
        ],
        [
            "dealer:0",
            "upcard:9H",
            "play",
            "show",
            *[f"dealt:{c}" for c in "KH QH 5S 8C 9D".split()],
            "change:1",
            "throw:AS",
        ],
        [
            "dealer:0",
            "upcard:9H",
            "play",
            "show",
            *[f"dealt:{c}" for c in "KH QH 5S 8C 9D".split()],
            "change:1",
            "throw:9D",
            "drew:KH",
        ],
    ],
)
def test_a_seat_cannot_change_more_throw_or_draw_what_it_cannot(steps: list[str]) -> None:
    t = Table()
    t.taps(steps[:-1])
    t.tap(steps[-1])
    assert t.status == 400 and 'role="alert"' in t.page


def test_oversized_or_foreign_posts_are_refused() -> None:
    r = client.post("/tap?house=standard", data={"script": "x" * (MAX_BODY + 10)})
    assert r.status_code in (400, 413)
    r = client.post(
        "/tap?house=standard",
        data={"script": "", "tap": "dealer:0"},
        headers={"origin": "http://evil.example"},
    )
    assert r.status_code == 403
    assert client.get("/tap?house=standard%2Bfoo(").status_code == 400


def test_a_seat_whose_tricks_will_show_its_hand_taps_only_its_discards() -> None:
    t = Table()
    t.taps(["dealer:0", "upcard:9H", "play"])
    assert t.ask == "How many cards does seat 1 change?"
    assert 'value="show"' in t.page and "they all show in the tricks" in t.page
    t.tap("change:1")
    assert " disabled" in t.card("9H") and " disabled" not in t.card("9D")
    t.tap("throw:9D")
    assert t.ask == "Seat 2: pass or play?"
    assert hidden(t.page, "script").endswith("upcard 9H\ndecide 1 play 9D")
    t.taps(["play", "change:0", "pass", "pass", "play", "change:0"])
    assert t.ask == "Trick 1: tap the card seat 1 played. Seat 1 leads."
    assert "checked when the hand is over" in t.page
    assert " disabled" in t.card("9D") and " disabled" in t.card("9H")  # thrown; the dealer's
    assert "legal" not in t.card("5S")  # its hand is not known yet
    t.taps(["card:5S", "card:AS"])
    assert " disabled" not in t.card("9H")  # seat 0, the dealer, holds the upcard
    assert " disabled" in t.card("5S") and "played" in t.card("5S")


def test_a_renege_the_tricks_show_taken_back_is_tapped_again() -> None:
    t = Table()
    t.taps(taps(TOUR)[:-2])  # all but the table's answer
    assert "The tricks show that seat 1's 8♣ in trick 2 was not allowed" in t.ask
    t.tap("next")
    assert t.status == 400 and "say first" in text_of(t.page, "error")
    t.tap("back")
    assert t.ask.startswith("Seat 1 took 8♣ back: tap the card played instead.")
    assert hidden(t.page, "script").endswith("play 0 6S")
    t.tap("card:QH")
    assert hidden(t.page, "script").endswith("play 1 8C/QH")


def test_a_sole_player_shows_its_cards_at_the_end(tmp_path: Path) -> None:
    t = Table()
    t.taps(["dealer:0", "upcard:9H", "play", "change:1", "throw:9D"])
    t.taps(["pass", "pass", "pass", "pass"])
    assert t.ask.startswith("Seat 1 took the pot without playing a card")
    assert "R-SOLE" in t.ask and "(1 of 5). 9♦ known." in t.ask
    t.taps(["dealt:KH", "dealt:QH", "dealt:5S", "dealt:8C"])
    assert t.ask == "Which 1 card did seat 1 draw? (0 of 1)"
    t.tap("drew:TC")
    assert t.ask == "The hand is over."
    script = hidden(t.page, "script")
    assert "dealt 1: 9D KH QH 5S 8C\ndecide 1 play 9D > TC" in script
    assert ruling_items(t.page) == replay_words("house standard\n" + script, tmp_path)


def test_the_page_is_served_after_its_module_is_imported() -> None:
    import bourre.web.tap  # the submodule's name is set on the package once imported

    assert bourre.web.tap.TapFlow
    fresh = TestClient(create_app(), base_url="http://localhost")
    assert fresh.get("/tap?house=standard").status_code == 200


# -- the ruling at a glance (issue 43) ---------------------------------------------------


def test_the_ruling_reads_at_a_glance() -> None:
    """The summary first, then each seat's line, then the rule texts behind a
    disclosure, each once; no command-line words."""
    t = Table()
    t.taps(taps(TOUR))
    page = t.page
    ruling = page.split('id="ruling">', 1)[1]
    assert ruling.index('id="summary"') < ruling.index('id="seats"') < ruling.index("<details")
    assert text_of(page, "summary").startswith("Seat 2 takes the pot: 5 chips, with 3 tricks.")
    rules = page.split('<details id="rules">', 1)[1].split("</details>", 1)[0]
    ids = re.findall(r'<dt class="rid">(R-[A-Z-]+)</dt>', rules)
    assert {"R-WIN", "R-BOURRE", "R-RENEGE", "R-TRUMP"} <= set(ids)
    assert len(ids) == len(set(ids))  # each rule's text once
    renege_text = "Each renege (an illegal card not corrected in time) stands"
    assert page.count(renege_text) == 1
    seats = text_of(page, "seats")
    assert "R-RENEGE:" not in seats and "(R-RENEGE)" in seats  # lines cite, texts apart
    assert "bourre replay" not in page and "--json" not in page and "JSON" not in page


def test_the_question_before_the_ruling() -> None:
    """While the page asks whether a card the tricks show stood, it shows the
    question, not the ruling (nothing decided before the table answers)."""
    t = Table()
    for value in taps(TOUR)[:-1]:  # all but the table's answer
        if value.startswith(ASKED):
            continue
        t.tap(value)
        assert t.status == 200, text_of(t.page, "error")
    assert 'id="question"' in t.page and "Did it stand" in t.ask
    assert 'id="ruling"' not in t.page and 'id="summary"' not in t.page
    assert "takes the pot" not in t.page
    t.tap("stands")
    assert t.ask == "The hand is over." and 'id="summary"' in t.page
    assert 'id="question"' not in t.page


def test_a_premature_announcement_tapped() -> None:
    """A seat announces out of turn (R-PREMATURE): one tap writes ``premature N``; the
    ruling says it and what it costs; the next deal skips it when its turn comes."""
    t = Table()
    t.taps(["dealer:0", "upcard:9H", "play", "change:1", "throw:9D"])
    assert t.ask == "Seat 2: pass or play?"
    assert 'id="premature"' in t.page and "announce before its turn" in t.page
    assert 'value="premature:2"' not in t.page  # the seat whose turn it is
    for bad in ("premature:2", "premature:7", "premature:x"):
        t.tap(bad)
        assert t.status == 400 and "(R-PREMATURE)" in text_of(t.page, "error")
    t.taps(["premature:3"])
    assert t.ask == "Seat 2: pass or play?"
    assert hidden(t.page, "script").endswith("decide 1 play 9D\npremature 3")
    assert 'value="premature:3"' not in t.page  # once a hand
    t.tap("undo")
    assert not hidden(t.page, "script").endswith("premature 3")
    t.tap("premature:3")
    rest = taps(PREMATURE)[6:]
    t.taps(rest)
    assert t.ask == "The hand is over."
    items = ruling_items(t.page)
    assert items[3] == (
        "Seat 2 deals next: seat 1 loses the deal (R-RENEGE); seat 3 loses its next turn to"
        " deal (R-PREMATURE)."
    )
    assert items[4 + 3] == (
        "Seat 3 passed; announced out of turn: it loses its next deal (R-PREMATURE);"
        " now holds 99 chips."
    )
    assert '<dt class="rid">R-PREMATURE</dt>' in t.page


def test_a_premature_announcement_gives_the_ruling_of_replay(tmp_path: Path) -> None:
    t = Table()
    t.taps(taps(PREMATURE))
    assert parse_script(hidden(t.page, "script")) == parse_script(PREMATURE)
    assert ruling_items(t.page) == replay_words("house standard\n" + PREMATURE, tmp_path)


def test_no_premature_button_where_everyone_decides_at_once() -> None:
    t = Table("standard%2Bsimultaneous-reveal")
    t.taps(["dealer:0", "upcard:9H"])
    assert "pass or play" in t.ask and 'id="premature"' not in t.page
    t.tap("premature:3")
    assert t.status == 400 and "(R-PREMATURE)" in text_of(t.page, "error")
