"""The standard draw (``bourre_variants.standard.draw``): R-DRAW and R-RESHUFFLE, as its
definition says, on the pure component and through ``bourre.referee.replay``."""

from __future__ import annotations

import random
from typing import Any

import pytest
from conftest import (
    ALL_CARDS,
    complete,
    dealt_hands,
    decisions,
    hand_2111,
    make_hand,
    make_script,
    normalize,
    play_at,
    reference,
    run,
    script_deck,
)

from bourre.game.observation import Observation
from bourre.game.simulate import play_session
from bourre.houses.house import House
from bourre.rules import RuleViolation
from bourre.rules.cards import card_str
from bourre.rules.hand import HandState
from bourre_variants.standard.draw import Draw
from rules.helpers import Scripted, _play_one, agree, refused, state_for


def test_the_draw_replaces_the_discards_with_the_top_of_the_stock() -> None:
    from bourre_variants.standard.draw import Draw

    rng = random.Random(11)
    for hand_size in (5, 4, 6):
        for _ in range(100):
            deck = list(range(52))
            rng.shuffle(deck)
            n = 4
            hands = [sorted(deck[s * hand_size : (s + 1) * hand_size]) for s in range(n)]
            stock = deck[n * hand_size :]
            hs = HandState(
                number=1, n=n, hand_size=hand_size, dealer=0, hands=hands,
                upcard=hands[0][0], stock=list(stock), pot=0,
            )  # fmt: skip
            seat = rng.randrange(n)
            before = list(hands[seat])
            discards = tuple(rng.sample(before, rng.randrange(hand_size + 1)))
            Draw(hand_size).draw(hs, seat, discards)
            k = len(discards)
            kept = [c for c in before if c not in discards]
            assert hs.hands[seat] == sorted(kept + stock[:k])
            assert hs.stock == stock[k:]
            assert hs.pile == list(discards) == hs.discards[seat]
            assert hs.known_to(seat) == frozenset(discards)


def test_the_draw_refuses_as_its_check_does_and_changes_nothing() -> None:
    import pytest

    from bourre.rules import RuleViolation
    from bourre_variants.standard.draw import Draw

    rng = random.Random(5)
    draw = Draw(5)
    for _ in range(300):
        deck = list(range(52))
        rng.shuffle(deck)
        hands = [sorted(deck[s * 5 : (s + 1) * 5]) for s in range(3)]
        hs = HandState(
            number=1, n=3, hand_size=5, dealer=0, hands=hands, upcard=hands[0][0],
            stock=deck[15:], pot=0,
        )  # fmt: skip
        pool: list[object] = [*hands[1], *rng.sample(deck, 3), -1, 52, "x", 2.0]
        discards = tuple(rng.choice(pool) for _ in range(rng.randrange(1, 7)))
        try:
            draw.check(hs, 1, discards)  # type: ignore[arg-type]
        except RuleViolation as e:
            with pytest.raises(RuleViolation) as got:
                draw.draw(hs, 1, discards)  # type: ignore[arg-type]
            assert (got.value.rule, str(got.value)) == (e.rule, str(e))
            assert hs.hands[1] == sorted(deck[5:10]) and hs.stock == deck[15:]
            assert hs.pile == [] and hs.discards == [[], [], []]
        else:
            draw.draw(hs, 1, discards)  # type: ignore[arg-type]
            assert len(hs.hands[1]) == 5


# =========================================================================== R-DRAW


def test_R_DRAW_replacements_from_the_top_in_turn():
    deck = script_deck({}, 0, 5, stock_first="AS KS QS JS TS 9S")
    dealt = dealt_hands(deck, 0, 5)
    d1, d2 = dealt[1][:2], dealt[2][1:4]
    script = make_script(
        [
            make_hand(
                deck,
                decisions(0, 5, {1: ("play", " ".join(d1)), 2: ("play", " ".join(d2)), 3: "play"}),
            )
        ]
    )
    rec = run(complete(script))
    after = rec["hands"][0]["hands_after_draw"]
    assert set(after[1]) == set(dealt[1][2:]) | {"AS", "KS"}
    assert set(after[2]) == {dealt[2][0], dealt[2][4], "QS", "JS", "TS"}
    assert set(after[3]) == set(dealt[3])  # standing pat


def test_R_DRAW_pure_exchange_and_limits():
    st = state_for(ALL_CARDS, 0, 5)
    draw = Draw(5)
    stock_top = list(st.stock[:5])
    old = list(st.hands[1])
    draw.draw(st, 1, old)  # all five
    assert sorted(st.hands[1]) == sorted(stock_top)
    assert st.pile == old and st.discards[1] == old
    st.places()
    with pytest.raises(RuleViolation) as info:
        draw.draw(st, 2, st.hands[2] + [st.hands[3][0]])
    assert info.value.rule == "R-DRAW"
    with pytest.raises(RuleViolation) as info:
        draw.draw(st, 2, [st.hands[2][0], st.hands[2][0]])
    assert info.value.rule == "R-DRAW"
    with pytest.raises(RuleViolation) as info:
        draw.draw(st, 2, [st.hands[3][0]])
    assert info.value.rule == "R-DRAW"
    before = list(st.hands[2])
    draw.draw(st, 2, [])
    assert st.hands[2] == before


def test_R_DRAW_refused_in_scripts():
    hand = hand_2111()
    dealt = dealt_hands(hand["deck"], 0, 5)
    hand["decisions"][0] = {"seat": 1, "action": "play", "discard": [dealt[2][0]]}
    refused(make_script([hand]), "hand 1, decision 1", "R-DRAW")
    hand = hand_2111()
    hand["decisions"][0] = {"seat": 1, "action": "play", "discard": dealt[1] + [dealt[0][0]]}
    refused(make_script([hand]), "hand 1, decision 1", "R-DRAW")


def test_R_DRAW_five_players_stock_always_suffices():
    deck = list(ALL_CARDS)
    dealt = dealt_hands(deck, 0, 5)
    decs = decisions(0, 5, {s: ("play", " ".join(dealt[s])) for s in range(5)})
    rec = run(complete(make_script([make_hand(deck, decs)])))
    h = rec["hands"][0]
    seen = [c for hd in h["hands_after_draw"] for c in hd]
    assert len(set(seen)) == 25
    assert not set(seen) & {c for hd in dealt for c in hd}  # nobody got a discard back
    assert set(seen) == set(ALL_CARDS[25:50])


# ====================================================================== R-RESHUFFLE


def reshuffle_script():
    """8 players, dealer 0; seats 1, 2 exchange 5, seat 3 exchanges 4 (the stock of 12
    runs out: first reshuffle of seats 1-2's discards), seat 4 exchanges 5, seat 5
    exchanges 5 (second reshuffle of seats 3-4's discards); 6 and 7 pass."""
    import random

    deck = list(ALL_CARDS)
    random.Random(8).shuffle(deck)
    dealt = dealt_hands(deck, 0, 8)
    spec = {
        1: ("play", " ".join(dealt[1])),
        2: ("play", " ".join(dealt[2])),
        3: ("play", " ".join(dealt[3][:4])),
        4: ("play", " ".join(dealt[4])),
        5: ("play", " ".join(dealt[5])),
        0: "play",
    }
    script = make_script([make_hand(deck, decisions(0, 8, spec))], players=8)
    return complete(script), deck, dealt


def test_R_RESHUFFLE_at_8_players_twice():
    script, deck, d = reshuffle_script()
    stock = deck[40:]
    rec = run(script)
    after = [set(x) for x in rec["hands"][0]["hands_after_draw"]]
    assert after[1] == set(stock[0:5])
    assert after[2] == set(stock[5:10])
    assert after[3] == {d[3][4], *stock[10:12], *d[1][0:2]}  # first reshuffle: 1's and 2's
    assert after[4] == {*d[1][2:5], *d[2][0:2]}
    assert after[5] == {*d[2][2:5], *d[3][0:2]}  # second reshuffle: 3's and 4's
    assert after[0] == set(d[0])
    assert after[6] == set() and after[7] == set()
    # never one's own discards back; folded hands are never reused
    assert not after[5] & set(d[5]) and not after[3] & set(d[3][:4]) and not after[4] & set(d[4])
    for s in range(8):
        assert not after[s] & (set(d[6]) | set(d[7]))
    assert normalize(rec) == reference(script)


def test_R_RESHUFFLE_pure_draw_keeps_every_card_in_one_place():
    import random

    deck = list(ALL_CARDS)
    random.Random(8).shuffle(deck)
    st = state_for(deck, 0, 8)
    draw = Draw(5)
    d = [list(h) for h in st.hands]
    for s, k in ((1, 5), (2, 5), (3, 4), (4, 5), (5, 5)):
        draw.draw(st, s, d[s][:k])
        st.places()
    assert len(st.reshuffles) == 2
    assert sorted(st.reshuffles[0]) == sorted(d[1] + d[2])
    assert sorted(st.reshuffles[1]) == sorted(d[3][:4] + d[4])
    assert st.pile == d[5] and st.discards[5] == d[5]
    assert st.discards[1] == [] and st.discards[3] == []  # returned to a stock
    assert st.known_to(3) == frozenset() and st.known_to(5) != frozenset()
    assert not set(st.hands[5]) & set(d[5])


def test_R_RESHUFFLE_own_discards_returned_no_longer_count_for_the_cinch():
    """Seat 1 (trump S) holds AS KS QS and discards 2H KS: with 5 players KS stays in
    its own discards and AS QS JS are masters (cinch); at 8 players the stock runs out
    at seat 4, the discards go back to a stock, and KS no longer counts."""
    for n, expect in ((5, True), (8, False)):
        hands = {1: "AS KS QS 2H 3H", 0: "2C 3C 4C 5C 9S"}
        deck = script_deck(hands, 0, n, stock_first="JS 8C")
        dealt = dealt_hands(deck, 0, n)
        spec = {1: ("play", "2H KS"), 2: "play", 0: "play"}
        if n == 8:
            spec = {
                1: ("play", "2H KS"),
                2: ("play", " ".join(dealt[2])),
                3: ("play", " ".join(dealt[3])),
                4: ("play", dealt[4][0]),
                0: "play",
            }
        script = complete(make_script([make_hand(deck, decisions(0, n, spec))], players=n))
        rec = run(script)
        first = play_at(rec, 0, 0)
        assert first["seat"] == 1 and first["cinch"] is expect
        if expect:
            assert set(first["legal"]) == {"AS", "QS", "JS"}
        else:
            assert set(first["legal"]) == {"AS", "QS", "JS", "3H", "8C"}
            assert "2H" in rec["hands"][0]["hands_after_draw"][4]
        assert normalize(rec) == reference(script)


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
    decs = decisions(
        0,
        8,
        {
            1: ("play", " ".join(d1)),
            2: ("play", " ".join(d2)),
            3: ("play", " ".join(d3)),
            4: ("play", " ".join(d4)),
            5: ("play", " ".join(d5)),
            0: "play",
        },
    )
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
    bots = [
        Scripted(s, by_seat[s]["action"] == "play", by_seat[s].get("discard", ())) for s in range(8)
    ]
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
