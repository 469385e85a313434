"""What the person at the keyboard is shown (:class:`TableDisplay`): before each
question the table (the hand, the upcard and trump, each seat's balance and
decision, the trick so far), the public events since the last question (decisions,
completed tricks), and at the end of each hand who took the pot, who is bourré and
why, with the balances."""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Console
from rich.table import Table

from bourre.game.observation import Observation
from bourre.game.state import HandResult
from bourre.houses.house import House
from bourre.rules.cards import SUIT_NAMES, SUIT_SYMBOLS, card_symbol, display_order
from bourre.rules.hand import PublicDecision, TrickLog
from bourre.rules.money import Amount, decimal

__all__ = ["TableDisplay", "chips"]


class TableDisplay:
    """What seat ``seat`` is shown on ``console``, the seats named ``names``; with
    ``hints``, the legal cards in green."""

    def __init__(
        self, seat: int, console: Console, *, names: Sequence[str], hints: bool = False
    ) -> None:
        self.seat = seat
        self.console = console
        self.names = list(names)
        self.hints = hints
        self.words: dict[str, str] = {}
        """Each rule id's text in this house (for telling why)."""
        self._number = -1
        self._decisions_seen = 0
        self._tricks_seen = 0

    # -- the table and the public events ----------------------------------------------

    def _name(self, seat: int) -> str:
        return "You" if seat == self.seat else f"Seat {seat}"

    def _catch_up(
        self,
        number: int,
        decisions: Sequence[PublicDecision],
        tricks: Sequence[TrickLog],
    ) -> None:
        """Print the public events (decisions, completed tricks) not yet shown."""
        if number != self._number:
            self._number = number
            self._decisions_seen = self._tricks_seen = 0
        for d in decisions[self._decisions_seen :]:
            who = self._name(d.seat)
            if not d.play:
                self.console.print(f"{who} {'pass' if d.seat == self.seat else 'passes'}.")
            else:
                verb = "play" if d.seat == self.seat else "plays"
                cards = f"{d.exchanged} card{'s' if d.exchanged != 1 else ''}"
                ex = f"exchanges {cards}" if d.exchanged else "stands pat"
                if d.seat == self.seat:
                    ex = f"exchange {cards}" if d.exchanged else "stand pat"
                self.console.print(f"{who} {verb} and {ex}.")
        self._decisions_seen = len(decisions)
        for i, t in enumerate(tricks[self._tricks_seen :], start=self._tricks_seen + 1):
            plays = ", ".join(f"{self._name(s)} {card_symbol(c)}" for s, c in t.plays)
            takes = "take" if t.winner == self.seat else "takes"
            self.console.print(
                f"Trick {i}: {plays} → {self._name(t.winner)} {takes} it.", highlight=False
            )
        self._tricks_seen = len(tricks)

    def _show(
        self, view: Observation, shown: tuple[int, ...] | None = None, playing: bool = False
    ) -> None:
        c = self.console
        trump = view.trump
        c.print(
            f"[bold]Hand {view.number}[/bold] · dealer {self._name(view.dealer)} · upcard"
            f" {card_symbol(view.upcard)} · trump {SUIT_SYMBOLS[trump]} {SUIT_NAMES[trump]}"
            f" · pot {chips(view.pot)}",
            highlight=False,
        )
        decided = {d.seat: d for d in view.decisions}
        table = Table(box=None, pad_edge=False, show_header=True, header_style="bold")
        for col in ("seat", "player", "balance", "this hand", "tricks"):
            table.add_column(col, justify="right" if col in ("balance", "tricks") else "left")
        for s in range(view.players):
            d = decided.get(s)
            status = (
                "—" if d is None else ("passed" if not d.play else f"plays, exch. {d.exchanged}")
            )
            if s == view.dealer:
                status += " (dealer)"
            tricks = str(view.tricks_won[s]) if d is not None and d.play else ""
            table.add_row(str(s), self.names[s], chips(view.balances[s]), status, tricks)
        c.print(table)
        if playing:
            done = len(view.tricks) + 1
            if view.trick:
                so_far = ", ".join(f"{self._name(s)} {card_symbol(x)}" for s, x in view.trick)
                c.print(f"Trick {done} so far: {so_far}", highlight=False)
            else:
                c.print(f"Trick {done}: you lead.", highlight=False)
            if view.cinch:
                rule = "R-CINCH-FOLLOW" if view.trick else "R-CINCH-LEAD"
                c.print(
                    f"[bold yellow]You have a cinch (R-SURE)[/bold yellow]:"
                    f" {self.words.get(rule, rule)} ({rule})",
                    highlight=False,
                )
        self._show_hand(
            view, shown if shown is not None else display_order(view.hand, trump), playing
        )

    def _show_hand(self, view: Observation, shown: Sequence[int], playing: bool = False) -> None:
        legal = set(view.legal) if playing and self.hints else set()
        parts = []
        for i, card in enumerate(shown, start=1):
            text = f"{i}:{card_symbol(card)}"
            parts.append(f"[bold green]{text}[/bold green]" if card in legal else text)
        hint = "  (legal in green)" if legal else ""
        self.console.print("Your hand: " + "  ".join(parts) + hint, highlight=False)

    # -- the end of a hand --------------------------------------------------------------

    def hand_over(self, res: HandResult, house: House) -> None:
        """The rest of the hand and its summary: who took the pot, who is bourré and
        why, in the payout component's words (its :class:`~bourre.rules.HandOutcome`'s
        reasons)."""
        st, out, c = res.state, res.outcome, self.console
        self._catch_up(res.number, st.decisions, st.tricks)
        name = self._name
        c.print(f"[bold]Hand {res.number} is over.[/bold]")
        if len(st.active) > 1:
            c.print(
                "Tricks won: " + ", ".join(f"{name(s)} {st.won[s]}" for s in st.active),
                highlight=False,
            )
        for why in out.reasons:  # the payout component's own reasons, in its order
            c.print(f"{why.words[0].upper()}{why.words[1:]} ({why.rule}).", highlight=False)
        c.print(f"Pot carried to the next hand: {chips(out.pot_after)}.", highlight=False)
        self._balances(res.balances)

    def _balances(self, balances: Sequence[Amount], ranks: Sequence[int] | None = None) -> None:
        table = Table(box=None, pad_edge=False, header_style="bold")
        table.add_column("seat")
        table.add_column("player")
        table.add_column("balance", justify="right")
        if ranks is not None:
            table.add_column("place", justify="right")
        for s, b in enumerate(balances):
            row = [str(s), self.names[s], chips(b)]
            if ranks is not None:
                row.append(str(ranks[s]))
            table.add_row(*row)
        self.console.print(table)


def chips(x: Amount) -> str:
    """An amount of chips as a player reads it, in decimals (``86.8``, not ``434/5``;
    the saved scripts keep it exact)."""
    return decimal(x)


def _and(names: Sequence[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
