"""The seeded source of chance outcomes (:class:`Chance`): the deck of each hand,
reshuffles, a random first dealer."""

from __future__ import annotations

from bourre.game.xoshiro import Xoshiro128, stream
from bourre.rules.cards import DECK

__all__ = ["Chance"]


class Chance:
    """The seeded source of chance outcomes: the deck of each hand (shuffled and cut),
    reshuffles, a random first dealer.  Independent of the players' own randomness,
    so every house given one seed sees the same decks (common random numbers)."""

    def __init__(self, seed: int | str) -> None:
        self.seed = seed
        self._gen = stream(f"bourre-deck:{seed}")
        self._reshuffle_gen: Xoshiro128 | None = None  # made when first needed

    @classmethod
    def at(
        cls,
        seed: int | str,
        deck: tuple[int, int, int, int],
        reshuffle: tuple[int, int, int, int] | None = None,
    ) -> Chance:
        """The source of ``seed`` with its streams where another engine left them: the
        deck's and the reshuffle's four words of state (:meth:`Xoshiro128.state`; no
        reshuffle's words: its stream from the start).  A session resumed at a hand's
        start (:func:`bourre.game.resume.resume`) draws the same decks on from there."""
        c = cls.__new__(cls)
        c.seed = seed
        c._gen = Xoshiro128(*deck)
        c._reshuffle_gen = Xoshiro128(*reshuffle) if reshuffle is not None else None
        return c

    def deck(self) -> list[int]:
        """A shuffled and cut deck, top first: Fisher–Yates on the deck's own stream
        (:class:`~bourre.game.xoshiro.Xoshiro128`), 51 words a deal."""
        cards: list[object] = list(DECK)
        self._gen.shuffle(cards)
        return cards  # type: ignore[return-value]

    def reshuffle(self, pile: list[int]) -> list[int]:
        """A new stock from discards (R-RESHUFFLE)."""
        if self._reshuffle_gen is None:  # its own stream: decks never depend on play
            self._reshuffle_gen = stream(f"bourre-reshuffle:{self.seed}")
        new: list[object] = list(pile)
        self._reshuffle_gen.shuffle(new)
        return new  # type: ignore[return-value]

    def seat(self, n: int) -> int:
        """A random seat of ``n`` (the first dealer, when the house draws one)."""
        return self._gen.below(n)

    def copy(self) -> Chance:
        c = Chance.__new__(Chance)
        c.seed = self.seed
        c._gen = self._gen.copy()
        g = self._reshuffle_gen
        c._reshuffle_gen = g.copy() if g is not None else None
        return c
