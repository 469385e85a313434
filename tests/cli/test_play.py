"""``bourre play``: a session at the terminal, its saved table scripts and refusals."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from typer.testing import CliRunner

from bourre.cli import app
from bourre.cli.session import PlaySummary, Prompt, play_at_terminal
from bourre.houses.house import House
from bourre.referee import replay
from bourre.rules.cards import card_str, card_symbol, display_order
from bourre.rules.hookspec import CINCH, FOLLOW

SEED = 11
HOUSE = "standard"

runner = CliRunner()


def refusal_rule(view: Any, card: int) -> str:
    """The rule the house's own components give for refusing ``card`` (R-FOLLOW …)."""
    rules = House(HOUSE).rules
    trick = tuple(c for _, c in view.trick)
    ordinary = rules[FOLLOW].legal(view.hand, trick, view.trump)
    if view.cinch and card in ordinary.cards:
        known = frozenset(c for t in view.tricks for _, c in t.plays) | set(trick)
        known |= set(view.own_discards)
        last = len(trick) == len(view.active) - 1
        return rules[CINCH].narrow(ordinary, view.hand, trick, view.trump, known, last).reason.rule
    return ordinary.reason.rule


class Person:
    """Answers the prompts as a person would, and notes every line typed.

    Plays most hands, discards the low cards that are not trumps (by position or by
    notation), plays legal cards (by notation or by position), and once types an
    illegal card first to see it refused."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.numbers: list[int] = []
        """The hand number at each line typed."""
        self.asked: list[tuple[str, tuple[int, ...]]] = []
        """Each prompt's kind and the legal cards then."""
        self.refusal: dict[str, Any] | None = None
        self._then: str | None = None
        self._k = 0

    def __call__(self, prompt: Prompt) -> str:
        line = self.answer(prompt)
        self.asked.append((prompt.kind, tuple(prompt.view.legal)))
        self.lines.append(line)
        self.numbers.append(prompt.view.number)
        return line

    def answer(self, p: Prompt) -> str:
        v = p.view
        self._k += 1
        if self._then is not None:
            line, self._then = self._then, None
            return line
        if p.kind == "decide":
            has_trump = any(c // 13 == v.trump for c in v.hand)
            return "play" if has_trump or v.number % 3 else "pass"
        if p.kind == "discard":
            low = [c for c in p.shown if c // 13 != v.trump and c % 13 < 8][:3]
            if self._k % 2:
                return " ".join(str(p.shown.index(c) + 1) for c in low)
            return " ".join(card_str(c) for c in low)
        legal = display_order(v.legal, v.trump)
        illegal = [c for c in p.shown if c not in v.legal]
        if illegal and self.refusal is None:
            good = legal[0]
            self.refusal = {
                "number": v.number,
                "seat": v.seat,
                "plays_before": sum(len(t.plays) for t in v.tricks) + len(v.trick),
                "card": illegal[0],
                "rule": refusal_rule(v, illegal[0]),
                "legal": legal,
                "then": good,
            }
            self._then = card_str(good).lower()
            return card_str(illegal[0])
        card = legal[self._k % len(legal)]
        return str(p.shown.index(card) + 1) if self._k % 2 else card_str(card)


def play_in_process(
    house: str = HOUSE, seed: int = SEED, **kw: Any
) -> tuple[PlaySummary, Person, str]:
    person = Person()
    out = io.StringIO()
    kw.setdefault("bots", ("random",))  # the piped CLI session below seats random bots too
    summary = play_at_terminal(
        House(house), seed=seed, console=Console(file=out, width=100), read=person, **kw
    )
    return summary, person, out.getvalue()


def load_dir(d: Path) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    hands = [json.loads(p.read_text()) for p in sorted(d.glob("hand-*.json"))]
    return hands, json.loads((d / "session.json").read_text())


def joined(hands: list[dict[str, Any]]) -> dict[str, Any]:
    """All saved hands as one script: the first as saved (its balances and pot are
    those once the antes are paid), the others without their pot, so the antes of
    the session apply."""
    first = hands[0]
    out = [first["hands"][0]] + [
        {k: v for k, v in h["hands"][0].items() if k != "pot"} for h in hands[1:]
    ]
    return {"rules": first["rules"], "balances": first["balances"], "hands": out}


def dump(record: Any) -> Any:
    return json.loads(record.model_dump_json()) if hasattr(record, "model_dump_json") else record


@pytest.fixture(scope="module")
def session() -> tuple[PlaySummary, Person, str]:
    return play_in_process()


def test_session_in_process_replays(session: tuple[PlaySummary, Person, str]) -> None:
    summary, person, out = session
    assert not summary.stopped and len(summary.hands) == 12
    assert summary.final is not None
    # the person really played: cards typed by position and by notation
    assert any(line.isdigit() for line in person.lines)
    assert any(len(line) == 2 and not line.isdigit() for line in person.lines)
    rec = replay(summary.session_script)
    assert [dump(h) for h in rec.hands] == [dump(h) for h in summary.hands]
    assert rec.final.balances == summary.final
    assert rec.final.ranks == summary.ranks
    # each hand alone replays to the same record (its number aside: it is hand 1 alone)
    for script, live in zip(summary.scripts, summary.hands, strict=True):
        alone = dump(replay(script).hands[0])
        expected = dump(live)
        assert alone.pop("number") == 1
        expected.pop("number")
        assert alone == expected
    assert "Final balances" in out


def test_illegal_card_refused_then_legal_accepted(session: tuple[PlaySummary, Person, str]) -> None:
    summary, person, out = session
    r = person.refusal
    assert r is not None, "the session offered no chance to type an illegal card"
    assert r["rule"] in ("R-FOLLOW", "R-TRUMP", "R-CINCH-LEAD", "R-CINCH-FOLLOW")
    legal = " ".join(card_symbol(c) for c in r["legal"])
    assert f"✗ {card_symbol(r['card'])} is not allowed ({r['rule']})" in out
    # said to the player in the rule's own words, not of a seat (issue 43)
    refused = next(x for x in out.splitlines() if "is not allowed" in x)
    assert "seat" not in refused and " it must" not in refused and " its " not in refused
    assert f"Legal: {legal}" in " ".join(out.split())  # wrapped at the console's width
    assert "[red]" not in out and "[/red]" not in out  # the mark is styled, not markup
    # the legal card typed next is the one that stands
    plays = summary.session_script["hands"][r["number"] - 1]["plays"]
    assert plays[r["plays_before"]] == {"seat": r["seat"], "card": card_str(r["then"])}
    assert card_str(r["card"]) not in [p["card"] for p in plays[: r["plays_before"]]]


def test_cli_session_piped(session: tuple[PlaySummary, Person, str], tmp_path: Path) -> None:
    summary, person, _ = session
    save = tmp_path / "hands"
    result = runner.invoke(
        app,
        ["play", HOUSE, "--seed", str(SEED), "--bots", "random", "--save", str(save)],
        input="\n".join(person.lines) + "\n",
    )
    assert result.exit_code == 0, result.output
    hands, whole = load_dir(save)
    assert len(hands) == 12
    assert whole == summary.session_script
    assert hands == summary.scripts
    # replaying all saved hands as one script gives the same balances, hand by hand
    rec = replay(joined(hands))
    assert [h.balances for h in rec.hands] == [h.balances for h in summary.hands]
    assert rec.final.balances == summary.final
    # and each saved hand replays to the record of the hand played
    for h, live in zip(hands, summary.hands, strict=True):
        alone = dump(replay(h).hands[0])
        expected = dump(live)
        alone.pop("number"), expected.pop("number")
        assert alone == expected
    r = person.refusal
    assert r is not None
    assert f"is not allowed ({r['rule']})" in result.output
    assert "[red]" not in result.output and "[/red]" not in result.output
    assert "Final balances (R-SETTLE" in result.output


def test_subprocess_session(session: tuple[PlaySummary, Person, str], tmp_path: Path) -> None:
    summary, person, _ = session
    save = tmp_path / "hands"
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "bourre.cli",
            "play",
            "--seed",
            str(SEED),
            "--bots",
            "random",
            "--save",
            str(save),
        ],
        input="\n".join(person.lines) + "\n",
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=120,
        env={**__import__("os").environ, "PYTHONIOENCODING": "utf-8"},
    )
    assert proc.returncode == 0, proc.stderr
    _, whole = load_dir(save)
    assert whole == summary.session_script
    rec = replay(whole)
    assert rec.final.balances == summary.final
    # the final table printed shows the settled balances
    assert "Final balances" in proc.stdout


def test_end_of_input_keeps_complete_hands(
    session: tuple[PlaySummary, Person, str], tmp_path: Path
) -> None:
    summary, person, _ = session
    cut = person.numbers.index(3) + 1  # stop in the middle of hand 3
    save = tmp_path / "hands"
    result = runner.invoke(
        app,
        ["play", "--seed", str(SEED), "--bots", "random", "--save", str(save)],
        input="\n".join(person.lines[:cut]) + "\n",
    )
    assert result.exit_code == 0, result.output
    assert "Input ended: 2 complete hands played." in result.output
    hands, whole = load_dir(save)
    assert len(hands) == 2 and len(whole["hands"]) == 2
    rec = replay(whole)
    assert [h.balances for h in rec.hands] == [h.balances for h in summary.hands[:2]]


def test_hands_cut_short_and_options(tmp_path: Path) -> None:
    result = runner.invoke(app, ["play", "--seed", "3", "--hands", "2"], input="pass\n" * 10)
    assert result.exit_code == 0, result.output
    assert "Final balances" in result.output
    bad = runner.invoke(app, ["play", "--seat", "7"], input="")
    assert bad.exit_code == 2 and "R-SEAT" in bad.output
    bad = runner.invoke(app, ["play", "--bots", "nosuchbot"], input="")
    assert bad.exit_code == 2 and "unknown bot" in bad.output
    bad = runner.invoke(app, ["play", "--bots", "random,random"], input="")
    assert bad.exit_code == 2 and "--bots" in bad.output


@pytest.mark.parametrize(
    "house",
    [
        "four-card+table(players=8)",
        "simultaneous-reveal+double-ante",
        "pot-limit(limit=2)+table(players=3)",
    ],
)
def test_other_houses_replay(house: str) -> None:
    summary, _, _ = play_in_process(house, seed=5, seat=2, hands=6)
    rec = replay(summary.session_script)
    assert [dump(h) for h in rec.hands] == [dump(h) for h in summary.hands]
    assert rec.final.balances == summary.final
    for script, live in zip(summary.scripts, summary.hands, strict=True):
        alone, expected = dump(replay(script).hands[0]), dump(live)
        alone.pop("number"), expected.pop("number")
        assert alone == expected


def test_reshuffles_saved() -> None:
    """At a big table the stock runs out: the order of each new stock is saved, and
    the script replays it."""
    for seed in range(20):
        summary, _, _ = play_in_process("standard+table(players=8)", seed=seed, hands=3)
        if any("reshuffles" in h for h in summary.session_script["hands"]):
            break
    else:
        pytest.fail("no reshuffle in 20 sessions")
    rec = replay(summary.session_script)
    assert [dump(h) for h in rec.hands] == [dump(h) for h in summary.hands]


def test_a_misbehaving_bot_gets_a_message_not_a_traceback(tmp_path, monkeypatch):
    import textwrap

    (tmp_path / "badbots.py").write_text(
        textwrap.dedent("""
        from bourre_bots.random_bot import RandomPlayer

        class Illegal(RandomPlayer):
            def play(self, view):
                return next(c for c in range(52) if c not in view.legal)

        class Crashes(RandomPlayer):
            def decide(self, view):
                raise KeyError("oops")

        def illegal(rng=None):
            return Illegal(rng)

        def crashes(rng=None):
            return Crashes(rng)
    """)
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    for bot, words in (("badbots:illegal", "(R-"), ("badbots:crashes", "KeyError")):
        r = runner.invoke(app, ["play", "--bots", bot, "--seed", "3"], input="pass\n" * 40)
        assert r.exit_code == 2, (r.exit_code, r.stderr[-300:])
        assert words in r.stderr and "Traceback" not in r.stderr


def test_play_seats_heuristic_bots_by_default():
    r = runner.invoke(app, ["play", "--seed", "5", "--hands", "1"], input="pass\n" * 10)
    assert r.exit_code == 0, r.stderr
    assert "bots: 1 heuristic, 2 heuristic, 3 heuristic, 4 heuristic" in " ".join(r.stdout.split())


def test_final_balances_in_decimals() -> None:
    """A session whose pot left does not share out evenly (R-SETTLE): the player reads
    the balances in decimals (``86.8``, never ``434/5``); the saved script keeps them
    exact."""
    from fractions import Fraction

    for seed in range(40):
        summary, _, out = play_in_process("standard+table(players=3)", seed=seed, hands=3)
        if summary.final is not None and any(isinstance(b, Fraction) for b in summary.final):
            break
    else:
        pytest.fail("no session of 40 ended with a fraction of a chip")
    settled = out[out.index("Final balances") :]
    assert "/" not in settled.split("\n", 1)[1]
    for b in summary.final:
        if isinstance(b, Fraction):
            shown = f"{float(b):.2f}".rstrip("0").rstrip(".")
            assert shown in settled, (shown, settled)
    assert replay(summary.session_script).final.balances == summary.final


def test_a_short_session_replays_settled(tmp_path: Path) -> None:
    """``--hands 2``: the saved session.json says it was two hands long, so ``bourre
    replay`` settles it (R-SETTLE) instead of saying the session goes on."""
    save = tmp_path / "hands"
    r = runner.invoke(
        app, ["play", "--seed", "3", "--hands", "2", "--save", str(save)], input="pass\n" * 20
    )
    assert r.exit_code == 0, r.output
    for name in ("session.json", "session.hand"):
        words = runner.invoke(app, ["replay", "--words", str(save / name)])
        assert words.exit_code == 0, words.output
        assert "Settled" in words.output and "(R-SETTLE" in words.output
        assert "goes on" not in words.output
    whole = json.loads((save / "session.json").read_text())
    assert whole["rules"]["table"]["hands"] == 2
    assert replay(whole).final is not None


def test_auto_forced_plays_the_only_legal_card() -> None:
    """``auto_forced``: the person is never asked for a card when only one is legal; the
    card is played and said, with the rule that leaves it alone."""
    summary, person, out = play_in_process(seed=SEED, hands=4, auto_forced=True)
    asked = [(k, legal) for k, legal in person.asked if k == "play"]
    assert asked and all(len(legal) > 1 for _, legal in asked)
    assert "your only legal card (R-" in out or "your last card" in out
    rec = replay(summary.session_script)
    assert [dump(h) for h in rec.hands] == [dump(h) for h in summary.hands]
    # without the option, a card alone is asked for as before
    _, plain, plain_out = play_in_process(seed=SEED, hands=4)
    assert any(k == "play" and len(legal) == 1 for k, legal in plain.asked)
    assert "your only legal card" not in plain_out


def test_auto_forced_option_on_the_command_line() -> None:
    r = runner.invoke(
        app, ["play", "--seed", "5", "--hands", "1", "--auto-forced"], input="play\n\n" + "1\n" * 10
    )
    assert r.exit_code == 0, r.output
    assert "You play " in r.output and (
        "your only legal card (R-" in r.output or "your last card" in r.output
    )
