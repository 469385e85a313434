"""Fuzz tests (hypothesis): mutated hand-notation files, JSON scripts, house strings,
house files and web forms into every command that reads them.  Each answer is a
result or one clean refusal (exit status 2, ``bourre: `` and the place), never a
traceback; the web app never answers 5xx.  The default runs are bounded (a few
seconds each); ``-m slow`` runs many more examples."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import BaseModel, ConfigDict
from typer.testing import CliRunner

from bourre.cli import app

GOLDEN = Path(__file__).parents[1] / "golden"
cli = CliRunner()
FAST = settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
SLOW = settings(max_examples=600, deadline=None, suppress_health_check=list(HealthCheck))

HOSTILE = [
    "²",
    "--5",
    "9" * 5000,
    "[" * 3000,
    "{" * 3000,
    "-",
    "(",
    ")",
    ",",
    "1e999",
    "\x00",
    "é",
    "99",
    "/",
    ">",
    ":",
    "#",
    "AS/",
    "2",
    "0",
    "-1",
    "1/0",
    "3/",
    "pass",
    "play",
    "rules",
    "hand",
    "dealer",
    "pot",
    "table(players=9)",
    '"',
    "'",
    "\\",
    "NaN",
    "true",
    "AS",
    "KH",
    "10H",
    "+",
    "=",
    "standard+",
    "٣",
    "1" * 17,
    "-0",
    "7S",
]


def _notation() -> str:
    script = json.loads((GOLDEN / "worked_example.script.json").read_text())
    from bourre.referee.notation import format_script

    text = format_script(script)
    return (
        "house standard+pot-limit(limit=10)\nbalances 100 100 100 100 100\n"
        + text.split("\n", 1)[1]
    )


NOTATION = _notation()
LINES = NOTATION.splitlines()


def _clean(args: list[str]) -> None:
    r = cli.invoke(app, args)
    assert r.exception is None or isinstance(r.exception, SystemExit), (args, repr(r.exception))
    assert r.exit_code in (0, 2), (args, r.exit_code, r.stderr[-500:])
    if r.exit_code == 2:
        assert r.stdout == "" and r.stderr.startswith("bourre: "), r.stderr[:500]
        assert "Traceback" not in r.stderr and "Input should" not in r.stderr


def _mutated_lines(draw: Any) -> str:
    lines = list(LINES)
    for _ in range(draw(st.integers(1, 4))):
        k = draw(st.integers(0, len(lines) - 1))
        words = lines[k].split(" ")
        op = draw(st.sampled_from(["replace", "insert", "drop", "duplicate", "cut"]))
        w = draw(st.integers(0, len(words) - 1))
        if op == "replace":
            words[w] = draw(st.sampled_from(HOSTILE))
        elif op == "insert":
            words.insert(w, draw(st.sampled_from(HOSTILE)))
        elif op == "drop" and len(words) > 1:
            del words[w]
        elif op == "duplicate":
            lines.insert(k, lines[k])
        else:
            words[w] = words[w][: draw(st.integers(0, len(words[w])))]
        lines[k] = " ".join(words)
    return "\n".join(lines) + "\n"


notation_files = st.composite(_mutated_lines)()


def _notation_into_every_command(text: str, tmp: Path) -> None:
    path = tmp / "hand.txt"
    path.write_text(text, encoding="utf-8")
    for args in (["replay", str(path)], ["check", "--script", str(path)], ["convert", str(path)]):
        _clean(args)


@FAST
@given(text=notation_files)
def test_mutated_notation_files(text: str, tmp_path_factory: Any) -> None:
    _notation_into_every_command(text, tmp_path_factory.mktemp("n"))


@pytest.mark.slow
@SLOW
@given(text=notation_files)
def test_mutated_notation_files_long(text: str, tmp_path_factory: Any) -> None:
    _notation_into_every_command(text, tmp_path_factory.mktemp("n"))


# -- JSON scripts: a value anywhere replaced by a hostile one --------------------------

SCRIPT = json.loads((GOLDEN / "worked_example.script.json").read_text())

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(10**20), 10**20)
    | st.floats(allow_nan=False)
    | st.sampled_from(HOSTILE)
    | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=6,
)


def _paths(x: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix]
    if isinstance(x, dict):
        for k, v in x.items():
            out += _paths(v, (*prefix, k))
    elif isinstance(x, list):
        for i, v in enumerate(x[:6]):
            out += _paths(v, (*prefix, i))
    return out


PATHS = _paths(SCRIPT)[1:]


@FAST
@given(edits=st.lists(st.tuples(st.sampled_from(PATHS), json_values), min_size=1, max_size=3))
def test_mutated_json_scripts(
    edits: list[tuple[tuple[Any, ...], Any]], tmp_path_factory: Any
) -> None:
    script = copy.deepcopy(SCRIPT)
    for where, value in edits:
        node = script
        try:
            for step in where[:-1]:
                node = node[step]
            node[where[-1]] = value
        except (KeyError, IndexError, TypeError):
            continue
    path = tmp_path_factory.mktemp("j") / "s.json"
    path.write_text(json.dumps(script), encoding="utf-8")
    for args in (["convert", str(path)], ["check", "--script", str(path)], ["replay", str(path)]):
        _clean(args)


# -- house strings and files -------------------------------------------------------------


class LabelSettings(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    label: str = "plain"


def _labelled_registry() -> Any:
    from types import SimpleNamespace

    from bourre.rules.plugins import load_registry
    from bourre.rules.variant import Variant, hookimpl

    class Labelled(Variant):
        name = "labelled"
        summary = "A variant with a text setting (for the fuzz tests)."
        Settings = LabelSettings

    def variants(register: Any) -> None:
        register(Labelled)

    return load_registry(
        extra=[("labelled", SimpleNamespace(bourre_register_variants=hookimpl(variants)))]
    )


REGISTRY = _labelled_registry()

setting_values = st.one_of(
    st.sampled_from(HOSTILE),
    st.text(alphabet="ab,()+=\"\\ 'xyz-_.", max_size=12).map(json.dumps),  # quoted strings
    st.integers(-(10**18), 10**18).map(str),
)
house_strings = st.builds(
    lambda base, items: "+".join([base, *items]),
    st.sampled_from(["standard", "standard+pot-limit(limit=10)", "labelled"]),
    st.lists(
        st.one_of(
            st.builds(lambda v: f"labelled(label={v})", setting_values),
            st.builds(
                lambda k, v: f"table({k}={v})",
                st.sampled_from(["players", "ante", "balance", "hands", "first_dealer"]),
                setting_values,
            ),
            st.builds(lambda v: f"pot-limit(limit={v})", setting_values),
            st.sampled_from(HOSTILE),
        ),
        max_size=3,
    ),
)


@FAST
@given(house_strings)
def test_house_strings_read_back_from_their_canonical_form(text: str) -> None:
    """A house accepted once is accepted again from its canonical string (what the
    workers of a run read), with the same rules; a house refused is refused in words."""
    from bourre.houses.house import House, PluginError
    from bourre.houses.models import HouseError

    try:
        house = House(text, registry=REGISTRY)
    except (HouseError, PluginError) as e:
        assert "Input should" not in str(e) and "Traceback" not in str(e)
        return
    again = House(house.spec, registry=REGISTRY)
    assert again.spec == house.spec and again.table == house.table
    assert [v.settings_dict() for v in again.variants] == [
        v.settings_dict() for v in house.variants
    ]


@FAST
@given(house_strings)
def test_house_strings_into_the_commands(text: str) -> None:
    _clean(["rules", "--", text])
    _clean(["check", "--house", text, "--hand", "AS KH", "--trick", "", "--trump", "S"])


toml_lines = [
    "[table]",
    "players = 5",
    "ante = 1",
    "balance = 100",
    "[variants]",
    'use = ["standard", "pot-limit"]',
    "[variants.pot-limit]",
    "limit = 10",
]


@FAST
@given(
    edits=st.lists(
        st.tuples(st.integers(0, len(toml_lines) - 1), st.sampled_from(HOSTILE)), max_size=4
    ),
    as_json=st.booleans(),
)
def test_mutated_house_files(
    edits: list[tuple[int, str]], as_json: bool, tmp_path_factory: Any
) -> None:
    lines = list(toml_lines)
    for k, token in edits:
        key, eq, _ = lines[k].partition(" = ")
        lines[k] = f"{key} = {token}" if eq else lines[k] + token
    tmp = tmp_path_factory.mktemp("h")
    if as_json:
        path = tmp / "house.json"
        path.write_text(
            '{"table": {"players": ' + (edits[0][1] if edits else "5") + "}}", encoding="utf-8"
        )
    else:
        path = tmp / "house.toml"
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    _clean(["rules", str(path)])


# -- web forms ---------------------------------------------------------------------------

pytest.importorskip("starlette")
pytest.importorskip("httpx")

from starlette.testclient import TestClient  # noqa: E402

from bourre.web import create_app  # noqa: E402

# the pages without their guard, so that an exception is the test's failure (not a
# 400 the guard makes of it)
PAGES = TestClient(create_app().app, base_url="http://localhost", raise_server_exceptions=True)
web_text = st.one_of(
    st.sampled_from(HOSTILE),
    st.lists(st.sampled_from(HOSTILE + LINES), max_size=5).map("\n".join),
    st.text(max_size=30),
)
FORM_KEYS = [
    "table.players",
    "table.ante",
    "table.balance",
    "table.hands",
    "table.first_dealer",
    "pot-limit.limit",
    "use:pot-limit",
    "use:double-ante",
    "use:four-card",
]


def _web_forms(form: dict[str, str], script: str, line: str, house: str) -> None:
    answers = [
        PAGES.post("/", data=form),
        PAGES.post("/hand", params={"house": house}, data={"script": script, "line": line}),
        PAGES.post("/paste", data={"script": script}),
        PAGES.get("/rules", params={"house": house}),
        PAGES.get("/hand", params={"house": house}),
        PAGES.post(
            "/tap", params={"house": house}, data={"script": script, "pending": line, "tap": line}
        ),
        PAGES.post(
            "/tap", params={"house": house}, data={"script": script, "pending": "", "tap": line}
        ),
        PAGES.get("/tap", params={"house": house}),
        PAGES.get("/", params={"house": house}),
    ]
    for r in answers:
        assert r.status_code < 500, (r.status_code, r.text[:300])


web_forms = (
    st.dictionaries(st.sampled_from(FORM_KEYS), web_text, max_size=4),
    web_text,
    web_text,
    st.one_of(st.sampled_from(["standard", "standard+pot-limit(limit=10)"]), web_text),
)


@FAST
@given(*web_forms)
def test_web_forms(form: dict[str, str], script: str, line: str, house: str) -> None:
    _web_forms(form, script, line, house)


@pytest.mark.slow
@SLOW
@given(*web_forms)
def test_web_forms_long(form: dict[str, str], script: str, line: str, house: str) -> None:
    _web_forms(form, script, line, house)


# -- state files -------------------------------------------------------------------------


def _state_file(tmp: Path) -> Path:
    from bourre.sim.runs import runner

    path = tmp / "s.jsonl"
    runner.run(
        runner.RunConfig(["standard"], 3, "f", runner.parse_bots("random"), False), state=path
    )
    return path


@FAST
@given(
    edits=st.lists(
        st.tuples(st.integers(0, 10**6), st.sampled_from(list('0123456789{}[]",: -.abcdef\n'))),
        min_size=1,
        max_size=3,
    )
)
def test_edited_state_files_are_refused_with_a_line(
    edits: list[tuple[int, str]], tmp_path_factory: Any
) -> None:
    """Any edit that changes a whole line of a state file is refused on resume, naming
    a line; only a cut at the very end (a torn last line) is let through."""
    from bourre.sim.runs.statefile import StateError, load_state

    path = _state_file(tmp_path_factory.mktemp("state"))
    original = path.read_text(encoding="utf-8")
    text = list(original)
    for pos, ch in edits:
        text[pos % len(text)] = ch
    edited = "".join(text)
    path.write_text(edited, encoding="utf-8")
    whole = edited[: edited.rfind("\n") + 1]  # the torn tail, if any, is cut
    try:
        load_state(path)
    except StateError as e:
        assert "line " in str(e) or "not a bourre compare state file" in str(e), str(e)
        return
    assert original.startswith(whole), "an edited line was accepted"
