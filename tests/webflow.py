"""A hand to referee through the web page, line by line (shared by the web tests):
the worked example of the rules, as what the table saw, and one illegal card to try."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

from bourre.referee import replay
from bourre.referee.notation import format_script

GOLDEN = Path(__file__).parent / "golden"


def hand_lines() -> tuple[list[str], dict[str, Any]]:
    """The notation lines of the worked example's first hand at ``standard``, given by
    what the table saw, and its record."""
    from referee.test_table_knowledge import table_form

    script = json.loads((GOLDEN / "worked_example.script.json").read_text())
    script["hands"] = script["hands"][:1]
    record = replay(script).model_dump(mode="json")
    told = table_form(script, record)
    told = copy.deepcopy(told)
    told.pop("rules", None)
    lines = [x for x in format_script(told).splitlines() if x.strip()]
    out: list[str] = []
    for line in lines:  # one play per line, as a person enters them
        if line.startswith("play "):
            out += [f"play {item.strip()}" for item in line[5:].split(",")]
        else:
            out.append(line)
    return out, record


def an_illegal_card(record: dict[str, Any]) -> tuple[int, str, str]:
    """``(index of the play, the illegal card to try first, its seat)``: the first
    play whose player held a card that was not allowed."""
    hand = record["hands"][0]
    held = {s: set(cards) for s, cards in enumerate(hand["hands_after_draw"])}
    k = 0
    for trick in hand["tricks"]:
        for p in trick["plays"]:
            bad = sorted(c for c in held[p["seat"]] if c not in p["legal"])
            if bad:
                return k, bad[0], str(p["seat"])
            held[p["seat"]].discard(p["card"])
            k += 1
    raise AssertionError("no illegal card to try in this hand")
