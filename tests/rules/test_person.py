"""A reason's words said of a seat (:func:`bourre.rules.person.of_seat`): the rule
components write to the player ("you hold hearts"); the referee, speaking of a seat,
turns them to the third person ("it holds hearts") so a ruling reads in one person
(issue 43; R-FOLLOW, R-TRUMP, R-CINCH-LEAD … only quoted)."""

from __future__ import annotations

import random
import re

import pytest

from bourre.rules.person import of_seat
from bourre_variants import optional_undertrump
from bourre_variants.standard.cinch import StandardCinch
from bourre_variants.standard.obligations import follow

YOU = re.compile(r"\byou(r|rs|rself)?\b", re.IGNORECASE)


@pytest.mark.parametrize(
    ("to_player", "of_the_seat"),
    [
        (
            "hearts were led and you hold hearts: play one (7♥)",
            "hearts were led and it holds hearts: play one (7♥)",
        ),
        (
            "holding a higher heart, you must beat it (A♥)",
            "holding a higher heart, it must beat it (A♥)",
        ),
        (
            "without spades you must play one of your hearts (Q♥)",
            "without spades it must play one of its hearts (Q♥)",
        ),
        (
            "without spades you must trump, beating 9♥ when you can (J♥)",
            "without spades it must trump, beating 9♥ when it can (J♥)",
        ),
        ("under-trump when you cannot beat A♥", "under-trump when it cannot beat A♥"),
        (
            "you have a cinch: lead your highest spade (A♠)",
            "it has a cinch: lead its highest spade (A♠)",
        ),
        ("unable to beat 9♥, you may under-trump", "unable to beat 9♥, it may under-trump"),
        ("You lead", "It leads"),
        ("you are last", "it is last"),
        ("a card that beats you", "a card that beats it"),
        ("leading is free: any card may be led", "leading is free: any card may be led"),
        ("young players", "young players"),  # a word that only begins with "you"
    ],
)
def test_words_to_a_player_said_of_its_seat(to_player: str, of_the_seat: str) -> None:
    assert of_seat(to_player) == of_the_seat


def test_every_reason_of_the_follow_rules_and_the_cinch_reads_in_the_third_person() -> None:
    """Every reason the standard follow rule, the optional under-trump's and the cinch
    give, on random hands and tricks, has no "you" left once said of a seat."""
    rng = random.Random(43)
    cinch = StandardCinch()
    seen: set[str] = set()
    for _ in range(3000):
        deck = list(range(52))
        rng.shuffle(deck)
        hand = tuple(sorted(deck[:5]))
        trick = tuple(deck[5 : 5 + rng.randrange(0, 4)])
        trump = rng.randrange(4)
        for ruling in (follow(hand, trick, trump), optional_undertrump.follow(hand, trick, trump)):
            narrowed = cinch.narrow(ruling, hand, trick, trump, frozenset(), rng.random() < 0.3)
            for r in (ruling.reason, narrowed.reason):
                said = of_seat(r.words)
                assert not YOU.search(said), (r.words, said)
                seen.add(r.rule)
    assert {"R-FOLLOW", "R-TRUMP", "R-DISCARD", "R-LEAD"} <= seen


def test_a_refusal_speaks_of_the_seat() -> None:
    """ "seat 2 may not play 8♣: …" goes on in the third person (R-TRUMP)."""
    from bourre.game.state import legal_play
    from bourre.houses.house import House
    from bourre.rules.cards import parse_card
    from bourre.rules.hookspec import CINCH, FOLLOW

    rules = House("standard").rules
    hand = tuple(sorted(parse_card(c) for c in ("8C", "QH", "KH", "2D", "3D")))
    trick = (parse_card("4S"),)
    legal = legal_play(rules[FOLLOW], rules[CINCH], 2, hand, trick, 1, frozenset(), 0, False)
    refused = legal.refusal(parse_card("8C"))
    assert refused.reason.startswith("seat 2 may not play 8♣: without spades it must play")
    assert not YOU.search(refused.reason)
