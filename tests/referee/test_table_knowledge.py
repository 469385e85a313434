"""Hands given by what a table knows (HAND-HISTORY.md "What a table knows"): the same
record as the same hand given by its deck; impossible hands refused naming the hand,
the field and the rule; a last hand that stops part-way says who acts ``next``."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from bourre.houses.house import House
from bourre.houses.models import house_from_data
from bourre.referee import ScriptError, replay

GOLDEN = Path(__file__).parents[1] / "golden"
SCRIPTS = sorted(p for p in GOLDEN.rglob("*.script.json"))


def table_form(script: dict[str, Any], record: dict[str, Any]) -> dict[str, Any]:
    """The script with each hand's deck replaced by what the players can show,
    derived from the deck by R-DEAL and R-DRAW/R-RESHUFFLE as HAND-HISTORY states them
    (independently of the engine)."""
    house = House(house_from_data(script.get("rules", {}), "test"))
    n, h = house.table.players, house.rules.hand_size
    out = copy.deepcopy(script)
    for hand, rec in zip(out["hands"], record["hands"], strict=True):
        deck = hand.pop("deck")
        dealer = rec["dealer"]
        dealt = {s: [] for s in range(n)}
        for i in range(n * h):
            dealt[(dealer + 1 + i) % n].append(deck[i])
        stock, pile = list(deck[n * h :]), []
        for d in hand["decisions"]:
            if d["action"] != "play" or not d.get("discard"):
                continue
            drew = []
            k = len(d["discard"])
            while len(drew) < k:
                if not stock:
                    stock, pile = pile, []
                drew.append(stock.pop(0))
            d["drew"] = drew
            pile += d["discard"]
        hand["upcard"] = deck[n * h - 1]
        hand["dealt"] = {str(s): dealt[s] for s in rec["active"]}
        hand.pop("reshuffles", None)
    return out


@pytest.mark.parametrize("path", SCRIPTS, ids=lambda p: p.stem)
def test_what_the_table_knew_referees_as_the_deck(path: Path) -> None:
    script = json.loads(path.read_text())
    if any("reshuffles" in h for h in script["hands"]):
        pytest.skip("a simulated reshuffle order is not what a table knows")
    by_deck = replay(script).model_dump(mode="json")
    by_table = replay(table_form(script, by_deck)).model_dump(mode="json")
    assert by_table == by_deck


def _worked() -> tuple[dict[str, Any], dict[str, Any]]:
    script = json.loads((GOLDEN / "worked_example.script.json").read_text())
    script["hands"] = script["hands"][:1]  # the disputed hand is the script's last
    record = replay(script).model_dump(mode="json")
    return table_form(script, record), record


def test_the_forms_mix_hand_to_hand() -> None:
    script = json.loads((GOLDEN / "tie_carry.script.json").read_text())
    record = replay(script).model_dump(mode="json")
    told = table_form(script, record)
    mixed = copy.deepcopy(script)
    mixed["hands"][0] = told["hands"][0]
    assert replay(mixed).model_dump(mode="json") == record


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (lambda h: h["dealt"].pop(next(iter(h["dealt"]))), "dealt"),
        (lambda h: h.update(deck=["AS"]), "not both"),
        (lambda h: h.pop("upcard"), "upcard"),
        (lambda h: next(d for d in h["decisions"] if d.get("drew")).pop("drew"), "drew"),
        (
            lambda h: next(d for d in h["decisions"] if d.get("drew")).update(drew=["2S"] * 9),
            "R-DRAW",
        ),
    ],
)
def test_impossible_table_hands_are_refused(change: Any, words: str) -> None:
    script = json.loads((GOLDEN / "variants" / "standard.script.json").read_text())
    script["hands"] = script["hands"][:1]  # a hand with exchanges
    told = table_form(script, replay(script).model_dump(mode="json"))
    hand = told["hands"][0]
    change(hand)
    with pytest.raises(ScriptError) as e:
        replay(told)
    msg = str(e.value)
    assert "hand 1" in msg and words in msg and "(R-" in msg


def test_a_card_in_two_places_is_refused() -> None:
    told, _ = _worked()
    hand = told["hands"][0]
    seats = list(hand["dealt"])
    hand["dealt"][seats[1]][0] = hand["dealt"][seats[0]][0]
    with pytest.raises(
        ScriptError, match=r"hand 1, card 1 dealt to seat \d+: .* is dealt to seats .*R-DE"
    ):
        replay(told)


def test_a_hand_that_stops_at_the_disputed_card() -> None:
    told, full = _worked()
    hand = told["hands"][0]
    hand["plays"] = hand["plays"][:2]  # stop after two cards of the first trick
    got = replay(told).model_dump(mode="json")
    assert "final" not in got
    part = got["hands"][-1]
    assert "winner" not in part and "pot_after" not in part and "balances" not in part
    nxt = part["next"]
    third = full["hands"][0]["tricks"][0]["plays"][2]
    assert nxt["seat"] == third["seat"]
    assert sorted(nxt["legal"]) == sorted(third["legal"])
    assert all(r.startswith("R-") for r in nxt["rules"])
    assert part["tricks"][0]["plays"] == full["hands"][0]["tricks"][0]["plays"][:2]


def test_a_hand_that_stops_in_the_decisions() -> None:
    told, _ = _worked()
    hand = told["hands"][0]
    hand["decisions"] = hand["decisions"][:1]
    hand["plays"] = []
    got = replay(told).model_dump(mode="json")
    nxt = got["hands"][-1]["next"]
    assert set(nxt["legal"]) <= {"pass", "play"} and nxt["rules"]


def test_only_the_last_hand_may_stop_part_way() -> None:
    script = json.loads((GOLDEN / "tie_carry.script.json").read_text())
    if len(script["hands"]) < 2:
        pytest.skip("needs two hands")
    script["hands"][0]["plays"] = script["hands"][0]["plays"][:3]
    with pytest.raises(ScriptError, match="hand 1, plays: the plays stop early"):
        replay(script)


def test_the_published_json_schemas_are_the_models() -> None:
    """docs/schema/ holds the schemas generated from the pydantic models; regenerate
    with `python -c "from bourre.referee.records import json_schemas; …"` (docs/table-scripts.md)."""
    from bourre.referee.records import json_schemas

    folder = Path(__file__).parents[2] / "docs" / "schema"
    for name, schema in json_schemas().items():
        assert json.loads((folder / name).read_text(encoding="utf-8")) == schema, name


def test_records_validate_against_the_published_schema() -> None:
    jsonschema = pytest.importorskip("jsonschema")
    folder = Path(__file__).parents[2] / "docs" / "schema"
    schema = json.loads((folder / "session-record.schema.json").read_text(encoding="utf-8"))
    script_schema = json.loads((folder / "table-script.schema.json").read_text(encoding="utf-8"))
    for path in SCRIPTS[:6]:
        script = json.loads(path.read_text())
        jsonschema.validate(script, script_schema)
        jsonschema.validate(replay(script).model_dump(mode="json"), schema)
