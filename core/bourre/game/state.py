"""The game's state, stepped from outside, in the manner of OpenSpiel's
``kuhn_poker.py``: what changes in a session and its current hand (:class:`State`,
the hand itself a :class:`~bourre.rules.hand.HandState`), and what one seat may observe of
it (:func:`observe`).

The static facts are the house's (:class:`bourre.game.Game`, :class:`bourre.houses.house.House`).
A hand flows antes → deal (a chance node) → decisions and exchanges → tricks →
payout → next dealer; the session ends with the settlement (R-SESSION, R-SETTLE).
The state knows no rule itself: at each step it asks the house's rule component for
that step (:mod:`bourre.rules.hookspec`), and every refusal and every explanation is the
component's own.  Randomness enters only as chance outcomes (:mod:`bourre.game.actions`):
drawn from the seed, or given at each chance node (the whole deck, or what a table
saw), so any hand can be replayed or refereed from a real table.

Bots and people step it with :meth:`State.legal_actions` and :meth:`State.apply_action`;
a real table's referee adds :meth:`State.set_hand`, :meth:`State.mark_premature` and
:meth:`State.referee_play` (R-PREMATURE, R-RENEGE, R-CORRECTED).
"""

from __future__ import annotations

import copy
import enum
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING

from bourre.game.actions import (
    CARDS,
    PASS,
    PLAY,
    Action,
    AfterDraw,
    Dealt,
    Deck,
    Drew,
    TablePlay,
)
from bourre.game.chance import Chance
from bourre.game.observation import Discards, Observation
from bourre.rules import DECIDE, HandOutcome, PlayResult, Reason, RuleViolation, Turn
from bourre.rules.cards import card_symbol
from bourre.rules.hand import HandState, PublicDecision, Reshuffle, TrickLog, keep_order
from bourre.rules.hookspec import (
    ANTE,
    CINCH,
    DEAL,
    DECISIONS,
    DRAW,
    FOLLOW,
    HAND_SIZE,
    LEAD,
    NEXT_DEALER,
    PAYOUT,
    PENALTY,
    SETTLE,
    TRICK_WINNER,
    PluginError,
)
from bourre.rules.money import Amount

if TYPE_CHECKING:
    from bourre.houses.house import House
    from bourre.rules.hookspec import CinchRule, FollowRule

__all__ = [
    "CHANCE",
    "TERMINAL",
    "HandResult",
    "HandState",
    "Legal",
    "Phase",
    "PlayLog",
    "PublicDecision",
    "State",
    "TrickLog",
    "legal_play",
    "observe",
]

CHANCE = -1
"""``current_player()`` at a chance node (OpenSpiel's ``kChancePlayerId``)."""
TERMINAL = -4
"""``current_player()`` once the session is over (OpenSpiel's ``kTerminalPlayerId``)."""


class Phase(enum.Enum):
    """Where a session stands."""

    DEAL = "deal"
    """Chance deals the next hand (a :class:`~bourre.game.actions.Deck` or ``Dealt``)."""
    DECIDE = "decide"
    """A seat decides or exchanges (the decisions component says who)."""
    REVEAL = "reveal"
    """Chance shows the hand of a seat that plays, nobody having shown it (``Dealt``), or
    the hand it held after its exchange (``AfterDraw``: the cards it played)."""
    DRAW = "draw"
    """Chance tells a seat's replacements, the stock being unknown (``Drew``)."""
    PLAY = "play"
    """A seat plays a card to the trick."""
    OVER = "over"
    """The session is over."""


_CHANCE_PHASES = (Phase.DEAL, Phase.REVEAL, Phase.DRAW)


def _amount(x: object) -> bool:
    return (isinstance(x, int) and not isinstance(x, bool)) or isinstance(x, Fraction)


@dataclass(frozen=True)
class PlayLog:
    """One card played, as the hand record reports it."""

    seat: int
    card: int
    legal: tuple[int, ...]
    cinch: bool
    renege: bool
    corrected: bool
    played_first: int | None = None
    """The illegal card taken back, for a corrected play."""
    why: Reason | None = None
    """For a renege or a correction: why the illegal card was not allowed."""


@dataclass
class HandResult:
    """What a hand did (the hand record is made from it, :mod:`bourre.referee.records`)."""

    number: int
    dealer: int
    state: HandState
    outcome: HandOutcome
    balances: list[Amount]
    """Balances after the hand's payments, before the next antes."""
    antes: list[Amount]
    hands_after_draw: list[list[int]]
    plays: list[PlayLog]
    """Every card played, in order (kept when the state records)."""
    ante_reasons: tuple[Reason, ...] = ()
    """Why the seats anted what they did (kept when the state records)."""

    def __repr__(self) -> str:
        return f"HandResult(number={self.number}, dealer={self.dealer}, outcome={self.outcome!r})"

    @property
    def pot_at_stake(self) -> Amount:
        return self.state.pot_at_stake

    @property
    def tricks(self) -> list[TrickLog]:
        return self.state.tricks


@dataclass(frozen=True)
class Legal:
    """The cards the player to play may play and why (:meth:`State.legal_with_reasons`):
    the ordinary obligations' reason, then the cinch's when the player has one."""

    seat: int
    cards: tuple[int, ...]
    """The legal cards, in the hand's order; never none."""
    reasons: tuple[Reason, ...]
    cinch: bool
    """Whether the player has a cinch (R-SURE)."""
    ordinary: tuple[int, ...]
    """The cards the ordinary obligations allow (before the cinch)."""

    @property
    def rules(self) -> list[str]:
        """The ids of the rules that decided the legal set, in order."""
        return [r.rule for r in self.reasons]

    def reason_for(self, card: int) -> Reason:
        """Why ``card``, held and not legal, may not be played: the reason of the rule
        that left it out (the ordinary obligations', else the cinch's)."""
        return self.reasons[0] if card not in self.ordinary else self.reasons[-1]

    def refusal(self, card: int) -> RuleViolation:
        """The refusal of ``card``, held and not legal, in :meth:`reason_for`'s words."""
        reason = self.reason_for(card)
        return RuleViolation(
            reason.rule,
            f"seat {self.seat} may not play {card_symbol(card)}: {reason.words}",
            self.cards,
        )


def legal_play(
    follow: FollowRule,
    cinch: CinchRule,
    seat: int,
    hand: tuple[int, ...],
    trick: tuple[int, ...],
    trump: int,
    known: frozenset[int],
    won: int,
    last: bool,
) -> Legal:
    """The legal cards of ``seat`` holding ``hand`` on ``trick`` and why: the ordinary
    obligations' answer (R-FOLLOW …), narrowed by the cinch when the player has one
    (R-SURE … R-CINCH-LAST).  ``known``: the cards the player knows are out of every
    opponent's hand; ``won``: its tricks; ``last``: it plays last to the trick."""
    ordinary = follow.legal(hand, trick, trump)
    ruling, reasons = ordinary, [ordinary.reason]
    has = cinch.has_cinch(hand, trump, known, won)
    if has:
        ruling = cinch.narrow(ordinary, hand, trick, trump, known, last)
        if ruling is not ordinary:
            reasons.append(ruling.reason)
    return Legal(seat, ruling.cards, tuple(reasons), has, ordinary.cards)


class State:
    """A session at one house (or one hand of it), stepped from outside.

    Made by :meth:`bourre.game.Game.new_session` / :meth:`~bourre.game.Game.new_hand`.
    Ask :meth:`current_player` (a seat, :data:`CHANCE` or :data:`TERMINAL`), then
    :meth:`legal_actions` and :meth:`apply_action`, or at a chance node
    :meth:`apply_chance`.  A seeded state draws its own chance outcomes.
    """

    def __init__(
        self,
        house: House,
        *,
        seed: int | str | None = None,
        hands: int | None = None,
        balances: Sequence[Amount] | None = None,
        pot: Amount = 0,
        dealer: int | None = None,
        previous: HandOutcome | None = None,
        settle: bool = True,
        record: bool = False,
        keep_results: bool = True,
    ) -> None:
        # the static facts, read off the house once
        self.house = house
        self.rules = rules = house.rules
        self.table = table = house.table
        self.n = n = table.players
        self.h = rules[HAND_SIZE]
        self.ante, self.deal, self.decisions = rules[ANTE], rules[DEAL], rules[DECISIONS]
        self.draw, self.lead = rules[DRAW], rules[LEAD]
        self.follow, self.cinch = rules[FOLLOW], rules[CINCH]
        self.trick_winner, self.penalty = rules[TRICK_WINNER], rules[PENALTY]
        self.payout, self.next_dealer = rules[PAYOUT], rules[NEXT_DEALER]
        self.settle = rules[SETTLE]
        self.announce = bool(self.decisions.announcements)
        self.checked = bool(house.guarded)
        """Whether components not built in play: the cards are checked after each hand."""
        # the session
        self.balances: list[Amount] = _checked_balances(balances, table.balance, n)
        if not _amount(pot) or pot < 0:
            raise ValueError(f"pot: {pot!r} is not an amount ≥ 0 (R-ANTE)")
        if dealer is not None and (not isinstance(dealer, int) or not 0 <= dealer < n):
            raise ValueError(f"dealer: no seat {dealer!r} at a table of {n} (R-SEAT)")
        if hands is not None and (not isinstance(hands, int) or hands < 1):
            raise ValueError(f"hands: {hands!r} is not a number of hands ≥ 1 (R-SESSION)")
        self.start: list[Amount] = list(self.balances)
        self.pot: Amount = pot
        self.total: Amount = sum(self.balances) + pot
        """The money at the table: balances and the pot always add up to it."""
        self.previous = previous
        self.marks = [False] * n
        """Seats that lost their next turn to deal (R-PREMATURE, R-CORRECTED)."""
        self.chance: Chance | None = Chance(seed) if seed is not None else None
        first = table.first_dealer if dealer is None else dealer
        if not isinstance(first, int) and self.chance is not None:
            first = self.chance.seat(n)  # drawn before the first deck (the seed's order)
        self.first_dealer: int | None = first if isinstance(first, int) else None
        self.last_dealer: int | None = None
        self.hands_total: int = table.hands if hands is None else hands
        self.settles = settle
        self.record = record
        self.keep_results = keep_results or record
        self.number = 0
        self.results: list[HandResult] = []
        self.history_: list[object] = []
        self.final: tuple[list[Amount], list[int]] | None = None
        # the hand
        self.hs: HandState | None = None
        self.phase = Phase.DEAL
        self.turn: Turn | None = None
        self.steps = 0
        """Decisions and exchanges applied this hand (a procedure must end)."""
        self.pending: tuple[int, ...] = ()
        self.pending_seat = -1
        self.after_draw: tuple[int, ...] | None = None
        """The hand ``pending_seat`` held after its exchange, shown before the exchange
        (:class:`~bourre.game.actions.AfterDraw`): its discards then tell its deal."""
        self.given_dealer: int | None = None
        self.given_pot: Amount | None = None
        self.given_reshuffle: Reshuffle | None = None
        self.premature: list[int] = []
        self.antes: list[Amount] = []
        self.ante_reasons: tuple[Reason, ...] = ()
        """Why the seats anted what they did this hand (kept when the state records)."""
        self.hands_after: list[list[int]] = []
        self.plays: list[PlayLog] = []
        self.forfeits: set[int] = set()
        self.reneges: list[int] = []
        self._legal: Legal | None = None
        self._begin_hand()

    # -- who acts, and what they may do -----------------------------------------------

    def current_player(self) -> int:
        """The seat to act, :data:`CHANCE` at a chance node, :data:`TERMINAL` at the end."""
        if self.phase is Phase.PLAY:
            hs = self._hand()
            return hs.trick_seats[len(hs.trick)]
        if self.phase is Phase.DECIDE:
            assert self.turn is not None
            return self.turn.seat
        return TERMINAL if self.phase is Phase.OVER else CHANCE

    def is_terminal(self) -> bool:
        return self.phase is Phase.OVER

    def is_chance_node(self) -> bool:
        return self.phase in _CHANCE_PHASES

    @property
    def chance_wants(self) -> str:
        """At a chance node, the outcome it wants: ``"deal"`` (a Deck or Dealt), ``"hand"``
        (a Dealt naming ``pending_seat``'s hand, or an AfterDraw, the hand it held after
        its exchange) or ``"draw"`` (a Drew for its exchange); else ``""``."""
        return {Phase.DEAL: "deal", Phase.REVEAL: "hand", Phase.DRAW: "draw"}.get(self.phase, "")

    @property
    def phase_name(self) -> str:
        """``"decide"``, ``"exchange"``, ``"play"``, ``"chance"`` or ``"over"``."""
        if self.phase is Phase.DECIDE:
            assert self.turn is not None
            return "decide" if self.turn.kind == DECIDE else "exchange"
        return "chance" if self.phase in _CHANCE_PHASES else self.phase.value

    @property
    def hand(self) -> HandState:
        """The current (or last) hand's full state: the referee's and the tests' view,
        with every hidden card.  Bots get :meth:`observation` instead."""
        return self._hand()

    def _hand(self) -> HandState:
        if self.hs is None:
            raise RuleViolation("R-DEAL", "no hand has been dealt yet")
        return self.hs

    def cards_of(self, seat: int) -> tuple[int, ...]:
        """``seat``'s cards now, sorted (none before the deal)."""
        return self.hs.hand_of(seat) if self.hs is not None else ()

    def exchange_limit(self) -> int:
        """The most cards the seat to exchange may discard now (R-DRAW), else 0."""
        if self.phase_name != "exchange":
            return 0
        assert self.turn is not None
        return self.draw.limit(self._hand(), self.turn.seat)

    def legal_with_reasons(self) -> Legal:
        """The cards the player to play may play, and why: the ordinary obligations'
        reason (R-LEAD, R-FOLLOW, R-TRUMP, R-DISCARD …), then the cinch's when the
        player has one (R-CINCH-LEAD, R-CINCH-FOLLOW, R-CINCH-LAST).  Computed once
        per turn; the one answer ``check``, the referee, the web page and the record
        use."""
        if self.phase is not Phase.PLAY:
            raise RuleViolation("R-LEAD", "no card is to be played now")
        if self._legal is None:
            hs = self._hand()
            seat = hs.trick_seats[len(hs.trick)]
            last = len(hs.trick) == len(hs.trick_seats) - 1
            self._legal = legal_play(
                self.follow,
                self.cinch,
                seat,
                hs.hand_of(seat),
                tuple(hs.trick),
                hs.trump,
                hs.known_to(seat),
                hs.won[seat],
                last,
            )
        return self._legal

    def legal_cards(self) -> list[int]:
        """The cards the player to act may play (R-FOLLOW … R-CINCH-LAST): a new list."""
        return list(self.legal_with_reasons().cards)

    def legal_actions(self) -> Sequence[Action]:
        """What the player to act may do; empty at a chance node or the end.  An
        exchange's discards are every subset of the hand within the limit, smallest
        first: an immutable :class:`~bourre.game.observation.Discards` sequence (it equals
        the list of those actions)."""
        if self.phase is Phase.PLAY:
            return [CARDS[c] for c in self.legal_with_reasons().cards]
        if self.phase is not Phase.DECIDE:
            return []
        t = self.turn
        assert t is not None
        if t.kind == DECIDE:
            return [PLAY] if t.forced is not None else [PASS, PLAY]
        return Discards(self._hand().hand_of(t.seat), self.exchange_limit())

    def only_action(self) -> Action | None:
        """The player's only legal action when there is just one (a last card, a
        single card that follows, a play the rules force: R-ACE-UP, R-LAST-STANDS),
        else ``None``; nothing changes."""
        if self.phase is Phase.PLAY:
            cards = self.legal_with_reasons().cards
            return CARDS[cards[0]] if len(cards) == 1 else None
        t = self.turn
        if self.phase is Phase.DECIDE and t is not None and t.kind == DECIDE and t.forced:
            return PLAY
        return None

    def why_not(self, action: Action) -> RuleViolation | None:
        """``None`` if ``action`` is legal now, else the refusal ``apply_action``
        would raise (the rule component's rule id and words); nothing changes."""
        try:
            self.clone().apply_action(action)
        except RuleViolation as e:
            return e
        return None

    # -- stepping ---------------------------------------------------------------------

    def apply_action(self, action: Action) -> None:
        """Apply the current player's action; an illegal one raises
        :class:`~bourre.rules.RuleViolation` naming the rule, the state unchanged."""
        if not isinstance(action, Action):
            raise RuleViolation(
                "R-DECIDE", f"{action!r} is not an action: pass, play, a discard or a card"
            )
        if self.phase is Phase.PLAY:
            seat = self.current_player()
            if action.kind != "card" or len(action.cards) != 1:
                raise RuleViolation("R-LEAD", f"seat {seat} is to play a card")
            card = action.cards[0]
            legal = self.legal_with_reasons()
            if card not in legal.cards:
                raise self._refusal(card)
            self._play(card)
            return
        if self.phase is not Phase.DECIDE:
            what = (
                "the session is over"
                if self.phase is Phase.OVER
                else "chance acts now (apply_chance)"
            )
            raise RuleViolation("R-SESSION", f"no player acts: {what}")
        t = self.turn
        assert t is not None
        hs = self._hand()
        if t.kind == DECIDE:
            if action.kind not in ("pass", "play") or action.cards:
                raise RuleViolation("R-DECIDE", f"seat {t.seat} is to say pass or play")
            self.decisions.decide(hs, t.seat, action.kind == "play")
        else:
            if action.kind != "discard":
                raise RuleViolation("R-DRAW", f"seat {t.seat} is to discard (or stand pat)")
            self._exchange(hs, t.seat, action.cards)
        self.history_.append(action)
        self._advance()

    def _exchange(self, hs: HandState, seat: int, cards: tuple[int, ...]) -> None:
        """A seat's discards: the house's draw, or a chance node when the stock is unseen."""
        if self.after_draw is not None:  # the hand after it was shown, not the hand dealt
            self._exchange_shown(hs, seat, cards, self.after_draw)
            self.after_draw = None
            return
        if cards and (hs.unseen_stock or hs.hidden[seat]):
            self.draw.check(hs, seat, cards)
            self.pending, self.pending_seat = cards, seat
            self.phase = Phase.DRAW  # what a table knows: the replacements are told
            return
        before = set(hs.hands[seat])
        self.draw.draw(hs, seat, cards)  # refuses what is not allowed, unchanged (R-DRAW)
        if cards:
            hs.gave[seat] = cards
            hs.got[seat] = tuple(c for c in hs.hands[seat] if c not in before)
        self.decisions.exchanged(hs, seat, cards)

    def _exchange_shown(
        self, hs: HandState, seat: int, cards: tuple[int, ...], after: tuple[int, ...]
    ) -> None:
        """The exchange of a seat whose hand after it was shown (its plays): the draw
        reads the hand it was dealt and what it drew (R-DRAW, R-RESHUFFLE), the deal
        checks that hand (R-DEAL), and the exchange runs as one a table tells."""
        dealt, drew = self.draw.split(hs, seat, cards, after)
        self._check_hand(seat, dealt, hs.dealer, hs.upcard)
        before, hidden = hs.hands[seat], hs.hidden[seat]
        hs.hands[seat], hs.hidden[seat] = sorted(dealt), False
        try:
            self.draw.drawn(hs, seat, cards, drew)
        except RuleViolation:
            hs.hands[seat], hs.hidden[seat] = before, hidden
            raise
        if cards:
            hs.gave[seat], hs.got[seat] = cards, tuple(sorted(drew))
        self.decisions.exchanged(hs, seat, cards)

    def apply_chance(self, outcome: object) -> None:
        """Apply a chance outcome: a :class:`~bourre.game.actions.Deck` or
        :class:`~bourre.game.actions.Dealt` at a deal, a :class:`~bourre.game.actions.Dealt`
        naming the hand of a seat that plays (or an :class:`~bourre.game.actions.AfterDraw`,
        the hand it held after its exchange), a :class:`~bourre.game.actions.Drew` after
        an exchange.  An impossible outcome raises ``RuleViolation``, unchanged."""
        if self.phase is Phase.DEAL and isinstance(outcome, (Deck, Dealt)):
            if isinstance(outcome, Deck) and not _whole_deck(outcome.cards):
                raise RuleViolation("R-DECK", "a deck holds the 52 cards once each")
            self._deal(outcome)  # (the state's own seeded decks need no such check)
        elif self.phase is Phase.REVEAL and isinstance(outcome, Dealt):
            self._reveal(self._hand(), self.pending_seat, outcome)
            self.phase = Phase.DECIDE
        elif self.phase is Phase.REVEAL and isinstance(outcome, AfterDraw):
            hs, seat, t = self._hand(), self.pending_seat, self.turn
            if t is not None and t.kind != DECIDE and t.seat == seat:
                self.after_draw = tuple(outcome.cards)  # read with the discards it names
            else:  # no exchange follows: the hand it was dealt
                self._reveal(hs, seat, Dealt.of(hs.upcard, {seat: outcome.cards}))
            self.phase = Phase.DECIDE
        elif self.phase is Phase.DRAW and isinstance(outcome, Drew):
            hs, seat, discards = self._hand(), self.pending_seat, self.pending
            self.draw.drawn(hs, seat, discards, outcome.cards)
            hs.gave[seat], hs.got[seat] = discards, tuple(sorted(outcome.cards))
            self.decisions.exchanged(hs, seat, discards)
            self.phase = Phase.DECIDE
        else:
            want = {
                Phase.DEAL: "a Deck or Dealt",
                Phase.REVEAL: "a Dealt hand or an AfterDraw",
                Phase.DRAW: "a Drew",
            }
            raise RuleViolation(
                "R-DEAL",
                f"chance does not act now, or wants {want.get(self.phase, 'nothing')}: got {outcome!r}",
            )
        self.history_.append(outcome)
        self._advance()

    # -- a real table's path (the referee) ------------------------------------------

    def set_hand(
        self,
        *,
        dealer: int | None = None,
        pot: Amount | None = None,
        reshuffle: Callable[[list[int]], list[int]] | None = None,
    ) -> None:
        """Give the next hand's position as a real table has it, before its deal:
        the dealer, the pot already in the middle (nobody antes), the order of a
        reshuffled stock (R-RESHUFFLE; by default the discards in the order made)."""
        if self.phase is not Phase.DEAL:
            raise RuleViolation("R-DEAL", "a hand's position is given before its deal")
        if dealer is not None and (not isinstance(dealer, int) or not 0 <= dealer < self.n):
            raise RuleViolation("R-SEAT", f"no seat {dealer} at a table of {self.n}")
        if pot is not None and (not _amount(pot) or pot < 0):
            raise RuleViolation("R-ANTE", f"a pot is an amount ≥ 0, not {pot!r}")
        self.given_dealer, self.given_pot, self.given_reshuffle = dealer, pot, reshuffle

    def mark_premature(self, seat: int) -> None:
        """``seat`` announced out of turn (R-PREMATURE): it loses its next turn to deal."""
        if not self.announce:
            raise RuleViolation(
                "R-PREMATURE", "no announcement out of turn can arise when everyone decides at once"
            )
        if not isinstance(seat, int) or not 0 <= seat < self.n:
            raise RuleViolation("R-SEAT", f"no seat {seat!r} at a table of {self.n}")
        self.premature.append(seat)

    def referee_play(self, card: int, corrected_to: int | None = None) -> None:
        """A card played at a real table: an illegal card stands as a renege
        (R-RENEGE), or is taken back for ``corrected_to`` (R-CORRECTED).  A legal card
        is simply played."""
        if self.phase is not Phase.PLAY:
            raise RuleViolation("R-LEAD", "no card is to be played now")
        hs = self._hand()
        seat = self.current_player()
        legal = self.legal_with_reasons().cards
        if card not in hs.hands[seat]:
            raise self._not_held(seat, card)
        if corrected_to is None:
            self._play(card, renege=card not in legal)
            return
        if card in legal:
            raise RuleViolation(
                "R-CORRECTED",
                f"{card_symbol(card)} was legal: correcting a legal card is impossible",
            )
        if corrected_to == card:
            raise RuleViolation(
                "R-CORRECTED", f"a correction must name another card than {card_symbol(card)}"
            )
        if corrected_to not in hs.hands[seat]:
            raise self._not_held(seat, corrected_to, "R-CORRECTED")
        self._play(corrected_to, renege=corrected_to not in legal, corrected=True, first=card)

    def _not_held(self, seat: int, card: int, rule: str = "R-DEAL") -> RuleViolation:
        """A card the seat to play does not hold: already played in a trick of this
        hand (R-DECK), or simply not in its hand."""
        hs = self._hand()
        tricks = [[c for _, c in t.plays] for t in hs.tricks] + [list(hs.trick)]
        for i, cards in enumerate(tricks):
            if card in cards:
                trick = i + 1
                return RuleViolation(
                    "R-DECK",
                    f"seat {seat} cannot play {card_symbol(card)} here: it was already played"
                    f" in trick {trick}",
                )
        return RuleViolation(rule, f"seat {seat} does not hold {card_symbol(card)}")

    # -- results ----------------------------------------------------------------------

    def returns(self) -> list[Amount]:
        """Each seat's money change so far (exact); once a session is settled they
        sum to zero."""
        balances = self.final[0] if self.final is not None else self.balances
        return [b - s for b, s in zip(balances, self.start, strict=True)]

    def history(self) -> list[object]:
        """Every action and chance outcome applied, in order (replayable); a state
        made with ``keep_results=False`` keeps those of the current hand only, from
        its deal (a long session needs the memory of one hand)."""
        return list(self.history_)

    def holdings(self) -> tuple[object, ...]:
        """What no bot may change while it is asked (:func:`~bourre.game.players.play_out`
        checks it around every answer): the balances, the pot, the hands."""
        hands = tuple(map(tuple, self.hs.hands)) if self.hs is not None else ()
        return (tuple(self.balances), self.pot, hands)

    def observation(self, seat: int) -> Observation:
        """What ``seat`` may know now, as a new immutable value (:func:`observe`)."""
        return observe(self, seat)

    def python_copy(self) -> State:
        """An independent copy on the Python rules, whatever engine steps this state
        (a kernel-backed state replays its history into one): for a search that
        changes a copy's own settings, such as :func:`bourre.solve`."""
        return self.clone()

    def clone(self) -> State:
        """An independent copy: playing both the same way gives the same returns.
        Rule components, the house and finished hands' results are shared."""
        c = copy.copy(self)
        c.balances, c.start, c.marks = list(self.balances), list(self.start), list(self.marks)
        c.results, c.history_ = list(self.results), list(self.history_)
        c.premature, c.antes = list(self.premature), list(self.antes)
        c.hands_after = [list(h) for h in self.hands_after]
        c.plays, c.forfeits, c.reneges = list(self.plays), set(self.forfeits), list(self.reneges)
        c.chance = self.chance.copy() if self.chance is not None else None
        if self.hs is not None:
            c.hs = self.hs.copy()
            if c.chance is not None and self.given_reshuffle is None:
                c.hs.reshuffle = c.chance.reshuffle  # the copy's own stream
        return c

    # -- the course of a hand ---------------------------------------------------------

    def _begin_hand(self) -> None:
        """A new hand: its position is open until the deal; a seeded state deals at once."""
        self.phase = Phase.DEAL
        self.hs = None
        self.given_dealer = self.given_pot = self.given_reshuffle = None
        self.after_draw = None
        self.premature = []
        if not self.keep_results:
            self.history_.clear()  # a lean session: this hand's actions only
        if self.chance is not None:
            deck = Deck(tuple(self.chance.deck()))
            self._deal(deck)
            self.history_.append(deck)
            self._advance()

    def _dealer(self) -> int:
        """The given dealer, else the first, else the house's next dealer (R-DEALER)."""
        if self.given_dealer is not None:
            return self.given_dealer
        if self.last_dealer is None:
            if self.first_dealer is None:
                raise RuleViolation("R-DEALER", "no dealer: table.first_dealer is 'random'")
            return self.first_dealer
        return self.next_dealer(self.last_dealer, self.marks)

    def _deal(self, outcome: Deck | Dealt) -> None:
        """The deal (a chance outcome: R-DEAL, R-DECK), then the antes (R-FIRST-POT,
        R-ANTE), told the dealer; the decisions begin."""
        n = self.n
        dealer = self._dealer()
        reshuffle = self.given_reshuffle
        if reshuffle is None:
            reshuffle = self.chance.reshuffle if self.chance is not None else keep_order
        if isinstance(outcome, Dealt):
            hs = self._dealt_hand(outcome, dealer, reshuffle)
        else:
            cards = outcome.cards
            hands, upcard, stock = self.deal.deal(cards, dealer, n)
            if any(len(hand) != self.h for hand in hands) or len(hands) != n:
                who = self.house.answered_by[DEAL.name].name
                raise PluginError(
                    who, DEAL.name, f"the deal must give {n} hands of {self.h} cards (R-DEAL)"
                )
            hs = HandState(
                number=self.number + 1,
                n=n,
                hand_size=self.h,
                dealer=dealer,
                hands=hands,
                upcard=upcard,
                stock=stock,
                pot=self.pot,
                reshuffle=reshuffle,
            )
        self.last_dealer = dealer
        self.number += 1
        self.ante_reasons = ()
        if self.given_pot is not None:  # a pot already in the middle: nobody antes
            self.total += self.given_pot - self.pot
            self.pot = self.given_pot
            self.antes = [0] * n
        else:
            self.antes = self.ante.hand_antes(n, self.table.ante, self.previous, dealer)
            if self.record:
                self.ante_reasons = self.ante.reasons(n, self.table.ante, self.previous, dealer)
            for s in range(n):
                self.balances[s] -= self.antes[s]
            self.pot += sum(self.antes)
        hs.pot = self.pot
        self.hs = hs
        self.phase = Phase.DECIDE
        self.turn = None
        self.steps = 0

    def _check_hand(self, seat: int, cards: Sequence[int], dealer: int, upcard: int) -> None:
        if not isinstance(seat, int) or not 0 <= seat < self.n:
            raise RuleViolation("R-SEAT", f"no seat {seat} at a table of {self.n}")
        if not all(type(c) is int and 0 <= c < 52 for c in cards):
            raise RuleViolation("R-DECK", f"seat {seat} was dealt something that is not a card")
        self.deal.check_hand(seat, cards, dealer, upcard)

    def _dealt_hand(self, outcome: Dealt, dealer: int, reshuffle: Reshuffle) -> HandState:
        """A deal given by what the table saw: the upcard, the hands shown (R-DEAL)."""
        n, up = self.n, outcome.upcard
        if type(up) is not int or not 0 <= up < 52:
            raise RuleViolation("R-DEAL", "the upcard is required: it names trump")
        hands: list[list[int]] = [[] for _ in range(n)]
        hidden = [True] * n
        seen: dict[int, int] = {}
        for seat, cards in outcome.hands.items():
            self._check_hand(seat, cards, dealer, up)
            for c in cards:
                if c in seen:
                    raise RuleViolation(
                        "R-DECK", f"{card_symbol(c)} is dealt to seats {seen[c]} and {seat}"
                    )
                seen[c] = seat
            hands[seat] = sorted(cards)
            hidden[seat] = False
        if hidden[dealer]:
            hands[dealer] = [up]  # the upcard is known to be in the dealer's hand
        hs = HandState(
            number=self.number + 1,
            n=n,
            hand_size=self.h,
            dealer=dealer,
            hands=hands,
            upcard=up,
            stock=[],
            pot=self.pot,
            reshuffle=reshuffle,
        )
        hs.hidden = hidden
        hs.unseen_stock = 52 - n * self.h
        return hs

    def _reveal(self, hs: HandState, seat: int, outcome: Dealt) -> None:
        """The hand of ``seat``, who plays, shown after the deal (R-DEAL)."""
        if seat not in outcome.hands:
            raise RuleViolation("R-DEAL", f"seat {seat} plays: the cards it was dealt are required")
        cards = outcome.hands[seat]
        self._check_hand(seat, cards, hs.dealer, hs.upcard)
        placed = hs.located()
        for c in cards:
            if c in placed and not (seat == hs.dealer and c == hs.upcard):
                raise RuleViolation(
                    "R-DECK", f"{card_symbol(c)} is already elsewhere: seat {seat} cannot hold it"
                )
        hs.hands[seat] = sorted(cards)
        hs.hidden[seat] = False

    def _advance(self) -> None:
        """Run the hand on until someone (or chance) must act."""
        if self.phase is not Phase.DECIDE:
            return
        hs = self._hand()
        self.steps += 1
        if self.steps > 4 * self.n + 4:  # each seat decides once and exchanges once
            who = self.house.answered_by[DECISIONS.name].name
            raise PluginError(
                who, DECISIONS.name, "the decisions do not end: no progress after every seat acted"
            )
        t = self.decisions.turn(hs)
        if t is not None:
            self.turn = t
            if t.kind != DECIDE and hs.hidden[t.seat] and self.after_draw is None:
                self.pending_seat = t.seat
                self.phase = Phase.REVEAL
            return
        self.turn = None
        for s in hs.active:
            if hs.hidden[s]:  # a seat forced in whose hand nobody showed
                self.pending_seat = s
                self.phase = Phase.REVEAL
                return
        self._start_play(hs)

    def _start_play(self, hs: HandState) -> None:
        """The decisions are over: the play ante, R-SOLE, the first lead (R-LEAD)."""
        extra = self.ante.play_ante(self.table.ante)  # double-ante
        for s in hs.active:
            self.balances[s] -= extra
        self.pot += extra * len(hs.active)
        hs.pot = hs.pot_at_stake = self.pot
        if self.record:
            self.hands_after = [list(cards) for cards in hs.hands]
        self.plays, self.forfeits, self.reneges = [], set(), []
        if len(hs.active) == 1:  # R-SOLE
            hs.won[hs.active[0]] = self.h
            self._end_hand()
            return
        self._lead(hs, None)
        self.phase = Phase.PLAY

    def _lead(self, hs: HandState, winner: int | None) -> None:
        """A new trick: who leads it and plays to it in what order is the house's lead
        (R-LEAD), told the winner of the last trick (``None``: the first)."""
        hs.trick_seats = list(self.lead(tuple(hs.active), hs.dealer, winner))
        hs.trick = []
        hs.leader = hs.trick_seats[0]
        self._legal = None

    def _refusal(self, card: int) -> RuleViolation:
        """Why the player to play may not play ``card``: the deciding component's words."""
        legal = self.legal_with_reasons()
        hs = self._hand()
        if not isinstance(card, int) or card not in hs.hands[legal.seat]:
            what = card_symbol(card) if isinstance(card, int) and 0 <= card < 52 else repr(card)
            return RuleViolation("R-DEAL", f"seat {legal.seat} does not hold {what}", legal.cards)
        return legal.refusal(card)

    def _play(
        self, card: int, renege: bool = False, corrected: bool = False, first: int | None = None
    ) -> None:
        """The player to play plays ``card`` (a renege, or a correction of ``first``, on
        the referee's path: R-RENEGE, R-CORRECTED); a full trick goes to its winner,
        who leads the next (R-TRICK); after the last trick the hand ends."""
        hs = self._hand()
        legal = self.legal_with_reasons()
        seat = legal.seat
        if legal.cinch:
            hs.cinch_plays += 1
        if corrected or renege:
            self.forfeits.add(seat)
            if renege:
                self.reneges.append(seat)
            self.history_.append(TablePlay(card, None) if first is None else TablePlay(first, card))
        else:
            self.history_.append(CARDS[card])
        if self.record:
            illegal = first if first is not None else card if renege else None
            why = legal.reason_for(illegal) if illegal is not None else None
            self.plays.append(
                PlayLog(seat, card, legal.cards, legal.cinch, renege, corrected, first, why)
            )
        hs.hands[seat].remove(card)
        hs.trick.append(card)
        hs.played.add(card)
        self._legal = None
        if len(hs.trick) < len(hs.trick_seats):
            return
        winner = hs.trick_seats[self.trick_winner(tuple(hs.trick), hs.trump)]
        hs.won[winner] += 1
        hs.tricks.append(
            TrickLog(hs.leader, tuple(zip(hs.trick_seats, hs.trick, strict=False)), winner)
        )
        if len(hs.tricks) < self.h:
            self._lead(hs, winner)
            return
        hs.trick, hs.trick_seats = [], []
        self._end_hand()

    def _end_hand(self) -> None:
        """The payout (R-WIN, R-BOURRE, R-ANTE …), the hand's result, then the next hand
        or the settlement (R-SESSION, R-SETTLE)."""
        hs = self._hand()
        result = PlayResult(
            self.n,
            hs.pot_at_stake,
            list(hs.active),
            list(hs.won),
            set(self.forfeits),
            list(self.reneges),
            len(hs.active) == 1,
        )
        outcome = self.payout(result, self.penalty)
        for s in range(self.n):
            self.balances[s] += outcome.takes[s] - outcome.paid[s]
        self.pot = hs.pot = outcome.pot_after
        self.previous = outcome
        self._check_conserved(hs)
        for s in (*self.forfeits, *self.premature):
            self.marks[s] = True  # the next turn to deal is lost (R-CORRECTED, R-PREMATURE)
        if self.keep_results:
            self.results.append(
                HandResult(
                    hs.number,
                    hs.dealer,
                    hs,
                    outcome,
                    list(self.balances),
                    self.antes,
                    self.hands_after,
                    self.plays,
                    self.ante_reasons,
                )
            )
        if self.number < self.hands_total:
            self._begin_hand()
            return
        self.phase = Phase.OVER
        if self.settles:
            self.final = self.settle(list(self.balances), self.pot)

    def _check_conserved(self, hs: HandState) -> None:
        """After every hand the money at the table is whole, and with components not
        built in the cards too; else the game stops naming those components."""
        money = sum(self.balances) + self.pot
        problem = ""
        if money != self.total:
            problem = f"money not conserved: the table holds {money}, not {self.total}"
        elif self.checked and not hs.unseen_stock and not any(hs.hidden):
            try:
                hs.places()
            except AssertionError as e:
                problem = f"cards not conserved: {e}"
        if problem:
            who = ", ".join(self.house.guarded) or "the house's components"
            raise PluginError(who, f"hand {hs.number}", problem)


def _whole_deck(cards: Sequence[object]) -> bool:
    """Whether ``cards`` are the 52 cards, once each, as ints (R-DECK)."""
    return len(cards) == 52 and all(type(c) is int for c in cards) and set(cards) == set(range(52))


def _checked_balances(balances: Sequence[Amount] | None, start: Amount, n: int) -> list[Amount]:
    """The session's starting balances: one exact amount per seat (R-SESSION)."""
    if balances is None:
        return [start] * n
    out = list(balances)
    if len(out) != n:
        raise ValueError(f"balances: {len(out)} given for {n} players (R-SESSION)")
    for s, b in enumerate(out):
        if not _amount(b):
            raise ValueError(
                f"balances: seat {s}'s balance {b!r} is not a whole or exact amount (R-SESSION)"
            )
    return out


def observe(state: State, seat: int) -> Observation:
    """What ``seat`` may know of ``state`` now, as a new value: the public facts of
    the hand and that seat's own cards, never a reference to the state, the deck,
    the stock or another player's cards."""
    if not isinstance(seat, int) or not 0 <= seat < state.n:
        raise ValueError(f"no seat {seat!r} at a table of {state.n} (R-SEAT)")
    to_act = state.current_player()
    phase = state.phase_name
    legal_actions: tuple[Action, ...] | Discards = ()
    legal: tuple[int, ...] = ()
    cinch = False
    forced: str | None = None
    limit = 0
    hs = state.hs
    if to_act == seat:
        if phase == "play":
            got = state.legal_with_reasons()
            legal, cinch = got.cards, got.cinch
            legal_actions = tuple(CARDS[c] for c in legal)
        elif phase == "exchange":
            limit = state.exchange_limit()
            legal_actions = state.legal_actions()  # type: ignore[assignment]
        elif state.turn is not None:  # to say pass or play (R-DECIDE)
            forced = state.turn.forced
            legal_actions = (PLAY,) if forced is not None else (PASS, PLAY)
    to_act = max(to_act, -1)
    balances = tuple(state.balances)
    if hs is None:  # before the first deal
        n = state.n
        return Observation(
            seat,
            n,
            state.h,
            state.number + 1,
            -1,
            -1,
            -1,
            (),
            (),
            (),
            (),
            (),
            (),
            (0,) * n,
            state.pot,
            balances,
            0,
            to_act,
            phase,
            (),
            (),
            False,
            None,
            -1,
            (),
            (),
            0,
            0,
        )
    secret = not state.announce and phase == "decide"
    trick = tuple(zip(hs.trick_seats, hs.trick, strict=False))
    played = 0
    for c in hs.played:
        played |= 1 << c
    return Observation(
        seat,
        hs.n,
        hs.hand_size,
        hs.number,
        hs.dealer,
        hs.upcard,
        hs.trump,
        hs.hand_of(seat),
        tuple(hs.discards[seat]),
        tuple(hs.decisions),
        () if secret else tuple(hs.active),
        tuple(hs.tricks),
        trick,
        tuple(hs.won),
        hs.pot,
        balances,
        len(hs.stock) + hs.unseen_stock,
        to_act,
        phase,
        legal_actions,
        legal,
        cinch,
        forced,
        hs.chosen[seat],
        hs.gave[seat],
        hs.got[seat],
        limit,
        played,
    )
