"""The ``bourre`` command line: ``replay``, ``rules``, ``variants``, ``bench``; bad input
exits 2 with one message on standard error and nothing on standard output."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import BUILTINS, GOLDEN, hand_2111, make_script, normalize
from typer.testing import CliRunner

from bourre.cli import app
from bourre.rules.cards import card_symbol, parse_card

runner = CliRunner()


def invoke(*args: str, env: dict | None = None):
    return runner.invoke(app, list(args), env=env)


def golden_record(name: str) -> dict:
    return json.loads((GOLDEN / f"{name}.record.json").read_text(encoding="utf-8"))


def assert_fails(result, *words: str) -> str:
    """Exit 2, nothing on stdout, one message on stderr naming every word."""
    assert result.exit_code == 2, (result.exit_code, result.stdout, result.stderr)
    assert result.stdout == ""
    err = result.stderr
    assert err.startswith("bourre: ") and err.endswith("\n")
    assert err.count("bourre: ") == 1, err  # one message
    for w in words:
        assert w in err, f"{w!r} not in {err!r}"
    return err


# -------------------------------------------------------------------------- replay


@pytest.mark.parametrize("name", ["renege", "session_fraction", "reshuffle_8_players"])
def test_replay_prints_the_json_record(name):
    result = invoke("replay", str(GOLDEN / f"{name}.script.json"))
    assert result.exit_code == 0, result.stderr
    assert result.stderr == ""
    assert result.stdout.endswith("\n") and result.stdout.count("\n") == 1  # one JSON line
    assert normalize(json.loads(result.stdout)) == normalize(golden_record(name))


def test_replay_reads_stdin():
    script = (GOLDEN / "renege.script.json").read_text(encoding="utf-8")
    result = runner.invoke(app, ["replay", "-"], input=script)
    assert result.exit_code == 0, result.stderr
    assert normalize(json.loads(result.stdout)) == normalize(golden_record("renege"))


def test_replay_bad_stdin_names_stdin():
    result = runner.invoke(app, ["replay", "-"], input="{bad")
    assert_fails(result, "<stdin>", "not valid JSON")


def test_an_empty_script_is_called_empty(tmp_path: Path):
    """An empty file (or blank stdin) is named as empty, not as bad JSON."""
    path = tmp_path / "empty.hand"
    path.write_text("  \n\n", encoding="utf-8")
    for result in (
        invoke("replay", str(path)),
        invoke("check", "--script", str(path)),
        invoke("convert", str(path)),
        runner.invoke(app, ["replay", "-"], input=""),
    ):
        err = assert_fails(result, "the script is empty", "docs/table-scripts.md")
        assert "not valid JSON" not in err


def test_replay_indent_option():
    result = invoke("replay", "--indent", "2", str(GOLDEN / "renege.script.json"))
    assert result.exit_code == 0
    assert result.stdout.startswith('{\n  "house"')
    assert normalize(json.loads(result.stdout)) == normalize(golden_record("renege"))


def console_script() -> str | None:
    here = Path(sys.executable).with_name("bourre")
    if here.is_file() and os.access(here, os.X_OK):
        return str(here)
    return shutil.which("bourre")


def test_replay_real_console_script(tmp_path):
    exe = console_script()
    assert exe, "the `bourre` console script is not installed"
    path = GOLDEN / "session_fraction.script.json"
    done = subprocess.run(
        [exe, "replay", str(path)],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    assert normalize(json.loads(done.stdout)) == normalize(golden_record("session_fraction"))
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    done = subprocess.run(
        [exe, "replay", str(bad)],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
        check=False,
    )
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith("bourre: ") and "bad.json" in done.stderr
    assert done.stderr.count("\n") == 1


def test_replay_bad_json(tmp_script):
    path = tmp_script('{"hands": [', name="broken.json")
    assert_fails(invoke("replay", str(path)), "broken.json", "not valid JSON")


def test_replay_missing_file(tmp_path):
    assert_fails(invoke("replay", str(tmp_path / "nope.json")), "nope.json", "cannot read")


def test_replay_duplicate_card(tmp_script):
    script = make_script([hand_2111()])
    deck = script["hands"][0]["deck"]
    deck[7] = deck[3]
    twice = card_symbol(parse_card(deck[3]))  # a terminal shows cards by their symbols
    assert_fails(
        invoke("replay", str(tmp_script(script))), "hand 1, card 8 of the deck", twice, "R-DECK"
    )


def test_replay_card_not_held(tmp_script):
    script = make_script([hand_2111()])
    script["hands"][0]["plays"][0]["card"] = "AH"  # held by seat 4
    assert_fails(invoke("replay", str(tmp_script(script))), "hand 1, play 1, card:", "A♥", "R-DEAL")


def test_replay_unknown_variant(tmp_script):
    script = make_script([hand_2111()], variants=["turbo"])
    err = assert_fails(invoke("replay", str(tmp_script(script))), "variants.use", "turbo")
    assert "pot-limit" in err  # the installed variants are named


@pytest.mark.parametrize(
    "rules, key",
    [
        ({"table": {"players": 9}}, "table.players"),
        ({"table": {"players": 5, "ante": 0}}, "table.ante"),
        ({"table": {"players": 5, "seats": 5}}, "table.seats"),
        (
            {"variants": {"use": ["pot-limit"], "pot-limit": {"limit": 0}}},
            "variants.pot-limit.limit",
        ),
        ({"variants": {"use": ["pot-limit"]}}, "variants.pot-limit.limit"),
        ({"variants": {"use": ["standard"], "standard": {"x": 1}}}, "variants.standard.x"),
    ],
)
def test_replay_invalid_setting(tmp_script, rules, key):
    script = make_script([hand_2111()])
    script["rules"] = rules
    assert_fails(invoke("replay", str(tmp_script(script))), key)


@pytest.mark.parametrize(
    "variants, settings, key",
    [
        (["turbo"], None, "variants.use"),
        (["pot-limit"], {"pot-limit": {"limit": 0}}, "variants.pot-limit.limit"),
    ],
)
def test_replay_rules_errors_name_the_script(tmp_script, variants, settings, key):
    """Variant errors of a script's rules name the script file and its ``rules``, like
    the table errors do."""
    script = make_script([hand_2111()], variants=variants, settings=settings)
    path = tmp_script(script, name="table-7.json")
    assert_fails(invoke("replay", str(path)), "table-7.json: rules", key)


@pytest.mark.parametrize(
    "mutate, words",
    [
        (lambda h: h["decisions"].reverse(), ["hand 1, decision 1, seat:", "R-DECIDE"]),
        (lambda h: h["plays"].append({"seat": 1, "card": "AS"}), ["hand 1, play 21:"]),
        (
            lambda h: h["plays"][0].update(corrected_to="KS"),
            ["hand 1, play 1, card:", "R-CORRECTED"],
        ),
        (lambda h: h.update(deck=h["deck"][:-1]), ["hand 1", "deck", "R-DECK"]),
        (lambda h: h["deck"].__setitem__(0, "ZZ"), ["hand 1, card 1 of the deck:", "R-DECK"]),
        (lambda h: h.update(dealer=7), ["hand 1", "dealer", "R-SEAT"]),
    ],
)
def test_replay_malformed_hand(tmp_script, mutate, words):
    script = make_script([hand_2111()])
    mutate(script["hands"][0])
    assert_fails(invoke("replay", str(tmp_script(script))), *words)


def test_replay_a_hand_that_stops_early(tmp_script):
    """The plays stop early: refused for a hand that is not the last, and for the
    last one the record says who is to play next (HAND-HISTORY.md)."""
    script = make_script([hand_2111(), hand_2111()])
    script["hands"][0]["plays"].pop()
    assert_fails(invoke("replay", str(tmp_script(script))), "hand 1", "plays", "R-LEAD")
    last = make_script([hand_2111()])
    last["hands"][0]["plays"].pop()
    result = invoke("replay", str(tmp_script(last)))
    assert result.exit_code == 0, result.stderr
    record = json.loads(result.stdout)
    assert "final" not in record and record["hands"][-1]["next"]["legal"]


# --------------------------------------------------------------------------- rules


def test_rules_prints_rule_ids():
    result = invoke("rules")
    assert result.exit_code == 0, result.stderr
    out = result.stdout
    for rid in (
        "R-SEAT",
        "R-DECK",
        "R-SESSION",
        "R-FIRST-POT",
        "R-ANTE",
        "R-DEAL",
        "R-DECIDE",
        "R-PASS",
        "R-ACE-UP",
        "R-LAST-STANDS",
        "R-SOLE",
        "R-DRAW",
        "R-RESHUFFLE",
        "R-LEAD",
        "R-FOLLOW",
        "R-TRUMP",
        "R-DISCARD",
        "R-SURE",
        "R-EQUIV",
        "R-CINCH-LEAD",
        "R-CINCH-FOLLOW",
        "R-CINCH-LAST",
        "R-TRICK",
        "R-BOURRE",
        "R-RENEGE",
        "R-WIN",
        "R-CORRECTED",
        "R-DEALER",
        "R-PREMATURE",
        "R-SETTLE",
    ):
        assert rid in out, rid
    assert "standard" in out


def test_rules_house_string():
    result = invoke("rules", "standard+no-cinch+table(players=7)", env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.stderr
    assert "R-NO-CINCH" in result.stdout and "R-CINCH-LEAD" not in result.stdout
    assert "7 players" in result.stdout


def test_rules_house_toml(tmp_path):
    path = tmp_path / "house.toml"
    path.write_text(
        '[table]\nplayers = 7\nante = 2\n[variants]\nuse = ["standard", "pot-limit"]\n'
        "pot-limit = {limit = 10}\n",
        encoding="utf-8",
    )
    result = invoke("rules", str(path), env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.stderr
    out = result.stdout
    assert "standard+pot-limit(limit=10)+table(players=7,ante=2)" in out
    assert "R-POT-LIMIT" in out and "min(P, 10)" in out
    assert "7 players" in out and "antes 2" in out


@pytest.mark.parametrize(
    "text, key",
    [
        ("[table]\nplayers = 9\n", "table.players"),
        ("[table]\nplayrs = 5\n", "table.playrs"),
        ('[variants]\nuse = ["standard", "turbo"]\n', "turbo"),
        ("[table]\nplayers = 5\n[bogus]\nx = 1\n", "bogus"),
    ],
)
def test_rules_bad_house_file(tmp_path, text, key):
    path = tmp_path / "house.toml"
    path.write_text(text, encoding="utf-8")
    err = assert_fails(invoke("rules", str(path)), "house.toml", key)
    if key == "table.players":
        assert "8" in err  # the allowed maximum


def test_rules_missing_or_broken_house_file(tmp_path):
    assert_fails(invoke("rules", str(tmp_path / "missing.toml")), "missing.toml", "cannot read")
    path = tmp_path / "broken.toml"
    path.write_text("[table\n", encoding="utf-8")
    assert_fails(invoke("rules", str(path)), "broken.toml", "TOML")


def test_rules_bad_house_string():
    assert_fails(invoke("rules", "standard+turbo"), "turbo", "variants.use")


def test_rules_R_SEAT_text_names_the_last_seat():
    result = invoke("rules", env={"COLUMNS": "200"})
    assert re.search(r"R-SEAT Seats 0…4\b", result.stdout), result.stdout[:400]
    result = invoke("rules", "table(players=8)", env={"COLUMNS": "200"})
    assert re.search(r"R-SEAT Seats 0…7\b", result.stdout), result.stdout[:400]


# ------------------------------------------------------------------------ variants


def test_variants_lists_all_builtins():
    result = invoke("variants", env={"COLUMNS": "250"})
    assert result.exit_code == 0, result.stderr
    for name in BUILTINS:
        assert re.search(rf"\b{re.escape(name)}\b", result.stdout), name
    assert "limit" in result.stdout  # pot-limit's setting


def test_variants_names_readable_at_80_columns():
    """The names to use in a house are never cut, even on an 80-column terminal."""
    result = invoke("variants", env={"COLUMNS": "80"})
    assert result.exit_code == 0
    for name in BUILTINS:
        assert name in result.stdout, name


# --------------------------------------------------------------------------- bench


def test_bench_last_line_hands_per_second():
    """One line per measure (random, heuristic, Monte Carlo), medians, the machine
    first, the random bots' hands/s last."""
    result = invoke("bench", "--seconds", "0.3")
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.strip().splitlines()
    assert lines[0].startswith("machine: ") and "load average" in lines[0]
    m = re.fullmatch(r"hands/s: (\d+)", lines[-1])
    assert m and int(m.group(1)) > 0, lines[-1]
    rand = next(x for x in lines if "random bots: median" in x)
    assert "hands/s per core" in rand
    assert rand.split("median ")[1].split()[0].replace(",", "") == m.group(1)
    assert any("heuristic bots: median" in x and "hands/s per core" in x for x in lines)
    assert any("Monte Carlo bot: median" in x and "decisions/s" in x for x in lines)
    assert "reference" not in result.stdout


def test_bench_reference_is_interleaved_and_gives_ratios(tmp_path):
    """--reference runs the yardstick in every round; every hands/s line gets its
    ratio to the yardstick's median."""
    calls = tmp_path / "calls"
    ref = tmp_path / "ref.py"
    ref.write_text(
        "import sys\n"
        f"open({str(calls)!r}, 'a').write(' '.join(sys.argv[1:]) + '\\n')\n"
        "print('hands: 10 in 1 s')\nprint('hands/s: 1000')\n"
    )
    r = invoke("bench", "--seconds", "0.25", "--bots", "random", "--reference", str(ref))
    assert r.exit_code == 0, r.stderr
    rounds = calls.read_text().splitlines()
    assert len(rounds) == 5 and all(x.startswith("--seconds ") for x in rounds)
    line = next(x for x in r.stdout.splitlines() if "random bots: median" in x)
    rate = float(line.split("median ")[1].split()[0].replace(",", ""))
    ratio = float(line.split("; ")[1].split("×")[0])
    assert ratio == pytest.approx(rate / 1000, abs=0.01)
    assert "reference (ref.py): median 1,000 hands/s over 5 rounds" in r.stdout


def test_bench_reference_that_fails_is_one_message(tmp_path):
    ref = tmp_path / "ref.py"
    ref.write_text("raise SystemExit('no can do')\n")
    r = invoke("bench", "--seconds", "0.1", "--bots", "random", "--reference", str(ref))
    assert r.exit_code == 2 and "the yardstick failed (no can do)" in r.stderr
    assert_fails(invoke("bench", "--reference", str(tmp_path / "nope.py")), "not a file")


def test_bench_solver_refuses_what_it_does_not_time():
    assert_fails(invoke("bench", "--solver", "--bots", "random"), "--bots", "solver alone")
    assert_fails(invoke("bench", "--solver", "--parallel"), "--parallel")
    assert_fails(invoke("bench", "--solver", "--engine", "turbo"), "turbo")


def test_bench_bad_house():
    assert_fails(invoke("bench", "standard+turbo", "--seconds", "0.1"), "turbo")


def _commands_panel(text: str) -> list[str]:
    """The rows of the ``Commands`` panel of a help page, borders stripped."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if "Commands" in line and "─" in line)
    rows = []
    for line in lines[start + 1 :]:
        if line.startswith("╰"):
            break
        rows.append(line.strip("│ "))
    return rows


def test_help_lists_each_command_on_one_line():
    """``bourre --help`` gives each command one line, its docstring's first paragraph,
    and a command's own help flows its paragraphs to the terminal's width (typer's rich
    help keeps the source's line breaks unless told)."""
    wide = {"COLUMNS": "200"}
    rows = _commands_panel(invoke("--help", env=wide).stdout)
    names = [info.name or info.callback.__name__ for info in app.registered_commands]
    assert len(rows) == len(names) + len(app.registered_groups), rows
    assert all(not row.startswith(" ") for row in rows), rows  # no continuation row
    assert any(row.startswith("bench ") and row.endswith("in hands a second.") for row in rows)
    page = invoke("bench", "--help", env=wide).stdout
    assert "the Monte Carlo bot's decisions/s (medians of 5 rounds, the machine first)" in page


def test_a_plugins_wrapped_docstring_flows_too():
    """A third-party command's docstring, wrapped in its source, is one line in the list
    and one flowing paragraph in its own help; a ``\\b`` paragraph keeps its lines."""
    import typer

    from bourre.cli import _flowing_help

    def hello() -> None:
        """Say hello to the table: a command a plugin adds, its summary wrapped
        in the source.

        Details that a plugin author also
        wrapped by hand.

        \b
        kept
        as written"""

    cli = typer.Typer()
    cli.command("hello")(hello)
    cli.command("bye")(lambda: None)  # no help at all
    _flowing_help(cli)
    rows = _commands_panel(runner.invoke(cli, ["--help"], env={"COLUMNS": "200"}).stdout)
    assert rows[0].split(None, 1) == [
        "hello",
        "Say hello to the table: a command a plugin adds, its summary wrapped in the source.",
    ]
    page = runner.invoke(cli, ["hello", "--help"], env={"COLUMNS": "200"}).stdout
    assert "Details that a plugin author also wrapped by hand." in page
    assert "kept\n" in page.replace(" ", "").replace("│", "")


def test_help_points_only_to_the_projects_own_documents():
    """Messages, help and `bourre variants` name the project's own documents (its
    docs/ pages, `bourre rules`), never files outside the repository."""
    import pathlib

    outputs = [invoke("--help").stdout, invoke("variants").stdout]
    for command in ("replay", "rules", "play", "compare", "simulate", "sweep", "bench", "variants"):
        outputs.append(invoke(command, "--help").stdout)
    text = "\n".join(outputs)
    assert "docs/table-scripts.md" in invoke("replay", "--help").stdout
    for outside in ("RULES.md", "HAND-HISTORY", "shared/"):
        assert outside not in text
    root = pathlib.Path(__file__).parents[2]
    for path in [*(root / "core").rglob("*.py"), *(root / "variants").rglob("*.py")]:
        source = path.read_text(encoding="utf-8")
        for outside in ("RULES.md", "HAND-HISTORY", "../shared"):
            assert outside not in source, (path, outside)


def test_the_readme_tour_runs_as_written():
    """The questions of the README's "Settling a dispute", run verbatim; the session
    and its first hand given by its tricks alone rule alike."""
    import pathlib
    import shlex

    root = pathlib.Path(__file__).parents[2]
    readme = (root / "README.md").read_text(encoding="utf-8")
    block = readme.split("## Settling a dispute", 1)[1].split("```bash", 1)[1].split("```", 1)[0]
    commands = [line for line in block.splitlines() if line.startswith("bourre ")]
    assert len(commands) == 4
    expected = ["You may play:", "is to act and may:", "takes the pot", "Hand 1. "]
    outputs = []
    for command, words in zip(commands, expected, strict=True):
        args = shlex.split(command)[1:]
        args = [str(root / a) if a.startswith("docs/") else a for a in args]
        result = invoke(*args)
        assert result.exit_code == 0, (command, result.stderr)
        assert words in result.stdout, command
        outputs.append(result.stdout)
    first_hand = outputs[2].split("Hand 2. ")[0].split("Hand 1. ")[1]
    by_tricks = outputs[3].split("Hand 1. ")[1]
    assert first_hand.split("\n\n")[0] == by_tricks.split("\n\n")[0]  # the same ruling


def test_convert_refuses_a_file_it_cannot_read(tmp_path: Path) -> None:
    """`bourre convert` names the file that is missing or not UTF-8 (exit status 2)."""
    assert_fails(invoke("convert", str(tmp_path / "nope.hand")), "nope.hand", "cannot read")
    bad = tmp_path / "bad.hand"
    bad.write_bytes(b"\xff\xfe")
    assert_fails(invoke("convert", str(bad)), "bad.hand", "not UTF-8")
