"""How an answer is read from the person at the keyboard: the question
(:class:`Prompt`), the reader that answers it (:data:`Reader`; :func:`stdin_reader`
reads standard input line by line) and the end of the input (:class:`EndOfInput`)."""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import IO, Literal

from rich.console import Console

from bourre.game.observation import Observation
from bourre.game.playerbase import SessionStop

__all__ = ["EndOfInput", "Prompt", "Reader", "stdin_reader"]


class EndOfInput(SessionStop):
    """The input ended (or the player typed ``quit``): the session stops."""


@dataclass(frozen=True)
class Prompt:
    """A question put to the person at the keyboard."""

    kind: Literal["decide", "discard", "play"]
    view: Observation
    text: str
    shown: tuple[int, ...]
    """The hand as displayed: position ``i`` (1-based) is ``shown[i - 1]``."""


Reader = Callable[[Prompt], str]
"""Reads one answer (a line without its end) for a prompt; raises
:class:`EndOfInput` when there is none."""


def stdin_reader(console: Console, stream: IO[str] | None = None) -> Reader:
    """Answers read line by line from ``stream`` (default: standard input).  When the
    input is not a terminal the answers are echoed, so the transcript reads well."""

    def read(prompt: Prompt) -> str:
        s = stream if stream is not None else sys.stdin
        isatty = getattr(s, "isatty", None)
        if s is sys.stdin and isatty is not None and isatty():
            try:  # a terminal: line editing through input()
                return console.input(prompt.text + " ", markup=False)
            except EOFError:
                console.print()
                raise EndOfInput("end of input") from None
        console.print(prompt.text, end=" ", markup=False, highlight=False)
        console.file.flush()
        line = s.readline()
        if not line:
            console.print()
            raise EndOfInput("end of input")
        line = line.rstrip("\r\n")
        console.print(line, markup=False, highlight=False)  # a transcript that reads well
        return line

    return read
