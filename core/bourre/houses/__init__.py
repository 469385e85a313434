"""House rules read and resolved: a house-rules file (``docs/house-rules.md``)::

    [table]
    players = 5
    [variants]
    use = ["standard", "pot-limit"]
    pot-limit = {limit = 10}

or a house string that says the same on one line (like OpenSpiel's game strings)::

    standard+pot-limit(limit=10)+table(players=7)

read into frozen pydantic models (:mod:`~bourre.houses.models`; the table's settings
are the rules' own, :class:`bourre.rules.settings.TableSettings`), then resolved by
:class:`~bourre.houses.house.House` into the rules the game runs, each variant's
settings validated by its own model.

Where each part lives: files (:mod:`~bourre.houses.files`, read by
:mod:`~bourre.houses.textfile`), strict JSON (:mod:`~bourre.houses.strictjson`), the
``name(key=value, …)`` syntax (:mod:`~bourre.houses.callsyntax`), house strings
(:mod:`~bourre.houses.strings`), the line of a key (:mod:`~bourre.houses.locate`),
readable validation errors (:mod:`~bourre.houses.validation`) and a house's rules in
words (:mod:`~bourre.houses.text`).  Layers: the game over the houses over the rules.
"""

from __future__ import annotations

from bourre.houses.callsyntax import MAX_NUMBER, parse_calls, split_top
from bourre.houses.files import load_house
from bourre.houses.house import House, Rules
from bourre.houses.models import HouseError, HouseRules, VariantSection, house_from_data
from bourre.houses.strictjson import load_json, unique_keys
from bourre.houses.strings import MAX_HOUSE, format_house_string, parse_house_string
from bourre.houses.validation import allowed_keys, validation_message

__all__ = [
    "MAX_HOUSE",
    "MAX_NUMBER",
    "House",
    "HouseError",
    "HouseRules",
    "Rules",
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
