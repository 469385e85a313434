"""The "Should I play?" page's form (``/advise`` of ``bourre serve``): the question
asked by tapping, as the tap page asks for cards (its 52-card
:class:`~bourre.web.tap.page.Picker`), then :func:`bourre.advice.advise` for the
answer.

The page keeps nothing between requests: the cards picked so far travel in the form
(``upcard``, ``hand``: card codes, which may also be typed), each tap one button of
it.  First the dealer's upcard (its suit is trump, R-DEAL), then the player's cards
(as many as a hand holds, R-DEAL-SIZE) and the place from the dealer (R-SEAT); the
dealer's hand holds the upcard, so at the dealer's place it is picked with it and
elsewhere it cannot be.  The pot, the decisions already announced, the deals and
the seed are text fields behind a disclosure, with the defaults of ``bourre
advise`` (:data:`bourre.advice.advise.HANDS` deals, seed 0).
"""

from __future__ import annotations

from dataclasses import dataclass

from bourre.advice.advise import HANDS
from bourre.game import Game
from bourre.houses.house import House, PluginError
from bourre.houses.models import HouseError
from bourre.rules.cards import CardError, card_str, card_symbol, parse_card
from bourre.web.tap.page import Button, Picker

__all__ = ["FIELDS", "AdviceForm", "PickError"]

FIELDS = ("house", "players", "place", "pot", "upcard", "hand", "decided", "hands", "seed")
"""The form's fields (the options of ``bourre advise``)."""

DEFAULTS = {"house": "standard", "hands": str(HANDS), "seed": "0"}
"""The fields' defaults: ``bourre advise``'s."""

MAX_PLAYERS = 10
"""The most places the page offers buttons for (a bigger table types its place)."""


class PickError(ValueError):
    """A tap the form cannot take (a full hand, a card the upcard excludes): shown on
    the page."""


def _cards(text: str) -> list[int]:
    """The cards of a field, in order, each once; codes it cannot read are left out
    (the advice names them if they are still there when it is asked)."""
    out: list[int] = []
    for word in text.replace(",", " ").split():
        try:
            c = parse_card(word)
        except CardError:
            continue
        if c not in out:
            out.append(c)
    return out


def _table(spec: str, players: str) -> tuple[int, int]:
    """The players at the table and the cards of a hand for the form's house (the
    standard table's when the house does not load: the advice then says why)."""
    try:
        house = House(spec.strip() or "standard")  # (a house string: never a file here)
    except (HouseError, PluginError, ValueError):
        return 5, 5
    n = house.table.players
    if players.strip().isascii() and players.strip().isdigit() and 2 <= int(players) <= MAX_PLAYERS:
        n = int(players)
    try:
        size = Game(house, engine="python").hand_size
    except (ValueError, PluginError):
        size = 5
    return n, size


@dataclass
class AdviceForm:
    """The form as posted: its fields (strings) and the table they describe."""

    fields: dict[str, str]
    players: int
    size: int

    @classmethod
    def read(cls, got: dict[str, str]) -> AdviceForm:
        fields = {name: got.get(name, "") for name in FIELDS}
        for name, value in DEFAULTS.items():
            if not fields[name].strip():
                fields[name] = value
        n, size = _table(fields["house"], fields["players"])
        form = cls(fields, n, size)
        form._settle()
        return form

    # -- what the form holds ----------------------------------------------------------

    @property
    def upcard(self) -> int | None:
        got = _cards(self.fields["upcard"])
        return got[0] if len(got) == 1 else None

    @property
    def hand(self) -> list[int]:
        return _cards(self.fields["hand"])

    @property
    def place(self) -> int | None:
        text = self.fields["place"].strip()
        return int(text) if text.isascii() and text.isdigit() and len(text) < 4 else None

    @property
    def dealer(self) -> bool:
        return self.place == self.players

    @property
    def ready(self) -> bool:
        """Whether the question is whole (the upcard, a full hand, a place)."""
        return self.upcard is not None and len(self.hand) == self.size and self.place is not None

    def _set_hand(self, cards: list[int]) -> None:
        self.fields["hand"] = " ".join(card_str(c) for c in cards)

    def _settle(self) -> None:
        """The dealer's hand holds the upcard (R-DEAL): picked with it at the dealer's
        place, taken out of the hand elsewhere."""
        up, hand = self.upcard, self.hand
        if up is None or self.place is None:
            return
        if self.dealer and up not in hand and len(hand) < self.size:
            self._set_hand([up, *hand])
        elif not self.dealer and up in hand:
            self._set_hand([c for c in hand if c != up])

    # -- a tap ------------------------------------------------------------------------

    def tap(self, tap: str) -> None:
        """Apply one tap: ``up:CARD`` (the upcard), ``card:CARD`` (a card of the hand,
        taken back if picked), ``place:K``, ``upcard-again``, ``clear``."""
        verb, _, arg = tap.partition(":")
        if verb in ("up", "card"):
            try:
                card = parse_card(arg)
            except CardError as e:
                raise PickError(str(e)) from None
            if verb == "up":
                self.fields["upcard"] = card_str(card)
                self._set_hand([c for c in self.hand if c != card])
            else:
                self._pick(card)
        elif verb == "place":
            if not (arg.isascii() and arg.isdigit()) or not 1 <= int(arg) <= self.players:
                raise PickError(f"{arg!r} is not a place at a table of {self.players} (R-SEAT)")
            self.fields["place"] = arg
        elif verb == "upcard-again":
            up = self.upcard
            self.fields["upcard"] = ""
            self._set_hand([c for c in self.hand if c != up])
        elif verb == "clear":
            self.fields["hand"] = ""
        elif verb != "ask":
            raise PickError(f"{tap[:20]!r} is not a button of this page")
        self._settle()

    def _pick(self, card: int) -> None:
        hand, up = self.hand, self.upcard
        if card in hand:
            if card == up and self.dealer:
                raise PickError(f"the dealer's hand holds the upcard {card_symbol(card)} (R-DEAL)")
            self._set_hand([c for c in hand if c != card])
            return
        if card == up:
            raise PickError(
                f"{card_symbol(card)} is the upcard: it is in the dealer's hand (R-DEAL)"
            )
        if len(hand) >= self.size:
            raise PickError(
                f"a hand is {self.size} cards (R-DEAL-SIZE): tap one of yours to take it back"
            )
        self._set_hand([*hand, card])

    # -- what the page shows ----------------------------------------------------------

    def ask(self) -> str:
        """What the page needs next, in a line."""
        if self.upcard is None:
            return "Tap the dealer's upcard: its suit is trump."
        have = len(self.hand)
        if have < self.size:
            left = self.size - have
            return f"Tap your cards: {left} more card{'s' if left != 1 else ''}."
        if self.place is None:
            return "Tap your place from the dealer."
        return "Ready: press Should I play?"

    def picker(self) -> Picker:
        """The upcard's picker until it is chosen, then the hand's (the upcard marked)."""
        up, hand = self.upcard, self.hand
        if up is None:
            return Picker("up", frozenset(range(52)))
        full = len(hand) >= self.size
        free = frozenset(c for c in range(52) if c != up and (not full or c in hand))
        if self.dealer:
            free -= {up}
        return Picker("card", free, frozenset(hand), {up: "upcard"})

    def places(self) -> tuple[Button, ...]:
        """A button a place (1 = the dealer's left … the dealer), the chosen one picked."""
        if self.players > MAX_PLAYERS:
            return ()
        out = []
        for p in range(1, self.players + 1):
            label = "Dealer" if p == self.players else str(p)
            css = "picked" if p == self.place else ""
            out.append(Button(f"place:{p}", label, css, title=f"place {p}"))
        return tuple(out)

    def summary(self) -> str:
        """The question so far: ``upcard 5♥ · your hand A♥ K♥ · place 2``."""
        parts = []
        if self.upcard is not None:
            parts.append(f"upcard {card_symbol(self.upcard)}")
        if self.hand:
            parts.append("your hand " + " ".join(card_symbol(c) for c in self.hand))
        if self.place is not None:
            who = "the dealer" if self.dealer else f"place {self.place}"
            parts.append(f"you are {who}")
        return " · ".join(parts)

    def more_open(self) -> bool:
        """Whether the disclosure of the other fields starts open (one of them set, or
        a place typed beyond the buttons)."""
        return (
            any(self.fields[k].strip() for k in ("players", "pot", "decided"))
            or self.fields["house"].strip() != "standard"
            or self.fields["hands"].strip() != DEFAULTS["hands"]
            or self.fields["seed"].strip() != "0"
            or self.players > MAX_PLAYERS
        )
