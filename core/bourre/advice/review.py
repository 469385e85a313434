"""A review of a refereed hand (``bourre replay --review``): for every card played,
what each legal card was worth

- *with every hand known* (double dummy, :func:`bourre.advice.solve`): its chips, every
  seat playing for itself (R-WIN, R-BOURRE …), and the tricks it made sure of whatever
  the others did (R-SURE's count);
- *with what the player knew*: the same chips averaged over deals that agree with
  everything that seat had seen (:func:`bourre.game.worlds.sample_world`'s sampling
  from its :class:`~bourre.game.observation.Observation`, drawn by the kernel on a
  house it plays: :mod:`bourre.advice.weigh`), each deal solved the same way,

and which plays cost something, in words.  A play **costs chips** when another legal
card was worth more chips with every hand known; it **gives up a sure trick** when
another legal card made sure of more tricks; it is **a mistake on what the player
knew** when, over the same deals, another legal card was worth at least
:data:`MARGIN` chips more on average.  A play that costs chips but is no mistake on
what the player knew was bad luck.

The positions come from the referee (``bourre.referee.referee(..., watch=Recorder())``):
a :class:`Recorder` keeps a copy of the state each card was played from; the review
never changes the hand records.  What it does at a real table's irregularities:

- a renege (R-RENEGE: a card not allowed that stood) is not weighed against the legal
  cards; their values are shown;
- after a renege or a correction (R-CORRECTED) in a hand, the later cards of that hand
  are reviewed with every hand known only: the deals a player imagines cannot hold an
  illegal card, and the forfeit changes the payout;
- a hand given by its tricks alone (every hand after the exchange is what the seat
  played) is reviewed like any other: the state knows every playing seat's cards.

Each card's values come from :func:`bourre.advice.weigh.weigh`, the one evaluation of a
position that the advice during a hand (:mod:`bourre.advice.inhand`) calls too: for the
same position and seed both give the same values.

A house the compiled kernel plays (every built-in house) is solved by the kernel's
solver; any other house by the Python rules with the plain search (every card searched,
nothing remembered: right for any rules, slower), and the review says which.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from bourre.advice import kernel_solver
from bourre.advice.solver import Solution
from bourre.advice.weigh import weigh
from bourre.game.state import State
from bourre.game.tablesteps import hand_log
from bourre.kernel.hooks import asked_words
from bourre.rules.cards import card_str, card_symbol
from bourre.rules.money import Amount, amount_json, amount_str

__all__ = [
    "DEALS",
    "MARGIN",
    "Alternative",
    "Moment",
    "PlayReview",
    "Recorder",
    "Review",
    "review",
]

DEALS = 30
"""Deals imagined for each card played, by default."""

MAX_DEALS = 10_000
"""The most deals one review may imagine for each card."""

MARGIN = Fraction(1, 2)
"""A play is a mistake on what the player knew when another card was worth at least
this many chips more, on average over the same deals."""

ONLY_CARD = "the only card allowed, nothing to weigh"
"""The note of a card played when it was the only one allowed."""
AFTER_IRREGULAR = (
    "After the renege or correction earlier in this hand (R-RENEGE, R-CORRECTED): the"
    " values with every hand known only (an imagined deal cannot hold an illegal card)."
)
"""The note of every card played after a renege or a correction in its hand (in words,
said once a hand)."""

ENGINES = {
    "kernel": "the kernel's solver",
    "kernel-plain": "the kernel's solver, every card searched (a plugin's rule of the play)",
    "python": "the Python search",
    "python-plain": "the Python rules and the plain search (slower)",
}
"""How each card's values were found, in words."""


@dataclass(frozen=True)
class Moment:
    """A card played at the table and the position it was played from."""

    state: State
    """A private copy of the state just before the card (the seat to play is the
    player)."""
    card: int
    """The card that stood."""
    taken_back: int | None
    """The illegal card taken back for it (R-CORRECTED), if any."""
    renege: bool
    """The card that stood was not allowed (R-RENEGE)."""


@dataclass
class Recorder:
    """Keeps each position a script's cards are played from: give it to
    ``bourre.referee.referee(..., watch=...)``."""

    moments: list[Moment] = field(default_factory=list)

    def __call__(self, state: State, card: int, corrected_to: int | None) -> None:
        stood = card if corrected_to is None else corrected_to
        legal = state.legal_with_reasons().cards
        first = card if corrected_to is not None else None
        self.moments.append(Moment(state.clone(), stood, first, stood not in legal))


@dataclass(frozen=True)
class Alternative:
    """One legal card's values at a card played."""

    card: int
    sure_tricks: int
    """The tricks of the hand this card made sure of, whatever the others did."""
    chips: Amount
    """The player's chips from here to the end of the hand, every hand known, every
    seat playing for itself."""
    pot_to: tuple[int, ...]
    """The seats that take money on that line (the pot, R-WIN): those whose chips are
    above nothing."""
    average: Fraction | None
    """The player's chips averaged over the deals imagined (``None``: none)."""


@dataclass(frozen=True)
class PlayReview:
    """The review of one card played."""

    hand: int
    trick: int
    seat: int
    leads: bool
    card: int
    taken_back: int | None
    renege: bool
    alternatives: tuple[Alternative, ...]
    """Every legal card, in the state's order (empty when not reviewed)."""
    deals: int
    """The deals imagined and solved."""
    engine: str
    """``kernel``, ``kernel-plain``, ``python`` or ``python-plain`` (:data:`ENGINES`),
    ``""`` when not solved."""
    note: str
    """What was left out and why, in words (``""``: nothing)."""

    def value(self, card: int) -> Alternative | None:
        for a in self.alternatives:
            if a.card == card:
                return a
        return None

    @property
    def played(self) -> Alternative | None:
        return None if self.renege else self.value(self.card)

    @property
    def best(self) -> Alternative | None:
        """The card of the most chips, every hand known (the first on a tie)."""
        alts = self.alternatives
        return max(alts, key=lambda a: a.chips) if alts else None

    @property
    def surest(self) -> Alternative | None:
        """The card that made sure of the most tricks (the first on a tie)."""
        alts = self.alternatives
        return max(alts, key=lambda a: a.sure_tricks) if alts else None

    @property
    def best_known(self) -> Alternative | None:
        """The card of the most chips on average over the deals imagined."""
        alts = [a for a in self.alternatives if a.average is not None]
        return max(alts, key=lambda a: a.average or 0) if alts else None

    @property
    def cost_chips(self) -> Amount:
        """Chips lost against the best card, every hand known (0: none)."""
        p, b = self.played, self.best
        return 0 if p is None or b is None else b.chips - p.chips

    @property
    def cost_tricks(self) -> int:
        """Sure tricks given up against the surest card (0: none)."""
        p, b = self.played, self.surest
        return 0 if p is None or b is None else b.sure_tricks - p.sure_tricks

    @property
    def cost_known(self) -> Fraction | None:
        """Chips lost on average against the best card on what the player knew."""
        p, b = self.played, self.best_known
        if p is None or b is None or p.average is None or b.average is None:
            return None
        return b.average - p.average

    @property
    def mistake(self) -> bool:
        """A mistake on what the player knew (:data:`MARGIN`)."""
        cost = self.cost_known
        return cost is not None and cost >= MARGIN

    def marks(self) -> list[str]:
        """What the play cost: ``chips``, ``sure_tricks``, ``knowledge``."""
        out = []
        if self.cost_chips > 0:
            out.append("chips")
        if self.cost_tricks > 0:
            out.append("sure_tricks")
        if self.mistake:
            out.append("knowledge")
        return out

    def words(self, note: bool = True) -> list[str]:
        """The review of this card, line by line (the first says who played what);
        without ``note``, its note is left out (said for an earlier card)."""
        verb = "leads" if self.leads else "plays"
        head = f"Hand {self.hand}, trick {self.trick}: seat {self.seat} {verb} {card_symbol(self.card)}"
        if self.taken_back is not None:
            head += f" (after taking back {card_symbol(self.taken_back)}, R-CORRECTED)"
        if self.note == ONLY_CARD:
            return [f"{head}: {ONLY_CARD}."]
        lines = [head + "."]
        if self.alternatives:
            lines.append(
                "  every hand known: " + "; ".join(self._known(a) for a in self.alternatives)
            )
        if any(a.average is not None for a in self.alternatives):
            lines.append(
                f"  on what seat {self.seat} knew ({self.deals} deals like the one it saw): "
                + "; ".join(
                    f"{card_symbol(a.card)} {_average(a.average)}"
                    + (" ← played" if a.card == self.card and not self.renege else "")
                    for a in self.alternatives
                    if a.average is not None
                )
            )
        if self.note and note:
            lines.append(f"  {self.note}")
        lines.extend(f"  {w}" for w in self._costs())
        return lines

    def _known(self, a: Alternative) -> str:
        tricks = "trick" if a.sure_tricks == 1 else "tricks"
        played = " ← played" if a.card == self.card and not self.renege else ""
        return (
            f"{card_symbol(a.card)} {_signed(a.chips)} {'chip' if abs(a.chips) == 1 else 'chips'}"
            f" (sure of {a.sure_tricks} {tricks}){played}"
        )

    def _costs(self) -> list[str]:
        p = self.played
        if p is None:
            return []
        out: list[str] = []
        b, s, k = self.best, self.surest, self.best_known
        if b is not None and self.cost_chips > 0:
            what = []
            if self.seat in b.pot_to and self.seat not in p.pot_to:
                what.append(
                    f"let {_seats(p.pot_to)} take the pot" if p.pot_to else "lost you the pot"
                )
            elif p.pot_to and p.pot_to != b.pot_to:
                what.append(f"let {_seats(p.pot_to)} take the pot")
            if p.chips < 0 <= b.chips:
                what.append("left you bourré")
            said = " and ".join(what) or "cost you chips"
            out.append(
                f"✗ Playing {card_symbol(p.card)} instead of {card_symbol(b.card)} {said}:"
                f" you end with {_signed(p.chips)} instead of {_signed(b.chips)}, with every"
                " hand known."
            )
        if s is not None and self.cost_tricks > 0:
            out.append(
                f"✗ Playing {card_symbol(p.card)} instead of {card_symbol(s.card)} gave up"
                f" {_count(self.cost_tricks, 'sure trick')}: {card_symbol(s.card)} made sure of"
                f" {_count(s.sure_tricks, 'trick')} whatever the others did,"
                f" {card_symbol(p.card)} of {s.sure_tricks - self.cost_tricks}"
                + (" (you could be bourré)." if p.sure_tricks == 0 else ".")
            )
        cost = self.cost_known
        if k is not None and cost is not None and p.average is not None and k.average is not None:
            if self.mistake:
                out.append(
                    f"✗ A mistake on what you knew: over the same {self.deals} deals"
                    f" {card_symbol(k.card)} was worth {_average(k.average)} on average"
                    f" and {card_symbol(p.card)} {_average(p.average)}."
                )
            elif self.cost_chips > 0:
                out.append(
                    "Bad luck rather than a mistake: on what you knew,"
                    f" {card_symbol(p.card)} was as good as any ({_average(p.average)} on"
                    f" average, the best {_average(k.average)})."
                )
        return out

    def as_dict(self) -> dict[str, Any]:
        """The JSON form (docs/advice.md, "Reviewing a hand")."""
        best, surest, known = self.best, self.surest, self.best_known
        cost = self.cost_known
        return {
            "hand": self.hand,
            "trick": self.trick,
            "seat": self.seat,
            "card": card_str(self.card),
            "taken_back": card_str(self.taken_back) if self.taken_back is not None else None,
            "renege": self.renege,
            "engine": self.engine,
            "deals": self.deals,
            "alternatives": [
                {
                    "card": card_str(a.card),
                    "sure_tricks": a.sure_tricks,
                    "chips": amount_json(a.chips),
                    "pot_to": list(a.pot_to),
                    "average": None if a.average is None else round(float(a.average), 4),
                }
                for a in self.alternatives
            ],
            "best": card_str(best.card) if best else None,
            "surest": card_str(surest.card) if surest else None,
            "best_known": card_str(known.card) if known else None,
            "cost": {
                "chips": amount_json(self.cost_chips),
                "sure_tricks": self.cost_tricks,
                "average": None if cost is None else round(float(cost), 4),
            },
            "marks": self.marks(),
            "note": self.note,
            "words": self.words(),
        }


@dataclass(frozen=True)
class Review:
    """The review of every card played in a refereed script."""

    house: str
    deals: int
    seed: int
    plays: tuple[PlayReview, ...]
    why_python: str | None
    """Why the kernel could not solve this house (``None``: it could)."""
    asked: tuple[str, ...] = ()
    """The plugin's rules the kernel's solver asked through Python (``"split-pot
    (bourre_payout)"``: a plugin's penalty or payout, issue 41), when it solved."""

    def engines(self) -> list[str]:
        """The solvers used, in :data:`ENGINES` order."""
        used = {p.engine for p in self.plays}
        return [e for e in ENGINES if e in used]

    def summary(self) -> list[str]:
        """Per seat, how many of its plays cost something."""
        out = []
        for seat in sorted({p.seat for p in self.plays}):
            mine = [p for p in self.plays if p.seat == seat]
            chips = sum(1 for p in mine if "chips" in p.marks())
            tricks = sum(1 for p in mine if "sure_tricks" in p.marks())
            mistakes = sum(1 for p in mine if p.mistake)
            out.append(
                f"Seat {seat}: {_count(len(mine), 'card')} played; {chips} cost chips with every"
                f" hand known, {tricks} gave up a sure trick, {_count(mistakes, 'mistake')}"
                " on what it knew."
            )
        return out

    def play_words(self) -> list[list[str]]:
        """Each card's lines (:meth:`PlayReview.words`), in play order; the note that
        follows a renege or a correction is said for the first card after it in a hand,
        not for every card."""
        out = []
        said = 0
        for p in self.plays:
            again = p.note == AFTER_IRREGULAR and said == p.hand
            out.append(p.words(note=not again))
            if p.note == AFTER_IRREGULAR:
                said = p.hand
        return out

    def words(self) -> list[str]:
        """The whole review, line by line."""
        how = "; ".join(ENGINES[e] for e in self.engines()) or "nothing solved"
        lines = [
            f"Review of the play, house {self.house}: solved by {how}"
            + (
                f", asking {asked_words(self.asked)} through Python"
                if self.asked and any(e.startswith("kernel") for e in self.engines())
                else ""
            )
            + (
                f" (the kernel cannot solve this house: {self.why_python})"
                if self.why_python
                else ""
            )
            + (
                f"; {self.deals} deals imagined for each card (seed {self.seed})."
                if self.deals
                else "; no deal imagined: the values with every hand known only."
            )
        ]
        lines.append(
            "Chips: each card's money from there to the end of the hand, everyone playing for"
            " themselves (the antes already in the pot not counted). Sure tricks: the tricks"
            " that card made sure of, whatever the others did. ✗ marks a play that cost"
            f" chips or a sure trick with every hand known, or that was worse by {_average(MARGIN, sign=False)}"
            " chip or more on average on what the player knew."
        )
        hand = 0
        for p, words in zip(self.plays, self.play_words(), strict=True):
            if p.hand != hand:
                hand = p.hand
                lines.append("")
            lines.extend(words)
        if self.plays:
            lines.append("")
            lines.extend(self.summary())
        else:
            lines.append("No card was played: nothing to review.")
        return lines

    def as_dict(self) -> dict[str, Any]:
        """The JSON form (docs/advice.md, "Reviewing a hand")."""
        return {
            "house": self.house,
            "deals": self.deals,
            "seed": self.seed,
            "margin": float(MARGIN),
            "engines": self.engines(),
            "kernel_cannot": self.why_python,
            "plays": [p.as_dict() for p in self.plays],
            "summary": self.summary(),
        }


def review(
    moments: list[Moment],
    *,
    house: str,
    deals: int = DEALS,
    seed: int = 0,
    seconds: float | None = None,
    max_held: int | None = None,
) -> Review:
    """Review the cards played from ``moments`` (a :class:`Recorder`'s, in play order).

    ``deals``: deals imagined for each card (0: every hand known only); ``seed``: the
    same seed, the same deals.  ``seconds``: once this much time has gone, the cards
    left are not reviewed; ``max_held``: on the Python rules, a position where the
    playing seats hold more cards than this is not searched (both say so)."""
    if not 0 <= deals <= MAX_DEALS:
        raise ValueError(f"deals: from 0 to {MAX_DEALS:,}, not {deals:,}")
    deadline = None if seconds is None else time.monotonic() + seconds
    why_python = kernel_solver.why_not_house(moments[0].state.house) if moments else None
    out = []
    for i, m in enumerate(moments):
        out.append(_review_one(m, i, deals, seed, deadline, max_held))
    asked = kernel_solver.asked(moments[0].state.house) if moments and why_python is None else ()
    return Review(house, deals, seed, tuple(out), why_python, asked)


def _late(deadline: float | None) -> bool:
    return deadline is not None and time.monotonic() > deadline


def _review_one(
    m: Moment, index: int, deals: int, seed: int, deadline: float | None, max_held: int | None
) -> PlayReview:
    state = m.state
    hs = state.hand
    seat = state.current_player()
    legal = state.legal_with_reasons().cards

    def made(
        alternatives: tuple[Alternative, ...] = (), deals: int = 0, engine: str = "", note: str = ""
    ) -> PlayReview:
        return PlayReview(
            hs.number,
            len(hs.tricks) + 1,
            seat,
            not hs.trick,
            m.card,
            m.taken_back,
            m.renege,
            alternatives,
            deals,
            engine,
            note,
        )

    if _late(deadline):
        return made(note="Not reviewed: the time allowed ran out.")
    if len(legal) == 1 and not m.renege:
        return made(note=ONLY_CARD)
    forfeits = hand_log(state).forfeits if isinstance(state, State) else frozenset()
    irregular = bool(forfeits) or m.renege
    weighed = weigh(
        state,
        deals=0 if irregular else deals,
        key=f"{seed}:{hs.number}:{index}",
        deadline=deadline,
        max_held=max_held,
    )
    if weighed.refused:
        here = " here" if weighed.too_long else ""
        return made(note=f"Not reviewed{here}: {weighed.refused}.")
    assert weighed.known is not None
    notes = []
    if m.renege:
        notes.append(
            f"{card_symbol(m.card)} was not allowed and stood: a renege (R-RENEGE), not weighed"
            " against the cards allowed; the ruling says what it costs."
        )
    elif forfeits:
        notes.append(AFTER_IRREGULAR)
    notes.extend(weighed.notes())
    alternatives = tuple(
        _alternative(weighed.known, seat, c, weighed.average(c) if weighed.asked else None)
        for c in legal
    )
    return made(alternatives, weighed.found, weighed.engine, " ".join(notes))


def _alternative(solution: Solution, seat: int, card: int, average: Fraction | None) -> Alternative:
    v = solution.value(card)
    pot_to = tuple(s for s, c in enumerate(v.chips_by_seat) if c > 0)
    return Alternative(card, v.sure_tricks, v.chips, pot_to, average)


def _signed(x: Amount) -> str:
    text = amount_str(x)
    return text.replace("-", "−") if x < 0 else f"+{text}" if x > 0 else "0"


def _average(x: Fraction, sign: bool = True) -> str:
    text = f"{float(x):+.1f}" if sign else f"{float(x):.1f}"
    return "0.0" if text in ("+0.0", "-0.0") else text.replace("-", "−")


def _count(n: int, what: str) -> str:
    return f"{n} {what}" if n == 1 else f"{n} {what}s"


def _seats(seats: tuple[int, ...]) -> str:
    names = [f"seat {s}" for s in seats]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
