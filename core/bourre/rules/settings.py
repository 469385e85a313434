"""House rules as frozen pydantic models, their files (TOML, JSON) and house strings.

A house-rules file (``docs/house-rules.md``)::

    [table]
    players = 5
    [variants]
    use = ["standard", "pot-limit"]
    pot-limit = {limit = 10}

A house string says the same on one line (like OpenSpiel's game strings)::

    standard+pot-limit(limit=10)+table(players=7)

Variant settings are kept here as given; each variant's own model validates them when
the house is built (:mod:`bourre.rules.house`).

This module gathers them from where they live: the models (:mod:`bourre.rules.housemodels`),
readable validation errors (:mod:`bourre.rules.validation`), files (:mod:`bourre.rules.housefile`),
strict JSON (:mod:`bourre.rules.strictjson`), the ``name(key=value, …)`` syntax
(:mod:`bourre.rules.callsyntax`) and house strings (:mod:`bourre.rules.housestring`).
"""

from __future__ import annotations

from bourre.rules.callsyntax import MAX_NUMBER, parse_calls, split_top
from bourre.rules.housefile import load_house
from bourre.rules.housemodels import (
    HouseError,
    HouseRules,
    TableSettings,
    VariantSection,
    house_from_data,
)
from bourre.rules.housestring import MAX_HOUSE, format_house_string, parse_house_string
from bourre.rules.strictjson import load_json, unique_keys
from bourre.rules.validation import allowed_keys, validation_message

__all__ = [
    "MAX_HOUSE",
    "MAX_NUMBER",
    "HouseError",
    "HouseRules",
    "TableSettings",
    "VariantSection",
    "allowed_keys",
    "format_house_string",
    "house_from_data",
    "load_house",
    "load_json",
    "parse_calls",
    "parse_house_string",
    "split_top",
    "unique_keys",
    "validation_message",
]
