"""``bourre check``: one question, one answer, in the house's own rule words."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import H, S, T
from typer.testing import CliRunner

from bourre.cli import app
from bourre.houses.house import House
from bourre.referee.check import CheckError, check_card

runner = CliRunner()


def ask(*args: str) -> tuple[int, str, str]:
    r = runner.invoke(app, ["check", *args])
    return r.exit_code, r.stdout, r.stderr


def test_the_worked_example_question() -> None:
    """RULES.md's worked example: hearts led, B trumped; C holds A♥ 5♥ 8♠ and must
    follow hearts, with any heart allowed since the trick is trumped (R-FOLLOW)."""
    ruling = check_card(House("standard"), H("AH 5H 8S"), T("JH 3S"), trump=0)
    assert S(ruling.legal) == {"AH", "5H"}
    assert [(S([r.card]), r.rule) for r in ruling.refused] == [({"8S"}, "R-FOLLOW")]
    assert ruling.rules == ("R-FOLLOW",)
    code, out, _ = ask(
        "--house", "standard", "--trump", "S", "--hand", "AH 5H 8S", "--trick", "JH 3S"
    )
    assert code == 0
    assert "You may play: A♥ 5♥." in out and "(R-FOLLOW)" in out
    assert "R-FOLLOW: Holding the led suit" in out  # the house's own rule text


def test_a_cinch_question() -> None:
    code, out, _ = ask("--trump", "S", "--hand", "AS KS QS 2H", "--json")
    got = json.loads(out)
    assert code == 0 and got["cinch"] is True
    assert set(got["legal"]) == {"AS", "KS", "QS"} and got["rules"] == ["R-LEAD", "R-CINCH-LEAD"]
    # with the ace played earlier and one trick won, KS QS are masters: still a cinch
    ruling = check_card(House("standard"), H("KS QS 2H"), [], trump=0, played=H("AS"), won=1)
    assert ruling.cinch and S(ruling.legal) == {"KS", "QS"}
    # no-cinch answers otherwise, from its own components
    assert not check_card(House("no-cinch"), H("AS KS QS 2H"), [], trump=0).cinch


def test_the_house_decides() -> None:
    """Unable to beat a trump on the trick, the standard profile obliges an
    under-trump (R-TRUMP); optional-undertrump does not."""
    std = check_card(House("standard"), H("2S 5D"), T("JH QS"), trump=0)
    opt = check_card(House("optional-undertrump"), H("2S 5D"), T("JH QS"), trump=0)
    assert S(std.legal) == {"2S"} and std.refused[0].rule == "R-TRUMP"
    assert S(opt.legal) == {"2S", "5D"}


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--trump", "S", "--hand", "AH XX"], ["--hand", "R-DECK"]),
        (["--trump", "S", "--hand", "AH", "--trick", "AH"], ["--trick", "R-DECK"]),
        (["--hand", "AH"], ["--trump", "R-DEAL"]),
        (["--trump", "S", "--upcard", "2S", "--hand", "AH"], ["--trump"]),
        (["--trump", "X", "--hand", "AH"], ["--trump", "R-DECK"]),
        (["--trump", "S", "--hand", "AH", "--trick", "2C 3C 4C 5C 6C"], ["--trick", "R-LEAD"]),
        (["--trump", "S", "--hand", "AH 2H 3H 4H 5H 6H"], ["--hand", "R-DEAL"]),
        (["--trump", "S", "--hand", "AH", "--house", "turbo"], ["turbo"]),
    ],
)
def test_bad_questions_get_one_clear_message(args: list[str], words: list[str]) -> None:
    code, out, err = ask(*args)
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1
    for w in words:
        assert w in err


def test_the_library_refuses_impossible_positions() -> None:
    with pytest.raises(CheckError, match="R-DECK"):
        check_card(House("standard"), H("AH 5H"), H("5H"), trump=0)


@pytest.mark.parametrize(
    ("hand", "trump"),
    [("AH 5H 8S", "S"), ("ah 5h 8s", "spades"), ("A♥ 5♥ 8♠", "♠"), ("A♥️ 5♥ 8♠", "Spade")],
)
def test_cards_and_suits_as_people_write_them(hand: str, trump: str) -> None:
    """Cards with letters or suit symbols, any case, and suits as letters, symbols or
    words: the same answer (issue 30)."""
    code, out, err = ask("--trump", trump, "--hand", hand, "--trick", "JH 3S", "--json")
    assert code == 0, err
    assert set(json.loads(out)["legal"]) == {"AH", "5H"}


@pytest.mark.parametrize("bad", ["Aſ", "11H", "A", "♥A", "1O♥"])
def test_what_is_not_a_card_is_refused_in_one_line(bad: str) -> None:
    code, _, err = ask("--trump", "S", "--hand", bad)
    assert code == 2 and "is not a card" in err and "Traceback" not in err


def test_check_script_names_an_illegal_card_already_played(tmp_path: Path) -> None:
    """``check --script`` on a hand with a renege: the card, the rule that forbade it in
    the words it had when played, that it stands, then who is to act and why."""
    dispute = Path(__file__).parents[2] / "docs" / "examples" / "hands" / "dispute.hand"
    path = tmp_path / "renege.hand"
    path.write_text(dispute.read_text(encoding="utf-8") + "play 1 8S\n", encoding="utf-8")
    r = runner.invoke(app, ["check", "--script", str(path)])
    assert r.exit_code == 0, r.stderr
    first, second = r.stdout.splitlines()[:2]
    assert first.startswith("Seat 1 played 8♠, which was not allowed: hearts were led")
    assert "(R-FOLLOW); it stands: a renege (R-RENEGE)." in first
    assert second.startswith("Seat 1 is to act and may:")
    assert "Why (R-LEAD): leading is free" in r.stdout
