"""The built-in variants (RULES.md §3), rule by rule, and golden transcripts per variant.

Each test is named by variant and rule id.  Expected values are worked out from
RULES.md (in the docstrings) and, where a script is refereed, also checked against
the independent reference referee (``tests/reference``), never against bourre itself.

Golden transcripts: ``tests/golden/variants/<name>.script.json`` and
``<name>.record.json``; the record was produced by the reference referee.  Regenerate
them (after a deliberate change of the reference) with::

    python tests/referee/test_variant_goldens.py
"""

from __future__ import annotations

import copy
import json
import random
import sys
from collections.abc import Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
for p in (str(ROOT), str(ROOT / "tests")):
    if p not in sys.path:  # `python tests/referee/test_variant_goldens.py`, `pytest` alike
        sys.path.insert(0, p)

from conftest import (  # noqa: E402
    C,
    M,
    S,
    T,
    complete,
    dealt_hands,
    decisions,
    hand_renege,
    hand_tie,
    hand_two_bourre,
    make_hand,
    make_script,
    normalize,
    plays,
    reference,
    run,
    script_deck,
)

from bourre.game.actions import PASS, PLAY, Deck  # noqa: E402
from bourre.game.observation import Observation  # noqa: E402
from bourre.game.players import play_out  # noqa: E402
from bourre.game.simulate import play_session  # noqa: E402
from bourre.game.state import HandResult, State  # noqa: E402
from bourre.referee import ScriptError  # noqa: E402
from bourre.rules import PlayResult, RuleViolation  # noqa: E402
from bourre.rules.cards import card_str  # noqa: E402
from bourre.rules.hookspec import ANTE, CINCH, DEAL, DECISIONS, FOLLOW, PAYOUT, PENALTY  # noqa: E402
from bourre.rules.house import House  # noqa: E402
from bourre_variants.standard.obligations import follow  # noqa: E402

GOLDEN_DIR = ROOT / "tests" / "golden" / "variants"
SPADES = 0


def deck_ints(deck: Sequence[str]) -> list[int]:
    return [C(c) for c in deck]


class Scripted:
    """A bot with fixed answers: ``play`` (bool or {seat: bool}), discards per seat;
    plays the first legal card.  Records what it saw when deciding."""

    def __init__(self, seat: int, play: bool = True, discard: Sequence[str] = (), log: list | None = None):
        self.seat, self.answer, self.to_discard = seat, play, [C(c) for c in discard]
        self.log = log if log is not None else []
        self.discarded = False

    def decide(self, view: Observation) -> bool:
        self.log.append(
            {"seat": view.seat, "decisions": view.decisions, "active": view.active,
             "stock": view.stock_size, "forced": view.forced}
        )
        return self.answer

    def discard(self, view: Observation) -> list[int]:
        self.discarded = True
        return list(self.to_discard)

    def play(self, view: Observation) -> int:
        return view.legal[0]


class Heavy:
    """Always plays and exchanges the whole hand (makes the stock run out)."""

    def __init__(self, rng: Any = None) -> None:
        pass

    def decide(self, view: Observation) -> bool:
        return True

    def discard(self, view: Observation) -> list[int]:
        return list(view.hand)

    def play(self, view: Observation) -> int:
        return view.legal[0]


def agree(script: dict[str, Any]) -> dict[str, Any]:
    """bourre's record of ``script``, checked equal to the reference referee's."""
    got = normalize(run(script))
    assert got == reference(script)
    return got


# =============================================================================== double-ante


def test_double_ante_forced_dealer_adds_second_ante() -> None:
    """R-DOUBLE-ANTE with R-LAST-STANDS: 3 players ante 1 (pot 3); both others pass,
    the dealer is forced in and adds a second ante: P = 4; he takes it (R-SOLE)."""
    deck = script_deck({}, 0, 3)
    script = make_script([make_hand(deck, decisions(0, 3, {0: "play"}))], players=3,
                         variants=["double-ante"])
    rec = agree(script)
    h = rec["hands"][0]
    assert h["pot_at_stake"] == 4 and h["winner"] == 0 and h["active"] == [0]
    assert h["balances"] == [102, 99, 99]


def test_double_ante_no_exemptions_and_p_includes_second_antes() -> None:
    """Hand 1 (hand_tie): everyone antes 1 (5), the four players add 1 each: P = 9.
    A and B tie (P carries), D is bourré and pays 9: next pot 18.  Hand 2: no
    exemptions, all five ante again and the sole dealer adds 1: P = 18 + 5 + 1 = 24.
    Under the standard, A, B and D would skip the ante: P = 10 + 2 = 12."""
    hands = [hand_tie(0), make_hand(script_deck({}, 1, 5), decisions(1, 5, {1: "play"}))]
    rec = agree(make_script(copy.deepcopy(hands), variants=["double-ante"]))
    h1, h2 = rec["hands"]
    assert h1["pot_at_stake"] == 9 and h1["winner"] is None and h1["bourre"] == [4]
    assert h1["balances"] == [99, 98, 98, 98, 89] and h1["pot_after"] == 18
    assert h2["dealer"] == 1 and h2["pot_at_stake"] == 24
    assert h2["balances"] == [98, 97 - 1 + 24, 97, 97, 88]
    std = agree(make_script(copy.deepcopy(hands)))
    assert std["hands"][0]["pot_at_stake"] == 5
    assert std["hands"][1]["pot_at_stake"] == 10 + 2


@pytest.mark.parametrize("spec", ["double-ante", "double-ante+table(players=7,ante=2)",
                                  'double-ante+table(players=3,ante="1/2")'])
def test_double_ante_every_hand_with_bots(spec: str) -> None:
    """R-DOUBLE-ANTE: every hand, every seat antes; P = carried pot + n antes + one
    more ante per active player (the forced dealer included)."""
    house = House(spec)
    n, ante = house.table.players, house.table.ante
    for seed in range(4):
        res = play_session(house, seed=seed)
        pot = 0
        for hand in res.hands:
            assert hand.antes == [ante] * n
            assert hand.pot_at_stake == pot + n * ante + len(hand.state.active) * ante
            pot = hand.outcome.pot_after
        assert sum(res.final) == n * house.table.balance


def test_double_ante_is_only_the_ante_hook() -> None:
    house = House("double-ante")
    assert {h for h, v in house.answered_by.items() if v.name == "double-ante"} == {"bourre_ante"}
    assert house.rules[ANTE].play_ante(3) == 3
    assert House("standard").rules[ANTE].play_ante(3) == 0


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
    out = house.rules[PAYOUT](PlayResult(5, 5, [0, 1, 2], [5, 0, 0, 0, 0], {1}, [1], False),
                             house.rules[PENALTY])
    assert out.winner == 0 and out.takes == [5, 0, 0, 0, 0]
    assert out.paid == [0, 6, 3, 0, 0] and out.pot_after == 9


@pytest.mark.parametrize(("limit", "each"), [(2, 2), (5, 5), (10, 5)])
def test_pot_limit_two_bourre_script(limit: int, each: int) -> None:
    """hand_two_bourre: P = 5, A takes it, B and C are bourré and each pay min(5, limit)."""
    script = make_script([hand_two_bourre(0)], variants=["pot-limit"],
                         settings={"pot-limit": {"limit": limit}})
    h = agree(script)["hands"][0]
    assert h["winner"] == 1 and h["bourre"] == [2, 3]
    assert h["pot_after"] == 2 * each
    assert h["balances"] == [99, 104, 99 - each, 99 - each, 99]


def test_pot_limit_renege_script() -> None:
    """hand_renege: B reneges once and is bourré: pays min(P, 2) twice = 4."""
    script = make_script([hand_renege(0)], variants=["pot-limit"], settings={"pot-limit": {"limit": 2}})
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
        script = random_script(random.Random(seed), players=2 + seed % 7, variants=["pot-limit"],
                               settings={"pot-limit": {"limit": limit}}, hands=3)
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


# ================================================================================ four-card


def test_four_card_deal() -> None:
    """R-FOUR-CARD with R-DEAL: 4 cards each, card i to seat (dealer+1+i) mod n, the
    upcard is card 4n-1 (the dealer's 4th), the stock is the other 52 - 4n."""
    house = House("four-card+table(players=6)")
    assert house.rules.hand_size == 4
    deck = list(range(51, -1, -1))
    hands, up, stock = house.rules[DEAL].deal(deck, 2, 6)
    assert all(len(h) == 4 for h in hands)
    assert sorted(hands[3]) == sorted([deck[0], deck[6], deck[12], deck[18]])
    assert up == deck[4 * 6 - 1] and up in hands[2]
    assert stock == deck[24:]


def test_four_card_script_tricks_exchange_and_cinch() -> None:
    """Dealer 0 (upcard 9S: spades trump), 3 players.  Seat 1 holds AS KS QS 2H and
    leads with a cinch (3 masters): legal = AS KS QS (R-CINCH-LEAD, R-EQUIV; a cinch
    is still 3).  Seat 2 exchanges all 4 cards (0–4 exchanged); 4 tricks."""
    deck = script_deck({1: "AS KS QS 2H", 2: "2C 3C 4C 5C", 0: "6C 7C 8C 9S"}, 0, 3, hand_size=4,
                       stock_first="AH KH QH JH")
    script = make_script(
        [make_hand(deck, decisions(0, 3, {1: "play", 2: ("play", "2C 3C 4C 5C"), 0: "play"}))],
        players=3, variants=["four-card"])
    script = complete(script)
    rec = agree(script)
    h = rec["hands"][0]
    assert h["upcard"] == "9S" and deck[4 * 3 - 1] == "9S" and h["trump"] == "S"
    assert len(h["tricks"]) == 4 and sum(h["tricks_won"]) == 4
    assert all(len(c) == 4 for c in h["hands_after_draw"])
    assert sorted(h["hands_after_draw"][2]) == sorted(["AH", "KH", "QH", "JH"])
    first = h["tricks"][0]["plays"][0]
    assert first["seat"] == 1 and first["cinch"] is True
    assert set(first["legal"]) == {"AS", "KS", "QS"}


def test_four_card_exchange_more_than_four_refused() -> None:
    deck = script_deck({}, 0, 3, hand_size=4)
    hands = dealt_hands(deck, 0, 3, hand_size=4)
    bad = hands[1] + ["AS" if "AS" not in hands[1] else "KS"]
    script = make_script([make_hand(deck, [{"seat": 1, "action": "play", "discard": bad}])],
                         players=3, variants=["four-card"])
    with pytest.raises(ScriptError, match="R-DRAW"):
        run(script)


def test_four_card_cinch_is_still_three() -> None:
    cinch = House("four-card").rules[CINCH]
    assert cinch.has_cinch(M("AS KS QS 2H"), SPADES, frozenset(), 0)
    assert not cinch.has_cinch(M("AS KS 2H 3H"), SPADES, frozenset(), 0)
    assert cinch.has_cinch(M("AS 2H"), SPADES, frozenset(), 2)
    assert cinch.has_cinch(M("2H"), SPADES, frozenset(), 3)


@pytest.mark.parametrize("n", range(2, 9))
def test_four_card_sessions(n: int) -> None:
    house = House(f"four-card+table(players={n})")
    res = play_session(house, seed=n)
    for hand in res.hands:
        assert sum(hand.state.won) == 4
        assert len(hand.state.tricks) in (0, 4)
    assert sum(res.final) == 100 * n


# ====================================================================== simultaneous-reveal


def _play_one(spec: str, deck: Sequence[str], bots: list[Any], dealer: int = 0) -> HandResult:
    """One hand of ``spec`` dealt by ``dealer`` from ``deck``, the bots answering
    (an answer the rules forbid raises ``IllegalAnswer``, a ``RuleViolation``)."""
    state = State(House(spec), hands=1, dealer=dealer, record=True)
    state.apply_chance(Deck(tuple(deck_ints(deck))))
    play_out(state, bots)
    assert state.is_terminal() and len(state.results) == 1
    return state.results[0]


def test_simultaneous_decisions_do_not_see_others() -> None:
    """R-SIMULTANEOUS: while anyone decides, no decision is public and nobody has
    exchanged (the stock is whole); under the standard, later players see earlier ones."""
    deck = script_deck({}, 0, 5)
    for spec, blind in (("simultaneous-reveal", True), ("standard", False)):
        log: list[dict[str, Any]] = []
        bots = [Scripted(s, True, dealt_hands(deck, 0, 5)[s][:2], log) for s in range(5)]
        res = _play_one(spec, deck, bots)
        assert [e["seat"] for e in log] == [1, 2, 3, 4, 0]
        if blind:
            assert all(e["decisions"] == () and e["active"] == () for e in log)
            assert all(e["stock"] == 27 for e in log)
        else:
            assert [len(e["decisions"]) for e in log] == [0, 1, 2, 3, 4]
            assert [e["stock"] for e in log] == [27, 25, 23, 21, 19]
        # then the players exchange in turn from the dealer's left
        assert [d.seat for d in res.state.decisions] == [1, 2, 3, 4, 0]
        assert res.state.active == [1, 2, 3, 4, 0]


def test_simultaneous_exchange_order_script() -> None:
    """Seats 1 and 3 play and exchange 2 and 3 cards: seat 1 is served first from the
    top of the stock, then seat 3."""
    deck = script_deck({}, 0, 4, stock_first="AS KS QS JS TS")
    hands = dealt_hands(deck, 0, 4)
    script = make_script(
        [make_hand(deck, decisions(0, 4, {1: ("play", " ".join(hands[1][:2])),
                                          3: ("play", " ".join(hands[3][:3]))}))],
        players=4, variants=["simultaneous-reveal"])
    rec = agree(complete(script))
    after = rec["hands"][0]["hands_after_draw"]
    assert set(after[1]) == set(hands[1][2:]) | {"AS", "KS"}
    assert set(after[3]) == set(hands[3][3:]) | {"QS", "JS", "TS"}


def test_simultaneous_nobody_plays_dealer_forced_in_without_exchange() -> None:
    """R-SIMULTANEOUS-NOBODY: everyone passes; the dealer is forced in, does not
    exchange, and takes the pot (R-SOLE)."""
    deck = script_deck({}, 2, 4)
    script = make_script([make_hand(deck, decisions(2, 4, {}), dealer=2)], players=4,
                         variants=["simultaneous-reveal"])
    h = agree(script)["hands"][0]
    assert h["active"] == [2] and h["winner"] == 2 and h["tricks_won"][2] == 5
    assert set(h["hands_after_draw"][2]) == set(dealt_hands(deck, 2, 4)[2])
    assert h["balances"] == [99, 99, 103, 99]
    # the same with bots: the dealer is never asked to discard
    bots = [Scripted(s, False, ["2C"]) for s in range(4)]
    res = _play_one("simultaneous-reveal+table(players=4)", deck, bots, dealer=2)
    assert res.state.active == [2] and res.outcome.winner == 2
    assert not any(b.discarded for b in bots)
    assert sorted(res.hands_after_draw[2]) == sorted(deck_ints(dealt_hands(deck, 2, 4)[2]))


def test_simultaneous_forced_dealer_may_not_discard() -> None:
    deck = script_deck({}, 0, 3)
    decs = decisions(0, 3, {})
    decs[-1]["discard"] = [dealt_hands(deck, 0, 3)[0][0]]
    with pytest.raises(ScriptError, match="R-PASS"):
        run(make_script([make_hand(deck, decs)], players=3, variants=["simultaneous-reveal"]))


def test_simultaneous_ace_up_dealer_must_play() -> None:
    """R-ACE-UP in every decision mode: with AS up, the dealer must reveal play."""
    deck = script_deck({0: "2C 3C 4C 5C AS"}, 0, 3)
    script = make_script([make_hand(deck, decisions(0, 3, {1: "play"}))], players=3,
                         variants=["simultaneous-reveal"])
    with pytest.raises(ScriptError, match="R-ACE-UP"):
        run(script)
    # bots: the dealer is told, and a pass is refused
    log: list[dict[str, Any]] = []
    bots = [Scripted(s, s != 0, (), log) for s in range(3)]
    with pytest.raises(RuleViolation) as err:
        _play_one("simultaneous-reveal+table(players=3)", deck, bots)
    assert err.value.rule == "R-ACE-UP"
    assert [e["forced"] for e in log if e["seat"] == 0] == ["R-ACE-UP"]
    assert all(e["forced"] is None for e in log if e["seat"] != 0)
    # the game itself offers the dealer only play, and refuses a pass, unchanged
    state = State(House("simultaneous-reveal+table(players=3)"), hands=1)
    state.apply_chance(Deck(tuple(deck_ints(deck))))
    state.apply_action(PLAY)  # seat 1
    state.apply_action(PLAY)  # seat 2
    assert state.current_player() == 0 and state.legal_actions() == [PLAY]
    with pytest.raises(RuleViolation) as err:
        state.apply_action(PASS)
    assert err.value.rule == "R-ACE-UP"
    assert state.current_player() == 0 and state.phase_name == "decide"
    # revealing play is fine, and nobody else playing makes the dealer sole
    ok = make_script([make_hand(deck, decisions(0, 3, {0: "play"}))], players=3,
                     variants=["simultaneous-reveal"])
    assert agree(ok)["hands"][0]["winner"] == 0


def test_simultaneous_premature_events_refused() -> None:
    """No premature announcement can arise (R-SIMULTANEOUS): a script event is refused."""
    deck = script_deck({}, 0, 3)
    script = make_script([make_hand(deck, decisions(0, 3, {0: "play"}), events=[1])], players=3,
                         variants=["simultaneous-reveal"])
    with pytest.raises(ScriptError) as err:
        run(script)
    assert "premature" in str(err.value).lower() and "hand 1, announcements" in str(err.value)
    assert House("simultaneous-reveal").rules[DECISIONS].announcements is False
    assert House("standard").rules[DECISIONS].announcements is True


# ====================================================================== optional-undertrump


@pytest.mark.parametrize(
    ("hand", "trick", "standard", "optional"),
    [
        # unable to beat the trump on the trick: under-trump (standard) or anything (optional)
        ("3S 4C", "QH 5S", "3S", "3S 4C"),
        ("2S 3S 4C 5D", "QH 9S", "2S 3S", "2S 3S 4C 5D"),
        # able to beat it: must still beat it
        ("AS 3S 4C", "QH 5S", "AS", "AS"),
        # no trump on the trick: must trump
        ("3S 9S 4C", "QH", "3S 9S", "3S 9S"),
        # holding the led suit: follow (R-FOLLOW unchanged)
        ("KH 2H AS", "QH 5S", "KH 2H", "KH 2H"),
        ("KH 2H AS", "QH", "KH", "KH"),
        # neither led suit nor trumps: any card
        ("4C 5D", "QH 5S", "4C 5D", "4C 5D"),
        # leading is free
        ("4C 5D AS", "", "4C 5D AS", "4C 5D AS"),
    ],
)
def test_optional_undertrump_follow(hand: str, trick: str, standard: str, optional: str) -> None:
    """R-OPTIONAL-UNDERTRUMP (trump S): only the under-trump obligation changes."""
    std = House("standard").rules[FOLLOW]
    opt = House("optional-undertrump").rules[FOLLOW]
    assert S(std.legal(M(hand), T(trick), SPADES)) == set(standard.split())
    assert S(opt.legal(M(hand), T(trick), SPADES)) == set(optional.split())


def test_optional_undertrump_cinch_still_forces_highest_trump() -> None:
    """R-CINCH-FOLLOW: where a variant makes a trump optional, a cinch still obliges
    the highest trump; the last player only has the ordinary obligations."""
    rules = House("optional-undertrump").rules
    hand, trick = M("5S 4S 2C"), T("3H 9S")
    legal = rules[FOLLOW].legal(hand, trick, SPADES)
    assert S(legal) == {"5S", "4S", "2C"}
    assert rules[CINCH].has_cinch(hand, SPADES, frozenset(), 3)
    assert S(rules[CINCH].narrow(legal, hand, trick, SPADES, frozenset(), False)) == {"5S", "4S"}
    assert S(rules[CINCH].narrow(legal, hand, trick, SPADES, frozenset(), True)) == {"5S", "4S", "2C"}


def test_optional_undertrump_script() -> None:
    """Dealer 0 (upcard 9S), 3 players.  Seat 1 leads 2H, seat 2 (no hearts) trumps KS;
    the dealer, without hearts and unable to beat KS, discards 2C: legal under
    optional-undertrump, a renege under the standard (he had to play 9S)."""
    deck = script_deck({1: "2H 3H 4H 5H 6H", 2: "KS 2D 3D 4D 5D", 0: "2C 3C 4C 5C 9S"}, 0, 3)
    hand = make_hand(deck, decisions(0, 3, {1: "play", 2: "play", 0: "play"}),
                     plays("1:2H 2:KS 0:2C"))
    opt = complete(make_script([copy.deepcopy(hand)], players=3, variants=["optional-undertrump"]))
    rec = agree(opt)
    first = rec["hands"][0]["tricks"][0]["plays"][2]
    assert first["card"] == "2C" and first["renege"] is False
    assert set(first["legal"]) == {"2C", "3C", "4C", "5C", "9S"}
    std = copy.deepcopy(opt)
    std["rules"]["variants"]["use"] = ["standard"]
    rec = agree(std)
    first = rec["hands"][0]["tricks"][0]["plays"][2]
    assert first["renege"] is True and set(first["legal"]) == {"9S"}
    assert rec["hands"][0]["reneges"] == [0]


# ================================================================================= no-cinch


def test_no_cinch_policy() -> None:
    cinch = House("no-cinch").rules[CINCH]
    assert not cinch.has_cinch(M("AS KS QS JS TS"), SPADES, frozenset(), 5)
    hand = M("AS KS 9S 2C")
    legal = follow(hand, (), SPADES)
    assert cinch.narrow(legal, hand, (), SPADES, frozenset(), False) is legal


def test_no_cinch_script() -> None:
    """Seat 1 holds AS KS QS (3 masters): under the standard he must lead a top trump
    with a cinch; under no-cinch he leads 2H freely and no play has a cinch."""
    deck = script_deck({1: "AS KS QS 2H 3H", 0: "2C 3C 4C 5C 9S"}, 0, 3)
    hand = make_hand(deck, decisions(0, 3, {1: "play", 2: "play"}), plays("1:2H"))
    script = complete(make_script([copy.deepcopy(hand)], players=3, variants=["no-cinch"]))
    rec = agree(script)
    plays_ = [p for t in rec["hands"][0]["tricks"] for p in t["plays"]]
    assert not any(p["cinch"] for p in plays_)
    assert set(plays_[0]["legal"]) == {"AS", "KS", "QS", "2H", "3H"}
    assert not any(p["renege"] for p in plays_)
    std = copy.deepcopy(script)
    std["rules"]["variants"]["use"] = ["standard"]
    srec = agree(std)
    first = srec["hands"][0]["tricks"][0]["plays"][0]
    assert first["cinch"] is True and set(first["legal"]) == {"AS", "KS", "QS"}
    assert first["renege"] is True


def test_no_cinch_sessions_never_flag_a_cinch() -> None:
    for seed in range(5):
        res = play_session(House("no-cinch+table(players=3)"), seed=seed, record=True)
        assert all(not p.cinch for h in res.hands for p in h.plays)
    flagged = sum(p.cinch for seed in range(5)
                  for h in play_session(House("standard+table(players=3)"), seed=seed, record=True).hands
                  for p in h.plays)
    assert flagged > 0


# ============================================================================= table sizes


@pytest.mark.parametrize("n", range(2, 9))
def test_table_sizes_sessions(n: int) -> None:
    """2 to 8 players: the first pot is n (R-FIRST-POT), money is conserved, every card
    is in one place at the end of each hand."""
    house = House(f"standard+table(players={n})")
    for seed in range(3):
        res = play_session(house, seed=seed)
        assert res.hands[0].pot_at_stake == n + 0 * seed
        for hand in res.hands:
            hand.state.places()
            assert sum(hand.state.won) == 5
        assert sum(res.final) == 100 * n


def _reshuffle_script() -> tuple[dict[str, Any], list[list[str]], list[str]]:
    """8 players, dealer 0: 40 cards dealt, a stock of 12 (R-DEAL).
    Seat 1 and seat 2 exchange 5 each (stock 12 → 2); seat 3 exchanges 4: 2 from the
    stock, which runs out: seats 1–2's discards form a new stock (first reshuffle), 2
    more from it; seat 4 exchanges 5 (3 left); seat 5 exchanges 5: 3, then seats 3–4's
    discards form a new stock (second reshuffle), 2 more.  Seats 6 and 7 pass; the
    dealer stands pat."""
    deck = script_deck({}, 0, 8)
    dealt = dealt_hands(deck, 0, 8)
    stock = deck[40:]
    d1, d2, d3, d4, d5 = dealt[1], dealt[2], dealt[3][:4], dealt[4], dealt[5]
    decs = decisions(0, 8, {1: ("play", " ".join(d1)), 2: ("play", " ".join(d2)),
                            3: ("play", " ".join(d3)), 4: ("play", " ".join(d4)),
                            5: ("play", " ".join(d5)), 0: "play"})
    script = complete(make_script([make_hand(deck, decs)], players=8))
    return script, dealt, stock


def test_reshuffle_twice_at_eight_players() -> None:
    """R-RESHUFFLE: see _reshuffle_script; a player never gets back their own discards
    of this exchange; folded hands are never reused."""
    script, dealt, stock = _reshuffle_script()
    rec = agree(script)
    after = [set(h) for h in rec["hands"][0]["hands_after_draw"]]
    assert after[1] == set(stock[0:5]) and after[2] == set(stock[5:10])
    assert after[3] == {dealt[3][4], *stock[10:12], *dealt[1][0:2]}
    assert after[4] == {*dealt[1][2:5], *dealt[2][0:2]}
    assert after[5] == {*dealt[2][2:5], *dealt[3][0:2]}
    assert after[0] == set(dealt[0])
    assert after[6] == after[7] == set()
    for s in range(1, 6):  # never one's own discards back
        assert not after[s] & set(dealt[s][: 4 if s == 3 else 5])
    folded = set(dealt[6]) | set(dealt[7])
    assert not folded & set().union(*after)


def test_reshuffle_twice_in_the_engine() -> None:
    script, dealt, _ = _reshuffle_script()
    hand = script["hands"][0]
    by_seat = {d["seat"]: d for d in hand["decisions"]}
    bots = [Scripted(s, by_seat[s]["action"] == "play", by_seat[s].get("discard", ())) for s in range(8)]
    res = _play_one("standard+table(players=8)", hand["deck"], bots)
    assert len(res.state.reshuffles) == 2
    assert [card_str(c) for c in res.state.reshuffles[0]] == dealt[1] + dealt[2]
    assert [card_str(c) for c in res.state.reshuffles[1]] == dealt[3][:4] + dealt[4]
    res.state.places()


def test_reshuffle_with_bots_at_eight_players() -> None:
    """Everyone exchanging everything at 8 players: the stock runs out in every hand,
    twice or more; every card stays in one place; money is conserved."""
    house = House("standard+table(players=8)")
    res = play_session(house, seed=5, players=lambda s, rng: Heavy(rng))
    counts = [len(h.state.reshuffles) for h in res.hands]
    assert min(counts) >= 2
    for h in res.hands:
        h.state.places()
    assert sum(res.final) == 800


def test_no_reshuffle_at_five_players() -> None:
    """With 5 players the stock always suffices (25 + 25 ≤ 52)."""
    res = play_session(House("standard"), seed=1, players=lambda s, rng: Heavy(rng))
    assert all(not h.state.reshuffles for h in res.hands)


# ========================================================================== golden transcripts

# name: (variants, settings, players, hands, required features)
GOLDEN: dict[str, tuple[list[str], dict[str, Any] | None, int, int, set[str]]] = {
    "standard": ([], None, 5, 4, {"cinch", "bourre", "sole", "renege", "corrected", "premature", "carried"}),
    "double-ante": (["double-ante"], None, 5, 4, {"bourre", "sole", "carried"}),
    "pot-limit": (["pot-limit"], {"pot-limit": {"limit": 2}}, 5, 4, {"capped", "renege"}),
    "four-card": (["four-card"], None, 6, 4, {"cinch", "bourre", "four-exchanged"}),
    "simultaneous-reveal": (["simultaneous-reveal"], None, 5, 4, {"nobody-plays", "bourre"}),
    "optional-undertrump": (["optional-undertrump"], None, 4, 4, {"discard-option", "bourre"}),
    "no-cinch": (["no-cinch"], None, 4, 4, {"cinch-elsewhere", "bourre"}),
    "players-2": ([], None, 2, 4, {"bourre"}),
    "players-8": ([], None, 8, 3, {"double-reshuffle"}),
}


def _features(script: dict[str, Any], record: dict[str, Any], stats: dict[str, int]) -> set[str]:
    from tests.reference.referee import referee

    f: set[str] = set()
    limit = ((script["rules"].get("variants") or {}).get("pot-limit") or {}).get("limit")
    for h, hin in zip(record["hands"], script["hands"], strict=True):
        trump = h["trump"]
        if len(h["active"]) == 1:
            f.add("sole")
            if all(d["action"] == "pass" for d in hin["decisions"]):
                f.add("nobody-plays")
        if h["bourre"]:
            f.add("bourre")
        if h["winner"] is None and len(h["active"]) > 1:
            f.add("carried")
        if limit is not None and h["bourre"] and Fraction(h["pot_at_stake"]) > Fraction(limit):
            f.add("capped")
        if hin.get("events"):
            f.add("premature")
        if any(len(d.get("discard", [])) == 4 for d in hin["decisions"]):
            f.add("four-exchanged")
        for t in h["tricks"]:
            cards = []
            for p in t["plays"]:
                f |= {k for k in ("cinch", "renege", "corrected") if p[k]}
                if cards:
                    led = cards[0][1]
                    suits = {c[1] for c in p["legal"]}
                    if led != trump and any(c[1] == trump for c in cards) and trump in suits and suits - {led, trump}:
                        f.add("discard-option")
                cards.append(p["card"])
    if stats.get("double_reshuffles"):
        f.add("double-reshuffle")
    if "no-cinch" in script["rules"]["variants"]["use"]:
        std = copy.deepcopy(script)
        std["rules"]["variants"]["use"] = ["standard"]
        try:
            srec = referee(std)
        except Exception:
            srec = {"hands": []}
        if any(p["cinch"] for h in srec["hands"] for t in h["tricks"] for p in t["plays"]):
            f.add("cinch-elsewhere")
    return f


def _dump(o: Any, ind: int = 0) -> str:
    """Readable JSON: short lists and small objects on one line."""
    pad = "  " * ind
    flat = json.dumps(o, ensure_ascii=False)
    if not isinstance(o, (dict, list)) or len(flat) <= 100 or (
        isinstance(o, list) and all(not isinstance(x, (dict, list)) for x in o)
    ):
        return flat
    if isinstance(o, dict):
        items = [f"{pad}  {json.dumps(k)}: {_dump(v, ind + 1)}" for k, v in o.items()]
        return "{\n" + ",\n".join(items) + f"\n{pad}}}"
    items = [f"{pad}  {_dump(v, ind + 1)}" for v in o]
    return "[\n" + ",\n".join(items) + f"\n{pad}]"


def regenerate(names: Sequence[str] | None = None) -> None:
    """Write the golden scripts and their reference records (the first seed whose
    script shows every required feature)."""
    from tests.reference import generate
    from tests.reference.referee import referee

    GOLDEN_DIR.mkdir(parents=True, exist_ok=True)
    for name in names or GOLDEN:
        variants, settings, players, hands, needed = GOLDEN[name]
        for seed in range(5000):
            before = dict(generate.STATS)
            script = generate.random_script(
                random.Random(f"golden:{name}:{seed}"), players=players, variants=variants,
                settings=settings, hands=hands, illegal_rate=0.05, premature_rate=0.05)
            stats = {k: generate.STATS[k] - before[k] for k in before}
            script = json.loads(json.dumps(script))
            record = referee(copy.deepcopy(script))
            if needed <= _features(script, record, stats):
                break
        else:
            raise RuntimeError(f"no script for {name} shows {needed}")
        (GOLDEN_DIR / f"{name}.script.json").write_text(_dump(script) + "\n", encoding="utf-8")
        (GOLDEN_DIR / f"{name}.record.json").write_text(_dump(record) + "\n", encoding="utf-8")
        print(f"{name}: seed {seed}")


def _load(name: str, kind: str) -> dict[str, Any]:
    return json.loads((GOLDEN_DIR / f"{name}.{kind}.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_golden_transcript(name: str) -> None:
    script, expected = _load(name, "script"), _load(name, "record")
    assert normalize(run(script)) == normalize(expected)


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_golden_is_the_reference_record(name: str) -> None:
    """The stored record is what the reference referee says (not stale) and the
    script shows what it was chosen for."""
    from tests.reference.referee import referee

    script, expected = _load(name, "script"), _load(name, "record")
    assert referee(copy.deepcopy(script)) == expected
    needed = GOLDEN[name][4] - {"double-reshuffle"}
    assert needed <= _features(script, expected, {})
    used = script["rules"]["variants"]["use"]
    assert set(GOLDEN[name][0]) <= set(used)


if __name__ == "__main__":
    regenerate(sys.argv[1:] or None)
