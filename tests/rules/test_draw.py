"""The standard deal and draw give what their definitions say (R-DEAL, R-DRAW)."""

from __future__ import annotations

import random

from bourre_variants.standard.deal import StandardDeal


def _reference(deck: list[int], hand_size: int, dealer: int, n: int) -> object:
    m = hand_size * n
    hands = [sorted(deck[(s - dealer - 1) % n : m : n]) for s in range(n)]
    return hands, deck[m - 1], deck[m:]


def test_the_deal_is_card_i_to_seat_dealer_plus_1_plus_i() -> None:
    rng = random.Random(7)
    for hand_size, n in ((5, 5), (5, 8), (4, 6), (5, 2)):
        for _ in range(50):
            deck = list(range(52))
            rng.shuffle(deck)
            dealer = rng.randrange(n)
            assert StandardDeal(hand_size).deal(tuple(deck), dealer, n) == _reference(
                deck, hand_size, dealer, n
            )


def test_the_draw_replaces_the_discards_with_the_top_of_the_stock() -> None:
    from bourre.rules.hand import HandState
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
    from bourre.rules.hand import HandState
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
