"""The conformance kit for plugin authors: ``check_variant`` and ``check_bot``.

A variant or bot package runs these in its own tests (``from bourre.testing import
check_variant; check_variant("split-pot")``), or uses the pytest fixture
``bourre_conformance`` that this package's pytest plugin (:mod:`bourre.testing.plugin`,
the ``pytest11`` entry point ``bourre``) provides.

The kit plays the plugin in random sessions at every table size (2–8 players, where
the hand size lets the deck serve them, R-DEAL) and composed with each built-in
variant it can combine with, and checks at every step:

``money``
    the balances and the pot add up to the money the session started with, to the
    exact fraction, and every amount is exact (R-ANTE, R-WIN, R-SETTLE);
``cards``
    every one of the 52 cards is in exactly one place
    (:meth:`bourre.rules.hand.HandState.places`, R-DECK, R-DEAL, R-DRAW);
``legal set``
    the legal set is never empty and within the player's hand (R-FOLLOW), and every
    legal action is accepted;
``citations``
    every refusal (:meth:`State.why_not <bourre.game.state.State.why_not>`,
    :meth:`Legal.refusal <bourre.game.state.Legal.refusal>`) and every reason (the
    legal set's, the payout's, the antes') carries a rule id and words, and cites a
    rule the house lists in ``bourre rules`` (:meth:`House.rule_texts
    <bourre.houses.house.House.rule_texts>`);
``determinism``
    the same seed gives the same session (every action, chance outcome and balance);
``conflicts``
    the plugin either builds on each built-in variant or is refused with it clearly
    (a :class:`~bourre.houses.models.HouseError` naming both and the hook);
``replay``
    the session's table script, refereed by ``bourre replay``, gives the same
    balances;
``check``
    ``bourre check`` (:func:`bourre.referee.check.check_card`) on the positions of the
    sessions answers the state's legal set;
``compare``
    a short run of ``bourre compare`` (:func:`bourre.sim.runs.sessions.run_session`, and
    :func:`bourre.sim.runs.runner.run` when the plugin is installed) plays the house;
``isolated bot`` (bots)
    the bot answers through the isolated protocol
    (:class:`bourre.game.isolate.IsolatedBot`).

A failure names the check, the house, the seed, the hand and the seat, with a table
script (``bourre replay`` form) reproducing it where one can be made;
:class:`ConformanceError` (an ``AssertionError``, so pytest shows it as a failed
test) carries them all.

**Seeds.** Each run draws a fresh seed (:func:`run_seed`): the decks, the bots'
choices and the sessions differ from one run to the next, so a plugin cannot pass by
recognising the kit's deals.  The seed is printed in every failure; give it back to
reproduce the run, as the ``seed`` argument or the environment variable
:data:`SEED_VARIABLE` (``BOURRE_TESTING_SEED=... pytest``; the pytest plugin's
``--bourre-seed``).

**A conformance aid, not a security boundary.** The kit plays a plugin in ordinary
sessions and reports what it sees; it runs in the plugin's own process.  A plugin that
knows it is being checked (it looks for this module, or its callers on the stack) or
that patches this module at import can pass it and misbehave elsewhere.  What stands
between a plugin and a game is the runtime guards, on in every game, checked or not:
the rule hooks' checks (:mod:`bourre.rules.hookspec`: every component answer is
checked and a lie is a :class:`~bourre.rules.hookspec.PluginError` naming the plugin
and the hook), the money and card checks of the state, and the isolation of bots
(:mod:`bourre.game.isolate`).  See ``docs/plugins.md`` and ``docs/security.md``.
"""

from __future__ import annotations

import json
import os
import random
import secrets
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from bourre.game.actions import PASS, PLAY, Action, Deck, discard
from bourre.game.botmaking import make_bot
from bourre.game.isolate import IsolatedBot
from bourre.game.playerbase import PlayerBase
from bourre.game.players import ask
from bourre.game.state import State
from bourre.game.tablesteps import hand_log
from bourre.houses.house import House, PluginError
from bourre.houses.models import HouseError
from bourre.houses.strings import parse_house_string
from bourre.referee import ScriptError, replay
from bourre.referee.check import CheckError, check_card
from bourre.rules import Reason, RuleViolation
from bourre.rules.cards import card_str, cards_str
from bourre.rules.money import amount_json
from bourre.rules.plugins import Registry, default_registry
from bourre.sim.runs.runner import RunConfig, run
from bourre.sim.runs.sessions import BotSpec, run_session

__all__ = [
    "CHECKS",
    "SEED_VARIABLE",
    "ConformanceError",
    "Failure",
    "Report",
    "check_bot",
    "check_house",
    "check_variant",
    "run_seed",
]

SEED_VARIABLE = "BOURRE_TESTING_SEED"
"""The environment variable that fixes the kit's seed (to reproduce a failed run)."""


def run_seed(seed: str | None = None) -> str:
    """The seed of a run: ``seed`` if given, else :data:`SEED_VARIABLE` if set, else
    a fresh unpredictable one (``bourre.testing:`` and 16 hex digits)."""
    if seed is not None:
        return str(seed)
    given = os.environ.get(SEED_VARIABLE, "").strip()
    return given or f"bourre.testing:{secrets.token_hex(8)}"


CHECKS = (
    "money",
    "cards",
    "legal set",
    "citations",
    "determinism",
    "conflicts",
    "replay",
    "check",
    "compare",
    "isolated bot",
    "build",
)
"""The names of the checks, as failures name them."""

SIZES = tuple(range(2, 9))
"""Table sizes played (R-SEAT: 2 to 8 players)."""

_HOOK_CHECK = {
    "bourre_ante": "money",
    "bourre_penalty": "money",
    "bourre_payout": "money",
    "bourre_settle": "money",
    "bourre_deal": "cards",
    "bourre_draw": "cards",
    "bourre_follow": "legal set",
    "bourre_cinch": "legal set",
}
"""The check a guard's refusal of a plugin's answer belongs to, by hook."""


@dataclass(frozen=True)
class Failure:
    """One check that failed: where, and a script that reproduces it."""

    check: str
    house: str
    message: str
    seed: str | None = None
    hand: int | None = None
    seat: int | None = None
    script: dict[str, Any] | None = None
    """A table script (``bourre replay`` form) reaching the failure, where one can be made."""

    def __str__(self) -> str:
        where = [f"house {self.house}"]
        if self.seed is not None:
            where.append(f"seed {self.seed!r}")
        if self.hand is not None:
            where.append(f"hand {self.hand}")
        if self.seat is not None:
            where.append(f"seat {self.seat}")
        return f"[{self.check}] {', '.join(where)}: {self.message}"


class ConformanceError(AssertionError):
    """The plugin failed the kit: every :class:`Failure`, the first one's script."""

    def __init__(self, plugin: str, failures: Sequence[Failure], seed: str | None = None) -> None:
        self.plugin = plugin
        self.failures = list(failures)
        self.seed = seed
        lines = [f"{plugin}: {len(self.failures)} conformance failure(s)"]
        if seed is not None:
            lines.append(
                f"  the run's seed is {seed!r}: to reproduce it, pass seed={seed!r}"
                f" or set {SEED_VARIABLE}={seed}"
            )
        lines += [f"  {f}" for f in self.failures[:20]]
        if len(self.failures) > 20:
            lines.append(f"  … and {len(self.failures) - 20} more")
        scripted = next((f for f in self.failures if f.script is not None), None)
        if scripted is not None:
            lines.append(
                f"A table script reproducing [{scripted.check}] (save it, then `bourre replay` it):"
            )
            lines.append(json.dumps(scripted.script, ensure_ascii=False))
        super().__init__("\n".join(lines))


@dataclass
class Report:
    """What the kit played and found."""

    plugin: str
    seed: str | None = None
    """The run's seed (:func:`run_seed`): give it back to play the same run."""
    houses: list[str] = field(default_factory=list)
    """The houses played (canonical strings)."""
    conflicts: list[str] = field(default_factory=list)
    """The built-in variants the plugin is refused with, each with the refusal."""
    sessions: int = 0
    steps: int = 0
    checked_positions: int = 0
    """Positions whose legal set ``bourre check`` answered too."""
    cited: set[str] = field(default_factory=set)
    """The rule ids cited by the reasons and refusals seen."""
    failures: list[Failure] = field(default_factory=list)

    def fail(self, failure: Failure) -> None:
        self.failures.append(failure)

    def raise_for_failures(self) -> Report:
        """Raise :class:`ConformanceError` if any check failed; else the report."""
        if self.failures:
            raise ConformanceError(self.plugin, self.failures, self.seed)
        return self


class _Stop(Exception):
    """A session ended by a failure (already reported)."""


# ----------------------------------------------------------------------- the houses


def _example_settings(cls: Any) -> str:
    """A settings term for a variant whose settings have required fields: the
    smallest value each bound allows (``pot-limit(limit=1)``), else ``""``."""
    parts = []
    for key, f in cls.Settings.model_fields.items():
        if not f.is_required():
            continue
        value: Any = 1
        for m in f.metadata:
            ge, gt = getattr(m, "ge", None), getattr(m, "gt", None)
            if ge is not None:
                value = ge if ge > 0 else 1
            elif gt is not None:
                value = gt + 1
        parts.append(f"{key}={value}")
    return f"({','.join(parts)})" if parts else ""


def _term_name(term: str) -> str:
    """``pot-limit`` of ``pot-limit(limit=3)``."""
    return term.partition("(")[0].strip()


def _with_table(spec: str, n: int, hands: int) -> str:
    return f"{spec}+table(players={n},hands={hands})"


def _builtins(registry: Registry, exclude: Iterable[str]) -> list[str]:
    """Every built-in variant but ``standard`` and ``exclude``, as a house term."""
    out = []
    skip = {"standard", *exclude}
    for name, info in sorted(registry.variants.items()):
        if info.builtin and name not in skip:
            out.append(name + _example_settings(info.cls))
    return out


def _compositions(
    term: str, registry: Registry, report: Report, subject: str
) -> list[tuple[str, House]]:
    """The plugin's house alone, then with each built-in it combines with; a refusal
    must be clear (the conflicts check)."""
    name = _term_name(term)
    try:
        alone = House(term, registry=registry)
    except (HouseError, PluginError) as e:
        text = str(e)
        if " wraps " in text or " is a cycle" in text:  # stacking undeclared: a conflict
            report.fail(
                Failure(
                    "conflicts",
                    term,
                    f"{subject} stacks on another variant without declaring it: {text};"
                    " answer the hook plainly and declare builds_on the variant you refine",
                )
            )
        else:
            report.fail(Failure("build", term, f"the plugin's house cannot be built: {text}"))
        return []
    out = [(term, alone)]
    for other in _builtins(registry, alone.names):
        spec = f"{term}+{other}"
        oname = _term_name(other)
        try:
            out.append((spec, House(spec, registry=registry)))
        except HouseError as e:
            text = str(e)
            clear = (
                f"{name!r}" in text
                and f"{oname!r}" in text
                and "both answer" in text
                and "bourre_" in text
            )
            deal = "R-DEAL" in text  # too many cards for the table: not a conflict
            if clear or deal:
                report.conflicts.append(f"{oname}: {text}")
            else:
                report.fail(
                    Failure(
                        "conflicts",
                        spec,
                        f"{subject} with {oname} is refused without naming the two variants"
                        f" and the hook they both answer (declare builds_on, or answer a"
                        f" hook plainly rather than wrapping it): {text}",
                    )
                )
        except PluginError as e:
            report.fail(
                Failure("conflicts", spec, f"{subject} cannot be combined with {oname}: {e}")
            )
    return out


# ----------------------------------------------------------------------- the scripts


def _rules_json(house: House) -> dict[str, Any]:
    variants: dict[str, Any] = {"use": house.names}
    for v in house.variants:
        settings = v.settings.model_dump(mode="json")
        if settings:
            variants[v.name] = settings
    return {"table": house.table.model_dump(mode="json"), "variants": variants}


def _script(state: State, *, current: bool) -> dict[str, Any] | None:
    """The session as a table script: the finished hands, and with ``current`` the
    hand in play as far as it went.  ``None`` when none can be made."""
    decks = [x.cards for x in state.history() if isinstance(x, Deck)]
    states = [r.state for r in state.results]
    plays = [[(p.seat, p.card) for p in r.plays] for r in state.results]
    if current and state.chance_wants != "deal" and len(decks) > len(states):
        states.append(state.hand)
        plays.append([(p.seat, p.card) for p in hand_log(state).plays])
    if not states or len(decks) < len(states):
        return None
    hands = []
    for deck, hs, played in zip(decks, states, plays, strict=False):
        decisions: list[dict[str, Any]] = []
        for dec in hs.decisions:
            d: dict[str, Any] = {"seat": dec.seat, "action": "play" if dec.play else "pass"}
            if dec.play and hs.gave[dec.seat]:
                d["discard"] = cards_str(hs.gave[dec.seat])
            decisions.append(d)
        hand: dict[str, Any] = {
            "dealer": hs.dealer,
            "deck": cards_str(deck),
            "decisions": decisions,
            "plays": [{"seat": s, "card": card_str(c)} for s, c in played],
            "events": [],
        }
        if hs.reshuffles:
            hand["reshuffles"] = [cards_str(stock) for stock in hs.reshuffles]
        hands.append(hand)
    rules = _rules_json(state.house)
    rules["table"]["hands"] = max(len(hands), 1)
    return {"rules": rules, "hands": hands}


# ----------------------------------------------------------------------- one session


def _exact(x: object) -> bool:
    return isinstance(x, (int, Fraction)) and not isinstance(x, bool)


class _Session:
    """One session played step by step, every check made at every step."""

    def __init__(
        self,
        spec: str,
        house: House,
        seed: str,
        hands: int,
        players: Callable[[int, random.Random, House], Any],
        report: Report,
        listed: set[str],
    ) -> None:
        self.spec, self.house, self.seed = spec, house, seed
        self.report, self.listed = report, listed
        self.state: State | None = None
        self.hands = hands
        self.players = players

    def fail(
        self, check: str, message: str, seat: int | None = None, hand: int | None = None
    ) -> _Stop:
        st = self.state
        if hand is None:
            hand = st.hand.number if st is not None and st.chance_wants != "deal" else 1
        script = None
        if st is not None:
            try:
                script = _script(st, current=True)
            except Exception:  # the state itself is broken: no script
                script = None
        self.report.fail(Failure(check, self.spec, message, self.seed, hand, seat, script))
        return _Stop()

    def cite(
        self, what: str, rule: object, words: object, seat: int | None, hand: int | None = None
    ) -> None:
        """A reason or refusal carries a rule id and words and cites a listed rule."""
        if not isinstance(rule, str) or not rule.startswith("R-"):
            raise self.fail("citations", f"{what} carries no rule id: {rule!r}", seat, hand)
        if not isinstance(words, str) or not words.strip():
            raise self.fail("citations", f"{what} citing {rule} has no words", seat, hand)
        if rule not in self.listed:
            raise self.fail(
                "citations",
                f"{what} cites {rule} ({words!r}), a rule `bourre rules {self.house.spec}`"
                " does not list: add its text to the variant's rules",
                seat,
                hand,
            )
        self.report.cited.add(rule)

    def cite_reasons(self, what: str, reasons: object, hand: int) -> None:
        if not isinstance(reasons, tuple):
            raise self.fail("citations", f"{what}: not a tuple of reasons: {reasons!r}", None, hand)
        for r in reasons:
            if not isinstance(r, Reason):
                raise self.fail("citations", f"{what}: {r!r} is not a Reason", None, hand)
            self.cite(what, r.rule, r.words, None, hand)

    def money(self, st: State, total: Fraction) -> None:
        for s, b in enumerate(st.balances):
            if not _exact(b):
                raise self.fail("money", f"seat {s}'s balance {b!r} is not an exact amount", s)
        if not _exact(st.pot):
            raise self.fail("money", f"the pot {st.pot!r} is not an exact amount")
        held = Fraction(sum(st.balances)) + Fraction(st.pot)
        if held != total:
            raise self.fail(
                "money",
                f"the table holds {held} (balances {[str(b) for b in st.balances]},"
                f" pot {st.pot}), not the {total} it started with",
            )

    def cards(self, st: State) -> None:
        if st.chance_wants == "deal":
            return
        try:
            where = st.hand.places()
        except AssertionError as e:
            raise self.fail("cards", f"a card is not in exactly one place: {e}") from None
        if len(where) > 52:
            raise self.fail("cards", f"{len(where)} cards at the table, not 52")

    def play_position(self, st: State) -> None:
        hs = st.hand
        seat = st.current_player()
        legal = st.legal_with_reasons()
        held = tuple(hs.hands[seat])
        if not legal.cards:
            raise self.fail("legal set", "the legal set is empty", seat)
        outside = [c for c in legal.cards if c not in held]
        if outside:
            raise self.fail(
                "legal set",
                f"the legal set holds {cards_str(outside)}, not in the hand {cards_str(held)}",
                seat,
            )
        for r in legal.reasons:
            self.cite("the legal set's reason", r.rule, r.words, seat)
        for c in held:
            if c not in legal.cards:
                e = legal.refusal(c)
                self.cite(f"the refusal of {card_str(c)}", e.rule, e.reason, seat)
        # ``bourre check`` on this position answers the same legal set
        trick = tuple(hs.trick)
        played = tuple(sorted(hs.played.difference(trick)))
        mine = tuple(sorted(set(hs.discards[seat]) - set(played) - set(trick)))
        known = frozenset((*played, *trick, *mine))
        if known == hs.known_to(seat) and not set(mine) & set(held):
            last = len(hs.trick) == len(hs.trick_seats) - 1
            try:
                ruling = check_card(
                    st.house,
                    held,
                    trick,
                    trump=hs.trump,
                    played=played,
                    won=hs.won[seat],
                    discards=mine,
                    last=last,
                )
            except CheckError as e:
                raise self.fail("check", f"`bourre check` refuses the position: {e}", seat) from e
            if set(ruling.legal) != set(legal.cards):
                raise self.fail(
                    "check",
                    f"`bourre check` answers {cards_str(ruling.legal)}, the game"
                    f" {cards_str(legal.cards)}",
                    seat,
                )
            self.report.checked_positions += 1

    def refusals(self, st: State) -> None:
        """What the player to decide or exchange would be told of a forbidden answer."""
        seat = st.current_player()
        if st.phase_name == "decide" and PASS not in st.legal_actions():
            e = st.why_not(PASS)
            if e is None:
                raise self.fail("legal set", "a pass not among the legal actions is allowed", seat)
            self.cite("the refusal of a pass", e.rule, e.reason, seat)
        elif st.phase_name == "exchange":
            too_many = (*st.hand.hands[seat], 99)
            e = st.why_not(discard(too_many))
            if e is None:
                raise self.fail("cards", "a discard of cards not held is allowed", seat)
            self.cite("the refusal of a discard", e.rule, e.reason, seat)

    def hand_over(self, st: State, done: int) -> None:
        for res in st.results[done:]:
            out = res.outcome
            n = st.n
            if len(out.takes) != n or len(out.paid) != n:
                raise self.fail(
                    "money", "the payout does not give one amount per seat", None, res.number
                )
            for s in range(n):
                if not (_exact(out.takes[s]) and _exact(out.paid[s])):
                    raise self.fail("money", f"seat {s}'s payout is not exact", s, res.number)
            self.cite_reasons("the payout", out.reasons, res.number)
            self.cite_reasons("the antes", res.ante_reasons, res.number)

    def play(self, record: bool = True) -> State | None:
        """Play the session; ``None`` when a check failed (reported)."""
        try:
            return self._play(record)
        except _Stop:
            return None

    def _play(self, record: bool) -> State:
        try:
            st = State(self.house, seed=self.seed, hands=self.hands, record=record)
        except PluginError as e:
            raise self.fail(_HOOK_CHECK.get(e.hook, "build"), str(e)) from None
        except RuleViolation as e:
            raise self.fail("cards", f"the first deal is refused: {e}") from None
        self.state = st
        total = Fraction(sum(st.start))
        rng = random.Random(f"bourre.testing:{self.seed}")
        seats = [self.players(s, rng, self.house) for s in range(st.n)]
        done = 0
        while not st.is_terminal():
            self.report.steps += 1
            self.money(st, total)
            self.cards(st)
            seat = st.current_player()
            phase = st.phase_name
            try:
                if phase == "play":
                    self.play_position(st)
                else:
                    self.refusals(st)
                legal = st.legal_actions()
                if not legal:
                    raise self.fail("legal set", f"no legal action ({phase})", seat)
                action = ask(st, seats[seat])
            except PluginError as e:
                raise self.fail(_HOOK_CHECK.get(e.hook, "build"), str(e), seat) from None
            except RuleViolation as e:
                raise self.fail("legal set", f"the bot's answer is refused: {e}", seat) from None
            except _Stop:
                raise
            except Exception as e:
                raise self.fail("build", f"asking seat {seat} raised {e!r}", seat) from e
            if not isinstance(action, Action) or action not in legal:
                raise self.fail("legal set", f"seat {seat} answered {action!r}, not legal", seat)
            try:
                st.apply_action(action)
            except PluginError as e:
                check = _HOOK_CHECK.get(e.hook, "money" if "money" in str(e) else "cards")
                raise self.fail(check, str(e), seat) from None
            except RuleViolation as e:
                raise self.fail(
                    "legal set", f"the legal action {action} is refused: {e}", seat
                ) from None
            except Exception as e:
                raise self.fail("build", f"applying {action} raised {e!r}", seat) from e
            self.hand_over(st, done)
            done = len(st.results)
        if st.final is not None:
            balances, ranks = st.final
            if Fraction(sum(balances)) != total:
                raise self.fail("money", f"the settlement gives {sum(balances)}, not {total}")
            if len(ranks) != st.n or not all(1 <= r <= st.n for r in ranks):
                raise self.fail("money", f"the settlement's places {ranks} are not 1 … {st.n}")
        self.report.sessions += 1
        return st


def _fingerprint(st: State) -> list[str]:
    """A session, step by step, as text (what determinism compares)."""
    out = [str(x) for x in st.history()]
    out += [f"hand {r.number}: {[str(b) for b in r.balances]}" for r in st.results]
    return out


def _determinism(first: State, second: State | None, s: _Session) -> None:
    if second is None:
        return
    a, b = _fingerprint(first), _fingerprint(second)
    if a == b:
        return
    i = next((k for k, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b)))
    decks = sum(1 for x in first.history()[:i] if isinstance(x, Deck))
    s.report.fail(
        Failure(
            "determinism",
            s.spec,
            f"the same seed played twice differs at step {i}:"
            f" {a[i] if i < len(a) else 'the end'} / {b[i] if i < len(b) else 'the end'}"
            " (a component keeps state between calls, or draws its own random numbers)",
            s.seed,
            decks or None,
            None,
            _script(first, current=False),
        )
    )


def _replayed(st: State, s: _Session, registry: Registry) -> None:
    script = _script(st, current=False)
    if script is None or st.final is None:
        return
    try:
        record = replay(script, registry=registry)
    except ScriptError as e:
        s.report.fail(
            Failure(
                "replay", s.spec, f"`bourre replay` refuses the session: {e}", s.seed, script=script
            )
        )
        return
    want = [amount_json(b) for b in st.final[0]]
    got = [amount_json(b) for b in record.final.balances] if record.final is not None else None
    if got != want:
        s.report.fail(
            Failure(
                "replay",
                s.spec,
                f"`bourre replay` of the session ends with balances {got}, the session with {want}",
                s.seed,
                script=script,
            )
        )


class _Eager(PlayerBase):
    """Plays every hand it may (R-DECIDE), otherwise random: so that the sessions reach
    the tricks, where the legal sets and the cinch are asked."""

    needs_view = False

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, actions: Sequence[Action]) -> Action:
        if PLAY in actions:
            return PLAY
        return actions[self.rng.randrange(len(actions))]


def _random_players(seat: int, rng: random.Random, house: House) -> Any:
    """Seats alternate: the random bot (which passes half the time, so that passes and
    their refusals are asked) and an eager player that always plays."""
    return make_bot("random", rng) if seat % 2 else _Eager(random.Random(rng.random()))


def _houses_listed(house: House) -> set[str]:
    return {rid for _, _, (rid, _) in house.rule_texts()}


def _play_house(
    spec: str,
    house: House,
    report: Report,
    registry: Registry,
    sessions: int,
    hands: int,
    seed: str,
    players: Callable[[int, random.Random, House], Any],
    sizes: Sequence[int],
) -> None:
    """Every check of the sessions of ``house`` at each table size."""
    listed = _houses_listed(house)
    for n in sizes:
        try:
            h = House(_with_table(spec, n, hands), registry=registry)
        except HouseError:
            continue  # the deck cannot serve this table (R-DEAL): not played
        except PluginError as e:
            report.fail(Failure(_HOOK_CHECK.get(e.hook, "build"), spec, str(e)))
            continue
        report.houses.append(h.spec)
        for i in range(sessions):
            sseed = f"{seed}:{n}:{i}"
            s = _Session(h.spec, h, sseed, hands, players, report, listed)
            first = s.play()
            if first is None:
                continue
            again = _Session(h.spec, h, sseed, hands, players, Report(report.plugin), listed)
            _determinism(first, again.play(), s)
            _replayed(first, s, registry)


def _compare(
    spec: str, house: House, report: Report, registry: Registry, bots: Sequence[str], seed: str
) -> None:
    """A short ``bourre compare``: two sessions of the house, against standard."""
    specs = [BotSpec(b) for b in bots]
    total = float(house.table.balance) * house.table.players
    try:
        for i in range(2):
            summary = run_session(house, specs, seed, i, engine="python")
            if not summary["hands"] or abs(sum(summary["final"]) - total) > 1e-6:
                report.fail(
                    Failure("compare", spec, f"a compare session ends unbalanced: {summary}")
                )
    except Exception as e:
        report.fail(Failure("compare", spec, f"a compare session fails: {e!r}"))
        return
    installed = all(
        registry.variants.get(v.name) is default_registry().variants.get(v.name)
        for v in house.variants
    )
    if not installed:
        return  # not installed: ``bourre compare`` in another process cannot find it
    result = run(RunConfig([house.spec, "standard"], 2, seed=seed, bots=specs))
    if not result.complete:
        report.fail(Failure("compare", spec, f"`bourre compare` stopped: {result.stopped}"))


# ----------------------------------------------------------------------- the entry points


def check_house(
    spec: str,
    *,
    registry: Registry | None = None,
    sessions: int = 2,
    hands: int = 3,
    seed: str | None = None,
    sizes: Sequence[int] = SIZES,
    raise_on_failure: bool = True,
) -> Report:
    """Every session check of one house (a house string), at each table size."""
    reg = registry if registry is not None else default_registry()
    seed = run_seed(seed)
    report = Report(spec, seed)
    try:
        house = House(spec, registry=reg)
    except (HouseError, PluginError) as e:
        report.fail(Failure("build", spec, f"the house cannot be built: {e}"))
    else:
        _play_house(spec, house, report, reg, sessions, hands, seed, _random_players, sizes)
    return report.raise_for_failures() if raise_on_failure else report


def check_variant(
    variant: str,
    *,
    registry: Registry | None = None,
    sessions: int = 2,
    hands: int = 3,
    seed: str | None = None,
    sizes: Sequence[int] = SIZES,
    compose: bool = True,
    compare: bool = True,
    raise_on_failure: bool = True,
) -> Report:
    """Check the variant ``variant`` (its name, with settings where it needs them:
    ``"pot-limit(limit=3)"``): alone at every table size, then composed with each
    built-in variant it combines with.  ``registry``: where to find it (default: the
    installed plugins; ``load_registry(extra=[(name, module)])`` for one not
    installed).  Raises :class:`ConformanceError` naming every failure (unless
    ``raise_on_failure`` is false); returns the :class:`Report`."""
    reg = registry if registry is not None else default_registry()
    seed = run_seed(seed)
    report = Report(variant, seed)
    try:
        parse_house_string(variant)
    except HouseError as e:
        report.fail(Failure("build", variant, f"not a variant term: {e}"))
        return report.raise_for_failures() if raise_on_failure else report
    name = _term_name(variant)
    if name not in reg.variants:
        known = ", ".join(sorted(reg.variants))
        broken = [e.message for e in reg.errors if e.plugin == name]
        why = f" (its plugin failed to load: {broken[0]})" if broken else ""
        report.fail(
            Failure("build", variant, f"no variant {name!r} is installed{why}; installed: {known}")
        )
        return report.raise_for_failures() if raise_on_failure else report
    houses = _compositions(variant, reg, report, f"variant {name!r}")
    if not compose:
        houses = houses[:1]
    for k, (spec, house) in enumerate(houses):
        # alone: every size; composed: the smallest, a middle and the largest table
        use = sizes if k == 0 else tuple(sorted({min(sizes), 5, max(sizes)} & set(sizes)))
        _play_house(
            spec, house, report, reg, sessions if k == 0 else 1, hands, seed, _random_players, use
        )
    if houses and compare:
        _compare(houses[0][0], houses[0][1], report, reg, ["random"], seed)
    return report.raise_for_failures() if raise_on_failure else report


def check_bot(
    bot: str,
    *,
    registry: Registry | None = None,
    houses: Sequence[str] | None = None,
    sessions: int = 1,
    hands: int = 2,
    seed: str | None = None,
    sizes: Sequence[int] = (2, 5, 8),
    isolated: bool = True,
    compare: bool = True,
    options: dict[str, Any] | None = None,
    raise_on_failure: bool = True,
) -> Report:
    """Check the bot ``bot`` (an installed bot's name, or ``module:factory``): it
    plays every seat of sessions at each house (default: standard and each built-in
    variant) and size, answering only legal actions, the same answers for the same
    seed, leaving money and cards whole; then a hand through the isolated protocol
    and a short compare.  Raises :class:`ConformanceError` naming every failure."""
    reg = registry if registry is not None else default_registry()
    seed = run_seed(seed)
    report = Report(f"bot {bot}", seed)
    opts = dict(options or {})
    try:
        make_bot(bot, random.Random(0), **opts)
    except Exception as e:
        report.fail(Failure("build", "standard", f"the bot cannot be made: {e}"))
        return report.raise_for_failures() if raise_on_failure else report
    specs = list(houses) if houses is not None else ["standard", *_builtins(reg, ())]
    for spec in specs:
        try:
            house = House(spec, registry=reg)
        except (HouseError, PluginError) as e:
            report.fail(Failure("build", spec, str(e)))
            continue

        def players(seat: int, rng: random.Random, house: House) -> Any:
            """The bot at every seat, told the house it plays (its table size)."""
            return make_bot(bot, random.Random(rng.random()), house=house, **opts)

        _play_house(spec, house, report, reg, sessions, hands, seed, players, sizes)
    if isolated:
        _isolated(bot, opts, report, seed)
    if compare and ":" not in bot:
        try:
            run_session(
                House("standard", registry=reg), [BotSpec(bot, tuple(opts.items()))], seed, 0
            )
        except Exception as e:
            report.fail(
                Failure("compare", "standard", f"a compare session with the bot fails: {e!r}")
            )
    return report.raise_for_failures() if raise_on_failure else report


def _isolated(bot: str, options: dict[str, Any], report: Report, seed: str) -> None:
    """One hand at three seats, the bot answering from its own process."""
    house = House("standard+table(players=3,hands=1)")
    st = State(house, seed=f"{seed}:isolated", hands=1)
    bots = [IsolatedBot(bot, options, house=house.spec, timeout=30.0) for _ in range(st.n)]
    try:
        while not st.is_terminal():
            seat = st.current_player()
            try:
                action = bots[seat].act(st.observation(seat))
            except Exception as e:
                report.fail(
                    Failure(
                        "isolated bot",
                        house.spec,
                        f"the isolated bot fails: {e}",
                        hand=1,
                        seat=seat,
                    )
                )
                return
            if action not in st.legal_actions():
                report.fail(
                    Failure(
                        "isolated bot",
                        house.spec,
                        f"the isolated bot answers {action}, not legal",
                        hand=1,
                        seat=seat,
                    )
                )
                return
            st.apply_action(action)
    finally:
        for b in bots:
            b.close()
