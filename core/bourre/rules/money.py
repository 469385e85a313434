"""Money: amounts are ``int`` when whole and exact :class:`~fractions.Fraction`
otherwise; in files, a JSON integer or a ``"p/q"`` string."""

from __future__ import annotations

import re
from fractions import Fraction
from typing import Annotated, Any

from pydantic import BeforeValidator, PlainSerializer, WithJsonSchema

Amount = int | Fraction
"""Money: whole amounts stay ``int``; fractions stay exact."""


def whole(x: Amount) -> Amount:
    """An amount as ``int`` when whole."""
    if isinstance(x, Fraction) and x.denominator == 1:
        return int(x)
    return x


MAX_AMOUNT = 10**15
"""The largest amount (in chips) and the largest denominator a file may give."""

_AMOUNT_TEXT = re.compile(r"^\s*-?[0-9]{1,16}(\s*/\s*[0-9]{1,16})?\s*$")  # ASCII: not "²"


def _bounded(x: Amount) -> Amount:
    den = x.denominator if isinstance(x, Fraction) else 1
    if x > MAX_AMOUNT or x < -MAX_AMOUNT or den > MAX_AMOUNT:
        raise ValueError(f"{amount_json(x)!r} is out of range: amounts up to {MAX_AMOUNT:,}")
    return x


def parse_amount(v: Any) -> Amount:
    """An amount from JSON/TOML: an integer, or a string ``"p/q"`` (or ``"p"``), at most
    :data:`MAX_AMOUNT` in size."""
    if isinstance(v, bool):
        raise ValueError('an amount is a whole number of chips, or a fraction such as "5/2"')
    if isinstance(v, int):
        return _bounded(v)
    if isinstance(v, Fraction):
        return _bounded(whole(v))
    if isinstance(v, float) and v.is_integer() and abs(v) <= MAX_AMOUNT:
        return int(v)
    if isinstance(v, str) and _AMOUNT_TEXT.match(v):
        try:
            return _bounded(whole(Fraction(v.replace(" ", ""))))
        except ZeroDivisionError:
            pass
    raise ValueError(
        f'{v!r} is not an amount: a whole number of chips, or a fraction such as "5/2"'
    )


def amount_json(x: Amount) -> int | str:
    """An amount as JSON: an integer when whole, else ``"p/q"``."""
    x = whole(x)
    if isinstance(x, Fraction):
        return f"{x.numerator}/{x.denominator}"
    return int(x)


AmountField = Annotated[
    Amount,
    BeforeValidator(parse_amount),
    PlainSerializer(amount_json),
    WithJsonSchema(
        {
            "anyOf": [{"type": "integer"}, {"type": "string", "pattern": r"^-?\d+(/\d+)?$"}],
            "description": "An amount: an integer, or an exact fraction 'p/q'.",
        }
    ),
]
"""A pydantic field type for amounts (parses and prints the file form)."""


def amount_str(x: Amount) -> str:
    """An amount as players write it: ``5``, ``7/5``."""
    return str(amount_json(x))


def decimal(x: Amount) -> str:
    """An amount as a player reads it, in decimals: ``5``, ``86.8`` (434/5), ``33.33``
    (100/3, rounded to the hundredth: a cent of a chip; less than half a cent exact,
    ``1/1000``); the files keep it exact
    (:func:`amount_json`)."""
    x = whole(x)
    if isinstance(x, int):
        return str(x)
    cents = (abs(x) * 100 + Fraction(1, 2)).__floor__()  # half a cent rounds up
    if not cents:  # less than half a cent, not nothing: exact (``1/1000``)
        return str(x)
    units, rest = divmod(cents, 100)
    sign = "-" if x < 0 and cents else ""
    return f"{sign}{units}" + (f".{rest:02d}".rstrip("0") if rest else "")


def chips(x: Amount) -> str:
    """An amount in the players' words, in decimals (:func:`decimal`): ``1 chip``,
    ``5 chips``, ``1.4 chips``."""
    text = decimal(x)
    return f"{text} chip" if text == "1" else f"{text} chips"
