"""One question, one answer: which cards may this player play here, and why
(``bourre check``).  The answer is the house's own rule components' (the follow rule,
the cinch), with their rule ids and words; nothing here restates a rule."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from bourre.game.state import legal_play
from bourre.houses.house import House
from bourre.rules.cards import SUIT_NAMES, SUITS, card_str, card_symbol, display_order
from bourre.rules.hookspec import CINCH, FOLLOW

__all__ = ["CardRuling", "CheckError", "Refusal", "check_card"]


class CheckError(ValueError):
    """A question that cannot describe a real position (a card twice, a trick too
    long …): the message names the field and the rule."""


@dataclass(frozen=True)
class Refusal:
    """A card held that may not be played, with the rule and the words."""

    card: int
    rule: str
    reason: str


@dataclass(frozen=True)
class CardRuling:
    """The answer to "which cards may I play?"."""

    hand: tuple[int, ...]
    trick: tuple[int, ...]
    trump: int
    legal: tuple[int, ...]
    cinch: bool
    """Whether the player has a cinch (R-SURE)."""
    refused: tuple[Refusal, ...]
    rules: tuple[str, ...]
    """The ids of the rules that decided the legal cards, in order."""
    reasons: tuple[str, ...] = ()
    """Their words for this trick, in the same order."""

    def as_json(self) -> dict[str, object]:
        return {
            "hand": [card_str(c) for c in self.hand],
            "trick": [card_str(c) for c in self.trick],
            "trump": SUITS[self.trump],
            "legal": [card_str(c) for c in self.legal],
            "cinch": self.cinch,
            "refused": [
                {"card": card_str(r.card), "rule": r.rule, "reason": r.reason} for r in self.refused
            ],
            "rules": list(self.rules),
        }

    def words(self, house: House) -> list[str]:
        """The answer for a card player, with the rules' texts of this house."""
        texts = {rid: text for _, _, (rid, text) in house.rule_texts()}
        trick = " ".join(card_symbol(c) for c in self.trick) or "you lead"
        shown = display_order(self.hand, self.trump)
        lines = [
            f"Trump {SUIT_NAMES[self.trump]}; your hand: "
            + " ".join(card_symbol(c) for c in shown)
            + f"; the trick so far: {trick}.",
            "You may play: "
            + " ".join(card_symbol(c) for c in display_order(self.legal, self.trump))
            + ".",
        ]
        if self.cinch:
            lines.append("You have a cinch (R-SURE): " + texts.get("R-SURE", "3 sure tricks."))
        for rid, why in zip(self.rules, self.reasons, strict=True):
            lines.append(f"Why ({rid}): {why}.")
        for r in self.refused:
            lines.append(f"{card_symbol(r.card)} is not allowed ({r.rule}).")
        for rid in self.rules:
            if rid in texts:
                lines.append(f"{rid}: {texts[rid]}")
        return lines


def _no_repeats(named: Sequence[tuple[str, Iterable[int]]]) -> None:
    seen: dict[int, str] = {}
    for field, cards in named:
        for c in cards:
            if c in seen:
                raise CheckError(
                    f"{field}: {card_symbol(c)} is also in {seen[c]}: every card is in one place"
                    " (R-DECK)"
                )
            seen[c] = field


def check_card(
    house: House,
    hand: Sequence[int],
    trick: Sequence[int] = (),
    *,
    trump: int,
    played: Sequence[int] = (),
    won: int = 0,
    discards: Sequence[int] = (),
    last: bool = False,
) -> CardRuling:
    """Which cards of ``hand`` may be played on ``trick`` (cards in play order) with
    ``trump``.  For the cinch (R-SURE): ``played`` are the cards played in earlier
    tricks, ``won`` the tricks this player has won, ``discards`` its own discards,
    ``last`` whether it plays last to the trick (R-CINCH-LAST)."""
    rules = house.rules
    size, n = rules.hand_size, house.table.players
    _no_repeats(
        [("--hand", hand), ("--trick", trick), ("--played", played), ("--discards", discards)]
    )
    if not 1 <= len(hand) <= size:
        raise CheckError(f"--hand: a hand holds 1 to {size} cards here, not {len(hand)} (R-DEAL)")
    if len(trick) >= n:
        raise CheckError(
            f"--trick: at most {n - 1} cards come before yours at {n} players (R-LEAD)"
        )
    if not 0 <= won <= size:
        raise CheckError(f"--won: 0 to {size} tricks (R-SURE)")
    if not 0 <= trump < 4:
        raise CheckError("--trump: a suit S, H, D or C (R-DEAL)")
    known = frozenset((*played, *trick, *discards))
    held = tuple(sorted(hand))
    legal = legal_play(rules[FOLLOW], rules[CINCH], 0, held, tuple(trick), trump, known, won, last)
    refused = []
    for c in held:
        if c not in legal.cards:
            why = legal.reason_for(c)
            refused.append(Refusal(c, why.rule, why.words))
    return CardRuling(
        held,
        tuple(trick),
        trump,
        legal.cards,
        legal.cinch,
        tuple(refused),
        tuple(legal.rules),
        tuple(r.words for r in legal.reasons),
    )
