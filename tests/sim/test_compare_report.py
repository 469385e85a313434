"""What ``bourre compare`` and ``simulate`` say to a card player (issue 12): the
summary in plain words, the table in chips fitted to the console, the figures and
their captions, the HTML report.  Each test would fail if the old wording came back."""

from __future__ import annotations

import io
import json
import math
import re
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from rich.console import Console
from typer.testing import CliRunner

from bourre.cli import app
from bourre.sim.reports import fmt
from bourre.sim.reports.summary import summary_lines
from bourre.sim.reports.table import header_lines, position_label, render, sections
from bourre.sim.runs import runner as R
from bourre.sim.stats.metrics import ci_quantile, compute

README_HOUSES = ["standard", "double-ante", "standard+pot-limit(limit=10)", "four-card"]
OLD_WORDING = [
    "std of final balances",
    "P(final balance",
    "Δ",
    "paired difference",
    "change per hand",
    "seat 0",
    "CI",
]
"""Rows and words that players could not read (issue 12)."""


@pytest.fixture(scope="module")
def run4() -> tuple[Any, dict[str, Any]]:
    """The README's four houses, a few sessions, heuristic bots (which never leave a
    player unopposed)."""
    from bourre.houses.house import House

    specs = [House(h).spec for h in README_HOUSES]
    res = R.run(R.RunConfig(specs, 6, "r"), workers=1)
    return res, compute(res)


def text_of(metrics: dict[str, Any], width: int) -> str:
    out = io.StringIO()
    render(metrics, Console(file=out, width=width, force_terminal=False, color_system=None))
    return out.getvalue()


# -- numbers -------------------------------------------------------------------------


def test_chips_and_shares_at_a_sensible_precision() -> None:
    assert fmt.chips(5712.0) == "5,712"  # not 5,712.00
    assert fmt.chips(27.47, 3.36) == "27.5 ±3.4"
    assert fmt.chips(59.03, 7.76) == "59 ±8"
    assert fmt.chips(13.0, 0.0) == "13"  # no ±0.00
    assert fmt.chips(-0.004) == "0.00" and fmt.chips(-0.2, 0.4) == "-0.2 ±0.4"  # no "-0.00"
    assert fmt.percent(0.712, 0.004) == "71.2% ±0.4"
    assert fmt.percent(0.0263, 0.0004) == "2.6% ±0.1"  # no ±0.0
    assert fmt.quantile({"mean": 13, "lo": 13, "hi": 13}) == "13"
    assert fmt.quantile({"mean": 150, "lo": 140, "hi": 165}) == "150 (140–165)"


def test_quantile_interval_takes_sessions_as_the_unit() -> None:
    # many ties: the median has no width to show, where the old interval said ±0.00
    tied = [[13.0] * 12 for _ in range(50)]
    iv = ci_quantile(tied, 0.5)
    assert iv["mean"] == iv["lo"] == iv["hi"] == 13
    # sessions that differ: the interval is wide and holds the quantile
    spread = [[float(i)] * 12 for i in range(100)]
    iv = ci_quantile(spread, 0.5)
    assert iv["lo"] < iv["mean"] < iv["hi"]
    # 12 hands per session count as one session's worth of evidence, not 12
    single = [[float(i)] for i in range(100)]
    assert ci_quantile(single, 0.5)["hi"] == iv["hi"]
    assert ci_quantile(spread, 0.99)["mean"] == 98  # 99% of the hands at or below it


# -- the summary -----------------------------------------------------------------------


def test_summary_answers_the_players_questions(run4: Any) -> None:
    _, m = run4
    lines = summary_lines(m["houses"][0])
    text = " ".join(lines)
    for words in (
        "half the hands are played for",
        "1 hand in 100",
        "Someone is bourré in",
        "the pot carries",
        "fewer than 50 of",
        "Dealing is worth",
        "what they lose stays in the pot",
        "moves a player's chips by",
    ):
        assert words in text, words
    for line in lines:  # each answer with its interval, or how little was seen
        assert "±" in line or line.startswith("No player ended a session"), line
    for old in OLD_WORDING:
        assert old not in text


def test_summary_says_how_many_sessions_when_nobody_went_below(run4: Any) -> None:
    _, m = run4
    house = dict(m["houses"][0])
    house["below"] = {"mean": 0.0, "lo": 0.0, "hi": 0.0}
    line = next(x for x in summary_lines(house) if "fewer than 50" in x)
    assert line == (
        f"No player ended a session with fewer than 50 of their 100 chips"
        f" (in {house['sessions']} sessions)."
    )
    house["below"] = {"mean": 0.25, "lo": 0.1, "hi": 0.4}
    line = next(x for x in summary_lines(house) if "fewer than 50" in x)
    assert line.startswith("Chance of ending a session with fewer than 50 of one's 100 chips: 25")


def test_summary_of_a_house_without_sessions() -> None:
    assert summary_lines({"house": "standard", "sessions": 0}) == [
        "No session of this house was completed."
    ]


# -- the table ---------------------------------------------------------------------------


@pytest.mark.parametrize("width", [80, 60, 40])
def test_table_fits_the_console_and_keeps_house_names_whole(run4: Any, width: int) -> None:
    _, m = run4
    out = text_of(m, width)
    lines = out.splitlines()
    assert max(len(line) for line in lines) <= width
    assert not [line for line in lines if line != line.rstrip()]  # piped: no padding left
    heads = "\n".join(lines)
    assert "pot-limit" in heads and "(limit=10)" in heads
    assert "pot-limit(lim\n" not in heads and "(lim\n" not in heads
    for name in ("standard", "double-ante", "four-card"):
        assert re.search(rf"(^|\s){name}(\s|$)", heads, re.M), name
    rules = [line for line in lines if set(line.strip()) == {"─"}]
    if width == 80:
        assert len(rules) == 1  # the README's four houses side by side
    else:
        assert len(rules) > 1  # in blocks of houses, each with the row names
        assert out.count("Pots, in chips") == len(rules)


def test_table_speaks_in_chips_with_one_mark(run4: Any) -> None:
    _, m = run4
    out = text_of(m, 80)
    for old in OLD_WORDING:
        assert old not in out, old
    assert not re.search(r"\d\.00\b", out)  # no 5,712.00, no ±0.00
    assert "*: differs from standard on the same deals" in out
    assert "±: the range where the true figure lies 19 times in 20" in out
    for group in (
        "Pots, in chips",
        "Bourré and ties",
        "A session of 12 hands",
        "Chips a hand, by place",
    ):
        assert group in out
    assert "dealer (decides last)" in out and "1st (dealer's left)" in out
    assert "stays in the pot" in out and "the deal rotates" in out
    # the speed on its own line, after the table and its notes
    assert out.index("Speed (hands per second, per core):") > out.index("the deal rotates")
    assert "hands/s" not in out


def test_a_row_that_never_happened_is_left_out(run4: Any) -> None:
    _, m = run4
    assert all(h["sole"]["mean"] == 0 for h in m["houses"])  # heuristic bots
    labels = [label for _, rows in sections(m) for label, _ in rows]
    assert "hands won unopposed" not in labels
    assert "Not seen in these sessions: hands won unopposed." in text_of(m, 80)
    # random bots do leave a player unopposed: the row is back
    res = R.run(R.RunConfig(["standard"], 6, "r", R.parse_bots("random")), workers=1)
    mr = compute(res)
    assert mr["houses"][0]["sole"]["mean"] > 0
    assert "hands won unopposed" in [label for _, rows in sections(mr) for label, _ in rows]


def test_simulate_has_no_comparison_mark() -> None:
    r = CliRunner().invoke(app, ["simulate", "standard", "--sessions", "3", "--no-progress"])
    assert r.exit_code == 0, r.stderr
    assert "differs from" not in r.stdout and " *" not in r.stdout
    assert "Dealing is worth" in r.stdout


def test_header_lines_break_only_between_pieces() -> None:
    assert header_lines("pot-limit(limit=10)", 12) == ["pot-limit", "(limit=10)"]
    assert header_lines("double-ante+pot-limit(limit=10)", 12) == [
        "double-ante+",
        "pot-limit",
        "(limit=10)",
    ]
    assert header_lines("four-card", 5) == ["four-card"]  # a piece stays whole


def test_places_are_named_from_the_dealer() -> None:
    assert [position_label(p, 5) for p in range(5)] == [
        "dealer (decides last)",
        "1st (dealer's left)",
        "2nd to decide",
        "3rd to decide",
        "4th (dealer's right)",
    ]


def test_json_keeps_its_fields_and_adds_new_ones(run4: Any) -> None:
    _, m = run4
    h = m["houses"][1]
    before = {
        "house",
        "sessions",
        "hands",
        "players",
        "pot_mean",
        "bourre_hands",
        "carried",
        "sole",
        "dealer",
        "spread",
        "pot_median",
        "pot_max",
        "playing",
        "bourre",
        "cinch",
        "below",
        "seat",
        "position",
        "pot_by_hand",
        "vs_first",
    }
    assert before <= set(h)
    assert {"pot_p99", "dealer_edge", "swing", "start_balance", "below_balance"} <= set(h)
    assert {"dealer_edge", "swing", "spread", "pot_mean"} <= set(h["vs_first"])
    json.dumps(m)


# -- figures -----------------------------------------------------------------------------


def test_every_figure_has_a_caption_and_axes_in_chips_or_per_cent(run4: Any) -> None:
    pytest.importorskip("matplotlib")
    from bourre.sim.reports.plots import FIGURES, figures

    res, m = run4
    made = list(figures(res, m))
    assert [s.name for s, _ in made] == [f.name for f in FIGURES]
    assert {f.name for f in FIGURES} == {
        "pot_chance",
        "pot_growth",
        "balance_path",
        "balance_spread",
        "money_by_place",
    }
    for spec, fig in made:
        assert len(spec.caption) > 80, spec.name
        for ax in fig.axes:
            if not ax.get_visible():
                continue
            assert ax.get_yscale() == "linear" and ax.get_xscale() == "linear", spec.name
            y = ax.get_ylabel()
            assert not y or "chips" in y or "(%)" in y, (spec.name, y)
        labels = " ".join(ax.get_ylabel() + ax.get_xlabel() for ax in fig.axes)
        assert "log" not in labels and "seat 0" not in labels
    money = dict(made)[next(f for f in FIGURES if f.name == "money_by_place")]
    ticks = [t.get_text() for t in money.axes[0].get_xticklabels()]
    assert ticks[0].startswith("dealer") and not any("seat" in t for t in ticks)


def test_docs_show_every_figure_with_its_caption() -> None:
    import importlib.util

    from bourre.sim.reports.plots import FIGURES

    docs = Path(__file__).parents[2] / "docs"
    spec = importlib.util.spec_from_file_location("bourre_docs_hooks_r", docs / "hooks.py")
    assert spec is not None and spec.loader is not None
    hooks = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(hooks)
    page = hooks.expand_markers((docs / "comparing.md").read_text(encoding="utf-8"))
    for f in FIGURES:
        assert f.caption in page, f.name
        assert f"img/compare/{f.name}.png" in page
        assert (docs / "img" / "compare" / f"{f.name}.png").is_file()
    for old in ("pot_distribution", "seat_advantage", "log scale"):
        assert old not in page


# -- the HTML report -------------------------------------------------------------------------


class _Page(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))


def test_report_is_one_self_contained_page(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    pytest.importorskip("jinja2")
    from bourre.sim.reports.plots import FIGURES

    out = tmp_path / "out.html"
    r = CliRunner().invoke(
        app,
        [
            "compare",
            "standard",
            "pot-limit(limit=10)",
            "--sessions",
            "3",
            "--seed",
            "s",
            "--bots",
            "heuristic,random,random,random,random",
            "--rotate",
            "--below",
            "40",
            "--no-progress",
            "--report",
            str(out),
        ],
    )
    assert r.exit_code == 0, r.stderr
    page = out.read_text(encoding="utf-8")
    parsed = _Page()
    parsed.feed(page)
    imgs = [a for t, a in parsed.tags if t == "img"]
    assert len(imgs) == len(FIGURES)
    assert all((a.get("src") or "").startswith("data:image/png;base64,") for a in imgs)
    for tag, attrs in parsed.tags:  # nothing fetched from anywhere
        assert tag not in ("script", "link", "iframe"), tag
        for key in ("src", "href"):
            assert not (attrs.get(key) or "data:").startswith(("http", "//", "file")), attrs
    for f in FIGURES:
        assert f.caption.replace("'", "&#39;") in page, f.name
    assert "In plain words" in page and "Dealing is worth" in page
    assert "Pots, in chips" in page and "differs from standard" in page
    assert "R-POT-LIMIT" in page and "R-BOURRE" in page  # each house's rules
    assert "--sessions 3 --seed s --bots heuristic,random,random,random,random --rotate" in page
    assert "--below 40" in page and "&#39;standard+pot-limit(limit=10)&#39;" in page
    from bourre import __version__

    assert f"bourre version</dt><dd>{__version__}" in page


def test_report_escapes_what_users_and_plugins_write(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    pytest.importorskip("jinja2")
    from bourre.sim.reports.html import render_report

    res = R.run(R.RunConfig(["standard"], 2, "<b>seed</b>", R.parse_bots("random")), workers=1)
    m = compute(res)
    m["bots"] = ["<img src=x onerror=alert(1)>"]

    class Stub:
        spec = "<script>alert(1)</script>"

        def rule_texts(self) -> list[tuple[str, str, tuple[str, str]]]:
            return [("general", "<i>evil</i>", ("R-X", "<script>alert(2)</script>"))]

    page = render_report(m, res, [Stub()])
    assert "<script>" not in page and "<img src=x" not in page and "<b>seed" not in page
    assert "&lt;script&gt;alert(2)&lt;/script&gt;" in page
    assert "&lt;img src=x onerror=alert(1)&gt;" in page


def test_report_without_matplotlib_or_jinja2_says_what_to_install(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import builtins

    real = builtins.__import__

    def no_jinja(name: str, *args: Any, **kwargs: Any) -> Any:
        if name == "jinja2":
            raise ImportError("No module named 'jinja2'", name="jinja2")
        return real(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_jinja)
    r = CliRunner().invoke(
        app, ["simulate", "standard", "--sessions", "1", "--report", str(tmp_path / "r.html")]
    )
    assert r.exit_code == 2 and "--report needs jinja2" in r.stderr
    assert not (tmp_path / "r.html").exists()


def test_money_by_place_is_kept_per_session_and_old_state_files_agree(run4: Any) -> None:
    res, m = run4
    s = res.ordered(res.config.houses[0])[0]
    n = s["players"]
    by_hand = [
        sum(row[(dl + p) % n] for row, dl in zip(s["delta"], s["dealer"], strict=True))
        for p in range(n)
    ]
    assert s["place"] == pytest.approx(by_hand) and s["start"] == 100
    # summaries written before "place" and "start" were kept: the same numbers
    old = R.RunResult(
        res.config,
        {
            h: {
                i: {k: v for k, v in x.items() if k not in ("place", "start")} for i, x in d.items()
            }
            for h, d in res.summaries.items()
        },
    )
    from bourre.sim.stats.metrics import without_timing

    assert without_timing(compute(old)) == without_timing(m)


@given(st.lists(st.floats(-1e6, 1e6, allow_nan=False), min_size=1, max_size=30))
def test_the_spread_is_the_population_standard_deviation(xs):
    """``spread`` is statistics.pstdev computed in floats (to rounding)."""
    import statistics

    from bourre.sim.stats.metrics import SCALARS

    got = SCALARS["spread"][1]({"final": xs})
    assert math.isclose(got, statistics.pstdev(xs), rel_tol=1e-9, abs_tol=1e-6)


def _iv(mean: float, half: float) -> dict[str, float]:
    return {"mean": mean, "lo": mean - half, "hi": mean + half}


def _houses(first: float, second: float, diff: dict[str, float]) -> dict[str, Any]:
    """Two houses whose share of bourrés differs by ``second - first``, with the paired
    difference ``diff`` (crafted: only what the table reads)."""
    return {
        "below": 40,
        "houses": [
            {"house": "standard", "players": 0, "bourre": _iv(first, 0.004), "vs_first": None},
            {
                "house": "double-ante",
                "players": 0,
                "bourre": _iv(second, 0.004),
                "vs_first": {"bourre": diff},
            },
        ],
    }


def _bourre_row(m: dict[str, Any]) -> list[str]:
    return next(
        cells for _, rows in sections(m) for label, cells in rows if label == "bourré when playing"
    )


def test_no_mark_between_two_figures_printed_alike() -> None:
    """13.92% and 13.88%: both print 13.9% at their usual precision, yet the paired
    difference (-0.04 points, from -0.06 to -0.02) is beyond luck.  The row gets one
    more decimal, so the marked figure differs from the first (issue 43)."""
    m = _houses(0.1392, 0.1388, {"mean": -0.0004, "lo": -0.0006, "hi": -0.0002})
    first, second = _bourre_row(m)
    assert fmt.percent(0.1392, 0.004) == fmt.percent(0.1388, 0.004) == "13.9% ±0.4"
    assert first == "13.92% ±0.40" and second == "13.88% ±0.40 *"
    # the terminal table prints these same rows (and the HTML report: the same sections)
    from bourre.sim.reports.table import print_table

    out = io.StringIO()
    print_table(
        Console(file=out, width=100, force_terminal=False, color_system=None),
        sections(m),
        ["standard", "double-ante"],
    )
    assert "13.92% ±0.40" in out.getvalue() and "13.88% ±0.40 *" in out.getvalue()
    # a difference luck explains keeps the usual precision and no mark
    m = _houses(0.1392, 0.1388, {"mean": -0.0004, "lo": -0.002, "hi": 0.001})
    assert _bourre_row(m) == ["13.9% ±0.4", "13.9% ±0.4  "]
    # figures that already differ keep the usual precision and their mark
    m = _houses(0.1392, 0.1288, {"mean": -0.0104, "lo": -0.012, "hi": -0.009})
    assert _bourre_row(m) == ["13.9% ±0.4", "12.9% ±0.4 *"]


def test_a_mark_never_stands_between_equal_figures_in_chips() -> None:
    """Chips too, and the skill rows: up to two more decimals; a difference hidden
    even then (under 0.005 chips) loses its mark rather than mark two equal figures."""
    from bourre.sim.reports.cells import figures

    real = {"mean": 0.03, "lo": 0.01, "hi": 0.05}
    assert figures([_iv(5.21, 0.4), _iv(5.24, 0.4)], [None, real], "chips") == [
        "5.21 ±0.40",
        "5.24 ±0.40 *",
    ]
    assert figures([_iv(5.2101, 0.4), _iv(5.2102, 0.4)], [None, real], "chips") == [
        "5.210 ±0.400",
        "5.210 ±0.400  ",
    ]
    real = {"mean": 0.002, "lo": 0.001, "hi": 0.003}
    got = figures([_iv(1.012, 0.3), _iv(1.014, 0.3)], [None, real], "chips", sign=True)
    assert got == ["+1.012 ±0.300", "+1.014 ±0.300 *"]
