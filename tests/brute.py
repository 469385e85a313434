"""An independent brute force over the state API for the solver's tests: every line of
play searched, nothing remembered, nothing merged."""

from __future__ import annotations

from bourre.game.copies import hand_only
from bourre.game.state import State
from bourre.rules.money import Amount


def _hand_over(state: State, number: int) -> bool:
    return state.number != number or state.phase_name != "play"


def brute_tricks(state: State, seat: int, number: int) -> int:
    """The tricks ``seat`` ends the hand with, it maximising, all the others minimising."""
    if _hand_over(state, number):
        return int(state.results[-1].state.won[seat])
    mover = state.current_player()
    values = []
    for action in state.legal_actions():
        child = state.clone()
        child.apply_action(action)
        values.append(brute_tricks(child, seat, number))
    return max(values) if mover == seat else min(values)


def brute_chips(state: State, number: int) -> list[Amount]:
    """Every seat's takes less payments of this hand, each seat playing for its own,
    the first of its best cards in the legal order."""
    if _hand_over(state, number):
        outcome = state.results[-1].outcome
        return [t - p for t, p in zip(outcome.takes, outcome.paid, strict=True)]
    mover = state.current_player()
    best: list[Amount] | None = None
    for action in state.legal_actions():
        child = state.clone()
        child.apply_action(action)
        value = brute_chips(child, number)
        if best is None or value[mover] > best[mover]:
            best = value
    assert best is not None
    return best


def brute(state: State) -> dict[int, tuple[int, Amount]]:
    """For each legal card of the seat to play: (sure tricks, chips).  The search runs
    on a copy that ends the session with this hand and keeps its result (a Python
    state)."""
    seat, number = state.current_player(), state.number
    state = hand_only(state, keep_results=True)
    out = {}
    for action in state.legal_actions():
        child = state.clone()
        child.apply_action(action)
        out[action.card] = (brute_tricks(child, seat, number), brute_chips(child, number)[seat])
    return out
