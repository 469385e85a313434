"""Brace lists in a house string (bourre.sim.sweeps.braces): the points of a sweep, in
order, each a house; mistakes named."""

from __future__ import annotations

import itertools
import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bourre.houses.house import House
from bourre.houses.strings import parse_house_string
from bourre.sim.sweeps.braces import MAX_POINTS, SweepError, expand


def houses(text: str) -> list[str]:
    return [p.house for p in expand(text).points]


def test_one_list_of_a_setting() -> None:
    sw = expand("standard+pot-limit(limit={5,10,20,40,80})")
    assert houses(sw.text) == [f"standard+pot-limit(limit={v})" for v in (5, 10, 20, 40, 80)]
    (axis,) = sw.axes
    assert (axis.owner, axis.key, axis.label) == ("pot-limit", "limit", "pot-limit limit")
    assert axis.numeric and [axis.number(v) for v in axis.values] == [5, 10, 20, 40, 80]
    assert [sw.label(p) for p in sw.points][:2] == ["limit=5", "limit=10"]


def test_a_grid_is_every_combination_the_first_list_slowest() -> None:
    sw = expand("pot-limit(limit={5, 10})+table(hands=6,players={4,5,6})")
    assert [p.values for p in sw.points] == [
        ("5", "4"),
        ("5", "5"),
        ("5", "6"),
        ("10", "4"),
        ("10", "5"),
        ("10", "6"),
    ]
    assert sw.points[4].house == "pot-limit(limit=10)+table(hands=6,players=5)"
    assert [a.label for a in sw.axes] == ["pot-limit limit", "table players"]
    assert sw.label(sw.points[4]) == "limit=10, players=5"


def test_a_list_of_house_items_is_not_numeric() -> None:
    sw = expand("standard+{double-ante,pot-limit(limit=5,),four-card}")
    assert houses(sw.text)[1] == "standard+pot-limit(limit=5,)"
    (axis,) = sw.axes
    assert axis.key == "" and axis.label == "house" and not axis.numeric
    assert sw.label(sw.points[0]) == "double-ante"


def test_numbers_and_words() -> None:
    axis = expand("pot-limit(limit={'5/2',3,2.5})").axes[0]
    assert axis.numeric and [axis.number(v) for v in axis.values] == [2.5, 3, 2.5]
    axis = expand("table(first_dealer={0,random})").axes[0]
    assert not axis.numeric and axis.number("random") is None and axis.number("0") == 0
    assert expand("x(k={1/0})").axes[0].number("1/0") is None
    assert expand("pot-limit(limit={7})").points[0].house == "pot-limit(limit=7)"


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("pot-limit(limit={})", ["is empty"]),
        ("pot-limit(limit={ })", ["is empty"]),
        ("pot-limit(limit={5,,10})", ["an empty value"]),
        ("pot-limit(limit={5,10,})", ["an empty value"]),
        ("pot-limit(limit={5,{6,7}})", ["nested", "character 20"]),
        ("pot-limit(limit={5,10)", ["never closed", "character 17"]),
        ("pot-limit(limit=5,10})", ["closes no", "character 21"]),
        ("pot-limit(limit={5,5})", ["'5' twice"]),
        ("standard+{pot-limit(limit=5,double-ante}", ["unbalanced parentheses"]),
        ("standard+pot-limit(limit=5)", ["nothing to sweep"]),
        (
            "table(players={2,3,4,5,6,7,8})+table(hands={"
            + ",".join(map(str, range(1, 200)))
            + "})",
            [f"at most {MAX_POINTS}"],
        ),
        ("x" * 5000 + "{1,2}", ["characters"]),
    ],
)
def test_mistakes_are_named(text: str, words: list[str]) -> None:
    with pytest.raises(SweepError) as e:
        expand(text)
    for w in words:
        assert w in str(e.value)


# -- properties ----------------------------------------------------------------------

ITEMS = ["double-ante", "no-cinch", "simultaneous-reveal", "optional-undertrump"]


def distinct(elements: st.SearchStrategy[int], most: int = 3) -> st.SearchStrategy[list[int]]:
    return st.lists(elements, min_size=1, max_size=most, unique=True)


Place = tuple[str, str] | None
"""Where a list goes: (variant or 'table', setting), or None for house items."""


@st.composite
def sweeps(draw: st.DrawFn) -> tuple[str, list[list[str]], list[Place]]:
    """A sweep string, its lists (as written, in order) and where each goes."""
    parts: list[tuple[str, list[tuple[list[str], Place]]]] = []
    if draw(st.booleans()):
        vs = [str(v) for v in draw(distinct(st.integers(1, 500)))]
        parts.append(("pot-limit(limit={" + ",".join(vs) + "})", [(vs, ("pot-limit", "limit"))]))
    if draw(st.booleans()):
        vs = draw(st.lists(st.sampled_from(ITEMS), min_size=1, max_size=3, unique=True))
        parts.append(("{" + ",".join(vs) + "}", [(vs, None)]))
    settings = draw(st.lists(st.sampled_from(["players", "hands", "ante"]), unique=True))
    fixed = draw(st.booleans())
    if settings or fixed:
        args = ["balance=80"] if fixed else []
        lists: list[tuple[list[str], Place]] = []
        for key in settings:
            lo, hi = {"players": (2, 8), "hands": (1, 30), "ante": (1, 9)}[key]
            vs = [str(v) for v in draw(distinct(st.integers(lo, hi)))]
            args.append(f"{key}={{{', '.join(vs)}}}")
            lists.append((vs, ("table", key)))
        parts.append((f"table({','.join(args)})", lists))
    if not any(ls for _, ls in parts):
        vs = [str(v) for v in draw(distinct(st.integers(1, 50)))]
        parts.append(("pot-limit(limit={" + ",".join(vs) + "})", [(vs, ("pot-limit", "limit"))]))
    parts = draw(st.permutations(parts))
    text = "+".join(["standard", *(t for t, _ in parts)])
    flat = [x for _, ls in parts for x in ls]
    return text, [v for v, _ in flat], [p for _, p in flat]


@given(sweeps())
def test_expansion_properties(case: tuple[str, list[list[str]], list[Place]]) -> None:
    text, lists, places = case
    sw = expand(text)
    assert [list(a.values) for a in sw.axes] == lists
    # one point per combination, in the order of itertools.product
    assert len(sw.points) == math.prod(len(v) for v in lists)
    assert [p.values for p in sw.points] == list(itertools.product(*lists))
    assert expand(text) == sw  # stable
    assert len({p.house for p in sw.points}) == len(sw.points)
    for point in sw.points:
        assert "{" not in point.house and "}" not in point.house
        rules = parse_house_string(point.house)  # every point parses …
        given_settings = rules.variants.settings_for()
        for place, value in zip(places, point.values, strict=True):
            if place is None:
                assert value in rules.variants.use
            elif place[0] == "table":
                assert getattr(rules.table, place[1]) == int(value)
            else:
                assert given_settings[place[0]][place[1]] == int(value)
    for axis, place in zip(sw.axes, places, strict=True):
        assert axis.numeric == (place is not None)
        if place is not None:
            assert (axis.owner, axis.key) == place
    House(sw.points[-1].house)  # … and makes a house
