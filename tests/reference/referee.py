"""Independent reference referee for Bourré table scripts (a test oracle).

Normative sources: /work/shared/RULES.md (rule ids R-...) and
/work/shared/HAND-HISTORY.md (the script-in / record-out contract).
The team's agreed readings are numbered "I-1" ... "I-15" in the comments and
are listed, with this module's own choices, in README.md beside this file.

Written from the documents only, without looking at the main implementation.
Standard library only.

Public API:
    ScriptError            -- a script that cannot describe a real hand
    referee(script) -> dict

Lower-level pieces are public too, so that generate.py can drive the very same
rule functions when it invents hands: parse_rules, parse_balances, Rules,
Deal, Session, trick_winner, rotate_dealer, FULL_DECK, card helpers.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction

# ---------------------------------------------------------------------------
# Cards (R-DECK)
# ---------------------------------------------------------------------------

RANKS = "23456789TJQKA"  # index = strength, 2 lowest, A highest (R-DECK)
SUITS = "SHDC"
FULL_DECK = [r + s for s in SUITS for r in reversed(RANKS)]  # 52 canonical cards

VARIANTS = (
    "standard",
    "double-ante",
    "pot-limit",
    "four-card",
    "simultaneous-reveal",
    "optional-undertrump",
    "no-cinch",
)
TABLE_DEFAULTS = {"players": 5, "hands": 12, "ante": 1, "balance": 100, "first_dealer": 0}


class ScriptError(Exception):
    """A script that cannot describe a real hand (HAND-HISTORY.md "Errors")."""


def fail(where: str, message: str, rule: str) -> None:
    """Raise a ScriptError naming the hand/field (where), the problem and the rule."""
    raise ScriptError(f"{where}: {message} ({rule})")


def parse_card(value, where: str) -> str:
    """R-DECK: rank A K Q J T 9..2 (`10` accepted on input) + suit S H D C -> canonical 'TH'."""
    if not isinstance(value, str):
        fail(where, f"a card must be a string, got {value!r}", "R-DECK")
    text = value
    if len(text) == 3 and text.startswith("10"):
        text = "T" + text[2]
    if len(text) != 2 or text[0] not in RANKS or text[1] not in SUITS:
        fail(where, f"unknown card {value!r}", "R-DECK")
    return text


def rank(card: str) -> int:
    return RANKS.index(card[0])


def suit(card: str) -> str:
    return card[1]


def sort_cards(cards) -> list[str]:
    """Display order: suits S H D C, high to low inside a suit."""
    return sorted(cards, key=lambda c: (SUITS.index(suit(c)), -rank(c)))


def trumps_between(low: str, high: str, trump: str) -> list[str]:
    """The trumps strictly between two trumps (used by R-EQUIV)."""
    return [r + trump for r in RANKS[rank(low) + 1 : rank(high)]]


def trumps_above(card: str, trump: str) -> list[str]:
    """The trumps strictly higher than a trump (used by R-SURE)."""
    return [r + trump for r in RANKS[rank(card) + 1 :]]


# ---------------------------------------------------------------------------
# Amounts (HAND-HISTORY.md: int when whole, "p/q" otherwise)
# ---------------------------------------------------------------------------

_AMOUNT_RE = re.compile(r"^-?\d+(/\d+)?$")


def parse_amount(value, where: str, rule: str, *, minimum: str = "any") -> Fraction:
    """An amount is a JSON integer or a string "p" / "p/q" (floats are refused).

    minimum: "any", "nonnegative" or "positive".
    """
    if isinstance(value, bool):
        fail(where, f"invalid amount {value!r}", rule)
    if isinstance(value, int):
        amount = Fraction(value)
    elif isinstance(value, str) and _AMOUNT_RE.match(value):
        num, _, den = value.partition("/")
        if den and int(den) == 0:
            fail(where, f"invalid amount {value!r}", rule)
        amount = Fraction(int(num), int(den) if den else 1)
    else:
        fail(where, f"invalid amount {value!r}", rule)
    if minimum == "positive" and amount <= 0:
        fail(where, f"amount must be positive, got {value!r}", rule)
    if minimum == "nonnegative" and amount < 0:
        fail(where, f"amount must not be negative, got {value!r}", rule)
    return amount


def show_amount(amount: Fraction):
    """Record form of an amount: int when whole, "p/q" string otherwise."""
    amount = Fraction(amount)
    if amount.denominator == 1:
        return amount.numerator
    return f"{amount.numerator}/{amount.denominator}"


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


# ---------------------------------------------------------------------------
# House rules
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Rules:
    players: int
    hands: int
    ante: Fraction
    balance: Fraction
    first_dealer: int
    variants: tuple[str, ...]  # in the order given, "standard" first
    limit: Fraction | None  # pot-limit's limit

    def uses(self, name: str) -> bool:
        return name in self.variants

    @property
    def hand_size(self) -> int:
        """R-DEAL: 5 cards; four-card: 4."""
        return 4 if self.uses("four-card") else 5


def parse_rules(raw) -> Rules:
    """House rules (HAND-HISTORY.md "House rules"); every key optional, unknown keys refused."""
    if raw is None:
        raw = {}
    if not isinstance(raw, dict):
        fail("rules", "house rules must be an object", "HAND-HISTORY")
    for key in raw:
        if key not in ("table", "variants"):
            fail(f"rules.{key}", "unknown house-rules section", "HAND-HISTORY")
    table = raw.get("table", {})
    if not isinstance(table, dict):
        fail("rules.table", "must be an object", "HAND-HISTORY")
    for key in table:
        if key not in TABLE_DEFAULTS:
            fail(f"rules.table.{key}", "unknown table setting", "HAND-HISTORY")
    values = {**TABLE_DEFAULTS, **table}

    players = values["players"]
    if not _is_int(players) or not 2 <= players <= 8:
        fail("rules.table.players", f"players must be 2..8, got {players!r}", "R-SESSION")
    hands = values["hands"]
    if not _is_int(hands) or hands < 1:
        fail("rules.table.hands", f"hands must be a positive integer, got {hands!r}", "R-SESSION")
    ante = parse_amount(values["ante"], "rules.table.ante", "R-FIRST-POT", minimum="positive")
    balance = parse_amount(values["balance"], "rules.table.balance", "R-SESSION")
    first_dealer = values["first_dealer"]
    if not _is_int(first_dealer) or not 0 <= first_dealer < players:
        fail("rules.table.first_dealer", f"no seat {first_dealer!r}", "R-DEALER")

    variants_raw = raw.get("variants", {})
    if not isinstance(variants_raw, dict):
        fail("rules.variants", "must be an object", "HAND-HISTORY")
    use = variants_raw.get("use", ["standard"])
    if not isinstance(use, list) or not all(isinstance(v, str) for v in use):
        fail("rules.variants.use", "must be a list of variant names", "HAND-HISTORY")
    for name in use:
        if name not in VARIANTS:
            fail("rules.variants.use", f"unknown variant {name!r}", "HAND-HISTORY")
    if len(set(use)) != len(use):
        fail("rules.variants.use", "a variant is listed twice", "HAND-HISTORY")
    for key, value in variants_raw.items():
        if key == "use":
            continue
        if key not in VARIANTS:
            fail(f"rules.variants.{key}", f"settings for unknown variant {key!r}", "HAND-HISTORY")
        if not isinstance(value, dict):
            fail(f"rules.variants.{key}", "settings must be an object", "HAND-HISTORY")
        allowed = {"limit"} if key == "pot-limit" else set()
        for setting in value:
            if setting not in allowed:
                fail(f"rules.variants.{key}.{setting}", "unknown setting", "HAND-HISTORY")
    variants = tuple(["standard"] + [v for v in use if v != "standard"])

    limit = None
    if "pot-limit" in variants:
        settings = variants_raw.get("pot-limit", {})
        if "limit" not in settings:
            fail("rules.variants.pot-limit.limit", "pot-limit needs a limit", "pot-limit")
        limit = parse_amount(
            settings["limit"], "rules.variants.pot-limit.limit", "pot-limit", minimum="positive"
        )
    return Rules(players, hands, ante, balance, first_dealer, variants, limit)


def parse_balances(raw, rules: Rules) -> list[Fraction]:
    """Starting balances (I-14): default table.balance each."""
    if raw is None:
        return [rules.balance] * rules.players
    if not isinstance(raw, list) or len(raw) != rules.players:
        fail("balances", f"must list {rules.players} amounts", "R-SESSION")
    return [parse_amount(v, f"balances[{i}]", "R-SESSION") for i, v in enumerate(raw)]


def parse_deck(raw, where: str) -> list[str]:
    """R-DECK / R-DEAL: exactly the 52 cards, each once, top first."""
    if not isinstance(raw, list):
        fail(f"{where}, deck", "the deck must be a list of cards", "R-DECK")
    deck = [parse_card(c, f"{where}, deck[{i}]") for i, c in enumerate(raw)]
    seen = set()
    for i, card in enumerate(deck):
        if card in seen:
            fail(f"{where}, deck[{i}]", f"card {card} appears twice", "R-DECK")
        seen.add(card)
    if len(deck) != 52:
        fail(f"{where}, deck", f"the deck has {len(deck)} cards, not 52", "R-DECK")
    return deck


# ---------------------------------------------------------------------------
# Tricks
# ---------------------------------------------------------------------------


def trick_winner(trick: list[tuple[int, str]], trump: str) -> int:
    """R-TRICK (I-8): highest trump, else highest card of the led suit. Returns the seat."""
    return _winning_play(trick, trump)[0]


def _winning_play(trick: list[tuple[int, str]], trump: str) -> tuple[int, str]:
    led = suit(trick[0][1])
    trumps = [p for p in trick if suit(p[1]) == trump]
    if trumps:
        return max(trumps, key=lambda p: rank(p[1]))
    return max((p for p in trick if suit(p[1]) == led), key=lambda p: rank(p[1]))


# ---------------------------------------------------------------------------
# One deal: dealing, decisions and the draw, legal plays
# ---------------------------------------------------------------------------


class Deal:
    """The cards of one hand from the deal to the last trick."""

    def __init__(self, rules: Rules, dealer: int, deck: list[str]):
        self.rules = rules
        self.n = rules.players
        self.h = rules.hand_size
        self.dealer = dealer
        self.hands: list[list[str]] = [[] for _ in range(self.n)]
        self.deal_cards(deck)
        self.pile: list[tuple[int, str]] = []  # discards not yet returned to a stock, in order
        self.own_discards: list[set[str]] = [set() for _ in range(self.n)]  # R-SURE knowledge
        self.active: list[int] = []  # in decision order
        self.played: set[str] = set()  # cards that stood this deal (current trick included)
        self.tricks_won = [0] * self.n
        self.reshuffles = 0

    # -- R-DEAL (I-1) -------------------------------------------------------
    def deal_cards(self, deck: list[str]) -> None:
        """R-DEAL: card i goes to seat (dealer+1+i) mod n; the upcard is card h*n-1."""
        count = self.h * self.n
        for i in range(count):
            self.hands[(self.dealer + 1 + i) % self.n].append(deck[i])
        self.upcard = deck[count - 1]  # the dealer's last card, kept in his hand
        self.trump = suit(self.upcard)
        self.stock = list(deck[count:])  # top first

    def decision_order(self) -> list[int]:
        """R-DECIDE: from the dealer's left round to the dealer."""
        return [(self.dealer + 1 + i) % self.n for i in range(self.n)]

    def ace_of_trumps_up(self) -> bool:
        """R-ACE-UP."""
        return self.upcard[0] == "A"

    # -- R-DRAW / R-RESHUFFLE (I-2, I-3) ---------------------------------------
    def take_part(self, seat: int, discard: list[str], where: str) -> None:
        """R-DRAW: the player plays, discards and is served before the next decision."""
        self.active.append(seat)
        self.exchange(seat, discard, where)

    def force_dealer_in(self) -> None:
        """simultaneous-reveal Decision: nobody played, the dealer plays without an exchange."""
        self.active.append(self.dealer)

    def exchange(self, seat: int, discard: list[str], where: str) -> None:
        """R-DRAW (I-2): discard 0..h held cards, draw as many from the top of the stock.

        R-RESHUFFLE (I-3): when the stock runs out while serving, the discards of earlier
        players not yet returned form the new stock (first discarded on top); the player's
        own discards join the pile only after the exchange.
        """
        hand = self.hands[seat]
        if len(discard) > self.h:
            fail(where, f"seat {seat} discards {len(discard)} cards, at most {self.h}", "R-DRAW")
        if len(set(discard)) != len(discard):
            fail(where, f"seat {seat} discards a card twice", "R-DRAW")
        for card in discard:
            if card not in hand:
                fail(where, f"seat {seat} discards {card}, which they do not hold", "R-DRAW")
        for card in discard:
            hand.remove(card)
        for _ in range(len(discard)):
            if not self.stock:
                self.reshuffle(seat, where)
            hand.append(self.stock.pop(0))
        self.pile.extend((seat, card) for card in discard)
        self.own_discards[seat].update(discard)

    def reshuffle(self, seat: int, where: str) -> None:
        """R-RESHUFFLE (I-3): scripted order, earlier discards on top."""
        if not self.pile:
            fail(
                where,
                f"the stock runs out while serving seat {seat} and no discards are left",
                "R-RESHUFFLE",
            )
        self.stock = [card for _, card in self.pile]
        for owner, card in self.pile:
            self.own_discards[owner].discard(card)  # returned: no longer known-out (R-SURE)
        self.pile = []
        self.reshuffles += 1

    # -- R-LEAD -------------------------------------------------------------------
    def first_leader(self) -> int:
        """R-LEAD: the first active player to the dealer's left."""
        return min(self.active, key=lambda s: (s - self.dealer - 1) % self.n)

    def play_order(self, leader: int) -> list[int]:
        """R-LEAD: active players clockwise from the leader."""
        return sorted(self.active, key=lambda s: (s - leader) % self.n)

    # -- R-SURE (I-6) ----------------------------------------------------------------
    def known_out(self, seat: int) -> set[str]:
        """Cards the seat can know are out: played this deal + own discards not returned."""
        return self.played | self.own_discards[seat]

    def is_master(self, seat: int, card: str) -> bool:
        """R-SURE: every higher trump is in the hand or known out."""
        hand, out = self.hands[seat], self.known_out(seat)
        return all(t in hand or t in out for t in trumps_above(card, self.trump))

    def sure_tricks(self, seat: int) -> int:
        """R-SURE: tricks already won + master trumps held."""
        masters = [c for c in self.hands[seat] if suit(c) == self.trump and self.is_master(seat, c)]
        return self.tricks_won[seat] + len(masters)

    def has_cinch(self, seat: int) -> bool:
        """R-SURE: sure tricks >= 3 (never under no-cinch)."""
        if self.rules.uses("no-cinch"):
            return False
        return self.sure_tricks(seat) >= 3

    def highest_and_equivalents(self, seat: int, trumps: list[str]) -> list[str]:
        """R-EQUIV (I-7): the highest of `trumps` and those connected to it (every trump
        strictly between is in the seat's hand or known out)."""
        top = max(trumps, key=rank)
        hand, out = self.hands[seat], self.known_out(seat)
        return [
            t
            for t in trumps
            if all(u in hand or u in out for u in trumps_between(t, top, self.trump))
        ]

    # -- R-FOLLOW / R-TRUMP / R-DISCARD (I-5) ---------------------------------------------
    def ordinary_legal(self, seat: int, trick: list[tuple[int, str]]) -> list[str]:
        """The ordinary obligations, without cinch."""
        hand = self.hands[seat]
        if not trick:
            return list(hand)  # leading is free
        led = suit(trick[0][1])
        _, winning = _winning_play(trick, self.trump)
        follow = [c for c in hand if suit(c) == led]
        if follow:  # R-FOLLOW
            if suit(winning) == led:
                beating = [c for c in follow if rank(c) > rank(winning)]
                if beating:
                    return beating
            return follow  # cannot beat, or the trick is already trumped
        trumps = [c for c in hand if suit(c) == self.trump]
        if trumps:  # R-TRUMP
            on_trick = [c for _, c in trick if suit(c) == self.trump]
            if on_trick:
                highest = max(on_trick, key=rank)
                beating = [c for c in trumps if rank(c) > rank(highest)]
                if beating:
                    return beating
                if self.rules.uses("optional-undertrump"):
                    return list(hand)  # may discard instead of under-trumping
            return trumps
        return list(hand)  # R-DISCARD

    # -- R-CINCH-LEAD / R-CINCH-FOLLOW / R-CINCH-LAST (I-7) -------------------------------
    def legal(
        self, seat: int, trick: list[tuple[int, str]], is_last: bool
    ) -> tuple[list[str], bool]:
        """The full legal set and whether the seat has a cinch before playing."""
        ordinary = self.ordinary_legal(seat, trick)
        cinch = self.has_cinch(seat)
        if not cinch:
            return ordinary, False
        if not trick:  # R-CINCH-LEAD
            trumps = [c for c in self.hands[seat] if suit(c) == self.trump]
            if trumps:
                return self.highest_and_equivalents(seat, trumps), True
            return ordinary, True
        if is_last:  # R-CINCH-LAST
            return ordinary, True
        trumps = [c for c in ordinary if suit(c) == self.trump]  # R-CINCH-FOLLOW
        if trumps:
            return self.highest_and_equivalents(seat, trumps), True
        return ordinary, True

    def lay(self, seat: int, card: str, trick: list[tuple[int, str]]) -> None:
        """A card stands: it leaves the hand and is played (known out to everybody)."""
        self.hands[seat].remove(card)
        trick.append((seat, card))
        self.played.add(card)


# ---------------------------------------------------------------------------
# The session
# ---------------------------------------------------------------------------


def rotate_dealer(previous: int, marks: list[bool], n: int) -> tuple[int, list[bool]]:
    """R-DEALER / R-PREMATURE (I-12): the deal passes left, skipping (and using up) a
    pending lost-deal mark. Returns the dealer and the marks after."""
    marks = list(marks)
    seat = (previous + 1) % n
    while marks[seat]:
        marks[seat] = False
        seat = (seat + 1) % n
    return seat, marks


def competition_ranks(balances: list[Fraction]) -> list[int]:
    """R-SETTLE: highest balance first; ties share a place (1, 2, 2, 4)."""
    return [1 + sum(1 for other in balances if other > b) for b in balances]


class Session:
    """Money, dealer rotation and ante exemptions across hands."""

    def __init__(self, rules: Rules, balances: list[Fraction]):
        self.rules = rules
        self.balances = list(balances)
        self.pot = Fraction(0)
        self.exempt: set[int] = set()  # seats exempt from the next ordinary ante (R-ANTE)
        self.marks = [False] * rules.players  # pending lost turns to deal (R-PREMATURE)
        self.previous_dealer: int | None = None
        self.count = 0  # hands refereed so far

    # -- R-DEALER (I-12) ------------------------------------------------------------
    def upcoming_dealer(self, hand: dict) -> int:
        """The dealer the next hand will have (without changing the session)."""
        if "dealer" in hand:
            return hand["dealer"]
        if self.previous_dealer is None:
            return self.rules.first_dealer
        return rotate_dealer(self.previous_dealer, self.marks, self.rules.players)[0]

    def choose_dealer(self, hand: dict, where: str) -> int:
        n = self.rules.players
        if "dealer" in hand:  # an explicit dealer overrides the rotation; marks stay pending
            dealer = hand["dealer"]
            if not _is_int(dealer) or not 0 <= dealer < n:
                fail(f"{where}, dealer", f"no seat {dealer!r}", "R-DEALER")
            return dealer
        if self.previous_dealer is None:
            return self.rules.first_dealer
        dealer, self.marks = rotate_dealer(self.previous_dealer, self.marks, n)
        return dealer

    # -- R-FIRST-POT / R-ANTE / double-ante (I-11) ------------------------------------------
    def collect_antes(self, hand: dict, where: str) -> None:
        """Ordinary antes into the pot, unless the hand gives its pot explicitly."""
        if "pot" in hand:
            self.pot = parse_amount(
                hand["pot"], f"{where}, pot", "R-FIRST-POT", minimum="nonnegative"
            )
            return
        everyone = range(self.rules.players)
        if self.count == 0 or self.rules.uses("double-ante"):
            payers = list(everyone)  # R-FIRST-POT; double-ante: no exemptions
        else:
            payers = [s for s in everyone if s not in self.exempt]  # R-ANTE
        for seat in payers:
            self.pay(seat, self.rules.ante)

    def pay(self, seat: int, amount: Fraction) -> None:
        self.balances[seat] -= amount
        self.pot += amount

    # -- R-PREMATURE events -------------------------------------------------------------
    def read_events(self, hand: dict, where: str) -> list[int]:
        events = hand.get("events", [])
        if not isinstance(events, list):
            fail(f"{where}, events", "must be a list", "HAND-HISTORY")
        marked = []
        for i, event in enumerate(events):
            ew = f"{where}, events[{i}]"
            if not isinstance(event, dict) or event.get("type") != "premature":
                fail(ew, "unknown event (only 'premature' exists)", "R-PREMATURE")
            if self.rules.uses("simultaneous-reveal"):
                fail(
                    ew,
                    "no premature announcement can arise under simultaneous-reveal",
                    "simultaneous-reveal",
                )
            seat = event.get("seat")
            if not _is_int(seat) or not 0 <= seat < self.rules.players:
                fail(f"{ew}.seat", f"no seat {seat!r}", "R-PREMATURE")
            marked.append(seat)
        return marked

    # -- one hand ------------------------------------------------------------------------
    def play_hand(self, hand: dict) -> dict:
        number = self.count + 1
        where = f"hand {number}"
        rules = self.rules
        if not isinstance(hand, dict):
            fail(where, "a hand must be an object", "HAND-HISTORY")
        if number > rules.hands:
            fail(where, f"the session has only {rules.hands} hands", "R-SESSION")

        dealer = self.choose_dealer(hand, where)
        self.collect_antes(hand, where)
        marked = self.read_events(hand, where)
        deal = Deal(rules, dealer, parse_deck(hand.get("deck"), where))
        run_decisions(deal, hand.get("decisions"), where)
        if rules.uses("double-ante"):  # each player who plays adds another ante
            for seat in deal.active:
                self.pay(seat, rules.ante)
        stake = self.pot  # P: the pot at stake when play begins

        if len(deal.active) == 1:
            outcome = sole_participant(deal, hand.get("plays", []), where)
        else:
            outcome = play_tricks(deal, hand.get("plays", []), where)
        marked += outcome["marked"]
        result = payout(rules, stake, deal, outcome)

        # money
        for seat, amount in result["paid"].items():
            self.balances[seat] -= amount
        if result["winner"] is not None:
            self.balances[result["winner"]] += stake
        self.pot = result["pot_after"]
        self.exempt = set() if rules.uses("double-ante") else result["exempt"]
        for seat in marked:  # all marks of this hand before the next dealer is chosen
            self.marks[seat] = True
        self.previous_dealer = dealer
        self.count = number

        return {
            "number": number,
            "dealer": dealer,
            "trump": deal.trump,
            "upcard": deal.upcard,
            "pot_at_stake": show_amount(stake),
            "active": sorted(deal.active),
            "hands_after_draw": outcome["hands_after_draw"],
            "tricks": outcome["tricks"],
            "tricks_won": list(deal.tricks_won),
            "winner": result["winner"],
            "bourre": result["bourre"],
            "reneges": outcome["reneges"],
            "pot_after": show_amount(self.pot),
            "balances": [show_amount(b) for b in self.balances],
        }

    # -- R-SETTLE (I-13) ------------------------------------------------------------
    def settle(self) -> dict:
        share = self.pot / self.rules.players
        final = [b + share for b in self.balances]
        return {"balances": [show_amount(b) for b in final], "ranks": competition_ranks(final)}


# ---------------------------------------------------------------------------
# Hand phases
# ---------------------------------------------------------------------------


def read_discard(decision: dict, where: str) -> list[str]:
    raw = decision.get("discard", [])
    if not isinstance(raw, list):
        fail(f"{where}.discard", "must be a list of cards", "R-DRAW")
    return [parse_card(c, f"{where}.discard[{i}]") for i, c in enumerate(raw)]


def run_decisions(deal: Deal, decisions, where: str) -> None:
    """R-DECIDE, R-PASS, R-DRAW, R-ACE-UP, R-LAST-STANDS, simultaneous-reveal (I-2)."""
    simultaneous = deal.rules.uses("simultaneous-reveal")
    if not isinstance(decisions, list):
        fail(f"{where}, decisions", "must list every player's decision", "R-DECIDE")
    order = deal.decision_order()
    for i, seat in enumerate(order):
        dw = f"{where}, decisions[{i}]"
        if i >= len(decisions):
            fail(dw, f"missing decision of seat {seat}", "R-DECIDE")
        decision = decisions[i]
        if not isinstance(decision, dict):
            fail(dw, "a decision must be an object", "R-DECIDE")
        if decision.get("seat") != seat or not _is_int(decision.get("seat")):
            fail(
                f"{dw}.seat",
                f"decision out of turn: seat {seat} decides here, not {decision.get('seat')!r}",
                "R-DECIDE",
            )
        action = decision.get("action")
        discard = read_discard(decision, dw)
        if action == "pass":
            if discard:
                fail(f"{dw}.discard", f"seat {seat} passes and cannot exchange", "R-PASS")
            if seat == deal.dealer and deal.ace_of_trumps_up():
                fail(
                    f"{dw}.action",
                    f"the upcard {deal.upcard} is the ace of trumps: the dealer must play",
                    "R-ACE-UP",
                )
            if seat == deal.dealer and not simultaneous and not deal.active:
                fail(
                    f"{dw}.action",
                    "everybody else passed: the dealer may not pass",
                    "R-LAST-STANDS",
                )
        elif action == "play":
            deal.take_part(seat, discard, f"{dw}.discard")
        else:
            fail(f"{dw}.action", f"action must be 'pass' or 'play', got {action!r}", "R-DECIDE")
    if len(decisions) > len(order):
        fail(f"{where}, decisions[{len(order)}]", "more decisions than players", "R-DECIDE")
    if simultaneous and not deal.active:
        deal.force_dealer_in()  # simultaneous-reveal Decision: forced in, no exchange


def hands_after_draw(deal: Deal) -> list[list[str]]:
    return [list(deal.hands[s]) if s in deal.active else [] for s in range(deal.n)]


def sole_participant(deal: Deal, plays, where: str) -> dict:
    """R-SOLE (I-4): takes the pot without play, counts as taking every trick."""
    if plays:
        fail(f"{where}, plays", "a sole participant plays no tricks", "R-SOLE")
    (seat,) = deal.active
    snapshot = hands_after_draw(deal)
    deal.tricks_won[seat] = deal.h
    return {
        "hands_after_draw": snapshot,
        "tricks": [],
        "reneges": [],
        "forfeit": set(),
        "marked": [],
        "sole": True,
    }


def read_play(play, seat: int, deal: Deal, where: str) -> tuple[str, str | None]:
    """A play's card(s), checking turn and possession."""
    if not isinstance(play, dict):
        fail(where, "a play must be an object", "HAND-HISTORY")
    if play.get("seat") != seat or not _is_int(play.get("seat")):
        fail(
            f"{where}.seat",
            f"play out of turn: seat {seat} plays here, not {play.get('seat')!r}",
            "R-LEAD",
        )
    card = parse_card(play.get("card"), f"{where}.card")
    if card not in deal.hands[seat]:
        fail(f"{where}.card", f"seat {seat} does not hold {card}", "R-DEAL")
    correction = None
    if "corrected_to" in play:
        correction = parse_card(play["corrected_to"], f"{where}.corrected_to")
        if correction not in deal.hands[seat]:
            fail(f"{where}.corrected_to", f"seat {seat} does not hold {correction}", "R-CORRECTED")
        if correction == card:
            fail(f"{where}.corrected_to", "a correction must change the card", "R-CORRECTED")
    return card, correction


def play_tricks(deal: Deal, plays, where: str) -> dict:
    """R-LEAD, the obligations, R-TRICK, R-RENEGE, R-CORRECTED (I-4, I-5, I-7, I-9)."""
    if not isinstance(plays, list):
        fail(f"{where}, plays", "must be a list", "HAND-HISTORY")
    snapshot = hands_after_draw(deal)
    tricks, reneges, forfeit, marked = [], [], set(), []
    index = 0
    leader = deal.first_leader()
    for _ in range(deal.h):
        order = deal.play_order(leader)
        trick: list[tuple[int, str]] = []
        recorded = []
        for position, seat in enumerate(order):
            pw = f"{where}, plays[{index}]"
            if index >= len(plays):
                fail(pw, f"missing play: seat {seat} is to play", "R-LEAD")
            card, correction = read_play(plays[index], seat, deal, pw)
            legal, cinch = deal.legal(seat, trick, is_last=position == len(order) - 1)
            corrected = correction is not None
            if corrected:
                if card in legal:  # R-CORRECTED: correcting a legal card is impossible
                    fail(
                        f"{pw}.corrected_to",
                        f"{card} was legal: it cannot be corrected",
                        "R-CORRECTED",
                    )
                card = correction  # the first card goes back to the hand
            renege = card not in legal  # an illegal card that stands (R-RENEGE)
            if renege:
                reneges.append(seat)
            if renege or corrected:
                forfeit.add(seat)
                marked.append(seat)  # loses the next turn to deal
            recorded.append(
                {
                    "seat": seat,
                    "card": card,
                    "legal": sort_cards(legal),
                    "cinch": cinch,
                    "renege": renege,
                    "corrected": corrected,
                }
            )
            deal.lay(seat, card, trick)
            index += 1
        winner = trick_winner(trick, deal.trump)
        deal.tricks_won[winner] += 1
        tricks.append({"leader": leader, "winner": winner, "plays": recorded})
        leader = winner
    if index < len(plays):
        fail(f"{where}, plays[{index}]", "more plays than the hand has cards", "R-LEAD")
    return {
        "hands_after_draw": snapshot,
        "tricks": tricks,
        "reneges": reneges,
        "forfeit": forfeit,
        "marked": marked,
        "sole": False,
    }


def payout(rules: Rules, stake: Fraction, deal: Deal, outcome: dict) -> dict:
    """R-WIN, R-BOURRE, R-RENEGE, R-CORRECTED, pot-limit, and the next hand's exemptions
    (R-ANTE) (I-10, I-11)."""
    if outcome["sole"]:  # R-SOLE: nobody bourré, nobody exempt next hand
        return {
            "winner": deal.active[0],
            "bourre": [],
            "paid": {},
            "pot_after": Fraction(0),
            "exempt": set(),
        }
    penalty = min(stake, rules.limit) if rules.uses("pot-limit") else stake
    won = deal.tricks_won
    most = max(won[s] for s in deal.active)
    leaders = [s for s in deal.active if won[s] == most]
    winner = leaders[0] if len(leaders) == 1 and leaders[0] not in outcome["forfeit"] else None
    bourre = sorted(s for s in deal.active if won[s] == 0)
    paid: dict[int, Fraction] = {}
    for seat in bourre + outcome["reneges"]:
        paid[seat] = paid.get(seat, Fraction(0)) + penalty
    carried = stake if winner is None else Fraction(0)
    tied = set(leaders) if len(leaders) > 1 else set()
    return {
        "winner": winner,
        "bourre": bourre,
        "paid": paid,
        "pot_after": carried + sum(paid.values(), Fraction(0)),
        "exempt": set(bourre) | tied,
    }


# ---------------------------------------------------------------------------
# Entry point
# ---------------------------------------------------------------------------


def referee(script: dict) -> dict:
    """Referee a whole script (HAND-HISTORY.md) and return the record."""
    if not isinstance(script, dict):
        fail("script", "a script must be an object", "HAND-HISTORY")
    rules = parse_rules(script.get("rules"))
    session = Session(rules, parse_balances(script.get("balances"), rules))
    hands = script.get("hands")
    if not isinstance(hands, list) or not hands:
        fail("hands", "a script must hold at least one hand", "HAND-HISTORY")
    if len(hands) > rules.hands:
        fail(f"hand {rules.hands + 1}", f"the session has only {rules.hands} hands", "R-SESSION")
    records = [session.play_hand(hand) for hand in hands]
    return {"hands": records, "final": session.settle()}
