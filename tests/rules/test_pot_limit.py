"""The pot-limit variant (``bourre_variants.pot_limit``): R-POT-LIMIT, a bourré or renege
payment of min(P, limit).  Refereed scripts are also checked against the reference referee."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from conftest import hand_renege, hand_two_bourre, make_script

from bourre.houses.house import House
from bourre.rules import PlayResult
from bourre.rules.hookspec import PAYOUT, PENALTY
from rules.helpers import agree

# ================================================================================ pot-limit


def test_pot_limit_penalty_is_min_p_limit() -> None:
    """R-POT-LIMIT: a bourré or renege payment is min(P, limit)."""
    pen = House("pot-limit(limit=3)").rules[PENALTY]
    assert [pen(p) for p in (1, 2, 3, 5, 100)] == [1, 2, 3, 3, 3]
    assert pen(Fraction(7, 2)) == 3 and pen(Fraction(5, 2)) == Fraction(5, 2)
    assert House("standard").rules[PENALTY](100) == 100


def test_pot_limit_payout_bourre_and_renege() -> None:
    """P = 5, limit 3: seat 1 reneged and is bourré: pays 3 + 3; seat 2 bourré: 3.
    Seat 0 takes 5; the next pot is 9."""
    house = House("pot-limit(limit=3)")
    out = house.rules[PAYOUT](
        PlayResult(5, 5, [0, 1, 2], [5, 0, 0, 0, 0], {1}, [1], False), house.rules[PENALTY]
    )
    assert out.winner == 0 and out.takes == [5, 0, 0, 0, 0]
    assert out.paid == [0, 6, 3, 0, 0] and out.pot_after == 9


@pytest.mark.parametrize(("limit", "each"), [(2, 2), (5, 5), (10, 5)])
def test_pot_limit_two_bourre_script(limit: int, each: int) -> None:
    """hand_two_bourre: P = 5, A takes it, B and C are bourré and each pay min(5, limit)."""
    script = make_script(
        [hand_two_bourre(0)], variants=["pot-limit"], settings={"pot-limit": {"limit": limit}}
    )
    h = agree(script)["hands"][0]
    assert h["winner"] == 1 and h["bourre"] == [2, 3]
    assert h["pot_after"] == 2 * each
    assert h["balances"] == [99, 104, 99 - each, 99 - each, 99]


def test_pot_limit_renege_script() -> None:
    """hand_renege: B reneges once and is bourré: pays min(P, 2) twice = 4."""
    script = make_script(
        [hand_renege(0)], variants=["pot-limit"], settings={"pot-limit": {"limit": 2}}
    )
    h = agree(script)["hands"][0]
    assert h["reneges"] == [1] and h["bourre"] == [1]
    assert h["pot_after"] == 4 and h["balances"][1] == 99 - 4


def test_pot_limit_random_scripts_formula() -> None:
    """Over generated scripts: next pot = (P if it carried) + min(P, limit) per bourré
    seat and per renege."""
    from tests.reference.generate import random_script

    checked = 0
    for seed in range(40):
        limit = [1, 2, 3, 7][seed % 4]
        script = random_script(
            random.Random(seed),
            players=2 + seed % 7,
            variants=["pot-limit"],
            settings={"pot-limit": {"limit": limit}},
            hands=3,
        )
        rec = agree(script)
        for h in rec["hands"]:
            P = Fraction(h["pot_at_stake"])
            carried = P if h["winner"] is None and len(h["active"]) > 1 else 0
            x = min(P, limit)
            assert Fraction(h["pot_after"]) == carried + x * (len(h["bourre"]) + len(h["reneges"]))
            checked += bool(h["bourre"]) and limit < P
    assert checked > 5


def test_pot_limit_fractional_limit() -> None:
    house = House('pot-limit(limit="5/2")')
    assert house.rules[PENALTY](5) == Fraction(5, 2)
