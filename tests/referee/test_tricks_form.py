"""Hands given by what the tricks show (HAND-HISTORY.md "What the tricks show (a hand
without the dealt cards)"): a playing seat whose plays hold its whole hand leaves out
its ``dealt`` cards (and ``drew``), and the record is the same, byte for byte, as for
the same hand given by its deck; impossible hands are refused naming the hand, the
field and the rule (exit status 2)."""

from __future__ import annotations

import copy
import importlib
import json
import random
import shutil
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bourre.game.actions import Deck
from bourre.game.state import CHANCE, State
from bourre.game.tablesteps import referee_play
from bourre.houses.house import House
from bourre.houses.models import house_from_data
from bourre.referee import ScriptError, load_script, referee, replay
from bourre.referee.notation import format_script, parse_script
from bourre.rules.cards import card_str, shown
from bourre.rules.plugins import load_registry
from bourre.rules.settings import TableSettings
from bourre.rules.variant import Variant, hookimpl
from bourre_variants.standard.draw import Draw

ROOT = Path(__file__).parents[2]
GOLDEN = Path(__file__).parents[1] / "golden"
EXAMPLES = ROOT / "docs" / "examples"
SCRIPTS = sorted(GOLDEN.rglob("*.script.json")) + sorted((EXAMPLES / "hands").glob("*.hand"))
SPLIT_POT = EXAMPLES / "bourre-split-pot"


def tricks_form(
    script: dict[str, Any], record: dict[str, Any], registry: Any = None
) -> dict[str, Any]:
    """The script with every playing seat whose plays are complete given by its plays
    alone: no ``dealt``, no ``drew`` (nor ``deck``, nor ``reshuffles``).  A seat that
    takes the pot without play (R-SOLE) or whose plays stop part-way keeps its dealt
    cards, and its replacements (derived from the deck by R-DEAL and R-DRAW/R-RESHUFFLE
    as HAND-HISTORY states them, independently of the engine)."""
    rules = house_from_data(script.get("rules", {}), "test")
    house = House(rules, registry=registry)
    n, h = house.table.players, house.rules.hand_size
    out = copy.deepcopy(script)
    for hand, rec in zip(out["hands"], record["hands"], strict=True):
        if "deck" in hand:
            deck = hand.pop("deck")
            dealt: dict[int, list[str]] = {s: [] for s in range(n)}
            for i in range(n * h):
                dealt[(rec["dealer"] + 1 + i) % n].append(deck[i])
            stock, pile = list(deck[n * h :]), []
            orders = list(hand.get("reshuffles") or [])
            for d in hand["decisions"]:
                if d["action"] != "play" or not d.get("discard"):
                    continue
                drew: list[str] = []
                while len(drew) < len(d["discard"]):
                    if not stock:
                        stock, pile = (orders.pop(0) if orders else pile), []
                    drew.append(stock.pop(0))
                d["drew"] = drew
                pile += d["discard"]
            hand["upcard"] = deck[n * h - 1]
            hand["dealt"] = {str(s): dealt[s] for s in rec["active"]}
        hand.pop("reshuffles", None)
        for s in rec["active"]:
            stood = [p for p in hand["plays"] if p["seat"] == s]
            if len(stood) != h:  # R-SOLE, or plays that stop part-way: dealt kept
                continue
            hand.get("dealt", {}).pop(str(s), None)
            for d in hand["decisions"]:
                if d["seat"] == s:
                    d.pop("drew", None)
        if hand.get("dealt") == {}:
            del hand["dealt"]
    return out


def text(record: Any) -> str:
    return json.dumps(record.model_dump(mode="json"), ensure_ascii=False)


def shown_seats(script: dict[str, Any], record: dict[str, Any]) -> int:
    """How many playing seats the script gives by their plays alone."""
    return sum(
        1
        for hand, rec in zip(script["hands"], record["hands"], strict=True)
        for s in rec["active"]
        if str(s) not in (hand.get("dealt") or {}) and "deck" not in hand
    )


@pytest.mark.parametrize("path", SCRIPTS, ids=lambda p: p.name)
def test_the_tricks_form_gives_the_same_record_byte_for_byte(path: Path) -> None:
    script = load_script(path)
    by_deck = replay(script)
    told = tricks_form(script, by_deck.model_dump(mode="json"))
    if "sole" not in path.name and "dispute" not in path.name:
        assert shown_seats(told, by_deck.model_dump(mode="json")) > 0
    assert text(replay(told)) == text(by_deck)


def test_the_example_plugins_script_in_the_tricks_form() -> None:
    sys.path.insert(0, str(SPLIT_POT / "src"))
    try:
        module = importlib.import_module("bourre_split_pot")
    finally:
        sys.path.remove(str(SPLIT_POT / "src"))
        sys.modules.pop("bourre_split_pot", None)
    reg = load_registry(extra=[("split-pot", module)])
    script = json.loads((SPLIT_POT / "examples" / "tie.script.json").read_text())
    by_deck = replay(script, registry=reg)
    told = tricks_form(script, by_deck.model_dump(mode="json"), registry=reg)
    assert shown_seats(told, by_deck.model_dump(mode="json")) > 0
    assert text(replay(told, registry=reg)) == text(by_deck)


def test_the_forms_mix_seat_to_seat_and_hand_to_hand() -> None:
    script = json.loads((GOLDEN / "session_fraction.script.json").read_text())
    by_deck = replay(script)
    record = by_deck.model_dump(mode="json")
    told = tricks_form(script, record)
    mixed = copy.deepcopy(script)
    mixed["hands"][0] = told["hands"][0]  # hand 1 by its tricks, hand 2 by its deck
    # hand 3: one seat by its dealt cards and what it drew, the others by their plays
    hand, rec = told["hands"][2], record["hands"][2]
    seat, dealer, n = rec["active"][-1], rec["dealer"], len(rec["tricks_won"])
    deck = script["hands"][2]["deck"]
    dealt = [deck[i] for i in range(5 * n) if (dealer + 1 + i) % n == seat]
    hand.setdefault("dealt", {})[str(seat)] = dealt
    for d in hand["decisions"]:
        if d["seat"] == seat and d.get("discard"):
            kept = set(dealt) - set(d["discard"])
            d["drew"] = [c for c in rec["hands_after_draw"][seat] if c not in kept]
    assert 0 < len(hand["dealt"]) < len(rec["active"])
    mixed["hands"][2] = hand
    assert text(replay(mixed)) == text(by_deck)


# -- random sessions: the deck form, rewritten by the tricks -----------------------------

HOUSES = [
    "standard",
    "standard+four-card",
    "standard+optional-undertrump+table(players=6)",
    "standard+no-cinch+table(players=3)",
    "standard+double-ante+pot-limit(limit=3)",
    "standard+simultaneous-reveal+table(players=4)",
    "standard+table(players=2)",
    "standard+table(players=7)",
    "standard+table(players=8)",
    "standard+four-card+table(players=8)",
]
_HOUSES: dict[str, House] = {}


def session_script(spec: str, seed: int, hands: int) -> dict[str, Any]:
    """A seeded session of random players, some of whose illegal cards stand (R-RENEGE)
    or are taken back (R-CORRECTED), written as a table script in the deck form."""
    house = _HOUSES.setdefault(spec, House(spec))
    rng = random.Random(seed)
    state = State(house, seed=seed, hands=hands, record=True)
    plays: list[dict[str, Any]] = []
    while not state.is_terminal():
        seat = state.current_player()
        assert seat != CHANCE  # a seeded state deals itself
        if state.phase_name == "play":
            legal = state.legal_cards()
            wrong = [c for c in state.hand.hands[seat] if c not in legal]
            if wrong and rng.random() < 0.05:
                bad = rng.choice(wrong)
                fix = rng.choice(legal) if rng.random() < 0.5 else None
                referee_play(state, bad, fix)
                plays.append({"seat": seat, "card": card_str(bad)})
                if fix is not None:
                    plays[-1]["corrected_to"] = card_str(fix)
                continue
            card = rng.choice(legal)
            state.apply_action(state.legal_actions()[legal.index(card)])
            plays.append({"seat": seat, "card": card_str(card)})
            continue
        state.apply_action(rng.choice(list(state.legal_actions())))
    decks = [x.cards for x in state.history() if isinstance(x, Deck)]
    out: list[dict[str, Any]] = []
    at = 0
    for res, deck in zip(state.results, decks, strict=True):
        hs = res.state
        k = len(res.plays)
        hand: dict[str, Any] = {
            "deck": [card_str(c) for c in deck],
            "decisions": [
                {"seat": d.seat, "action": "play" if d.play else "pass"}
                | ({"discard": [card_str(c) for c in hs.gave[d.seat]]} if hs.gave[d.seat] else {})
                for d in hs.decisions
            ],
            "plays": plays[at : at + k],
        }
        at += k
        if hs.reshuffles:
            hand["reshuffles"] = [[card_str(c) for c in r] for r in hs.reshuffles]
        out.append(hand)
    return {"rules": _rules(spec), "hands": out}


def _rules(spec: str) -> dict[str, Any]:
    from bourre.houses.strings import parse_house_string

    return parse_house_string(spec).model_dump(mode="json", exclude_defaults=True)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(spec=st.sampled_from(HOUSES), seed=st.integers(0, 10**6))
def test_random_sessions_by_their_tricks_give_the_same_record(spec: str, seed: int) -> None:
    script = session_script(spec, seed, hands=3)
    by_deck = replay(script)
    record = by_deck.model_dump(mode="json")
    told = tricks_form(script, record)
    assert text(replay(told)) == text(by_deck)
    notation = parse_script(format_script(told))
    assert text(replay(notation)) == text(by_deck)


def test_random_sessions_reach_reshuffles_reneges_and_corrections() -> None:
    """The property above meets what it is about: reshuffles read from the tricks,
    reneges and corrections."""
    seen = {"reshuffle": 0, "renege": 0, "corrected": 0}
    for seed in range(30):
        script = session_script("standard+table(players=8)", seed, hands=3)
        seen["reshuffle"] += sum("reshuffles" in h for h in script["hands"])
        record = replay(script).model_dump(mode="json")
        for hand in record["hands"]:
            for t in hand["tricks"]:
                for p in t["plays"]:
                    seen["renege"] += p["renege"]
                    seen["corrected"] += p["corrected"]
        told = tricks_form(script, record)
        assert text(replay(told)) == json.dumps(record, ensure_ascii=False)
    assert all(seen.values()), seen


# -- reneges and corrections ------------------------------------------------------------


@pytest.mark.parametrize("name", ["renege", "correction"])
def test_a_renege_or_a_correction_by_the_tricks(name: str) -> None:
    script = json.loads((GOLDEN / f"{name}.script.json").read_text())
    by_deck = replay(script)
    record = by_deck.model_dump(mode="json")
    told = tricks_form(script, record)
    plays = [p for hand in told["hands"] for p in hand["plays"]]
    wrong = [
        p for t in record["hands"][0]["tricks"] for p in t["plays"] if p["renege"] or p["corrected"]
    ]
    assert wrong
    assert all(str(p["seat"]) not in (told["hands"][0].get("dealt") or {}) for p in wrong)
    if name == "correction":  # the card taken back is played again later
        back = next(p for p in plays if p.get("corrected_to"))
        assert [p["card"] for p in plays if p["seat"] == back["seat"]].count(back["card"]) == 2
        assert str(back["seat"]) not in (told["hands"][0].get("dealt") or {})
    assert text(replay(told)) == text(by_deck)


# -- the notation, check --script, replay --words ---------------------------------------


def _bourre(*args: str) -> subprocess.CompletedProcess[str]:
    """The installed ``bourre`` command, run as a table's referee would."""
    here = Path(sys.executable).with_name("bourre")
    exe = str(here) if here.is_file() else shutil.which("bourre")
    assert exe, "the `bourre` console script is not installed"
    return subprocess.run([exe, *args], capture_output=True, text=True, timeout=120, check=False)


def _standard_hand() -> tuple[dict[str, Any], dict[str, Any]]:
    script = json.loads((GOLDEN / "variants" / "standard.script.json").read_text())
    script["hands"] = script["hands"][:1]  # a hand where every seat exchanges
    record = replay(script).model_dump(mode="json")
    return tricks_form(script, record), record


def test_the_notation_round_trips_the_tricks_form(tmp_path: Path) -> None:
    told, record = _standard_hand()
    assert "dealt" not in told["hands"][0]
    words = format_script(told)
    assert "dealt" not in words and ">" not in words and "decide 1 play KD 6S\n" in words
    again = parse_script(words)
    assert format_script(again) == words
    assert text(replay(again)) == json.dumps(record, ensure_ascii=False)
    path = tmp_path / "tricks.hand"
    path.write_text(words)
    got = _bourre("replay", "--json", str(path))
    assert got.returncode == 0, got.stderr
    assert json.loads(got.stdout) == record
    ruling = _bourre("replay", "--words", str(path))
    assert ruling.returncode == 0 and ruling.stderr == ""
    assert "Hand 1" in ruling.stdout and "R-" in ruling.stdout
    converted = _bourre("convert", str(path))
    assert converted.returncode == 0, converted.stderr
    back = json.loads(converted.stdout)
    assert "dealt" not in back["hands"][0]
    assert all("drew" not in d for d in back["hands"][0]["decisions"])
    (tmp_path / "back.json").write_text(converted.stdout)
    assert _bourre("convert", str(tmp_path / "back.json")).stdout == format_script(back)


def test_check_script_on_a_hand_stopped_in_its_last_trick(tmp_path: Path) -> None:
    """The seat that played its last card is given by its tricks; the others, whose
    plays stop part-way, by their dealt cards (R-DEAL)."""
    script = json.loads((GOLDEN / "variants" / "standard.script.json").read_text())
    script["hands"] = script["hands"][:1]
    record = replay(script).model_dump(mode="json")
    k = len(record["hands"][0]["active"])
    stop = 4 * k + 2  # two cards into the last trick
    partial = copy.deepcopy(script)
    partial["hands"][0]["plays"] = partial["hands"][0]["plays"][:stop]
    part_record = replay(partial).model_dump(mode="json")
    told = tricks_form(partial, part_record)
    hand = told["hands"][0]
    assert len(hand["dealt"]) == k - 2  # the two that played their fifth card: by tricks
    path = tmp_path / "stopped.hand"
    path.write_text(format_script(told))
    got = _bourre("check", "--script", str(path), "--json")
    assert got.returncode == 0, got.stderr
    nxt = record["hands"][0]["tricks"][4]["plays"][2]
    answer = json.loads(got.stdout)
    assert answer["seat"] == nxt["seat"] and sorted(answer["legal"]) == sorted(nxt["legal"])
    assert text(replay(told)) == json.dumps(part_record, ensure_ascii=False)
    words = _bourre("check", "--script", str(path))
    assert words.returncode == 0 and f"Seat {nxt['seat']} is to act" in words.stdout


# -- errors: exit status 2, one message naming the hand, the field and the rule ---------


def _refused(tmp_path: Path, script: dict[str, Any]) -> str:
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(script))
    got = _bourre("replay", str(path))
    assert got.returncode == 2, got
    assert got.stdout == ""
    assert "Traceback" not in got.stderr
    lines = got.stderr.strip().splitlines()
    assert len(lines) == 1, lines
    with pytest.raises(ScriptError):
        replay(script)
    return lines[0]


def _later_seat(hand: dict[str, Any], seat: int) -> int:
    order = [d["seat"] for d in hand["decisions"] if d["action"] == "play"]
    return order[order.index(seat) + 1]


def _last_play(hand: dict[str, Any], seat: int) -> dict[str, Any]:
    return [p for p in hand["plays"] if p["seat"] == seat][-1]


def test_a_card_in_two_seats_plays_is_refused(tmp_path: Path) -> None:
    told, _ = _standard_hand()
    hand = told["hands"][0]
    first = hand["plays"][0]
    later = _later_seat(hand, first["seat"])
    _last_play(hand, later)["card"] = first["card"]
    msg = _refused(tmp_path, told)
    i = hand["plays"].index(_last_play(hand, later))
    assert f"hand 1, play {i + 1}, card: seat {later} plays {shown(first['card'])}" in msg
    assert f"seat {first['seat']} holds it" in msg and msg.endswith("(R-DECK)")


def test_a_discard_played_later_without_a_reshuffle_is_refused(tmp_path: Path) -> None:
    told, _ = _standard_hand()
    hand = told["hands"][0]
    d = next(d for d in hand["decisions"] if d.get("discard"))
    later = _later_seat(hand, d["seat"])
    _last_play(hand, later)["card"] = d["discard"][0]
    msg = _refused(tmp_path, told)
    i = hand["plays"].index(_last_play(hand, later))
    assert f"hand 1, play {i + 1}, card: seat {later} plays {shown(d['discard'][0])}" in msg
    assert f"which seat {d['seat']} discarded" in msg and msg.endswith("(R-RESHUFFLE)")


def test_a_discard_played_after_a_reshuffle_is_allowed() -> None:
    script = json.loads((GOLDEN / "reshuffle_8_players.script.json").read_text())
    record = replay(script).model_dump(mode="json")
    told = tricks_form(script, record)
    hand = told["hands"][0]
    thrown = {c: d["seat"] for d in hand["decisions"] for c in d.get("discard", [])}
    again = [p for p in hand["plays"] if p["card"] in thrown and thrown[p["card"]] != p["seat"]]
    assert again  # a card discarded by one seat and played by a later one (R-RESHUFFLE)
    assert text(replay(told)) == json.dumps(record, ensure_ascii=False)


def test_a_seat_whose_plays_stop_part_way_needs_its_dealt_cards(tmp_path: Path) -> None:
    script = json.loads((GOLDEN / "variants" / "standard.script.json").read_text())
    script["hands"] = script["hands"][:1]
    script["hands"][0]["plays"] = script["hands"][0]["plays"][:7]
    told = tricks_form(script, replay(script).model_dump(mode="json"))
    hand = told["hands"][0]
    seat = next(s for s in hand["dealt"] if any(p["seat"] == int(s) for p in hand["plays"]))
    del hand["dealt"][seat]
    for d in hand["decisions"]:
        if str(d["seat"]) == seat:
            d.pop("drew", None)
    msg = _refused(tmp_path, told)
    assert f"hand 1, the cards dealt to seat {seat}: seat {seat} plays" in msg and "part-way" in msg
    assert msg.endswith("(R-DEAL)")


def test_a_sole_seat_without_its_dealt_cards_is_refused(tmp_path: Path) -> None:
    script = json.loads((GOLDEN / "sole_participant.script.json").read_text())
    told = tricks_form(script, replay(script).model_dump(mode="json"))
    hand = told["hands"][0]
    (seat,) = hand.pop("dealt")
    msg = _refused(tmp_path, told)
    assert f"hand 1, the cards dealt to seat {seat}: seat {seat} plays no card" in msg
    assert msg.endswith("(R-SOLE)")


def _replace_play(hand: dict[str, Any], card: str, new: str) -> None:
    next(p for p in hand["plays"] if p["card"] == card)["card"] = new


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (lambda h: h["plays"].append(dict(h["plays"][0])), "play 26: one play too many"),
        (
            lambda h: h["decisions"][0].update(drew=["2S", "3S"]),
            "decision 1, the cards drawn: seat 1 gives the cards",
        ),
        (
            lambda h: h["decisions"][0].update(discard=[_last_play(h, 1)["card"], "6S"]),
            "play 25, card: seat 1 discards 8♠ and plays it",
        ),
        (
            lambda h: _replace_play(h, "7C", "AS"),
            "decision 5, the cards discarded: seat 0 was dealt 7♣",
        ),
        (
            lambda h: _replace_play(h, "9H", "7C"),
            "play 1, card: seat 1 plays 7♣, but it is the upcard",
        ),
        (
            lambda h: _replace_play(h, "9H", "TH"),
            "play 2, card: seat 2 plays 10♥, but seat 1 holds",
        ),
        (lambda h: h["plays"][6].update(card="9H"), "play 7, card: seat 1 plays 9♥ twice"),
    ],
    ids=[
        "a play too many",
        "drew without dealt",
        "a discard played back",
        "the upcard lost",
        "the upcard played by another",
        "a card twice",
        "a card twice by one seat",
    ],
)
def test_other_impossible_tricks(change: Any, words: str) -> None:
    told, _ = _standard_hand()
    hand = told["hands"][0]
    change(hand)
    with pytest.raises(ScriptError) as e:
        replay(told)
    msg = str(e.value)
    assert msg.startswith("script: hand 1, ") and words in msg and "(R-" in msg, msg
    assert "\n" not in msg


def test_the_documented_example_is_the_hand_its_deck_gives() -> None:
    by_tricks = replay(load_script(EXAMPLES / "hands" / "tricks.hand")).model_dump(mode="json")
    by_deck = load_script(EXAMPLES / "hands" / "session.hand")
    by_deck["hands"] = by_deck["hands"][:1]
    expected = replay(by_deck).model_dump(mode="json")
    assert json.dumps(by_tricks["hands"]) == json.dumps(expected["hands"])
    assert by_tricks["final"] == expected["final"]


# -- a house whose draw is a plugin's ---------------------------------------------------


class _OlderDraw:
    """A third party's draw written before ``split``: it cannot read the tricks."""

    def __init__(self, hand_size: int) -> None:
        self.inner = Draw(hand_size)
        self.limit, self.check = self.inner.limit, self.inner.check
        self.draw, self.drawn = self.inner.draw, self.inner.drawn


class _WrongSplit(Draw):
    def split(self, hand: Any, seat: int, discards: Any, after: Any) -> Any:
        return list(after), []  # drew nothing for its discards


class _CappedDraw(Draw):
    def limit(self, hand: Any, seat: int) -> int:
        return 2


def _draw_registry() -> Any:
    def variant(name: str, make: Any) -> type[Variant]:
        class V(Variant):
            summary = "a draw of a plugin"
            rules: dict[str, Any] = {}

            @hookimpl
            def bourre_draw(self, table: TableSettings, hand_size: int) -> Any:
                return make(hand_size)

        V.name = name
        return V

    mod = SimpleNamespace()

    @hookimpl
    def bourre_register_variants(register: Any) -> None:
        register(variant("older-draw", _OlderDraw))
        register(variant("wrong-split", _WrongSplit))
        register(variant("capped-draw", _CappedDraw))
        register(variant("plain-draw", Draw))

    mod.bourre_register_variants = bourre_register_variants
    reg = load_registry(extra=[("draw-plugins", mod)])
    assert not reg.errors, reg.errors
    return reg


def test_a_plugins_draw_reads_the_tricks_or_refuses() -> None:
    """The exchange read from the tricks is the table's one inference
    (bourre.game.unseen), whatever the draw: a plugin's draw written without ``split``
    (or with a wrong one, never asked) gives the plain draw's record; a capped draw
    refuses the exchange in its own words."""
    told, _ = _standard_hand()
    records = {}
    for variant in ("older-draw", "wrong-split", "plain-draw"):
        told["rules"] = {"variants": {"use": [variant]}}
        records[variant] = replay(told, registry=_draw_registry()).model_dump(mode="json")
        records[variant].pop("house")
    assert records["older-draw"] == records["wrong-split"] == records["plain-draw"]
    told["rules"] = {"variants": {"use": ["capped-draw"]}}
    with pytest.raises(ScriptError) as e:
        replay(told, registry=_draw_registry())
    words = "decision 3, the cards discarded: seat 3 may exchange at most 2 cards, not 3"
    assert words in str(e.value) and "hand 1" in str(e.value)


def test_the_web_page_referees_a_pasted_hand_by_its_tricks() -> None:
    pytest.importorskip("starlette")
    from starlette.testclient import TestClient

    from bourre.web import create_app

    client = TestClient(create_app(), base_url="http://localhost", raise_server_exceptions=False)
    script = (EXAMPLES / "hands" / "tricks.hand").read_text(encoding="utf-8")
    r = client.post("/paste", data={"script": script})
    assert r.status_code == 200 and "Hand 1" in r.text and "R-WIN" in r.text


def test_a_guarded_house_checks_every_card_of_a_hand_read_from_its_tricks() -> None:
    """A house with a plugin's component checks after each hand that every card is in
    one place (the state's guard): two reshuffles read from the tricks pass it."""
    script = json.loads((GOLDEN / "reshuffle_8_players.script.json").read_text())
    script["rules"]["variants"] = {"use": ["plain-draw"]}
    reg = _draw_registry()
    by_deck = replay(script, registry=reg)
    record = by_deck.model_dump(mode="json")
    told = tricks_form(script, record, registry=reg)
    assert "dealt" not in told["hands"][0]
    deck, rec = script["hands"][0]["deck"], record["hands"][0]
    n = len(rec["tricks_won"])
    told["hands"][0]["dealt"] = {  # the seats that pass show theirs: no card unseen
        str(s): [deck[i] for i in range(5 * n) if (rec["dealer"] + 1 + i) % n == s]
        for s in range(n)
        if s not in rec["active"]
    }
    done = referee(told, registry=reg)
    assert done.state.house.guarded and not any(done.state.results[0].state.hidden)
    assert done.state.results[0].state.unseen_stock == 0
    assert text(done.record) == text(by_deck)
