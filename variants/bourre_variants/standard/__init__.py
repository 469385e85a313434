"""The documented profile (RULES.md §2): 5 players, single ante, obligatory play and
cinch.  An ordinary plugin: every other built-in variant builds on it."""

from __future__ import annotations

from collections.abc import Callable

from bourre.rules import (
    AntePolicy,
    CinchPolicy,
    DealFn,
    DecisionProcedure,
    DrawFn,
    FollowFn,
    NextDealerFn,
    PayoutFn,
    PenaltyFn,
    SettleFn,
    TrickWinnerFn,
)
from bourre.settings import TableSettings
from bourre.variant import Variant, hookimpl
from bourre_variants.standard.cinch import StandardCinch
from bourre_variants.standard.deal import make_deal
from bourre_variants.standard.draw import Sequential, make_draw
from bourre_variants.standard.obligations import follow
from bourre_variants.standard.payout import (
    StandardAnte,
    full_pot,
    make_next_dealer,
    payout,
    settle,
)
from bourre_variants.standard.tricks import trick_winner


class Standard(Variant):
    """The documented 5-player profile."""

    name = "standard"
    summary = "The documented profile: single ante, obligatory play, cinch (RULES.md §2)."
    builds_on = ()
    rules = {
        "general": [
            ("R-SEAT", "Seats 0…{last_seat} clockwise; play, dealing and decisions go clockwise."),
            ("R-DECK", "52 cards, no jokers; A K Q J 10 9 … 2 high to low."),
            (
                "R-SESSION",
                "{table.players} players, each starting with a balance of {table.balance}"
                " (negative balances allowed); a session is {table.hands} hands.",
            ),
            ("R-DEALER", "Seat {table.first_dealer} deals hand 1; then the left neighbour deals."),
        ],
        "bourre_hand_size": [("R-DEAL-SIZE", "Each player is dealt 5 cards; there are 5 tricks.")],
        "bourre_ante": [
            ("R-FIRST-POT", "Before hand 1 every player antes {table.ante}."),
            (
                "R-ANTE",
                "Before each later hand every player antes {table.ante}, except those who paid a"
                " zero-trick penalty and those tied for the most tricks in the last hand.",
            ),
        ],
        "bourre_deal": [
            (
                "R-DEAL",
                "The player to the dealer's right cuts; deal one at a time clockwise from the"
                " dealer's left. The dealer's last card is dealt face up: its suit is trump and"
                " it belongs to the dealer's hand.",
            )
        ],
        "bourre_decisions": [
            ("R-DECIDE", "From the dealer's left to the dealer, each player says pass or play."),
            (
                "R-PASS",
                "Passing gives up the hand and the ante already paid, with no other penalty.",
            ),
            ("R-ACE-UP", "If the upcard is the ace of trumps, the dealer must play."),
            (
                "R-LAST-STANDS",
                "If everyone before the dealer passed, the dealer plays and takes the pot.",
            ),
            ("R-SOLE", "A sole participant takes the pot without play; nobody is bourré."),
            (
                "R-PREMATURE",
                "Announcing play, pass or the number of cards to exchange before one's turn"
                " costs one's next turn to deal.",
            ),
        ],
        "bourre_draw": [
            (
                "R-DRAW",
                "A player who plays at once discards 0 to all the cards of the hand and draws as"
                " many from the top of the stock before the next player decides; standing pat"
                " is allowed.",
            ),
            (
                "R-RESHUFFLE",
                "If the stock runs out, the discards of earlier players not yet returned are"
                " shuffled into a new stock; a player never receives back their own discards"
                " of this exchange; folded hands are never reused.",
            ),
        ],
        "bourre_follow": [
            (
                "R-LEAD",
                "The first active player to the dealer's left leads; the trick's winner leads next.",
            ),
            (
                "R-FOLLOW",
                "Holding the led suit, play it; if the winning card is of the led suit, beat it"
                " when you can. After a trump on the trick, any card of the led suit.",
            ),
            (
                "R-TRUMP",
                "Without the led suit, play a trump; beat the highest trump on the trick when you"
                " can, else under-trump (obligatory).",
            ),
            ("R-DISCARD", "Only with neither the led suit nor trumps may any card be played."),
        ],
        "bourre_cinch": [
            (
                "R-SURE",
                "Sure tricks = tricks won + master trumps held (every higher trump held, played,"
                " or in one's own discards). A cinch is 3 sure tricks.",
            ),
            ("R-EQUIV", "Trumps with no opponent's card between them are equivalent."),
            ("R-CINCH-LEAD", "With a cinch, lead the highest trump if you hold any."),
            (
                "R-CINCH-FOLLOW",
                "With a cinch, when the ordinary obligations allow a trump, play the highest"
                " allowed trump; following suit keeps priority.",
            ),
            (
                "R-CINCH-LAST",
                "The last player of a trick only has to win under the ordinary obligations.",
            ),
        ],
        "bourre_trick_winner": [
            (
                "R-TRICK",
                "The highest trump wins the trick; with no trump, the highest card of the led suit.",
            )
        ],
        "bourre_penalty": [
            ("R-BOURRE", "Each active player with 0 tricks is bourré and pays the pot at stake P."),
            ("R-RENEGE", "Each renege (an illegal card not corrected in time) costs P."),
        ],
        "bourre_payout": [
            (
                "R-WIN",
                "The single player with the most tricks takes the pot P; a tie for the most"
                " carries all of P to the next hand.",
            ),
            (
                "R-CORRECTED",
                "A player who corrected an illegal card, or reneged, loses the right to the pot"
                " and their next turn to deal; if they have the single most tricks the pot carries.",
            ),
            (
                "R-BOURRE-POT",
                "Zero-trick and renege payments form the next pot, after the winner takes P.",
            ),
        ],
        "bourre_next_dealer": [
            (
                "R-DEALER",
                "The next dealer is the left neighbour, skipping a player who lost their turn to deal.",
            )
        ],
        "bourre_settle": [
            (
                "R-SETTLE",
                "After the last hand, the pot left is divided equally among all players as exact"
                " fractions; the highest balance wins and ties share a place.",
            )
        ],
    }

    @hookimpl
    def bourre_hand_size(self, table: TableSettings) -> int:
        return 5

    @hookimpl
    def bourre_ante(self, table: TableSettings) -> AntePolicy:
        return StandardAnte()

    @hookimpl
    def bourre_deal(self, table: TableSettings, hand_size: int) -> DealFn:
        return make_deal(hand_size)

    @hookimpl
    def bourre_decisions(self, table: TableSettings) -> DecisionProcedure:
        return Sequential()

    @hookimpl
    def bourre_draw(self, table: TableSettings, hand_size: int) -> DrawFn:
        return make_draw(hand_size)

    @hookimpl
    def bourre_follow(self, table: TableSettings) -> FollowFn:
        return follow

    @hookimpl
    def bourre_cinch(self, table: TableSettings) -> CinchPolicy:
        return StandardCinch()

    @hookimpl
    def bourre_trick_winner(self, table: TableSettings) -> TrickWinnerFn:
        return trick_winner

    @hookimpl
    def bourre_penalty(self, table: TableSettings) -> PenaltyFn:
        return full_pot

    @hookimpl
    def bourre_payout(self, table: TableSettings) -> PayoutFn:
        return payout

    @hookimpl
    def bourre_next_dealer(self, table: TableSettings) -> NextDealerFn:
        return make_next_dealer(table.players)

    @hookimpl
    def bourre_settle(self, table: TableSettings) -> SettleFn:
        return settle


@hookimpl
def bourre_register_variants(register: Callable[[type[Variant]], None]) -> None:
    register(Standard)
