"""One test (or a few) per rule id of RULES.md §2 (and R-SEAT, R-DECK of §1).

Each rule is tested on the pure rule components of the standard profile
(``variants/bourre_variants/standard/*.py``) and through ``bourre.referee.replay`` on
hand-made table scripts.  Expected values are worked out from RULES.md by hand.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import pairwise

import pytest
from conftest import (
    ALL_CARDS,
    FORFEIT_DEAL,
    RENEGE_DEAL,
    C,
    M,
    S,
    T,
    complete,
    dealt_hands,
    decisions,
    hand_2111,
    hand_forfeit,
    hand_renege,
    hand_tie,
    hand_two_bourre,
    legal_of,
    make_hand,
    make_script,
    normalize,
    play_at,
    plays,
    reference,
    run,
    script_deck,
    sole_dealer_hand,
)

from bourre.game.actions import CARDS, PASS, PLAY, Deck, discard
from bourre.game.simulate import play_session
from bourre.game.state import HandResult, State
from bourre.game.tablesteps import dealing, mark_premature, set_hand
from bourre.referee import ScriptError
from bourre.rules import DECIDE, HandOutcome, PlayResult, RuleViolation
from bourre.rules.cards import DECK, CardError, card_str, card_symbol, parse_card
from bourre.rules.hand import HandState
from bourre.rules.hookspec import DRAW, DecisionRule
from bourre.rules.house import House, Rules
from bourre_variants.simultaneous_reveal import Simultaneous
from bourre_variants.standard.cinch import (
    StandardCinch,
    highest_trumps,
    master_count,
    sure_tricks,
)
from bourre_variants.standard.deal import StandardDeal
from bourre_variants.standard.decisions import Sequential, fold
from bourre_variants.standard.draw import Draw
from bourre_variants.standard.obligations import follow
from bourre_variants.standard.payout import (
    StandardAnte,
    full_pot,
    make_next_dealer,
    payout,
    ranks_of,
    settle,
)
from bourre_variants.standard.tricks import trick_winner

SPADES, HEARTS, DIAMONDS, CLUBS = range(4)
CINCH = StandardCinch()


def known(text: str) -> frozenset[int]:
    """The cards known out, from card texts."""
    return frozenset(parse_card(c) for c in text.split())


NONE: frozenset[int] = frozenset()


def refused(script, *words: str) -> str:
    """Replay must refuse the script with a ScriptError naming every word."""
    with pytest.raises(ScriptError) as info:
        run(script)
    msg = str(info.value)
    for w in words:
        assert w in msg, f"{w!r} not in {msg!r}"
    return msg


def state_for(deck_texts, dealer: int, n: int, hand_size: int = 5) -> HandState:
    """A fresh HandState dealt by the standard deal."""
    deck = [parse_card(c) for c in deck_texts]
    hands, up, stock = StandardDeal(hand_size).deal(deck, dealer, n)
    return HandState(
        number=1,
        n=n,
        hand_size=hand_size,
        dealer=dealer,
        hands=hands,
        upcard=up,
        stock=stock,
        pot=n,
    )


class Recorder:
    """Agents for the decision procedure: answers from a table, logs what is asked."""

    def __init__(self, answers: dict[int, bool], discards: dict[int, list[int]] | None = None):
        self.answers = answers
        self.discards = discards or {}
        self.asked: list[tuple[int, str | None]] = []

    def decide(self, state, seat, forced):
        self.asked.append((seat, forced))
        return self.answers.get(seat, False)

    def discard(self, state, seat):
        return list(self.discards.get(seat, []))

    def play(self, state, seat, legal, cinch):  # pragma: no cover - not used here
        raise AssertionError("no play expected")


def run_decisions(procedure: DecisionRule, st: HandState, agents: Recorder, rules: Rules):
    """Step a decision procedure through the decisions and exchanges of ``st`` with
    ``agents`` answering (what the game does between the deal and the first trick)."""
    while (turn := procedure.turn(st)) is not None:
        if turn.kind == DECIDE:
            procedure.decide(st, turn.seat, agents.decide(st, turn.seat, turn.forced))
        else:
            cards = agents.discard(st, turn.seat)
            rules[DRAW].draw(st, turn.seat, cards)
            procedure.exchanged(st, turn.seat, cards)


def play_hand(
    state: State, deck, agents: Recorder, *, dealer=None, pot=None, premature=()
) -> HandResult:
    """Play the next hand of an unseeded ``state`` from ``deck`` (card texts or ints)
    with ``agents`` answering; ``premature`` lists seats that announced out of turn."""
    if dealer is not None or pot is not None:
        set_hand(state, dealer=dealer, pot=pot)
    done = len(state.results) + 1
    state.apply_chance(Deck(tuple(parse_card(c) if isinstance(c, str) else c for c in deck)))
    for seat in premature:
        mark_premature(state, seat)
    while len(state.results) < done:
        seat, hs = state.current_player(), state.hand
        if state.phase_name == "decide":
            forced = state.observation(seat).forced
            state.apply_action(PLAY if agents.decide(hs, seat, forced) else PASS)
        elif state.phase_name == "exchange":
            state.apply_action(discard(agents.discard(hs, seat)))
        else:
            state.apply_action(
                CARDS[agents.play(hs, seat, state.legal_cards(), state.legal_with_reasons().cinch)]
            )
    return state.results[-1]


def result(n, P, active, won, forfeits=(), reneges=(), sole=False) -> PlayResult:
    return PlayResult(n, P, list(active), list(won), set(forfeits), list(reneges), sole)


# =========================================================================== R-SEAT


def test_R_SEAT_left_of_dealer_is_next_seat_for_deal_and_rotation():
    deck = list(range(52))
    hands, _, _ = StandardDeal(5).deal(deck, 4, 5)
    assert 0 in hands[0]  # card 0 goes to the dealer's left: (4 + 1) mod 5 = 0
    assert 1 in hands[1] and 4 in hands[4]
    assert make_next_dealer(5)(4, [False] * 5) == 0
    assert make_next_dealer(8)(3, [False] * 8) == 4


def test_R_SEAT_decisions_clockwise_from_the_dealers_left():
    rec = Recorder({})
    rules = House("standard").rules
    st = state_for(ALL_CARDS, 3, 5)
    rec.answers = {4: True, 0: True}
    run_decisions(Sequential(), st, rec, rules)
    assert [s for s, _ in rec.asked] == [4, 0, 1, 2, 3]
    # counter-clockwise decisions are refused
    hand = hand_2111()
    hand["decisions"] = list(reversed(hand["decisions"]))
    refused(make_script([hand]), "hand 1, decision 1", "R-DECIDE")


def test_R_SEAT_play_goes_clockwise():
    hand = hand_2111()
    p = hand["plays"]
    p[1], p[2] = p[2], p[1]  # seat 3 plays before seat 2
    refused(make_script([hand]), "hand 1, play 2", "R-LEAD")


# =========================================================================== R-DECK


def test_R_DECK_parse_and_print():
    assert parse_card("AS") == 12
    assert parse_card("2S") == 0
    assert parse_card("TH") == parse_card("10H") == 13 + 8
    assert parse_card("2C") == 39
    assert parse_card("ac") == 51
    assert card_str(parse_card("10H")) == "TH"
    assert card_str(parse_card("10D")) == "TD"
    assert card_symbol(parse_card("JH")) == "J♥"
    assert card_symbol(parse_card("TH")) == "10♥"
    assert len(DECK) == 52 and len(set(DECK)) == 52
    assert sorted(card_str(c) for c in DECK) == sorted(
        r + s for s in "SHDC" for r in "AKQJT98765432"
    )


def test_R_DECK_rank_order_high_to_low():
    for suit in "SHDC":
        ints = [
            parse_card(r + suit)
            for r in ["A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2"]
        ]
        assert ints == sorted(ints, reverse=True)
        assert len({c // 13 for c in ints}) == 1
    # the trick order follows: the ace beats the king, ten beats nine
    assert trick_winner(T("KH AH"), CLUBS) == 1
    assert trick_winner(T("TH 9H"), CLUBS) == 0


@pytest.mark.parametrize(
    "bad", ["1X", "11H", "1H", "AX", "", "ASS", "T", "0H", "10", "XS", "♥J", "J♥♥", "Jſ"]
)
def test_R_DECK_parse_errors(bad):
    with pytest.raises(CardError) as info:
        parse_card(bad)
    assert "R-DECK" in str(info.value)
    assert isinstance(info.value, ValueError)


def test_R_DECK_no_jokers_and_wrong_types():
    for bad in (None, 5, "JK", "JOKER"):
        with pytest.raises(CardError):
            parse_card(bad)  # type: ignore[arg-type]


def test_R_DECK_through_replay_accepts_10_and_prints_T():
    hand = hand_2111()
    deck = hand["deck"]
    tens = [i for i, c in enumerate(deck) if c[0] == "T"]
    assert tens
    for i in tens:
        deck[i] = "10" + deck[i][1]
    for p in hand["plays"]:
        if p["card"] == "TH":
            p["card"] = "10H"
    rec = run(make_script([hand]))
    assert "TH" in rec["hands"][0]["hands_after_draw"][4]
    assert rec["hands"][0]["tricks"][0]["plays"][3]["card"] == "TH"
    assert rec["hands"][0]["tricks_won"] == [0, 2, 1, 1, 1]


def test_R_DECK_through_replay_refuses_bad_decks():
    hand = hand_2111()
    bad = make_script([dict(hand, deck=["1X", *hand["deck"][1:]])])
    refused(bad, "hand 1, card 1 of the deck", "R-DECK")
    dup = make_script([dict(hand, deck=[hand["deck"][1], *hand["deck"][1:]])])
    msg = refused(dup, "hand 1, card 2 of the deck", "R-DECK")
    assert card_symbol(parse_card(hand["deck"][1])) in msg  # names the repeated card
    short = make_script([dict(hand, deck=hand["deck"][:51])])
    refused(short, "hand 1", "deck", "51", "R-DECK")
    long = make_script([dict(hand, deck=[*hand["deck"], "AS"])])
    refused(long, "hand 1", "deck", "R-DECK")


# ======================================================================== R-SESSION


def test_R_SESSION_defaults(house):
    t = house.table
    assert (t.players, t.balance, t.hands, t.ante, t.first_dealer) == (5, 100, 12, 1, 0)
    assert house.rules.hand_size == 5
    res = play_session(house, seed=11)
    assert len(res.hands) == 12
    assert len(res.final) == 5


def test_R_SESSION_negative_balances_allowed():
    script = make_script([hand_renege()], balances=[0, 0, 0, 0, 0])
    rec = run(script)
    # seat 1 antes 1, is bourré (5) and reneged (5): 0 - 1 - 10
    assert rec["hands"][0]["balances"] == [-1, -11, 4, -1, -1]
    assert rec["final"]["balances"] == [1, -9, 6, 1, 1]  # pot 10 shared: +2 each


def test_R_SESSION_no_more_hands_than_the_session():
    hands = [sole_dealer_hand(k % 5, 5) for k in range(13)]
    refused(make_script(hands), "hands", "13", "R-SESSION")
    rec = run(make_script(hands[:12]))
    assert [h["dealer"] for h in rec["hands"]] == [k % 5 for k in range(12)]
    short = make_script(hands[:3], table={"hands": 2})
    refused(short, "R-SESSION")


# ======================================================================= R-FIRST-POT


def test_R_FIRST_POT_every_player_antes_1():
    assert StandardAnte().hand_antes(5, 1, None, 0) == [1] * 5
    assert StandardAnte().hand_antes(7, 2, None, 3) == [2] * 7
    assert StandardAnte().play_ante(1) == 0
    rec = run(make_script([sole_dealer_hand(0, 5)]))
    h = rec["hands"][0]
    assert h["pot_at_stake"] == 5
    assert h["balances"] == [104, 99, 99, 99, 99]


def test_R_FIRST_POT_is_n_times_ante():
    rec = run(make_script([sole_dealer_hand(0, 7)], players=7, table={"ante": 2}))
    h = rec["hands"][0]
    assert h["pot_at_stake"] == 14
    assert h["balances"] == [112] + [98] * 6
    state = State(House("standard+table(players=3)"))
    res = play_hand(state, ALL_CARDS, Recorder({0: True}))
    assert res.antes == [1, 1, 1] and res.pot_at_stake == 3


# ========================================================================= R-DEALER


def test_R_DEALER_first_dealer_is_seat_0_by_default():
    rec = run(make_script([sole_dealer_hand(0, 5)]))
    assert rec["hands"][0]["dealer"] == 0
    state = State(House("standard"))
    assert dealing(state) == (0, ())
    state.apply_chance(Deck(tuple(DECK)))
    assert state.hand.dealer == 0


def test_R_DEALER_first_dealer_setting():
    rec = run(make_script([sole_dealer_hand(3, 5)], table={"first_dealer": 3}))
    assert rec["hands"][0]["dealer"] == 3


def test_R_DEALER_random_first_dealer_needs_a_dealer_in_the_script():
    refused(
        make_script([sole_dealer_hand(0, 5)], table={"first_dealer": "random"}),
        "hand 1",
        "dealer",
        "R-DEALER",
    )
    rec = run(
        make_script(
            [make_hand(ALL_CARDS, decisions(2, 5, {2: "play"}), dealer=2)],
            table={"first_dealer": "random"},
        )
    )
    assert rec["hands"][0]["dealer"] == 2
    firsts = {
        play_session(House("standard+table(first_dealer=random,hands=1)"), seed=s).hands[0].dealer
        for s in range(30)
    }
    assert firsts <= set(range(5)) and len(firsts) > 1


def test_R_DEALER_rotation_goes_left():
    hands = [sole_dealer_hand(d, 5) for d in (0, 1, 2, 3, 4, 0)]
    rec = run(make_script(hands))
    assert [h["dealer"] for h in rec["hands"]] == [0, 1, 2, 3, 4, 0]
    rec = run(
        make_script(
            [sole_dealer_hand(d, 3) for d in (2, 0, 1)], players=3, table={"first_dealer": 2}
        )
    )
    assert [h["dealer"] for h in rec["hands"]] == [2, 0, 1]


def test_R_DEALER_next_dealer_skips_and_uses_up_a_lost_turn():
    nd = make_next_dealer(5)
    marks = [False, True, False, False, False]
    assert nd(0, marks) == 2
    assert marks == [False] * 5  # used up
    marks = [True, False, False, False, True]
    assert nd(3, marks) == 1  # 4 and 0 skipped
    assert marks == [False] * 5
    marks = [False, False, True, False, False]
    assert nd(0, marks) == 1
    assert marks == [False, False, True, False, False]  # still pending


# =========================================================================== R-DEAL


@pytest.mark.parametrize("n", range(2, 9))
def test_R_DEAL_card_i_goes_to_dealer_plus_1_plus_i(n):
    deck = list(range(51, -1, -1))
    for dealer in range(n):
        hands, up, stock = StandardDeal(5).deal(deck, dealer, n)
        for i in range(5 * n):
            assert deck[i] in hands[(dealer + 1 + i) % n]
        assert all(len(h) == 5 for h in hands)
        assert up == deck[5 * n - 1] and up in hands[dealer]
        assert stock == deck[5 * n :]
        assert len(stock) == 52 - 5 * n


def test_R_DEAL_27_cards_left_and_upcard_names_trump():
    deck = [parse_card(c) for c in ALL_CARDS]
    hands, up, stock = StandardDeal(5).deal(deck, 0, 5)
    assert len(stock) == 27 and sum(len(h) for h in hands) == 25
    assert up == deck[24] and up in hands[0]
    st = state_for(ALL_CARDS, 0, 5)
    assert st.trump == st.upcard // 13 == deck[24] // 13
    st.places()


def test_R_DEAL_four_card_upcard_is_card_4n_minus_1():
    deck = list(range(52))
    hands, up, stock = StandardDeal(4).deal(deck, 1, 6)
    assert up == deck[23] and up in hands[1] and len(stock) == 28
    assert House("four-card").rules.hand_size == 4


def test_R_DEAL_through_replay():
    deck = script_deck({0: "2C 3C 4C 5C 7D"}, 0, 5)
    script = make_script([make_hand(deck, decisions(0, 5, {1: "play", 2: "play", 0: "play"}))])
    script = complete(script)
    rec = run(script)
    h = rec["hands"][0]
    assert h["upcard"] == "7D" and h["trump"] == "D"
    dealt = dealt_hands(deck, 0, 5)
    for s in (0, 1, 2):
        assert set(h["hands_after_draw"][s]) == set(dealt[s])
    assert "7D" in h["hands_after_draw"][0]
    assert h["hands_after_draw"][3] == [] and h["hands_after_draw"][4] == []


# ========================================================================= R-DECIDE


def test_R_DECIDE_order_and_the_dealer_last():
    rules = House("standard").rules
    for dealer in range(5):
        rec = Recorder({s: True for s in range(5)})
        st = state_for(ALL_CARDS, dealer, 5)
        run_decisions(Sequential(), st, rec, rules)
        assert [s for s, _ in rec.asked] == [(dealer + k) % 5 for k in range(1, 6)]
        assert st.active == [(dealer + k) % 5 for k in range(1, 6)]
        assert [d.seat for d in st.decisions] == st.active


def test_R_DECIDE_every_player_decides_once():
    hand = hand_2111()
    missing = dict(hand, decisions=hand["decisions"][:4])
    refused(make_script([missing, hand_2111()]), "hand 1", "decisions", "R-DECIDE")
    stopped = run(make_script([dict(missing, plays=[])]))  # the last hand may stop
    assert stopped["hands"][0]["next"]["seat"] == hand["decisions"][4]["seat"]
    extra = dict(hand, decisions=[*hand["decisions"], {"seat": 1, "action": "pass"}])
    refused(make_script([extra]), "hand 1, decision 6", "R-DECIDE")


# =========================================================================== R-PASS


def test_R_PASS_gives_up_the_hand_and_the_ante_only():
    rec = run(make_script([hand_2111()]))
    h = rec["hands"][0]
    assert 0 not in h["active"]
    assert h["hands_after_draw"][0] == []
    assert h["tricks_won"][0] == 0
    assert 0 not in h["bourre"]
    assert h["balances"][0] == 99  # the ante, nothing else
    st = state_for(ALL_CARDS, 0, 5)
    held = list(st.hands[2])
    fold(st, 2)
    assert st.hands[2] == [] and st.folded[2] == held
    assert st.decisions[-1].play is False
    st.places()


def test_R_PASS_cannot_exchange():
    hand = hand_2111()
    dealt = dealt_hands(hand["deck"], 0, 5)
    hand["decisions"][4] = {"seat": 0, "action": "pass", "discard": [dealt[0][0]]}
    refused(make_script([hand]), "hand 1, decision 5", "R-PASS")


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


# ========================================================================= R-ACE-UP


def test_R_ACE_UP_dealer_must_play():
    deck = script_deck({0: "2C 3C 4C 5C AD"}, 0, 5)
    rules = House("standard").rules
    st = state_for(deck, 0, 5)
    rec = Recorder({1: True, 2: True, 0: True})
    run_decisions(Sequential(), st, rec, rules)
    assert rec.asked[-1] == (0, "R-ACE-UP")
    assert all(f is None for s, f in rec.asked[:-1])
    st = state_for(deck, 0, 5)
    with pytest.raises(RuleViolation) as info:
        run_decisions(Sequential(), st, Recorder({1: True}), rules)
    assert info.value.rule == "R-ACE-UP"
    script = make_script([make_hand(deck, decisions(0, 5, {1: "play", 2: "play"}))])
    refused(script, "hand 1, decision 5", "R-ACE-UP")


def test_R_ACE_UP_in_every_decision_mode():
    deck = script_deck({0: "2C 3C 4C 5C AD"}, 0, 3)
    rules = House("simultaneous-reveal+table(players=3)").rules
    st = state_for(deck, 0, 3)
    rec = Recorder({1: True, 0: True})
    run_decisions(Simultaneous(), st, rec, rules)
    assert (0, "R-ACE-UP") in rec.asked
    st = state_for(deck, 0, 3)
    with pytest.raises(RuleViolation) as info:
        run_decisions(Simultaneous(), st, Recorder({1: True}), rules)
    assert info.value.rule == "R-ACE-UP"
    script = make_script(
        [make_hand(deck, decisions(0, 3, {1: "play"}))], players=3, variants=["simultaneous-reveal"]
    )
    refused(script, "hand 1", "R-ACE-UP")


def test_R_ACE_UP_only_the_ace_of_trumps():
    deck = script_deck({0: "2C 3C 4C 5C KD", 1: "AS AH AC 2D 3D"}, 0, 5)
    rules = House("standard").rules
    st = state_for(deck, 0, 5)
    rec = Recorder({1: True})
    run_decisions(Sequential(), st, rec, rules)
    assert rec.asked[-1] == (0, None)
    assert st.active == [1]


# ==================================================================== R-LAST-STANDS


def test_R_LAST_STANDS_dealer_may_not_pass():
    rules = House("standard").rules
    st = state_for(ALL_CARDS, 2, 5)
    rec = Recorder({2: True})
    run_decisions(Sequential(), st, rec, rules)
    assert rec.asked[-1] == (2, "R-LAST-STANDS")
    assert st.active == [2]
    with pytest.raises(RuleViolation) as info:
        run_decisions(Sequential(), state_for(ALL_CARDS, 2, 5), Recorder({}), rules)
    assert info.value.rule == "R-LAST-STANDS"
    script = make_script([make_hand(ALL_CARDS, decisions(0, 5, {}))])
    refused(script, "hand 1, decision 5", "R-LAST-STANDS")


def test_R_LAST_STANDS_dealer_takes_the_pot():
    rec = run(make_script([sole_dealer_hand(0, 5)]))
    h = rec["hands"][0]
    assert h["active"] == [0] and h["winner"] == 0
    assert h["tricks"] == [] and h["tricks_won"] == [5, 0, 0, 0, 0]
    assert h["pot_after"] == 0 and h["balances"] == [104, 99, 99, 99, 99]


def test_R_LAST_STANDS_not_forced_when_someone_plays():
    rules = House("standard").rules
    st = state_for(ALL_CARDS, 0, 5)
    rec = Recorder({3: True})
    run_decisions(Sequential(), st, rec, rules)
    assert rec.asked[-1] == (0, None) and st.active == [3]


# =========================================================================== R-SOLE


def sole_seat2_script():
    deck = script_deck({}, 0, 5)
    return make_script([make_hand(deck, decisions(0, 5, {2: "play"})), sole_dealer_hand(1, 5)])


def test_R_SOLE_sole_participant_wins_without_play():
    rec = run(sole_seat2_script())
    h = rec["hands"][0]
    assert h["active"] == [2]
    assert h["tricks"] == []
    assert h["tricks_won"] == [0, 0, 5, 0, 0]
    assert h["winner"] == 2 and h["bourre"] == [] and h["reneges"] == []
    assert h["pot_after"] == 0
    assert h["balances"] == [99, 99, 104, 99, 99]
    # nobody is exempt next hand: everyone antes
    assert rec["hands"][1]["pot_at_stake"] == 5


def test_R_SOLE_no_tricks_may_be_played():
    script = sole_seat2_script()
    dealt = dealt_hands(script["hands"][0]["deck"], 0, 5)
    script["hands"][0]["plays"] = [{"seat": 2, "card": dealt[2][0]}]
    refused(script, "hand 1, play 1", "R-SOLE")


def test_R_SOLE_pure_payout():
    out = payout(result(5, 7, [3], [0, 0, 0, 5, 0], sole=True), full_pot)
    assert out.winner == 3
    assert out.takes == [0, 0, 0, 7, 0] and out.paid == [0] * 5
    assert out.pot_after == 0 and out.bourre == [] and out.ante_exempt == frozenset()


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


# ===================================================================== R-PREMATURE


def test_R_PREMATURE_costs_the_next_turn_to_deal():
    hands = [sole_dealer_hand(0, 5, events=[1]), sole_dealer_hand(2, 5), sole_dealer_hand(3, 5)]
    rec = run(make_script(hands))
    assert [h["dealer"] for h in rec["hands"]] == [0, 2, 3]
    # nothing else changes: no money moves for it
    assert rec["hands"][0]["balances"] == [104, 99, 99, 99, 99]


def test_R_PREMATURE_is_a_pending_mark_used_up_when_the_deal_comes():
    dealers = [0, 1, 2, 4, 0, 1, 2, 3]
    hands = [sole_dealer_hand(d, 5, events=[3] if k == 0 else ()) for k, d in enumerate(dealers)]
    rec = run(make_script(hands))
    assert [h["dealer"] for h in rec["hands"]] == dealers


def test_R_PREMATURE_is_not_a_count():
    dealers = [0, 2, 3, 4, 0, 1]
    hands = [sole_dealer_hand(d, 5, events=[1, 1] if k == 0 else ()) for k, d in enumerate(dealers)]
    rec = run(make_script(hands))
    assert [h["dealer"] for h in rec["hands"]] == dealers


def test_R_PREMATURE_marks_through_the_session():
    house = House("standard")
    s = State(house)
    deck = [parse_card(c) for c in ALL_CARDS]
    play_hand(s, deck, Recorder({0: True}), premature=[1, 2])
    assert dealing(s) == (3, (1, 2))  # the next by rotation, seats 1 and 2 passed over
    assert dealing(s) == (3, (1, 2))  # asking uses nothing up
    res = play_hand(s, deck, Recorder({3: True}))
    assert res.dealer == 3 and dealing(s) == (4, ())


# =========================================================================== R-LEAD


def test_R_LEAD_first_active_left_of_dealer_then_the_winner():
    rec = run(make_script([hand_2111()]))
    tricks = rec["hands"][0]["tricks"]
    assert tricks[0]["leader"] == 1
    for a, b in pairwise(tricks):
        assert b["leader"] == a["winner"]
        assert b["plays"][0]["seat"] == a["winner"]
    assert [t["winner"] for t in tricks] == [1, 1, 2, 3, 4]
    # seat 1 passes: seat 2 is the first active to the dealer's left
    deck = script_deck({}, 0, 5)
    script = complete(make_script([make_hand(deck, decisions(0, 5, {2: "play", 4: "play"}))]))
    rec = run(script)
    assert rec["hands"][0]["tricks"][0]["leader"] == 2


def test_R_LEAD_only_active_players_play():
    rec = run(make_script([hand_2111()]))
    for t in rec["hands"][0]["tricks"]:
        assert [p["seat"] for p in t["plays"]] == [(t["leader"] - 1 + k) % 4 + 1 for k in range(4)]
    hand = hand_2111()
    hand["plays"][1] = {"seat": 0, "card": "6C"}  # the dealer passed
    refused(make_script([hand]), "hand 1, play 2", "R-LEAD")


def test_R_LEAD_leading_is_free():
    assert S(follow(M("AS 2H 3D 4C"), [], SPADES)) == {"AS", "2H", "3D", "4C"}


# ========================================================================= R-FOLLOW


def test_R_FOLLOW_must_follow_suit():
    assert S(follow(M("KH 2H AS 3C"), T("QH"), SPADES)) == {"KH"}
    assert S(follow(M("2H AS 3C"), T("QH"), SPADES)) == {"2H"}


def test_R_FOLLOW_must_beat_when_possible():
    assert S(follow(M("KH AH 2H AS"), T("QH"), SPADES)) == {"KH", "AH"}
    # beat the current winning card, not the card led
    assert S(follow(M("AH JH 2H"), T("5H KH"), SPADES)) == {"AH"}
    assert S(follow(M("QH 2H"), T("5H KH"), SPADES)) == {"QH", "2H"}
    # trumps led: follow and beat
    assert S(follow(M("AS 3S 4H"), T("QS"), SPADES)) == {"AS"}


def test_R_FOLLOW_cannot_beat_any_card_of_the_suit():
    assert S(follow(M("JH 2H AS"), T("QH"), SPADES)) == {"JH", "2H"}
    assert S(follow(M("3S 2S AH"), T("QS"), SPADES)) == {"3S", "2S"}


def test_R_FOLLOW_after_a_trump_any_card_of_the_suit():
    assert S(follow(M("KH 2H AS"), T("QH 2S"), SPADES)) == {"KH", "2H"}
    assert S(follow(M("AH 5H 8S"), T("JH 3S"), SPADES)) == {"AH", "5H"}  # seeds 08
    assert T("QH 2S")[trick_winner(T("QH 2S"), SPADES)] == C("2S")  # R-TRICK, the one copy
    assert T("QH KH 3D")[trick_winner(T("QH KH 3D"), SPADES)] == C("KH")


def test_R_FOLLOW_through_replay_a_card_that_does_not_beat_is_a_renege():
    # seat 1 leads 5H; seat 2 holds 2H and 9H and must beat: 9H only
    deck = script_deck({1: "5H 6C 7C 8C 9C", 2: "2H 9H 2D 3D 4D", 0: "2C 3C 4C 5C 8S"}, 0, 5)
    legal = complete(
        make_script([make_hand(deck, decisions(0, 5, {1: "play", 2: "play"}), plays("1:5H 2:9H"))])
    )
    rec = run(legal)
    p = play_at(rec, 0, 1)
    assert (p["card"], p["renege"], set(p["legal"])) == ("9H", False, {"9H"})
    bad = complete(
        make_script([make_hand(deck, decisions(0, 5, {1: "play", 2: "play"}), plays("1:5H 2:2H"))])
    )
    rec = run(bad)
    p = play_at(rec, 0, 1)
    assert (p["card"], p["renege"], set(p["legal"])) == ("2H", True, {"9H"})
    assert rec["hands"][0]["reneges"] == [2]
    assert rec["hands"][0]["tricks"][0]["winner"] == 1
    assert normalize(rec) == reference(bad)


def test_R_FOLLOW_through_replay_any_card_when_unable_to_beat():
    # tie deal, trick 4: AD led, C (KD 3D) cannot beat it: any diamond; a heart is a renege
    rec = run(make_script([hand_tie()]))
    assert legal_of(rec, 0, 13) == {"KD", "3D"}
    assert legal_of(rec, 0, 17) == {"KD"}
    hand = hand_tie()
    hand["plays"][10] = {"seat": 3, "card": "3D"}  # trick 3 (clubs): C discards 3D
    hand["plays"][13] = {"seat": 3, "card": "6H"}  # trick 4: holds KD, plays a heart
    rec = run(make_script([hand]))
    p = play_at(rec, 0, 13)
    assert (p["card"], p["renege"], set(p["legal"])) == ("6H", True, {"KD"})
    h = rec["hands"][0]
    assert h["tricks_won"] == [0, 2, 2, 1, 0] and h["reneges"] == [3]
    assert h["winner"] is None and h["pot_after"] == 15  # P + D bourré + C renege


# ========================================================================== R-TRUMP


def test_R_TRUMP_must_trump_without_the_suit():
    assert S(follow(M("3S 9S 4C"), T("QH"), SPADES)) == {"3S", "9S"}


def test_R_TRUMP_must_overtrump_when_possible():
    assert S(follow(M("AS 3S 4C"), T("QH 5S"), SPADES)) == {"AS"}
    assert S(follow(M("AS KS 3S"), T("QH 5S 9S"), SPADES)) == {"AS", "KS"}


def test_R_TRUMP_undertrump_obligatory():
    assert S(follow(M("3S 4C"), T("QH 5S"), SPADES)) == {"3S"}
    assert S(follow(M("2S 3S 4C 5D"), T("QH AS"), SPADES)) == {"2S", "3S"}


def test_R_TRUMP_through_replay():
    # worked example: B has no hearts and must play his only trump
    from conftest import hand_worked_example

    rec = run(make_script([hand_worked_example()]))
    p = play_at(rec, 0, 1)
    assert p["seat"] == 0 and set(p["legal"]) == {"3S"} and p["renege"] is False


# ======================================================================== R-DISCARD


def test_R_DISCARD_any_card_with_neither_suit_nor_trump():
    assert S(follow(M("4C 5D"), T("QH"), SPADES)) == {"4C", "5D"}
    assert S(follow(M("4C 5D AD"), T("QH 2S"), SPADES)) == {"4C", "5D", "AD"}


def test_R_DISCARD_through_replay():
    rec = run(make_script([hand_2111()]))
    # trick 1: AS led, B C D hold no spade: anything
    assert legal_of(rec, 0, 1) == {"AC", "2D", "3D", "4D", "5D"}
    assert legal_of(rec, 0, 3) == {"AH", "KH", "QH", "JH", "TH"}


# =========================================================================== R-TRICK


def test_R_TRICK_highest_trump_else_highest_of_the_suit_led():
    assert trick_winner(T("QH KH 2S"), SPADES) == 2
    assert trick_winner(T("QH 2S 3S"), SPADES) == 2
    assert trick_winner(T("QH AD KH"), SPADES) == 2  # off-suit ace does not win
    assert trick_winner(T("3S AS 2H"), SPADES) == 1
    assert trick_winner(T("2C AH AD AS"), CLUBS) == 0
    assert trick_winner(T("2C 3C"), HEARTS) == 1


def test_R_TRICK_through_replay():
    rec = run(make_script([hand_2111()]))
    assert [t["winner"] for t in rec["hands"][0]["tricks"]] == [1, 1, 2, 3, 4]
    from conftest import hand_worked_example

    rec = run(make_script([hand_worked_example()]))
    assert rec["hands"][0]["tricks"][0]["winner"] == 0  # 3S beats JH and 5H


# ============================================================================ R-SURE


def test_R_SURE_master_trumps_and_sure_tricks():
    assert master_count(M("AS KS QS 2H"), SPADES, NONE) == 3
    assert master_count(M("AS KS JS"), SPADES, NONE) == 2
    assert master_count(M("AS KS JS"), SPADES, known("QS")) == 3
    assert master_count(M("KS QS"), SPADES, NONE) == 0
    assert master_count(M("KS QS"), SPADES, known("AS")) == 2
    assert sure_tricks(M("AS KS 3H"), SPADES, NONE, 1) == 3
    assert sure_tricks(M("2H"), SPADES, NONE, 2) == 2


def test_R_SURE_cinch_is_three_sure_tricks():
    assert CINCH.has_cinch(M("AS KS QS 2H 3H"), SPADES, NONE, 0)
    assert not CINCH.has_cinch(M("AS KS JS 2H 3H"), SPADES, NONE, 0)
    assert CINCH.has_cinch(M("AS KS JS 2H"), SPADES, NONE, 1)
    assert CINCH.has_cinch(M("2H 3H"), SPADES, NONE, 3)
    assert not CINCH.has_cinch(M("2H 3H"), SPADES, known("AS KS QS"), 2)
    assert CINCH.has_cinch(M("JS 2H"), SPADES, known("AS KS QS"), 2)


def test_R_SURE_own_discards_make_a_trump_master():
    assert CINCH.has_cinch(M("AS QS JS 2H 3H"), SPADES, known("KS"), 0)
    assert not CINCH.has_cinch(M("AS QS JS 2H 3H"), SPADES, NONE, 0)
    # through replay: seat 1 discards KS 2H and draws JS 8C (5 players, no reshuffle)
    deck = script_deck({1: "AS KS QS 2H 3H", 0: "2C 3C 4C 5C 9S"}, 0, 5, stock_first="JS 8C")
    script = complete(
        make_script([make_hand(deck, decisions(0, 5, {1: ("play", "KS 2H"), 2: "play"}))])
    )
    rec = run(script)
    first = play_at(rec, 0, 0)
    assert first["seat"] == 1 and first["cinch"] is True
    assert set(first["legal"]) == {"AS", "QS", "JS"}


def test_R_SURE_a_corrected_card_is_not_played():
    """Hearts led by seat 1; seat 2 plays KS (it holds 7H: illegal) and takes it back
    for 7H; seat 3 (AS QS JS 9S 2C, no heart) must trump.  KS was not played, so AS is
    its only master: no cinch, any trump.  (Counting KS would make a cinch and narrow
    the legal cards to AS QS JS.)"""
    deck = script_deck(
        {
            1: "2H 3H 4H 5H 6H",
            2: "7H KS 2D 3D 4D",
            3: "AS QS JS 9S 2C",
            4: "8H 9H TH 5D 6D",
            0: "2S 3C 4C 5C 8S",
        },
        0,
        5,
    )
    script = make_script(
        [
            make_hand(
                deck,
                decisions(0, 5, {1: "play", 2: "play", 3: "play", 4: "play"}),
                plays("1:2H 2:KS>7H"),
            )
        ]
    )
    script = complete(script)
    rec = run(script)
    p1, p2 = play_at(rec, 0, 1), play_at(rec, 0, 2)
    assert (p1["seat"], p1["card"], p1["corrected"], p1["renege"]) == (2, "7H", True, False)
    assert p2["seat"] == 3 and p2["cinch"] is False
    assert set(p2["legal"]) == {"AS", "QS", "JS", "9S"}
    assert normalize(rec) == reference(script)


def test_R_SURE_tricks_won_count():
    # seat 1 wins three tricks with side aces, then its low trump is "sure"
    deck = script_deck({1: "AH AD AC 2S 2C", 2: "KH KD 3H 3D 4D", 0: "6C 7C 8C 9C 9S"}, 0, 5)
    script = make_script(
        [
            make_hand(
                deck,
                decisions(0, 5, {1: "play", 2: "play"}),
                plays("1:AH 2:KH | 1:AD 2:KD | 1:AC 2:3H | 1:2S 2:3D | 1:2C 2:4D"),
            )
        ]
    )
    rec = run(script)
    assert [play_at(rec, 0, i)["cinch"] for i in (0, 2, 4, 6, 8)] == [
        False,
        False,
        False,
        True,
        True,
    ]


# =========================================================================== R-EQUIV


def test_R_EQUIV_contiguous_trumps_are_equivalent():
    assert S(highest_trumps(M("AS KS"), M("AS KS"), SPADES, frozenset())) == {"AS", "KS"}
    assert S(highest_trumps(M("AS QS"), M("AS QS"), SPADES, known("KS"))) == {"AS", "QS"}
    assert S(highest_trumps(M("AS QS"), M("AS QS"), SPADES, frozenset())) == {"AS"}
    assert S(highest_trumps(M("AS KS 9S"), M("AS KS 9S"), SPADES, known("QS JS TS"))) == {
        "AS",
        "KS",
        "9S",
    }
    assert S(highest_trumps(M("KS 9S"), M("KS 9S 2H"), SPADES, frozenset())) == {"KS"}


def test_R_EQUIV_through_replay():
    # worked example trick 4: A (1 trick + AS KS) leads AS or KS
    from conftest import hand_worked_example

    rec = run(make_script([hand_worked_example()]))
    p = play_at(rec, 0, 9)
    assert (p["seat"], p["cinch"], set(p["legal"])) == (4, True, {"AS", "KS"})


# ====================================================================== R-CINCH-LEAD


def test_R_CINCH_LEAD_highest_trump():
    hand = M("AS KS 9S 2C")
    legal = follow(hand, [], SPADES)
    assert CINCH.has_cinch(hand, SPADES, NONE, 1)
    assert S(CINCH.narrow(legal, hand, (), SPADES, NONE, False)) == {"AS", "KS"}
    assert S(CINCH.narrow(legal, hand, (), SPADES, known("QS JS TS"), False)) == {"AS", "KS", "9S"}


def test_R_CINCH_LEAD_after_three_tricks_no_hiding_a_trump():
    hand = M("2S 2C")
    assert CINCH.has_cinch(hand, SPADES, NONE, 3)
    assert S(CINCH.narrow(follow(hand, [], SPADES), hand, (), SPADES, NONE, False)) == {"2S"}
    # without trumps the lead stays free
    hand = M("2C 3D")
    assert S(CINCH.narrow(follow(hand, [], SPADES), hand, (), SPADES, NONE, False)) == {"2C", "3D"}


def test_R_CINCH_LEAD_through_replay():
    deck = script_deck({1: "AH AD AC 2S 2C", 2: "KH KD 3H 3D 4D", 0: "6C 7C 8C 9C 9S"}, 0, 5)
    base = "1:AH 2:KH | 1:AD 2:KD | 1:AC 2:3H | "
    rec = run(
        make_script(
            [
                make_hand(
                    deck,
                    decisions(0, 5, {1: "play", 2: "play"}),
                    plays(base + "1:2S 2:3D | 1:2C 2:4D"),
                )
            ]
        )
    )
    p = play_at(rec, 0, 6)
    assert (p["seat"], p["cinch"], set(p["legal"]), p["renege"]) == (1, True, {"2S"}, False)
    # hiding the trump (leading 2C) is a renege
    rec = run(
        make_script(
            [
                make_hand(
                    deck,
                    decisions(0, 5, {1: "play", 2: "play"}),
                    plays(base + "1:2C 2:3D | 1:2S 2:4D"),
                )
            ]
        )
    )
    p = play_at(rec, 0, 6)
    assert (p["card"], p["renege"]) == ("2C", True)
    assert rec["hands"][0]["reneges"] == [1]
    assert rec["hands"][0]["winner"] is None  # single most tricks but reneged: carries
    # a cinch from the start: AS KS QS held, 9S not equivalent
    deck = script_deck({1: "AS KS QS 9S 2C", 0: "2H 3H 4H 5H 8S"}, 0, 5)
    script = complete(make_script([make_hand(deck, decisions(0, 5, {1: "play", 2: "play"}))]))
    p = play_at(run(script), 0, 0)
    assert (p["cinch"], set(p["legal"])) == (True, {"AS", "KS", "QS"})


# ==================================================================== R-CINCH-FOLLOW


def test_R_CINCH_FOLLOW_highest_allowed_trump():
    hand = M("AS KS 9S 2C")
    legal = follow(hand, T("3H"), SPADES)
    assert S(legal) == {"AS", "KS", "9S"}
    assert S(CINCH.narrow(legal, hand, T("3H"), SPADES, known("3H"), False)) == {"AS", "KS"}
    # over a trump: the highest of the trumps that beat it
    hand = M("KS QS 9S 2C")
    legal = follow(hand, T("3H TS"), SPADES)
    assert S(legal) == {"KS", "QS"}
    assert S(CINCH.narrow(legal, hand, T("3H TS"), SPADES, known("AS 3H TS"), False)) == {
        "KS",
        "QS",
    }


def test_R_CINCH_FOLLOW_following_suit_keeps_priority():
    hand = M("AS KS QS 5H 2H")
    legal = follow(hand, T("3H"), SPADES)
    assert S(legal) == {"5H"}
    assert CINCH.has_cinch(hand, SPADES, known("3H"), 0)
    assert S(CINCH.narrow(legal, hand, T("3H"), SPADES, known("3H"), False)) == {"5H"}


def test_R_CINCH_FOLLOW_with_optional_undertrump_still_the_highest_trump():
    from bourre_variants.optional_undertrump import follow as follow_optional_undertrump

    hand = M("5S 4S 2C")
    legal = follow_optional_undertrump(hand, T("3H 9S"), SPADES)
    assert S(legal) == {"5S", "4S", "2C"}
    assert S(CINCH.narrow(legal, hand, T("3H 9S"), SPADES, known("3H 9S"), False)) == {"5S", "4S"}


def test_R_CINCH_FOLLOW_through_replay():
    """Seats 2 (leads 3H), 3 (AS KS QS 9S 2C: cinch, no heart) and 4 play."""
    deck = script_deck(
        {2: "3H 4H 5H 6H 7H", 3: "AS KS QS 9S 2C", 4: "8H 9H TH 2D 3D", 0: "2H 3C 4C 5C 8S"}, 0, 5
    )
    script = complete(
        make_script(
            [make_hand(deck, decisions(0, 5, {2: "play", 3: "play", 4: "play"}), plays("2:3H"))]
        )
    )
    rec = run(script)
    p = play_at(rec, 0, 1)
    assert (p["seat"], p["cinch"], set(p["legal"])) == (3, True, {"AS", "KS", "QS"})
    assert normalize(rec) == reference(script)


# ====================================================================== R-CINCH-LAST


def test_R_CINCH_LAST_only_the_ordinary_obligations():
    hand = M("AS KS 9S 2C")
    legal = follow(hand, T("3H 4H"), SPADES)
    assert S(CINCH.narrow(legal, hand, T("3H 4H"), SPADES, known("3H 4H"), True)) == {
        "AS",
        "KS",
        "9S",
    }
    # may over-trump with a lower trump that still wins
    legal = follow(hand, T("3H 5S"), SPADES)
    assert S(legal) == {"AS", "KS", "9S"}
    assert S(CINCH.narrow(legal, hand, T("3H 5S"), SPADES, known("3H 5S"), True)) == {
        "AS",
        "KS",
        "9S",
    }
    assert S(CINCH.narrow(legal, hand, T("3H 5S"), SPADES, known("3H 5S"), False)) == {"AS", "KS"}


def test_R_CINCH_LAST_through_replay():
    """Seat 1 leads 3H, seat 2 trumps 5S, seat 3 (AS KS QS 9S 2C) is last: 9S wins."""
    deck = script_deck(
        {1: "3H 4H 6H 7H 8H", 2: "5S 2D 3D 4D 6D", 3: "AS KS QS 9S 2C", 0: "2H 3C 4C 5C 8S"}, 0, 5
    )
    script = complete(
        make_script(
            [
                make_hand(
                    deck,
                    decisions(0, 5, {1: "play", 2: "play", 3: "play"}),
                    plays("1:3H 2:5S 3:9S"),
                )
            ]
        )
    )
    rec = run(script)
    p = play_at(rec, 0, 2)
    assert (p["seat"], p["cinch"], p["renege"], set(p["legal"])) == (
        3,
        True,
        False,
        {"AS", "KS", "QS", "9S"},
    )
    assert rec["hands"][0]["tricks"][0]["winner"] == 3
    # next trick, seat 3 leads with a cinch: highest trump and equivalents
    p = play_at(rec, 0, 3)
    assert (p["seat"], p["cinch"], set(p["legal"])) == (3, True, {"AS", "KS", "QS"})
    assert normalize(rec) == reference(script)


# ============================================================================ R-WIN


def test_R_WIN_single_most_tricks_takes_P():
    out = payout(result(5, 5, [0, 3, 4], [0, 0, 0, 3, 2]), full_pot)
    assert out.winner == 3 and out.takes == [0, 0, 0, 5, 0]
    out = payout(result(5, 5, [1, 2, 3, 4], [0, 2, 1, 1, 1]), full_pot)
    assert out.winner == 1 and out.takes == [0, 5, 0, 0, 0] and out.pot_after == 0


def test_R_WIN_tie_carries_the_whole_pot():
    out = payout(result(5, 5, [1, 2, 3, 4], [0, 2, 2, 1, 0]), full_pot)
    assert out.winner is None and out.takes == [0] * 5
    assert out.pot_after == 5 + 5
    assert set(out.tied) == {1, 2}


def test_R_WIN_2_1_1_1_through_replay():
    rec = run(make_script([hand_2111()]))
    h = rec["hands"][0]
    assert h["tricks_won"] == [0, 2, 1, 1, 1]
    assert (h["winner"], h["bourre"], h["pot_after"]) == (1, [], 0)
    assert h["balances"] == [99, 104, 99, 99, 99]


def test_R_WIN_tie_through_replay():
    rec = run(make_script([hand_tie()]))
    h = rec["hands"][0]
    assert h["tricks_won"] == [0, 2, 2, 1, 0]
    assert h["winner"] is None
    assert h["pot_after"] == 10  # P carries whole + D's penalty
    assert h["balances"] == [99, 99, 99, 99, 94]


# ========================================================================= R-BOURRE


def test_R_BOURRE_same_old_P():
    out = payout(result(5, 5, [1, 2, 3], [0, 5, 0, 0, 0]), full_pot)
    assert out.paid == [0, 0, 5, 5, 0]
    assert out.pot_after == 10  # not 5 + 10
    assert out.winner == 1 and out.takes[1] == 5
    assert out.bourre == [2, 3]
    assert full_pot(7) == 7


def test_R_BOURRE_same_old_P_through_replay():
    rec = run(make_script([hand_two_bourre(), sole_dealer_hand(1, 5)]))
    h = rec["hands"][0]
    assert (h["winner"], h["bourre"], h["pot_at_stake"], h["pot_after"]) == (1, [2, 3], 5, 10)
    assert h["balances"] == [99, 104, 94, 94, 99]
    assert rec["hands"][1]["pot_at_stake"] == 13  # B and C exempt, three antes


def test_R_BOURRE_with_a_tie_P_stays_and_payments_add():
    out = payout(result(5, 6, [1, 2, 3, 4], [0, 2, 2, 0, 1]), full_pot)
    assert out.winner is None and out.pot_after == 12 and out.paid == [0, 0, 0, 6, 0]


# =========================================================================== R-ANTE


def test_R_ANTE_exemptions_pure():
    prev = HandOutcome(None, [0] * 5, [0] * 5, 10, [4], [], frozenset({1, 2, 4}), (1, 2))
    assert StandardAnte().hand_antes(5, 1, prev, 0) == [1, 0, 0, 1, 0]
    out = payout(result(5, 5, [1, 2, 3, 4], [0, 2, 2, 1, 0]), full_pot)
    assert out.ante_exempt == frozenset({1, 2, 4})
    out = payout(result(5, 5, [1, 2], [0, 5, 0, 0, 0], reneges=[2]), full_pot)
    assert out.ante_exempt == frozenset({2})  # bourré; the winner is not exempt


def test_R_ANTE_tied_and_bourre_skip_the_next_ante():
    rec = run(make_script([hand_tie(), sole_dealer_hand(1, 5)]))
    h2 = rec["hands"][1]
    assert h2["pot_at_stake"] == 12  # 10 carried + seats 0 (passed) and 3 ante
    # after hand 2 (seat 1 takes 12): seats 2 (tied) and 4 (bourré) did not ante
    assert h2["balances"] == [98, 111, 99, 98, 94]


def test_R_ANTE_winner_and_passers_pay():
    rec = run(make_script([hand_2111(), sole_dealer_hand(1, 5)]))
    assert rec["hands"][1]["pot_at_stake"] == 5
    assert rec["hands"][1]["balances"] == [98, 108, 98, 98, 98]


def test_R_ANTE_renege_gives_no_exemption():
    # seat 2 reneges with the single most tricks: no tie exemption, everyone antes
    rec = run(
        make_script(
            [
                hand_forfeit(0, "1:AH 2:AS | 2:KS 1:2S | 2:QS 1:KH | 2:JS 1:QH | 2:3H 1:JH"),
                sole_dealer_hand(1, 5),
            ]
        )
    )
    assert rec["hands"][0]["pot_after"] == 10
    assert rec["hands"][1]["pot_at_stake"] == 15


# ========================================================================= R-SETTLE


def test_R_SETTLE_exact_fractions():
    final, ranks = settle([100] * 5, 7)
    assert final == [Fraction(507, 5)] * 5 and ranks == [1] * 5
    final, ranks = settle([100, 90, 110], 0)
    assert final == [100, 90, 110] and ranks == [2, 3, 1]
    assert all(type(x) is int for x in final)
    final, _ = settle([1, 2, 3, 4, 5], 10)
    assert final == [3, 4, 5, 6, 7] and all(type(x) is int for x in final)


def test_R_SETTLE_shared_ranks_1_2_2_4():
    assert ranks_of([10, 5, 5, 0]) == [1, 2, 2, 4]
    assert ranks_of([5, 10, 5, 10]) == [3, 1, 3, 1]
    assert ranks_of([Fraction(1, 3), Fraction(1, 3), 0]) == [1, 1, 3]
    _, ranks = settle([100, 95, 95, 90, 100], Fraction(3, 2))
    assert ranks == [1, 3, 3, 5, 1]


def test_R_SETTLE_through_replay():
    rec = run(make_script([hand_2111(0), hand_tie(1), hand_tie(2)]))
    assert rec["hands"][-1]["pot_after"] == 24
    assert rec["final"] == {
        "balances": ["489/5", "474/5", "514/5", "514/5", "509/5"],
        "ranks": [4, 5, 1, 1, 3],
    }
    # no new ante at the end: the last hand's balances + pot/5
    total = sum(Fraction(b) for b in rec["final"]["balances"])
    assert total == 500


# ========================================================================= R-RENEGE


def test_R_RENEGE_costs_P_and_the_card_stands():
    rec = run(make_script([hand_renege(), sole_dealer_hand(2, 5)]))
    h = rec["hands"][0]
    p = play_at(rec, 0, 3)
    assert (p["seat"], p["card"], p["renege"], p["corrected"], set(p["legal"])) == (
        1,
        "KH",
        True,
        False,
        {"2S"},
    )
    assert h["reneges"] == [1] and h["bourre"] == [1]
    assert h["winner"] == 2
    assert h["pot_after"] == 10  # bourré 5 + renege 5, both the old P
    assert h["balances"] == [99, 89, 104, 99, 99]
    # loses the next turn to deal: hand 2 is dealt by seat 2, not 1
    assert rec["hands"][1]["dealer"] == 2
    assert rec["hands"][1]["pot_at_stake"] == 14  # seat 1 exempt as bourré, not as renege


def test_R_RENEGE_each_renege_costs_P_again():
    rec = run(
        make_script([hand_renege(0, "1:AH 2:AS | 2:KS 1:KH | 2:QS 1:QH | 2:JS 1:2S | 2:TS 1:JH")])
    )
    h = rec["hands"][0]
    assert h["reneges"] == [1, 1]
    assert h["pot_after"] == 15
    assert h["balances"][1] == 84
    out = payout(result(3, 6, [0, 1, 2], [2, 2, 1], forfeits=[2], reneges=[2, 2]), full_pot)
    assert out.paid == [0, 0, 12] and out.pot_after == 18 and out.winner is None


def test_R_RENEGE_single_most_tricks_forfeits_the_pot():
    rec = run(
        make_script([hand_forfeit(0, "1:AH 2:AS | 2:KS 1:2S | 2:QS 1:KH | 2:JS 1:QH | 2:3H 1:JH")])
    )
    h = rec["hands"][0]
    assert h["tricks_won"] == [0, 1, 4, 0, 0]
    assert (h["winner"], h["reneges"], h["bourre"], h["pot_after"]) == (None, [2], [], 10)
    assert h["balances"] == [99, 99, 94, 99, 99]
    assert set(legal_of(rec, 0, 1)) == {"3H"}


def test_R_RENEGE_pure_payout():
    out = payout(result(5, 5, [1, 2], [0, 0, 5, 0, 0], forfeits=[2], reneges=[2]), full_pot)
    assert out.winner is None and out.takes == [0] * 5
    assert out.paid == [0, 5, 5, 0, 0] and out.pot_after == 15  # P + bourré + renege
    assert out.ante_exempt == frozenset({1})
    assert out.tied == ()


# ====================================================================== R-CORRECTED


def test_R_CORRECTED_no_penalty_but_loses_the_pot_and_the_deal():
    rec = run(
        make_script(
            [
                hand_forfeit(0, "1:AH 2:AS>3H | 1:KH 2:AS | 2:KS 1:2S | 2:QS 1:QH | 2:JS 1:JH"),
                sole_dealer_hand(1, 5),
                sole_dealer_hand(3, 5),
            ]
        )
    )
    h = rec["hands"][0]
    p = play_at(rec, 0, 1)
    assert (p["seat"], p["card"], p["corrected"], p["renege"], set(p["legal"])) == (
        2,
        "3H",
        True,
        False,
        {"3H"},
    )
    assert h["tricks_won"] == [0, 1, 4, 0, 0]
    assert (h["winner"], h["reneges"], h["bourre"], h["pot_after"]) == (None, [], [], 5)
    assert h["balances"] == [99, 99, 99, 99, 99]
    # no tie exemption: everyone antes; seat 2 loses its turn to deal
    assert rec["hands"][1]["pot_at_stake"] == 10
    assert [x["dealer"] for x in rec["hands"]] == [0, 1, 3]


def test_R_CORRECTED_zero_tricks_still_bourre():
    rec = run(
        make_script(
            [
                hand_renege(0, "1:AH 2:AS | 2:KS 1:KH>2S | 2:QS 1:KH | 2:JS 1:QH | 2:TS 1:JH"),
                sole_dealer_hand(2, 5),
            ]
        )
    )
    h = rec["hands"][0]
    assert (h["winner"], h["bourre"], h["reneges"], h["pot_after"]) == (2, [1], [], 5)
    assert h["balances"] == [99, 94, 104, 99, 99]
    assert rec["hands"][1]["dealer"] == 2


def test_R_CORRECTED_to_another_illegal_card_stands_as_a_renege():
    script = complete(make_script([hand_forfeit(0, "1:AH 2:AS>KS")]))
    rec = run(script)
    p = play_at(rec, 0, 1)
    assert (p["card"], p["corrected"], p["renege"], set(p["legal"])) == ("KS", True, True, {"3H"})
    h = rec["hands"][0]
    assert h["reneges"] == [2] and h["winner"] is None
    assert h["pot_after"] == 10
    assert normalize(rec) == reference(script)


def test_R_CORRECTED_a_legal_card_cannot_be_corrected():
    refused(make_script([hand_forfeit(0, "1:AH>KH")]), "hand 1, play 1", "R-CORRECTED")
    refused(make_script([hand_forfeit(0, "1:AH 2:3H>AS")]), "hand 1, play 2", "R-CORRECTED")


def test_R_CORRECTED_tied_for_most_uses_the_tie_rules():
    out = payout(result(4, 8, [0, 1, 2, 3], [2, 2, 1, 0], forfeits=[1]), full_pot)
    assert out.winner is None and out.pot_after == 16
    assert set(out.tied) == {0, 1} and out.ante_exempt == frozenset({0, 1, 3})


def test_R_CORRECTED_single_most_carries_without_tie_exemption():
    out = payout(result(4, 8, [0, 1, 2, 3], [3, 1, 1, 0], forfeits=[0]), full_pot)
    assert out.winner is None and out.pot_after == 16
    assert out.tied == () and out.ante_exempt == frozenset({3})


def test_R_CORRECTED_correction_must_be_held():
    hand = hand_forfeit(0, "1:AH 2:AS>2D")
    refused(make_script([hand]), "hand 1, play 2", "R-CORRECTED")


# ------------------------------------------------------------------------- sanity


def test_scenarios_agree_with_the_reference():
    """The hand-made deals above are refereed alike by the independent reference."""
    from conftest import hand_worked_example

    for script in (
        make_script([hand_2111(), sole_dealer_hand(1, 5)]),
        make_script([hand_tie(), sole_dealer_hand(1, 5)]),
        make_script([hand_two_bourre(), sole_dealer_hand(1, 5)]),
        make_script([hand_renege(), sole_dealer_hand(2, 5)]),
        make_script([hand_worked_example(), sole_dealer_hand(3, 5)]),
        make_script([hand_2111(0), hand_tie(1), hand_tie(2)]),
    ):
        assert normalize(run(script)) == reference(script)
    assert RENEGE_DEAL and FORFEIT_DEAL
