"""The hand notation: a script in a few lines a person can type; it converts to and
from the JSON script without loss and referees to the same records."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bourre.cli import app
from bourre.referee import replay
from bourre.referee.notation import NotationError, format_script, looks_like_notation, parse_script
from bourre.referee.records import Script

GOLDEN = Path(__file__).parents[1] / "golden"
SCRIPTS = sorted(GOLDEN.rglob("*.script.json"))
runner = CliRunner()

TYPED = """\
# a dispute at Tuesday's table: hearts led, spades trump
house standard
hand dealer 2
upcard 2S
dealt 4: JH QH KH 4S 9C
dealt 0: AC 3S 5D 6D 7D
dealt 1: AH 5H 8S 2C 3C
decide 3 pass
decide 4 play
decide 0 play
decide 1 play
decide 2 pass
play 4 JH, 0 3S
"""


@pytest.mark.parametrize("path", SCRIPTS, ids=lambda p: p.stem)
def test_every_golden_script_round_trips(path: Path) -> None:
    script = json.loads(path.read_text())
    text = format_script(script)
    assert looks_like_notation(text)
    again = parse_script(text)
    assert Script.model_validate(again) == Script.model_validate(script)
    assert replay(again).model_dump(mode="json") == replay(script).model_dump(mode="json")


@pytest.mark.parametrize("path", SCRIPTS, ids=lambda p: p.stem)
def test_a_written_hand_holds_a_trick_a_line(path: Path) -> None:
    """``bourre play --save`` and ``convert`` write each trick on its own line, as the
    table saw it: every full ``play`` line holds one card per seat in play."""
    script = json.loads(path.read_text())
    text = format_script(script)
    blocks = text.split("\nhand")[1:]
    assert len(blocks) == len(script["hands"])
    for hand, block in zip(script["hands"], blocks, strict=True):
        seats = {d["seat"] for d in hand.get("decisions", []) if d["action"] == "play"}
        lines = [line for line in block.splitlines() if line.startswith("play ")]
        if len(seats) < 2 or not lines:
            continue
        counts = [len(line.split(",")) for line in lines]
        assert all(c == len(seats) for c in counts[:-1]) and counts[-1] <= len(seats), block
        assert sum(counts) == len(hand["plays"])


def test_a_typed_hand_stops_at_the_disputed_card() -> None:
    record = replay(parse_script(TYPED)).model_dump(mode="json")
    nxt = record["hands"][-1]["next"]
    assert nxt["seat"] == 1
    assert set(nxt["legal"]) == {"AH", "5H"} and nxt["rules"] == ["R-FOLLOW"]


def test_the_cli_reads_notation_and_converts(tmp_path: Path) -> None:
    path = tmp_path / "dispute.hand"
    path.write_text(TYPED)
    r = runner.invoke(app, ["replay", str(path)])
    assert r.exit_code == 0 and json.loads(r.stdout)["hands"][0]["next"]["seat"] == 1
    r = runner.invoke(app, ["check", "--script", str(path)])
    assert r.exit_code == 0 and "Seat 1 is to act and may: 5♥, A♥." in r.stdout
    assert "R-FOLLOW: Holding the led suit" in r.stdout
    r = runner.invoke(app, ["convert", str(path)])
    assert r.exit_code == 0
    back = tmp_path / "dispute.json"
    back.write_text(r.stdout)
    r2 = runner.invoke(app, ["convert", str(back)])
    assert Script.model_validate(parse_script(r2.stdout)) == Script.model_validate(
        json.loads(back.read_text())
    )


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("house standard\nhand\nplay 1", ["line 3", "play", "R-LEAD"]),
        ("house standard\nhand\ndecide x play", ["line 3", "seat", "R-SEAT"]),
        ("house standard\nupcard 7S", ["line 2", "after a 'hand' line"]),
        ("house standard\nhand\nfrobnicate 3", ["line 3", "not a keyword"]),
        ("house standard", ["no 'hand' line", "R-SESSION"]),
    ],
)
def test_bad_notation_names_the_line(text: str, words: list[str], tmp_path: Path) -> None:
    with pytest.raises(NotationError) as e:
        parse_script(text)
    for w in words:
        assert w in str(e.value)
    path = tmp_path / "bad.hand"
    path.write_text(text)
    r = runner.invoke(app, ["replay", str(path)])
    assert r.exit_code == 2 and r.stdout == "" and words[0] in r.stderr


def test_an_unknown_variant_in_notation_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "turbo.hand"
    path.write_text("house turbo\nhand\n")
    r = runner.invoke(app, ["replay", str(path)])
    assert r.exit_code == 2 and "turbo" in r.stderr and "variants.use" in r.stderr


def test_a_dealers_hand_without_the_upcard_is_placed_at_the_dealers_line(
    tmp_path: Path,
) -> None:
    """Issue 43: the refusal named the first ``dealt`` line, not the dealer's."""
    path = tmp_path / "up.hand"
    path.write_text(
        "house standard\nhand dealer 2\nupcard 2S\n"
        "dealt 0: 3S QD KC 4D 3C\ndealt 1: AH 5H 7C 6D 8S\ndealt 2: JH AS KS AC 2D\n"
        "decide 3 pass\n"
    )
    result = CliRunner().invoke(app, ["replay", str(path)])
    assert result.exit_code == 2
    assert "line 6" in result.output and "the dealer (seat 2) holds the upcard" in result.output
