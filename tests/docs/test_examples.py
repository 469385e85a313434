"""The example hands in ``docs/examples/hands/`` read as a table reads them: the
hand given by its tricks writes one trick a line, and the comments name the seats the
file uses (issue 43)."""

from __future__ import annotations

import re
from pathlib import Path

from bourre.referee import replay_file
from bourre.rules.cards import card_str, parse_card

HANDS = Path(__file__).resolve().parents[2] / "docs" / "examples" / "hands"


def test_the_tricks_example_writes_one_trick_a_line() -> None:
    path = HANDS / "tricks.hand"
    lines = [line for line in path.read_text().splitlines() if line.startswith("play ")]
    record = replay_file(path).model_dump(mode="json")
    tricks = record["hands"][0]["tricks"]
    assert len(lines) == len(tricks)
    for line, trick in zip(lines, tricks, strict=True):
        plays = [p.split() for p in line.removeprefix("play ").split(",")]
        assert int(plays[0][0]) == trick["leader"], line
        shown = [(int(seat), card_str(parse_card(card))) for seat, card in plays]
        assert shown == [(p["seat"], p["card"]) for p in trick["plays"]], line


def test_the_comments_name_the_seats_the_file_uses() -> None:
    for path in HANDS.glob("*.hand"):
        comments = " ".join(line for line in path.read_text().splitlines() if line.startswith("#"))
        assert not re.search(r"\b[ABC] (led|trumped|keep|played)\b", comments), path.name
        assert not re.search(r"\bmay [ABC]\b", comments), path.name
