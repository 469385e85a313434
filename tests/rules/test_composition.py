"""How variant plugins compose into a house (docs/plugins.md), how impossible settings
are refused, how broken plugins are reported at load time, and how a misbehaving
third-party plugin is named at build time and at play time.

Test variants live in this module; they reach a house through
``load_registry(extra=[(plugin name, module)])`` and ``House(..., registry=...)``.
"""

from __future__ import annotations

import copy
import importlib
import random
import sys
from collections.abc import Callable, Iterable
from importlib.metadata import distribution
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:  # for tests.reference (the independent referee)
    sys.path.insert(0, str(ROOT))

from conftest import BUILTINS as BUILTIN  # noqa: E402
from conftest import plugin  # noqa: E402

import bourre.rules.plugins  # noqa: E402
from bourre.game.actions import CARDS  # noqa: E402
from bourre.game.players import ask, make_bot  # noqa: E402
from bourre.game.simulate import play_session  # noqa: E402
from bourre.game.state import State  # noqa: E402
from bourre.houses.house import House  # noqa: E402
from bourre.houses.models import HouseError  # noqa: E402
from bourre.referee import ScriptError, replay  # noqa: E402
from bourre.rules import HandOutcome, PlayResult, Reason, RuleViolation, Ruling  # noqa: E402
from bourre.rules.hookspec import (  # noqa: E402
    CINCH,
    DECISIONS,
    FOLLOW,
    PENALTY,
    RULE_HOOKS,
    PayoutFn,
    PenaltyFn,
    PluginError,
)
from bourre.rules.plugins import Registry, default_registry, load_registry  # noqa: E402
from bourre.rules.settings import TableSettings  # noqa: E402
from bourre.rules.variant import Variant, hookimpl  # noqa: E402
from bourre_variants.no_cinch import NoCinch  # noqa: E402
from bourre_variants.standard.cinch import StandardCinch  # noqa: E402
from bourre_variants.standard.obligations import StandardFollow  # noqa: E402
from bourre_variants.standard.obligations import follow as standard_follow  # noqa: E402
from bourre_variants.standard.payout import payout as standard_payout  # noqa: E402
from tests.reference.generate import random_script  # noqa: E402

# ------------------------------------------------------------------------ test plugins


class CinchA(Variant):
    name = "cinch-a"
    summary = "A test cinch."
    rules = {"bourre_cinch": [("R-TEST-CINCH-A", "cinch a")]}

    @hookimpl
    def bourre_cinch(self, table: TableSettings) -> Any:
        return NoCinch()


class CinchB(Variant):
    name = "cinch-b"
    summary = "Another test cinch."
    rules = {"bourre_cinch": [("R-TEST-CINCH-B", "cinch b")]}

    @hookimpl
    def bourre_cinch(self, table: TableSettings) -> Any:
        return StandardCinch()


class CinchOverA(Variant):
    """Builds on cinch-a and answers the same hook: it overrides cinch-a."""

    name = "cinch-over-a"
    summary = "Builds on cinch-a."
    builds_on = ("cinch-a",)
    rules = {"bourre_cinch": [("R-TEST-CINCH-OVER", "cinch over a")]}

    @hookimpl
    def bourre_cinch(self, table: TableSettings) -> Any:
        return StandardCinch()


class CinchOverNoCinch(Variant):
    name = "cinch-over-no-cinch"
    summary = "Builds on the built-in no-cinch and puts the cinch back."
    builds_on = ("no-cinch",)
    rules = {"bourre_cinch": [("R-TEST-CINCH-BACK", "the cinch is back")]}

    @hookimpl
    def bourre_cinch(self, table: TableSettings) -> Any:
        return StandardCinch()


class PayoutA(Variant):
    name = "payout-a"
    summary = "A test payout."

    @hookimpl
    def bourre_payout(self, table: TableSettings) -> PayoutFn:
        return standard_payout


class PayoutB(Variant):
    name = "payout-b"
    summary = "Another test payout."

    @hookimpl
    def bourre_payout(self, table: TableSettings) -> PayoutFn:
        return standard_payout


class SevenCards(Variant):
    name = "seven-card"
    summary = "Seven cards each."
    rules = {"bourre_hand_size": [("R-SEVEN", "seven cards each")]}

    @hookimpl
    def bourre_hand_size(self, table: TableSettings) -> int:
        return 7


class CycleA(Variant):
    name = "cycle-a"
    builds_on = ("cycle-b",)


class CycleB(Variant):
    name = "cycle-b"
    builds_on = ("cycle-a",)


class NeedsMissing(Variant):
    name = "needs-missing"
    builds_on = ("not-installed",)


# Misbehaving plugins ---------------------------------------------------------------


class OutsideHand:
    def legal(self, hand: tuple[int, ...], trick: tuple[int, ...], trump: int) -> Ruling:
        return Ruling(tuple(c for c in range(52) if c not in hand)[:1], Reason("R-X", "x"))


class BadFollow(Variant):
    name = "bad-follow"
    summary = "Its follow answers a card outside the hand."

    @hookimpl
    def bourre_follow(self, table: TableSettings) -> Any:
        return OutsideHand()


class Raising:
    def legal(self, hand: tuple[int, ...], trick: tuple[int, ...], trump: int) -> Ruling:
        raise KeyError("no such suit")


class RaisingFollow(Variant):
    name = "raising-follow"
    summary = "Its follow raises while the hand is played."

    @hookimpl
    def bourre_follow(self, table: TableSettings) -> Any:
        return Raising()


def _leaky_payout(result: PlayResult, penalty: PenaltyFn) -> HandOutcome:
    out = standard_payout(result, penalty)
    takes = list(out.takes)
    takes[result.active[0]] += 1  # one chip from nowhere
    return HandOutcome(
        out.winner,
        takes,
        out.paid,
        out.pot_after,
        out.bourre,
        out.reneges,
        out.ante_exempt,
        out.tied,
    )


class LeakyPayout(Variant):
    name = "leaky-payout"
    summary = "Its payout does not conserve money."

    @hookimpl
    def bourre_payout(self, table: TableSettings) -> PayoutFn:
        return _leaky_payout


def _helper_that_fails(table: TableSettings) -> Any:
    raise RuntimeError("cannot build the follow")


class RaisesAtBuild(Variant):
    name = "raises-at-build"
    summary = "Its hook raises when the house is built."

    @hookimpl
    def bourre_follow(self, table: TableSettings) -> Any:
        return _helper_that_fails(table)


class WrongFollowType(Variant):
    name = "wrong-follow-type"

    @hookimpl
    def bourre_follow(self, table: TableSettings) -> Any:
        return 42


class WrongHandSize(Variant):
    name = "wrong-hand-size"

    @hookimpl
    def bourre_hand_size(self, table: TableSettings) -> Any:
        return "5"


class WrongCinch(Variant):
    name = "wrong-cinch"

    @hookimpl
    def bourre_cinch(self, table: TableSettings) -> Any:
        return object()


class WrongPayoutType(Variant):
    name = "wrong-payout-type"

    @hookimpl
    def bourre_payout(self, table: TableSettings) -> Any:
        return lambda result, penalty: {"winner": None}


class DecliningPayout(Variant):
    """Answers ``None`` (declines): the standard payout is the one that answers."""

    name = "declining-payout"
    summary = "Declines the payout hook."
    rules = {"bourre_payout": [("R-TEST-DECLINE", "this text is not enforced")]}

    @hookimpl
    def bourre_payout(self, table: TableSettings) -> Any:
        return None


class ClosedFist(Variant):
    """A third-party copy of simultaneous-reveal's decisions (no announcements)."""

    name = "closed-fist"
    summary = "Everyone decides at once."

    @hookimpl
    def bourre_decisions(self, table: TableSettings) -> Any:
        from bourre_variants.simultaneous_reveal import Simultaneous

        return Simultaneous()


# Plugins in older forms: refused, saying what the hook wants -------------------------


def follow_cards(hand: list[int], trick: list[int], trump: int) -> list[int]:
    return list(standard_follow(tuple(hand), tuple(trick), trump).cards)


class PlainFollowVariant(Variant):
    """Answers the obligations as a plain ``follow(hand, trick, trump)``: an older form."""

    name = "plain-follow"
    summary = "The standard obligations, as a plain function."

    @hookimpl
    def bourre_follow(self, table: TableSettings) -> Any:
        return follow_cards


TEST_VARIANTS = (
    CinchA,
    CinchB,
    CinchOverA,
    CinchOverNoCinch,
    PayoutA,
    PayoutB,
    SevenCards,
    CycleA,
    CycleB,
    NeedsMissing,
    BadFollow,
    RaisingFollow,
    LeakyPayout,
    RaisesAtBuild,
    WrongFollowType,
    WrongHandSize,
    WrongCinch,
    WrongPayoutType,
    DecliningPayout,
    ClosedFist,
    PlainFollowVariant,
)


@pytest.fixture(scope="module")
def reg() -> Registry:
    r = load_registry(extra=[(cls.name, plugin(cls.name, cls)) for cls in TEST_VARIANTS])
    assert not r.errors, r.errors
    return r


def behaviour(house: House, seeds: Iterable[int] = range(3)) -> list[Any]:
    """What a house does: full bot sessions (same decks for every house of a seed)."""
    out = []
    for seed in seeds:
        res = play_session(house, seed=seed)
        out.append(
            (
                res.final,
                [
                    (
                        h.dealer,
                        h.outcome.winner,
                        h.outcome.takes,
                        h.outcome.paid,
                        h.outcome.pot_after,
                        list(h.state.won),
                    )
                    for h in res.hands
                ],
            )
        )
    return out


def answered(house: House) -> dict[str, str]:
    return {hook: v.name for hook, v in house.answered_by.items()}


# ------------------------------------------------------------------ builds_on expansion


def test_builds_on_expansion_pot_limit() -> None:
    alone = House("pot-limit(limit=3)")
    explicit = House("standard+pot-limit(limit=3)")
    assert alone.names == explicit.names == ["standard", "pot-limit"]
    assert alone == explicit and alone.spec == "standard+pot-limit(limit=3)"
    assert answered(alone) == answered(explicit)
    assert answered(alone)["bourre_penalty"] == "pot-limit"
    assert behaviour(alone) == behaviour(explicit)


@pytest.mark.parametrize("name", BUILTIN[1:])
def test_every_builtin_builds_on_standard(name: str) -> None:
    spec = f"{name}(limit=4)" if name == "pot-limit" else name
    house = House(spec)
    assert house.names == ["standard", name]
    for hook in RULE_HOOKS:
        assert answered(house)[hook.name] in ("standard", name)


def test_standard_named_after_a_variant_is_the_same_house() -> None:
    assert House("no-cinch+standard").names == ["standard", "no-cinch"]
    assert House("no-cinch+standard") == House("no-cinch")


def test_transitive_builds_on(reg: Registry) -> None:
    house = House("cinch-over-a", registry=reg)
    assert house.names == ["standard", "cinch-a", "cinch-over-a"]
    assert answered(house)["bourre_cinch"] == "cinch-over-a"
    assert house.rules[CINCH].has_cinch((49, 50, 51), 3, frozenset(), 0)  # not cinch-a's NoCinch


def test_builds_on_overrides_a_builtin(reg: Registry) -> None:
    for spec in (
        "cinch-over-no-cinch",
        "no-cinch+cinch-over-no-cinch",
        "cinch-over-no-cinch+no-cinch",
    ):
        house = House(spec, registry=reg)
        assert house.names == ["standard", "no-cinch", "cinch-over-no-cinch"], spec
        assert answered(house)["bourre_cinch"] == "cinch-over-no-cinch"
        assert house.rules[CINCH].has_cinch((49, 50, 51), 3, frozenset(), 0)
        ids = [rid for hook, _, (rid, _) in house.rule_texts() if hook == "bourre_cinch"]
        assert ids == ["R-TEST-CINCH-BACK"]
    # and no-cinch alone still overrides standard
    assert isinstance(House("no-cinch").rules[CINCH], NoCinch)


def test_builds_on_cycle_and_missing_base(reg: Registry) -> None:
    with pytest.raises(HouseError, match="cycle"):
        House("cycle-a", registry=reg)
    with pytest.raises(HouseError, match="unknown variant 'not-installed'"):
        House("needs-missing", registry=reg)


# -------------------------------------------------------------------- order independence


ORDERS = [
    ("double-ante+pot-limit(limit=3)+no-cinch", "no-cinch+pot-limit(limit=3)+double-ante"),
    (
        "optional-undertrump+four-card+table(players=6)",
        "four-card+standard+optional-undertrump+table(players=6)",
    ),
    ("simultaneous-reveal+pot-limit(limit=2)", "pot-limit(limit=2)+simultaneous-reveal+standard"),
]


@pytest.mark.parametrize(("a", "b"), ORDERS)
def test_order_does_not_matter_for_independent_variants(a: str, b: str) -> None:
    ha, hb = House(a), House(b)
    assert sorted(ha.names) == sorted(hb.names)
    assert answered(ha) == answered(hb)
    assert sorted(ha.rule_texts()) == sorted(hb.rule_texts())
    assert behaviour(ha) == behaviour(hb)


def test_order_of_a_builder_and_its_base_does_not_matter(reg: Registry) -> None:
    a = House("cinch-a+cinch-over-a", registry=reg)
    b = House("cinch-over-a+cinch-a", registry=reg)
    assert a.names == b.names and answered(a) == answered(b)


# -------------------------------------------------------------------------- conflicts


@pytest.mark.parametrize(
    ("spec", "names", "hook"),
    [
        ("cinch-a+cinch-b", ("cinch-a", "cinch-b"), "bourre_cinch"),
        ("cinch-b+cinch-a", ("cinch-a", "cinch-b"), "bourre_cinch"),
        ("no-cinch+cinch-b", ("no-cinch", "cinch-b"), "bourre_cinch"),
        ("payout-a+payout-b", ("payout-a", "payout-b"), "bourre_payout"),
        # cinch-over-a overrides cinch-a, but nothing resolves cinch-a against cinch-b
        ("cinch-over-a+cinch-b", ("cinch-a", "cinch-b"), "bourre_cinch"),
    ],
)
def test_two_answers_without_builds_on_is_an_error(
    reg: Registry, spec: str, names: tuple[str, str], hook: str
) -> None:
    with pytest.raises(HouseError) as err:
        House(spec, registry=reg)
    msg = str(err.value)
    for name in names:
        assert repr(name) in msg, msg
    assert hook in msg
    assert "builds_on" in msg or "builds on" in msg


# --------------------------------------------------------------- impossible settings


@pytest.mark.parametrize(
    ("spec", "key"),
    [
        ("pot-limit(limit=0)", "variants.pot-limit.limit"),
        ("pot-limit(limit=-1)", "variants.pot-limit.limit"),
        ("pot-limit", "variants.pot-limit.limit"),
        ("standard+pot-limit", "variants.pot-limit.limit"),
        ("pot-limit(limit=big)", "variants.pot-limit.limit"),
        ("pot-limit(limit=3,cap=4)", "variants.pot-limit.cap"),
        ("no-cinch(strict=true)", "variants.no-cinch.strict"),
        ("standard+table(players=9)", "table.players"),
        ("standard+table(players=1)", "table.players"),
        ("standard+table(players=0)", "table.players"),
        ("standard+table(ante=0)", "table.ante"),
        ("standard+table(hands=0)", "table.hands"),
        ("standard+table(players=3,first_dealer=3)", "first_dealer"),
        ("standard+table(seats=5)", "table.seats"),
    ],
)
def test_impossible_settings_name_the_key(spec: str, key: str) -> None:
    with pytest.raises(HouseError) as err:
        House(spec)
    assert key in str(err.value), str(err.value)


def test_impossible_settings_in_a_house_file(tmp_path: Path) -> None:
    path = tmp_path / "house.toml"
    path.write_text(
        '[variants]\nuse = ["pot-limit"]\n"pot-limit" = {limit = 0}\n', encoding="utf-8"
    )
    with pytest.raises(HouseError) as err:
        House(path)
    assert str(path) in str(err.value) and "variants.pot-limit.limit" in str(err.value)
    path.write_text("[table]\nplayers = 9\n", encoding="utf-8")
    with pytest.raises(HouseError, match=r"table\.players"):
        House(path)


def test_impossible_settings_in_a_script() -> None:
    script = random_script(random.Random(1), players=5, variants=[], hands=1)
    script["rules"] = {"variants": {"use": ["pot-limit"], "pot-limit": {"limit": -1}}}
    with pytest.raises(ScriptError, match=r"variants\.pot-limit\.limit"):
        replay(script)
    script["rules"] = {"table": {"players": 9}}
    with pytest.raises(ScriptError, match=r"table\.players"):
        replay(script)


def test_settings_for_a_variant_not_in_use() -> None:
    from bourre.houses.models import HouseRules

    hr = HouseRules.model_validate({"variants": {"use": ["standard"], "pot-limit": {"limit": 3}}})
    with pytest.raises(HouseError, match=r"variants\.pot-limit"):
        House(hr)


def test_hand_size_the_table_cannot_deal(reg: Registry) -> None:
    with pytest.raises(HouseError) as err:
        House("seven-card+table(players=8)", registry=reg)
    msg = str(err.value)
    assert "table.players" in msg and "R-DEAL" in msg and "7" in msg
    # 7 × 7 = 49 ≤ 52 can be dealt
    assert House("seven-card+table(players=7)", registry=reg).rules.hand_size == 7
    # the built-in sizes fit every table size
    for n in range(2, 9):
        House(f"standard+table(players={n})")
        House(f"four-card+table(players={n})")


def test_valid_settings_are_kept() -> None:
    house = House("pot-limit(limit=7)+table(players=3,ante=2)")
    assert house.variants[1].settings.limit == 7
    assert house.rules[PENALTY](10) == 7 and house.rules[PENALTY](5) == 5
    assert house.spec == "standard+pot-limit(limit=7)+table(players=3,ante=2)"
    assert House(house.spec) == house


# ------------------------------------------------------------ the default registry


def test_every_builtin_is_in_the_default_registry() -> None:
    reg = default_registry()
    assert not reg.errors, reg.errors
    eps = {ep.name: ep.value for ep in distribution("bourre").entry_points if ep.group == "bourre"}
    version = distribution("bourre").version
    for name in BUILTIN:
        info = reg.variants[name]
        assert info.package == f"bourre {version}", (name, info.package)
        assert info.plugin == name
        assert name in eps, f"{name} is not an entry point of the bourre distribution"
        assert info.cls.__module__ == eps[name] or info.cls.__module__.startswith(eps[name] + ".")
        assert info.cls.name == name
    assert "random" in reg.bots


def test_builtin_settings_models_are_frozen_and_strict() -> None:
    for name, info in default_registry().variants.items():
        cfg = info.cls.Settings.model_config
        assert cfg.get("frozen") is True, name
        assert cfg.get("extra") == "forbid", name


# ------------------------------------------------------------------ broken plugins


def _misspelt_module() -> ModuleType:
    mod = ModuleType("fake_misspelt")

    @hookimpl
    def bourre_folow(table: TableSettings) -> Any:  # misspelt hook
        return standard_follow

    mod.bourre_folow = bourre_folow  # type: ignore[attr-defined]
    return mod


class MisspeltMethod(Variant):
    name = "misspelt-method"

    @hookimpl
    def bourre_paypout(self, table: TableSettings) -> Any:
        return standard_payout


class NotAVariant:
    name = "not-a-variant"


class DuplicatePotLimit(Variant):
    name = "pot-limit"
    summary = "Another pot-limit."


class Nameless(Variant):
    summary = "No name."


class GoodThirdParty(Variant):
    name = "good-third-party"
    summary = "A good third-party variant loaded next to broken ones."


def _raising_registration() -> ModuleType:
    mod = ModuleType("fake_raising")

    @hookimpl
    def bourre_register_variants(register: Callable[[type[Variant]], None]) -> None:
        raise RuntimeError("registration exploded")

    mod.bourre_register_variants = bourre_register_variants  # type: ignore[attr-defined]
    return mod


def _import_fails() -> Any:
    return importlib.import_module("bourre_no_such_plugin_module")


BROKEN: list[tuple[str, str, Callable[[], Any]]] = [
    ("broken-import", "broken-import 1.0", _import_fails),
    ("misspelt", "misspelt 1.0", _misspelt_module),
    ("misspelt-method", "misspelt-method 1.0", lambda: plugin("misspelt-method", MisspeltMethod)),
    ("not-a-variant", "not-a-variant 1.0", lambda: plugin("not-a-variant", NotAVariant)),
    ("duplicate", "duplicate 2.0", lambda: plugin("duplicate", DuplicatePotLimit)),
    ("nameless", "nameless 1.0", lambda: plugin("nameless", Nameless)),
    ("raising", "raising 1.0", _raising_registration),
    ("good", "good-third-party 1.0", lambda: plugin("good", GoodThirdParty)),
]


@pytest.fixture
def broken_entry_points(monkeypatch: pytest.MonkeyPatch) -> None:
    real = list(bourre.rules.plugins._entry_points())

    def fake() -> Iterable[tuple[str, str, bool, Callable[[], Any]]]:
        yield from real
        for name, package, load in BROKEN:
            yield name, package, False, load

    monkeypatch.setattr(bourre.rules.plugins, "_entry_points", fake)


def test_broken_plugins_are_recorded(broken_entry_points: None) -> None:
    reg = load_registry()
    errors = {e.plugin: e for e in reg.errors}
    assert set(errors) == {
        "broken-import",
        "misspelt",
        "misspelt-method",
        "not-a-variant",
        "duplicate",
        "nameless",
        "raising",
    }
    assert "cannot be imported" in errors["broken-import"].message
    assert "bourre_no_such_plugin_module" in errors["broken-import"].message
    assert "bourre_folow" in errors["misspelt"].message
    assert "invalid hooks" in errors["misspelt-method"].message
    assert "not a bourre.rules.variant.Variant" in errors["not-a-variant"].message
    assert "already registered" in errors["duplicate"].message
    assert "'pot-limit'" in str(errors["duplicate"])
    assert "no name" in errors["nameless"].message
    assert "registration exploded" in errors["raising"].message
    for e in reg.errors:  # each error names the plugin and its package
        assert e.plugin in str(e) and e.package in str(e)
    # the good ones are all there, the built-in pot-limit was not replaced
    for name in BUILTIN:
        assert reg.variants[name].package.startswith("bourre ")
    assert reg.variants["good-third-party"].package == "good-third-party 1.0"
    assert "misspelt-method" not in reg.variants and "not-a-variant" not in reg.variants
    # a house of the good ones still builds
    assert House("good-third-party+pot-limit(limit=2)", registry=reg).names == [
        "standard",
        "good-third-party",
        "pot-limit",
    ]


def test_broken_plugin_named_when_used(broken_entry_points: None) -> None:
    reg = load_registry()
    with pytest.raises(HouseError) as err:
        House("misspelt-method", registry=reg)
    assert "failed to load" in str(err.value) and "invalid hooks" in str(err.value)


def test_misspelt_variant_method_is_named(broken_entry_points: None) -> None:
    reg = load_registry()
    errors = {e.plugin: e for e in reg.errors}
    assert "bourre_paypout" in errors["misspelt-method"].message


def test_bourre_variants_lists_the_good_ones(
    broken_entry_points: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    from typer.testing import CliRunner

    from bourre.cli import app

    reg = load_registry()
    monkeypatch.setattr(bourre.rules.plugins, "default_registry", lambda: reg)
    monkeypatch.setenv("COLUMNS", "250")
    monkeypatch.setenv("NO_COLOR", "1")
    result = CliRunner().invoke(app, ["variants"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    for name in (*BUILTIN, "good-third-party"):
        assert any(f" {name} " in line for line in lines), name
    failed = [line for line in lines if "failed to load" in line]
    assert len(failed) == 7
    for plugin_name in ("broken-import", "misspelt", "not-a-variant", "duplicate", "raising"):
        assert any(f"'{plugin_name}'" in line for line in failed), plugin_name


# ----------------------------------------------------------- plugin runtime errors


@pytest.mark.parametrize(
    ("spec", "plugin_name", "hook", "words"),
    [
        ("raises-at-build", "raises-at-build", "bourre_follow", "cannot build the follow"),
        ("wrong-follow-type", "wrong-follow-type", "bourre_follow", "lacks legal"),
        ("wrong-hand-size", "wrong-hand-size", "bourre_hand_size", "number of cards"),
        ("plain-follow", "plain-follow", "bourre_follow", "must answer an object with legal"),
        ("wrong-cinch", "wrong-cinch", "bourre_cinch", "lacks"),
    ],
)
def test_plugin_errors_at_build(
    reg: Registry, spec: str, plugin_name: str, hook: str, words: str
) -> None:
    with pytest.raises(PluginError) as err:
        House(spec, registry=reg)
    assert err.value.plugin == plugin_name
    assert err.value.hook == hook
    assert plugin_name in str(err.value) and hook in str(err.value) and words in str(err.value)


@pytest.mark.parametrize(
    ("spec", "hook", "words"),
    [
        ("bad-follow", "bourre_follow", "within the hand"),
        ("raising-follow", "bourre_follow", "no such suit"),
        ("leaky-payout", "bourre_payout", "money not conserved"),
        ("wrong-payout-type", "bourre_payout", "HandOutcome"),
    ],
)
def test_plugin_errors_in_a_session(reg: Registry, spec: str, hook: str, words: str) -> None:
    house = House(spec, registry=reg)  # builds: the fault shows only in play
    with pytest.raises(PluginError) as err:
        play_session(house, seed=1)
    assert err.value.plugin == spec and err.value.hook == hook
    assert words in str(err.value)


def _script_with_tricks(rules: dict) -> dict:
    for seed in range(100):
        script = random_script(
            random.Random(seed), players=4, variants=[], hands=1, illegal_rate=0, premature_rate=0
        )
        if script["hands"][0]["plays"] and "pot" not in script["hands"][0]:
            script = copy.deepcopy(script)
            script["rules"] = rules
            script.pop("balances", None)
            return script
    raise AssertionError("no script with tricks")


@pytest.mark.parametrize(
    ("name", "hook", "words"),
    [
        ("bad-follow", "bourre_follow", "within the hand"),
        ("raising-follow", "bourre_follow", "no such suit"),
        ("leaky-payout", "bourre_payout", "money not conserved"),
        ("raises-at-build", "bourre_follow", "cannot build the follow"),
        ("wrong-cinch", "bourre_cinch", "lacks"),
    ],
)
def test_plugin_errors_in_a_replay(reg: Registry, name: str, hook: str, words: str) -> None:
    script = _script_with_tricks({"table": {"players": 4}, "variants": {"use": [name]}})
    with pytest.raises(ScriptError) as err:
        replay(script, registry=reg)
    msg = str(err.value)
    assert f"plugin {name!r}" in msg and hook in msg and words in msg, msg


def test_builtin_components_are_not_wrapped_unless_strict() -> None:
    house = House("standard")
    assert type(house.rules[FOLLOW]) is StandardFollow  # the variant's own object
    strict = House("standard", strict=True)
    assert not isinstance(strict.rules[FOLLOW], StandardFollow)  # wrapped in checks
    hand = (0, 1, 14)
    assert strict.rules[FOLLOW].legal(hand, (2,), 3) == standard_follow(hand, (2,), 3)
    assert standard_follow(hand, (2,), 3).cards == (0, 1)
    with pytest.raises(PluginError, match="within the hand"):  # the guard checks the answer
        strict.rules[FOLLOW].legal((), (2,), 3)


def first_play(house: House, want: Callable[[State], bool]) -> State:
    """The first state of random-bot sessions where a card is to be played and
    ``want`` holds."""
    for seed in range(200):
        state = State(house, seed=seed)
        rng = random.Random(seed)
        players = [make_bot("random", rng) for _ in range(house.table.players)]
        while not state.is_terminal():
            if state.phase_name == "play" and want(state):
                return state
            state.apply_action(ask(state, players[state.current_player()]))
    raise AssertionError(f"no such play in {house}")


def _refused(state: State, card: int) -> RuleViolation:
    before = (state.current_player(), list(state.legal_cards()), state.history())
    with pytest.raises(RuleViolation) as err:
        state.apply_action(CARDS[card])
    assert (state.current_player(), list(state.legal_cards()), state.history()) == before
    assert set(err.value.legal) == set(state.legal_cards())
    return err.value


def test_a_refusal_cites_the_rule_that_left_the_card_out() -> None:
    """A card the ordinary obligations forbid is refused in their words; one they allow
    but a cinch forbids, in the cinch's (R-CINCH-FOLLOW, R-CINCH-LEAD)."""
    house = House("standard")

    def obliged(state: State) -> bool:
        legal = state.legal_with_reasons()
        return len(legal.ordinary) < len(state.hand.hands[state.current_player()])

    state = first_play(house, obliged)
    hand = state.hand.hands[state.current_player()]
    card = next(c for c in hand if c not in state.legal_cards())
    assert _refused(state, card).rule in ("R-FOLLOW", "R-TRUMP")

    def narrowed(state: State) -> bool:
        legal = state.legal_with_reasons()
        return legal.cinch and len(legal.cards) < len(legal.ordinary)

    state = first_play(house, narrowed)
    legal = state.legal_with_reasons()
    card = next(c for c in legal.ordinary if c not in legal.cards)
    assert _refused(state, card).rule == ("R-CINCH-FOLLOW" if state.hand.trick else "R-CINCH-LEAD")


def test_a_declining_variant_does_not_answer(reg: Registry) -> None:
    house = House("declining-payout", registry=reg)
    assert answered(house)["bourre_payout"] == "standard"
    ids = [rid for hook, _, (rid, _) in house.rule_texts() if hook == "bourre_payout"]
    assert "R-TEST-DECLINE" not in ids and "R-WIN" in ids


@pytest.mark.parametrize("spec", ["closed-fist", "simultaneous-reveal"])
def test_guarded_components_keep_their_attributes(reg: Registry, spec: str) -> None:
    from bourre.rules.cards import card_str

    strict = spec == "simultaneous-reveal"
    house = House(spec, registry=reg, strict=strict)
    assert getattr(house.rules[DECISIONS], "announcements", True) is False
    deck = [card_str(c) for c in range(52)]
    hand = {
        "deck": deck,
        "decisions": [
            {"seat": 1, "action": "pass"},
            {"seat": 2, "action": "pass"},
            {"seat": 0, "action": "play"},
        ],
        "events": [{"type": "premature", "seat": 1}],
    }
    script = {"rules": {"table": {"players": 3}, "variants": {"use": [spec]}}, "hands": [hand]}
    with pytest.raises(ScriptError, match="premature"):
        replay(script, registry=reg)


# -- one mechanism for rule hooks: the house's loop; pluggy only registers plugins ---------


def test_pluggy_knows_the_registration_hooks_only() -> None:
    """Rule hooks are not pluggy hooks: the plugin manager has the three registration
    hooks and none of the rule hooks, which the house asks itself."""
    pm = bourre.rules.plugins.make_manager()
    assert {"bourre_register_variants", "bourre_register_bots", "bourre_register_commands"} <= {
        name for name in vars(pm.hook) if name.startswith("bourre_")
    }
    for hook in RULE_HOOKS:
        assert not hasattr(pm.hook, hook.name), hook.name


def test_a_rule_hook_as_a_module_function_is_a_load_error() -> None:
    mod = ModuleType("fake_module_follow")

    @hookimpl
    def bourre_follow(table: TableSettings) -> Any:
        return standard_follow

    mod.bourre_follow = bourre_follow  # type: ignore[attr-defined]
    reg = load_registry(extra=[("module-follow", mod)])
    (error,) = [e for e in reg.errors if e.plugin == "module-follow"]
    assert "bourre_follow" in error.message and "method of a Variant" in error.message


class ExtraArgument(Variant):
    name = "extra-argument"

    @hookimpl
    def bourre_follow(self, table: TableSettings, seat: int) -> Any:
        return standard_follow


def test_a_rule_method_taking_what_its_hook_does_not_give_is_a_load_error() -> None:
    reg = load_registry(extra=[("extra-argument", plugin("extra-argument", ExtraArgument))])
    (error,) = [e for e in reg.errors if e.plugin == "extra-argument"]
    assert "invalid hooks" in error.message and "seat" in error.message
    assert "extra-argument" not in reg.variants


def test_the_conformance_kit_names_why_a_variant_did_not_load() -> None:
    """``bourre.testing.check_variant`` says what the registry said of a variant whose
    rule methods were refused, as the house does."""
    from bourre.testing import check_variant

    reg = load_registry(extra=[("extra-argument", plugin("extra-argument", ExtraArgument))])
    report = check_variant("extra-argument", registry=reg, raise_on_failure=False)
    (failure,) = report.failures
    assert "failed to load" in failure.message and "seat" in failure.message
