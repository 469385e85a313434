"""Rule hooks are called by pluggy itself (its order, ``firstresult``, hook wrappers);
the house learns from :class:`bourre.witness.Witness` which variant answered."""

from __future__ import annotations

from collections.abc import Generator
from types import SimpleNamespace
from typing import Any

import pytest

from bourre.guards import PluginError
from bourre.house import House
from bourre.plugins import load_registry
from bourre.settings import TableSettings
from bourre.variant import Variant, hookimpl


def _registry(*classes: type[Variant]) -> Any:
    def variants(register: Any) -> None:
        for cls in classes:
            register(cls)

    plugin = SimpleNamespace(bourre_register_variants=hookimpl(variants))
    return load_registry(extra=[("witness-test", plugin)])


class Shorter(Variant):
    """A hook wrapper on a rule hook: one card fewer than the house below deals."""

    name = "shorter"
    builds_on = ("standard",)

    @hookimpl(wrapper=True)
    def bourre_hand_size(self, table: TableSettings) -> Generator[None, int, int]:
        size = yield
        return size - 1


class Six(Variant):
    name = "six"
    builds_on = ("standard",)

    @hookimpl
    def bourre_hand_size(self, table: TableSettings) -> int:
        return 6


class Silent(Variant):
    """Answers nothing (None): pluggy asks the next one."""

    name = "silent"
    builds_on = ("six",)

    @hookimpl
    def bourre_hand_size(self, table: TableSettings) -> int | None:
        return None


class Broken(Variant):
    name = "broken"
    builds_on = ("standard",)

    @hookimpl
    def bourre_hand_size(self, table: TableSettings) -> int:
        raise RuntimeError("no hands today")


def test_the_answer_and_its_variant_come_from_pluggys_own_call() -> None:
    reg = _registry(Six, Silent)
    six = House("standard+six", registry=reg)
    assert six.rules.hand_size == 6 and six.answered_by["bourre_hand_size"].name == "six"
    # a variant that answers None passes the question on, as firstresult does
    silent = House("standard+six+silent", registry=reg)
    assert silent.rules.hand_size == 6
    assert silent.answered_by["bourre_hand_size"].name == "six"
    assert House("standard", registry=reg).answered_by["bourre_hand_size"].name == "standard"


def test_a_hook_wrapper_on_a_rule_hook_is_driven_by_pluggy() -> None:
    house = House("standard+shorter", registry=_registry(Shorter))
    assert house.rules.hand_size == 4
    assert house.answered_by["bourre_hand_size"].name == "shorter"


def test_an_implementation_that_raises_is_named() -> None:
    with pytest.raises(PluginError) as e:
        House("standard+broken", registry=_registry(Broken))
    assert "broken" in str(e.value) and "no hands today" in str(e.value)
    assert "bourre_hand_size" in str(e.value)
