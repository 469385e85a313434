"""``bourre replay`` agrees with the independent reference referee
(``tests/reference``) on random table scripts, field by field; malformed scripts are
refused by both.

Default run: 150 scripts of the standard profile at 2-8 players, with reneges,
corrections and premature announcements.  ``pytest -m slow``: 2000 scripts over random
combinations of the built-in variants.  Each script is made from its own seed, named
in the failure message: ``random_script(random.Random("agree:<seed>"), ...)``.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from conftest import (
    FORFEIT_DEAL,
    RENEGE_DEAL,
    hand_2111,
    hand_renege,
    hand_tie,
    hand_two_bourre,
    make_script,
    normalize,
    reference,
    run,
    sole_dealer_hand,
)

from bourre.referee import ScriptError, replay
from tests.reference.generate import OPTIONAL_VARIANTS, malformed_scripts, random_script


def first_difference(got: Any, want: Any, path: str = "") -> str | None:
    """Where two JSON values first differ (for readable failures)."""
    if isinstance(got, dict) and isinstance(want, dict):
        for k in list(want) + [k for k in got if k not in want]:
            if k not in got or k not in want:
                return f"{path}.{k}: key only in {'record' if k in want else 'bourre'}"
            d = first_difference(got[k], want[k], f"{path}.{k}")
            if d:
                return d
        return None
    if isinstance(got, list) and isinstance(want, list):
        if len(got) != len(want):
            return f"{path}: length {len(got)} != {len(want)}: {got!r} != {want!r}"
        for i, (a, b) in enumerate(zip(got, want, strict=True)):
            d = first_difference(a, b, f"{path}[{i}]")
            if d:
                return d
        return None
    return None if got == want else f"{path}: bourre {got!r} != reference {want!r}"


def check_agreement(script: dict, label: str) -> dict:
    script = json.loads(json.dumps(script))  # what a file would hold
    want = reference(script)
    got = normalize(replay(json.loads(json.dumps(script))).model_dump(mode="json"))
    if got != want:
        raise AssertionError(f"{label}: {first_difference(got, want)}")
    return got


def standard_script(seed: int) -> dict:
    rng = random.Random(f"agree:{seed}")
    return random_script(
        rng,
        players=rng.randint(2, 8),
        variants=[],
        hands=rng.randint(1, 6),
        illegal_rate=rng.choice([0.0, 0.05, 0.2]),
        premature_rate=rng.choice([0.0, 0.05, 0.2]),
    )


def variant_script(seed: int) -> dict:
    rng = random.Random(f"agree-variants:{seed}")
    variants = [v for v in OPTIONAL_VARIANTS if rng.random() < 0.35]
    settings = None
    if "pot-limit" in variants and rng.random() < 0.5:
        # else the generator picks one of 1, 2, 3, 5, "5/2"
        settings = {"pot-limit": {"limit": rng.choice([1, 2, 3, 5, 10, "3/2"])}}
    return random_script(
        rng,
        players=rng.randint(2, 8),
        variants=variants,
        settings=settings,
        hands=rng.randint(1, 6),
        illegal_rate=rng.choice([0.0, 0.05, 0.2]),
        premature_rate=rng.choice([0.0, 0.05, 0.2]),
    )


@pytest.mark.parametrize("seed", range(150))
def test_agreement_standard(seed):
    check_agreement(standard_script(seed), f"standard script seed {seed}")


def test_agreement_standard_covers_the_interesting_paths():
    """The 150 default scripts hold reneges, corrections, premature events, sole
    participants, reshuffles and cinches, at every table size."""
    seen = {"renege": 0, "corrected": 0, "premature": 0, "sole": 0, "reshuffle": 0, "cinch": 0}
    sizes = set()
    for seed in range(150):
        script = standard_script(seed)
        sizes.add(script["rules"]["table"]["players"])
        rec = reference(script)
        n = script["rules"]["table"]["players"]
        for hand, h in zip(script["hands"], rec["hands"], strict=True):
            seen["premature"] += len(hand.get("events", []))
            seen["sole"] += len(h["active"]) == 1
            drawn = sum(len(d.get("discard", [])) for d in hand["decisions"])
            seen["reshuffle"] += drawn > 52 - 5 * n
            for t in h["tricks"]:
                for p in t["plays"]:
                    seen["renege"] += p["renege"]
                    seen["corrected"] += p["corrected"]
                    seen["cinch"] += p["cinch"]
    assert sizes == set(range(2, 9))
    assert all(v > 0 for v in seen.values()), seen


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(20))
def test_agreement_variants(chunk):
    for seed in range(chunk * 100, chunk * 100 + 100):
        check_agreement(variant_script(seed), f"variant script seed {seed}")


def test_pot_limit_accepts_a_fractional_limit():
    """RULES.md §3: the limit is "a positive amount"; amounts may be "p/q"."""
    rng = random.Random("agree:fraction-limit")
    script = random_script(
        rng, players=5, variants=["pot-limit"], settings={"pot-limit": {"limit": "5/2"}}, hands=3
    )
    check_agreement(script, "pot-limit limit 5/2")


def malformed():
    out = []
    for k in range(3):
        for description, script in malformed_scripts(random.Random(f"malformed:{k}")):
            out.append(pytest.param(script, id=f"{k}-{description}"))
    return out


@pytest.mark.parametrize("script", malformed())
def test_malformed_scripts_are_refused(script):
    from tests.reference.referee import ScriptError as ReferenceError

    with pytest.raises(ReferenceError):
        reference(script)
    with pytest.raises(ScriptError) as info:
        replay(json.loads(json.dumps(script)))
    msg = str(info.value)
    assert msg.strip() and "\n" not in msg.strip(), msg  # one message
    assert msg.startswith(("script: hand ", "script: hands", "script: rules", "house rules: ")), msg


# ------------------------------------------------------------------ robustness

from pathlib import Path  # noqa: E402

from hypothesis import given  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

GOLDEN_SCRIPTS = [
    json.loads(p.read_text(encoding="utf-8"))
    for p in sorted((Path(__file__).parents[1] / "golden").glob("*.script.json"))
]
ODD_VALUES = [
    None,
    -1,
    0,
    1,
    7,
    100,
    2.5,
    "x",
    "AS",
    "10H",
    "5/2",
    "-3",
    [],
    {},
    [1],
    ["AS"],
    True,
    "play",
    "pass",
    "premature",
    10**20,
    "1/0",
    "",
    "AS AS",
]


def _paths(value, path=()):
    yield path
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _paths(v, (*path, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _paths(v, (*path, i))


@given(data=st.data())
def test_replay_never_crashes_on_a_damaged_script(data):
    """Any damage to a script gives a record or a ScriptError, never another exception
    (``bourre replay`` would print a traceback instead of one message)."""
    import copy

    script = copy.deepcopy(data.draw(st.sampled_from(GOLDEN_SCRIPTS)))
    for _ in range(data.draw(st.integers(1, 3))):
        paths = [p for p in _paths(script) if p]
        if not paths:  # everything deleted already: an empty script
            break
        path = data.draw(st.sampled_from(paths))
        parent = script
        for k in path[:-1]:
            parent = parent[k]
        op = data.draw(st.sampled_from(["set", "delete", "add"]))
        if op == "delete":
            del parent[path[-1]]
        elif op == "add" and isinstance(parent, dict):
            parent[
                data.draw(
                    st.sampled_from(
                        [
                            "dealer",
                            "pot",
                            "events",
                            "reshuffles",
                            "balances",
                            "corrected_to",
                            "discard",
                            "x",
                        ]
                    )
                )
            ] = data.draw(st.sampled_from(ODD_VALUES))
        else:
            parent[path[-1]] = data.draw(st.sampled_from(ODD_VALUES))
    try:
        replay(json.loads(json.dumps(script)))
    except ScriptError as e:
        assert str(e).strip()


@pytest.mark.parametrize(
    "field, value",
    [
        ("plays[0].seat", True),
        ("plays[0].seat", "1"),
        ("dealer", False),
        ("pot", -5),
        ("pot", "x"),
        ("plays[0].seat", -1),
        ("dealer", 5),
        ("decisions[0].action", "fold"),
    ],
)
def test_nonsense_values_are_refused(field, value):
    from conftest import hand_2111, make_script

    script = make_script([hand_2111()])
    hand = script["hands"][0]
    if field.startswith("plays[0]."):
        hand["plays"][0][field.split(".")[1]] = value
    elif field.startswith("decisions[0]."):
        hand["decisions"][0][field.split(".")[1]] = value
    else:
        hand[field] = value
    from tests.reference.referee import ScriptError as ReferenceError

    with pytest.raises(ReferenceError):
        reference(script)
    with pytest.raises(ScriptError) as info:
        replay(script)
    assert "hand 1" in str(info.value) and field.split(".")[-1].split("[")[0] in str(info.value)


# ------------------------------------------------------------------------- sanity


def test_scenarios_agree_with_the_reference():
    """The hand-made deals of conftest are refereed alike by the independent reference."""
    from conftest import hand_worked_example

    for script in (
        make_script([hand_2111(), sole_dealer_hand(1, 5)]),
        make_script([hand_tie(), sole_dealer_hand(1, 5)]),
        make_script([hand_two_bourre(), sole_dealer_hand(1, 5)]),
        make_script([hand_renege(), sole_dealer_hand(2, 5)]),
        make_script([hand_worked_example(), sole_dealer_hand(3, 5)]),
        make_script([hand_2111(0), hand_tie(1), hand_tie(2)]),
    ):
        assert normalize(run(script)) == reference(script)
    assert RENEGE_DEAL and FORFEIT_DEAL
