"""One session played step by step, and the checks made at every step.

``money``
    the balances and the pot add up to the money the session started with, to the
    exact fraction, and every amount is exact (R-ANTE, R-WIN, R-SETTLE);
``cards``
    every one of the 52 cards is in exactly one place
    (:meth:`bourre.rules.hand.HandState.places`, R-DECK, R-DEAL, R-DRAW);
``legal set``
    the legal set is never empty and within the player's hand (R-FOLLOW), and every
    legal action is accepted;
``citations``
    every refusal and every reason (the legal set's, the payout's, the antes') carries
    a rule id and words, and cites a rule the house lists in ``bourre rules``;
``check``
    at each play, ``bourre check`` answers the same legal set
    (:mod:`bourre.testing.rulings`).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from fractions import Fraction
from typing import Any

from bourre.game.actions import PASS, Action, discard
from bourre.game.players import ask
from bourre.game.state import State
from bourre.houses.house import House, PluginError
from bourre.rules import Reason, RuleViolation
from bourre.rules.cards import card_str, cards_str
from bourre.testing.report import HOOK_CHECK, Failure, Report
from bourre.testing.rulings import Disagreement, check_agrees
from bourre.testing.scripts import script

Players = Callable[[int, random.Random, House], Any]
"""Who sits at a seat: ``players(seat, rng, house)`` gives a bot or player."""


class Stop(Exception):
    """A session ended by a failure (already reported)."""


def exact(x: object) -> bool:
    """An exact amount: an integer or a fraction (never a float, never a bool)."""
    return isinstance(x, (int, Fraction)) and not isinstance(x, bool)


class Session:
    """One session played step by step, every check made at every step."""

    def __init__(
        self,
        spec: str,
        house: House,
        seed: str,
        hands: int,
        players: Players,
        report: Report,
        listed: set[str],
    ) -> None:
        self.spec, self.house, self.seed = spec, house, seed
        self.report, self.listed = report, listed
        self.state: State | None = None
        self.hands = hands
        self.players = players

    def fail(
        self, check: str, message: str, seat: int | None = None, hand: int | None = None
    ) -> Stop:
        st = self.state
        if hand is None:
            hand = st.hand.number if st is not None and st.chance_wants != "deal" else 1
        table_script = None
        if st is not None:
            try:
                table_script = script(st, current=True)
            except Exception:  # the state itself is broken: no script
                table_script = None
        self.report.fail(Failure(check, self.spec, message, self.seed, hand, seat, table_script))
        return Stop()

    def cite(
        self, what: str, rule: object, words: object, seat: int | None, hand: int | None = None
    ) -> None:
        """A reason or refusal carries a rule id and words and cites a listed rule."""
        if not isinstance(rule, str) or not rule.startswith("R-"):
            raise self.fail("citations", f"{what} carries no rule id: {rule!r}", seat, hand)
        if not isinstance(words, str) or not words.strip():
            raise self.fail("citations", f"{what} citing {rule} has no words", seat, hand)
        if rule not in self.listed:
            raise self.fail(
                "citations",
                f"{what} cites {rule} ({words!r}), a rule `bourre rules {self.house.spec}`"
                " does not list: add its text to the variant's rules",
                seat,
                hand,
            )
        self.report.cited.add(rule)

    def cite_reasons(self, what: str, reasons: object, hand: int) -> None:
        if not isinstance(reasons, tuple):
            raise self.fail("citations", f"{what}: not a tuple of reasons: {reasons!r}", None, hand)
        for r in reasons:
            if not isinstance(r, Reason):
                raise self.fail("citations", f"{what}: {r!r} is not a Reason", None, hand)
            self.cite(what, r.rule, r.words, None, hand)

    def money(self, st: State, total: Fraction) -> None:
        for s, b in enumerate(st.balances):
            if not exact(b):
                raise self.fail("money", f"seat {s}'s balance {b!r} is not an exact amount", s)
        if not exact(st.pot):
            raise self.fail("money", f"the pot {st.pot!r} is not an exact amount")
        held = Fraction(sum(st.balances)) + Fraction(st.pot)
        if held != total:
            raise self.fail(
                "money",
                f"the table holds {held} (balances {[str(b) for b in st.balances]},"
                f" pot {st.pot}), not the {total} it started with",
            )

    def cards(self, st: State) -> None:
        if st.chance_wants == "deal":
            return
        try:
            where = st.hand.places()
        except AssertionError as e:
            raise self.fail("cards", f"a card is not in exactly one place: {e}") from None
        if len(where) > 52:
            raise self.fail("cards", f"{len(where)} cards at the table, not 52")

    def play_position(self, st: State) -> None:
        hs = st.hand
        seat = st.current_player()
        legal = st.legal_with_reasons()
        held = tuple(hs.hands[seat])
        if not legal.cards:
            raise self.fail("legal set", "the legal set is empty", seat)
        outside = [c for c in legal.cards if c not in held]
        if outside:
            raise self.fail(
                "legal set",
                f"the legal set holds {cards_str(outside)}, not in the hand {cards_str(held)}",
                seat,
            )
        for r in legal.reasons:
            self.cite("the legal set's reason", r.rule, r.words, seat)
        for c in held:
            if c not in legal.cards:
                e = legal.refusal(c)
                self.cite(f"the refusal of {card_str(c)}", e.rule, e.reason, seat)
        # ``bourre check`` on this position answers the same legal set
        try:
            if check_agrees(st, legal.cards):
                self.report.checked_positions += 1
        except Disagreement as e:
            raise self.fail("check", str(e), seat) from e

    def refusals(self, st: State) -> None:
        """What the player to decide or exchange would be told of a forbidden answer."""
        seat = st.current_player()
        if st.phase_name == "decide" and PASS not in st.legal_actions():
            e = st.why_not(PASS)
            if e is None:
                raise self.fail("legal set", "a pass not among the legal actions is allowed", seat)
            self.cite("the refusal of a pass", e.rule, e.reason, seat)
        elif st.phase_name == "exchange":
            too_many = (*st.hand.hands[seat], 99)
            e = st.why_not(discard(too_many))
            if e is None:
                raise self.fail("cards", "a discard of cards not held is allowed", seat)
            self.cite("the refusal of a discard", e.rule, e.reason, seat)

    def hand_over(self, st: State, done: int) -> None:
        for res in st.results[done:]:
            out = res.outcome
            n = st.n
            if len(out.takes) != n or len(out.paid) != n:
                raise self.fail(
                    "money", "the payout does not give one amount per seat", None, res.number
                )
            for s in range(n):
                if not (exact(out.takes[s]) and exact(out.paid[s])):
                    raise self.fail("money", f"seat {s}'s payout is not exact", s, res.number)
            self.cite_reasons("the payout", out.reasons, res.number)
            self.cite_reasons("the antes", res.ante_reasons, res.number)

    def play(self, record: bool = True) -> State | None:
        """Play the session; ``None`` when a check failed (reported)."""
        try:
            return self._play(record)
        except Stop:
            return None

    def _play(self, record: bool) -> State:
        try:
            st = State(self.house, seed=self.seed, hands=self.hands, record=record)
        except PluginError as e:
            raise self.fail(HOOK_CHECK.get(e.hook, "build"), str(e)) from None
        except RuleViolation as e:
            raise self.fail("cards", f"the first deal is refused: {e}") from None
        self.state = st
        total = Fraction(sum(st.start))
        rng = random.Random(f"bourre.testing:{self.seed}")
        seats = [self.players(s, rng, self.house) for s in range(st.n)]
        done = 0
        while not st.is_terminal():
            self.report.steps += 1
            self.money(st, total)
            self.cards(st)
            seat = st.current_player()
            phase = st.phase_name
            try:
                if phase == "play":
                    self.play_position(st)
                else:
                    self.refusals(st)
                legal = st.legal_actions()
                if not legal:
                    raise self.fail("legal set", f"no legal action ({phase})", seat)
                action = ask(st, seats[seat])
            except PluginError as e:
                raise self.fail(HOOK_CHECK.get(e.hook, "build"), str(e), seat) from None
            except RuleViolation as e:
                raise self.fail("legal set", f"the bot's answer is refused: {e}", seat) from None
            except Stop:
                raise
            except Exception as e:
                raise self.fail("build", f"asking seat {seat} raised {e!r}", seat) from e
            if not isinstance(action, Action) or action not in legal:
                raise self.fail("legal set", f"seat {seat} answered {action!r}, not legal", seat)
            try:
                st.apply_action(action)
            except PluginError as e:
                check = HOOK_CHECK.get(e.hook, "money" if "money" in str(e) else "cards")
                raise self.fail(check, str(e), seat) from None
            except RuleViolation as e:
                raise self.fail(
                    "legal set", f"the legal action {action} is refused: {e}", seat
                ) from None
            except Exception as e:
                raise self.fail("build", f"applying {action} raised {e!r}", seat) from e
            self.hand_over(st, done)
            done = len(st.results)
        if st.final is not None:
            balances, ranks = st.final
            if Fraction(sum(balances)) != total:
                raise self.fail("money", f"the settlement gives {sum(balances)}, not {total}")
            if len(ranks) != st.n or not all(1 <= r <= st.n for r in ranks):
                raise self.fail("money", f"the settlement's places {ranks} are not 1 … {st.n}")
        self.report.sessions += 1
        return st
