"""Every hook of ``bourre``, in the order of a hand's lifecycle, each declared once.

Plugins implement these with ``@bourre.hookimpl``.  There are two kinds, with one
mechanism each:

*Registration hooks* (``bourre_register_variants``, ``bourre_register_bots``,
``bourre_register_commands``) are pluggy hooks: declared here with ``@hookspec``,
implemented by functions of a plugin module, called through the plugin manager when
the plugins of the ``bourre`` entry-point group are loaded
(:mod:`bourre.rules.plugins`); every implementation is called.

*Rule hooks* are not pluggy hooks.  They are methods of a
:class:`bourre.rules.variant.Variant` marked ``@hookimpl`` (its settings are
``self.settings``), and the house calls them itself, **once per house**, when it is
built (:class:`bourre.houses.house.House`, a plain loop), never during play: the
variant that builds on the others answers first, ``None`` passes the question on
(see ``docs/plugins.md``).  Each returns a rule *component* that the game then calls
directly.  Every one receives ``table``, the house's
:class:`bourre.rules.settings.TableSettings`; a method may take a subset of its
hook's arguments.  Pluggy never sees them: the registry checks a variant's marked
methods against :data:`RULE_HOOKS` when its plugin loads.

A rule hook's declaration below is its whole specification: the protocol its
component follows, the hook function (its arguments and documentation) and a
:class:`RuleHook` line naming what its answer must satisfy, its *guard*.  Everything
else is derived from it: the house's :class:`~bourre.houses.house.Rules`, the checks that
name a misbehaving plugin, the sections of ``bourre rules``, the hook reference.
Adding a rule hook is: its declaration here, its call site in the game
(:mod:`bourre.game.state`), the standard implementation, tests.

Cards are ints (:mod:`bourre.rules.cards`); a hand, a trick and any set of cards are
tuples of them (a hand sorted), and ``known`` is a frozenset.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Generic, NoReturn, Protocol, TypeVar

import pluggy

from bourre.rules import (
    DECIDE,
    EXCHANGE,
    HandOutcome,
    PlayResult,
    Reason,
    RuleViolation,
    Ruling,
    Turn,
)
from bourre.rules.cards import card_str
from bourre.rules.money import Amount

if TYPE_CHECKING:
    import typer

    from bourre.rules.hand import HandState
    from bourre.rules.settings import TableSettings
    from bourre.rules.variant import Variant

hookspec = pluggy.HookspecMarker("bourre")

C = TypeVar("C")


class PluginError(RuntimeError):
    """A plugin that raised, answered the wrong thing or broke an invariant: names
    the plugin and the hook (or the hand) where it happened."""

    def __init__(self, plugin: str, hook: str, message: str) -> None:
        super().__init__(f"plugin {plugin!r}, hook {hook}: {message}")
        self.plugin = plugin
        self.hook = hook
        self.message = message

    def __reduce__(self) -> tuple[object, ...]:
        """Picklable (it crosses to worker processes)."""
        return (type(self), (self.plugin, self.hook, self.message))


class Checker:
    """What a guard is given: calls into the component, turning anything it raises
    (but a :class:`~bourre.rules.RuleViolation`, a refusal in the rules' words) into a
    :class:`PluginError` naming the plugin and the hook; and :meth:`fail`."""

    def __init__(self, plugin: str, hook: str) -> None:
        self.plugin, self.hook = plugin, hook

    def fail(self, problem: str) -> NoReturn:
        raise PluginError(self.plugin, self.hook, problem)

    def call(self, fn: Callable[..., Any], *args: Any) -> Any:
        try:
            return fn(*args)
        except (PluginError, RuleViolation):
            raise
        except Exception as e:
            raise PluginError(self.plugin, self.hook, f"raised {e!r}") from e


def _whole(x: object) -> bool:
    """An int that is not a bool."""
    return isinstance(x, int) and not isinstance(x, bool)


def _amount(x: object) -> bool:
    """A whole or exact fractional amount (never a float or a bool)."""
    return _whole(x) or isinstance(x, Fraction)


def _amounts(xs: Sequence[object]) -> bool:
    """Every one of ``xs`` an amount (:func:`_amount`, the two common types first: the
    guard of a payout runs once a hand)."""
    for x in xs:
        t = type(x)
        if t is not int and t is not Fraction and not _amount(x):
            return False
    return True


def _has(value: object, *methods: str) -> str | None:
    """The first of ``methods`` that ``value`` lacks, or ``None``."""
    return next((m for m in methods if not callable(getattr(value, m, None))), None)


@dataclass(frozen=True)
class RuleHook(Generic[C]):
    """A rule hook's specification: its hook function (name, arguments, documentation),
    the section of the printed rules it fills, and its guard, which checks the answer
    once and gives the component the game calls, checking each of its answers."""

    spec: Callable[..., object]
    section: str
    guard: Callable[[Any, Checker], C]
    methods: tuple[str, ...] = ()
    """The methods the component must have (none: it is a function or a value)."""
    value: bool = False
    """The answer is a plain value (the hand size), always checked, never called."""

    @property
    def name(self) -> str:
        return self.spec.__name__

    @property
    def field(self) -> str:
        """The name without ``bourre_`` (``follow``)."""
        return self.name.removeprefix("bourre_")

    @property
    def args(self) -> tuple[str, ...]:
        """The hook's arguments, which an implementation may take a subset of."""
        code = self.spec.__code__
        return tuple(code.co_varnames[: code.co_argcount])

    @property
    def doc(self) -> str:
        return self.spec.__doc__ or ""

    def check(self, value: object, plugin: str, checked: bool) -> C:
        """``value``, a plugin's answer, as the component the game calls: its shape
        checked here, and with ``checked`` each answer it gives too."""
        c = Checker(plugin, self.name)
        if value is None:
            c.fail("answered nothing")
        if self.methods:
            missing = _has(value, *self.methods)
            if missing:
                c.fail(
                    f"must answer an object with {', '.join(self.methods)}: {value!r} lacks {missing}"
                )
        elif not self.value and not callable(value):
            c.fail(f"must answer a function, got {value!r}")
        return self.guard(value, c) if checked or self.value else value  # type: ignore[return-value]


# ---------------------------------------------------------------------------------
# Registration (once per process, when the entry-point plugins are loaded)
# ---------------------------------------------------------------------------------


@hookspec
def bourre_register_variants(register: Callable[[type[Variant]], None]) -> None:
    """Register variant classes: call ``register(MyVariant)`` for each.

    Called once when the plugins are loaded.  Every implementation is called.  The
    variant's ``name`` is the name used in house files, house strings and
    ``variants.use``; two variants with one name are a load error naming both.
    """


@hookspec
def bourre_register_bots(register: Callable[[str, Callable[..., object]], None]) -> None:
    """Register bots: call ``register(name, factory)``; ``factory(rng, **options)``
    returns a bot (:class:`bourre.game.players.Bot`).

    Called once when the plugins are loaded.  Every implementation is called.
    """


@hookspec
def bourre_register_commands(cli: typer.Typer) -> None:
    """Add commands to the ``bourre`` command line: ``cli.command("name")(function)``.

    Called once when the command line starts.  ``bourre compare`` and ``bourre
    simulate`` register themselves this way (simonw's ``llm`` pattern); a command
    should fail through :func:`bourre.cli.util.fail` (one message, exit status 2).
    Its docstring is its help: the first paragraph is its line in ``bourre --help``.
    """


# ---------------------------------------------------------------------------------
# Rule hooks: plain declarations (no pluggy hookspec), asked by the house's loop once
# per house, in this order, when the house is built
# ---------------------------------------------------------------------------------


def bourre_hand_size(table: TableSettings) -> int | None:
    """The number of cards dealt to each player, and so of tricks (R-DEAL).

    The standard profile answers 5; ``four-card`` answers 4.  The house refuses a
    size the table cannot deal (``players × size > 52``).
    """


def _hand_size(value: Any, c: Checker) -> int:
    if not _whole(value) or not 1 <= value <= 13:
        c.fail(f"must answer a number of cards from 1 to 13, got {value!r}")
    return int(value)


HAND_SIZE: RuleHook[int] = RuleHook(bourre_hand_size, "Hand size", _hand_size, value=True)


class AnteRule(Protocol):
    """Antes (R-FIRST-POT, R-ANTE)."""

    def hand_antes(
        self, n: int, ante: Amount, previous: HandOutcome | None, dealer: int
    ) -> list[Amount]:
        """What each seat antes at the start of a hand dealt by ``dealer``;
        ``previous`` is ``None`` for the first hand of a session."""
        ...

    def play_ante(self, ante: Amount) -> Amount:
        """What a player adds to the pot on deciding to play (0 in the standard)."""
        ...

    def reasons(
        self, n: int, ante: Amount, previous: HandOutcome | None, dealer: int
    ) -> tuple[Reason, ...]:
        """Why the seats ante what :meth:`hand_antes` says, in the rule's words (who
        is spared, who antes more)."""
        ...


def bourre_ante(table: TableSettings) -> AnteRule | None:
    """How the pot is fed before play (R-FIRST-POT, R-ANTE).

    Returns an :class:`AnteRule`: the ordinary antes of each hand (given the previous
    hand's outcome and who deals, so "the dealer antes 2" is a plugin) and the extra
    ante a player adds on deciding to play (``double-ante``).  Antes are whole or
    exact fractional amounts ≥ 0, one per seat.
    """


class _CheckedAnte:
    def __init__(self, inner: AnteRule, c: Checker) -> None:
        self.inner, self.c = inner, c

    def hand_antes(
        self, n: int, ante: Amount, previous: HandOutcome | None, dealer: int
    ) -> list[Amount]:
        out = self.c.call(self.inner.hand_antes, n, ante, previous, dealer)
        if (
            not isinstance(out, list)
            or len(out) != n
            or not all(_amount(x) and x >= 0 for x in out)
        ):
            self.c.fail(f"antes must be {n} amounts ≥ 0, got {out!r}")
        return out

    def play_ante(self, ante: Amount) -> Amount:
        x = self.c.call(self.inner.play_ante, ante)
        if not _amount(x) or x < 0:
            self.c.fail(f"play_ante must be an amount ≥ 0, got {x!r}")
        return x  # type: ignore[no-any-return]

    def reasons(
        self, n: int, ante: Amount, previous: HandOutcome | None, dealer: int
    ) -> tuple[Reason, ...]:
        out = self.c.call(self.inner.reasons, n, ante, previous, dealer)
        if not isinstance(out, tuple) or not all(isinstance(r, Reason) for r in out):
            self.c.fail(f"reasons must answer a tuple of Reason, got {out!r}")
        return out


ANTE: RuleHook[AnteRule] = RuleHook(
    bourre_ante, "Antes", _CheckedAnte, ("hand_antes", "play_ante", "reasons")
)


class DealRule(Protocol):
    """The deal (R-DEAL) and what a hand a table tells must satisfy."""

    def deal(
        self, deck: Sequence[int], dealer: int, n: int
    ) -> tuple[list[list[int]], int, list[int]]:
        """Deal ``deck`` (top first, shuffle and cut applied): ``(hands per seat,
        each sorted; the upcard; the stock, top first)``."""
        ...

    def check_hand(self, seat: int, cards: Sequence[int], dealer: int, upcard: int) -> None:
        """Refuse (:class:`~bourre.rules.RuleViolation`) a hand a table says ``seat``
        was dealt that this deal cannot give (its size, the upcard's place)."""
        ...


def bourre_deal(table: TableSettings, hand_size: int) -> DealRule | None:
    """How a deck (top first, shuffle and cut applied) is dealt (R-DEAL), and what a
    hand given by what a table knows must satisfy (the dealer holds the upcard).

    Returns a :class:`DealRule`.  Its deal gives every seat ``hand_size`` cards,
    every card of the deck once (hands and stock), the upcard in the dealer's hand.
    """


class _CheckedDeal:
    def __init__(self, inner: DealRule, c: Checker) -> None:
        self.inner, self.c = inner, c

    def deal(
        self, deck: Sequence[int], dealer: int, n: int
    ) -> tuple[list[list[int]], int, list[int]]:
        out = self.c.call(self.inner.deal, deck, dealer, n)
        try:
            hands, upcard, stock = out
            cards = [x for h in hands for x in h] + list(stock)
            ok = (
                len(hands) == n
                and len({len(h) for h in hands}) == 1
                and all(_whole(x) for x in cards)
                and sorted(cards) == sorted(deck)
                and upcard in hands[dealer]
            )
        except (TypeError, ValueError, IndexError):
            ok = False
        if not ok:
            self.c.fail(
                "the deal must give each of the n seats as many cards, every card of the deck"
                " once (hands and stock), and the upcard in the dealer's hand (R-DEAL)"
            )
        return [sorted(h) for h in hands], upcard, list(stock)

    def check_hand(self, seat: int, cards: Sequence[int], dealer: int, upcard: int) -> None:
        self.c.call(self.inner.check_hand, seat, cards, dealer, upcard)


DEAL: RuleHook[DealRule] = RuleHook(bourre_deal, "Deal", _CheckedDeal, ("deal", "check_hand"))


class DecisionRule(Protocol):
    """Who decides to pass or play, in what order, and when each one exchanges."""

    announcements: bool
    """Whether players announce in turn, so that an announcement out of turn can
    happen (R-PREMATURE); ``False`` when everyone decides at once."""

    def turn(self, hand: HandState) -> Turn | None:
        """The next decision or exchange, or ``None`` once the decisions are over
        (``hand.active`` is then final)."""
        ...

    def decide(self, hand: HandState, seat: int, play: bool) -> None:
        """Apply ``seat``'s decision; refuse a pass that is not allowed by raising
        :class:`~bourre.rules.RuleViolation`, changing nothing."""
        ...

    def exchanged(self, hand: HandState, seat: int, discards: Sequence[int]) -> None:
        """``seat`` has exchanged ``discards`` (the draw is done)."""
        ...


def bourre_decisions(table: TableSettings) -> DecisionRule | None:
    """Who decides to pass or play, in what order, and when each one exchanges
    (R-DECIDE, R-PASS, R-ACE-UP, R-LAST-STANDS; ``simultaneous-reveal``).

    Returns a :class:`DecisionRule`, stepped by the game: ``turn`` says who acts next,
    ``decide`` applies a decision, ``exchanged`` follows each exchange.  It keeps its
    progress in the :class:`~bourre.game.state.HandState` (``step``, ``chosen``,
    ``exchanging``), so clones and sampled worlds go on exactly.  The compiled kernel
    asks a plugin's component the same way, on a hand state it makes at each deal and
    reads back when the decisions are over (:mod:`bourre.kernel.decisions`).
    """


class _CheckedDecisions:
    def __init__(self, inner: DecisionRule, c: Checker) -> None:
        self.inner, self.c = inner, c
        self.announcements = bool(getattr(inner, "announcements", True))

    def turn(self, hand: HandState) -> Turn | None:
        t = self.c.call(self.inner.turn, hand)
        if t is not None and not (
            isinstance(t, Turn) and _whole(t.seat) and 0 <= t.seat < hand.n
            and t.kind in (DECIDE, EXCHANGE)
        ):  # fmt: skip
            self.c.fail(f"turn must answer None or a Turn of a seat at the table, got {t!r}")
        return t

    def decide(self, hand: HandState, seat: int, play: bool) -> None:
        self.c.call(self.inner.decide, hand, seat, play)

    def exchanged(self, hand: HandState, seat: int, discards: Sequence[int]) -> None:
        self.c.call(self.inner.exchanged, hand, seat, discards)


DECISIONS: RuleHook[DecisionRule] = RuleHook(
    bourre_decisions, "Decisions", _CheckedDecisions, ("turn", "decide", "exchanged")
)


class DrawRule(Protocol):
    """How a playing player exchanges cards with the stock (R-DRAW, R-RESHUFFLE)."""

    def limit(self, hand: HandState, seat: int) -> int:
        """The most cards ``seat`` may exchange now."""
        ...

    def check(self, hand: HandState, seat: int, discards: Sequence[int]) -> None:
        """Refuse discards that are not allowed (not held, repeated, too many) with
        :class:`~bourre.rules.RuleViolation`; change nothing."""
        ...

    def draw(self, hand: HandState, seat: int, discards: Sequence[int]) -> None:
        """Exchange ``discards`` for the top of the stock."""
        ...

    def drawn(
        self, hand: HandState, seat: int, discards: Sequence[int], drew: Sequence[int]
    ) -> None:
        """Exchange ``discards`` for ``drew``, the replacements a table tells (the
        stock's order unknown): refuse replacements that could not have come."""
        ...


def bourre_draw(table: TableSettings, hand_size: int) -> DrawRule | None:
    """How a playing player exchanges cards with the stock (R-DRAW, R-RESHUFFLE), and
    which replacements a table may tell.

    Returns a :class:`DrawRule`: ``limit`` (the most cards that may be exchanged,
    which bounds the legal discards), ``check`` (refusals), ``draw`` and ``drawn``.
    An exchange read from the tricks (the dealt cards unknown) is the table's
    inference (:mod:`bourre.game.unseen`), which ``drawn`` then judges.  An exchange
    keeps the hand's size and every card in one place.  The compiled kernel asks a
    plugin's component on the hand state of :mod:`bourre.kernel.decisions`, and its bots
    keep within ``limit``.
    """


class _CheckedDraw:
    def __init__(self, inner: DrawRule, c: Checker) -> None:
        self.inner, self.c = inner, c

    def limit(self, hand: HandState, seat: int) -> int:
        k = self.c.call(self.inner.limit, hand, seat)
        if not _whole(k) or k < 0:
            self.c.fail(f"limit must be a whole number ≥ 0, got {k!r}")
        return k  # type: ignore[no-any-return]

    def check(self, hand: HandState, seat: int, discards: Sequence[int]) -> None:
        self.c.call(self.inner.check, hand, seat, discards)

    def _kept_whole(self, hand: HandState, seat: int, exchange: Callable[[], None]) -> None:
        size, before = len(hand.hands[seat]), hand.located()
        exchange()
        cards = hand.hands[seat]
        if (
            len(cards) != size
            or not all(_whole(x) for x in cards)  # a card 5.0 hashes and compares as 5
            or len(set(cards)) != size
            or hand.located() != before
        ):
            self.c.fail(
                "the draw must give back as many cards as it took, each card in one place (R-DRAW)"
            )
        cards.sort()

    def draw(self, hand: HandState, seat: int, discards: Sequence[int]) -> None:
        self._kept_whole(hand, seat, lambda: self.c.call(self.inner.draw, hand, seat, discards))

    def drawn(
        self, hand: HandState, seat: int, discards: Sequence[int], drew: Sequence[int]
    ) -> None:
        size = len(hand.hands[seat])
        self.c.call(self.inner.drawn, hand, seat, discards, drew)
        if len(hand.hands[seat]) != size or not all(_whole(x) for x in hand.hands[seat]):
            self.c.fail(
                "the draw must give back as many cards as it took, cards as whole numbers (R-DRAW)"
            )
        hand.hands[seat].sort()


DRAW: RuleHook[DrawRule] = RuleHook(
    bourre_draw, "Draw", _CheckedDraw, ("limit", "check", "draw", "drawn")
)


LeadFn = Callable[[tuple[int, ...], int, int | None], tuple[int, ...]]
"""``lead(active, dealer, winner)`` → the seats of the next trick in the order they
play to it, its leader first."""


def bourre_lead(table: TableSettings) -> LeadFn | None:
    """Who leads each trick and in what order the others play to it (R-LEAD).

    Returns a function ``lead(active, dealer, winner)`` → the ``active`` seats (those
    that play, as the decisions left them) in the order they play to the next trick,
    the leader first; ``winner`` is the seat that took the last trick, ``None`` before
    the first.  The answer holds each active seat once.
    """


def _lead(value: LeadFn, c: Checker) -> LeadFn:
    def lead(active: tuple[int, ...], dealer: int, winner: int | None) -> tuple[int, ...]:
        order = c.call(value, active, dealer, winner)
        if (
            not isinstance(order, tuple)
            or not all(_whole(s) for s in order)
            or sorted(order) != sorted(active)
        ):
            c.fail(f"must answer the active seats {active} once each, in order; got {order!r}")
        return order

    return lead


LEAD: RuleHook[LeadFn] = RuleHook(bourre_lead, "The lead", _lead)


class FollowRule(Protocol):
    """The ordinary obligations of a player (R-LEAD, R-FOLLOW, R-TRUMP, R-DISCARD)."""

    def legal(self, hand: tuple[int, ...], trick: tuple[int, ...], trump: int) -> Ruling:
        """The cards of ``hand`` that may be played on ``trick`` (empty: a lead), never
        none, and the reason, in the rule's words."""
        ...


def bourre_follow(table: TableSettings) -> FollowRule | None:
    """The ordinary obligations of a player (R-LEAD, R-FOLLOW, R-TRUMP, R-DISCARD).

    Returns a :class:`FollowRule`: ``legal(hand, trick, trump)`` → a
    :class:`~bourre.rules.Ruling`: the legal cards (never empty, always within the
    hand) and the reason that decided them, which is also the refusal of any other
    card.  Called for every card played.
    """


def _within(cards: object, allowed: tuple[int, ...]) -> bool:
    """A non-empty tuple of cards (ints: ``5.0 in (5,)`` is true, and a float card
    fails later, far from the plugin) all in ``allowed``."""
    return (
        isinstance(cards, tuple) and bool(cards) and all(_whole(x) and x in allowed for x in cards)
    )


class _CheckedFollow:
    def __init__(self, inner: FollowRule, c: Checker) -> None:
        self.inner, self.c = inner, c

    def legal(self, hand: tuple[int, ...], trick: tuple[int, ...], trump: int) -> Ruling:
        r = self.c.call(self.inner.legal, hand, trick, trump)
        if not isinstance(r, Ruling) or not _within(r.cards, hand):
            shown = " ".join(card_str(x) for x in hand)
            self.c.fail(
                f"legal must answer a Ruling whose cards are a non-empty tuple within the"
                f" hand {shown}, got {r!r}"
            )
        return r


FOLLOW: RuleHook[FollowRule] = RuleHook(
    bourre_follow, "Play: obligations", _CheckedFollow, ("legal",)
)


class CinchRule(Protocol):
    """The cinch (R-SURE, R-EQUIV, R-CINCH-LEAD, R-CINCH-FOLLOW, R-CINCH-LAST)."""

    def has_cinch(self, hand: tuple[int, ...], trump: int, known: frozenset[int], won: int) -> bool:
        """Whether the player holding ``hand`` who has won ``won`` tricks is sure of
        the pot.  ``known``: the cards the player knows are out of every opponent's
        hand (played this deal, current trick included, and the player's own
        discards not returned to a stock)."""
        ...

    def narrow(
        self,
        ruling: Ruling,
        hand: tuple[int, ...],
        trick: tuple[int, ...],
        trump: int,
        known: frozenset[int],
        last: bool,
    ) -> Ruling:
        """The legal cards of a player with a cinch: within ``ruling.cards`` (the
        ordinary obligations' answer), with the cinch's reason, or ``ruling`` itself
        when the cinch adds nothing.  ``last``: the last player of the trick."""
        ...


def bourre_cinch(table: TableSettings) -> CinchRule | None:
    """The cinch: when a player is sure of the pot, and what it obliges (R-SURE,
    R-EQUIV, R-CINCH-LEAD, R-CINCH-FOLLOW, R-CINCH-LAST).

    Returns a :class:`CinchRule`; its ``narrow`` only ever narrows the ordinary legal
    set.  ``no-cinch`` answers one whose ``has_cinch`` is always false.
    """


class _CheckedCinch:
    def __init__(self, inner: CinchRule, c: Checker) -> None:
        self.inner, self.c = inner, c

    def has_cinch(self, hand: tuple[int, ...], trump: int, known: frozenset[int], won: int) -> bool:
        out = self.c.call(self.inner.has_cinch, hand, trump, known, won)
        if not isinstance(out, bool):
            self.c.fail(f"has_cinch must answer True or False, got {out!r}")
        return out

    def narrow(
        self,
        ruling: Ruling,
        hand: tuple[int, ...],
        trick: tuple[int, ...],
        trump: int,
        known: frozenset[int],
        last: bool,
    ) -> Ruling:
        r = self.c.call(self.inner.narrow, ruling, hand, trick, trump, known, last)
        if not isinstance(r, Ruling) or not _within(r.cards, ruling.cards):
            self.c.fail(
                f"narrow must answer a Ruling within the ordinary legal cards"
                f" {ruling.cards!r}, got {r!r}"
            )
        return r


CINCH: RuleHook[CinchRule] = RuleHook(bourre_cinch, "Cinch", _CheckedCinch, ("has_cinch", "narrow"))


TrickWinnerFn = Callable[[tuple[int, ...], int], int]
"""``winner(trick, trump)`` → the index in ``trick`` of the winning card."""


def bourre_trick_winner(table: TableSettings) -> TrickWinnerFn | None:
    """Who wins a complete trick (R-TRICK).

    Returns a function ``winner(trick, trump)`` → the index in ``trick`` of the
    winning card.
    """


def _trick_winner(value: TrickWinnerFn, c: Checker) -> TrickWinnerFn:
    def winner(trick: tuple[int, ...], trump: int) -> int:
        i = c.call(value, trick, trump)
        if not _whole(i) or not 0 <= i < len(trick):
            c.fail(f"the winner must be an index of the trick, got {i!r}")
        return i  # type: ignore[no-any-return]

    return winner


TRICK_WINNER: RuleHook[TrickWinnerFn] = RuleHook(bourre_trick_winner, "Tricks", _trick_winner)


PenaltyFn = Callable[[Amount], Amount]
"""``penalty(pot_at_stake)`` → what one zero-trick player or renege pays."""


def bourre_penalty(table: TableSettings) -> PenaltyFn | None:
    """What a zero-trick player or a renege pays into the next pot (R-BOURRE,
    R-RENEGE; ``pot-limit``).

    Returns a function ``penalty(pot_at_stake)`` → an amount ≥ 0.
    """


def _penalty(value: PenaltyFn, c: Checker) -> PenaltyFn:
    def penalty(pot_at_stake: Amount) -> Amount:
        x = c.call(value, pot_at_stake)
        if not _amount(x) or x < 0:
            c.fail(f"penalty must be an amount ≥ 0, got {x!r}")
        return x  # type: ignore[no-any-return]

    return penalty


PENALTY: RuleHook[PenaltyFn] = RuleHook(bourre_penalty, "Penalties", _penalty)


PayoutFn = Callable[[PlayResult, PenaltyFn], HandOutcome]
"""``payout(result, penalty)`` → the hand's :class:`~bourre.rules.HandOutcome`."""


def bourre_payout(table: TableSettings) -> PayoutFn | None:
    """Who takes the pot, who pays, what carries and who skips the next ante, and why
    (R-WIN, R-SOLE, R-BOURRE, R-RENEGE, R-CORRECTED; who skips the next ante, R-ANTE,
    is the ante's to say).

    Returns a function ``payout(result, penalty)`` → a
    :class:`~bourre.rules.HandOutcome` with its ``reasons``; what the pot and the
    payments hold is what is taken and carried.
    """


def _payout(value: PayoutFn, c: Checker) -> PayoutFn:
    def payout(result: PlayResult, penalty: PenaltyFn) -> HandOutcome:
        out = c.call(value, result, penalty)
        if not isinstance(out, HandOutcome):
            c.fail(f"must answer a HandOutcome, got {out!r}")
        n = result.n
        if len(out.paid) != n or len(out.takes) != n:
            c.fail("paid/takes must have one amount per seat")
        if not (_amounts(out.paid) and _amounts(out.takes) and _amount(out.pot_after)):
            c.fail("amounts must be whole or exact fractions")
        inflow = result.pot_at_stake + sum(out.paid)
        outflow = sum(out.takes) + out.pot_after
        if inflow != outflow:
            c.fail(
                f"money not conserved: pot {result.pot_at_stake} + payments {sum(out.paid)}"
                f" ≠ taken {sum(out.takes)} + carried {out.pot_after}"
            )
        return out

    return payout


PAYOUT: RuleHook[PayoutFn] = RuleHook(bourre_payout, "Payout", _payout)


NextDealerFn = Callable[[int, list[bool]], int]
"""``next_dealer(dealer, marks)`` → the next dealer; it clears the marks it skips."""


def bourre_next_dealer(table: TableSettings) -> NextDealerFn | None:
    """Who deals the next hand (R-DEALER, R-PREMATURE, R-CORRECTED).

    Returns a function ``next_dealer(dealer, marks)`` → a seat; it clears the
    lost-deal ``marks`` it skips.
    """


def _next_dealer(value: NextDealerFn, c: Checker) -> NextDealerFn:
    def next_dealer(dealer: int, marks: list[bool]) -> int:
        s = c.call(value, dealer, marks)
        if not _whole(s) or not 0 <= s < len(marks):
            c.fail(f"the next dealer must be a seat, got {s!r}")
        return s  # type: ignore[no-any-return]

    return next_dealer


NEXT_DEALER: RuleHook[NextDealerFn] = RuleHook(bourre_next_dealer, "Dealer rotation", _next_dealer)


SettleFn = Callable[[list[Amount], Amount], tuple[list[Amount], list[int]]]
"""``settle(balances, pot)`` → ``(final balances, ranks)`` (R-SETTLE)."""


def bourre_settle(table: TableSettings) -> SettleFn | None:
    """How a session ends (R-SETTLE).

    Returns a function ``settle(balances, pot)`` → ``(final balances, ranks)``, exact
    amounts that add up to the balances and the pot, and places 1 … n.
    """


def _settle(value: SettleFn, c: Checker) -> SettleFn:
    def settle(balances: list[Amount], pot: Amount) -> tuple[list[Amount], list[int]]:
        out = c.call(value, balances, pot)
        if not (isinstance(out, tuple) and len(out) == 2):
            c.fail(f"must answer (balances, ranks), got {out!r}")
        final, ranks = out
        n = len(balances)
        if len(final) != n or len(ranks) != n or not all(map(_amount, final)):
            c.fail("balances and ranks must have one entry per seat, amounts exact")
        if sum(final) != sum(balances) + pot:
            c.fail(f"money not conserved: balances {sum(balances)} + pot {pot} ≠ {sum(final)}")
        if not all(_whole(r) and 1 <= r <= n for r in ranks):
            c.fail(f"ranks must be places 1…{n}, got {ranks!r}")
        return list(final), list(ranks)

    return settle


SETTLE: RuleHook[SettleFn] = RuleHook(bourre_settle, "End of session", _settle)


RULE_HOOKS: tuple[RuleHook[Any], ...] = (
    HAND_SIZE, ANTE, DEAL, DECISIONS, DRAW, LEAD, FOLLOW, CINCH, TRICK_WINNER, PENALTY, PAYOUT,
    NEXT_DEALER, SETTLE,
)  # fmt: skip
"""The rule hooks, in lifecycle order (the order a house resolves them)."""
