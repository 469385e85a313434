"""Money as a player reads it (:func:`bourre.rules.money.decimal`, ``chips``): decimals
to the hundredth of a chip, while the files keep amounts exact (``amount_json``)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from bourre.rules.money import amount_json, chips, decimal


@pytest.mark.parametrize(
    ("amount", "shown"),
    [
        (5, "5"),
        (Fraction(10, 2), "5"),
        (Fraction(434, 5), "86.8"),  # R-SETTLE's share, as `bourre play` printed it: 434/5
        (Fraction(100, 3), "33.33"),
        (Fraction(2, 3), "0.67"),
        (Fraction(-7, 5), "-1.4"),
        (Fraction(1, 200), "0.01"),  # half a cent rounds up
        (Fraction(-1, 300), "-1/300"),  # less than half a cent, not nothing: exact
        (Fraction(-301, 3), "-100.33"),
    ],
)
def test_decimals(amount: int | Fraction, shown: str) -> None:
    assert decimal(amount) == shown


def test_chips_in_words_and_the_files_exact() -> None:
    assert chips(1) == "1 chip" and chips(5) == "5 chips"
    assert chips(Fraction(7, 5)) == "1.4 chips"
    assert amount_json(Fraction(434, 5)) == "434/5"  # the file form is unchanged
