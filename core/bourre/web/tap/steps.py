"""Each phase's step: what the page shows (:meth:`PhaseStep.view`) and what a tap does
(:meth:`PhaseStep.tap`), side by side; :data:`STEPS` maps each
:class:`~bourre.web.tap.phases.Phase` to its step.

What a card may be, and why not, is the house's rule components' answer; nothing here
restates a rule.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import replace

from bourre.rules.cards import card_str, card_symbol, display_order
from bourre.rules.person import of_seat

from .form import Exchange, Forbidden, Tap, TapError
from .hand import TappedHand
from .page import Button, Picker, Step, count, symbols
from .phases import Phase
from .table import allowed, legal

__all__ = ["STEPS", "PhaseStep"]

_DOES_NOT_FIT = "that tap does not fit this step of the hand: tap again"


class PhaseStep(ABC):
    """A phase's step."""

    @abstractmethod
    def view(self, h: TappedHand) -> Step:
        """What the page shows."""

    @abstractmethod
    def tap(self, h: TappedHand, tap: Tap) -> None:
        """Apply a tap; :class:`TapError` if it does not fit."""


class Broken(PhaseStep):
    def view(self, h: TappedHand) -> Step:
        return Step("This hand cannot go on as written: take back the last step.")

    def tap(self, h: TappedHand, tap: Tap) -> None:
        raise TapError(_DOES_NOT_FIT)


class Dealer(PhaseStep):
    def view(self, h: TappedHand) -> Step:
        return Step(
            "Who deals? Tap the dealer's seat.",
            buttons=tuple(Button(f"dealer:{s}", f"Seat {s}", "seat") for s in range(h.n)),
        )

    def tap(self, h: TappedHand, tap: Tap) -> None:
        if tap.verb != "dealer":
            raise TapError(_DOES_NOT_FIT)
        seat = tap.number()
        if seat is None or seat >= h.n:
            raise TapError(f"no seat {tap.arg!r} at a table of {h.n} (R-SEAT)")
        h.commit(f"hand dealer {seat}")


class Upcard(PhaseStep):
    def view(self, h: TappedHand) -> Step:
        dealer, skipped = h.dealer_seat()
        lost = [
            f"Seat {s} lost the deal: " + "; ".join(h.cite(r) for r in rules)
            for s, rules in skipped
        ]
        return Step(
            f"Seat {dealer} deals. "
            "Tap the upcard: the dealer's last card, dealt face up. Its suit is trump.",
            help=tuple(lost),
            picker=Picker("upcard", frozenset(range(52))),
        )

    def tap(self, h: TappedHand, tap: Tap) -> None:
        if tap.verb != "upcard":
            raise TapError(_DOES_NOT_FIT)
        h.commit(f"upcard {card_str(tap.card())}")


class Decide(PhaseStep):
    """Pass or play (R-DECIDE); a seat that plays is then tapped as an exchange.  While
    the seats announce in turn, a seat may announce out of turn (R-PREMATURE): it
    loses its next turn to deal, and the step records it (``premature N``)."""

    def _premature(self, h: TappedHand) -> tuple[Button, ...]:
        """A button for each seat that may announce out of turn now: any but the seat
        whose turn it is, once a hand (the lost turn is one mark, R-PREMATURE)."""
        if not h.announces:
            return ()
        said = h.premature_now()
        return tuple(
            Button(f"premature:{s}", f"Seat {s}", "seat")
            for s in range(h.n)
            if s != h.seat and s not in said
        )

    def view(self, h: TappedHand) -> Step:
        seat = h.seat
        aside = self._premature(h)
        ask = "Did a seat announce before its turn? It loses its next turn to deal (R-PREMATURE)."
        if h.legal_words == ["play"]:
            return Step(
                f"Seat {seat} must play.",
                help=tuple(h.cite(r) for r in h.rules_now),
                buttons=(Button("play", f"Seat {seat} plays", "primary"),),
                aside=aside,
                aside_ask=ask,
            )
        return Step(
            f"Seat {seat}: pass or play?",
            buttons=(
                Button("pass", f"Seat {seat} passes"),
                Button("play", f"Seat {seat} plays", "primary"),
            ),
            aside=aside,
            aside_ask=ask,
        )

    def tap(self, h: TappedHand, tap: Tap) -> None:
        seat, legal_words = h.seat, h.legal_words
        if tap.verb == "premature":
            who = tap.number()
            if who is None or who not in {
                int(b.value.partition(":")[2]) for b in self._premature(h)
            }:
                raise TapError(
                    f"an announcement out of turn: a seat other than seat {seat}, once a hand,"
                    " where players announce in turn (R-PREMATURE)"
                )
            h.commit(f"premature {who}")
            return
        if tap.verb not in ("pass", "play") or tap.verb not in legal_words:
            raise TapError(f"seat {seat} may: {' or '.join(legal_words)} (R-DECIDE)")
        if tap.verb == "pass":
            h.commit(f"decide {seat} pass")
            return
        t = h.table
        known = not t.hidden[seat] and seat not in h.guessed  # a deck: its cards known
        dealt = t.hands[seat] if known else (t.upcard,) if seat == t.dealer else ()
        h.pending = Exchange(seat, dealt=dealt, deck=known)


class DealtCards(PhaseStep):
    """The cards a seat was dealt: it shows them, or (R-SOLE) the hand is over and its
    tricks do not show them."""

    def view(self, h: TappedHand) -> Step:
        p = h.exchange()
        fixed = frozenset(p.dealt[: h.fixed(p)])
        enabled = h.unnamed() | (set(p.dealt) - fixed)
        why = (
            f"Seat {p.seat} took the pot without playing a card, so its tricks do not"
            f" show its hand ({h.cite('R-SOLE')}). "
            if p.sole
            else f"Seat {p.seat} plays: "
        )
        known = f" {symbols(sorted(fixed))} known." if fixed else ""
        return Step(
            f"{why}Tap the {h.size} cards it was dealt ({len(p.dealt)} of {h.size}).{known}",
            help=("Tap a card again to take it back.",),
            picker=Picker("dealt", frozenset(enabled), frozenset(p.dealt)),
        )

    def tap(self, h: TappedHand, tap: Tap) -> None:
        p = h.pending = h.exchange()
        if tap.verb != "dealt":
            raise TapError(f"tap the {h.size} cards seat {p.seat} was dealt first")
        c = tap.card()
        if c in p.dealt:
            if p.dealt.index(c) < h.fixed(p):
                raise TapError(f"{card_symbol(c)} is known to be in seat {p.seat}'s hand")
            p = replace(p, dealt=tuple(x for x in p.dealt if x != c))
        elif c not in h.unnamed():
            raise TapError(f"{card_symbol(c)} is already elsewhere (R-DECK)")
        else:
            p = replace(p, dealt=(*p.dealt, c))
        h.pending = p
        if len(p.dealt) == h.size and not p.sole:
            h.limit(p)  # refuses a hand the deal cannot give, now
        if len(p.dealt) == h.size and p.sole and not p.change:
            h.commit_exchange(p)


class Change(PhaseStep):
    """How many cards a seat that plays changes (R-DRAW)."""

    def view(self, h: TappedHand) -> Step:
        p = h.exchange()
        limit = h.limit(p)
        holds = (
            f" It holds {symbols(display_order(list(p.dealt), h.table.trump))}."
            if p.show or p.deck
            else ""
        )
        buttons = [Button("change:0", "None (stands pat)")] + [
            Button(f"change:{k}", str(k), "seat") for k in range(1, limit + 1)
        ]
        help = []
        if not p.show and not p.deck:
            buttons.append(Button("show", "Show its cards first", "secondary"))
            help.append(
                "Its cards need not be tapped: once the hand is played out, they all"
                " show in the tricks, and every card is checked then. Show them first"
                " to have each card checked as it is played."
            )
        return Step(
            f"How many cards does seat {p.seat} change?{holds}",
            help=tuple(help),
            buttons=tuple(buttons),
        )

    def tap(self, h: TappedHand, tap: Tap) -> None:
        p = h.exchange()
        if tap.verb == "show" and not p.show and not p.deck:
            h.pending = replace(p, show=True)
            return
        limit = h.limit(p)
        k = tap.number()
        if tap.verb != "change" or k is None or k > limit:
            raise TapError(f"seat {p.seat} changes 0 to {limit} cards (R-DRAW)")
        p = h.pending = replace(p, change=k)
        if k == 0:
            h.commit_exchange(p)


class Throw(PhaseStep):
    """Which cards a seat that plays threw."""

    def view(self, h: TappedHand) -> Step:
        p = h.exchange()
        assert p.change is not None
        return Step(
            f"Which {count(p.change)} does seat {p.seat} throw? ({len(p.throw)} of {p.change})",
            picker=Picker("throw", frozenset(h.throwable(p) | set(p.throw)), frozenset(p.throw)),
        )

    def tap(self, h: TappedHand, tap: Tap) -> None:
        p = h.exchange()
        c = tap.card() if tap.verb == "throw" else -1
        if c in p.throw:
            p = replace(p, throw=tuple(x for x in p.throw if x != c))
        elif c in h.throwable(p):
            p = replace(p, throw=(*p.throw, c))
        else:
            raise TapError(f"tap the cards seat {p.seat} threw, among its own")
        h.pending = p
        if len(p.throw) == p.change and not p.gives_drawn:
            h.commit_exchange(p)


class Draw(PhaseStep):
    """Which cards a seat that shows its cards drew (the deck runs out: R-RESHUFFLE)."""

    def view(self, h: TappedHand) -> Step:
        p = h.exchange()
        assert p.change is not None
        return Step(
            f"Which {count(p.change)} did seat {p.seat} draw? ({len(p.drew)} of {p.change})",
            picker=Picker("drew", frozenset(h.drawable(p) | set(p.drew)), frozenset(p.drew)),
        )

    def tap(self, h: TappedHand, tap: Tap) -> None:
        p = h.pending = h.exchange()
        if tap.verb != "drew":
            raise TapError(f"tap the cards seat {p.seat} drew")
        c = tap.card()
        if c in p.drew:
            h.pending = replace(p, drew=tuple(x for x in p.drew if x != c))
            return
        if c not in h.drawable(p):
            raise TapError(f"{card_symbol(c)} is already elsewhere (R-DECK)")
        p = h.pending = replace(p, drew=(*p.drew, c))
        if len(p.drew) == p.change:
            h.commit_exchange(p)


class CardPlayed(PhaseStep):
    """The card a seat played: checked now if its cards are known; else (its tricks
    will show its hand) checked when the hand is over."""

    def _trick(self, h: TappedHand) -> tuple[dict[int, str], str]:
        t = h.table
        marks = {c: "played" for c in t.played | {c for _, c in t.trick}}
        so_far = [f"seat {s} {card_symbol(c)}" for s, c in t.trick]
        lead = f" The trick so far: {', '.join(so_far)}." if so_far else f" Seat {h.seat} leads."
        return marks, lead

    def view(self, h: TappedHand) -> Step:
        seat, p = h.seat, h.pending
        marks, lead = self._trick(h)
        ask = f"Trick {h.table.tricks + 1}: tap the card seat {seat} played.{lead}"
        back = p.card if isinstance(p, Forbidden) else None
        if back is not None:
            marks[back] = "back"
            ask = f"Seat {seat} took {card_symbol(back)} back: tap the card played instead.{lead}"
        if seat in h.guessed:
            return Step(
                ask,
                help=(
                    f"Seat {seat}'s cards are checked when the hand is over, as its tricks"
                    " show them. Grey: played, or known to be elsewhere.",
                ),
                picker=Picker("card", frozenset(h.could_hold(seat) - {back}), marks=marks),
            )
        ok = legal(h.refereed)
        held = set(h.table.hands[seat])
        for c in held:
            marks[c] = "legal" if c in ok.cards else "illegal"
        if back is not None:
            marks[back] = "back"
        allowed_ = ", ".join(card_symbol(c) for c in display_order(list(ok.cards), h.table.trump))
        why = "; ".join(f"{of_seat(r.words)} ({r.rule})" for r in ok.reasons)
        return Step(
            ask,
            help=(f"Allowed (green): {allowed_}. {why[:1].upper()}{why[1:]}.",),
            picker=Picker("card", frozenset(held - {back}), marks=marks),
        )

    def tap(self, h: TappedHand, tap: Tap) -> None:
        seat, p = h.seat, h.pending
        back = p.card if isinstance(p, Forbidden) else None
        if seat in h.guessed:  # its cards will show in the tricks: checked at the end
            if tap.verb != "card" or (isinstance(p, Forbidden) and not p.back):
                raise TapError(f"tap the card seat {seat} played")
            c = tap.card()
            if c not in h.could_hold(seat) or c == back:
                raise TapError(f"{card_symbol(c)} cannot be seat {seat}'s card now (R-DECK)")
        else:
            if tap.verb != "card":
                raise TapError(f"tap the card seat {seat} played")
            c = tap.card()
            if c not in h.table.hands[seat]:
                raise TapError(f"seat {seat} does not hold {card_symbol(c)} (R-DEAL)")
            if c == back:
                raise TapError(f"{card_symbol(c)} was taken back: tap the card played instead")
            if back is None and not allowed(h.refereed, c):
                h.pending = Forbidden(seat, c)
                return
        if back is not None:  # the card played instead of one taken back
            h.commit(f"play {seat} {card_str(back)}/{card_str(c)}")
        else:
            h.commit(f"play {seat} {card_str(c)}")


class Rule(PhaseStep):
    """A card the rules forbid: does it stand (R-RENEGE), or was it taken back
    (R-CORRECTED)?"""

    def view(self, h: TappedHand) -> Step:
        p = h.pending
        assert isinstance(p, Forbidden)
        reason = legal(h.refereed).reason_for(p.card)
        return Step(
            f"{card_symbol(p.card)} is not allowed here. Does it stand, or was it taken back?",
            question=(
                f"Seat {p.seat} played {card_symbol(p.card)}: {of_seat(reason.words)}"
                f" ({reason.rule})."
            ),
            help=(h.cite("R-RENEGE"), h.cite("R-CORRECTED")),
            buttons=(
                Button("stands", "It stands: a renege (R-RENEGE)", "warn"),
                Button("back", "Taken back before the next card (R-CORRECTED)", "primary"),
            ),
        )

    def tap(self, h: TappedHand, tap: Tap) -> None:
        p = h.pending
        assert isinstance(p, Forbidden)
        if tap.verb == "stands":
            h.commit(f"play {p.seat} {card_str(p.card)}")
        elif tap.verb == "back":
            h.pending = replace(p, back=True)
        else:
            raise TapError("say first whether the card stands or was taken back")


class Found(PhaseStep):
    """The hand is over, and its tricks show that a card of a seat that did not show
    its hand was not allowed: did it stand?"""

    def view(self, h: TappedHand) -> Step:
        r = h.found_later()[0]
        why = f"{of_seat(r.why.words)} ({r.why.rule})" if r.why is not None else ""
        return Step(
            f"The hand is over. The tricks show that seat {r.seat}'s {card_symbol(r.card)} in"
            f" trick {r.trick} was not allowed. Did it stand, or was it taken back?",
            question=f"Seat {r.seat} played {card_symbol(r.card)} in trick {r.trick}: {why}.",
            help=(h.cite("R-RENEGE"), h.cite("R-CORRECTED")),
            buttons=(
                Button("stands", "It stood: a renege (R-RENEGE)", "warn"),
                Button(
                    "back", "Taken back before the next card (R-CORRECTED): tap again from there"
                ),
            ),
        )

    def tap(self, h: TappedHand, tap: Tap) -> None:
        r = h.found_later()[0]
        if tap.verb == "next":
            raise TapError("say first whether the card the tricks show stood")
        if tap.verb == "stands":
            h.let_stand(r)
        elif tap.verb == "back":
            h.take_back(r)
        else:
            raise TapError(_DOES_NOT_FIT)


class Over(PhaseStep):
    def view(self, h: TappedHand) -> Step:
        return Step("The hand is over.", over=True, more=h.more())

    def tap(self, h: TappedHand, tap: Tap) -> None:
        if tap.verb != "next":
            raise TapError(_DOES_NOT_FIT)
        if not h.more():
            raise TapError(f"the session's {h.house.table.hands} hands are played (R-SESSION)")
        h.commit("hand")


STEPS: dict[Phase, PhaseStep] = {
    Phase.BROKEN: Broken(),
    Phase.DEALER: Dealer(),
    Phase.UPCARD: Upcard(),
    Phase.DECIDE: Decide(),
    Phase.DEALT: DealtCards(),
    Phase.CHANGE: Change(),
    Phase.THROW: Throw(),
    Phase.DRAW: Draw(),
    Phase.PLAY: CardPlayed(),
    Phase.RULE: Rule(),
    Phase.FOUND: Found(),
    Phase.OVER: Over(),
}
"""The one dispatcher: each phase's step."""
