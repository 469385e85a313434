"""The person at the keyboard as a player (:class:`TerminalPlayer`), for
``bourre play``: the game asks it the same three questions it asks a bot (play or
pass, which cards to discard, which card to play); it shows what that seat may see
(an :class:`~bourre.game.observation.Observation`) and reads the answer line by line.  An
answer the rules forbid is refused in the words of the rule component that forbids it
and asked again.  The session around it is :mod:`bourre.cli.session`.

What it shows is :mod:`bourre.cli.display`; how an answer is read, :mod:`bourre.cli.prompt`
(re-exported here).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Literal

from rich.console import Console
from rich.text import Text

from bourre.cli.display import TableDisplay
from bourre.cli.prompt import EndOfInput, Prompt, Reader, stdin_reader
from bourre.game.actions import CARDS, Action, discard
from bourre.game.observation import Observation
from bourre.rules import RuleViolation
from bourre.rules.cards import CardError, card_str, card_symbol, display_order, parse_card

__all__ = ["EndOfInput", "Prompt", "Reader", "TerminalPlayer", "stdin_reader"]


HELP = """\
Answers:
  decide   play | pass               (also y / n)
  discard  cards or positions separated by spaces (JH 10H, or 1 3), 'all',
           or an empty line to stand pat
  card     a card (JH, 10H, th) or its position in your hand (1, 2, …)
  any time ? for this help, quit to stop (the completed hands are kept)"""


class TerminalPlayer(TableDisplay):
    """A person at the terminal (implements :class:`bourre.game.players.Player`)."""

    def __init__(
        self,
        seat: int,
        console: Console,
        read: Reader,
        *,
        names: Sequence[str],
        hints: bool = False,
        auto_forced: bool = False,
    ) -> None:
        super().__init__(seat, console, names=names, hints=hints)
        self.read = read
        self.auto_forced = auto_forced
        """Play a card without asking when it is the only legal one."""
        self.why_not: Callable[[Action], RuleViolation | None] = lambda a: None
        """The referee: why an answer is refused (set by :func:`play_at_terminal`)."""

    # -- the Player protocol ----------------------------------------------------------

    def decide(self, view: Observation) -> bool:
        self._catch_up(view.number, view.decisions, view.tricks)
        self._show(view)
        if view.forced is not None:
            self.console.print(
                f"You must play ({view.forced}): {self.words.get(view.forced, view.forced)}",
                highlight=False,
            )
            return True
        while True:
            answer = self._ask("decide", view, "Play or pass? [play/pass]").strip().lower()
            if answer in ("play", "pl", "y", "yes"):
                return True
            if answer in ("pass", "pa", "n", "no"):
                return False
            self.console.print("Answer play or pass.", highlight=False)

    def discard(self, view: Observation) -> list[int]:
        self._catch_up(view.number, view.decisions, view.tricks)
        shown = display_order(view.hand, view.trump)
        self._show_hand(view, shown)
        while True:
            text = self._ask(
                "discard",
                view,
                f"Discard which cards? (0 to {view.hand_size}; empty line to stand pat)",
                shown,
            )
            tokens = text.replace(",", " ").split()
            if len(tokens) == 1 and tokens[0].lower() == "all":
                tokens = [str(i + 1) for i in range(len(shown))]
            cards: list[int] = []
            problem = None
            for tok in tokens:
                card, problem = self._card_of(tok, shown)
                if card is None:
                    break
                if card in cards:
                    problem = f"{card_symbol(card)} is named twice (R-DRAW)"
                    break
                cards.append(card)
            if problem is None:
                refused = self.why_not(discard(cards))
                problem = str(refused) if refused is not None else None
            if problem is not None:
                self._refused(problem)
                continue
            return cards

    def play(self, view: Observation) -> int:
        self._catch_up(view.number, view.decisions, view.tricks)
        shown = display_order(view.hand, view.trump)
        self._show(view, shown, playing=True)
        if self.auto_forced and len(view.legal) == 1:
            return self._forced(view, view.legal[0])
        while True:
            card, problem = self._card_of(
                self._ask(
                    "play", view, f"Your card (e.g. {card_str(shown[0])} or 1-{len(shown)}):", shown
                ),
                shown,
            )
            if card is None:
                self._refused(problem)
                continue
            refused = self.why_not(CARDS[card])
            if refused is not None:
                legal = " ".join(card_symbol(c) for c in display_order(view.legal, view.trump))
                self._refused(
                    f"{card_symbol(card)} is not allowed ({refused.rule}):"
                    f" {refused.reason}. Legal: {legal}"
                )
                continue
            return card

    def _forced(self, view: Observation, card: int) -> int:
        """The only legal card, played without asking and said with the rule that
        leaves it alone (the refusal of any other card held: R-FOLLOW, R-TRUMP, …)."""
        others = [c for c in view.hand if c != card]
        refused = self.why_not(CARDS[others[0]]) if others else None
        why = f"your only legal card ({refused.rule})" if refused else "your last card"
        self.console.print(f"You play {card_symbol(card)}: {why}.", highlight=False)
        return card

    def _refused(self, why: str | None) -> None:
        """A refused answer: a red ✗, then the words as they are (never read as markup)."""
        self.console.print(Text.assemble(("✗", "red"), " ", why or ""), highlight=False)

    # -- input ------------------------------------------------------------------------

    def _ask(
        self,
        kind: Literal["decide", "discard", "play"],
        view: Observation,
        text: str,
        shown: tuple[int, ...] = (),
    ) -> str:
        while True:
            answer = self.read(Prompt(kind, view, text, shown))
            word = answer.strip().lower()
            if word in ("?", "help"):
                self.console.print(HELP, markup=False, highlight=False)
                continue
            if word in ("quit", "exit"):
                raise EndOfInput("quit")
            return answer

    @staticmethod
    def _card_of(token: str, shown: Sequence[int]) -> tuple[int | None, str | None]:
        tok = token.strip()
        if not tok:
            return None, "type a card (e.g. JH, 10H) or its position"
        if tok.isascii() and tok.isdigit() and len(tok) <= 3:  # not ², nor 40 digits
            i = int(tok)
            if not 1 <= i <= len(shown):
                return None, f"no card at position {i}: positions are 1 to {len(shown)}"
            return shown[i - 1], None
        try:
            card = parse_card(tok)
        except CardError as e:
            return None, str(e)
        if card not in shown:
            return None, f"you do not hold {card_symbol(card)}"
        return card, None
