"""Random table scripts for the reference referee (and for differential tests).

random_script(...) invents a session that DOES describe real hands: it drives the
referee's own rule functions (Deal, Session, legal sets) while choosing decisions
and plays, so `referee` accepts every script it returns.
malformed_scripts(rng) returns scripts that must be refused with ScriptError.

Run `python tests/reference/generate.py` for the self-check.
"""

from __future__ import annotations

import copy
import json
import random

try:  # imported as part of the package
    from .referee import (
        FULL_DECK,
        Deal,
        ScriptError,
        Session,
        parse_balances,
        parse_rules,
        payout,
        referee,
        rotate_dealer,
        trick_winner,
    )
except ImportError:  # run as a script
    from referee import (
        FULL_DECK,
        Deal,
        ScriptError,
        Session,
        parse_balances,
        parse_rules,
        payout,
        referee,
        rotate_dealer,
        trick_winner,
    )

OPTIONAL_VARIANTS = [
    "double-ante",
    "pot-limit",
    "four-card",
    "simultaneous-reveal",
    "optional-undertrump",
    "no-cinch",
]

# Counters for the self-check (how often the interesting paths were exercised).
STATS = {
    "reshuffles": 0,
    "double_reshuffles": 0,
    "reneges": 0,
    "corrections": 0,
    "premature": 0,
    "sole": 0,
    "cinch_plays": 0,
    "hands": 0,
}


def _spell(rng: random.Random, card: str) -> str:
    """Sometimes write a ten as '10H' (accepted on input, R-DECK)."""
    if card[0] == "T" and rng.random() < 0.3:
        return "10" + card[1]
    return card


def _random_amount(rng: random.Random, choices) -> int | str:
    return rng.choice(choices)


def _make_rules(rng, players, variants, settings, hands) -> dict:
    table = {"players": players}
    if rng.random() < 0.8:
        table["hands"] = hands + rng.choice([0, 0, 1, 5])
    elif hands > 12:
        table["hands"] = hands
    if rng.random() < 0.2:
        table["ante"] = _random_amount(rng, [2, "1/2", "3/2"])
    if rng.random() < 0.2:
        table["balance"] = _random_amount(rng, [0, 50, "201/2"])
    if rng.random() < 0.3:
        table["first_dealer"] = rng.randrange(players)
    names = [v for v in variants if v != "standard"]
    block: dict = {"use": (["standard"] if rng.random() < 0.5 else []) + names}
    settings = settings or {}
    for name, value in settings.items():
        block[name] = copy.deepcopy(value)
    if "pot-limit" in names and "pot-limit" not in block:
        block["pot-limit"] = {"limit": rng.choice([1, 2, 3, 5, "5/2"])}
    return {"table": table, "variants": block}


def _choose_decisions(rng, deal: Deal, heavy: bool) -> list[dict]:
    """Random pass/play respecting R-ACE-UP and R-LAST-STANDS; random discards within
    what the stock (plus a reshuffle, R-RESHUFFLE) can serve."""
    simultaneous = deal.rules.uses("simultaneous-reveal")
    p_play = 0.9 if heavy else rng.choice([0.15, 0.5, 0.8])
    decisions = []
    for seat in deal.decision_order():
        forced = seat == deal.dealer and (
            deal.ace_of_trumps_up() or (not simultaneous and not deal.active)
        )
        if not (forced or rng.random() < p_play):
            decisions.append({"seat": seat, "action": "pass"})
            continue
        if heavy:
            count = rng.randint(max(0, deal.h - 2), deal.h)
        else:
            count = rng.choice([0, 1, 1, 2, 2, 3, 3, 4, deal.h])
        count = min(count, deal.h, len(deal.stock) + len(deal.pile))
        discard = rng.sample(deal.hands[seat], count)
        decision = {"seat": seat, "action": "play"}
        if discard or rng.random() < 0.2:
            decision["discard"] = [_spell(rng, c) for c in discard]
        before = deal.reshuffles
        deal.take_part(seat, discard, "generator")
        STATS["reshuffles"] += deal.reshuffles - before
        decisions.append(decision)
    if deal.reshuffles >= 2:
        STATS["double_reshuffles"] += 1
    if simultaneous and not deal.active:
        deal.force_dealer_in()
    return decisions


def _choose_plays(rng, deal: Deal, illegal_rate: float) -> list[dict]:
    """Mostly uniform legal plays; sometimes a renege, sometimes a corrected illegal card."""
    if len(deal.active) == 1:
        STATS["sole"] += 1
        return []
    plays = []
    leader = deal.first_leader()
    for _ in range(deal.h):
        order = deal.play_order(leader)
        trick: list[tuple[int, str]] = []
        for position, seat in enumerate(order):
            legal, cinch = deal.legal(seat, trick, is_last=position == len(order) - 1)
            STATS["cinch_plays"] += cinch
            hand = deal.hands[seat]
            illegal = [c for c in hand if c not in legal]
            roll = rng.random()
            if illegal and roll < illegal_rate:  # a renege: the card stands
                card = rng.choice(illegal)
                plays.append({"seat": seat, "card": _spell(rng, card)})
                STATS["reneges"] += 1
            elif illegal and roll < 2 * illegal_rate:  # taken back, corrected to another card
                first = rng.choice(illegal)
                card = rng.choice([c for c in hand if c != first])
                plays.append(
                    {"seat": seat, "card": _spell(rng, first), "corrected_to": _spell(rng, card)}
                )
                STATS["corrections"] += 1
            else:
                card = rng.choice(legal)
                plays.append({"seat": seat, "card": _spell(rng, card)})
            deal.lay(seat, card, trick)
        winner = trick_winner(trick, deal.trump)
        deal.tricks_won[winner] += 1
        leader = winner
    return plays


def random_script(
    rng: random.Random,
    *,
    players: int,
    variants: list[str],
    settings: dict | None = None,
    hands: int = 3,
    illegal_rate: float = 0.05,
    premature_rate: float = 0.05,
) -> dict:
    """A script of `hands` hands at a table of `players` that the referee must accept."""
    script: dict = {"rules": _make_rules(rng, players, variants, settings, hands), "hands": []}
    rules = parse_rules(script["rules"])
    if rng.random() < 0.1:
        script["balances"] = [rng.choice([100, 0, -5, "7/2"]) for _ in range(players)]
    session = Session(rules, parse_balances(script.get("balances"), rules))
    # Large tables with heavy exchanges make the stock run out (R-RESHUFFLE).
    heavy_session = players >= 6 and rng.random() < 0.5
    for _ in range(hands):
        hand: dict = {}
        if rng.random() < 0.1:
            hand["dealer"] = rng.randrange(players)
        if rng.random() < 0.08:
            hand["pot"] = rng.choice([0, 3, 10, "5/2"])
        dealer = session.upcoming_dealer(hand)
        deck = list(FULL_DECK)
        rng.shuffle(deck)
        hand["deck"] = [_spell(rng, c) for c in deck]
        deal = Deal(rules, dealer, deck)
        heavy = heavy_session or (players >= 6 and rng.random() < 0.2)
        hand["decisions"] = _choose_decisions(rng, deal, heavy)
        hand["plays"] = _choose_plays(rng, deal, illegal_rate)
        if not rules.uses("simultaneous-reveal") and rng.random() < premature_rate * players:
            hand["events"] = [{"type": "premature", "seat": rng.randrange(players)}]
            STATS["premature"] += 1
        session.play_hand(hand)  # advance the session (and check the generator)
        STATS["hands"] += 1
        script["hands"].append(hand)
    return script


# ---------------------------------------------------------------------------
# Scripts that must be refused
# ---------------------------------------------------------------------------


def _base(rng, *, players=5, variants=(), hands=2, need_plays=True) -> dict:
    """A clean script (no reneges, no premature events) whose first hand has tricks."""
    while True:
        script = random_script(
            rng,
            players=players,
            variants=list(variants),
            hands=hands,
            illegal_rate=0.0,
            premature_rate=0.0,
        )
        first = script["hands"][0]
        script["rules"]["table"]["hands"] = max(hands, 2)
        if "pot" in first or "balances" in script:
            continue
        if not need_plays or len(first["plays"]) >= 2 * 5:
            return script


def _record(script: dict) -> dict:
    return referee(copy.deepcopy(script))


def malformed_scripts(rng: random.Random) -> list[tuple[str, dict]]:
    """(description, script) pairs that referee() must refuse with ScriptError."""
    out: list[tuple[str, dict]] = []

    def add(description, mutate, **base_kw):
        script = _base(rng, **base_kw)
        mutate(script)
        out.append((description, script))

    def dup_card(s):
        s["hands"][0]["deck"][1] = s["hands"][0]["deck"][0]

    add("duplicate card in the deck", dup_card)

    def short_deck(s):
        s["hands"][0]["deck"].pop()

    add("51-card deck", short_deck)

    def unknown_card(s):
        s["hands"][0]["deck"][0] = "1X"

    add("unknown card 1X", unknown_card)

    def decision_out_of_turn(s):
        d = s["hands"][0]["decisions"]
        d[0], d[1] = d[1], d[0]

    add("a decision out of turn", decision_out_of_turn)

    def play_out_of_turn(s):
        p = s["hands"][0]["plays"]
        p[0], p[1] = p[1], p[0]

    add("a play out of turn", play_out_of_turn)

    def not_held(s):
        rec = _record(s)["hands"][0]
        leader = s["hands"][0]["plays"][0]["seat"]
        other = next(x for x in rec["active"] if x != leader)
        s["hands"][0]["plays"][0]["card"] = rec["hands_after_draw"][other][0]

    add("a card the player does not hold", not_held)

    def too_many_discards(s):
        hand = s["hands"][0]
        dealer = _record(s)["hands"][0]["dealer"]
        held = [
            c for i, c in enumerate(hand["deck"][:25]) if (dealer + 1 + i) % 5 == (dealer + 1) % 5
        ]
        hand["decisions"][0] = {
            "seat": (dealer + 1) % 5,
            "action": "play",
            "discard": held + [hand["deck"][-1]],
        }

    add("discard of too many cards (6 with a hand of 5)", too_many_discards)

    def unknown_variant(s):
        s["rules"]["variants"]["use"] = ["standard", "turbo"]

    add("unknown variant", unknown_variant)

    def pot_limit_zero(s):
        s["rules"]["variants"] = {"use": ["pot-limit"], "pot-limit": {"limit": 0}}

    add("pot-limit with limit 0", pot_limit_zero)

    def pot_limit_missing(s):
        s["rules"]["variants"] = {"use": ["pot-limit"]}

    add("pot-limit without a limit", pot_limit_missing)

    def nine_players(s):
        s["rules"]["table"]["players"] = 9

    add("players 9", nine_players)

    def correct_legal(s):
        rec = _record(s)["hands"][0]
        first = rec["tricks"][0]["plays"][0]
        other = next(c for c in rec["hands_after_draw"][first["seat"]] if c != first["card"])
        s["hands"][0]["plays"][0]["corrected_to"] = other  # plays[0] was legal

    add("correction of a legal card", correct_legal)

    def too_many_hands(s):
        s["rules"]["table"]["hands"] = 1

    add("more hands than table.hands", too_many_hands, hands=2)

    def dealer_passes_last(s):
        hand = s["hands"][0]
        dealer = _record(s)["hands"][0]["dealer"]
        hand["decisions"] = [{"seat": (dealer + 1 + i) % 5, "action": "pass"} for i in range(5)]
        hand["plays"] = []

    add("the dealer passes after everyone passed (R-LAST-STANDS)", dealer_passes_last)

    def missing_play(s):
        s["hands"][0]["plays"].pop()

    add("a play missing at the end of the hand", missing_play)

    def extra_play(s):
        s["hands"][0]["plays"].append(dict(s["hands"][0]["plays"][-1]))

    add("an extra play after the last trick", extra_play)

    def premature_simultaneous(s):
        s["hands"][0]["events"] = [{"type": "premature", "seat": 1}]

    add(
        "a premature event under simultaneous-reveal",
        premature_simultaneous,
        variants=("simultaneous-reveal",),
    )

    return out


# ---------------------------------------------------------------------------
# RULES.md worked example (seeds 08)
# ---------------------------------------------------------------------------


def worked_example_script() -> dict:
    """2 of 5 passed; A (seat 3), B (seat 4), C (seat 0, the dealer) play, spades trump.
    A leads JH, B plays his only trump 3S, C holds AH 5H 8S and plays 5H; B wins.
    Tricks A=3 B=2 C=0; A takes 5, C pays 5, the other four ante 1: next pot 9."""
    held = {
        1: ["2H", "3H", "4H", "6H", "7H"],  # passes
        2: ["8H", "9H", "TH", "QH", "KH"],  # passes
        3: ["JH", "AS", "KS", "AC", "2D"],  # A
        4: ["3S", "QD", "KC", "4D", "3C"],  # B
        0: ["AH", "5H", "7C", "6D", "8S"],  # C, dealer; 8S is the upcard
    }
    deck = []
    for r in range(5):
        for seat in (1, 2, 3, 4, 0):
            deck.append(held[seat][r])
    deck += [c for c in FULL_DECK if c not in deck]
    plays = [
        (3, "JH"),
        (4, "3S"),
        (0, "5H"),  # B wins with his only trump
        (4, "QD"),
        (0, "6D"),
        (3, "2D"),  # B wins (clockwise from seat 4: 4, 0, 3)
        (4, "KC"),
        (0, "7C"),
        (3, "AC"),  # A wins
        (3, "AS"),
        (4, "4D"),
        (0, "8S"),  # A (cinch: 1 trick + AS KS) leads AS
        (3, "KS"),
        (4, "3C"),
        (0, "AH"),  # A wins
    ]
    first = {
        "deck": deck,
        "decisions": [
            {"seat": 1, "action": "pass"},
            {"seat": 2, "action": "pass"},
            {"seat": 3, "action": "play"},
            {"seat": 4, "action": "play"},
            {"seat": 0, "action": "play"},
        ],
        "plays": [{"seat": s, "card": c} for s, c in plays],
    }
    # Hand 2 (dealer 1): everybody passes but the dealer, who takes the pot of 9.
    deck2 = list(FULL_DECK)
    random.Random(8).shuffle(deck2)
    if deck2[24][0] == "A":  # keep the test independent of R-ACE-UP
        deck2[24], deck2[30] = deck2[30], deck2[24]
    second = {
        "deck": deck2,
        "decisions": [{"seat": s, "action": "pass"} for s in (2, 3, 4, 0)]
        + [{"seat": 1, "action": "play"}],
        "plays": [],
    }
    return {"rules": {"table": {"players": 5}}, "hands": [first, second]}


def check_worked_example() -> None:
    record = referee(worked_example_script())
    h1, h2 = record["hands"]
    assert h1["trump"] == "S" and h1["upcard"] == "8S", h1
    assert h1["active"] == [0, 3, 4], h1["active"]
    t1 = h1["tricks"][0]
    assert t1["leader"] == 3 and t1["winner"] == 4, t1
    assert set(t1["plays"][1]["legal"]) == {"3S"}, t1  # B must trump
    assert set(t1["plays"][2]["legal"]) == {"AH", "5H"}, t1  # trumped: any heart
    assert h1["tricks_won"] == [0, 0, 0, 3, 2], h1["tricks_won"]
    assert h1["tricks"][3]["plays"][0]["cinch"] is True
    assert set(h1["tricks"][3]["plays"][0]["legal"]) == {"AS", "KS"}
    assert h1["pot_at_stake"] == 5 and h1["winner"] == 3 and h1["bourre"] == [0], h1
    assert h1["pot_after"] == 5 and h1["reneges"] == []
    assert h1["balances"] == [94, 99, 99, 104, 99], h1["balances"]
    assert h2["dealer"] == 1 and h2["pot_at_stake"] == 9, h2  # C exempt, four ante 1
    assert h2["winner"] == 1 and h2["tricks_won"][1] == 5 and h2["tricks"] == []
    assert h2["balances"] == [94, 107, 98, 103, 98], h2["balances"]
    assert record["final"] == {"balances": [94, 107, 98, 103, 98], "ranks": [5, 1, 3, 2, 3]}


# ---------------------------------------------------------------------------
# Targeted checks of single rules (hand-computed expectations)
# ---------------------------------------------------------------------------


def _deal_with(rules_raw: dict, hands: dict[int, list[str]], trump: str) -> Deal:
    """A Deal whose hands are set by hand (for legal-set checks); all seats active."""
    rules = parse_rules(rules_raw)
    deal = Deal(rules, 0, list(FULL_DECK))
    deal.hands = [list(hands.get(s, [])) for s in range(rules.players)]
    deal.trump = trump
    deal.active = list(range(rules.players))
    return deal


def check_legal_sets() -> None:
    from fractions import Fraction

    std = {"table": {"players": 3}}
    opt = {"table": {"players": 3}, "variants": {"use": ["optional-undertrump"]}}
    noc = {"table": {"players": 3}, "variants": {"use": ["no-cinch"]}}

    def legal(raw, hand, trick, *, won=0, last=False, played=()):
        deal = _deal_with(raw, {2: hand}, "S")
        deal.tricks_won[2] = won
        deal.played = set(played) | {c for _, c in trick}
        cards, cinch = deal.legal(2, list(trick), is_last=last)
        return set(cards), cinch

    # R-FOLLOW: must beat the winning card of the led suit when possible
    assert legal(std, ["KH", "2H", "AS", "3C"], [(0, "QH")]) == ({"KH"}, False)
    assert legal(std, ["JH", "2H", "AS"], [(0, "QH")]) == ({"JH", "2H"}, False)
    # R-FOLLOW: trick already trumped, any card of the led suit
    assert legal(std, ["KH", "2H", "AS"], [(0, "QH"), (1, "2S")]) == ({"KH", "2H"}, False)
    # R-TRUMP: over-trump when possible, else under-trump (obligatory)
    assert legal(std, ["AS", "3S", "4C"], [(0, "QH"), (1, "5S")]) == ({"AS"}, False)
    assert legal(std, ["3S", "4C"], [(0, "QH"), (1, "5S")]) == ({"3S"}, False)
    assert legal(opt, ["3S", "4C"], [(0, "QH"), (1, "5S")]) == ({"3S", "4C"}, False)
    assert legal(opt, ["AS", "3S", "4C"], [(0, "QH"), (1, "5S")]) == ({"AS"}, False)
    assert legal(std, ["3S", "9S", "4C"], [(0, "QH")]) == ({"3S", "9S"}, False)
    # R-DISCARD
    assert legal(std, ["4C", "5D"], [(0, "QH")]) == ({"4C", "5D"}, False)
    # trumps led: follow and beat
    assert legal(std, ["AS", "3S"], [(0, "QS")]) == ({"AS"}, False)
    assert legal(std, ["3S", "2S", "AH"], [(0, "QS")]) == ({"3S", "2S"}, False)
    # R-CINCH-LEAD with R-EQUIV: 1 trick + AS KS masters; 9S not connected (QS unknown)
    assert legal(std, ["AS", "KS", "9S", "2C"], [], won=1) == ({"AS", "KS"}, True)
    assert legal(std, ["AS", "KS", "9S", "2C"], [], won=1, played=["QS", "JS", "TS"]) == (
        {"AS", "KS", "9S"},
        True,
    )
    assert legal(noc, ["AS", "KS", "9S", "2C"], [], won=1) == ({"AS", "KS", "9S", "2C"}, False)
    # no cinch with only two sure tricks
    assert legal(std, ["AS", "KS", "9S", "2C"], []) == ({"AS", "KS", "9S", "2C"}, False)
    # cinch without trumps: free lead
    assert legal(std, ["2C", "3D"], [], won=3) == ({"2C", "3D"}, True)
    # R-CINCH-FOLLOW: highest allowed trump; R-CINCH-LAST: ordinary obligations
    assert legal(std, ["AS", "KS", "9S", "2C"], [(0, "3H")], won=1) == ({"AS", "KS"}, True)
    assert legal(std, ["AS", "KS", "9S", "2C"], [(0, "3H"), (1, "4H")], won=1, last=True) == (
        {"AS", "KS", "9S"},
        True,
    )
    # following suit keeps priority over the cinch
    assert legal(std, ["AS", "KS", "QS", "5H", "2H"], [(0, "3H")]) == ({"5H"}, True)
    # optional-undertrump: a cinch still obliges the highest trump
    assert legal(opt, ["5S", "4S", "2C"], [(0, "3H"), (1, "9S")], won=3) == ({"5S", "4S"}, True)
    assert legal(opt, ["5S", "4S", "2C"], [(0, "3H"), (1, "9S")], won=3, last=True) == (
        {"5S", "4S", "2C"},
        True,
    )

    # R-WIN / R-BOURRE / R-CORRECTED / pot-limit payouts
    rules = parse_rules({"table": {"players": 3}})
    deal = _deal_with({"table": {"players": 3}}, {}, "S")

    def pay(won, forfeit=(), reneges=(), limit_rules=rules):
        deal.tricks_won = list(won)
        return payout(
            limit_rules,
            Fraction(6),
            deal,
            {"sole": False, "forfeit": set(forfeit), "reneges": list(reneges)},
        )

    r = pay([3, 2, 0])
    assert (r["winner"], r["bourre"], r["pot_after"], r["exempt"]) == (0, [2], 6, {2})
    r = pay([3, 2, 0], forfeit=[0])  # single most but forfeited: carries, no tie exemption
    assert (r["winner"], r["pot_after"], r["exempt"]) == (None, 12, {2})
    r = pay([2, 2, 1], forfeit=[2], reneges=[2, 2])  # tie; two reneges pay twice
    assert (r["winner"], r["pot_after"], r["exempt"]) == (None, 18, {0, 1})
    assert r["paid"] == {2: 12}
    limited = parse_rules(
        {"table": {"players": 3}, "variants": {"use": ["pot-limit"], "pot-limit": {"limit": "5/2"}}}
    )
    r = pay([4, 1, 0], reneges=[1], limit_rules=limited)
    assert (r["winner"], r["pot_after"]) == (0, 5)

    # R-DEALER / R-PREMATURE: marks are skipped and used up
    assert rotate_dealer(0, [False, True, True, False, False], 5) == (3, [False] * 5)
    assert rotate_dealer(4, [True, False, False, False, True], 5) == (
        1,
        [False] + [False] * 3 + [True],
    )


def check_reshuffle() -> None:
    """R-RESHUFFLE (I-3) at 8 players: seat 3 empties the stock, seat 4 draws only
    from the reshuffled discards of seats 1 and 2."""
    deck = list(FULL_DECK)
    dealt = {s: [deck[i] for i in range(40) if (1 + i) % 8 == s] for s in range(8)}
    stock = deck[40:]
    decisions = [
        {"seat": 1, "action": "play", "discard": dealt[1]},  # draws stock 0..4
        {"seat": 2, "action": "play", "discard": dealt[2]},  # draws stock 5..9
        {"seat": 3, "action": "play", "discard": dealt[3][:4]},  # stock 10, 11, then 1's first two
        {"seat": 4, "action": "play", "discard": dealt[4]},  # 1's last three, 2's first two
        {"seat": 5, "action": "pass"},
        {"seat": 6, "action": "pass"},
        {"seat": 7, "action": "pass"},
        {"seat": 0, "action": "play"},
    ]
    rules = parse_rules({"table": {"players": 8}})
    deal = Deal(rules, 0, deck)
    for d in decisions:
        if d["action"] == "play":
            deal.take_part(d["seat"], d.get("discard", []), "check")
    assert deal.reshuffles == 1
    assert deal.own_discards[1] == set() and deal.own_discards[2] == set()
    assert deal.own_discards[3] == set(dealt[3][:4])
    plays = _choose_plays(random.Random(3), deal, 0.0)
    script = {
        "rules": {"table": {"players": 8}},
        "hands": [{"deck": deck, "decisions": decisions, "plays": plays}],
    }
    rec = referee(script)["hands"][0]
    after = rec["hands_after_draw"]
    assert after[1] == stock[0:5] and after[2] == stock[5:10]
    assert after[3] == [dealt[3][4]] + stock[10:12] + dealt[1][0:2], after[3]
    assert after[4] == dealt[1][2:5] + dealt[2][0:2], after[4]
    assert after[0] == dealt[0] and after[5] == []
    # one more card wanted than the discards can give: refused
    bad = copy.deepcopy(script)
    bad["hands"][0]["decisions"][7] = {"seat": 0, "action": "play", "discard": dealt[0]}
    bad["hands"][0]["decisions"][6] = {"seat": 7, "action": "play", "discard": dealt[7]}
    bad["hands"][0]["decisions"][5] = {"seat": 6, "action": "play", "discard": dealt[6]}
    bad["hands"][0]["decisions"][4] = {"seat": 5, "action": "play", "discard": dealt[5]}
    try:
        referee(bad)
    except ScriptError:
        pass
    else:
        raise AssertionError("an impossible draw was accepted")


def check_own_discard_cinch() -> None:
    """R-SURE (I-6): a trump in one's own discards counts as out. Seat 1 holds AS KS QS,
    discards KS and draws JS: AS, QS, JS are masters -> cinch at the lead, and QS, JS are
    equivalent to AS (R-EQUIV)."""
    dealt = {1: ["AS", "KS", "QS", "2H", "3H"], 0: ["4D", "5D", "6D", "7D", "5S"]}
    deck = []
    for r in range(5):
        deck += [dealt[1][r], dealt[0][r]]
    deck += ["JS", "8C"] + [c for c in FULL_DECK if c not in deck and c not in ("JS", "8C")]
    decisions = [
        {"seat": 1, "action": "play", "discard": ["KS", "2H"]},
        {"seat": 0, "action": "play"},
    ]
    rules = parse_rules({"table": {"players": 2}})
    deal = Deal(rules, 0, deck)
    for d in decisions:
        deal.take_part(d["seat"], d.get("discard", []), "check")
    plays = _choose_plays(random.Random(5), deal, 0.0)
    rec = referee(
        {
            "rules": {"table": {"players": 2}},
            "hands": [{"deck": deck, "decisions": decisions, "plays": plays}],
        }
    )
    first = rec["hands"][0]["tricks"][0]["plays"][0]
    assert rec["hands"][0]["trump"] == "S"
    assert first["seat"] == 1 and first["cinch"] is True, first
    assert set(first["legal"]) == {"AS", "QS", "JS"}, first


def check_simultaneous_forced_dealer() -> None:
    """simultaneous-reveal Decision: nobody plays, the dealer is forced in without an
    exchange; with double-ante he adds his second ante."""
    deck = list(FULL_DECK)
    if deck[14][0] == "A":
        deck[14], deck[20] = deck[20], deck[14]
    raw = {"table": {"players": 3}, "variants": {"use": ["simultaneous-reveal", "double-ante"]}}
    decisions = [{"seat": s, "action": "pass"} for s in (1, 2, 0)]
    rec = referee({"rules": raw, "hands": [{"deck": deck, "decisions": decisions}]})
    h = rec["hands"][0]
    dealt0 = [deck[i] for i in range(15) if (1 + i) % 3 == 0]
    assert h["active"] == [0] and h["hands_after_draw"][0] == dealt0
    assert h["pot_at_stake"] == 4 and h["winner"] == 0 and h["tricks_won"] == [5, 0, 0]
    assert h["balances"] == [102, 99, 99]
    bad = copy.deepcopy(decisions)
    bad[2]["discard"] = [dealt0[0]]  # a forced dealer (a pass) has no exchange
    try:
        referee({"rules": raw, "hands": [{"deck": deck, "decisions": bad}]})
    except ScriptError:
        pass
    else:
        raise AssertionError("a pass with a discard was accepted")


def check_premature_skips_deal() -> None:
    """R-PREMATURE: seat 1 announced early in hand 1, so hand 2 is dealt by seat 2."""
    script = worked_example_script()
    script["hands"][0]["events"] = [{"type": "premature", "seat": 1}]
    script["hands"][1]["decisions"] = [{"seat": s, "action": "pass"} for s in (3, 4, 0, 1)] + [
        {"seat": 2, "action": "play"}
    ]
    rec = referee(script)
    assert rec["hands"][1]["dealer"] == 2 and rec["hands"][1]["winner"] == 2


def check_targeted() -> None:
    check_legal_sets()
    check_reshuffle()
    check_own_discard_cinch()
    check_simultaneous_forced_dealer()
    check_premature_skips_deal()


# ---------------------------------------------------------------------------
# Self-check
# ---------------------------------------------------------------------------


def _check_record(script: dict, record: dict) -> None:
    rules = parse_rules(script["rules"])
    n, h = rules.players, rules.hand_size
    assert len(record["hands"]) == len(script["hands"])
    for rec in record["hands"]:
        assert len(rec["tricks_won"]) == n and len(rec["hands_after_draw"]) == n
        assert len(rec["balances"]) == n
        assert sum(rec["tricks_won"]) == h
        if len(rec["active"]) == 1:
            assert rec["tricks"] == [] and rec["winner"] == rec["active"][0]
        else:
            assert len(rec["tricks"]) == h
            for trick in rec["tricks"]:
                assert len(trick["plays"]) == len(rec["active"])
                for p in trick["plays"]:
                    assert p["legal"], p
                    assert (p["card"] in p["legal"]) != p["renege"], p
                    if rules.uses("no-cinch"):
                        assert not p["cinch"]
        for seat in range(n):
            assert (rec["hands_after_draw"][seat] != []) == (seat in rec["active"])
            assert all(len(c) == 2 for c in rec["hands_after_draw"][seat])
    assert len(record["final"]["balances"]) == n
    json.dumps(record)  # JSON-serialisable


def self_check(count: int = 200, seed: int = 2024) -> None:
    from fractions import Fraction

    rng = random.Random(seed)
    conserved = 0
    for i in range(count):
        players = rng.randint(2, 8)
        variants = [v for v in OPTIONAL_VARIANTS if rng.random() < 0.3]
        settings = None
        if "pot-limit" in variants and rng.random() < 0.5:
            settings = {"pot-limit": {"limit": rng.choice([1, 4, "3/2"])}}
        script = random_script(
            rng,
            players=players,
            variants=variants,
            settings=settings,
            hands=rng.randint(1, 6),
            illegal_rate=rng.choice([0, 0.05, 0.2]),
            premature_rate=rng.choice([0, 0.05, 0.2]),
        )
        script = json.loads(json.dumps(script))  # what a file would hold
        frozen = json.dumps(script, sort_keys=True)
        record = referee(script)
        assert json.dumps(script, sort_keys=True) == frozen, "referee mutated its input"
        assert referee(script) == record, "referee is not deterministic"
        _check_record(script, record)
        overrides = "balances" in script or any("pot" in hand for hand in script["hands"])
        if not overrides:
            rules = parse_rules(script["rules"])
            total = sum(Fraction(b) for b in record["final"]["balances"])
            assert total == rules.players * rules.balance, (i, total)
            conserved += 1
    bad = malformed_scripts(rng)
    for description, script in bad:
        try:
            referee(json.loads(json.dumps(script)))
        except ScriptError:
            continue
        raise AssertionError(f"not refused: {description}")
    check_worked_example()
    check_targeted()
    print(
        f"{count} random scripts refereed ({conserved} checked for money conservation), "
        f"{len(bad)} malformed scripts refused, worked example and targeted checks ok"
    )
    print("coverage:", STATS)
    for key in (
        "reshuffles",
        "double_reshuffles",
        "reneges",
        "corrections",
        "premature",
        "sole",
        "cinch_plays",
    ):
        assert STATS[key] > 0, f"the generator never exercised {key}"


if __name__ == "__main__":
    self_check()
