"""Bots in their own process (``--isolate``): for bots nobody vouches for.

In-process Python code can never be fully sandboxed: a bot can walk the interpreter's
frames and objects.  An isolated bot runs in a child process that holds nothing but
the bot, and speaks a small protocol over its standard input and output, one JSON
object per line:

- parent → child: ``{"observation": {...}}`` (every field of an
  :class:`~bourre.game.observation.Observation`; cards as ints, amounts as JSON amounts,
  actions in the table's words), or ``{"reset": SEED}`` (a new session: the bot is
  made again with a generator seeded by ``SEED``);
- child → parent: ``{"action": "play"}`` (``pass``, ``play``, ``discard 2C 3D``,
  ``stand pat`` or a card such as ``JH``), or ``{"error": "…"}``.

The parent waits at most ``timeout`` seconds for each answer; a bot that is slower,
crashes or answers nonsense is stopped and reported by name (:class:`BotError`).
The child is started as ``python -m bourre.game.isolate CONFIG`` (``CONFIG`` a JSON
object: ``bot``, ``options``, ``house``, ``seed``).
"""

from __future__ import annotations

import json
import os
import random
import select
import subprocess
import sys
from typing import Any

from bourre.game.actions import Action, parse_action
from bourre.game.observation import Discards, Observation
from bourre.rules.hand import PublicDecision, TrickLog
from bourre.rules.money import amount_json, parse_amount

__all__ = ["BotError", "IsolatedBot", "observation_from_json", "observation_to_json"]


class BotError(RuntimeError):
    """An isolated bot that was too slow, crashed or answered nonsense."""

    def __init__(self, bot: str, message: str) -> None:
        super().__init__(f"bot {bot!r}: {message}")
        self.bot, self.message = bot, message

    def __reduce__(self) -> tuple[object, ...]:
        return (BotError, (self.bot, self.message))


def observation_to_json(o: Observation) -> dict[str, Any]:
    """An observation as JSON (the protocol's message)."""
    return {
        "seat": o.seat,
        "players": o.players,
        "hand_size": o.hand_size,
        "number": o.number,
        "dealer": o.dealer,
        "upcard": o.upcard,
        "trump": o.trump,
        "hand": list(o.hand),
        "own_discards": list(o.own_discards),
        "decisions": [list(d) for d in o.decisions],
        "active": list(o.active),
        "tricks": [[t.leader, [list(p) for p in t.plays], t.winner] for t in o.tricks],
        "trick": [list(p) for p in o.trick],
        "tricks_won": list(o.tricks_won),
        "pot": amount_json(o.pot),
        "balances": [amount_json(b) for b in o.balances],
        "stock_size": o.stock_size,
        "to_act": o.to_act,
        "phase": o.phase,
        "legal_actions": [] if o.phase == "exchange" else [str(a) for a in o.legal_actions],
        "legal": list(o.legal),
        "cinch": o.cinch,
        "forced": o.forced,
        "my_decision": o.my_decision,
        "gave": list(o.gave),
        "got": list(o.got),
        "exchange_limit": o.exchange_limit,
    }


def observation_from_json(d: dict[str, Any]) -> Observation:
    """The observation a protocol message describes."""
    hand = tuple(int(c) for c in d["hand"])
    legal_actions: Any
    if d["phase"] == "exchange" and d["to_act"] == d["seat"]:
        legal_actions = Discards(hand, int(d["exchange_limit"]))
    else:
        legal_actions = tuple(parse_action(a) for a in d["legal_actions"])
    return Observation(
        int(d["seat"]),
        int(d["players"]),
        int(d["hand_size"]),
        int(d["number"]),
        int(d["dealer"]),
        int(d["upcard"]),
        int(d["trump"]),
        hand,
        tuple(d["own_discards"]),
        tuple(PublicDecision(int(s), bool(p), int(k)) for s, p, k in d["decisions"]),
        tuple(d["active"]),
        tuple(
            TrickLog(int(lead), tuple((int(s), int(c)) for s, c in plays), int(w))
            for lead, plays, w in d["tricks"]
        ),
        tuple((int(s), int(c)) for s, c in d["trick"]),
        tuple(d["tricks_won"]),
        parse_amount(d["pot"]),
        tuple(parse_amount(b) for b in d["balances"]),
        int(d["stock_size"]),
        int(d["to_act"]),
        str(d["phase"]),
        legal_actions,
        tuple(d["legal"]),
        bool(d["cinch"]),
        d["forced"],
        int(d["my_decision"]),
        tuple(d["gave"]),
        tuple(d["got"]),
        int(d["exchange_limit"]),
    )


class IsolatedBot:
    """A bot in a child process (see the module's protocol).  Implements
    :class:`~bourre.rules.Bot`: ``act(view)``."""

    def __init__(
        self,
        bot: str,
        options: dict[str, Any] | None = None,
        *,
        house: str = "standard",
        seed: str = "0",
        timeout: float = 10.0,
    ) -> None:
        self.bot, self.timeout = bot, timeout
        config = {"bot": bot, "options": options or {}, "house": house, "seed": seed}
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "bourre.game.isolate", json.dumps(config)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            bufsize=1,
        )

    def _ask(self, message: dict[str, Any]) -> dict[str, Any]:
        proc = self.proc
        if proc.poll() is not None:
            raise BotError(self.bot, f"its process ended (status {proc.returncode})")
        assert proc.stdin is not None and proc.stdout is not None
        try:
            proc.stdin.write(json.dumps(message) + "\n")
            proc.stdin.flush()
        except (BrokenPipeError, OSError):
            raise BotError(self.bot, "its process ended") from None
        ready, _, _ = select.select([proc.stdout], [], [], self.timeout)
        if not ready:
            self.close()
            raise BotError(self.bot, f"no answer within {self.timeout:g} s (its time limit)")
        line = proc.stdout.readline()
        try:
            answer = json.loads(line)
            if not isinstance(answer, dict):
                raise ValueError(line)
        except ValueError:
            self.close()
            raise BotError(self.bot, f"answered {line[:80]!r}, not a protocol message") from None
        if "error" in answer:
            raise BotError(self.bot, str(answer["error"])[:500])
        return answer

    def reset(self, seed: str) -> None:
        """A new session: the bot is made again, its generator seeded by ``seed``."""
        self._ask({"reset": seed})

    def act(self, view: Observation) -> Action:
        answer = self._ask({"observation": observation_to_json(view)})
        try:
            return parse_action(str(answer.get("action", "")))
        except ValueError as e:
            raise BotError(self.bot, f"answered an action that is none: {e}") from None

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()

    def __del__(self) -> None:
        try:  # at interpreter exit module globals may be gone
            if self.proc.poll() is None:
                self.proc.kill()
        except Exception:
            pass


def _child(config: dict[str, Any]) -> None:
    """The child's loop: make the bot, answer each observation."""
    from bourre.game.players import _answer, make_bot
    from bourre.rules.house import House

    house = House.from_arg(str(config.get("house", "standard")))

    def build(seed: str) -> Any:
        options = dict(config.get("options") or {})
        bot = make_bot(str(config["bot"]), random.Random(seed), house=house, **options)
        return bot

    bot: Any = None
    broken = ""
    try:
        bot = build(str(config.get("seed", "0")))
    except Exception as e:  # reported at the first question
        broken = f"cannot make the bot: {type(e).__name__}: {e}"
    out = sys.stdout
    for line in sys.stdin:
        try:
            message = json.loads(line)
            if broken:
                reply: dict[str, Any] = {"error": broken}
            elif "reset" in message:
                bot = build(str(message["reset"]))
                reply = {"ok": True}
            else:
                view = observation_from_json(message["observation"])
                reply = {"action": str(_answer(bot, view))}
        except Exception as e:  # the bot's failure, reported to the parent
            reply = {"error": f"{type(e).__name__}: {e}"}
        out.write(json.dumps(reply) + "\n")
        out.flush()


if __name__ == "__main__":
    os.environ.pop("PYTHONINSPECT", None)
    _child(json.loads(sys.argv[1]))
