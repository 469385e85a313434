"""The tap page's state machine without a browser or a server (:mod:`bourre.web.tap`):
whole hands driven through :class:`TapFlow` a tap at a time, each tap a request of its
own (the flow made again from what the form carries: the lines and the step under
way), the phase checked at every step: the dealer, the upcard, pass or play, a seat's
exchange (shown cards, changes, throws, draws), the plays, a forbidden card that stood
(R-RENEGE) and one taken back (R-CORRECTED), a renege the tricks show, the sole
player's cards (R-SOLE), undo, the next deal (R-DEALER), and the hand in the notation
refereed again to the same record."""

from __future__ import annotations

import pytest

pytest.importorskip("starlette")  # bourre.web's package imports the web framework

from tapflow import ASKED, RENEGE, SHOWN, TOUR, taps

from bourre.houses.house import House
from bourre.referee import Refereed, referee
from bourre.referee.notation import parse_script
from bourre.referee.ruling import ruling
from bourre.rules.cards import parse_card
from bourre.web.tap import TapError, TapFlow
from bourre.web.tap.form import Exchange, Forbidden, read_pending
from bourre.web.tap.phases import Phase
from bourre.web.tap.steps import STEPS
from bourre.web.tap.told import Told

STANDARD = House("standard")
P = Phase


def c(text: str) -> int:
    return parse_card(text)


class Table:
    """A table tapping a hand: each tap is a request of its own, as on the page."""

    def __init__(self, house: House = STANDARD) -> None:
        self.house = house
        self.flow = TapFlow(house, "", "")
        self.phases: list[Phase] = [self.flow.phase]

    def form(self) -> tuple[str, str]:
        """What the page's form posts back: the lines and the step under way."""
        p = self.flow.pending
        return self.flow.script, p.text() if p is not None else ""

    def tap(self, value: str) -> Phase:
        script, pending = self.form()
        flow = TapFlow(self.house, script, pending)
        assert flow.step() == self.flow.step()  # the form carries all the page needs
        flow.tap(value)
        self.flow = flow
        self.phases.append(flow.phase)
        return flow.phase

    def taps(self, values: list[str]) -> None:
        for value in values:
            if value.startswith(ASKED):
                if self.flow.step().question is None:
                    continue
                value = value[len(ASKED) :]
            self.tap(value)

    def refused(self, value: str) -> str:
        """The words of a tap that does not fit; the hand and the page are then
        unchanged."""
        before = self.flow.script, self.flow.step()
        with pytest.raises(TapError) as e:
            self.flow.tap(value)
        assert (self.flow.script, self.flow.step()) == before
        return str(e.value)

    @property
    def phase(self) -> Phase:
        return self.flow.phase

    @property
    def ask(self) -> str:
        return self.flow.step().ask


def until(hand: str, stop: str) -> Table:
    """The hand tapped up to (not including) the first tap ``stop``."""
    t = Table()
    values = taps(hand)
    t.taps(values[: values.index(stop)])
    return t


def refereed_again(t: Table) -> Refereed:
    """The hand as the page shows it in the notation, refereed anew (``bourre replay``)."""
    return referee(parse_script(f"house {t.house.spec}\n{t.flow.script}"), place="the hand")


def test_every_phase_has_one_step() -> None:
    assert set(STEPS) == set(Phase)


@pytest.mark.parametrize("hand", [TOUR, SHOWN], ids=["tricks-show", "cards-shown"])
def test_the_tour_through_to_the_ruling(hand: str) -> None:
    t = Table()
    assert t.phase is P.DEALER
    t.taps(taps(hand))
    assert t.phase is P.OVER and t.ask == "The hand is over."
    assert parse_script(t.flow.script) == parse_script(hand)
    words = " ".join(ruling(t.flow.refereed))
    assert "Seat 1 played and took 2 tricks; reneged in trick 2: 8♣ was not allowed" in words
    assert "Seat 2 takes the pot: 5 chips, with 3 tricks. (R-WIN)" in words
    # the hand in the notation, refereed again: the same record
    again = refereed_again(t)
    assert again.record == t.flow.refereed.record
    seen = set(t.phases)
    assert {P.DEALER, P.UPCARD, P.DECIDE, P.CHANGE, P.THROW, P.PLAY, P.OVER} <= seen
    if hand is SHOWN:  # each card checked as played: the renege is put at once
        assert {P.DEALT, P.DRAW, P.RULE} <= seen and P.FOUND not in seen
    else:  # the tricks show the hands: the renege is put at the end
        assert P.FOUND in seen and P.RULE not in seen and P.DEALT not in seen
        assert t.flow.script.endswith(f"# stood: seat {RENEGE[0]} {RENEGE[1]} in trick 2")


def test_a_seat_that_shows_its_cards_step_by_step() -> None:
    t = Table()
    assert t.tap("dealer:0") is P.UPCARD
    assert t.ask.startswith("Seat 0 deals. Tap the upcard")
    assert t.tap("upcard:9H") is P.DECIDE
    assert t.ask == "Seat 1: pass or play?"
    assert t.tap("play") is P.CHANGE
    assert t.flow.pending == Exchange(1)
    assert t.tap("show") is P.DEALT
    for card in "KH QH 5S 8C".split():
        assert t.tap(f"dealt:{card}") is P.DEALT
    assert t.tap("dealt:9D") is P.CHANGE
    assert t.ask.startswith("How many cards does seat 1 change? It holds K♥ Q♥ 5♠ 9♦ 8♣.")
    assert t.tap("change:1") is P.THROW
    assert t.tap("throw:9D") is P.DRAW
    assert t.flow.pending == Exchange(
        1,
        dealt=tuple(map(c, "KH QH 5S 8C 9D".split())),
        change=1,
        throw=(c("9D"),),
        show=True,
    )
    assert t.tap("drew:TC") is P.DECIDE and t.flow.pending is None
    assert t.flow.script.endswith("dealt 1: KH QH 5S 8C 9D\ndecide 1 play 9D > TC")


def test_the_picker_holds_cards_as_ints_until_it_is_drawn() -> None:
    t = until(SHOWN, "card:8C")
    step = t.flow.step()
    assert t.phase is P.PLAY and step.picker is not None
    picker = step.picker
    assert picker.verb == "card" and all(isinstance(x, int) for x in picker.enabled)
    assert {c("KH"), c("QH"), c("8C")} <= picker.enabled and c("AS") not in picker.enabled
    assert picker.marks[c("KH")] == "legal" and picker.marks[c("8C")] == "illegal"
    assert picker.marks[c("AS")] == "played"
    drawn = {b.title: b for row in picker.rows() for b in row}
    assert len(drawn) == 52
    assert drawn["KH"].value == "card:KH" and drawn["KH"].label == "K♥"
    assert drawn["KH"].css == "legal red" and not drawn["KH"].disabled
    assert drawn["AS"].disabled and drawn["AS"].css == "played"


def test_a_forbidden_card_that_stands() -> None:
    t = until(SHOWN, "card:8C")
    assert t.tap("card:8C") is P.RULE
    assert t.flow.pending == Forbidden(1, c("8C"))
    step = t.flow.step()
    assert step.ask == "8♣ is not allowed here. Does it stand, or was it taken back?"
    assert step.question is not None and step.question.endswith("(R-TRUMP).")
    assert "say first" in t.refused("card:QH")
    assert t.tap("stands") is P.PLAY
    assert t.flow.script.endswith("play 1 8C") and t.flow.pending is None


def test_a_forbidden_card_taken_back_and_the_hand_played_out() -> None:
    t = until(SHOWN, "card:8C")
    t.taps(["card:8C", "back"])
    assert t.phase is P.PLAY and t.flow.pending == Forbidden(1, c("8C"), back=True)
    assert t.ask.startswith("Seat 1 took 8♣ back: tap the card played instead.")
    assert "was taken back" in t.refused("card:8C")
    assert "does not hold" in t.refused("card:AS")
    t.tap("card:QH")
    assert t.flow.script.endswith("play 1 8C/QH")
    while t.phase is P.PLAY:  # the rest of the hand: the first allowed card each time
        picker = t.flow.step().picker
        assert picker is not None
        first = next(b.title for row in picker.rows() for b in row if "legal" in b.css.split())
        t.tap(f"card:{first}")
    assert t.phase is P.OVER
    words = " ".join(ruling(t.flow.refereed))
    assert "took back 8♣ in trick 2, which was not allowed" in words
    assert "and played Q♥ instead" in words and "its next deal (R-CORRECTED)" in words
    assert refereed_again(t).record == t.flow.refereed.record


def test_a_renege_the_tricks_show_taken_back() -> None:
    t = Table()
    t.taps(taps(TOUR)[:-2])  # all but the table's answer
    assert t.phase is P.FOUND
    assert "The tricks show that seat 1's 8♣ in trick 2 was not allowed" in t.ask
    assert "say first" in t.refused("next")
    assert "does not fit" in t.refused("pass")
    assert t.tap("back") is P.PLAY
    assert t.flow.pending == Forbidden(1, c("8C"), back=True)
    assert t.flow.script.endswith("play 0 6S")  # the hand again from that card
    t.tap("card:QH")
    assert t.flow.script.endswith("play 1 8C/QH")


def test_a_seat_whose_tricks_show_its_hand_is_checked_at_the_end() -> None:
    t = Table()
    t.taps(["dealer:0", "upcard:9H", "play", "change:1", "throw:9D"])
    assert t.flow.script.endswith("decide 1 play 9D")  # nothing drawn, nothing shown
    t.taps(["play", "change:0", "pass", "pass", "play", "change:0"])
    assert t.phase is P.PLAY and t.flow.guessed == {0, 1, 2}
    hold = t.flow.could_hold(1)
    assert c("9D") not in hold and c("9H") not in hold  # thrown; the dealer's upcard
    assert c("9H") in t.flow.could_hold(0)
    assert "cannot be seat 1's card now" in t.refused("card:9D")
    t.tap("card:5S")
    assert c("5S") not in t.flow.could_hold(1)


def test_the_sole_player_shows_its_cards_at_the_end() -> None:
    t = Table()
    t.taps(["dealer:0", "upcard:9H", "play", "change:1", "throw:9D"])
    t.taps(["pass", "pass", "pass", "pass"])
    assert t.phase is P.DEALT and t.flow.pending is None  # the page asks; nothing tapped yet
    assert "R-SOLE" in t.ask and "(1 of 5). 9♦ known." in t.ask
    assert "known to be in seat 1's hand" in t.refused("dealt:9D")
    t.taps(["dealt:KH", "dealt:QH", "dealt:5S"])
    assert t.flow.pending == Exchange(
        1,
        sole=True,
        dealt=tuple(map(c, "9D KH QH 5S".split())),
        change=1,
        throw=(c("9D"),),
        show=True,
    )
    assert t.tap("dealt:8C") is P.DRAW
    assert t.tap("drew:TC") is P.OVER
    assert "dealt 1: 9D KH QH 5S 8C\ndecide 1 play 9D > TC" in t.flow.script
    assert refereed_again(t).record == t.flow.refereed.record


def test_undo_takes_back_one_tap_at_a_time() -> None:
    t = Table()
    forward = ["dealer:0", "upcard:9H", "play", "show", "dealt:KH", "dealt:QH"]
    t.taps(forward)
    states = []
    for _ in forward:
        states.append((t.phase, t.flow.pending, t.flow.script))
        t.tap("undo")
    assert t.phase is P.DEALER and t.flow.script == "" and t.flow.pending is None
    assert "nothing to take back" in t.refused("undo")
    replayed = Table()
    back = []
    for value in forward:
        replayed.tap(value)
        back.append((replayed.phase, replayed.flow.pending, replayed.flow.script))
    assert states == back[::-1]


def test_undo_of_a_whole_line_after_a_card_that_stood() -> None:
    t = until(SHOWN, "card:8C")
    t.taps(["card:8C", "stands"])
    t.tap("undo")
    assert t.phase is P.PLAY and t.flow.pending is None
    assert not t.flow.script.endswith("play 1 8C")


def test_the_next_hand_skips_the_seat_that_lost_its_deal() -> None:
    t = Table()
    t.taps(taps(TOUR))
    assert t.tap("next") is P.UPCARD
    step = t.flow.step()
    assert step.ask.startswith("Seat 2 deals.")
    assert step.help[0].startswith("Seat 1 lost the deal: R-RENEGE: ")
    assert t.flow.script.endswith("\nhand")


def test_the_session_ends_after_its_hands() -> None:
    t = Table(House("standard+table(hands=1)"))
    t.taps(taps(TOUR))
    assert t.phase is P.OVER and not t.flow.step().more
    assert "hands are played (R-SESSION)" in t.refused("next")


@pytest.mark.parametrize(
    ("taps_before", "value", "words"),
    [
        ([], "card:AS", "does not fit"),
        ([], "dealer:5", "no seat '5' at a table of 5"),
        (["dealer:0"], "dealer:1", "does not fit"),
        (["dealer:0", "upcard:9H"], "stands", "may: pass or play"),
        (["dealer:0", "upcard:9H", "play"], "change:6", "changes 0 to 5 cards"),
        (["dealer:0", "upcard:9H", "play", "show"], "change:1", "tap the 5 cards"),
        (["dealer:0", "upcard:9H", "play", "change:1"], "throw:9H", "among its own"),
    ],
)
def test_a_tap_that_does_not_fit_changes_nothing(
    taps_before: list[str], value: str, words: str
) -> None:
    t = Table()
    t.taps(taps_before)
    assert words in t.refused(value)


@pytest.mark.parametrize(
    "pending",
    [
        Exchange(1),
        Exchange(0, dealt=(c("9H"),), show=True),
        Exchange(2, dealt=(1, 2, 3, 4, 5), deck=True, change=2, throw=(1, 2)),
        Exchange(1, sole=True, dealt=(9, 10), change=1, throw=(9,), drew=(), show=True),
        Forbidden(3, c("8C")),
        Forbidden(3, c("8C"), back=True),
    ],
)
def test_the_step_under_way_survives_the_form(pending: Exchange | Forbidden) -> None:
    assert read_pending(pending.text()) == pending


@pytest.mark.parametrize(
    "text",
    ["seat x; decide", "seat 1", "rm -rf /", "seat 1; card AS; dealt KH", "seat 1; decide; back"],
)
def test_a_step_under_way_this_page_did_not_write_is_refused(text: str) -> None:
    with pytest.raises(TapError, match="not one this page wrote"):
        read_pending(text)


def test_a_step_under_way_from_another_hand_is_refused() -> None:
    t = Table()
    t.taps(["dealer:0", "upcard:9H"])
    with pytest.raises(TapError, match="not this hand's"):
        TapFlow(STANDARD, t.flow.script, "seat 3; card AS")
    with pytest.raises(TapError, match="not this hand's"):
        TapFlow(STANDARD, t.flow.script, "seat 1; decide; dealt KH KH")


def test_what_a_seat_may_hold_is_what_nobody_named() -> None:
    hand = parse_script(
        "house standard\nhand dealer 0\nupcard 9H\ndecide 1 play 9D\ndecide 2 pass\n"
        "decide 3 pass\ndecide 4 pass\ndecide 0 play 2C\nplay 1 5S/KS, 0 AS"
    )["hands"][-1]
    told = Told.of(hand)
    assert told.named() == {c(x) for x in "9H 9D 2C 5S KS AS".split()}
    assert [d.seat for _, d in told.unseen()] == [1, 0]
    # what a seat may hold is the referee's answer, so asked of a hand it accepts: the
    # tour's, seat 1 taking back its 8C of trick 2 for QH (R-CORRECTED)
    t = TapFlow(STANDARD, TOUR.split("play 1 8C")[0] + "play 1 8C/QH", "")
    assert t.phase is P.PLAY and t.guessed == {0, 1, 2}
    one = t.could_hold(1)
    assert c("8C") in one  # taken back: still in its hand
    assert c("QH") not in one and c("9D") not in one and c("9H") not in one
    assert c("9H") in t.could_hold(0)  # the dealer's upcard
    assert one == t.refereed.table.could_hold(1, t.stand_ins.cards)
