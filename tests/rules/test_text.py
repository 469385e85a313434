"""``House.rule_texts()`` (what ``bourre rules`` prints) lists every rule the house
enforces, with its id, and each hook's text comes from the variant that answers it:
a variant's own rule replaces the standard text of the hooks it answers.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import ALTERNATIVES

from bourre.houses.house import House
from bourre.rules.hookspec import RULE_HOOKS

ROOT = Path(__file__).resolve().parents[2]
RULES_MD = [p / "RULES.md" for p in (ROOT.parent / "shared", ROOT / "shared", Path("/work/shared"))]

STANDARD_IDS = frozenset(
    [
        "R-SEAT",
        "R-DECK",
        "R-SESSION",
        "R-FIRST-POT",
        "R-DEALER",
        "R-DEAL",
        "R-DECIDE",
        "R-PASS",
        "R-DRAW",
        "R-ACE-UP",
        "R-LAST-STANDS",
        "R-SOLE",
        "R-RESHUFFLE",
        "R-PREMATURE",
        "R-LEAD",
        "R-FOLLOW",
        "R-TRUMP",
        "R-DISCARD",
        "R-TRICK",
        "R-SURE",
        "R-EQUIV",
        "R-CINCH-LEAD",
        "R-CINCH-FOLLOW",
        "R-CINCH-LAST",
        "R-WIN",
        "R-BOURRE",
        "R-ANTE",
        "R-SETTLE",
        "R-RENEGE",
        "R-CORRECTED",
    ]
)
"""The rule ids of RULES.md §1–§2 that the documented profile enforces."""

# What each built-in variant changes: (ids no longer printed, ids added).  The removed
# ids are the standard texts of the hook the variant answers; the rule itself is then
# stated by the variant's own text.
CHANGES: dict[str, tuple[set[str], set[str]]] = {
    "standard": (set(), set()),
    "double-ante": ({"R-FIRST-POT", "R-ANTE"}, {"R-DOUBLE-ANTE"}),
    "pot-limit": ({"R-PENALTY"}, {"R-POT-LIMIT"}),
    "four-card": (set(), {"R-FOUR-CARD"}),
    "simultaneous-reveal": (
        {"R-DECIDE", "R-LAST-STANDS", "R-PREMATURE"},
        {"R-SIMULTANEOUS", "R-SIMULTANEOUS-NOBODY", "R-ACE-UP", "R-SOLE", "R-PASS"},
    ),
    "optional-undertrump": ({"R-TRUMP"}, {"R-OPTIONAL-UNDERTRUMP"}),
    "no-cinch": (
        {"R-SURE", "R-EQUIV", "R-CINCH-LEAD", "R-CINCH-FOLLOW", "R-CINCH-LAST"},
        {"R-NO-CINCH"},
    ),
}

HOUSES = [
    "standard",
    *ALTERNATIVES,
    "standard+table(players=2)",
    "standard+table(players=8,ante=2,balance=50,hands=6,first_dealer=3)",
    "double-ante+pot-limit(limit=3)+no-cinch",
    "four-card+simultaneous-reveal+optional-undertrump+table(players=7)",
    "double-ante+pot-limit(limit=10)+four-card+simultaneous-reveal+optional-undertrump+no-cinch",
]


def ids_of(house: House) -> list[str]:
    return [rid for _, _, (rid, _) in house.rule_texts()]


def expected_ids(house: House) -> set[str]:
    ids = set(STANDARD_IDS)
    for name in house.names:
        ids -= CHANGES[name][0]
    for name in house.names:
        ids |= CHANGES[name][1]
    return ids


def text_of(house: House, rid: str) -> str:
    texts = [text for _, _, (r, text) in house.rule_texts() if r == rid]
    assert texts, rid
    return " ".join(texts)


def test_standard_ids_match_rules_md() -> None:
    """The list above is RULES.md's §1–§2 (when the shared documents are at hand)."""
    path = next((p for p in RULES_MD if p.is_file()), None)
    if path is None:
        pytest.skip("shared/RULES.md is not beside the repository")
    text = path.read_text(encoding="utf-8")
    body = text.split("## 3.")[0]
    ids = set(re.findall(r"\*\*(R-[A-Z-]+)\*\*", body))
    assert ids == STANDARD_IDS


def test_standard_prints_every_section_2_rule() -> None:
    ids = ids_of(House("standard"))
    assert set(ids) >= STANDARD_IDS, sorted(STANDARD_IDS - set(ids))


@pytest.mark.parametrize("spec", HOUSES)
def test_house_prints_every_enforced_rule(spec: str) -> None:
    house = House(spec)
    ids = set(ids_of(house))
    missing = expected_ids(house) - ids
    assert not missing, f"{spec}: missing {sorted(missing)}"
    # a replaced standard text is not printed as well (no contradicting rules)
    for name in house.names:
        removed, _ = CHANGES[name]
        still = removed & ids - {rid for n in house.names for rid in CHANGES[n][1]}
        assert not still, f"{spec}: {sorted(still)} printed although {name} replaces them"


@pytest.mark.parametrize("spec", HOUSES)
def test_each_hook_text_comes_from_its_answerer(spec: str) -> None:
    house = House(spec)
    texts = house.rule_texts()
    by_hook: dict[str, set[str]] = {}
    for hook, variant, (rid, text) in texts:
        assert rid.startswith("R-") and text.strip()
        assert "{" not in text and "}" not in text, f"unformatted text: {text}"
        by_hook.setdefault(hook, set()).add(variant)
    for hook in RULE_HOOKS:
        if hook.name in by_hook:
            assert by_hook[hook.name] == {house.answered_by[hook.name].name}, hook.name
    # every hook a variant answers is documented by that variant
    for hook, v in house.answered_by.items():
        if v.name != "standard":
            assert hook in by_hook, f"{v.name} answers {hook} without a rule text"
    # rule_texts() is in lifecycle order: general first, then the hooks in RULE_HOOKS order
    order = ["general", *(h.name for h in RULE_HOOKS)]
    positions = [order.index(hook) for hook, _, _ in texts]
    assert positions == sorted(positions)


def test_pot_limit_shows_its_limit() -> None:
    assert "min(P, 3)" in text_of(House("pot-limit(limit=3)"), "R-POT-LIMIT")
    assert "min(P, 17)" in text_of(House("standard+pot-limit(limit=17)"), "R-POT-LIMIT")


def test_no_cinch_has_no_cinch_rules() -> None:
    ids = set(ids_of(House("no-cinch")))
    assert "R-NO-CINCH" in ids
    assert not ids & {"R-SURE", "R-EQUIV", "R-CINCH-LEAD", "R-CINCH-FOLLOW", "R-CINCH-LAST"}
    assert "R-CINCH-LEAD" in ids_of(House("standard"))


def test_optional_undertrump_replaces_r_trump() -> None:
    house = House("optional-undertrump")
    ids = ids_of(house)
    assert "R-TRUMP" not in ids
    assert {"R-LEAD", "R-FOLLOW", "R-OPTIONAL-UNDERTRUMP", "R-DISCARD"} <= set(ids)
    assert "may play a lower trump or any other card" in text_of(house, "R-OPTIONAL-UNDERTRUMP")


def test_four_card_states_its_size() -> None:
    house = House("four-card")
    assert "4 cards" in text_of(house, "R-FOUR-CARD")
    assert "R-DEAL-SIZE" not in ids_of(house)
    assert "5 cards" in text_of(House("standard"), "R-DEAL-SIZE")


def test_double_ante_replaces_the_antes() -> None:
    house = House("double-ante+table(ante=2)")
    assert "antes 2" in text_of(house, "R-DOUBLE-ANTE")
    assert "R-ANTE" not in ids_of(house)


def test_table_settings_are_in_the_texts() -> None:
    house = House("standard+table(players=8,ante=2,balance=50,hands=6,first_dealer=3)")
    session = text_of(house, "R-SESSION")
    assert "8 players" in session and "50" in session and "6 hands" in session
    assert "antes 2" in text_of(house, "R-FIRST-POT")
    assert "Seat 3" in text_of(house, "R-DEALER")


def test_simultaneous_reveal_texts() -> None:
    house = House("simultaneous-reveal")
    assert "at once" in text_of(house, "R-SIMULTANEOUS")
    assert "forced in without an exchange" in text_of(house, "R-SIMULTANEOUS-NOBODY")
    assert "R-LAST-STANDS" not in ids_of(house)


def test_simultaneous_reveal_still_states_r_pass() -> None:
    assert "R-PASS" in ids_of(House("simultaneous-reveal"))


def test_bourre_rules_command_prints_the_ids(monkeypatch: pytest.MonkeyPatch) -> None:
    from typer.testing import CliRunner

    from bourre.cli import app

    monkeypatch.setenv("COLUMNS", "200")
    for spec in ("standard", "pot-limit(limit=3)", "no-cinch"):
        result = CliRunner().invoke(app, ["rules", spec])
        assert result.exit_code == 0, result.output
        out = " ".join(result.output.split())
        for rid in expected_ids(House(spec)):
            assert rid in out, (spec, rid)
    out = " ".join(CliRunner().invoke(app, ["rules", "pot-limit(limit=3)"]).output.split())
    assert "min(P, 3)" in out
    out = CliRunner().invoke(app, ["rules", "no-cinch"]).output
    assert "R-CINCH-LEAD" not in out


def test_bourre_variants_reads_at_80_columns(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 43: at 80 columns the table squeezed each summary to a word a line; a
    narrow terminal now gets each variant's summary whole, indented under its name."""
    from typer.testing import CliRunner

    from bourre.cli import app

    monkeypatch.setenv("NO_COLOR", "1")
    for width, stacked in (("80", True), ("160", False)):
        monkeypatch.setenv("COLUMNS", width)
        result = CliRunner().invoke(app, ["variants"])
        assert result.exit_code == 0, result.output
        out = result.output
        assert "standard" in out and "pot-limit" in out and "bots: " in out
        assert ("double-ante  (bourre " in out) is stacked
        summary = "Everyone antes every hand; each player who plays adds a second ante."
        if stacked:
            assert summary in out
            assert "    setting limit: amount (required)" in out
            assert max(len(line) for line in out.splitlines()) <= 80
        else:
            assert "┃ variant" in out
