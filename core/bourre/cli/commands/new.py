"""``bourre new variant NAME`` and ``bourre new bot NAME``: a plugin package to start from.

The package written installs and passes its own tests at once (``pip install -e``,
then ``pytest``): a ``pyproject.toml`` with the ``bourre`` entry point, one rule
component module holding the rule's id, its text, its code and its reasons (or the
bot), tests that run the conformance kit (:mod:`bourre.testing`) on it, and a README.

A variant starts from one of four rules, chosen with ``--hook``:

``ante`` (the default)
    the dealer antes more than the others (``bourre_ante``): the dealer antes
    ``dealer_ante`` chips (default 2) on a hand where the others ante, the rest as
    the standard antes (R-FIRST-POT, R-ANTE);
``penalty``
    a bourré (or a renege) pays ``factor`` times the pot (default 2, ``bourre_penalty``);
``draw``
    a player exchanges at most ``most`` cards (default 3, ``bourre_draw``: the standard
    draw, R-DRAW and R-RESHUFFLE, its limit changed);
``decisions``
    the first ``first`` players from the dealer's left must play (default 1,
    ``bourre_decisions``: the standard decisions, R-DECIDE …, one more forced play).
"""

from __future__ import annotations

import os
import re
from importlib.metadata import PackageNotFoundError, distribution, entry_points
from pathlib import Path
from string import Template
from typing import Annotated

import typer

from bourre.cli.util import fail
from bourre.rules.plugins import BUILTIN, GROUP, default_registry

__all__ = ["register_commands", "write_bot", "write_variant"]

NAME = re.compile(r"[a-z][a-z0-9]*(-[a-z0-9]+)*")
HOOKS = ("ante", "penalty", "draw", "decisions")


def _names(name: str, what: str) -> dict[str, str]:
    if not NAME.fullmatch(name) or len(name) > 40:
        fail(
            f"{what} name {name!r}: lower-case letters, digits and single hyphens, starting"
            " with a letter (like 'dealer-antes'), at most 40 characters"
        )
    module = "bourre_" + name.replace("-", "_")
    _no_shadow(name, module, what)
    camel = "".join(part.capitalize() for part in name.split("-"))
    return {
        "name": name,
        "module": module,
        "dist": "bourre-" + name,
        "Class": camel,
        "RULE": "R-" + name.upper(),
    }


def _own_names() -> tuple[set[str], set[str]]:
    """bourre's own names in the ``bourre`` entry-point group: the entry points of the
    bourre distribution (``standard``, ``bots``, ``compare`` …) and the top-level
    packages they load (``bourre`` and the packages of its built-in plugins)."""
    points, modules = set(), {"bourre"}
    for ep in entry_points(group=GROUP):
        if ep.dist is not None and ep.dist.name == BUILTIN:
            points.add(ep.name)
            modules.add(ep.value.split(":")[0].split(".")[0])
    return points, modules


def _installed(dist: str) -> bool:
    try:
        distribution(dist)
    except PackageNotFoundError:
        return False
    return True


def _no_shadow(name: str, module: str, what: str) -> None:
    """Refuse a name whose package, distribution or entry point would overwrite or hide
    bourre's own, or a plugin already installed: installing it would break bourre
    (``bourre new bot bots`` would overwrite the built-in bots) or be skipped."""
    points, modules = _own_names()
    registry = default_registry()
    if module in modules:
        fail(
            f"{what} name {name!r}: its package would be {module}, which is bourre's own;"
            " installing it would overwrite bourre: choose another name"
        )
    if name in points:
        fail(
            f"{what} name {name!r}: bourre itself has a plugin named {name!r} (the built-in"
            f" {'variant' if name in registry.variants else 'plugins'}); choose another name"
        )
    taken = registry.bots if what == "bot" else registry.variants
    if name in taken:
        info = taken[name]
        package = info[1] if isinstance(info, tuple) else info.package
        fail(
            f"{what} name {name!r}: a {what} of that name is already installed"
            f" ({package}); choose another name"
        )
    if _installed("bourre-" + name):
        fail(
            f"{what} name {name!r}: the distribution bourre-{name} is already installed;"
            f" choose another name, or uninstall it first (pip uninstall bourre-{name})"
        )


def _write(target: Path, files: dict[str, str]) -> list[Path]:
    """Write ``files`` under ``target``, a new or empty writable directory; any other
    target is refused in one message, before anything is written."""
    if target.exists() or target.is_symlink():
        if not target.is_dir():
            fail(f"--dir {target}: not a directory; name a new or empty directory")
        if any(target.iterdir()):
            fail(f"{target}: the directory exists and is not empty; choose another with --dir")
        if not os.access(target, os.W_OK | os.X_OK):
            fail(f"--dir {target}: this directory cannot be written to")
    written = []
    try:
        for rel, text in files.items():
            path = target / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
            written.append(path)
    except OSError as e:
        why = e.strerror or type(e).__name__
        fail(f"--dir {target}: cannot write {e.filename or target} ({why})")
    return written


# ----------------------------------------------------------------------- the variant

_PYPROJECT = Template("""\
[build-system]
requires = ["setuptools>=61"]
build-backend = "setuptools.build_meta"

[project]
name = "$dist"
version = "0.1.0"
description = "$description"
readme = "README.md"
requires-python = ">=3.11"
dependencies = ["bourre"]

# Installing the distribution is all it takes: bourre loads every plugin of the
# `bourre` entry-point group.
[project.entry-points.bourre]
$name = "$module"

[tool.setuptools.packages.find]
where = ["src"]

[tool.pytest.ini_options]
testpaths = ["tests"]
""")

_INIT = Template('''\
"""``$name``: $summary

The rule is in :mod:`$module.rule` ($RULE): its id, its text, its code and its
reasons.  This module is the plugin: the variant, its settings and its registration.
"""

from __future__ import annotations

from collections.abc import Callable

from pydantic import BaseModel, ConfigDict, Field

from bourre.rules.settings import TableSettings
from bourre.rules.variant import Variant, hookimpl
from $module import rule

__all__ = ["$Class", "${Class}Settings"]


class ${Class}Settings(BaseModel):
    """The settings of ``$name`` (``$name($setting=$default)`` in a house string)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    $setting: int = Field($default, ge=$low, le=$high, description="$setting_help")


class $Class(Variant):
    """$summary"""

    name = "$name"
    summary = "$summary"
    builds_on = ("standard",)
    Settings = ${Class}Settings
    rules = {"$hook": rule.TEXTS}

    @hookimpl
    def $hook(self, table: TableSettings$params) -> $answer:
        return $make


@hookimpl
def bourre_register_variants(register: Callable[[type[Variant]], None]) -> None:
    register($Class)
''')

_ANTE_RULE = Template('''\
"""$RULE: $summary

The standard antes (R-FIRST-POT, R-ANTE) decide who antes; on a hand where the
dealer antes, the dealer antes ``dealer_ante`` chips instead of the table's ante.
Change :meth:`DealerAntes.hand_antes` and its :meth:`DealerAntes.reasons` together:
the reasons say why each seat antes what it does, citing a rule of :data:`TEXTS`.
"""

from __future__ import annotations

from bourre.rules import HandOutcome, Reason
from bourre.rules.money import Amount, chips
from bourre_variants.standard.payout import StandardAnte

RULE = "$RULE"

TEXTS = [
    ("R-FIRST-POT", "Every player antes {table.ante} to the first pot."),
    (
        "R-ANTE",
        "Before each later hand every player antes {table.ante}, except a player who was"
        " bourré or tied for the most tricks in the last hand.",
    ),
    (
        RULE,
        "When the dealer antes, the dealer antes {settings.dealer_ante} instead of"
        " {table.ante}.",
    ),
]
"""The rules ``bourre rules`` prints for the antes of a house with this variant: the
standard ones it keeps, and its own."""


class DealerAntes:
    """The antes ($RULE): the standard ones, the dealer's replaced."""

    def __init__(self, dealer_ante: Amount) -> None:
        self.dealer_ante = dealer_ante
        self.standard = StandardAnte()

    def hand_antes(
        self, n: int, ante: Amount, previous: HandOutcome | None, dealer: int
    ) -> list[Amount]:
        antes = self.standard.hand_antes(n, ante, previous, dealer)
        if antes[dealer]:
            antes[dealer] = self.dealer_ante
        return antes

    def play_ante(self, ante: Amount) -> Amount:
        return self.standard.play_ante(ante)

    def reasons(
        self, n: int, ante: Amount, previous: HandOutcome | None, dealer: int
    ) -> tuple[Reason, ...]:
        why = self.standard.reasons(n, ante, previous, dealer)
        if self.hand_antes(n, ante, previous, dealer)[dealer]:
            words = f"the dealer, seat {dealer}, antes {chips(self.dealer_ante)}"
            why += (Reason(RULE, words, self.dealer_ante, (dealer,)),)
        return why
''')

_PENALTY_RULE = Template('''\
"""$RULE: $summary

The penalty (``bourre_penalty``) is what a bourré player, or a renege, pays into the
next pot: the standard rule (R-PENALTY) pays the pot at stake P; this one pays
``factor`` times P.  The payout (R-BOURRE, R-RENEGE) says who pays it, and how much.
"""

from __future__ import annotations

from bourre.rules.hookspec import PenaltyFn
from bourre.rules.money import Amount

RULE = "$RULE"

TEXTS = [
    (
        RULE,
        "A bourré player, or a renege, pays {settings.factor} times the pot at stake P"
        " into the next pot (instead of P, R-PENALTY).",
    ),
]
"""The rules ``bourre rules`` prints for the penalty of a house with this variant."""


def make_penalty(factor: int) -> PenaltyFn:
    """The penalty of $RULE: ``factor`` × the pot at stake."""

    def penalty(pot_at_stake: Amount) -> Amount:
        return factor * pot_at_stake

    return penalty
''')

_DRAW_RULE = Template('''\
"""$RULE: $summary

The standard draw (R-DRAW, R-RESHUFFLE): a player who plays exchanges cards with the
top of the stock before the next decides, and a stock that runs out is made again from
earlier players' discards.  This one changes only :meth:`CappedDraw.limit`, the most
cards a player may exchange: the legal discards, the bots' exchanges and a table's
refusals (R-DRAW's check) all follow from it.
"""

from __future__ import annotations

from bourre.rules.hand import HandState
from bourre_variants.standard.draw import TEXTS as STANDARD
from bourre_variants.standard.draw import Draw

RULE = "$RULE"

TEXTS = [
    *STANDARD,
    (RULE, "A player exchanges at most {settings.most} cards (R-DRAW's limit)."),
]
"""The rules ``bourre rules`` prints for the draw of a house with this variant: the
standard ones it keeps, and its own."""


class CappedDraw(Draw):
    """The standard draw (R-DRAW, R-RESHUFFLE), at most ``most`` cards exchanged ($RULE)."""

    def __init__(self, hand_size: int, most: int) -> None:
        super().__init__(hand_size)
        self.most = most

    def limit(self, hand: HandState, seat: int) -> int:
        return min(self.most, self.hand_size)
''')

_DECISIONS_RULE = Template('''\
"""$RULE: $summary

The standard decisions (R-DECIDE, R-PASS, R-ACE-UP, R-LAST-STANDS, R-SOLE,
R-PREMATURE): from the dealer's left to the dealer each player says pass or play, and a
player who plays exchanges at once.  This one forces the first ``first`` players to
decide to play: :meth:`FirstMustPlay.forced` names the rule that forbids a pass (the
bots then play without being asked), :meth:`FirstMustPlay.decide` refuses a pass in
its words.
"""

from __future__ import annotations

from bourre.rules import RuleViolation
from bourre.rules.hand import HandState
from bourre_variants.standard.decisions import TEXTS as STANDARD
from bourre_variants.standard.decisions import Sequential

RULE = "$RULE"

TEXTS = [
    *STANDARD,
    (RULE, "The first {settings.first} players from the dealer's left must play."),
]
"""The rules ``bourre rules`` prints for the decisions of a house with this variant: the
standard ones it keeps, and its own."""


class FirstMustPlay(Sequential):
    """The standard decisions, the first ``first`` players to decide forced in ($RULE)."""

    def __init__(self, first: int) -> None:
        self.first = first

    def forced(self, hand: HandState, seat: int) -> str | None:
        if (seat - hand.dealer - 1) % hand.n < self.first:
            return RULE
        return super().forced(hand, seat)

    def decide(self, hand: HandState, seat: int, play: bool) -> None:
        if not play and self.forced(hand, seat) == RULE:
            raise RuleViolation(
                RULE,
                f"seat {seat} may not pass: the first {self.first} players from the"
                " dealer's left must play",
                ("play",),
            )
        super().decide(hand, seat, play)
''')

_VARIANT_TEST = Template('''\
"""$name: the rule itself, then bourre's conformance kit (:mod:`bourre.testing`)."""

from bourre.houses.house import House
from bourre.testing import check_variant
from $module import rule


$rule_test


def test_it_is_installed_and_listed() -> None:
    house = House("$name")
    assert house.names == ["standard", "$name"]
    assert rule.RULE in {rid for _, _, (rid, _) in house.rule_texts()}


def test_it_passes_the_conformance_kit() -> None:
    """Random sessions at every table size and with every built-in variant: money,
    cards, legal sets, citations, determinism, conflicts, replay, check, compare."""
    report = check_variant("$name", sessions=1)
    assert report.sessions > 0
''')

_ANTE_TEST = """\
def test_the_dealer_antes_more() -> None:
    antes = rule.DealerAntes(2)
    assert antes.hand_antes(4, 1, None, dealer=3) == [1, 1, 1, 2]
    assert [r.rule for r in antes.reasons(4, 1, None, dealer=3)] == ["R-FIRST-POT", rule.RULE]"""

_PENALTY_TEST = """\
def test_a_bourre_pays_the_factor_times_the_pot() -> None:
    assert rule.make_penalty(2)(7) == 14
    assert rule.make_penalty(3)(5) == 15"""

_DRAW_TEST = """\
def test_at_most_most_cards_are_exchanged() -> None:
    from bourre.game.actions import discard
    from bourre.game.state import State
    from bourre.rules import RuleViolation

    state = State(House("$name(most=1)+table(players=3)"), seed=1)
    while state.phase_name != "exchange":
        state.apply_action(state.legal_actions()[-1])  # play
    assert state.exchange_limit() == 1
    assert max(len(a.cards) for a in state.legal_actions()) == 1
    two = state.cards_of(state.current_player())[:2]
    try:
        state.apply_action(discard(two))
    except RuleViolation as e:
        assert e.rule == "R-DRAW" and "at most 1" in e.reason
    else:
        raise AssertionError("two cards exchanged")"""

_DECISIONS_TEST = """\
def test_the_first_players_must_play() -> None:
    from bourre.game.actions import PASS
    from bourre.game.state import State

    state = State(House("$name(first=2)+table(players=4)"), seed=1)
    for _ in range(2):
        assert state.observation(state.current_player()).forced == rule.RULE
        refused = state.why_not(PASS)
        assert refused is not None and refused.rule == rule.RULE
        state.apply_action(state.legal_actions()[-1])  # play
        if state.phase_name == "exchange":
            state.apply_action(state.legal_actions()[0])  # stand pat
    assert state.observation(state.current_player()).forced is None"""

_VARIANT_README = Template("""\
# $dist

A house rule for bourre (the Bourré rules framework), as a plugin: **$summary** ($RULE).

```bash
pip install -e .
bourre variants                  # lists $name
bourre rules $name               # the rules of the house, $RULE among them
pytest                           # the rule, then bourre's conformance kit
bourre compare standard $name --sessions 200
```

- `src/$module/rule.py`: the rule: its id (`RULE`), its text (`TEXTS`), its code and
  the reasons it gives.
- `src/$module/__init__.py`: the variant (`$Class`), its settings
  (`$setting`, default $default) and its registration (the `bourre` entry point in
  `pyproject.toml`).
- `tests/`: the rule's own test, and `bourre.testing.check_variant("$name")`.
""")

_VARIANT_KINDS = {
    "ante": {
        "hook": "bourre_ante",
        "summary": "the dealer antes more than the others.",
        "setting": "dealer_ante",
        "default": "2",
        "low": "0",
        "high": "1000",
        "setting_help": "What the dealer antes when the dealer antes (R-FIRST-POT, R-ANTE).",
        "answer": "rule.DealerAntes",
        "make": "rule.DealerAntes(self.settings.dealer_ante)  # type: ignore[attr-defined]",
        "rule_text": _ANTE_RULE,
        "test": _ANTE_TEST,
    },
    "penalty": {
        "hook": "bourre_penalty",
        "summary": "a bourré pays a multiple of the pot.",
        "setting": "factor",
        "default": "2",
        "low": "1",
        "high": "10",
        "setting_help": "How many times the pot at stake a bourré or a renege pays.",
        "answer": "PenaltyFn",
        "make": "rule.make_penalty(self.settings.factor)  # type: ignore[attr-defined]",
        "rule_text": _PENALTY_RULE,
        "test": _PENALTY_TEST,
    },
    "draw": {
        "hook": "bourre_draw",
        "summary": "a player exchanges at most a few cards.",
        "setting": "most",
        "default": "3",
        "low": "0",
        "high": "5",
        "setting_help": "The most cards a player who plays may exchange (R-DRAW).",
        "params": ", hand_size: int",
        "answer": "rule.CappedDraw",
        "make": "rule.CappedDraw(hand_size, self.settings.most)  # type: ignore[attr-defined]",
        "rule_text": _DRAW_RULE,
        "test": _DRAW_TEST,
    },
    "decisions": {
        "hook": "bourre_decisions",
        "summary": "the first players to decide must play.",
        "setting": "first",
        "default": "1",
        "low": "0",
        "high": "7",
        "setting_help": "How many players from the dealer's left must play (R-DECIDE).",
        "answer": "rule.FirstMustPlay",
        "make": "rule.FirstMustPlay(self.settings.first)  # type: ignore[attr-defined]",
        "rule_text": _DECISIONS_RULE,
        "test": _DECISIONS_TEST,
    },
}


def variant_files(name: str, hook: str = "ante") -> dict[str, str]:
    """The files of a variant package named ``name`` answering ``hook`` (one of
    :data:`HOOKS`), by relative path."""
    if hook not in _VARIANT_KINDS:
        fail(f"--hook {hook!r}: one of {', '.join(HOOKS)}")
    n = _names(name, "variant")
    kind = _VARIANT_KINDS[hook]
    fields = {"params": "", **n, **{k: v for k, v in kind.items() if isinstance(v, str)}}
    rule_text = kind["rule_text"]
    assert isinstance(rule_text, Template)
    init = _INIT.substitute(fields)
    if hook == "penalty":
        init = init.replace(
            "from bourre.rules.settings import TableSettings\n",
            "from bourre.rules.hookspec import PenaltyFn\nfrom bourre.rules.settings import"
            " TableSettings\n",
        )
    m = n["module"]
    return {
        "pyproject.toml": _PYPROJECT.substitute(
            fields, description=f"A bourre house rule: {fields['summary']}"
        ),
        f"src/{m}/__init__.py": init,
        f"src/{m}/rule.py": rule_text.substitute(fields),
        f"tests/test_{m}.py": _VARIANT_TEST.substitute(
            fields, rule_test=Template(str(kind["test"])).substitute(fields)
        ),
        "README.md": _VARIANT_README.substitute(fields),
    }


def write_variant(name: str, target: Path, hook: str = "ante") -> list[Path]:
    """Write the variant package ``name`` into ``target``; the files written."""
    return _write(target, variant_files(name, hook))


# ----------------------------------------------------------------------- the bot

_BOT = Template('''\
"""The bot ``$name``: plays when its hand holds a trump or an ace, exchanges its
cards below ten that are not trumps, and plays its highest legal card.

A bot sees only its observation (``view``) and answers the game's three questions
(R-DECIDE, R-DRAW, R-FOLLOW); the game refuses an illegal answer.  Its random numbers,
if it wants any, come from ``rng``: the same seed gives the same session.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from bourre.game.observation import Observation
from bourre.game.playerbase import PlayerBase
from bourre.rules.cards import rank_of, suit_of
from bourre.rules.variant import hookimpl

__all__ = ["$Class", "make"]

TEN = 8  # the rank of a ten (the two is 0, the ace 12)


class $Class(PlayerBase):
    """Plays with a trump or an ace; exchanges low off-suit cards; plays high."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def decide(self, view: Observation) -> bool:
        strong = any(suit_of(c) == view.trump or rank_of(c) == 12 for c in view.hand)
        return strong or view.forced is not None

    def discard(self, view: Observation) -> Sequence[int]:
        low = [c for c in view.hand if suit_of(c) != view.trump and rank_of(c) < TEN]
        return tuple(low[: view.exchange_limit])

    def play(self, view: Observation) -> int:
        return view.legal[-1]


def make(rng: random.Random) -> $Class:
    """The factory bourre calls (``make_bot("$name", rng)``); options would be
    keyword arguments here (``--bots $name:key=value``)."""
    return $Class(rng)


@hookimpl
def bourre_register_bots(register: Callable[[str, Callable[..., Any]], None]) -> None:
    register("$name", make)
''')

_BOT_TEST = Template('''\
"""$name: bourre's conformance kit (:mod:`bourre.testing`) on the bot."""

from bourre.testing import check_bot


def test_it_passes_the_conformance_kit() -> None:
    """Every seat of sessions at standard and each built-in variant, legal answers,
    the same seed the same session, the isolated protocol and a compare session."""
    report = check_bot("$name", sizes=(3,))
    assert report.sessions > 0
''')

_BOT_README = Template("""\
# $dist

A bot for bourre (the Bourré rules framework), as a plugin: `$name`.

```bash
pip install -e .
bourre variants          # lists the bot $name
pytest                   # bourre's conformance kit on it
bourre compare standard --bots $name,heuristic --sessions 200
```

`src/$module/__init__.py` holds the bot (`$Class`), its factory and its registration
(the `bourre` entry point in `pyproject.toml`).
""")


def bot_files(name: str) -> dict[str, str]:
    """The files of a bot package named ``name``, by relative path."""
    n = _names(name, "bot")
    m = n["module"]
    return {
        "pyproject.toml": _PYPROJECT.substitute(n, description=f"A bourre bot: {name}."),
        f"src/{m}/__init__.py": _BOT.substitute(n),
        f"tests/test_{m}.py": _BOT_TEST.substitute(n),
        "README.md": _BOT_README.substitute(n),
    }


def write_bot(name: str, target: Path) -> list[Path]:
    """Write the bot package ``name`` into ``target``; the files written."""
    return _write(target, bot_files(name))


# ----------------------------------------------------------------------- the commands

DirOpt = Annotated[
    Path | None,
    typer.Option("--dir", help="Where to write the package (default: ./bourre-NAME)."),
]


def variant(
    name: Annotated[str, typer.Argument(help="The variant's name, like 'dealer-antes'.")],
    hook: Annotated[
        str,
        typer.Option("--hook", help="The rule to start from: ante, penalty, draw or decisions."),
    ] = "ante",
    directory: DirOpt = None,
) -> None:
    """Write a variant plugin package to start from: it installs and passes its tests."""
    target = directory if directory is not None else Path(f"bourre-{name}")
    written = write_variant(name, target, hook)
    _done(target, written, f"the variant {name}")


def bot(
    name: Annotated[str, typer.Argument(help="The bot's name, like 'cautious'.")],
    directory: DirOpt = None,
) -> None:
    """Write a bot plugin package to start from: it installs and passes its tests."""
    target = directory if directory is not None else Path(f"bourre-{name}")
    written = write_bot(name, target)
    _done(target, written, f"the bot {name}")


def _done(target: Path, written: list[Path], what: str) -> None:
    for path in written:
        typer.echo(f"wrote {path}")
    typer.echo(
        f"Next: cd {target} && pip install -e . && pytest  ({what} is then installed:"
        " `bourre variants` lists it)"
    )


def register_commands(cli: typer.Typer) -> None:
    """``bourre new variant NAME`` and ``bourre new bot NAME``."""
    new = typer.Typer(
        help="Write a new plugin package (a variant or a bot) that installs and passes its tests.",
        no_args_is_help=True,
    )
    new.command("variant")(variant)
    new.command("bot")(bot)
    cli.add_typer(new, name="new")
