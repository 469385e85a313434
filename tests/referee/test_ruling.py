"""``bourre replay`` in plain words, read at a glance: each hand's summary first (who
takes the pot or why it carries, who pays what, the next pot, who deals next and who
lost the deal and why), then each seat's line, then the rule texts once under "Rules";
every table event said (reneges, corrections, announcements out of turn: R-PREMATURE);
the JSON record stays the default when the output is not a terminal.
:func:`bourre.referee.ruling.ruling_of` is the one function both front ends render."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from bourre.cli import app
from bourre.referee import referee, referee_file
from bourre.referee.notation import parse_script
from bourre.referee.ruling import ruling, ruling_of

GOLDEN = Path(__file__).parents[1] / "golden"
SESSION = Path(__file__).parents[2] / "docs" / "examples" / "hands" / "session.hand"
runner = CliRunner()


def words(name: str) -> str:
    r = runner.invoke(app, ["replay", str(GOLDEN / f"{name}.script.json"), "--words"])
    assert r.exit_code == 0, r.stderr
    return r.stdout


def test_json_by_default_when_piped_and_with_json() -> None:
    path = str(GOLDEN / "worked_example.script.json")
    for args in ([path], [path, "--json"]):
        r = runner.invoke(app, ["replay", *args])
        assert r.exit_code == 0 and json.loads(r.stdout)["hands"]


def hand_block(out: str, number: int) -> list[str]:
    """The lines of hand ``number`` in ``replay --words``: its opening, its summary,
    its seats' lines."""
    lines = out.splitlines()
    start = lines.index(next(x for x in lines if x.startswith(f"Hand {number}. ")))
    block = [lines[start]]
    for x in lines[start + 1 :]:
        if not x.startswith("  "):
            break
        block.append(x.strip())
    return block


def rules_part(out: str) -> list[str]:
    lines = out.splitlines()
    return [x.strip() for x in lines[lines.index("Rules:") + 1 :]]


def test_the_worked_example_in_words() -> None:
    out = words("worked_example")
    hand = hand_block(out, 1)
    assert hand[0].startswith("Hand 1. Seat 2 deals; 2♠ makes spades trump; 5 chips in the pot.")
    # the summary first: the pot, who pays what, the next pot, who deals next
    assert hand[1:5] == [
        "Seat 4 takes the pot: 5 chips, with 3 tricks. (R-WIN)",
        "Into the next pot: seat 1 pays 5 chips (bourré). (R-BOURRE)",
        "The next pot: 5 chips, before the antes.",
        "Seat 3 deals next.",
    ]
    # then each seat's line
    assert hand[5:] == [
        "- Seat 0 played and took 2 tricks; now holds 99 chips.",
        "- Seat 1 played and took no trick; pays 5 chips into the next pot: bourré (R-BOURRE);"
        " now holds 94 chips.",
        "- Seat 2 passed; now holds 99 chips.",
        "- Seat 3 passed; now holds 99 chips.",
        "- Seat 4 played and took 3 tricks; takes 5 chips; now holds 104 chips.",
    ]
    assert "Seat 1 does not ante (bourré or tied for the most tricks last hand)" in out
    assert "Seat 3 plays alone and takes the pot: 9 chips. (R-SOLE)" in out
    assert "The session goes on (2 of 12 hands): nothing is settled yet. (R-SETTLE)" in out
    assert "Settled" not in out


def test_each_rule_text_once_at_the_end() -> None:
    """The lines cite rule ids; each rule's text is given once, under "Rules"."""
    out = words("renege")
    texts = rules_part(out)
    ids = [x.split(":", 1)[0] for x in texts]
    assert len(ids) == len(set(ids)) and {"R-WIN", "R-RENEGE", "R-BOURRE", "R-SOLE"} <= set(ids)
    body = out[: out.index("Rules:")]
    assert "R-RENEGE: " not in body and "R-WIN: " not in body
    # the renege's seat: one line, the rule that forbade the card, what it costs
    seat1 = [x for x in hand_block(out, 1) if x.startswith("- Seat 1 ")]
    assert len(seat1) == 1
    assert (
        "reneged in trick 2: K♥ was not allowed (spades were led and it holds spades: play one"
        " (2♠): R-FOLLOW) and it stood" in seat1[0]
    )
    assert "pays 10 chips into the next pot: bourré and a renege (R-BOURRE, R-RENEGE)" in seat1[0]
    assert "loses the right to the pot and its next deal (R-RENEGE)" in seat1[0]
    assert seat1[0].count("R-RENEGE") == 2  # its payment and its lost deal, said once each
    # the lost deal where it applies: who deals next, and at the next hand
    assert "Seat 2 deals next: seat 1 loses the deal (R-RENEGE)." in hand_block(out, 1)
    assert hand_block(out, 2)[0].startswith(
        "Hand 2. Seat 2 deals: seat 1 lost the deal (R-RENEGE);"
    )


def test_a_tie_and_a_correction() -> None:
    out = words("tie_carry")
    assert (
        "Seats 1 and 2 tie with 2 tricks: nobody takes the pot, and its 5 chips carry to the"
        " next hand. (R-WIN)" in out
    )
    out = words("correction")
    assert (
        "Seat 2 took the most tricks (4) but lost the right to the pot: its 5 chips carry to"
        " the next hand. (R-CORRECTED)" in out
    )
    assert "took back A♠ in trick 1, which was not allowed (" in out
    assert "and played 3♥ instead; loses the right to the pot and its next deal (R-CORRECTED)" in (
        out
    )
    assert "Seat 1 deals next; seat 2 loses its next turn to deal (R-CORRECTED)." in out
    assert "Hand 3. Seat 3 deals: seat 2 lost the deal (R-CORRECTED);" in out


def test_a_premature_announcement_and_the_lost_deal() -> None:
    """R-PREMATURE: said in the hand it happens, and again where the deal skips it."""
    out = words("premature_dealer")
    one = hand_block(out, 1)
    assert "- Seat 3 passed; announced out of turn: it loses its next deal (R-PREMATURE);" in (
        " ".join(one)
    )
    assert "Seat 4 deals next: seat 3 loses the deal (R-PREMATURE)." in one
    assert hand_block(out, 2)[0].startswith(
        "Hand 2. Seat 4 deals: seat 3 lost the deal (R-PREMATURE);"
    )
    assert "R-PREMATURE: Announcing play, pass" in out


def test_session_hand_mentions_both_premature_announcements() -> None:
    """docs/examples/hands/session.hand: seat 0 announces out of turn in hand 3 (and
    reneges), seat 1 in hand 4, the session's last; both are said with what they
    cost."""
    r = runner.invoke(app, ["replay", str(SESSION), "--words"])
    assert r.exit_code == 0, r.stderr
    out = r.stdout
    three = " ".join(hand_block(out, 3))
    assert "Seat 0 played and took no trick; reneged in trick 2" in three
    assert "announced out of turn (R-PREMATURE); loses the right to the pot and its next deal" in (
        three
    )
    assert "(R-RENEGE, R-PREMATURE)" in three
    # who deals next: seat 3 (a card taken back in hand 2, a renege in hand 3) is
    # skipped; seat 0's lost turn is still to come
    assert (
        "Seat 4 deals next: seat 3 loses the deal (R-CORRECTED, R-RENEGE); seat 0 loses its"
        " next turn to deal (R-RENEGE, R-PREMATURE)." in three
    )
    four = " ".join(hand_block(out, 4))
    assert four.startswith("Hand 4. Seat 4 deals: seat 3 lost the deal (R-CORRECTED, R-RENEGE);")
    assert (
        "Seat 1 passed; announced out of turn: it loses its next deal (the session is over)"
        " (R-PREMATURE)" in four
    )
    assert "That was the session's last hand: nobody deals next." in four
    assert out.count("announced out of turn") == 2


def test_the_ruling_shared_by_the_front_ends() -> None:
    """:func:`ruling_of`: per hand the summary, the seats' lines and the rule ids; the
    texts once; no command-line words (the terminal adds its own)."""
    done = referee_file(SESSION)
    r = ruling_of(done)
    assert [h.number for h in r.hands] == [1, 2, 3, 4] and all(h.over for h in r.hands)
    assert r.hands[1].summary[0] == "Seat 4 takes the pot: 16 chips, with 3 tricks. (R-WIN)"
    assert r.hands[1].summary[1] == (
        "Into the next pot: seat 0 pays 16 chips (a renege); seats 2 and 3 pay 16 chips each"
        " (bourré). (R-BOURRE, R-RENEGE)"
    )
    assert r.hands[1].summary[2] == "The next pot: 48 chips, before the antes."
    assert len(r.hands[1].seats) == 5
    assert set(r.hands[2].rules) >= {"R-WIN", "R-BOURRE", "R-RENEGE", "R-PREMATURE"}
    ids = [rid for rid, _ in r.texts]
    assert len(ids) == len(set(ids)) and "R-PREMATURE" in ids and "R-SETTLE" in ids
    assert r.texts_of(["R-PREMATURE"])[0][1].startswith("Announcing play, pass")
    assert r.end[0].startswith("Settled, what was left in the pot shared equally: seat 0 -20")
    everything = " ".join(
        [*r.end, *(x for h in r.hands for x in (h.opening, *h.summary, *h.seats))]
    )
    assert "bourre replay" not in everything and "JSON" not in everything
    # the terminal: every line once, the rule texts at the end
    lines = ruling(done)
    assert lines.index("Rules:") > max(i for i, x in enumerate(lines) if x.startswith("Hand "))


def test_a_partial_session_says_nothing_is_settled_yet() -> None:
    text = SESSION.read_text()
    done = referee(parse_script(text[: text.index("\nhand\n", text.index("premature 0"))]))
    r = ruling_of(done)
    assert r.end == ("The session goes on (3 of 4 hands): nothing is settled yet. (R-SETTLE)",)
    assert "Seat 4 deals next" in r.hands[-1].summary[-1]


def test_a_hand_that_stops_says_who_acts(tmp_path: Path) -> None:
    script = json.loads((GOLDEN / "worked_example.script.json").read_text())
    script["hands"] = script["hands"][:1]
    script["hands"][0]["plays"] = script["hands"][0]["plays"][:2]
    path = tmp_path / "s.json"
    path.write_text(json.dumps(script))
    r = runner.invoke(app, ["replay", str(path), "--words"])
    assert r.exit_code == 0
    assert "The hand stops here: seat" in r.stdout and "is to act and may:" in r.stdout


def test_a_whole_session_is_settled_in_words(tmp_path: Path) -> None:
    """A script that covers the whole session ends with the settlement (R-SETTLE)."""
    script = json.loads((GOLDEN / "worked_example.script.json").read_text())
    script.setdefault("rules", {}).setdefault("table", {})["hands"] = len(script["hands"])
    path = tmp_path / "whole.json"
    path.write_text(json.dumps(script))
    r = runner.invoke(app, ["replay", str(path), "--words"])
    assert r.exit_code == 0, r.stderr
    assert "Settled, what was left in the pot shared equally" in r.stdout
    assert "That was the session's last hand: nobody deals next." in r.stdout
    assert "The session goes on" not in r.stdout


def test_a_hand_stopped_during_the_decisions_says_who_has_decided(tmp_path: Path) -> None:
    """Stopped after two passes: who has decided and how, not 'passed: everyone'."""
    path = tmp_path / "part.hand"
    path.write_text(
        "house standard\nhand dealer 0\nupcard 2S\ndecide 1 pass\npremature 4\ndecide 2 pass\n"
    )
    r = runner.invoke(app, ["replay", str(path), "--words"])
    assert r.exit_code == 0, r.stderr
    hand = hand_block(r.stdout, 1)
    assert hand[1] == "The hand stops here: seat 3 is to act and may: pass, play. (R-DECIDE)"
    assert hand[2:] == [
        "- Seat 0 has not decided.",
        "- Seat 1 passes.",
        "- Seat 2 passes.",
        "- Seat 3 has not decided.",
        "- Seat 4 has not decided; announced out of turn: it loses its next deal (R-PREMATURE).",
    ]


def test_money_in_decimals(tmp_path: Path) -> None:
    """A pot shared at the settlement (R-SETTLE) reads in decimals, to the hundredth;
    the JSON record keeps it exact."""
    from fractions import Fraction

    from bourre.referee.ruling import chips

    assert chips(Fraction(489, 5)) == "97.8 chips" and chips(Fraction(100, 3)) == "33.33 chips"
    assert chips(1) == "1 chip" and chips(Fraction(10, 2)) == "5 chips"
    assert chips(Fraction(1, 1000)) == "1/1000 chips"  # too small for hundredths: exact
    script = json.loads((GOLDEN / "session_fraction.script.json").read_text())
    script.setdefault("rules", {}).setdefault("table", {})["hands"] = len(script["hands"])
    path = tmp_path / "whole.json"
    path.write_text(json.dumps(script))
    r = runner.invoke(app, ["replay", str(path), "--words"])
    assert r.exit_code == 0, r.stderr
    settled = next(x for x in r.stdout.splitlines() if x.startswith("Settled"))
    assert "seat 0 97.8 chips" in settled and "/5" not in settled


def test_a_house_that_splits_the_pot_says_who_shares_it() -> None:
    """A third-party payout (the example plugin split-pot): the tie of tricks.hand's
    hand splits the pot; the summary says who shares it, from the payout's amounts."""
    import importlib
    import sys

    from bourre.referee.scripts import load_script
    from bourre.rules.plugins import load_registry

    src = Path(__file__).parents[2] / "docs" / "examples" / "bourre-split-pot" / "src"
    sys.path.insert(0, str(src))
    try:
        module = importlib.import_module("bourre_split_pot")
    finally:
        sys.path.remove(str(src))
        sys.modules.pop("bourre_split_pot", None)
    registry = load_registry(extra=[("split-pot", module)])
    script = load_script(Path(__file__).parents[2] / "docs/examples/hands/tricks.hand")
    script["rules"] = {"variants": {"use": ["split-pot"]}}
    r = ruling_of(referee(script, registry=registry))
    assert r.hands[0].summary[0] == (
        "Seats 0 and 3 share the pot of 5 chips: seat 0 2.5 chips, seat 3 2.5 chips. (R-SPLIT-POT)"
    )
    assert "R-SPLIT-POT" in dict(r.texts)


def test_a_ruling_speaks_of_each_seat_in_one_person() -> None:
    """The rule components' reasons are written to the player ("you hold spades"); said
    after "Seat 1 … reneged" they are turned to the seat ("it holds spades"), so no
    line of a ruling switches to "you" half-way (issue 43).  The rule texts under
    "Rules" are the house's general words and stay as they are."""
    for name in ("renege", "correction", "worked_example"):
        out = words(name)
        body = out[: out.index("Rules:")]
        said = [x for x in body.splitlines() if " you " in f" {x.lower()} " or "your" in x.lower()]
        assert said == [], (name, said)
    out = words("correction")
    seat2 = next(x for x in out.splitlines() if "took back A♠" in x)
    assert "took back A♠ in trick 1, which was not allowed (" in seat2
    assert " it " in seat2.split("which was not allowed (", 1)[1]
