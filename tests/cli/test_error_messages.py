"""Errors in the players' words (issue 30): a corpus of bad inputs run as a player
runs them (house files, house strings, JSON table scripts, hand-notation files,
``bourre check`` cards and suits, and web requests).  Each is refused with exit
status 2, one message on standard error and nothing on standard output (a web
request: status 400 and the message on the page); the message names the place (the
notation's line and column, the file's line, the hand and play as a table counts
them) and the rule where one applies; and no message anywhere carries a validation
library's phrase, a 0-based data path or two notations for cards."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path
from typing import Any

import pytest
from conftest import hand_2111, make_script
from typer.testing import CliRunner

from bourre.cli import app

ROOT = Path(__file__).resolve().parents[2]
DISPUTE = (ROOT / "docs" / "examples" / "hands" / "dispute.hand").read_text(encoding="utf-8")
"""The worked example as the table saw it: line 3 ``house standard``, line 4 ``hand
dealer 2``, 5 ``upcard 2S``, 6-8 ``dealt``, 9-13 ``decide``, 14 ``play 4 JH``, 15
``play 0 3S``."""

runner = CliRunner()


def _dispute(old: str, new: str) -> str:
    assert old in DISPUTE, old
    return DISPUTE.replace(old, new, 1)


def _script(mutate: Any, indent: int | None = 1) -> str:
    script = make_script([hand_2111(), hand_2111(1)])
    mutate(script)
    return json.dumps(script, indent=indent)


def _set(path: tuple[Any, ...], value: Any) -> Any:
    def mutate(script: Any) -> None:
        node = script
        for step in path[:-1]:
            node = node[step]
        node[path[-1]] = value

    return mutate


# (id, how it is run, input, words the message must hold)
HOUSE_FILES = [
    (
        "first-dealer-text",
        "h.toml",
        '[table]\nfirst_dealer = "x"\n',
        [
            'h.toml, line 2: table.first_dealer: should be a seat number from 0 to 4, or "random"',
            "R-DEALER",
        ],
    ),
    (
        "first-dealer-seat",
        "h.toml",
        "[table]\nplayers = 3\nfirst_dealer = 3\n",
        ["line 3: table.first_dealer", "from 0 to 2", "R-DEALER"],
    ),
    (
        "limit-misspelt",
        "h.toml",
        '[variants]\nuse = ["standard", "pot-limit"]\n[variants.pot-limit]\nlmit = 10\n',
        ["h.toml, line 4: variants.pot-limit.lmit: unknown key — did you mean limit?"],
    ),
    (
        "limit-missing",
        "h.toml",
        '[variants]\nuse = ["pot-limit"]\n',
        ["h.toml, line 1: variants.pot-limit.limit: missing: it is required", "R-POT-LIMIT"],
    ),
    (
        "players-low",
        "h.toml",
        "[table]\nplayers = 1\n",
        ["line 2: table.players: should be at least 2", "R-SESSION"],
    ),
    (
        "hands-text",
        "h.toml",
        '[table]\nhands = "x"\n',
        ["line 2: table.hands: should be a whole number", "R-SESSION"],
    ),
    (
        "players-misspelt",
        "h.toml",
        "[table]\nplayrs = 5\n",
        ["line 2: table.playrs: unknown key — did you mean players?"],
    ),
    (
        "section-misspelt",
        "h.toml",
        "[tabel]\nplayers = 5\n",
        ["line 1: tabel: unknown key — did you mean table?"],
    ),
    (
        "use-not-list",
        "h.toml",
        '[variants]\nuse = "standard"\n',
        ["line 2: variants.use: should be a list"],
    ),
    (
        "use-item",
        "h.toml",
        "[variants]\nuse = [1]\n",
        ["line 2: variants.use, item 1: should be text"],
    ),
    (
        "variant-misspelt",
        "h.toml",
        '[variants]\nuse = ["standrd"]\n',
        ["variants.use: unknown variant 'standrd' — did you mean standard?"],
    ),
    (
        "toml-syntax",
        "h.toml",
        "[table\nplayers = 5\n",
        ["h.toml, line 1, column 7: not valid TOML"],
    ),
    (
        "ante-fraction",
        "h.toml",
        '[table]\nante = "x"\n',
        ["line 2: table.ante", "whole number of chips", "R-FIRST-POT"],
    ),
    (
        "json-dealer",
        "h.json",
        '{"table": {\n  "players": 3,\n  "first_dealer": true}}',
        ["h.json, line 3: table.first_dealer: should be a seat number from 0 to 2", "R-DEALER"],
    ),
    (
        "json-syntax",
        "h.json",
        '{"table":\n {"players": 3,}}',
        ["h.json, line 2, column 16: not valid JSON"],
    ),
    (
        "json-limit-misspelt",
        "h.json",
        '{"variants": {"use": ["pot-limit"],\n "pot-limit": {"lmit": 3}}}',
        ["h.json, line 2: variants.pot-limit.lmit: unknown key — did you mean limit?"],
    ),
]

HOUSE_STRINGS = [
    (
        "string-limit-misspelt",
        "standard+pot-limit(lmit=10)",
        ["variants.pot-limit.lmit: unknown key — did you mean limit?"],
    ),
    (
        "string-limit-text",
        "standard+pot-limit(limit=x)",
        ["variants.pot-limit.limit: 'x' is not an amount", "R-POT-LIMIT"],
    ),
    (
        "string-players",
        "standard+table(players=9)",
        ["table.players: should be at most 8", "R-SESSION"],
    ),
    (
        "string-dealer",
        "standard+table(first_dealer=x)",
        ["table.first_dealer: should be a seat number from 0 to 4", "R-DEALER"],
    ),
    ("string-unbalanced", "standard+pot-limit(limit=3", ["house string", "unbalanced '('"]),
    ("string-variant", "standrd", ["unknown variant 'standrd' — did you mean standard?"]),
]

NOTATION = [
    (
        "card-played-twice",
        _dispute("play 0 3S", "play 0 JH"),
        [
            "s.hand, line 15, column 8: seat 0 cannot play J♥ here: it was already played in trick 1",
            "R-DECK",
        ],
    ),
    (
        "out-of-turn",
        _dispute("play 0 3S", "play 1 AH"),
        ["s.hand, line 15, column 6: seat 1 plays out of turn", "R-LEAD"],
    ),
    (
        "card-not-held",
        _dispute("play 0 3S", "play 0 AH"),
        ["s.hand, line 15, column 8: seat 0 does not hold A♥", "R-DEAL"],
    ),
    (
        "dealt-twice",
        _dispute("dealt 1: AH 5H 7C 6D 8S", "dealt 1: AH 5H 7C 6D 3S"),
        ["s.hand, line 7, column 22: 3♠ is dealt to seats 0 and 1", "R-DECK"],
    ),
    (
        "decides-out-of-turn",
        _dispute("decide 4 play", "decide 0 play"),
        ["s.hand, line 10, column 8: seat 0 decides out of turn", "R-DECIDE"],
    ),
    (
        "not-a-card",
        _dispute("play 4 JH", "play 4 JX"),
        ["s.hand, line 14, column 8: 'JX' is not a card", "R-DECK"],
    ),
    (
        "bad-upcard",
        _dispute("upcard 2S", "upcard 2Z"),
        ["s.hand, line 5, column 8: '2Z' is not a card", "R-DECK"],
    ),
    (
        "house-misspelt",
        _dispute("house standard", "house standard+pot-limit(lmit=3)"),
        ["s.hand, line 3, column 7: variants.pot-limit.lmit: unknown key — did you mean limit?"],
    ),
    (
        "house-bad-string",
        _dispute("house standard", "house standard+(x"),
        ["s.hand, line 3, column 7: house:"],
    ),
    (
        "rules-players",
        _dispute("house standard", 'rules {"table": {"players": 9}}'),
        ["s.hand, line 3, column 7: table.players: should be at most 8", "R-SESSION"],
    ),
    (
        "dealer-no-seat",
        _dispute("hand dealer 2", "hand dealer 7"),
        ["s.hand, line 4, column 13: no seat 7 at a table of 5", "R-SEAT"],
    ),
    (
        "fold",
        _dispute("decide 3 pass", "decide 3 fold"),
        ["s.hand, line 9, column 10: decide: 'fold' is neither play nor pass", "R-DECIDE"],
    ),
    (
        "seat-word",
        _dispute("play 4 JH", "play four JH"),
        ["s.hand, line 14, column 6: 'four' is not a seat number", "R-SEAT"],
    ),
    (
        "play-form",
        _dispute("play 0 3S", "play 0 3S 4S"),
        ["s.hand, line 15, column 6: play: write 'play SEAT CARD", "R-LEAD"],
    ),
    (
        "keyword",
        _dispute("play 0 3S", "plya 0 3S"),
        ["s.hand, line 15, column 1: 'plya' is not a keyword"],
    ),
    (
        "decision-too-many",
        _dispute("decide 2 pass\n", "decide 2 pass\ndecide 3 pass\n"),
        [
            "s.hand, line 14, column 1: every player has decided; this decision is one too many",
            "R-DECIDE",
        ],
    ),
    (
        "dealt-short",
        _dispute("dealt 1: AH 5H 7C 6D 8S", "dealt 1: AH 5H 7C 6D"),
        ["s.hand, line 7, column 1: seat 1 was dealt 4 different cards, not 5", "R-DEAL"],
    ),
    (
        "discard-not-held",
        _dispute("decide 1 play\n", "decide 1 play QD\n"),
        ["s.hand, line 12, column 15: seat 1 does not hold Q♦", "R-DRAW"],
    ),
    (
        "correction-of-a-legal-card",
        _dispute("play 4 JH", "play 4 JH/AS"),
        [
            "s.hand, line 14, column 8: J♥ was legal: correcting a legal card is impossible",
            "R-CORRECTED",
        ],
    ),
    (
        "one-play-too-many",
        _dispute("play 0 3S", "play 0 3S, 1 AH, 2 KD"),
        ["s.hand, line 15, column 18: seat 2 plays out of turn", "R-LEAD"],
    ),
]

SCRIPTS = [
    (
        "json-not-a-card",
        _script(_set(("hands", 0, "deck", 4), "XZ")),
        ["s.json, line ", ": hand 1, card 5 of the deck: 'XZ' is not a card", "R-DECK"],
    ),
    (
        "json-play-seat",
        _script(_set(("hands", 1, "plays", 2, "seat"), "a")),
        [": hand 2, play 3, seat: should be a whole number", "R-SEAT"],
    ),
    (
        "json-card-not-held",
        _script(_set(("hands", 0, "plays", 0, "card"), "AH")),
        [": hand 1, play 1, card: seat 1 does not hold A♥", "R-DEAL"],
    ),
    (
        "json-out-of-turn",
        _script(_set(("hands", 1, "plays", 2, "seat"), 1)),
        [": hand 2, play 3, seat: seat 1 plays out of turn", "R-LEAD"],
    ),
    (
        "json-action",
        _script(_set(("hands", 0, "decisions", 0, "action"), "fold")),
        [': hand 1, decision 1, action: should be "play" or "pass"', "R-DECIDE"],
    ),
    (
        "json-unknown-key",
        _script(_set(("hands", 0, "plays", 0, "crad"), "AS")),
        [": hand 1, play 1, crad: unknown key — did you mean card?"],
    ),
    (
        "json-deck-twice",
        _script(_set(("hands", 0, "deck", 7), "AS")),
        [": hand 1, card 8 of the deck: A♠ is in the deck twice", "R-DECK"],
    ),
    (
        "json-rules-dealer",
        _script(_set(("rules", "table", "first_dealer"), "x")),
        [": rules.table.first_dealer: should be a seat number from 0 to 4", "R-DEALER"],
    ),
    (
        "json-one-line",
        _script(_set(("hands", 0, "dealer"), 9), indent=None),
        ["s.json: hand 1, dealer: no seat 9 at a table of 5", "R-SEAT"],
    ),
    (
        "json-balances",
        _script(_set(("balances",), [100, 100])),
        [": balances: 2 balances given for 5 players", "R-SESSION"],
    ),
    (
        "json-script-syntax",
        '{"rules": {},\n "hands": [}',
        ["s.json, line 2, column 12: not valid JSON"],
    ),
]

CHECKS = [
    ("check-card", ["--hand", "AH XZ", "--trump", "S"], ["--hand: 'XZ' is not a card", "R-DECK"]),
    ("check-suit", ["--hand", "AH KH", "--trump", "Q"], ["--trump: 'Q' is not a suit", "R-DECK"]),
    (
        "check-twice",
        ["--hand", "AH KH", "--trick", "AH", "--trump", "S"],
        ["--trick: A♥ is also in --hand", "R-DECK"],
    ),
    (
        "check-upcard",
        ["--hand", "AH", "--upcard", "ZZ"],
        ["--upcard: 'ZZ' is not a card", "R-DECK"],
    ),
    (
        "check-too-many",
        ["--hand", "AH 2H 3H 4H 5H 6H", "--trump", "S"],
        ["--hand: a hand holds 1 to 5 cards here, not 6", "R-DEAL"],
    ),
]

WEB = [
    (
        "web-form-dealer",
        "post",
        "/",
        {"table.first_dealer": "x"},
        ['table.first_dealer: should be a seat number from 0 to 4, or "random"', "R-DEALER"],
    ),
    (
        "web-form-players",
        "post",
        "/",
        {"table.players": "five"},
        ["table.players: should be a whole number", "R-SESSION"],
    ),
    (
        "web-rules-misspelt",
        "get",
        "/rules?house=standard%2Bpot-limit(lmit%3D3)",
        None,
        ["variants.pot-limit.lmit: unknown key — did you mean limit?"],
    ),
    (
        "web-paste-notation",
        "post",
        "/paste",
        {"script": _dispute("play 0 3S", "play 0 JH")},
        ["the script, line 15, column 8: seat 0 cannot play J♥ here", "R-DECK"],
    ),
    (
        "web-paste-json",
        "post",
        "/paste",
        {"script": _script(_set(("hands", 0, "plays", 0, "card"), "AH"))},
        ["the script, line ", "hand 1, play 1, card: seat 1 does not hold A♥", "R-DEAL"],
    ),
    (
        "web-hand-line",
        "post",
        "/hand?house=standard",
        {
            "script": "hand dealer 2\nupcard 2S\ndealt 0: 3S QD KC 4D 3C",
            "line": "dealt 1: 3S AH 5H 7C 6D",
        },
        ["the hand, line 4, column 10: 3♠ is dealt to seats 0 and 1", "R-DECK"],
    ),
]

FORBIDDEN = [
    "Field required",
    "Input should",
    "Value error",
    "validation error",
    "type=",
    "pydantic",
    "errors.pydantic.dev",
    ".int",
    "literal[",
    "Literal",
    "function-after",
    "[key]",
]
FORBIDDEN_WORDS = re.compile(r"\b(model|dict|str|int|NoneType|string|integer|boolean|dictionary)\b")
DATA_PATH = re.compile(r"\w\[\d+\]|dealt\.\d|\bhands\.\d|\bplays\.\d")
SYMBOL_CARD = re.compile(r"(?:10|[2-9JQKA])[♠♥♦♣]")
LETTER_CARD = re.compile(r"\b(?:10|[2-9TJQKA])[SHDC]\b")

MESSAGES: dict[str, str] = {}
"""Every message of the corpus, for the checks over all of it."""


def _words_ok(case: str, message: str, words: list[str]) -> None:
    MESSAGES[case] = message
    for w in words:
        assert w in message, f"{case}: {w!r} not in {message!r}"
    _clean(case, message)


def _clean(case: str, message: str) -> None:
    for phrase in FORBIDDEN:
        assert phrase not in message, f"{case}: {phrase!r} in {message!r}"
    assert not FORBIDDEN_WORDS.search(message.replace("house string", "")), (case, message)
    assert not DATA_PATH.search(message), (case, message)
    unquoted = re.sub(r"'[^']*'|\"[^\"]*\"", "", message)
    if SYMBOL_CARD.search(message):  # one notation for cards in a message
        assert not LETTER_CARD.search(unquoted), (case, message)


def _cli(args: list[str]) -> str:
    result = runner.invoke(app, args)
    assert result.exit_code == 2, (args, result.exit_code, result.stdout, result.stderr)
    assert result.stdout == ""
    err = result.stderr
    assert err.startswith("bourre: ") and err.endswith("\n") and err.count("bourre: ") == 1, err
    return err


@pytest.mark.parametrize(
    ("case", "name", "text", "words"), HOUSE_FILES, ids=[c[0] for c in HOUSE_FILES]
)
def test_house_files(tmp_path: Path, case: str, name: str, text: str, words: list[str]) -> None:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    _words_ok(case, _cli(["rules", str(path)]).replace(str(tmp_path) + "/", ""), words)


@pytest.mark.parametrize(
    ("case", "house", "words"), HOUSE_STRINGS, ids=[c[0] for c in HOUSE_STRINGS]
)
def test_house_strings(case: str, house: str, words: list[str]) -> None:
    _words_ok(case, _cli(["rules", house]), words)


@pytest.mark.parametrize(("case", "text", "words"), NOTATION, ids=[c[0] for c in NOTATION])
def test_notation_files(tmp_path: Path, case: str, text: str, words: list[str]) -> None:
    path = tmp_path / "s.hand"
    path.write_text(text, encoding="utf-8")
    err = _cli(["replay", str(path)]).replace(str(tmp_path) + "/", "")
    assert re.match(r"bourre: s\.hand, line \d+, column \d+: ", err), err  # always the place
    _words_ok(case, err, words)


@pytest.mark.parametrize(("case", "text", "words"), SCRIPTS, ids=[c[0] for c in SCRIPTS])
def test_json_scripts(tmp_path: Path, case: str, text: str, words: list[str]) -> None:
    path = tmp_path / "s.json"
    path.write_text(text, encoding="utf-8")
    _words_ok(case, _cli(["replay", str(path)]).replace(str(tmp_path) + "/", ""), words)


@pytest.mark.parametrize(("case", "args", "words"), CHECKS, ids=[c[0] for c in CHECKS])
def test_check_arguments(case: str, args: list[str], words: list[str]) -> None:
    _words_ok(case, _cli(["check", *args]), words)


@pytest.mark.parametrize(("case", "method", "url", "data", "words"), WEB, ids=[c[0] for c in WEB])
def test_web_requests(case: str, method: str, url: str, data: Any, words: list[str]) -> None:
    pytest.importorskip("starlette")
    pytest.importorskip("httpx")
    from starlette.testclient import TestClient

    from bourre.web import create_app

    client = TestClient(create_app(), base_url="http://localhost", raise_server_exceptions=False)
    r = client.post(url, data=data) if method == "post" else client.get(url)
    assert r.status_code == 400, r.text[:2000]
    shown = re.findall(r'role="alert"[^>]*>(.*?)</', r.text, re.S)
    assert shown, r.text[:2000]
    _words_ok(case, " ".join(html.unescape(s.strip()) for s in shown), words)


def test_the_corpus_is_wide() -> None:
    cases = HOUSE_FILES + HOUSE_STRINGS + NOTATION + SCRIPTS + CHECKS + WEB
    assert len(cases) >= 40
    assert len({c[0] for c in cases}) == len(cases)
    assert sum("R-" in " ".join(c[-1]) for c in cases) >= 30  # a rule where one applies


def test_no_message_of_the_corpus_speaks_like_a_library() -> None:
    """Over the whole corpus (run after the cases above): no phrase of the validation
    library, no 0-based data path, one card notation per message."""
    if not MESSAGES:
        pytest.skip("run with the corpus")
    for case, message in MESSAGES.items():
        _clean(case, message)
    assert not any("(AH)" in m or "(AS)" in m for m in MESSAGES.values())


# -- the translator and the locators, directly ---------------------------------------------


def test_a_union_is_one_message_and_a_key_written_is_never_a_member() -> None:
    from typing import Literal

    from pydantic import BaseModel, ConfigDict, StrictInt, ValidationError

    from bourre.houses.validation import validation_message

    class Seats(BaseModel):
        model_config = ConfigDict(extra="forbid")
        first: StrictInt | Literal["random"] = 0
        chips: dict[str, StrictInt] = {}

    def message(data: Any) -> str:
        with pytest.raises(ValidationError) as info:
            Seats.model_validate(data)
        return validation_message(info.value, "f", model=Seats)

    assert message({"first": "x"}) == 'f: first: should be a whole number, or "random"'
    assert message({"chips": {"int": "x", "str": "y"}}).splitlines() == [
        "f: chips.int: should be a whole number",
        "f: chips.str: should be a whole number",
    ]
    assert message({"int": 1}) == "f: int: unknown key; allowed: first, chips"


def test_an_unknown_key_explains_the_missing_one() -> None:
    result = runner.invoke(app, ["rules", "standard+pot-limit(lmit=10)"])
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr == (
        "bourre: house string 'standard+pot-limit(lmit=10)': variants.pot-limit.lmit:"
        " unknown key — did you mean limit?\n"
    )  # one line: the key meant, not "limit: missing" first
    result = runner.invoke(app, ["rules", "standard+pot-limit(cap=10)"])
    lines = result.stderr.splitlines()
    assert "variants.pot-limit.cap: unknown key; allowed: limit" in lines[0]
    assert "variants.pot-limit.limit: missing: it is required (R-POT-LIMIT)" in lines[1]


def test_the_lines_of_keys_in_files() -> None:
    from bourre.houses.locate import json_position, line_col, toml_line

    toml = '[table]\nplayers = 5\n\n[variants]\nuse = ["pot-limit"]\npot-limit = {limit = 3}\n'
    assert toml_line(toml, ["table", "players"]) == 2
    assert toml_line(toml, ["table", "hands"]) == 1  # the table that should hold it
    assert toml_line(toml, ["variants", "pot-limit", "limit"]) == 6
    assert toml_line(toml, ["nowhere"]) is None
    text = '{"a": [1,\n {"b": {"c": 2}}],\n "d": "x"}'
    pos = json_position(text, ["a", 1, "b", "c"])
    assert pos is not None and line_col(text, pos) == (2, 14)
    assert json_position(text, ["d"]) is not None and json_position(text, ["e"]) is None
