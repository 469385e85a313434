"""The worked example of RULES.md (seeds 08) and the three FAQ answers of the rules
card (seeds/000_*.txt, "Perguntas frequentes"), refereed by ``bourre replay``."""

from __future__ import annotations

from fractions import Fraction

from conftest import (
    M,
    S,
    T,
    complete,
    decisions,
    hand_tie,
    hand_worked_example,
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

from bourre_variants.standard.obligations import follow

A, B, C = 4, 0, 1  # the example's players, seated; seat 2 deals, seats 2 and 3 pass


def worked_script():
    # hand 2 is dealt by seat 3 (left of 2): everyone passes, the dealer takes the pot
    return make_script([hand_worked_example(), sole_dealer_hand(3, 5)])


def test_worked_example_first_trick():
    rec = run(worked_script())
    h = rec["hands"][0]
    assert h["trump"] == "S" and h["upcard"] == "2S" and h["dealer"] == 2
    assert h["active"] == sorted([A, B, C])
    t1 = h["tricks"][0]
    assert [(p["seat"], p["card"]) for p in t1["plays"]] == [(A, "JH"), (B, "3S"), (C, "5H")]
    assert set(t1["plays"][1]["legal"]) == {"3S"}  # B has no hearts: his only trump
    assert set(t1["plays"][2]["legal"]) == {"AH", "5H"}  # C must follow, may keep AH
    assert t1["winner"] == B
    assert not any(p["renege"] for t in h["tricks"] for p in t["plays"])


def test_worked_example_payout_A_takes_5_C_pays_5_next_pot_9():
    rec = run(worked_script())
    h1, h2 = rec["hands"]
    assert h1["tricks_won"][A] == 3 and h1["tricks_won"][B] == 2 and h1["tricks_won"][C] == 0
    assert h1["pot_at_stake"] == 5
    assert h1["winner"] == A
    assert h1["bourre"] == [C]
    assert h1["pot_after"] == 5  # C's penalty: the old P
    # A took 5 after his ante; C paid 5; the others lost their ante only
    assert h1["balances"] == [99, 94, 99, 99, 104]
    # the other four ante 1: next pot 9 (C's penalty does not cancel A's win)
    assert h2["dealer"] == 3
    assert h2["pot_at_stake"] == 9
    assert h2["balances"] == [98, 94, 98, 107, 103]
    assert rec["final"] == {"balances": [98, 94, 98, 107, 103], "ranks": [3, 5, 3, 1, 2]}
    assert sum(Fraction(b) for b in rec["final"]["balances"]) == 500


def test_worked_example_agrees_with_the_reference():
    script = worked_script()
    assert normalize(run(script)) == reference(script)


def test_worked_example_reference_script_of_the_team():
    """The reference package's own rendering of the example (other seats)."""
    from tests.reference.generate import worked_example_script

    script = worked_example_script()
    rec = run(script)
    h1, h2 = rec["hands"]
    assert h1["tricks_won"] == [0, 0, 0, 3, 2]
    assert (h1["winner"], h1["bourre"], h1["pot_after"]) == (3, [0], 5)
    assert h2["pot_at_stake"] == 9
    assert normalize(rec) == reference(script)


# -------------------------------------------------------------------- FAQ answers


def test_FAQ_tied_max_does_not_split_the_pot_it_carries_whole():
    """ "Máximo empatado divide pote? Não, todo o pote passa à próxima mão." """
    rec = run(make_script([hand_tie(), sole_dealer_hand(1, 5)]))
    h = rec["hands"][0]
    assert h["tricks_won"] == [0, 2, 2, 1, 0]
    assert h["winner"] is None
    # the tied players receive nothing: they lost just their ante
    assert h["balances"][1] == h["balances"][2] == 99
    # the whole P (5) carries, plus the zero-trick penalty of seat 4
    assert h["pot_after"] == 5 + 5
    assert rec["hands"][1]["pot_at_stake"] == 10 + 2


def test_FAQ_cannot_discard_holding_a_weak_trump_must_trump():
    """ "Posso descartar sem naipe com trunfo fraco? Não, trunfo é obrigatório mesmo sem
    conseguir vencer." """
    spades = 0
    assert S(follow(M("2S 4C 5D"), T("QH 9S"), spades)) == {"2S"}
    assert S(follow(M("2S 4C 5D"), T("QH"), spades)) == {"2S"}
    # at the table: seat 1 leads QH, seat 2 trumps 9S, seat 3 (2S, no heart) discards 4C
    deck = script_deck(
        {1: "QH 6C 7C 8C 9C", 2: "9S 2D 3D 4D 6D", 3: "2S 4C 5D 7D 8D", 0: "2C 3C 5C TC 8S"}, 0, 5
    )
    decs = decisions(0, 5, {1: "play", 2: "play", 3: "play"})
    ok = complete(make_script([make_hand(deck, decs, plays("1:QH 2:9S 3:2S"))]))
    p = play_at(run(ok), 0, 2)
    assert (p["card"], p["renege"], set(p["legal"])) == ("2S", False, {"2S"})
    bad = complete(make_script([make_hand(deck, decs, plays("1:QH 2:9S 3:4C"))]))
    rec = run(bad)
    p = play_at(rec, 0, 2)
    assert (p["card"], p["renege"], set(p["legal"])) == ("4C", True, {"2S"})
    assert rec["hands"][0]["reneges"] == [3]
    assert normalize(rec) == reference(bad)


def test_FAQ_winner_does_not_receive_zero_trick_penalties():
    """ "Vencedor atual recebe multas de zero? Não, esses pagamentos formam o próximo
    pote." """
    rec = run(worked_script())
    h = rec["hands"][0]
    assert h["winner"] == A
    assert h["balances"][A] == 100 - 1 + 5  # P only, not P + C's 5
    assert h["pot_after"] == 5  # C's payment is the next pot
    assert rec["hands"][1]["pot_at_stake"] == 9
    assert h["balances"][C] == 100 - 1 - 5
