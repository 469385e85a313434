"""What every test of the compiled kernel shares: the kernel's engine whatever the
suite runs with."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _default_engine(monkeypatch: pytest.MonkeyPatch) -> None:
    """These tests are of the kernel: whatever engine the suite runs with
    (``BOURRE_ENGINE=python``), ``Game``'s default here is ``auto``."""
    monkeypatch.delenv("BOURRE_ENGINE", raising=False)
