"""Play Bourré at the terminal against bots (``bourre play``).

The person at the keyboard is a :class:`~bourre.cli.terminal.TerminalPlayer`, an
ordinary :class:`bourre.game.players.Player` seated among bots (:mod:`bourre.cli.terminal`):
the game asks it the same three questions it asks a bot, and an answer the rules
forbid is refused in the words of the rule component that forbids it and asked again.

Input is read line by line, so a session can be piped (``bourre play < moves.txt``);
the end of input stops the session cleanly after the last complete hand.

Every hand is saved as a table script (``docs/table-scripts.md``), as JSON and in the
hand notation (``.hand``, :mod:`bourre.referee.notation`), that ``bourre replay``
reproduces exactly: ``hand-NN.json`` holds the hand alone (with the balances and the
pot in the middle once the antes are paid), ``session.json`` the session so far.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rich.console import Console

from bourre.cli.display import chips
from bourre.cli.terminal import EndOfInput, Prompt, Reader, TerminalPlayer, stdin_reader
from bourre.game.actions import Action, Deck
from bourre.game.players import Player, make_bot, play_out
from bourre.game.state import HandResult, State
from bourre.houses.house import House
from bourre.referee.records import HandRecord, hand_record
from bourre.rules import RuleViolation
from bourre.rules.cards import (
    card_str,
    cards_str,
)
from bourre.rules.money import Amount, amount_json

__all__ = [
    "EndOfInput",
    "PlaySummary",
    "Prompt",
    "TerminalPlayer",
    "play_at_terminal",
    "stdin_reader",
]


# ------------------------------------------------------------------------ the session


def house_rules_json(house: House) -> dict[str, Any]:
    """The house's rules in the shape of a house-rules file (every variant named)."""
    variants: dict[str, Any] = {"use": house.names}
    for v in house.variants:
        settings = v.settings.model_dump(mode="json")
        if settings:
            variants[v.name] = settings
    return {"table": house.table.model_dump(mode="json"), "variants": variants}


def script_hand(deck: Sequence[int], res: HandResult, pot: Amount | None = None) -> dict[str, Any]:
    """One hand of a table script, as it was played (from the hand's own state)."""
    decisions: list[dict[str, Any]] = []
    for dec in res.state.decisions:
        d: dict[str, Any] = {"seat": dec.seat, "action": "play" if dec.play else "pass"}
        cards = res.state.gave[dec.seat] if dec.play else ()
        if cards:
            d["discard"] = cards_str(cards)
        decisions.append(d)
    hand: dict[str, Any] = {"dealer": res.dealer}
    if pot is not None:
        hand["pot"] = amount_json(pot)
    hand["deck"] = cards_str(deck)
    hand["decisions"] = decisions
    hand["plays"] = [{"seat": p.seat, "card": card_str(p.card)} for p in res.plays]
    hand["events"] = []
    if res.state.reshuffles:
        hand["reshuffles"] = [cards_str(stock) for stock in res.state.reshuffles]
    return hand


@dataclass
class PlaySummary:
    """What a session at the terminal did."""

    seed: int
    house: str
    hands: list[HandRecord] = field(default_factory=list)
    """The record of each completed hand (as ``bourre replay`` prints it)."""
    scripts: list[dict[str, Any]] = field(default_factory=list)
    """Each completed hand as a table script of its own."""
    session_script: dict[str, Any] = field(default_factory=dict)
    """The completed hands as one table script."""
    final: list[Amount] | None = None
    """Balances after R-SETTLE (``None`` if the session was stopped)."""
    ranks: list[int] | None = None
    stopped: bool = False
    """The input ended (or the player quit) before the last hand."""


def make_players(
    house: House,
    bots: Sequence[str],
    seat: int,
    seed: int,
) -> tuple[list[Player | None], list[str]]:
    """The bots at every seat but ``seat`` (``None`` there), and their names.

    ``bots`` is one name for every bot seat, or one name per bot seat in seat order.
    Raises :class:`ValueError` with a readable message."""
    n = house.table.players
    if not 0 <= seat < n:
        raise ValueError(
            f"--seat {seat}: no such seat at a table of {n} (seats 0 to {n - 1}, R-SEAT)"
        )
    names = [b.strip() for item in bots for b in item.split(",") if b.strip()] or ["heuristic"]
    if len(names) == 1:
        names = names * (n - 1)
    if len(names) != n - 1:
        raise ValueError(
            f"--bots: {len(names)} bots given for the {n - 1} other seats: give one name for"
            " all of them or one per seat"
        )
    players: list[Player | None] = []
    labels: list[str] = []
    it = iter(names)
    for s in range(n):
        if s == seat:
            players.append(None)
            labels.append("you")
            continue
        name = next(it)
        rng = random.Random(f"bourre-bot:{seed}:{s}")
        players.append(make_bot(name, rng, house=house))
        labels.append(name)
    return players, labels


def _said_to_you(state: State) -> Callable[[Action], RuleViolation | None]:
    """The referee's refusal of an answer, a card the rules forbid said to the player
    at the terminal in the rule component's own words ("without spades you must play
    one of your hearts", R-FOLLOW, R-TRUMP …), not of its seat as a ruling says it."""

    def why_not(action: Action) -> RuleViolation | None:
        refused = state.why_not(action)
        if refused is None or action.kind != "card" or state.phase_name != "play":
            return refused
        legal = state.legal_with_reasons()
        if action.card in legal.cards or refused.rule not in legal.rules:
            return refused  # not a card the obligations forbid (a card not held …)
        why = legal.reason_for(action.card)
        return RuleViolation(why.rule, why.words, legal.cards, action.card)

    return why_not


def play_at_terminal(
    house: House,
    *,
    bots: Sequence[str] = ("heuristic",),
    seat: int = 0,
    seed: int | None = None,
    hands: int | None = None,
    save: Path | None = None,
    console: Console | None = None,
    read: Reader | None = None,
    hints: bool = False,
    auto_forced: bool = False,
) -> PlaySummary:
    """A session at the terminal: the person at ``seat`` against bots.

    ``bots``: see :func:`make_players`; ``seed`` fixes the decks and the bots (same
    seed and same answers, same session: the chance events come from
    :class:`~bourre.game.chance.Chance`, as in :func:`bourre.game.simulate.play_session`);
    ``hands`` cuts the session short; ``save`` is a directory where every hand is
    saved as a table script; with ``auto_forced`` a card the rules leave alone (the
    only legal one) is played without asking, and said.
    ``read`` answers the prompts (default: lines of standard input)."""
    console = console if console is not None else Console()
    read = read if read is not None else stdin_reader(console)
    if seed is None:
        seed = random.SystemRandom().randrange(10**6)
    n = house.table.players
    bot_players, labels = make_players(house, bots, seat, seed)
    total = house.table.hands if hands is None else max(0, min(hands, house.table.hands))
    human = TerminalPlayer(seat, console, read, names=labels, hints=hints, auto_forced=auto_forced)
    state = State(house, seed=seed, hands=total, record=True)
    human.why_not = _said_to_you(state)
    human.words = {rid: text for _, _, (rid, text) in house.rule_texts()}
    players = [human if p is None else p for p in bot_players]
    rules = house_rules_json(house)
    # the session's length as played (R-SESSION): a session cut short by ``hands`` is
    # settled after its last hand, and its script says so, or its replay would go on
    rules["table"]["hands"] = total or house.table.hands
    summary = PlaySummary(seed, house.spec)
    summary.session_script = {"rules": rules, "hands": []}
    if save is not None:
        save.mkdir(parents=True, exist_ok=True)
    width = max(2, len(str(total)))
    why = ""
    console.print(
        f"[bold]Bourré[/bold] at house [bold]{house.spec}[/bold]: you are seat {seat};"
        f" bots: {', '.join(f'{s} {labels[s]}' for s in range(n) if s != seat)}."
        f" Seed {seed}, {total} hands. Type ? for help.",
        highlight=False,
    )
    position: list[tuple[Amount, list[Amount]]] = [(0, list(state.start))]  # before antes

    def hand_over(res: HandResult) -> None:
        carried, before = position[-1]
        human.hand_over(res, house)
        summary.hands.append(hand_record(res))
        deck = [x for x in state.history() if isinstance(x, Deck)][res.number - 1].cards
        alone = {
            "rules": rules,
            "balances": [amount_json(b - a) for b, a in zip(before, res.antes, strict=True)],
            "hands": [script_hand(deck, res, pot=carried + sum(res.antes))],
        }
        summary.scripts.append(alone)
        summary.session_script["hands"].append(script_hand(deck, res))
        if save is not None:
            _write(save / f"hand-{res.number:0{width}d}.json", alone)
            _write(save / "session.json", summary.session_script)
        position.append((res.outcome.pot_after, list(res.balances)))
        if res.number < total:
            console.rule(
                f"Hand {res.number + 1} of {total} · dealer: {human._name(state.hand.dealer)}"
            )

    if total:
        console.rule(f"Hand 1 of {total} · dealer: {human._name(state.hand.dealer)}")
        try:
            play_out(state, players, hand_over)
        except EndOfInput as e:
            summary.stopped = True
            why = "You quit" if str(e) == "quit" else "Input ended"
        except KeyboardInterrupt:
            summary.stopped = True
            why = "Interrupted"
    done = len(summary.hands)
    if summary.stopped:
        console.rule("Session stopped")
        console.print(
            f"{why}: {done} complete hand{'s' if done != 1 else ''} played.", highlight=False
        )
        if done:
            human._balances(position[-1][1])
    else:
        assert state.final is not None or not total
        summary.final, summary.ranks = (
            state.final if state.final is not None else (list(state.balances), [1] * n)
        )
        console.rule("Session over")
        pot = position[-1][0]
        left = f"the pot left, {chips(pot)}, shared equally" if pot else "no pot left"
        console.print(f"Final balances (R-SETTLE: {left}):", highlight=False)
        human._balances(summary.final, summary.ranks)
    if save is not None and done:
        console.print(
            f"Saved {done} hand{'s' if done != 1 else ''} to {save}: replay the session with"
            f" `bourre replay {save / 'session.json'}`.",
            highlight=False,
            markup=False,
        )
    return summary


def _write(path: Path, data: dict[str, Any]) -> None:
    """The script as JSON, and beside it in the hand notation (``.hand``)."""
    # lazy: the referee's notation, needed only when a hand is saved
    from bourre.referee.notation import format_script

    path.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    path.with_suffix(".hand").write_text(format_script(data), encoding="utf-8")
