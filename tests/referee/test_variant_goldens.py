"""Golden transcripts per built-in variant (RULES.md §3), refereed by ``bourre replay``
and checked against the independent reference referee (``tests/reference``), never
against bourre itself.  The variants' rules, one by one: ``tests/rules/test_<variant>.py``.

Golden transcripts: ``tests/golden/variants/<name>.script.json`` and
``<name>.record.json``; the record was produced by the reference referee.  Regenerate
them (after a deliberate change of the reference) with::

    python tests/referee/test_variant_goldens.py
"""

from __future__ import annotations

import copy
import json
import random
import sys
from collections.abc import Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
for p in (str(ROOT), str(ROOT / "tests")):
    if p not in sys.path:  # `python tests/referee/test_variant_goldens.py`, `pytest` alike
        sys.path.insert(0, p)

from conftest import normalize, run  # noqa: E402

GOLDEN_DIR = ROOT / "tests" / "golden" / "variants"


# ========================================================================== golden transcripts

# name: (variants, settings, players, hands, required features)
GOLDEN: dict[str, tuple[list[str], dict[str, Any] | None, int, int, set[str]]] = {
    "standard": (
        [],
        None,
        5,
        4,
        {"cinch", "bourre", "sole", "renege", "corrected", "premature", "carried"},
    ),
    "double-ante": (["double-ante"], None, 5, 4, {"bourre", "sole", "carried"}),
    "pot-limit": (["pot-limit"], {"pot-limit": {"limit": 2}}, 5, 4, {"capped", "renege"}),
    "four-card": (["four-card"], None, 6, 4, {"cinch", "bourre", "four-exchanged"}),
    "simultaneous-reveal": (["simultaneous-reveal"], None, 5, 4, {"nobody-plays", "bourre"}),
    "optional-undertrump": (["optional-undertrump"], None, 4, 4, {"discard-option", "bourre"}),
    "no-cinch": (["no-cinch"], None, 4, 4, {"cinch-elsewhere", "bourre"}),
    "players-2": ([], None, 2, 4, {"bourre"}),
    "players-8": ([], None, 8, 3, {"double-reshuffle"}),
}


def _features(script: dict[str, Any], record: dict[str, Any], stats: dict[str, int]) -> set[str]:
    from tests.reference.referee import referee

    f: set[str] = set()
    limit = ((script["rules"].get("variants") or {}).get("pot-limit") or {}).get("limit")
    for h, hin in zip(record["hands"], script["hands"], strict=True):
        trump = h["trump"]
        if len(h["active"]) == 1:
            f.add("sole")
            if all(d["action"] == "pass" for d in hin["decisions"]):
                f.add("nobody-plays")
        if h["bourre"]:
            f.add("bourre")
        if h["winner"] is None and len(h["active"]) > 1:
            f.add("carried")
        if limit is not None and h["bourre"] and Fraction(h["pot_at_stake"]) > Fraction(limit):
            f.add("capped")
        if hin.get("events"):
            f.add("premature")
        if any(len(d.get("discard", [])) == 4 for d in hin["decisions"]):
            f.add("four-exchanged")
        for t in h["tricks"]:
            cards = []
            for p in t["plays"]:
                f |= {k for k in ("cinch", "renege", "corrected") if p[k]}
                if cards:
                    led = cards[0][1]
                    suits = {c[1] for c in p["legal"]}
                    if (
                        led != trump
                        and any(c[1] == trump for c in cards)
                        and trump in suits
                        and suits - {led, trump}
                    ):
                        f.add("discard-option")
                cards.append(p["card"])
    if stats.get("double_reshuffles"):
        f.add("double-reshuffle")
    if "no-cinch" in script["rules"]["variants"]["use"]:
        std = copy.deepcopy(script)
        std["rules"]["variants"]["use"] = ["standard"]
        try:
            srec = referee(std)
        except Exception:
            srec = {"hands": []}
        if any(p["cinch"] for h in srec["hands"] for t in h["tricks"] for p in t["plays"]):
            f.add("cinch-elsewhere")
    return f


def _dump(o: Any, ind: int = 0) -> str:
    """Readable JSON: short lists and small objects on one line."""
    pad = "  " * ind
    flat = json.dumps(o, ensure_ascii=False)
    if (
        not isinstance(o, (dict, list))
        or len(flat) <= 100
        or (isinstance(o, list) and all(not isinstance(x, (dict, list)) for x in o))
    ):
        return flat
    if isinstance(o, dict):
        items = [f"{pad}  {json.dumps(k)}: {_dump(v, ind + 1)}" for k, v in o.items()]
        return "{\n" + ",\n".join(items) + f"\n{pad}}}"
    items = [f"{pad}  {_dump(v, ind + 1)}" for v in o]
    return "[\n" + ",\n".join(items) + f"\n{pad}]"


def regenerate(names: Sequence[str] | None = None) -> None:
    """Write the golden scripts and their reference records (the first seed whose
    script shows every required feature)."""
    from tests.reference import generate
    from tests.reference.referee import referee

    GOLDEN_DIR.mkdir(parents=True, exist_ok=True)
    for name in names or GOLDEN:
        variants, settings, players, hands, needed = GOLDEN[name]
        for seed in range(5000):
            before = dict(generate.STATS)
            script = generate.random_script(
                random.Random(f"golden:{name}:{seed}"),
                players=players,
                variants=variants,
                settings=settings,
                hands=hands,
                illegal_rate=0.05,
                premature_rate=0.05,
            )
            stats = {k: generate.STATS[k] - before[k] for k in before}
            script = json.loads(json.dumps(script))
            record = referee(copy.deepcopy(script))
            if needed <= _features(script, record, stats):
                break
        else:
            raise RuntimeError(f"no script for {name} shows {needed}")
        (GOLDEN_DIR / f"{name}.script.json").write_text(_dump(script) + "\n", encoding="utf-8")
        (GOLDEN_DIR / f"{name}.record.json").write_text(_dump(record) + "\n", encoding="utf-8")
        print(f"{name}: seed {seed}")


def _load(name: str, kind: str) -> dict[str, Any]:
    return json.loads((GOLDEN_DIR / f"{name}.{kind}.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_golden_transcript(name: str) -> None:
    script, expected = _load(name, "script"), _load(name, "record")
    assert normalize(run(script)) == normalize(expected)


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_golden_is_the_reference_record(name: str) -> None:
    """The stored record is what the reference referee says (not stale) and the
    script shows what it was chosen for."""
    from tests.reference.referee import referee

    script, expected = _load(name, "script"), _load(name, "record")
    assert referee(copy.deepcopy(script)) == expected
    needed = GOLDEN[name][4] - {"double-reshuffle"}
    assert needed <= _features(script, expected, {})
    used = script["rules"]["variants"]["use"]
    assert set(GOLDEN[name][0]) <= set(used)


if __name__ == "__main__":
    regenerate(sys.argv[1:] or None)
