"""``bourre compare --report`` and ``bourre sweep --report`` (the same page) opened in
a real browser (Debian's Chromium through Playwright): every figure renders and the
page asks the network for nothing.  Skips, saying why, where no browser can be
found."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

pytest.importorskip("matplotlib")
pytest.importorskip("jinja2")
pytest.importorskip("playwright.sync_api", reason="playwright is not installed")

from browser import chromium

from bourre.cli import app
from bourre.sim.reports.plots import FIGURES


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("report") / "report.html"
    r = CliRunner().invoke(
        app,
        [
            "compare",
            "standard",
            "pot-limit(limit=10)",
            "--sessions",
            "4",
            "--bots",
            "random",
            "--no-progress",
            "--report",
            str(out),
        ],
    )
    assert r.exit_code == 0, r.stderr
    return out


@pytest.fixture(scope="module")
def sweep_report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("sweep") / "sweep.html"
    r = CliRunner().invoke(
        app,
        [
            "sweep",
            "standard+pot-limit(limit={5,10,80})",
            "--sessions",
            "4",
            "--bots",
            "random",
            "--metric",
            "pot",
            "--metric",
            "down",
            "--no-progress",
            "--report",
            str(out),
        ],
    )
    assert r.exit_code == 0, r.stderr
    return out


@pytest.fixture(scope="module")
def browser() -> Any:
    with chromium() as b:
        yield b


def _open(browser: Any, report: Path) -> tuple[Any, list[str], list[str]]:
    """The page, what it asked the network for, and the captions of its figures,
    each figure checked to be drawn."""
    page = browser.new_page(viewport={"width": 1000, "height": 800})
    requests: list[str] = []
    page.on("request", lambda req: requests.append(req.url))
    page.goto(report.as_uri())
    page.wait_for_load_state("load")
    images = page.eval_on_selector_all(
        "figure img",
        "imgs => imgs.map(i => [i.complete, i.naturalWidth, i.naturalHeight,"
        " i.getBoundingClientRect().width])",
    )
    assert images
    for complete, natural_w, natural_h, shown_w in images:
        assert complete and natural_w > 0 and natural_h > 0 and shown_w > 0
    captions = page.eval_on_selector_all("figcaption", "cs => cs.map(c => c.innerText)")
    assert len(captions) == len(images)
    assert report.as_uri() in requests  # the listener sees what the page asks for
    others = [u for u in requests if u != report.as_uri() and not u.startswith("data:")]
    assert others == []  # nothing fetched: no font, no style sheet, no script
    return page, requests, captions


def test_report_renders_every_figure_without_the_network(report: Path, browser: Any) -> None:
    page, _, captions = _open(browser, report)
    assert len(captions) == len(FIGURES)
    for f, text in zip(FIGURES, captions, strict=True):
        assert f.caption in text
    assert "Dealing is worth" in page.inner_text("#summary")
    assert page.locator("#table table tbody tr").count() > 10
    assert "bourre compare" in page.inner_text("#reproduce")
    page.close()


def test_sweep_report_renders_its_curves_without_the_network(
    sweep_report: Path, browser: Any
) -> None:
    from bourre.sim.sweeps.points import METRICS

    page, _, captions = _open(browser, sweep_report)
    assert len(captions) == 2  # one curve per --metric
    assert captions[0].startswith(METRICS["pot"].text(50).capitalize())
    assert all("19 times in 20" in c for c in captions)
    summary = page.inner_text("#summary")
    assert summary.count("Dealing is worth") == 3  # each point in plain words
    assert page.locator("#table table tbody tr").count() == 3  # a row per point
    assert "±0.0" not in page.inner_text("#table")
    assert "bourre sweep" in page.inner_text("#reproduce")
    page.close()
