"""The pytest plugin of the conformance kit (the ``pytest11`` entry point ``bourre``).

Installed with bourre, it gives every test suite the fixture ``bourre_conformance``,
the option ``--bourre-sessions N`` (sessions per table size; more for a longer run)
and ``--bourre-seed SEED`` (replay a run whose failure printed its seed; by default
each run draws a fresh one, :func:`bourre.testing.run_seed`)::

    def test_my_variant_conforms(bourre_conformance):
        report = bourre_conformance.variant("my-variant")
        assert "R-MY-RULE" in report.cited

The checks themselves are :func:`bourre.testing.check_variant` and
:func:`bourre.testing.check_bot`; this module imports them only when a test asks.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from bourre.testing.report import Report


class Conformance:
    """The kit bound to this run's options: ``variant(name)`` and ``bot(name)``."""

    def __init__(self, sessions: int | None, seed: str | None = None) -> None:
        self.sessions, self.seed = sessions, seed

    def _kw(self, kw: dict[str, Any]) -> dict[str, Any]:
        if self.sessions is not None:
            kw.setdefault("sessions", self.sessions)
        if self.seed is not None:
            kw.setdefault("seed", self.seed)
        return kw

    def variant(self, name: str, **kw: Any) -> Report:
        """:func:`bourre.testing.check_variant` (raises on any failure)."""
        # lazy: pytest loads this plugin in every session; the checks load the game when used
        from bourre.testing.checks import check_variant

        return check_variant(name, **self._kw(kw))

    def bot(self, name: str, **kw: Any) -> Report:
        """:func:`bourre.testing.check_bot` (raises on any failure)."""
        # lazy: pytest loads this plugin in every session; the checks load the game when used
        from bourre.testing.checks import check_bot

        return check_bot(name, **self._kw(kw))


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("bourre", "bourre's conformance kit")
    group.addoption(
        "--bourre-sessions",
        type=int,
        default=None,
        help="sessions the conformance kit plays per house and table size (default 2)",
    )
    group.addoption(
        "--bourre-seed",
        default=None,
        help="the conformance kit's seed, to reproduce a failed run (default: a fresh one)",
    )


@pytest.fixture
def bourre_conformance(request: pytest.FixtureRequest) -> Conformance:
    """The conformance kit: ``bourre_conformance.variant("split-pot")``."""
    sessions = request.config.getoption("--bourre-sessions")
    seed = request.config.getoption("--bourre-seed")
    return Conformance(
        sessions if isinstance(sessions, int) else None, seed if isinstance(seed, str) else None
    )
