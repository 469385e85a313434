"""The kit's entry points, :func:`check_variant`, :func:`check_bot` and
:func:`check_house`, and :func:`play_house`, which runs every session check of one
house at each table size (:mod:`~bourre.testing.sessions`, then
:mod:`~bourre.testing.determinism` and :mod:`~bourre.testing.replay` on each session).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from bourre.game.botmaking import make_bot
from bourre.houses.house import House, PluginError
from bourre.houses.models import HouseError
from bourre.houses.strings import parse_house_string
from bourre.rules.plugins import Registry, default_registry
from bourre.testing.compare import compare as compare_house
from bourre.testing.compare import compare_bot
from bourre.testing.determinism import determinism
from bourre.testing.houses import SIZES, builtins, compositions, listed_rules, term_name, with_table
from bourre.testing.isolated import isolated as isolated_bot
from bourre.testing.players import random_players
from bourre.testing.replay import replayed
from bourre.testing.report import HOOK_CHECK, Failure, Report
from bourre.testing.seeds import run_seed
from bourre.testing.sessions import Players, Session


def play_house(
    spec: str,
    house: House,
    report: Report,
    registry: Registry,
    sessions: int,
    hands: int,
    seed: str,
    players: Players,
    sizes: Sequence[int],
) -> None:
    """Every check of the sessions of ``house`` at each table size."""
    listed = listed_rules(house)
    for n in sizes:
        try:
            h = House(with_table(spec, n, hands), registry=registry)
        except HouseError:
            continue  # the deck cannot serve this table (R-DEAL): not played
        except PluginError as e:
            report.fail(Failure(HOOK_CHECK.get(e.hook, "build"), spec, str(e)))
            continue
        report.houses.append(h.spec)
        for i in range(sessions):
            sseed = f"{seed}:{n}:{i}"
            first = Session(h.spec, h, sseed, hands, players, report, listed).play()
            if first is None:
                continue
            again = Session(h.spec, h, sseed, hands, players, Report(report.plugin), listed)
            determinism(first, again.play(), report, h.spec, sseed)
            replayed(first, report, h.spec, sseed, registry)


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
        play_house(spec, house, report, reg, sessions, hands, seed, random_players, sizes)
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
    name = term_name(variant)
    if name not in reg.variants:
        known = ", ".join(sorted(reg.variants))
        broken = [e.message for e in reg.errors if e.plugin == name]
        why = f" (its plugin failed to load: {broken[0]})" if broken else ""
        report.fail(
            Failure("build", variant, f"no variant {name!r} is installed{why}; installed: {known}")
        )
        return report.raise_for_failures() if raise_on_failure else report
    houses = compositions(variant, reg, report, f"variant {name!r}")
    if not compose:
        houses = houses[:1]
    for k, (spec, house) in enumerate(houses):
        # alone: every size; composed: the smallest, a middle and the largest table
        use = sizes if k == 0 else tuple(sorted({min(sizes), 5, max(sizes)} & set(sizes)))
        play_house(
            spec, house, report, reg, sessions if k == 0 else 1, hands, seed, random_players, use
        )
    if houses and compare:
        compare_house(houses[0][0], houses[0][1], report, reg, ["random"], seed)
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
    specs = list(houses) if houses is not None else ["standard", *builtins(reg, ())]
    for spec in specs:
        try:
            house = House(spec, registry=reg)
        except (HouseError, PluginError) as e:
            report.fail(Failure("build", spec, str(e)))
            continue

        def players(seat: int, rng: random.Random, house: House) -> Any:
            """The bot at every seat, told the house it plays (its table size)."""
            return make_bot(bot, random.Random(rng.random()), house=house, **opts)

        play_house(spec, house, report, reg, sessions, hands, seed, players, sizes)
    if isolated:
        isolated_bot(bot, opts, report, seed)
    if compare and ":" not in bot:
        compare_bot(bot, opts, report, reg, seed)
    return report.raise_for_failures() if raise_on_failure else report
