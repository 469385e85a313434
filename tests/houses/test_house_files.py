"""House rules from files (TOML, JSON) and house strings: they load to the same house,
validation errors name the file, the key and what is allowed, and house strings print
back the same (``House(s).spec``)."""

from __future__ import annotations

import json
import re
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bourre.houses.files import load_house
from bourre.houses.house import House
from bourre.houses.models import HouseError, HouseRules
from bourre.houses.strings import parse_house_string
from bourre.rules.hookspec import CINCH, PENALTY
from bourre.rules.settings import TableSettings
from bourre_variants.no_cinch import NoCinch

TOML = """\
[table]
players = 7
hands = 6
ante = 2
balance = 50
first_dealer = 3

[variants]
use = ["standard", "pot-limit", "no-cinch"]
pot-limit = {limit = 10}
"""
from conftest import BUILTINS  # noqa: E402

DATA = {
    "table": {"players": 7, "hands": 6, "ante": 2, "balance": 50, "first_dealer": 3},
    "variants": {"use": ["standard", "pot-limit", "no-cinch"], "pot-limit": {"limit": 10}},
}
SPEC = "standard+pot-limit(limit=10)+no-cinch+table(players=7,hands=6,ante=2,balance=50,first_dealer=3)"


def write(tmp_path: Path, name: str, text: str) -> Path:
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return p


def error_of(fn, *args) -> str:
    with pytest.raises(HouseError) as info:
        fn(*args)
    return str(info.value)


# ------------------------------------------------------------------ TOML and JSON


def test_toml_and_json_load_to_the_same_house(tmp_path):
    toml = write(tmp_path, "house.toml", TOML)
    js = write(tmp_path, "house.json", json.dumps(DATA))
    assert load_house(toml) == load_house(js) == HouseRules.model_validate(DATA)
    a, b = House(toml), House(js)
    assert a == b
    assert a.spec == b.spec == SPEC
    assert a.table == b.table
    assert (
        a.table.players,
        a.table.hands,
        a.table.ante,
        a.table.balance,
        a.table.first_dealer,
    ) == (7, 6, 2, 50, 3)
    assert a.names == b.names == ["standard", "pot-limit", "no-cinch"]
    assert a.rules[PENALTY](25) == b.rules[PENALTY](25) == 10
    assert isinstance(a.rules[CINCH], NoCinch)
    assert House(SPEC) == a


def test_from_arg_file_or_string(tmp_path):
    toml = write(tmp_path, "house.toml", TOML)
    assert House.from_arg(str(toml)).spec == SPEC
    assert House.from_arg(SPEC).spec == SPEC
    assert House.from_arg(None).spec == "standard"
    assert House.from_arg("no-cinch").names == ["standard", "no-cinch"]


def test_every_key_is_optional(tmp_path):
    for text in ("", "[table]\n", "[variants]\n", '[variants]\nuse = ["standard"]\n'):
        assert House(write(tmp_path, "h.toml", text)).spec == "standard"
    assert House(write(tmp_path, "h.json", "{}")).spec == "standard"
    h = House(write(tmp_path, "h.toml", "[table]\nplayers = 3\n"))
    assert h.spec == "standard+table(players=3)" and h.table.balance == 100


def test_fractional_amounts_in_files(tmp_path):
    h = House(write(tmp_path, "h.toml", '[table]\nante = "1/2"\nbalance = "201/2"\n'))
    assert h.table.ante == Fraction(1, 2) and h.table.balance == Fraction(201, 2)
    assert House(h.spec) == h
    h2 = House(
        write(tmp_path, "h.json", json.dumps({"table": {"ante": "1/2", "balance": "201/2"}}))
    )
    assert h2 == h


# -------------------------------------------------------------- validation errors


@pytest.mark.parametrize("suffix", [".toml", ".json"])
@pytest.mark.parametrize(
    "table, key, allowed",
    [
        ({"players": 9}, "table.players", "8"),
        ({"players": 1}, "table.players", "2"),
        ({"hands": 0}, "table.hands", "0"),
        ({"ante": 0}, "table.ante", "0"),
        ({"ante": -1}, "table.ante", "0"),
        ({"first_dealer": 7}, "first_dealer", "random"),
        ({"playrs": 5}, "table.playrs", "unknown key"),
    ],
)
def test_table_errors_name_file_key_and_allowed(tmp_path, suffix, table, key, allowed):
    if suffix == ".toml":
        body = "[table]\n" + "".join(f"{k} = {json.dumps(v)}\n" for k, v in table.items())
    else:
        body = json.dumps({"table": table})
    path = write(tmp_path, "myhouse" + suffix, body)
    msg = error_of(House, path)
    assert str(path) in msg
    assert key in msg
    assert allowed in msg


def test_first_dealer_error_names_the_seats(tmp_path):
    msg = error_of(House, write(tmp_path, "h.toml", "[table]\nplayers = 4\nfirst_dealer = 4\n"))
    assert "first_dealer" in msg and "from 0 to 3" in msg and "R-DEALER" in msg
    assert 'or "random"' in msg and "line 3" in msg


def test_unknown_variant_names_the_installed_ones(tmp_path):
    msg = error_of(House, write(tmp_path, "h.toml", '[variants]\nuse = ["standard", "turbo"]\n'))
    assert "h.toml" in msg and "variants.use" in msg and "turbo" in msg
    for name in BUILTINS:
        assert name in msg


def test_variant_setting_errors(tmp_path):
    msg = error_of(House, write(tmp_path, "h.toml", '[variants]\nuse = ["pot-limit"]\n'))
    assert "h.toml" in msg and "variants.pot-limit.limit" in msg and "required" in msg.lower()
    msg = error_of(
        House,
        write(tmp_path, "h.toml", '[variants]\nuse = ["pot-limit"]\npot-limit = {limit = 0}\n'),
    )
    assert "variants.pot-limit.limit" in msg and "0" in msg
    msg = error_of(
        House,
        write(
            tmp_path,
            "h.toml",
            '[variants]\nuse = ["pot-limit"]\npot-limit = {limit = 3, cap = 1}\n',
        ),
    )
    assert "variants.pot-limit.cap" in msg
    msg = error_of(
        House, write(tmp_path, "h.toml", '[variants]\nuse = ["standard"]\nno-cinch = {}\n')
    )
    assert "variants.no-cinch" in msg and "not in" in msg


def test_syntax_errors_name_the_file(tmp_path):
    msg = error_of(load_house, write(tmp_path, "bad.toml", "[table\nplayers = 5\n"))
    assert "bad.toml" in msg and "TOML" in msg
    msg = error_of(load_house, write(tmp_path, "bad.json", '{"table": '))
    assert "bad.json" in msg and "JSON" in msg
    msg = error_of(load_house, write(tmp_path, "list.json", "[1, 2]"))
    assert "list.json" in msg
    msg = error_of(load_house, tmp_path / "missing.toml")
    assert "missing.toml" in msg and "cannot read" in msg


def test_unknown_top_level_section(tmp_path):
    msg = error_of(House, write(tmp_path, "h.toml", "[tabel]\nplayers = 5\n"))
    assert "h.toml" in msg and "tabel" in msg


def test_unknown_key_error_lists_the_allowed_keys(tmp_path):
    msg = error_of(House, write(tmp_path, "h.toml", "[table]\nseats = 5\n"))
    for key in ("players", "hands", "ante", "balance", "first_dealer"):
        assert re.search(rf"\b{key}\b", msg.replace("seats", "")), msg
    assert "h.toml, line 2: table.seats: unknown key" in msg


def test_unknown_key_error_names_the_key_meant(tmp_path):
    msg = error_of(House, write(tmp_path, "h.toml", "[table]\nplayrs = 5\n"))
    assert msg.endswith("h.toml, line 2: table.playrs: unknown key — did you mean players?"), msg


# ------------------------------------------------------------------ house strings

CANONICAL = [
    "standard",
    "standard+no-cinch",
    "standard+pot-limit(limit=10)",
    "standard+pot-limit(limit=10)+table(players=7)",
    "standard+double-ante+four-card+simultaneous-reveal+optional-undertrump+no-cinch+pot-limit(limit=3)",
    "standard+table(players=8,hands=3,ante=2,balance=50,first_dealer=7)",
    'standard+table(ante="1/2")',
    "standard+table(first_dealer=random)",
    SPEC,
]


@pytest.mark.parametrize("spec", CANONICAL)
def test_house_string_prints_back_the_same(spec):
    house = House(spec)
    assert house.spec == spec
    assert str(house) == spec
    assert House(house.spec) == house


@pytest.mark.parametrize(
    "given_, canonical",
    [
        ("pot-limit(limit=10)", "standard+pot-limit(limit=10)"),
        ("no-cinch+standard", "standard+no-cinch"),
        ("  standard + no-cinch ", "standard+no-cinch"),
        ("table(players=3)", "standard+table(players=3)"),
        ("standard+table(players=7)+table(ante=2)", "standard+table(players=7,ante=2)"),
        ("standard+table(players=5)", "standard"),
    ],
)
def test_house_string_canonical_form(given_, canonical):
    assert House(given_).spec == canonical
    assert House(canonical).spec == canonical


@pytest.mark.parametrize("name", [b for b in BUILTINS if b != "pot-limit"])
def test_a_bare_variant_name_is_a_house(name):
    house = House(name)
    assert house.names == (["standard"] if name == "standard" else ["standard", name])
    assert house.spec == ("standard" if name == "standard" else f"standard+{name}")
    assert House(name) == House(house.spec)


def test_a_bare_variant_needing_a_setting():
    msg = error_of(House, "pot-limit")
    assert "variants.pot-limit.limit" in msg
    assert House("four-card").rules.hand_size == 4
    assert isinstance(House("no-cinch").rules[CINCH], NoCinch)


@pytest.mark.parametrize(
    "bad, words",
    [
        ("", ["empty"]),
        ("standard+", ["''"]),
        ("standard(limit)", ["limit", "key=value"]),
        ("pot-limit(limit=10", ["pot-limit(limit=10"]),
        ("standard+standard", ["standard", "twice"]),
        ("standard+turbo", ["turbo", "variants.use"]),
        ("standard+table(players=9)", ["table.players"]),
        ("standard+table(bogus=1)", ["table.bogus"]),
    ],
)
def test_house_string_errors(bad, words):
    msg = error_of(parse_house_string if "turbo" not in bad else House, bad)
    for w in words:
        assert w in msg, (w, msg)


def test_house_string_and_file_agree(tmp_path):
    toml = write(tmp_path, "h.toml", TOML)
    assert parse_house_string(SPEC) == load_house(toml)


ITEMS = [
    "double-ante",
    "pot-limit(limit=3)",
    "pot-limit(limit=25)",
    "four-card",
    "simultaneous-reveal",
    "optional-undertrump",
    "no-cinch",
]


@given(
    variants=st.lists(st.sampled_from(ITEMS), unique_by=lambda s: s.split("(")[0], max_size=4),
    players=st.one_of(st.none(), st.integers(2, 8)),
    hands=st.one_of(st.none(), st.integers(1, 20)),
    ante=st.one_of(st.none(), st.sampled_from([1, 2, 5, '"1/2"', '"3/2"'])),
    balance=st.one_of(st.none(), st.sampled_from([0, 100, -5, 50, '"201/2"'])),
)
def test_house_strings_round_trip(variants, players, hands, ante, balance):
    table = {
        k: v
        for k, v in (("players", players), ("hands", hands), ("ante", ante), ("balance", balance))
        if v is not None
    }
    items = ["standard", *variants]
    if table:
        items.append("table(" + ",".join(f"{k}={v}" for k, v in table.items()) + ")")
    spec = "+".join(items)
    house = House(spec)
    again = House(house.spec)
    assert again.spec == house.spec
    assert again.table == house.table
    assert again.names == house.names
    assert [v.settings_dict() for v in again.variants] == [
        v.settings_dict() for v in house.variants
    ]
    if players is not None:
        assert house.table.players == players
    assert ("table(" in house.spec) == (house.table != TableSettings())
