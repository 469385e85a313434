"""The table script of a session (``bourre replay`` form): what a failure carries to
reproduce it, and what the ``replay`` check referees again.
"""

from __future__ import annotations

from typing import Any

from bourre.game.actions import Deck
from bourre.game.state import State
from bourre.game.tablesteps import hand_log
from bourre.houses.house import House
from bourre.rules.cards import card_str, cards_str


def _rules_json(house: House) -> dict[str, Any]:
    """The house as a table script's ``rules``: the table and the variants with their settings."""
    variants: dict[str, Any] = {"use": house.names}
    for v in house.variants:
        settings = v.settings.model_dump(mode="json")
        if settings:
            variants[v.name] = settings
    return {"table": house.table.model_dump(mode="json"), "variants": variants}


def script(state: State, *, current: bool) -> dict[str, Any] | None:
    """The session as a table script: the finished hands, and with ``current`` the
    hand in play as far as it went.  ``None`` when none can be made."""
    decks = [x.cards for x in state.history() if isinstance(x, Deck)]
    states = [r.state for r in state.results]
    plays = [[(p.seat, p.card) for p in r.plays] for r in state.results]
    if current and state.chance_wants != "deal" and len(decks) > len(states):
        states.append(state.hand)
        plays.append([(p.seat, p.card) for p in hand_log(state).plays])
    if not states or len(decks) < len(states):
        return None
    hands = []
    for deck, hs, played in zip(decks, states, plays, strict=False):
        decisions: list[dict[str, Any]] = []
        for dec in hs.decisions:
            d: dict[str, Any] = {"seat": dec.seat, "action": "play" if dec.play else "pass"}
            if dec.play and hs.gave[dec.seat]:
                d["discard"] = cards_str(hs.gave[dec.seat])
            decisions.append(d)
        hand: dict[str, Any] = {
            "dealer": hs.dealer,
            "deck": cards_str(deck),
            "decisions": decisions,
            "plays": [{"seat": s, "card": card_str(c)} for s, c in played],
            "events": [],
        }
        if hs.reshuffles:
            hand["reshuffles"] = [cards_str(stock) for stock in hs.reshuffles]
        hands.append(hand)
    rules = _rules_json(state.house)
    rules["table"]["hands"] = max(len(hands), 1)
    return {"rules": rules, "hands": hands}
