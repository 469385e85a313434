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
import operator
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from bourre.advice.deals import (
    AdviceError,
    Estimate,
    _with_players,
    candidates,
    exchange_rule,
    first_pot,
    interval,
    option_rows,
    seat_to_decide,
)
from bourre.game import Game
from bourre.game.actions import discard
from bourre.game.botmaking import make_bot
from bourre.game.engines import choose
from bourre.houses.house import House
from bourre.kernel import can_play, python_hooks
from bourre.kernel.hooks import asked_words
from bourre.kernel.rollouts import ADVICE_HOOKS, decision_rows
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
    asked: tuple[str, ...] = ()
    """The plugin's rules the kernel asked through Python (``"split-pot (bourre_payout)"``:
    a house whose only plugin rules are a penalty, a payout, a lead, a follow rule, a
    cinch or a trick winner, issue 41)."""
    why_python: str | None = None
    """Why the Python rules played a house's options the kernel was asked to play (a
    plugin's rule it does not ask here, or an answer it cannot hold), in plain words."""

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
            f" choice, {self.engine_words()}): the others "
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

    def engine_words(self) -> str:
        """Who played the options out, in words (and the plugin's rules asked)."""
        words = ENGINE_WORDS.get(self.engine, self.engine)
        if self.engine == "kernel" and self.asked:
            words += f", asking {asked_words(self.asked)} through Python"
        elif self.engine == "python" and self.why_python:
            words += f": {self.why_python}"
        return words

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
            "asked_through_python": list(self.asked),
            "why_python": self.why_python,
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
    stake: Amount = first_pot(h0) if pot is None else _amount(pot)

    dealer, seat = 0, place % n
    strategy = None
    if opponents == "equilibrium":
        # lazy: the equilibrium's machinery is not loaded by the default question
        from bourre.advice.equilibrium import cached_equilibrium

        try:
            strategy = cached_equilibrium(h0, notice).strategy
        except AdviceError as e:  # (the chart's "--equilibrium" is advise's --opponents)
            if e.field == "equilibrium":
                raise AdviceError("opponents", str(e)) from None
            raise
        except ValueError as e:
            raise AdviceError("opponents", str(e)) from None

    def others() -> Any:
        """The others' bot, fresh from the seed (the probe's draws leave no trace)."""
        bot: Any = make_bot("heuristic", random.Random(seed), house=h0)
        if strategy is None:
            return bot
        # lazy: the equilibrium's machinery is not loaded by the default question
        from bourre.advice.equilibrium import ChartBot

        return ChartBot(strategy, bot, random.Random(f"{seed}/chart"))

    bot = others()
    trump = up // 13
    # the exchanges tried and whether the seat may pass, from the first deal (the same
    # in every deal: the hand, the upcard and the decisions announced are fixed)
    probe = seat_to_decide(game, stake, mine, up, seat, decided, bot, random.Random(seed))
    why = probe.observation(seat).forced
    # forced in every deal: the ace of trumps up (R-ACE-UP), or all the earlier seats
    # announced a pass (R-LAST-STANDS)
    forced = why if why is not None and (why != "R-LAST-STANDS" or decided) else None
    limit, legal = exchange_rule(probe, seat, bot)
    opts = [
        c for c in candidates(mine, trump, limit, every) if not legal or discard(c) in legal
    ] or [()]
    # column(i, what): option i's (the pass: len(opts)) took the pot (0), bourré (1) or
    # chips (2), deal by deal
    column: Callable[[int, int], list[float]] | None = None
    ran = "python"
    if engine != "python" and strategy is None:  # every deal in one call to the kernel
        words = random.Random(seed)
        got = decision_rows(
            h0,
            seat,
            dealer,
            stake,
            decided,
            [mine] * hands,
            [up] * hands,
            [words.getrandbits(32) for _ in range(4 * hands)],
            [opts] * hands,
            forced is None,
        )
        if got is not None and 3 not in got.status:
            flat, stride = got.flat, 3 * (len(opts) + 1)  # (every deal: the same options)

            def column(i: int, what: int) -> list[float]:
                return flat[3 * i + what :: stride]

            ran = "kernel"
    if column is None:
        rows, ran = _deal_by_deal(
            game,
            stake,
            mine,
            up,
            seat,
            decided,
            others(),
            seed,
            hands,
            opts,
            forced,
            engine != "python",
            strategy,
            dealer,
        )

        def column(i: int, what: int) -> list[float]:
            return [r[i][what] for r in rows]

    def option(i: int, play: bool, throw: tuple[int, ...]) -> Option:
        return Option(
            play=play,
            throw=throw,
            take=interval(column(i, 0)),
            bourre=interval(column(i, 1)),
            chips=interval(column(i, 2)),
        )

    plays = sorted((option(i, True, c) for i, c in enumerate(opts)), key=lambda o: -o.chips.mean)
    passing = None if forced is not None else option(len(opts), False, ())
    top = opts.index(plays[0].throw)
    edge = (
        None
        if passing is None
        else interval(list(map(operator.sub, column(top, 2), column(len(opts), 2))))
    )
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
        asked=python_hooks(h0) if ran == "kernel" else (),
        why_python=_why_python(h0) if ran == "python" and engine != "python" else None,
        plays=tuple(plays),
        passing=passing,
        forced=forced,
        edge=edge,
        opponents=opponents,
    )


def _why_python(house: House) -> str | None:
    """Why the Python rules, not the kernel, played the options of a house with a
    plugin's rule (``None``: a built-in house, whose reasons are no plugin's)."""
    if not python_hooks(house):
        return None
    why = can_play(house, "heuristic", hooks=ADVICE_HOOKS)
    if why is not None:
        return why
    return (
        "a plugin's answer the kernel does not hold (an amount not a whole number of its"
        " chips, or legal cards out of the hand's order), so the Python rules play it"
    )


def _deal_by_deal(
    game: Game,
    stake: Amount,
    mine: list[int],
    up: int,
    seat: int,
    decided: list[bool],
    bot: Any,
    seed: int,
    hands: int,
    opts: list[tuple[int, ...]],
    forced: str | None,
    fast: bool,
    strategy: Any,
    dealer: int,
) -> tuple[list[list[tuple[float, float, float]]], str]:
    """The deals one at a time (the equilibrium chart deciding for the others, a house
    or a deal the kernel's batch cannot play): each dealt on the Python rules and played
    out on the kernel when it can, else on the Python rules; the rows and who played."""
    n = game.players
    rng = random.Random(seed)
    trump = up // 13
    rows: list[list[tuple[float, float, float]]] = []
    ran = "python"
    while len(rows) < hands:
        state = seat_to_decide(game, stake, mine, up, seat, decided, bot, rng, dealer=dealer)
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
    return rows, ran


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
