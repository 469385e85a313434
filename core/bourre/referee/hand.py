"""One hand of a table script refereed: its deck, decisions and plays as a sequence of
actions on the game state; an illegal but possible play is refereed (R-RENEGE,
R-CORRECTED), and the script's last hand may stop part-way (who acts next)."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from bourre.game.actions import PASS, PLAY, AfterDraw, Dealt, Deck, discard
from bourre.game.state import CHANCE, State
from bourre.referee.places import HandPlace
from bourre.referee.records import HandIn, NextRecord
from bourre.referee.table import TableState
from bourre.rules import RuleViolation
from bourre.rules.cards import card_str, card_symbol

__all__ = ["Watch", "next_record", "referee_hand"]


def _reshuffler(hand: HandIn, where: HandPlace) -> Any:
    given = list(hand.reshuffles or [])

    def reshuffle(pile: list[int]) -> list[int]:
        if hand.reshuffles is None:
            return list(pile)
        k = len(hand.reshuffles) - len(given)
        if not given:
            raise where.error(
                "reshuffles",
                message="the stock ran out once more than the reshuffles given (R-RESHUFFLE)",
            )
        order = given.pop(0)
        if sorted(order) != sorted(pile):
            raise where.error(
                "reshuffles",
                k,
                message="a new stock must hold exactly the discards"
                f" {' '.join(card_symbol(c) for c in pile)} (R-RESHUFFLE)",
            )
        return list(order)

    return reshuffle


def _dealt_place(hand: HandIn, reason: str) -> tuple[int | str, ...]:
    """Where the hands dealt are at fault: a card repeated, else the hand of the seat
    the refusal names, else the hands dealt as a whole."""
    seen: set[int] = set()
    for seat, cards in (hand.dealt or {}).items():
        for k, c in enumerate(cards):
            if c in seen:
                return ("dealt", str(seat), k)
            seen.add(c)
    named = re.search(r"\bseat (\d+)\b", reason)
    if named and int(named.group(1)) in (hand.dealt or {}):
        return ("dealt", named.group(1))
    return ("dealt",)


def after_draw(hand: HandIn, seat: int, size: int, where: HandPlace, j: int) -> AfterDraw:
    """The hand ``seat``, whose dealt cards the script leaves out, held after its
    exchange: the cards it played (the card that stood after a correction), when its
    plays show all ``size`` of them (docs/table-scripts.md "What the tricks show")."""
    if j >= 0 and hand.decisions[j].drew is not None:
        raise where.error(
            "decisions",
            j,
            "drew",
            message=f"seat {seat} gives the cards it drew but not the cards it was dealt: give"
            " both, or neither and its hand is read from its plays (R-DEAL)",
        )
    stood: dict[int, int] = {}  # card -> where it stood
    taken_back: dict[int, int] = {}
    for i, p in enumerate(hand.plays):
        if p.seat != seat or len(stood) == size:
            continue  # a card after the last is refused as the deck form's would be
        card = p.card if p.corrected_to is None else p.corrected_to
        if p.corrected_to is not None:
            taken_back.setdefault(p.card, i)
        if card in stood:
            raise where.error(
                "plays",
                i,
                "card",
                message=f"seat {seat} plays {card_symbol(card)} twice (play {stood[card] + 1}"
                " too): a card is played once (R-DECK)",
            )
        stood[card] = i
    if len(stood) < size:
        if not hand.plays:
            raise where.error(
                "dealt",
                str(seat),
                message=f"seat {seat} plays no card, so its hand cannot be read from the"
                " tricks: a seat that takes the pot without play, or whose hand stops before"
                f" its plays, gives the cards it was dealt (R-SOLE)",
            )
        raise where.error(
            "dealt",
            str(seat),
            message=f"seat {seat} plays {len(stood)} of its {size} cards: a seat whose plays"
            f" stop part-way gives the cards it was dealt (R-DEAL)",
        )
    for card, i in taken_back.items():
        if card not in stood:
            raise where.error(
                "plays",
                i,
                "card",
                message=f"seat {seat} took {card_symbol(card)} back, so it still held it, but"
                f" never plays it again: its plays do not show its hand; give the cards dealt"
                f" to seat {seat} (R-CORRECTED)",
            )
    return AfterDraw(tuple(stood))


def _played_at(hand: HandIn, seat: int, card: int | None) -> tuple[int | str, ...] | None:
    """The place where ``seat`` played ``card`` (or took it back), if it did."""
    if card is None:
        return None
    for i, p in enumerate(hand.plays):
        if p.seat == seat and card in (p.card, p.corrected_to):
            return ("plays", i, "card")
    return None


Watch = Callable[[State, int, "int | None"], None]
"""Told each card of a script just before the state plays it: the state (the position
the card is played from: not to be changed), the card and the card it was corrected
to (``None``: it stands).  A review of the play (``bourre replay --review``) reads the
positions this way; the refereeing is the same with or without it."""


def referee_hand(
    table: TableState, hand: HandIn, where: HandPlace, last: bool, watch: Watch | None = None
) -> NextRecord | None:
    """One hand of a script as a sequence of actions on the state; the script's last
    hand may stop part-way: then who acts next is returned.  ``watch`` is told each card
    before it is played (:data:`Watch`)."""
    state = table.state
    field: tuple[int | str, ...] = ("dealer",)
    if hand.dealer is None and not table.dealer_known():
        raise where.error(
            "dealer", message='the dealer is required: table.first_dealer is "random" (R-DEALER)'
        )
    di = pi = 0
    ds, ps = hand.decisions, hand.plays
    try:
        table.set_hand(dealer=hand.dealer, pot=hand.pot, reshuffle=_reshuffler(hand, where))
        if hand.deck is not None:
            field = ("deck",)
            table.deal(Deck(tuple(hand.deck)))
        else:
            field = ("dealt",)
            assert hand.upcard is not None
            table.deal(Dealt.of(hand.upcard, hand.dealt or {}))
        for e in hand.events:
            table.mark_premature(e.seat)
        done = len(state.results) + 1
        while len(state.results) < done:
            seat = state.current_player()
            phase = state.phase_name
            if seat == CHANCE:  # what a table knows: a hand shown, the cards drawn
                wait = table.waiting()
                assert wait is not None
                s = wait.seat
                j = max((j for j in range(di) if ds[j].seat == s), default=-1)
                if wait.wants == "draw":
                    field = ("decisions", j, "drew")
                    drew = ds[j].drew
                    if drew is None:
                        raise RuleViolation(
                            "R-DRAW",
                            f"seat {s} discarded {len(wait.discards)} cards: the cards it drew"
                            " are required",
                        )
                    table.drew(drew)
                elif s in (hand.dealt or {}):
                    field = ("dealt", str(s))
                    table.show(Dealt.of(hand.upcard, hand.dealt or {}))
                else:  # what the tricks show: its hand after the exchange
                    field = ("dealt",)
                    table.show(after_draw(hand, s, state.hand_size, where, j))
                continue
            if phase == "exchange":  # the seat's own decision names its discards
                j = max(j for j in range(di) if ds[j].seat == seat)
                field = ("decisions", j, "discard")
                try:
                    state.apply_action(discard(ds[j].discard))
                except RuleViolation as e:  # a card of its hand read from its plays
                    field = _played_at(hand, seat, e.card) or field
                    raise
                continue
            if phase == "decide":
                if di >= len(ds):
                    if last:
                        return next_record(state)
                    field = ("decisions",)
                    raise RuleViolation(
                        "R-DECIDE", f"seat {seat} has no decision; every player decides"
                    )
                d = ds[di]
                field = ("decisions", di, "seat")
                if d.seat != seat:
                    raise RuleViolation(
                        "R-DECIDE", f"seat {d.seat} decides out of turn: seat {seat} decides now"
                    )
                field = ("decisions", di, "discard")
                if d.action == "pass" and d.discard:
                    raise RuleViolation("R-PASS", f"seat {seat} passes but discards")
                field = ("decisions", di, "action")
                di += 1
                state.apply_action(PLAY if d.action == "play" else PASS)
                continue
            if pi >= len(ps):
                if last and di == len(ds):
                    return next_record(state)
                if di < len(ds):  # a decision after everyone decided, not a play missing
                    field = ("decisions", di)
                    raise RuleViolation(
                        "R-DECIDE", "every player has decided; this decision is one too many"
                    )
                field = ("plays",)
                raise RuleViolation(
                    "R-LEAD", f"the plays stop early: seat {seat} is to play card {pi + 1}"
                )
            p = ps[pi]
            field = ("plays", pi, "seat")
            if p.seat != seat:
                raise RuleViolation(
                    "R-LEAD", f"seat {p.seat} plays out of turn: seat {seat} is to play"
                )
            field = ("plays", pi, "card")
            pi += 1
            if watch is not None and p.card in state.hand.hands[seat]:
                watch(state, p.card, p.corrected_to)
            table.referee_play(p.card, p.corrected_to)
    except RuleViolation as e:
        if field == ("dealt",):
            field = _dealt_place(hand, e.reason)
        elif field[-1] == "card" and e.rule == "R-CORRECTED" and "was legal" not in e.reason:
            field = (*field[:-1], "corrected_to")  # the correction is at fault
        raise where.error(*field, message=str(e)) from None
    if di != len(hand.decisions):
        raise where.error(
            "decisions",
            di,
            message="every player has decided; this decision is one too many (R-DECIDE)",
        )
    ran_out = len(state.results[-1].state.reshuffles)
    if len(hand.reshuffles or []) > ran_out:
        raise where.error(
            "reshuffles",
            ran_out,
            message="given, but the stock never ran out that often (R-RESHUFFLE)",
        )
    if pi != len(hand.plays):
        why = (
            "a sole participant plays no trick (R-SOLE)"
            if len(state.results[-1].state.active) == 1
            else "the hand is over (R-DEAL)"
        )
        raise where.error("plays", pi, message=f"one play too many: {why}")
    return None


def next_record(state: State) -> NextRecord:
    """Who acts now, what they may do and the rules that narrow it, in the words of
    the house's own rule components."""
    seat = state.current_player()
    if state.phase_name == "decide":
        legal = [str(a) for a in state.legal_actions()]
        forced = state.observation(seat).forced
        return NextRecord(seat=seat, legal=legal, rules=[forced] if forced else ["R-DECIDE"])
    cards = state.legal_with_reasons()
    return NextRecord(seat=seat, legal=[card_str(c) for c in cards.cards], rules=cards.rules)
