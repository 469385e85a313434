"""Every hook of ``bourre``, in the order of a hand's lifecycle.

Plugins implement these with ``@bourre.hookimpl``.  There are two kinds:

*Registration hooks* are called once, when the plugins of the ``bourre`` entry-point
group are loaded (:mod:`bourre.plugins`); every implementation is called.

*Rule hooks* are called **once per house**, when the house is built
(:class:`bourre.house.House`), never during play.  Each returns a rule *component*
(a value, a function or a small object) that the engine then calls directly, so hook
dispatch stays out of the per-card loop.  Rule hooks are single-answer
(``firstresult``): the first non-``None`` answer wins.  Rule hooks are implemented as
methods of a :class:`bourre.variant.Variant`, whose settings are ``self.settings``.
Two variants of one house that both answer a rule hook are a configuration error
unless one of them builds on the other (``Variant.builds_on``); then the one that
builds on the other answers.  See ``docs/plugins.md`` for the composition rules.

Every rule hook receives ``table``, the house's :class:`bourre.settings.TableSettings`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import pluggy

if TYPE_CHECKING:
    import typer

    from bourre.rules import (
        AntePolicy,
        CinchPolicy,
        DealFn,
        DecisionProcedure,
        DrawRule,
        FollowRule,
        NextDealerFn,
        PayoutFn,
        PenaltyFn,
        SettleFn,
        TrickWinnerFn,
    )
    from bourre.settings import TableSettings
    from bourre.variant import Variant

hookspec = pluggy.HookspecMarker("bourre")

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
    returns a :class:`bourre.players.Player`.

    Called once when the plugins are loaded.  Every implementation is called.
    """


@hookspec
def bourre_register_commands(cli: typer.Typer) -> None:
    """Add commands to the ``bourre`` command line: ``cli.command("name")(function)``.

    Called once when the command line starts.  ``bourre compare`` and ``bourre
    simulate`` register themselves this way (simonw's ``llm`` pattern); a command
    should fail through :func:`bourre.cliutil.fail` (one message, exit status 2).
    """


# ---------------------------------------------------------------------------------
# Rule hooks: called once per house, in this order, when the house is built
# ---------------------------------------------------------------------------------


@hookspec(firstresult=True)
def bourre_hand_size(table: TableSettings) -> int | None:
    """The number of cards dealt to each player, and so of tricks (R-DEAL).

    The standard profile answers 5; ``four-card`` answers 4.  The house refuses a
    size the table cannot deal (``players × size > 52``).
    """


@hookspec(firstresult=True)
def bourre_ante(table: TableSettings) -> AntePolicy | None:
    """How the pot is fed before play (R-FIRST-POT, R-ANTE).

    Returns an :class:`~bourre.rules.AntePolicy`: the ordinary antes of each hand
    (given the previous hand's outcome and who deals, so "the dealer antes 2" is a
    plugin) and the extra ante a player adds on deciding to play (``double-ante``).
    """


@hookspec(firstresult=True)
def bourre_deal(table: TableSettings, hand_size: int) -> DealFn | None:
    """How a deck (top first, shuffle and cut applied) is dealt (R-DEAL).

    Returns a :data:`~bourre.rules.DealFn`: ``deal(deck, dealer, n)`` →
    ``(hands, upcard, stock)``.
    """


@hookspec(firstresult=True)
def bourre_decisions(table: TableSettings) -> DecisionProcedure | None:
    """Who decides to pass or play, in what order, and when each one exchanges
    (R-DECIDE, R-PASS, R-ACE-UP, R-LAST-STANDS; ``simultaneous-reveal``).

    Returns a :class:`~bourre.rules.DecisionProcedure`, stepped by the game: its
    ``turn(state)`` says who acts next (a decision or an exchange, and the rule that
    forbids passing), ``decide`` applies a decision (refusing a forbidden pass in its
    own words), ``exchanged`` follows each exchange; ``announcements`` says whether
    players announce in turn (R-PREMATURE).  It keeps its progress in the
    :class:`~bourre.state.HandState`, so clones and sampled worlds go on exactly.
    """


@hookspec(firstresult=True)
def bourre_draw(table: TableSettings, hand_size: int) -> DrawRule | None:
    """How a playing player exchanges cards with the stock (R-DRAW, R-RESHUFFLE).

    Returns a :class:`~bourre.rules.DrawRule`: ``limit(state, seat)`` (the most cards
    that may be exchanged, which bounds the legal discards), ``check`` (refusals) and
    ``draw(state, seat, discards)``.  A plain ``draw`` function is accepted too.
    """


@hookspec(firstresult=True)
def bourre_follow(table: TableSettings) -> FollowRule | None:
    """The ordinary obligations of a player (R-FOLLOW, R-TRUMP, R-DISCARD).

    Returns a :class:`~bourre.rules.FollowRule`: ``legal(hand, trick, trump)`` → the
    legal cards, never empty, always within ``hand`` (hand and answer are bit masks,
    :mod:`bourre.cards`; a list answer is accepted), and ``refuse(…, card)`` → the
    :class:`~bourre.rules.RuleViolation` (rule id and words) for a card it forbids.
    A plain ``follow(hand, trick, trump)`` function of lists is accepted too.  Called
    for every card played: keep it cheap (subclass
    :class:`~bourre.components.FollowComponent` to be called from compiled code).
    """


@hookspec(firstresult=True)
def bourre_cinch(table: TableSettings) -> CinchPolicy | None:
    """The cinch: when a player is sure of the pot, and what it obliges
    (R-SURE, R-EQUIV, R-CINCH-LEAD, R-CINCH-FOLLOW, R-CINCH-LAST).

    Returns a :class:`~bourre.rules.CinchPolicy` (card sets as bit masks); its
    ``narrow`` only ever narrows the ordinary legal set, and its ``min_won`` tells the engine from how many tricks
    won ``has_cinch`` can be true (0: ask at every card).  ``no-cinch`` answers a
    policy with ``enabled = False``.
    """


@hookspec(firstresult=True)
def bourre_trick_winner(table: TableSettings) -> TrickWinnerFn | None:
    """Who wins a complete trick (R-TRICK).

    Returns a :data:`~bourre.rules.TrickWinnerFn`: ``winner(trick, trump)`` → the
    index in ``trick`` of the winning card.
    """


@hookspec(firstresult=True)
def bourre_penalty(table: TableSettings) -> PenaltyFn | None:
    """What a zero-trick player or a renege pays into the next pot
    (R-BOURRE, R-RENEGE; ``pot-limit``).

    Returns a :data:`~bourre.rules.PenaltyFn`: ``penalty(pot_at_stake)`` → amount.
    """


@hookspec(firstresult=True)
def bourre_payout(table: TableSettings) -> PayoutFn | None:
    """Who takes the pot, who pays, what carries and who skips the next ante
    (R-WIN, R-SOLE, R-BOURRE, R-RENEGE, R-CORRECTED, R-ANTE).

    Returns a :data:`~bourre.rules.PayoutFn`: ``payout(play, penalty)`` →
    :class:`~bourre.rules.HandOutcome`.
    """


@hookspec(firstresult=True)
def bourre_next_dealer(table: TableSettings) -> NextDealerFn | None:
    """Who deals the next hand (R-DEALER, R-PREMATURE, R-CORRECTED).

    Returns a :data:`~bourre.rules.NextDealerFn`: ``next_dealer(dealer, marks)`` →
    seat; it consumes the lost-deal ``marks`` it skips.
    """


@hookspec(firstresult=True)
def bourre_settle(table: TableSettings) -> SettleFn | None:
    """How a session ends (R-SETTLE).

    Returns a :data:`~bourre.rules.SettleFn`: ``settle(balances, pot)`` →
    ``(final balances, ranks)``, exact fractions.
    """


RULE_HOOKS: tuple[str, ...] = (
    "bourre_hand_size",
    "bourre_ante",
    "bourre_deal",
    "bourre_decisions",
    "bourre_draw",
    "bourre_follow",
    "bourre_cinch",
    "bourre_trick_winner",
    "bourre_penalty",
    "bourre_payout",
    "bourre_next_dealer",
    "bourre_settle",
)
"""The rule hooks, in lifecycle order (the order a house resolves them)."""
