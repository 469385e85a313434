"""Advice during a hand (``bourre advise --script``, the page ``/advise/hand``): for the
seat to play, what each card it may play is worth, the best first.

The values are the review's (:mod:`bourre.advice.review`) for the same position: both
come from :func:`bourre.advice.weigh.weigh`, the deals drawn from the same key (the
seed, the hand's number and how many cards the script has played so far), so a script
stopped at a card gets exactly the values the review gives that card.

- **On what the player knows**: the seat's chips from now to the end of the hand,
  averaged over deals that agree with everything it has seen (its cards and
  discards, the upcard, the decisions and exchange counts announced, every card
  played, the voids the house's obligations reveal), each deal played out with every
  hand known, everyone playing for themselves (R-WIN, R-BOURRE …), with a range that
  holds the true figure 19 times in 20 (the normal approximation over the deals).
- **With every hand known** (when the script shows every playing seat's cards): the
  card's chips and the tricks it makes sure of (R-SURE's count), double dummy.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from bourre.advice import kernel_solver
from bourre.advice.deals import Estimate, interval
from bourre.advice.review import DEALS, ENGINES, MAX_DEALS
from bourre.advice.weigh import Weighing, weigh
from bourre.game.state import State
from bourre.game.tablesteps import hand_log
from bourre.kernel.hooks import asked_words
from bourre.rules.cards import SUIT_NAMES, card_str, card_symbol
from bourre.rules.money import Amount, amount_json, amount_str

__all__ = ["CardWorth", "HandAdvice", "InHandError", "advise_in_hand", "position_key"]


class InHandError(ValueError):
    """No card to advise on (a decision or an exchange is next, the hand is over, the
    player's cards are not known): the message says why and what to ask instead."""


@dataclass(frozen=True)
class CardWorth:
    """One legal card's values."""

    card: int
    average: Fraction | None
    """The seat's chips averaged over the deals (``None``: no deal)."""
    range: Estimate | None
    """The average with the range that holds the true figure 19 times in 20."""
    chips: Amount | None
    """With every hand known: the seat's chips, everyone playing for themselves."""
    sure_tricks: int | None
    """With every hand known: the tricks of the hand this card makes sure of."""
    each: tuple[Amount, ...] = ()
    """The seat's chips in each deal imagined."""


@dataclass(frozen=True)
class HandAdvice:
    """The advice for the seat to play: its legal cards, the best first."""

    house: str
    hand: int
    trick: int
    seat: int
    leads: bool
    trump: int
    led: int | None
    """The suit led to this trick (``None``: the seat leads)."""
    cards: tuple[CardWorth, ...]
    """Every legal card, the best on what the player knows first (with no deal: the
    best with every hand known); a tie keeps the state's order."""
    deals: int
    """The deals that agreed with what the player has seen, each solved."""
    asked: int
    seed: int
    engine: str
    unknown: str
    """Why there are no values with every hand known (``""``: there are)."""
    notes: tuple[str, ...]

    @property
    def best(self) -> CardWorth:
        return self.cards[0]

    def equal(self) -> tuple[CardWorth, ...]:
        """The other cards worth exactly as much as the best in every deal imagined
        (cards next in rank in one hand, typically: R-EQUIV's idea)."""
        b = self.best
        return tuple(
            c for c in self.cards[1:] if c.each and c.each == b.each and c.chips == b.chips
        )

    def close(self) -> bool:
        """The best card's range reaches the average of the next card worth less: too
        close to call on these deals."""
        rest = self.cards[1 + len(self.equal()) :]
        if not rest or self.best.range is None or rest[0].average is None:
            return False
        return self.best.range.low <= float(rest[0].average)

    def rows(self) -> list[tuple[str, str, str]]:
        """Each card, the best first: its symbol, its chips on what the player knows
        with their range, and with every hand known (``""``: not known)."""
        out = []
        for c in self.cards:
            average = ""
            if c.average is not None and c.range is not None:
                average = f"{_chips(c.average)} ({_span(c.range)})"
            known = ""
            if c.chips is not None:
                tricks = "trick" if c.sure_tricks == 1 else "tricks"
                known = f"every hand known: {_chips(c.chips)}, sure of {c.sure_tricks} {tricks}"
            out.append((card_symbol(c.card), average, known))
        return out

    def words(self) -> list[str]:
        """The advice in words, line by line."""
        where = f"hand {self.hand}, trick {self.trick}"
        trump = SUIT_NAMES[self.trump]
        what = (
            f"you lead, {trump} are trump"
            if self.leads
            else f"trumps were led ({trump})"
            if self.led == self.trump
            else f"{SUIT_NAMES[self.led]} were led, {trump} are trump"
            if self.led is not None
            else f"{trump} are trump"
        )
        lines = [f"Seat {self.seat} to play ({where}: {what})."]
        if len(self.cards) == 1:
            lines.append(f"{card_symbol(self.best.card)} is the only card you may play.")
            return lines
        b = self.best
        if b.average is not None and b.range is not None:
            lines.append(
                f"Play {card_symbol(b.card)}: {_chips(b.average)} on average on what you know"
                f" ({_span(b.range)})."
            )
            same = self.equal()
            if same:
                lines.append(f"{_listed([b, *same])} are worth the same here: play any of them.")
            if self.close():
                nxt = self.cards[1 + len(same)]
                lines.append(
                    f"Close: {card_symbol(nxt.card)} is within the range of"
                    f" {card_symbol(b.card)} on {self.deals} deals (more deals would tell them"
                    " apart)."
                )
        elif b.chips is not None:
            lines.append(f"Play {card_symbol(b.card)}: {_chips(b.chips)} with every hand known.")
            alike = [
                c for c in self.cards[1:] if (c.chips, c.sure_tricks) == (b.chips, b.sure_tricks)
            ]
            if alike:
                lines.append(
                    f"{_listed([b, *alike])} are worth the same with every hand known: play any"
                    " of them."
                )
        for card, average, known in self.rows():
            lines.append(f"  {card}  " + "; ".join(x for x in (average, known) if x))
        how = ENGINES.get(self.engine, self.engine)
        if self.deals:
            lines.append(
                f"On what you know: {self.deals} deals that agree with everything you have seen"
                " (your cards, the upcard, the decisions and exchanges, every card played),"
                f" each counted alike and played out by {how} with every hand known, everyone"
                f" playing for themselves (seed {self.seed}). Chips: your money from now to the"
                " end of the hand (the antes already in the pot not counted); each range holds"
                " the true figure 19 times in 20."
            )
        if self.unknown:
            lines.append(f"No values with every hand known: {self.unknown}.")
        lines.extend(self.notes)
        return lines

    def as_dict(self) -> dict[str, Any]:
        """The JSON form (docs/advice.md, "Advice during the hand")."""
        return {
            "house": self.house,
            "hand": self.hand,
            "trick": self.trick,
            "seat": self.seat,
            "leads": self.leads,
            "deals": self.deals,
            "seed": self.seed,
            "engine": self.engine,
            "best": card_str(self.best.card),
            "same_as_best": [card_str(c.card) for c in self.equal()],
            "close": self.close(),
            "cards": [
                {
                    "card": card_str(c.card),
                    "average": None if c.average is None else round(float(c.average), 4),
                    "low": None if c.range is None else round(c.range.low, 4),
                    "high": None if c.range is None else round(c.range.high, 4),
                    "chips": None if c.chips is None else amount_json(c.chips),
                    "sure_tricks": c.sure_tricks,
                }
                for c in self.cards
            ],
            "every_hand_known": not self.unknown,
            "notes": list(self.notes),
            "words": self.words(),
        }


def position_key(seed: int, hand: int, index: int) -> str:
    """The key the deals of a position are drawn from: the review's for the card played
    there (``index``: the cards played in the script before it, every hand counted)."""
    return f"{seed}:{hand}:{index}"


def advise_in_hand(
    state: State,
    *,
    index: int,
    house: str,
    deals: int = DEALS,
    seed: int = 0,
    seconds: float | None = None,
    max_held: int | None = None,
    hands_known: bool = True,
) -> HandAdvice:
    """The advice for the seat to play in ``state`` (a refereed script's last state;
    ``index``: the cards the script played before this one).  :class:`InHandError` when
    no card is to be played or the player's cards are not known; ``ValueError`` for
    ``deals`` out of range.  ``seconds`` and ``max_held`` bound the work (a page);
    ``hands_known=False``: the other seats' cards in ``state`` are stand-ins (a hand
    being tapped), the values on what the player knows only."""
    if not 0 <= deals <= MAX_DEALS:
        raise ValueError(f"deals: from 0 to {MAX_DEALS:,}, not {deals:,}")
    if state.is_terminal() or state.phase_name != "play":
        raise InHandError(_no_card(state))
    hs = state.hand
    seat = state.current_player()
    if hs.hidden[seat]:
        raise InHandError(
            f"seat {seat} is to play but the script does not show its cards: give them"
            f" (dealt {seat}: …), the advice weighs the cards it holds (R-DEAL)"
        )
    deadline = None if seconds is None else time.monotonic() + seconds
    irregular = bool(hand_log(state).forfeits) if isinstance(state, State) else False
    weighed = weigh(
        state,
        deals=0 if irregular else deals,
        key=position_key(seed, hs.number, index),
        deadline=deadline,
        max_held=max_held,
        need_known=False,
        hands_known=hands_known,
    )
    if weighed.refused:
        raise InHandError(f"not weighed: {weighed.refused}")
    notes = []
    if irregular:
        notes.append(
            "After the renege or correction earlier in this hand (R-RENEGE, R-CORRECTED): the"
            " values with every hand known only (an imagined deal cannot hold an illegal card)."
        )
    notes.extend(weighed.notes())
    asked = kernel_solver.asked(state.house)
    why = kernel_solver.why_not(state, plain=weighed.engine.endswith("-plain"))
    if weighed.engine.startswith("python") and asked and why:  # (said, once)
        notes.append(f"The kernel's solver cannot solve this hand: {why}.")
    elif weighed.engine.startswith("kernel") and asked:  # (a plugin's rule, issue 41)
        notes.append(f"The kernel asked {asked_words(asked)} through Python.")
    if weighed.known is None and not weighed.found:
        raise InHandError(
            "no deal agreeing with what the player has seen was found, and the script does"
            f" not show every hand ({weighed.unknown}): nothing to weigh"
        )
    return HandAdvice(
        house=house,
        hand=hs.number,
        trick=len(hs.tricks) + 1,
        seat=seat,
        leads=not hs.trick,
        trump=hs.trump,
        led=hs.trick[0] // 13 if hs.trick else None,
        cards=_ranked(weighed),
        deals=weighed.found,
        asked=weighed.asked,
        seed=seed,
        engine=weighed.engine,
        unknown=weighed.unknown,
        notes=tuple(notes),
    )


def _ranked(w: Weighing) -> tuple[CardWorth, ...]:
    out = []
    for c in w.legal:
        v = w.known.value(c) if w.known is not None else None
        got = w.each.get(c, ())
        out.append(
            CardWorth(
                c,
                w.average(c),
                interval([float(x) for x in got]) if got else None,
                None if v is None else v.chips,
                None if v is None else v.sure_tricks,
                got,
            )
        )
    if w.found:
        out.sort(key=lambda x: -(x.average or 0))
    else:
        out.sort(key=lambda x: -(x.chips or 0))
    return tuple(out)


def _no_card(state: State) -> str:
    """Why no card is to be played at the script's end, and what to ask instead."""
    if state.is_terminal() or state.phase_name not in ("decide", "exchange"):
        return (
            "no one is to play a card at the end of the script: its last hand is over (add the"
            " next hand's lines up to the card to play, R-LEAD)"
        )
    hs = state.hand
    seat = state.current_player()
    what = "decide whether to play or pass" if state.phase_name == "decide" else "exchange"
    n = state.n
    place = (seat - hs.dealer) % n or n
    cards = "" if seat < 0 or hs.hidden[seat] else " ".join(card_str(c) for c in hs.hands[seat])
    hand = f'"{cards}"' if cards else '"YOUR CARDS"'
    return (
        f"no card is to be played yet: seat {seat} is to {what} (R-DECIDE, R-DRAW); before"
        f" the play, ask bourre advise --hand {hand} --upcard {card_str(hs.upcard)}"
        f" --place {place} --players {n}"
    )


def _chips(x: Amount | Fraction) -> str:
    """Chips in words: a whole amount as it is, else to a tenth (−1.3 chips)."""
    if isinstance(x, Fraction) and x.denominator != 1:
        text = f"{float(x):+.1f}"
        text = "0.0" if text in ("+0.0", "-0.0") else text
    else:
        text = amount_str(int(x))
        text = f"+{text}" if x > 0 else text
    word = "chip" if abs(x) == 1 else "chips"
    return f"{text.replace('-', '−')} {word}"


def _listed(cards: list[CardWorth]) -> str:
    names = [card_symbol(c.card) for c in cards]
    return ", ".join(names[:-1]) + " and " + names[-1]


def _span(r: Estimate) -> str:
    def one(x: float) -> str:
        t = f"{x:+.1f}"
        return "0.0" if t in ("+0.0", "-0.0") else t.replace("-", "−")

    if math.isclose(r.low, r.high):
        return "the same in every deal"
    return f"from {one(r.low)} to {one(r.high)}"
