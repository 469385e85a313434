"""Should I play this hand? (:func:`advise`): for one seat before its decision, the
chance of taking the pot, of being bourré, and the chips expected, for passing and
for playing with each candidate exchange, estimated by simulation.

Each simulated hand deals the cards the seat cannot see at random (its own hand and
the upcard, in the dealer's hand, are fixed), lets the earlier seats decide as they
announced (or as the heuristic bot would, when nothing was announced), and then plays
the hand out once per candidate from the same deal and the same stock (common random
numbers): the other seats decide, exchange and play as the built-in heuristic bot,
and the seat plays its cards with the heuristic too after the exchange it is trying.
The chips are this hand's money change counted from the decision: antes already paid
are sunk.  Each figure has a 95% interval, the normal approximation over the
simulated hands.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations
from typing import Any

from bourre.game import Game
from bourre.game.actions import PASS, PLAY, Action, Deck, discard
from bourre.game.botmaking import make_bot
from bourre.game.engines import choose
from bourre.game.players import ask
from bourre.game.state import State
from bourre.game.tablesteps import set_hand
from bourre.houses.house import House
from bourre.kernel.rollouts import heuristic_outcomes
from bourre.rules.cards import CardError, card_symbol, parse_card
from bourre.rules.money import Amount, chips

__all__ = ["HANDS", "Advice", "AdviceError", "Estimate", "Option", "advise", "interval"]

HANDS = 3000
"""Simulated deals a question gets by default: ``bourre advise`` and the web's "Should I
play?" both (the same hand, the same seed: the same answer)."""

MAX_POT = 10**9
"""The largest pot a question may name."""

MAX_HANDS = 200_000
"""The most simulated hands one question may ask for."""

Z95 = 1.959963984540054
"""The normal quantile of a two-sided 95% interval."""


class AdviceError(ValueError):
    """A question :func:`advise` cannot answer: ``field`` names the argument (the
    command's option), the message the rule it breaks."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field


@dataclass(frozen=True)
class Estimate:
    """A mean over the simulated hands with its 95% interval (normal approximation)."""

    mean: float
    low: float
    high: float

    @property
    def half_width(self) -> float:
        return (self.high - self.low) / 2


def interval(values: Sequence[float]) -> Estimate:
    """The mean of ``values`` and its 95% interval, ``mean ± 1.96 × sd / √n`` (the
    sample standard deviation; a single value has a zero-width interval)."""
    n = len(values)
    if n == 0:
        return Estimate(0.0, 0.0, 0.0)
    mean = math.fsum(values) / n
    if n < 2:
        return Estimate(mean, mean, mean)
    var = math.fsum((x - mean) ** 2 for x in values) / (n - 1)
    half = Z95 * math.sqrt(var / n)
    return Estimate(mean, mean - half, mean + half)


@dataclass(frozen=True)
class Option:
    """One choice: ``play`` with ``throw`` (the cards exchanged, empty: stand pat), or
    pass (``play`` false)."""

    play: bool
    throw: tuple[int, ...]
    take: Estimate
    """The chance of taking the pot (R-WIN)."""
    bourre: Estimate
    """The chance of being bourré (R-BOURRE)."""
    chips: Estimate
    """The chips expected from the decision on (antes already paid are sunk)."""

    @property
    def label(self) -> str:
        if not self.play:
            return "pass"
        if not self.throw:
            return "play, standing pat"
        shown = sorted(self.throw, key=lambda c: (c % 13, c))
        return "play, throwing " + " ".join(card_symbol(c) for c in shown)

    def as_dict(self) -> dict[str, Any]:
        def est(e: Estimate) -> dict[str, float]:
            return {"mean": e.mean, "low": e.low, "high": e.high}

        return {
            "play": self.play,
            "throw": [card_symbol(c) for c in sorted(self.throw, key=lambda c: (c % 13, c))],
            "take": est(self.take),
            "bourre": est(self.bourre),
            "chips": est(self.chips),
        }


@dataclass(frozen=True)
class Advice:
    """The answer of :func:`advise`: ``best`` (the option with the most chips
    expected), ``plays`` (every exchange tried, best first), ``passing`` (``None``
    when the seat may not pass: ``forced`` says by which rule, R-ACE-UP or
    R-LAST-STANDS), and how it was found."""

    house: str
    players: int
    place: int
    seat: int
    pot: Amount
    upcard: int
    hand: tuple[int, ...]
    decisions: tuple[bool, ...]
    hands: int
    """Simulated hands (the same deals for every option)."""
    seed: int
    engine: str
    """Who played the options out: ``"kernel"`` (the compiled kernel, a built-in
    house) or ``"python"`` (the Python rules)."""
    plays: tuple[Option, ...]
    passing: Option | None
    forced: str | None
    edge: Estimate | None = None
    """The chips playing at best (``plays[0]``) minus passing, deal by deal (``None``
    when the seat may not pass)."""
    opponents: str = "heuristic"
    """Who the others are: ``"heuristic"`` (they decide as the heuristic bot) or
    ``"equilibrium"`` (they decide by the house's equilibrium chart)."""

    @property
    def against(self) -> str:
        """Against whom the advice was computed, in words."""
        return OPPONENTS[self.opponents]

    @property
    def best(self) -> Option:
        options = [*self.plays, *([self.passing] if self.passing is not None else [])]
        return max(options, key=lambda o: o.chips.mean)

    @property
    def verdict(self) -> str:
        """``"play"`` (playing at best beats passing: the whole range of the difference
        is above 0), ``"pass"`` (below 0), ``"close"`` (the range holds 0), or ``"must
        play"`` (R-ACE-UP, R-LAST-STANDS): the rule of ``bourre chart``'s cells."""
        if self.passing is None or self.edge is None:
            return "must play"
        if self.edge.low > 0:
            return "play"
        return "pass" if self.edge.high < 0 else "close"

    def verdict_words(self) -> str:
        """The verdict in a sentence, with the chips at stake: how many chips a hand
        the answer is worth over the other choice, and the pot."""
        top, pot = self.plays[0], f"with {_chips(self.pot)} chips in the pot"
        how = _exchange(top)
        if self.passing is None or self.edge is None:  # (the figures say why, once)
            return (
                f"{_capital(how)}: {_signed(top.chips.mean)} chips expected, {pot} ({self.forced})."
            )
        e = self.edge
        if self.verdict == "play":
            return (
                f"{_capital(how)}: about {e.mean:.1f} chips better than passing"
                f" (±{e.half_width:.1f}), {pot}."
            )
        if self.verdict == "pass":
            return (
                f"Passing is about {-e.mean:.1f} chips better than playing at best ({how})"
                f" (±{e.half_width:.1f}), {pot}."
            )
        return (
            f"Too close to call: playing at best ({how}) and passing are within"
            f" {abs(e.mean):.1f} chips of each other (±{e.half_width:.1f}), {pot}."
        )

    @property
    def headline(self) -> str:
        """The verdict as the page's headline: ``PLAY``, ``PASS``, ``CLOSE``, ``MUST PLAY``."""
        return self.verdict.upper()

    def words(self) -> list[str]:
        """The advice in plain words, one line each (``bourre advise``, the web page):
        the question, the verdict (``PLAY — throw …``), then the figures (:meth:`figures`)."""
        figures = self.figures()
        said = self.verdict_words()
        return [figures[0], f"{self.headline} — {said[:1].lower()}{said[1:]}", *figures[1:]]

    def figures(self) -> list[str]:
        """The question and the figures behind the verdict, one line each."""
        best = self.best
        who = "the dealer" if self.place == self.players else f"place {self.place}"
        out = [
            f"{self.house}, {self.players} players, you are {who} (1 is the dealer's left),"
            f" upcard {card_symbol(self.upcard)}, pot {_chips(self.pot)}; hand"
            f" {' '.join(card_symbol(c) for c in self.hand)}; {self.against}.",
        ]
        if self.forced is not None:
            out.append(f"You may not pass: {FORCED_WORDS.get(self.forced, self.forced)}.")
        if best.play:
            line = f"{_capital(best.label)}: {_odds(best)}."
            if self.passing is not None:
                line += f" Passing: {_signed(self.passing.chips.mean)} chips."
            out.append(line)
        else:
            top = self.plays[0]
            out.append(
                f"Pass: {_signed(best.chips.mean)} chips. Playing at best ({top.label[6:]}):"
                f" {_odds(top)}."
            )
        if best.play:
            rest = [o for o in self.plays if o is not best][:RUNNERS_UP]
        else:
            rest = list(self.plays[1 : 1 + RUNNERS_UP])
        if rest:
            out.append("Runners-up:")
            out += [f"  {_capital(o.label)}: {_odds(o)}." for o in rest]
        out.append(
            f"From {self.hands:,} simulated deals (seed {self.seed}, the same deals for every"
            f" choice, {ENGINE_WORDS.get(self.engine, self.engine)}): the others "
            + (
                "decide by the equilibrium chart of the house (bourre chart HOUSE"
                " --equilibrium) and exchange and play as the heuristic bot"
                if self.opponents == "equilibrium"
                else "decide, exchange and play as the heuristic bot"
            )
            + ", and so do you after your exchange."
            " Chips are this hand's money change from your decision on (the antes already"
            " paid are sunk); each range holds the true figure 19 times in 20."
        )
        return out

    def as_dict(self) -> dict[str, Any]:
        return {
            "house": self.house,
            "players": self.players,
            "place": self.place,
            "seat": self.seat,
            "pot": float(self.pot),
            "upcard": card_symbol(self.upcard),
            "hand": [card_symbol(c) for c in self.hand],
            "decided": ["play" if d else "pass" for d in self.decisions],
            "hands": self.hands,
            "seed": self.seed,
            "engine": self.engine,
            "opponents": self.opponents,
            "against": self.against,
            "forced": self.forced,
            "advice": "play" if self.best.play else "pass",
            "verdict": self.verdict,
            "edge": None
            if self.edge is None
            else {"mean": self.edge.mean, "low": self.edge.low, "high": self.edge.high},
            "best": self.best.as_dict(),
            "plays": [o.as_dict() for o in self.plays],
            "pass": self.passing.as_dict() if self.passing is not None else None,
        }


RUNNERS_UP = 3
OPPONENTS = {
    "heuristic": "against heuristic opponents",
    "equilibrium": "against players who all play the equilibrium chart",
}
"""Against whom advice is computed (``advise --opponents``), in words."""
"""How many other exchanges the words name."""

FORCED_WORDS = {
    "R-ACE-UP": "the ace of trumps is the upcard, so the dealer must play (R-ACE-UP)",
    "R-LAST-STANDS": "every seat before the dealer passed, so the dealer plays and takes"
    " the pot (R-LAST-STANDS)",
}
ENGINE_WORDS = {"python": "played by the Python rules", "kernel": "played by the kernel"}


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _exchange(o: Option) -> str:
    """``throw 2♠ 4♦ 7♣`` or ``stand pat``: what playing ``o`` does at the exchange."""
    return "stand pat" if not o.throw else "throw " + o.label.removeprefix("play, throwing ")


def _pct(x: float) -> str:
    return f"{100 * min(1.0, max(0.0, x)):.0f}%"


def _signed(x: float) -> str:
    if abs(x) < 0.05:
        return "0"
    return f"{x:+.1f}".replace("-", "−")


def _chips(x: Amount) -> str:
    return f"{x:g}" if isinstance(x, float) else str(x)


def _odds(o: Option) -> str:
    """``you take the pot about 41% of the time (38–44%), …`` for one option."""
    t, b, c = o.take, o.bourre, o.chips
    return (
        f"you take the pot about {_pct(t.mean)} of the time ({_pct(t.low)[:-1]}–{_pct(t.high)}),"
        f" you are bourré {_pct(b.mean)} ({_pct(b.low)[:-1]}–{_pct(b.high)}),"
        f" expected {_signed(c.mean)} chips (±{c.half_width:.1f})"
    )


def _cards(field: str, cards: Sequence[int | str]) -> list[int]:
    out = []
    for c in cards:
        if isinstance(c, int) and 0 <= c < 52:
            out.append(c)
            continue
        try:
            out.append(parse_card(str(c)))
        except CardError as e:
            raise AdviceError(field, str(e)) from None
    return out


def _weakness(card: int, trump: int) -> int:
    """The order in which cards are thrown: plain cards by rank, then off-suit kings
    and aces, then trumps by rank (the heuristic's keeping order)."""
    s, r = divmod(card, 13)
    if s == trump:
        return 100 + r
    if r == 12:
        return 60
    if r == 11:
        return 40
    return r


def candidates(hand: Sequence[int], trump: int, limit: int, every: bool) -> list[tuple[int, ...]]:
    """The exchanges tried: with ``every``, every subset of the hand of at most
    ``limit`` cards; else the pruned set, for each count k from 0 to ``limit`` the k
    weakest cards (plain cards lowest first, then off-suit kings and aces, trumps
    last: a weaker card is never kept while a stronger one goes)."""
    if every:
        return [c for k in range(limit + 1) for c in combinations(sorted(hand), k)]
    order = sorted(hand, key=lambda c: (_weakness(c, trump), c))
    return [tuple(sorted(order[:k])) for k in range(min(limit, len(order)) + 1)]


def _deck(
    hand: Sequence[int], upcard: int, seat: int, dealer: int, n: int, h: int, rng: random.Random
) -> Deck:
    """A deck (R-DEAL: card i to seat (dealer+1+i) mod n, the upcard last dealt) that
    gives ``seat`` its ``hand`` and the dealer the upcard; the rest at random."""
    known = set(hand) | {upcard}
    rest = [c for c in range(52) if c not in known]
    rng.shuffle(rest)
    cards: list[int | None] = [None] * 52
    mine = iter(sorted(c for c in hand if c != upcard))
    for i in range(h * n - 1):
        if (dealer + 1 + i) % n == seat:
            cards[i] = next(mine)
    cards[h * n - 1] = upcard
    others = iter(rest)
    return Deck(tuple(c if c is not None else next(others) for c in cards))


def advise(
    house: House | str,
    hand: Sequence[int | str],
    upcard: int | str,
    place: int,
    *,
    players: int | None = None,
    pot: Amount | float | None = None,
    decisions: Sequence[bool | str] = (),
    hands: int = HANDS,
    seed: int = 0,
    every: bool = False,
    engine: str | None = None,
    opponents: str = "heuristic",
    notice: Callable[[str], None] | None = None,
) -> Advice:
    """Advice for the seat ``place`` seats from the dealer (1 = the dealer's left …
    ``players`` = the dealer) holding ``hand`` (the upcard included when it deals)
    under ``upcard``, with ``pot`` in the middle (default: the first pot, ``players``
    × ante, R-FIRST-POT) and the earlier seats' announced ``decisions`` (``True`` or
    ``"play"``, ``False`` or ``"pass"``, in order from the dealer's left; none: they
    decide as the heuristic bot).  ``hands`` deals are simulated from ``seed``, the
    same for every option; ``every`` tries every exchange instead of the pruned set
    (:func:`candidates`).  ``engine``: ``"python"`` (or ``BOURRE_ENGINE=python``)
    plays every option out on the Python rules; by default the compiled kernel plays
    them when it can play the house (:func:`bourre.kernel.rollouts.heuristic_outcomes`),
    and ``Advice.engine`` says which did.  Raises :class:`AdviceError` on a question
    that breaks a rule.  ``opponents`` ``"equilibrium"``: the others decide by the
    house's equilibrium chart (:func:`bourre.advice.equilibrium.cached_equilibrium`,
    made once and kept on disk; ``notice`` is told how long when it is made), not as the
    heuristic bot (``"heuristic"``, the default)."""
    if opponents not in OPPONENTS:
        raise AdviceError("opponents", f"{opponents!r}: the others are heuristic or equilibrium")
    try:
        h0 = house if isinstance(house, House) else House.from_arg(house)
    except Exception as e:  # a house that does not load: its own message
        raise AdviceError("house", str(e)) from None
    if players is not None and players != h0.table.players:
        try:
            h0 = House.from_arg(_with_players(h0.spec, players))
        except Exception as e:
            raise AdviceError("players", str(e)) from None
    try:
        engine = choose(engine)
    except ValueError as e:
        raise AdviceError("engine", str(e)) from None
    game = Game(h0, engine="python")  # (one hand from a given pot: the Python state)
    n, h = game.players, game.hand_size
    if not isinstance(place, int) or not 1 <= place <= n:
        raise AdviceError(
            "place",
            f"{place} is not a place at a table of {n}: 1 (the dealer's left) … {n}"
            " (the dealer) (R-SEAT)",
        )
    if not isinstance(hands, int) or not 1 <= hands <= MAX_HANDS:
        raise AdviceError("hands", f"{hands} hands: from 1 to {MAX_HANDS:,}")
    up = _cards("upcard", [upcard])[0]
    mine = _cards("hand", hand)
    if len(set(mine)) != len(mine):
        raise AdviceError("hand", "a card appears twice in the hand (R-DECK)")
    if len(mine) != h:
        raise AdviceError("hand", f"{len(mine)} cards: a hand here is {h} cards (R-DEAL-SIZE)")
    dealer_here = place == n
    if dealer_here and up not in mine:
        raise AdviceError("hand", f"the dealer's hand holds the upcard {card_symbol(up)} (R-DEAL)")
    if not dealer_here and up in mine:
        raise AdviceError(
            "hand",
            f"the upcard {card_symbol(up)} is in the dealer's hand, not place {place}'s (R-DEAL)",
        )
    decided: list[bool] = []
    for d in decisions:
        if isinstance(d, bool):
            decided.append(d)
        elif str(d).strip().lower() in ("play", "pass"):
            decided.append(str(d).strip().lower() == "play")
        else:
            raise AdviceError("decided", f"{d!r} is not a decision: pass or play (R-DECIDE)")
    if decided and len(decided) != place - 1:
        raise AdviceError(
            "decided",
            f"{len(decided)} decisions given: the {place - 1} seat(s) before place {place}"
            " decide first, from the dealer's left (R-DECIDE)",
        )
    stake: Amount = n * h0.table.ante if pot is None else _amount(pot)

    dealer, seat = 0, place % n
    bot: Any = make_bot("heuristic", random.Random(seed), house=h0)
    strategy = None
    if opponents == "equilibrium":
        # lazy: the equilibrium's module imports this one
        from bourre.advice.equilibrium import ChartBot, cached_equilibrium

        try:
            strategy = cached_equilibrium(h0, notice).strategy
        except AdviceError:
            raise
        except ValueError as e:
            raise AdviceError("opponents", str(e)) from None
        bot = ChartBot(strategy, bot, random.Random(f"{seed}/chart"))
    rng = random.Random(seed)
    trump = up // 13
    rows: list[list[tuple[float, float, float]]] = []  # per hand: one per option
    opts: list[tuple[int, ...]] | None = None
    forced: str | None = None
    fast = engine != "python"
    ran = "python"
    while len(rows) < hands:
        state = seat_to_decide(game, stake, mine, up, seat, decided, bot, rng, dealer=dealer)
        if opts is None:
            why = state.observation(seat).forced
            # forced in every deal: the ace of trumps up (R-ACE-UP), or all the
            # earlier seats announced a pass (R-LAST-STANDS)
            if why is not None and (why != "R-LAST-STANDS" or decided):
                forced = why
            limit, legal = exchange_rule(state, seat, bot)
            opts = [
                c for c in candidates(mine, trump, limit, every) if not legal or discard(c) in legal
            ] or [()]
        table = (
            None
            if strategy is None
            else strategy.kernel_table(
                [state.cards_of(s) for s in range(n)], trump, dealer, bot.rng
            )
        )
        got = option_rows(state, seat, opts, forced, bot, rng, "kernel", table) if fast else None
        if got is None:
            fast = False  # the kernel cannot play it: the Python rules, for every deal
            if rows and ran == "kernel":
                rows.clear()  # (never mixed: the deals so far again, on the Python rules)
            ran = "python"
            got = option_rows(state, seat, opts, forced, bot, rng, "python")
            assert got is not None
        else:
            ran = "kernel"
        rows.append(got)
    assert opts is not None

    def option(i: int, play: bool, throw: tuple[int, ...]) -> Option:
        return Option(
            play=play,
            throw=throw,
            take=interval([r[i][0] for r in rows]),
            bourre=interval([r[i][1] for r in rows]),
            chips=interval([r[i][2] for r in rows]),
        )

    plays = sorted((option(i, True, c) for i, c in enumerate(opts)), key=lambda o: -o.chips.mean)
    passing = None if forced is not None else option(len(opts), False, ())
    top = opts.index(plays[0].throw)
    edge = None if passing is None else interval([r[top][2] - r[-1][2] for r in rows])
    return Advice(
        house=h0.spec,
        players=n,
        place=place,
        seat=seat,
        pot=stake,
        upcard=up,
        hand=tuple(mine),
        decisions=tuple(decided),
        hands=hands,
        seed=seed,
        engine=ran,
        plays=tuple(plays),
        passing=passing,
        forced=forced,
        edge=edge,
        opponents=opponents,
    )


def _amount(pot: object) -> Amount:
    """A pot as an exact amount (a whole number, or a fraction from a decimal)."""
    bad = AdviceError("pot", f"{pot!r}: a pot is a positive amount (R-ANTE)")
    if isinstance(pot, bool) or not isinstance(pot, int | float | Fraction):
        raise bad
    if isinstance(pot, float):
        if not math.isfinite(pot):
            raise bad
        pot = Fraction(str(pot))
        if pot.denominator == 1:
            pot = int(pot)
    if pot <= 0:
        raise bad
    if pot > MAX_POT:
        raise AdviceError(
            "pot",
            f"{chips(pot)} is more than advice is given for: a pot of at most {MAX_POT:,}"
            " chips (R-ANTE)",
        )
    return pot


def _with_players(spec: str, players: int) -> str:
    """A house string with its table's players set (``standard+table(players=4)``);
    a ``table(…)`` already in it is given the new count."""
    parts = [p for p in spec.split("+") if not p.startswith("table(players=")]
    return "+".join([*parts, f"table(players={players})"])


def seat_to_decide(
    game: Game,
    stake: Amount,
    mine: Sequence[int],
    up: int,
    seat: int,
    decided: Sequence[bool],
    bot: Any,
    rng: random.Random,
    *,
    dealer: int = 0,
) -> State:
    """One simulated deal up to ``seat``'s decision: a hand from the pot ``stake``, the
    deck of :func:`_deck` (``seat`` holds ``mine``, the dealer the upcard ``up``; the
    rest shuffled from ``rng``, R-DEAL), the earlier seats deciding as ``decided`` says
    (R-DECIDE), the rest of them as ``bot``."""
    n, h = game.players, game.hand_size
    state = game.new_hand(dealer=dealer, engine="python")  # (a pot in the middle: a table's)
    assert isinstance(state, State)
    set_hand(state, dealer=dealer, pot=stake)
    state.apply_chance(_deck(mine, up, seat, dealer, n, h, rng))
    if sorted(state.cards_of(seat)) != sorted(mine) or state.hand.upcard != up:
        raise AdviceError("house", f"house {game.house.spec!r} does not deal as R-DEAL says")
    k = 0
    while state.current_player() != seat:
        if k < len(decided) and state.phase_name == "decide":
            state.apply_action(PLAY if decided[k] else PASS)
            k += 1
        else:
            state.apply_action(ask(state, bot))
    return state


def exchange_rule(state: State, seat: int, bot: Any) -> tuple[int, set[Action]]:
    """How many cards ``seat`` may exchange if it plays in this deal (R-DRAW) and its
    legal exchanges (empty, and the hand size, when it wins alone without an
    exchange, R-SOLE), from a copy of ``state`` at its decision."""
    probe = state.clone()
    probe.apply_action(PLAY)
    while not probe.is_terminal() and not (
        probe.current_player() == seat and probe.phase_name == "exchange"
    ):  # the others who decide before the exchange (simultaneous-reveal)
        probe.apply_action(ask(probe, bot))
    if probe.phase_name != "exchange":
        return len(state.cards_of(seat)), set()
    return probe.exchange_limit(), set(probe.legal_actions())


def option_rows(
    state: State,
    seat: int,
    opts: list[tuple[int, ...]],
    forced: str | None,
    bot: Any,
    rng: random.Random,
    engine: str,
    chart: Sequence[Sequence[int]] | None = None,
) -> list[tuple[float, float, float]] | None:
    """One deal played out from ``seat``'s decision, once per exchange in ``opts`` and
    once passing (``(0, 0, 0)`` when ``forced``): (took the pot, bourré, chips) for each,
    the pass last.  ``engine`` ``"kernel"``: on the compiled kernel, ``None`` when it
    cannot play this deal; ``"python"``: on the Python rules, card by card.  ``chart``:
    the kernel's decision table for the seats still to decide (on the Python rules,
    ``bot`` decides for them)."""
    if engine == "kernel":
        return _kernel_row(state, seat, opts, forced, rng, chart)
    got = [_rollout(state, seat, bot, c) for c in opts]
    got.append(_rollout(state, seat, bot, None) if forced is None else (0.0, 0.0, 0.0))
    return got


def _kernel_row(
    state: State,
    seat: int,
    opts: list[tuple[int, ...]],
    forced: str | None,
    rng: random.Random,
    chart: Sequence[Sequence[int]] | None = None,
) -> list[tuple[float, float, float]] | None:
    """Every option of one deal played out on the kernel (``None`` when it cannot):
    (took the pot, bourré, chips from the decision on), the outcome as the kernel's
    payout decided it (R-WIN, R-SOLE, R-BOURRE), as :func:`_rollout` reads the Python
    rules' outcome."""
    before = state.returns()[seat]
    after = state.clone()
    after.apply_action(PLAY)
    if after.current_player() == seat and after.phase_name == "exchange":
        plays = heuristic_outcomes(after, [discard(c) for c in opts], seat, rng, chart)
    elif not after.is_terminal():
        return None  # others decide before the exchange (simultaneous-reveal): Python's
    else:  # no exchange (the hand was won alone, R-SOLE): every option is the same
        one = heuristic_outcomes(state, [PLAY], seat, rng, chart)
        plays = None if one is None else one * len(opts)
    if plays is None:
        return None
    if forced is None:  # a pass (or, forced in this deal, R-LAST-STANDS: a play)
        alone = heuristic_outcomes(
            state, [PASS if PASS in state.legal_actions() else PLAY], seat, rng, chart
        )
        if alone is None:
            return None
        plays = [*plays, alone[0]]
    out = [
        (
            1.0 if r.winner == seat else 0.0,
            1.0 if seat in r.bourre else 0.0,
            float(r.chips - before),
        )
        for r in plays
    ]
    if forced is not None:
        out.append((0.0, 0.0, 0.0))
    return out


def _rollout(
    state: State, seat: int, bot: Any, throw: tuple[int, ...] | None
) -> tuple[float, float, float]:
    """One option played out from a clone of ``state`` (the seat to decide):
    (took the pot, bourré, chips from the decision on)."""
    s = state.clone()
    before = s.returns()[seat]
    if throw is None and PASS not in s.legal_actions():
        throw = ()  # forced in this deal (R-LAST-STANDS): the heuristic's exchange
        first = False
    else:
        first = True
    s.apply_action(PASS if throw is None else PLAY)
    while not s.is_terminal():
        if (
            first
            and throw is not None
            and s.current_player() == seat
            and s.phase_name == "exchange"
        ):
            s.apply_action(discard(throw))
            first = False
            continue
        s.apply_action(ask(s, bot))
    out = s.results[-1].outcome
    return (
        1.0 if out.winner == seat else 0.0,
        1.0 if seat in out.bourre else 0.0,
        float(s.returns()[seat] - before),
    )
