"""The rule components a house is made of, and :class:`Rules`, a house's resolved rules.

Each rule hook (:mod:`bourre.hookspec`) returns one of the components typed here.
The engine (:mod:`bourre.engine`) calls them directly; nothing here dispatches
through pluggy.  Components work on cards as ints and, in the play, on sets of cards
as bit masks (:mod:`bourre.cards`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, NamedTuple, Protocol, runtime_checkable

from bourre.money import Amount
from bourre.outcome import HandOutcome as HandOutcome
from bourre.outcome import PlayResult as PlayResult

if TYPE_CHECKING:
    from bourre.actions import Action
    from bourre.observation import Observation
    from bourre.state import HandState


class RuleViolation(Exception):
    """An answer the rules forbid (a pass that is not allowed, a card not held …).

    ``rule`` is the id of the rule (R-…) that forbids it; ``legal`` the allowed
    answers where that helps (e.g. the legal cards).
    """

    def __init__(self, rule: str, message: str, legal: Sequence[object] = ()) -> None:
        super().__init__(f"{message} ({rule})")
        self.rule = rule
        self.reason = message
        self.legal = tuple(legal)

    def __reduce__(self) -> tuple[object, ...]:
        """Picklable with its rule and words (it crosses to worker processes)."""
        return (type(self), (self.rule, self.reason, self.legal))


class Turn(NamedTuple):
    """Who acts next in the decisions and the exchange (:class:`DecisionProcedure`)."""

    seat: int
    kind: str
    """``"decide"`` (pass or play) or ``"exchange"`` (the discard, R-DRAW)."""
    forced: str | None = None
    """When deciding: the id of the rule that forbids passing (R-ACE-UP, R-LAST-STANDS)."""


DECIDE = "decide"
EXCHANGE = "exchange"


@runtime_checkable
class Player(Protocol):
    """A bot or a person at one seat, the old three-question form: it sees only its
    :class:`~bourre.observation.Observation`.  New bots implement :class:`Bot`
    (``act``) instead; :mod:`bourre.players` seats both."""

    def decide(self, view: Observation) -> bool:
        """``True`` to play, ``False`` to pass (``view.forced`` names the rule that
        forbids passing, if any)."""
        ...

    def discard(self, view: Observation) -> Sequence[int]:
        """The cards to exchange (0 … hand size)."""
        ...

    def play(self, view: Observation) -> int:
        """A card of ``view.legal``."""
        ...


@runtime_checkable
class Bot(Protocol):
    """A bot: answers one action of ``view.legal_actions`` for what its seat sees."""

    def act(self, view: Observation) -> Action: ...


class AntePolicy(Protocol):
    """Antes (R-FIRST-POT, R-ANTE): see :func:`bourre.hookspec.bourre_ante`."""

    def hand_antes(
        self, n: int, ante: Amount, previous: HandOutcome | None, dealer: int
    ) -> list[Amount]:
        """What each seat antes at the start of a hand dealt by ``dealer``;
        ``previous`` is ``None`` for the first hand of a session."""
        ...

    def play_ante(self, ante: Amount) -> Amount:
        """What a player adds to the pot on deciding to play (0 in the standard)."""
        ...


class CinchPolicy(Protocol):
    """The cinch (R-SURE …): see :func:`bourre.hookspec.bourre_cinch`.

    Hands and card sets are bit masks (bit ``1 << card``, :mod:`bourre.cards`; a
    third-party policy gets them as :class:`~bourre.cards.Cards`, which also reads
    as a sorted list, and may answer a list).  ``known`` is the mask of the cards the
    player knows are out of every opponent's hand: cards played this deal (current
    trick included) and the player's own discards not returned to a stock.
    """

    enabled: bool

    def min_won(self, hand: int, trump: int) -> int:
        """The fewest tricks won with which the player holding ``hand`` (after the
        draw) could have a cinch this deal.  Hands only shrink during play, so the
        engine asks :meth:`has_cinch` only once the player has won that many tricks;
        answer 0 to be asked at every card."""
        ...

    def has_cinch(self, hand: int, trump: int, known: int, won: int) -> bool:
        """Whether the player with ``hand`` who has won ``won`` tricks has a cinch."""
        ...

    def narrow(
        self,
        legal: int,
        hand: int,
        trick: list[int],
        trump: int,
        known: int,
        last: bool,
    ) -> int:
        """The cinch player's legal cards: a non-empty subset of ``legal``.
        ``last`` is true for the last player of the trick (R-CINCH-LAST)."""
        ...

    def refuse(self, card: int, allowed: int, trick: list[int], trump: int) -> RuleViolation:
        """Why ``card``, legal under the ordinary obligations, is not among the
        ``allowed`` cards of a player with a cinch: the rule id and the words."""
        ...


class FollowRule(Protocol):
    """The ordinary obligations (R-FOLLOW, R-TRUMP, R-DISCARD): see
    :func:`bourre.hookspec.bourre_follow`.  The hand and the answer are bit masks
    (:mod:`bourre.cards`); a third-party rule gets the hand as
    :class:`~bourre.cards.Cards` and may answer a list of cards.  A plain
    ``follow(hand, trick, trump)`` function of lists is accepted too (its refusals
    then cite the hook's first rule id)."""

    def legal(self, hand: int, trick: list[int], trump: int) -> int:
        """The legal cards: never empty, always within ``hand``."""
        ...

    def refuse(self, hand: int, trick: list[int], trump: int, card: int) -> RuleViolation:
        """Why ``card`` (held, not legal) may not be played: the rule id and the words."""
        ...


DealFn = Callable[[Sequence[int], int, int], tuple[list[list[int]], int, list[int]]]
"""``deal(deck, dealer, n)`` → ``(hands per seat, upcard, stock top first)``."""


class DecisionProcedure(Protocol):
    """Who decides to pass or play, in what order, and when each one exchanges
    (see :func:`bourre.hookspec.bourre_decisions`).  The game asks :meth:`turn`,
    then applies the answer through :meth:`decide` or, for an exchange, the house's
    draw followed by :meth:`exchanged`.  Everything the procedure keeps lives in the
    :class:`~bourre.state.HandState` (``step``, ``chosen``, ``exchanging``), so a
    cloned or resampled state goes on exactly where it was."""

    announcements: bool
    """Whether players announce in turn, so that an announcement out of turn can
    happen (R-PREMATURE); ``False`` when everyone decides at once."""

    def turn(self, state: HandState) -> Turn | None:
        """The next decision or exchange, or ``None`` once the decisions are over
        (``state.active`` is then final)."""
        ...

    def decide(self, state: HandState, seat: int, play: bool) -> None:
        """Apply ``seat``'s decision; refuse a pass that is not allowed by raising
        :class:`RuleViolation` with the rule and the words, changing nothing."""
        ...

    def exchanged(self, state: HandState, seat: int, discards: Sequence[int]) -> None:
        """``seat`` has exchanged ``discards`` (the draw is done)."""
        ...


class DrawRule(Protocol):
    """How a playing player exchanges cards with the stock (R-DRAW, R-RESHUFFLE):
    see :func:`bourre.hookspec.bourre_draw`.  A plain ``draw(state, seat, discards)``
    function is accepted too (it may then exchange up to the hand size)."""

    def limit(self, state: HandState, seat: int) -> int:
        """The most cards ``seat`` may exchange now."""
        ...

    def check(self, state: HandState, seat: int, discards: Sequence[int]) -> None:
        """Refuse discards that are not allowed (not held, repeated, too many) with
        :class:`RuleViolation`: the rule and the words; change nothing."""
        ...

    def __call__(self, state: HandState, seat: int, discards: Sequence[int]) -> None:
        """Exchange ``discards`` (within the limit, held) for stock cards."""
        ...


DrawFn = Callable[["HandState", int, Sequence[int]], None]
"""``draw(state, seat, discards)``: exchange ``discards`` for stock cards."""
FollowFn = Callable[[list[int], list[int], int], list[int]]
"""``follow(hand, trick, trump)`` → the ordinary legal cards (a plain follow rule)."""
TrickWinnerFn = Callable[[list[int], int], int]
"""``winner(trick, trump)`` → index of the winning card in ``trick``."""
PenaltyFn = Callable[[Amount], Amount]
"""``penalty(pot_at_stake)`` → what one zero-trick player or renege pays."""
PayoutFn = Callable[[PlayResult, PenaltyFn], HandOutcome]
"""``payout(result, penalty)`` → the hand's :class:`HandOutcome`."""
NextDealerFn = Callable[[int, list[bool]], int]
"""``next_dealer(dealer, marks)`` → next dealer; consumes the marks it skips."""
SettleFn = Callable[[list[Amount], Amount], tuple[list[Amount], list[int]]]
"""``settle(balances, pot)`` → ``(final balances, ranks)`` (R-SETTLE)."""


@dataclass(frozen=True, slots=True)
class Rules:
    """A house's rules, resolved once from the rule hooks (one field per hook)."""

    hand_size: int
    ante: AntePolicy
    deal: DealFn
    decisions: DecisionProcedure
    draw: DrawRule
    follow: FollowRule
    cinch: CinchPolicy
    trick_winner: TrickWinnerFn
    penalty: PenaltyFn
    payout: PayoutFn
    next_dealer: NextDealerFn
    settle: SettleFn


RULE_FIELDS: dict[str, str] = {
    "bourre_hand_size": "hand_size",
    "bourre_ante": "ante",
    "bourre_deal": "deal",
    "bourre_decisions": "decisions",
    "bourre_draw": "draw",
    "bourre_follow": "follow",
    "bourre_cinch": "cinch",
    "bourre_trick_winner": "trick_winner",
    "bourre_penalty": "penalty",
    "bourre_payout": "payout",
    "bourre_next_dealer": "next_dealer",
    "bourre_settle": "settle",
}
"""Which :class:`Rules` field each rule hook fills."""


def refuse_card(
    rules: Rules, hand: int, trick: list[int], trump: int, card: int, allowed: int
) -> RuleViolation:
    """Why ``card``, held but not among the ``allowed`` cards (masks, like ``hand``),
    may not be played: in the cinch's words when the ordinary obligations allow it
    (R-CINCH-LEAD, R-CINCH-FOLLOW), else in the follow rule's (R-FOLLOW, R-TRUMP …)."""
    if (rules.follow.legal(hand, trick, trump) >> card) & 1:
        return rules.cinch.refuse(card, allowed, trick, trump)
    return rules.follow.refuse(hand, trick, trump, card)


def narrowing(
    rules: Rules, hand: int, trick: list[int], trump: int, allowed: int
) -> tuple[list[tuple[int, RuleViolation]], list[str]]:
    """The refusal of every held card outside ``allowed`` (masks), and the ids of the
    rules that narrow the choice, in the order met (R-LEAD when leading is free,
    R-DISCARD when nothing narrows a follower)."""
    refused = [
        (c, refuse_card(rules, hand, trick, trump, c, allowed))
        for c in range(52)
        if (hand >> c) & 1 and not (allowed >> c) & 1
    ]
    ids: list[str] = []
    for _, e in refused:
        if e.rule not in ids:
            ids.append(e.rule)
    return refused, ids or (["R-LEAD"] if not trick else ["R-DISCARD"])
