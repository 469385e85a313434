"""Every refusal and every reason cites a rule the house lists: the legal sets, the
refusals of cards, passes and discards, and the payouts of every built-in house are
asked, at every step of random sessions, for a rule id that ``bourre rules`` prints
for that house.  And the citations that used to be wrong, each pinned."""

from __future__ import annotations

import itertools
import random

import pytest
from conftest import ALTERNATIVES, H, T
from typer.testing import CliRunner

from bourre.cli import app
from bourre.game.actions import PASS, discard
from bourre.game.players import make_bot
from bourre.game.state import State
from bourre.houses.house import House
from bourre.referee.check import check_card
from bourre.rules import RuleViolation

SPADES = 0

HOUSES = [
    "standard",
    *ALTERNATIVES,
    *("+".join(pair) for pair in itertools.combinations(ALTERNATIVES, 2)),
    "standard+table(players=8)",
    "four-card+table(players=2)",
]


def listed(house: House) -> set[str]:
    """The rule ids ``bourre rules`` prints for ``house``."""
    return {rid for _, _, (rid, _) in house.rule_texts()}


def _refusals(state: State) -> list[RuleViolation]:
    """What the player to act would be told for each thing it may not do now: every
    held card that is not legal, a pass the rules forbid, a discard of too many."""
    out = []
    seat = state.current_player()
    if state.phase_name == "play":
        legal = state.legal_with_reasons()
        out += [legal.refusal(c) for c in state.hand.hands[seat] if c not in legal.cards]
    elif state.phase_name == "decide" and PASS not in state.legal_actions():
        out.append(state.why_not(PASS))
    elif state.phase_name == "exchange":
        too_many = tuple(state.hand.hands[seat]) + (99,)
        out.append(state.why_not(discard(too_many)))
    return [e for e in out if e is not None]


@pytest.mark.parametrize("spec", HOUSES)
def test_every_reason_and_refusal_cites_a_rule_the_house_lists(spec: str) -> None:
    house = House(spec)
    ids = listed(house)
    cited: set[str] = set()
    for seed in range(6):
        state = State(house, seed=f"citations:{seed}", record=True)
        bots = [make_bot("random", random.Random(seed * 10 + s)) for s in range(state.n)]
        while not state.is_terminal():
            if state.phase_name == "play":
                for rule in state.legal_with_reasons().rules:
                    assert rule in ids, f"{spec}: the legal set cites {rule}, not listed"
                    cited.add(rule)
            for e in _refusals(state):
                assert e.rule in ids, f"{spec}: a refusal cites {e.rule}, not listed: {e}"
                cited.add(e.rule)
            state.apply_action(bots[state.current_player()].choose(state.legal_actions()))
        for result in state.results:
            for why in result.outcome.reasons:
                assert why.rule in ids, f"{spec}: the payout cites {why.rule}, not listed"
                cited.add(why.rule)
    assert {"R-WIN", "R-DRAW"} <= cited  # the sessions reached payouts and refusals


def test_optional_undertrump_refuses_in_its_own_rule() -> None:
    """``check --house optional-undertrump --trump S --hand "QS 3C" --trick "5H 8S"``:
    3♣ is refused under R-OPTIONAL-UNDERTRUMP (the house's rule), never R-TRUMP with
    the under-trump obligation the house removes."""
    ruling = check_card(House("optional-undertrump"), H("QS 3C"), T("5H 8S"), trump=SPADES)
    assert [(r.rule, "under-trump" in r.reason) for r in ruling.refused] == [
        ("R-OPTIONAL-UNDERTRUMP", False)
    ]
    assert ruling.rules == ("R-OPTIONAL-UNDERTRUMP",)
    # unable to beat the trump on the trick: any card, and the reason says so
    free = check_card(House("optional-undertrump"), H("3S 3C"), T("5H 8S"), trump=SPADES)
    assert free.rules == ("R-OPTIONAL-UNDERTRUMP",) and not free.refused


def test_the_last_player_with_a_cinch_is_told_r_cinch_last() -> None:
    """``check --last`` with a cinch: the answer cites R-CINCH-LAST (the cinch adds
    nothing for the last player), after the ordinary rule that decided the cards."""
    ruling = check_card(
        House("standard"), H("AS KS QS 2C"), T("3H 5S"), trump=SPADES, won=0, last=True
    )
    assert ruling.cinch and ruling.rules == ("R-TRUMP", "R-CINCH-LAST")
    assert set(ruling.legal) == set(H("AS KS QS"))
    code = CliRunner().invoke(
        app,
        ["check", "--trump", "S", "--hand", "AS KS QS 2C", "--trick", "3H 5S", "--last", "--json"],
    )
    assert code.exit_code == 0 and '"R-CINCH-LAST"' in code.stdout


def test_a_bourre_who_reneged_pays_both_each_cited() -> None:
    """A player both bourré and reneging pays twice (RULES.md): the payout gives one
    reason for each payment, R-BOURRE and R-RENEGE, and one for the lost deal."""
    from bourre.rules import PlayResult
    from bourre_variants.standard.payout import full_pot, payout

    out = payout(PlayResult(3, 6, [0, 1, 2], [0, 3, 2], {0}, [0], False), full_pot)
    mine = [(r.rule, r.amount) for r in out.reasons if r.seats == (0,)]
    assert ("R-BOURRE", 6) in mine and ("R-RENEGE", 6) in mine and ("R-RENEGE", 0) in mine
    assert out.paid[0] == 12 and out.winner == 1
    assert out.reasons[0].rule == "R-WIN"
