"""Advice during the hand (``bourre advise --script``, :mod:`bourre.advice.inhand`, issue
44): the disputed card of the rules' worked example; agreement with the review's values
card by card (a reviewed hand stopped at each card played); a script stopped at a
decision, an exchange or after its last hand; bad input."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from bourre import kernel
from bourre.advice.inhand import InHandError, advise_in_hand
from bourre.advice.review import ONLY_CARD, Recorder, review
from bourre.cli import app
from bourre.referee import load_script, referee
from bourre.rules.cards import card_str

ROOT = Path(__file__).resolve().parents[2]
HANDS = ROOT / "docs" / "examples" / "hands"
DISPUTE = HANDS / "dispute.hand"

runner = CliRunner()


def advise(*args: str, stdin: str | None = None) -> tuple[int, str, str]:
    r = runner.invoke(app, ["advise", *args], input=stdin)
    return r.exit_code, r.stdout, r.stderr


def test_the_disputed_card_in_words_and_json() -> None:
    """dispute.hand stops where seat 1 must follow hearts (spades trump, seat 0 trumped
    J♥): 5♥ or A♥ (R-FOLLOW).  Both lose the trick to 3♠; keeping A♥ is worth more on
    what seat 1 knows (it may still take a later heart), so 5♥ is played first."""
    code, out, err = advise("--script", str(DISPUTE))
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0] == "Seat 1 to play (hand 1, trick 1: hearts were led, spades are trump)."
    assert lines[1].startswith("Play 5♥: ")
    assert "on average on what you know (from " in lines[1]
    assert [x.split()[0] for x in lines[2:4]] == ["5♥", "A♥"]
    assert "every hand known: 0 chips, sure of 0 tricks" in lines[2]
    assert "200 deals that agree with everything you have seen" in out
    assert "19 times in 20" in out and "95%" not in out and "confidence" not in out

    code, out, err = advise("--script", str(DISPUTE), "--json", "--deals", "40", "--seed", "3")
    assert code == 0, err
    data = json.loads(out)
    engine = "kernel" if kernel.available() else "python"  # (the solver that searched)
    assert (data["seat"], data["deals"], data["seed"], data["engine"]) == (1, 40, 3, engine)
    assert [c["card"] for c in data["cards"]] == [
        data["best"],
        *(c["card"] for c in data["cards"][1:]),
    ]
    assert {c["card"] for c in data["cards"]} == {"5H", "AH"}
    for c in data["cards"]:
        assert c["low"] <= c["average"] <= c["high"]
        assert c["chips"] == 0 and c["sure_tricks"] == 0
    assert data["every_hand_known"] is True
    averages = [c["average"] for c in data["cards"]]
    assert averages == sorted(averages, reverse=True)


def test_from_stdin_the_same_as_from_the_file() -> None:
    text = DISPUTE.read_text(encoding="utf-8")
    a = advise("--script", "-", "--json", "--deals", "10", stdin=text)
    b = advise("--script", str(DISPUTE), "--json", "--deals", "10")
    assert a[0] == 0 and a[1] == b[1]


def stopped_at(data: dict[str, Any], hand: int, card: int) -> dict[str, Any]:
    """The script cut just before the ``card``-th card of hand ``hand`` (0-based)."""
    out = copy.deepcopy(data)
    out["hands"] = out["hands"][: hand + 1]
    out["hands"][hand]["plays"] = out["hands"][hand]["plays"][:card]
    return out


def three_players() -> dict[str, Any]:
    from advice.test_review import random_script  # (the review's random hands)

    return random_script(3, 5)


@pytest.mark.speed  # (seconds on the kernel; the Python search at every card, far longer)
@pytest.mark.parametrize("name", ["session.hand", "three players"])
def test_in_hand_values_are_the_review_s_at_every_card(name: str, tmp_path: Path) -> None:
    """The reviewed hand stopped at each card played: ``advise --script --json`` on the
    cut script gives, for every legal card, the review's chips and sure tricks with
    every hand known and the review's average over the same deals (the same seed).
    session.hand holds four hands, a renege and a correction (after which both give
    the values with every hand known only)."""
    data = load_script(HANDS / name) if name.endswith(".hand") else three_players()
    recorder = Recorder()
    referee(copy.deepcopy(data), watch=recorder)
    done = review(recorder.moments, house="standard", deals=6, seed=7)
    where = [(h, k) for h, hand in enumerate(data["hands"]) for k in range(len(hand["plays"]))]
    assert len(where) == len(done.plays)
    compared = weighed = 0
    for (h, k), p, m in zip(where, done.plays, recorder.moments, strict=True):
        if p.note == ONLY_CARD or not p.alternatives:
            continue
        path = tmp_path / f"cut-{h}-{k}.json"
        path.write_text(json.dumps(stopped_at(data, h, k)), encoding="utf-8")
        code, out, err = advise("--script", str(path), "--json", "--deals", "6", "--seed", "7")
        assert code == 0, err
        got = {c["card"]: c for c in json.loads(out)["cards"]}
        assert set(got) == {card_str(a.card) for a in p.alternatives}
        for a in p.alternatives:
            c = got[card_str(a.card)]
            assert (c["chips"], c["sure_tricks"]) == (a.chips, a.sure_tricks), (h, k)
            if m.renege:  # (the review weighs no deal for a renege: it is not advice)
                continue
            want = None if a.average is None else round(float(a.average), 4)
            assert c["average"] == want, (h, k, card_str(a.card))
            weighed += a.average is not None
        compared += 1
    assert compared >= 2 and weighed >= 2


@pytest.mark.speed  # (a second on the kernel; the Python search from the first tricks, minutes)
def test_the_function_gives_the_review_s_deals_for_a_recorded_position() -> None:
    """From Python: the recorded state of a card played, its index in the script, the
    same seed: exactly the review's averages (fractions, not rounded)."""
    recorder = Recorder()
    referee(load_script(HANDS / "session.hand"), watch=recorder)
    moments = recorder.moments[:12]
    done = review(moments, house="standard", deals=5, seed=2)
    checked = 0
    for i, (m, p) in enumerate(zip(moments, done.plays, strict=True)):
        if p.note == ONLY_CARD or m.renege or not p.alternatives:
            continue
        got = advise_in_hand(m.state, index=i, house="standard", deals=5, seed=2)
        mine = {c.card: c for c in got.cards}
        for a in p.alternatives:
            assert mine[a.card].average == a.average and mine[a.card].chips == a.chips
        checked += 1
    assert checked >= 3


DECIDING = "\n".join(DISPUTE.read_text(encoding="utf-8").splitlines()[:10]) + "\n"


def test_a_script_at_a_decision_points_to_the_advice_before_the_hand() -> None:
    code, out, err = advise("--script", "-", stdin=DECIDING)
    assert code == 2 and out == ""
    assert "no card is to be played yet: seat 0 is to decide whether to play or pass" in err
    assert 'bourre advise --hand "3S 4D QD 3C KC" --upcard 2S --place 3 --players 5' in err


def test_a_finished_hand_has_no_one_to_play() -> None:
    code, out, err = advise("--script", str(HANDS / "tricks.hand"))
    assert code == 2 and out == ""
    assert "no one is to play a card at the end of the script: its last hand is over" in err


def test_the_player_s_cards_must_be_known() -> None:
    """Seat 1 to play with no ``dealt 1`` line: the referee refuses the stopped script
    (a seat whose plays stop part-way gives its cards, R-DEAL), once, no traceback."""
    lines = DISPUTE.read_text(encoding="utf-8").splitlines()
    text = "\n".join(x for x in lines if not x.startswith("dealt 1"))
    code, out, err = advise("--script", "-", stdin=text)
    assert code == 2 and out == "" and "R-DEAL" in err and "Traceback" not in err


@pytest.mark.parametrize(
    ("args", "stdin", "message"),
    [
        (["--script", "-"], "house standard\nhand dealer 2\nupcard 2Z\n", "line 3, column 8"),
        (["--script", "/nonexistent.hand"], None, "/nonexistent.hand: cannot read"),
        (["--script", str(DISPUTE), "--hand", "AH"], None, "--script: give the script or --hand"),
        (["--script", str(DISPUTE), "--deals", "20000"], None, "--deals: from 0 to 10,000"),
        (["--script", str(DISPUTE), "--deals", "x"], None, "--deals"),
        (["--upcard", "2S"], None, "--hand, --place: needed to advise before the hand"),
        (
            ["--deals", "3", "--hand", "AH", "--upcard", "2S", "--place", "1"],
            None,
            "--deals: with --script only",
        ),
    ],
)
def test_bad_input_is_one_message_and_exit_2(
    args: list[str], stdin: str | None, message: str
) -> None:
    code, out, err = advise(*args, stdin=stdin)
    assert code == 2 and out == ""
    assert message in err and "Traceback" not in err
    assert len(err.strip().splitlines()) <= 3


def test_no_card_is_refused_from_python() -> None:
    recorder = Recorder()
    done = referee(load_script(HANDS / "tricks.hand"), watch=recorder)
    with pytest.raises(InHandError, match="last hand is over"):
        advise_in_hand(done.state, index=25, house="standard")
    with pytest.raises(ValueError, match="deals"):
        advise_in_hand(recorder.moments[0].state, index=0, house="standard", deals=-1)


def test_no_deal_gives_the_values_with_every_hand_known_only() -> None:
    code, out, err = advise("--script", str(DISPUTE), "--deals", "0")
    assert code == 0, err
    assert out.splitlines()[1:3] == [
        "Play 5♥: 0 chips with every hand known.",
        "5♥ and A♥ are worth the same with every hand known: play any of them.",
    ]
    assert "on average" not in out and "deals that agree" not in out


@pytest.mark.skipif(not kernel.available(), reason="the compiled kernel is not built")
def test_the_python_rules_draw_the_rest_when_the_kernel_cannot(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """When the kernel cannot draw a deal (a draw from reshuffled discards, R-RESHUFFLE,
    or a house it cannot play) the Python rules draw the rest from the same key: every
    deal asked for is still weighed, the first batch the kernel's."""
    from bourre.advice import weigh as module

    real = module.sample_worlds
    calls: list[int] = []

    def first_batch_only(*args: Any, **kw: Any) -> Any:
        calls.append(args[2])
        return real(*args, **kw) if len(calls) == 1 else None

    done = referee(load_script(DISPUTE))
    kernel_only = advise_in_hand(done.state, index=2, house="standard", deals=50, seed=5)
    monkeypatch.setattr(module, "sample_worlds", first_batch_only)
    mixed = advise_in_hand(done.state, index=2, house="standard", deals=80, seed=5)
    assert calls == [50, 30] and mixed.deals == 80
    for a, b in zip(
        sorted(kernel_only.cards, key=lambda c: c.card),
        sorted(mixed.cards, key=lambda c: c.card),
        strict=True,
    ):
        assert b.each[:50] == a.each and len(b.each) == 80
