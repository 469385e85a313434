"""Helpers of the rule tests: hand states dealt by the standard deal, the decision
procedure stepped by recorded answers, hands played from a deck, refusals checked word by word."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest
from conftest import C, normalize, reference, run

from bourre.game.actions import Deck
from bourre.game.observation import Observation
from bourre.game.players import play_out
from bourre.game.state import HandResult, State
from bourre.houses.house import House, Rules
from bourre.referee import ScriptError
from bourre.rules import DECIDE
from bourre.rules.cards import parse_card
from bourre.rules.hand import HandState
from bourre.rules.hookspec import DRAW, DecisionRule
from bourre_variants.standard.deal import StandardDeal

SPADES, HEARTS, DIAMONDS, CLUBS = range(4)


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


def deck_ints(deck: Sequence[str]) -> list[int]:
    return [C(c) for c in deck]


class Scripted:
    """A bot with fixed answers: ``play`` (bool or {seat: bool}), discards per seat;
    plays the first legal card.  Records what it saw when deciding."""

    def __init__(
        self, seat: int, play: bool = True, discard: Sequence[str] = (), log: list | None = None
    ):
        self.seat, self.answer, self.to_discard = seat, play, [C(c) for c in discard]
        self.log = log if log is not None else []
        self.discarded = False

    def decide(self, view: Observation) -> bool:
        self.log.append(
            {
                "seat": view.seat,
                "decisions": view.decisions,
                "active": view.active,
                "stock": view.stock_size,
                "forced": view.forced,
            }
        )
        return self.answer

    def discard(self, view: Observation) -> list[int]:
        self.discarded = True
        return list(self.to_discard)

    def play(self, view: Observation) -> int:
        return view.legal[0]


def agree(script: dict[str, Any]) -> dict[str, Any]:
    """bourre's record of ``script``, checked equal to the reference referee's."""
    got = normalize(run(script))
    assert got == reference(script)
    return got


# ====================================================================== simultaneous-reveal


def _play_one(spec: str, deck: Sequence[str], bots: list[Any], dealer: int = 0) -> HandResult:
    """One hand of ``spec`` dealt by ``dealer`` from ``deck``, the bots answering
    (an answer the rules forbid raises ``IllegalAnswer``, a ``RuleViolation``)."""
    state = State(House(spec), hands=1, dealer=dealer, record=True)
    state.apply_chance(Deck(tuple(deck_ints(deck))))
    play_out(state, bots)
    assert state.is_terminal() and len(state.results) == 1
    return state.results[0]
