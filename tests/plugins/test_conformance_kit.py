"""The conformance kit (:mod:`bourre.testing`): the built-in variants and bots and the
example plugin ``split-pot`` pass it, and each deliberately broken plugin below is
caught by the check it breaks, named with the hand, the seat and a script."""

from __future__ import annotations

import dataclasses
import importlib
import json
import random
import subprocess
import sys
from collections.abc import Callable, Sequence
from fractions import Fraction
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from conftest import ALTERNATIVES

from bourre.houses.house import House
from bourre.referee import ScriptError, replay
from bourre.rules import HandOutcome, PlayResult, Reason, Ruling
from bourre.rules.hookspec import PenaltyFn
from bourre.rules.plugins import load_registry
from bourre.rules.variant import Variant, hookimpl
from bourre.testing import ConformanceError, Failure, check_bot, check_house, check_variant
from bourre_variants.standard.deal import StandardDeal
from bourre_variants.standard.obligations import TEXTS as FOLLOW_TEXTS
from bourre_variants.standard.obligations import follow as standard_follow
from bourre_variants.standard.payout import PAYOUT_TEXTS
from bourre_variants.standard.payout import payout as standard_payout

ROOT = Path(__file__).resolve().parents[2]
SPLIT_POT_SRC = ROOT / "docs" / "examples" / "bourre-split-pot" / "src"
pytest_plugins = ("pytester",)
QUICK = {"sizes": (2, 5, 8), "sessions": 1}


def _registry_of(*variants: type[Variant]) -> Any:
    """A registry with the installed plugins and ``variants`` as one plugin not built in."""

    @hookimpl
    def bourre_register_variants(register: Callable[[type[Variant]], None]) -> None:
        for v in variants:
            register(v)

    plugin = SimpleNamespace(bourre_register_variants=bourre_register_variants)
    reg = load_registry(extra=[(variants[0].name, plugin)])
    assert not reg.errors, reg.errors
    return reg


def _failures(name: str, *variants: type[Variant], **kw: Any) -> list[Failure]:
    with pytest.raises(ConformanceError) as caught:
        check_variant(name, registry=_registry_of(*variants), **{**QUICK, **kw})
    assert str(caught.value).startswith(f"{name}: ")
    return caught.value.failures


# ----------------------------------------------------------------- what passes


@pytest.mark.parametrize("variant", ALTERNATIVES)
def test_every_builtin_variant_passes(variant: str) -> None:
    report = check_variant(variant, **QUICK)
    assert not report.failures
    assert report.sessions >= 3 and report.checked_positions > 0
    assert {"R-WIN", "R-LEAD"} <= report.cited  # payouts and legal sets were asked
    assert len(report.houses) > 3  # alone and composed with other built-ins


def test_standard_passes_at_every_table_size() -> None:
    report = check_variant("standard", compose=False, compare=False)
    assert [House(h).table.players for h in report.houses] == list(range(2, 9))
    assert report.sessions == 14  # two sessions at each of the seven sizes


def test_four_card_skips_no_size_the_deck_serves() -> None:
    """4 × 8 = 32 cards: every size is played; the conflicts are declared."""
    report = check_variant("four-card", compose=False, compare=False, sessions=1)
    assert len(report.houses) == 7


def test_a_whole_house_is_checked_as_given() -> None:
    report = check_house("pot-limit(limit=2)+double-ante+no-cinch", sizes=(4, 6))
    assert report.sessions == 4 and len(report.houses) == 2
    assert {"R-DOUBLE-ANTE", "R-LEAD"} <= report.cited


@pytest.mark.parametrize("bot", ["random", "heuristic"])
def test_builtin_bots_pass(bot: str) -> None:
    report = check_bot(bot, sizes=(3,), houses=["standard", "simultaneous-reveal"])
    assert not report.failures and report.sessions == 2


@pytest.mark.slow
def test_montecarlo_bot_passes() -> None:
    check_bot("montecarlo", sizes=(3,), houses=["standard"], options={"budget": 4})


@pytest.mark.slow
@pytest.mark.parametrize("variant", ["standard", *ALTERNATIVES])
def test_every_builtin_variant_passes_a_longer_run(variant: str) -> None:
    check_variant(variant, sessions=4, hands=5)


@pytest.fixture(scope="module")
def split_pot_registry() -> Any:
    """The example plugin ``split-pot``, imported from its source (not installed)."""
    sys.path.insert(0, str(SPLIT_POT_SRC))
    try:
        module = importlib.import_module("bourre_split_pot")
    finally:
        sys.path.remove(str(SPLIT_POT_SRC))
        sys.modules.pop("bourre_split_pot", None)  # test_third_party imports the installed one
    reg = load_registry(extra=[("split-pot", module)])
    assert not reg.errors
    return reg


def test_the_example_plugin_split_pot_passes(split_pot_registry: Any) -> None:
    report = check_variant("split-pot", registry=split_pot_registry, **QUICK)
    assert not report.failures
    assert "R-SPLIT-POT" in {r for r in report.cited} or "R-WIN" in report.cited
    # it combines with every built-in but none conflicts: it answers the payout only
    assert any("double-ante" in h for h in report.houses)


def test_the_fixture_is_registered(pytester: pytest.Pytester) -> None:
    """The ``pytest11`` entry point gives any suite the fixture and the option."""
    pytester.makepyfile(
        """
        def test_kit(bourre_conformance):
            report = bourre_conformance.variant("no-cinch", sizes=(3,), compose=False)
            assert report.sessions == 1
        """
    )
    result = pytester.runpytest("-p", "no:cacheprovider", "--bourre-sessions", "1")
    result.assert_outcomes(passed=1)


# ----------------------------------------------------------------- what is caught


class LosesAChip(Variant):
    """The winner takes one chip less than the pot: money not conserved."""

    name = "loses-a-chip"
    rules = {"bourre_payout": [("R-WIN", "The winner takes the pot, less one chip.")]}

    @hookimpl
    def bourre_payout(self, table: Any) -> Callable[[PlayResult, PenaltyFn], HandOutcome]:
        def payout(result: PlayResult, penalty: PenaltyFn) -> HandOutcome:
            out = standard_payout(result, penalty)
            if out.winner is None:
                return out
            takes = list(out.takes)
            takes[out.winner] -= 1
            return dataclasses.replace(out, takes=takes)

        return payout


def test_a_payout_that_loses_a_chip_is_caught_by_money() -> None:
    failures = _failures("loses-a-chip", LosesAChip)
    first = failures[0]
    assert first.check == "money" and "bourre_payout" in first.message
    assert first.hand is not None and first.seed is not None
    assert "loses-a-chip" in first.house


class DuplicatesACard(Variant):
    """The last seat's first card is a copy of the first seat's: a card in two hands."""

    name = "duplicates-a-card"

    @hookimpl
    def bourre_deal(self, table: Any, hand_size: int) -> Any:
        class Deal(StandardDeal):
            def deal(self, deck: Sequence[int], dealer: int, n: int) -> Any:
                hands, up, stock = super().deal(deck, dealer, n)
                hands[-1][0] = hands[0][0]
                return hands, up, stock

        return Deal(hand_size)


def test_a_deal_that_duplicates_a_card_is_caught_by_cards() -> None:
    failures = _failures("duplicates-a-card", DuplicatesACard)
    assert failures[0].check == "cards" and failures[0].hand == 1


class EmptyFollow(Variant):
    """Following to a trick answers no card at all."""

    name = "empty-follow"
    rules = {"bourre_follow": FOLLOW_TEXTS}

    @hookimpl
    def bourre_follow(self, table: Any) -> Any:
        class Follow:
            def legal(self, hand: tuple[int, ...], trick: tuple[int, ...], trump: int) -> Ruling:
                if trick:
                    return Ruling((), Reason("R-FOLLOW", "nothing may be played"))
                return standard_follow(hand, trick, trump)

        return Follow()


def test_a_follow_rule_that_answers_an_empty_set_is_caught_by_the_legal_set() -> None:
    failures = _failures("empty-follow", EmptyFollow)
    first = failures[0]
    assert first.check == "legal set" and first.seat is not None and first.hand is not None
    # the script reaches the position: the lead is played, nothing after it
    assert first.script is not None and len(first.script["hands"][-1]["plays"]) == 1
    with pytest.raises(ScriptError, match="bourre_follow"):  # the script reaches it
        replay(first.script, registry=_registry_of(EmptyFollow))


class CitesNothingListed(Variant):
    """Follows the standard rule but cites R-NOWHERE, a rule no text lists."""

    name = "cites-nothing"
    rules = {"bourre_follow": [("R-LEAD", "The first active player leads.")]}

    @hookimpl
    def bourre_follow(self, table: Any) -> Any:
        class Follow:
            def legal(self, hand: tuple[int, ...], trick: tuple[int, ...], trump: int) -> Ruling:
                ruling = standard_follow(hand, trick, trump)
                if trick:
                    return Ruling(ruling.cards, Reason("R-NOWHERE", ruling.reason.words))
                return ruling

        return Follow()


def test_a_reason_citing_an_unlisted_rule_is_caught_by_citations() -> None:
    failures = _failures("cites-nothing", CitesNothingListed)
    first = failures[0]
    assert first.check == "citations" and "R-NOWHERE" in first.message
    assert "bourre rules" in first.message


_SPARED: list[bool] = []
"""The coin-payout's memory: one entry per winner it has paid (state kept between calls)."""


class NotDeterministic(Variant):
    """Lets every other winner's pot carry instead, counting across sessions: state kept
    between calls, so the same seed played twice pays differently once a session has an
    odd number of winners (no randomness in the test)."""

    name = "coin-payout"
    rules = {"bourre_payout": PAYOUT_TEXTS}

    @hookimpl
    def bourre_payout(self, table: Any) -> Callable[[PlayResult, PenaltyFn], HandOutcome]:
        def payout(result: PlayResult, penalty: PenaltyFn) -> HandOutcome:
            out = standard_payout(result, penalty)
            if out.winner is None:
                return out
            _SPARED.append(True)
            if len(_SPARED) % 2:
                return out
            takes = list(out.takes)
            takes[out.winner] = 0
            return dataclasses.replace(
                out, winner=None, takes=takes, pot_after=out.pot_after + result.pot_at_stake
            )

        return payout


def test_a_component_that_is_not_deterministic_is_caught_by_determinism() -> None:
    _SPARED.clear()
    failures = _failures("coin-payout", NotDeterministic, compose=False)
    checks = {f.check for f in failures}
    assert "determinism" in checks
    det = next(f for f in failures if f.check == "determinism")
    assert "same seed" in det.message and det.script is not None


class Wraps(Variant):
    """Stacks on the standard payout by wrapping its hook instead of building on it."""

    name = "wraps-payout"

    @hookimpl(hookwrapper=True)
    def bourre_payout(self, table: Any) -> Any:
        yield


def test_a_wrapping_plugin_is_caught_by_conflicts() -> None:
    failures = _failures("wraps-payout", Wraps)
    assert [f.check for f in failures] == ["conflicts"]
    assert "builds_on" in failures[0].message


def _lone_bot(rng: random.Random, **options: Any) -> Any:
    from bourre.game.playerbase import PlayerBase

    class Coin(PlayerBase):
        def decide(self, view: Any) -> bool:
            # the process's random numbers, not rng
            return view.forced is not None or random.random() < 0.5

        def play(self, view: Any) -> int:
            # (and a card of them: two sessions alike by chance would hide it)
            return random.choice(list(view.legal))  # type: ignore[no-any-return]

    return Coin()


def test_a_bot_with_its_own_random_numbers_is_caught_by_determinism() -> None:
    with pytest.raises(ConformanceError) as caught:
        check_bot(f"{__name__}:_lone_bot", houses=["standard"], sizes=(4,), isolated=False)
    assert "determinism" in {f.check for f in caught.value.failures}


def test_a_bot_not_installed_is_caught_by_the_isolated_protocol() -> None:
    """The isolated child imports what is installed: a bot living in a test module
    only the parent can import fails there, and the kit names it."""
    with pytest.raises(ConformanceError) as caught:
        check_bot(f"{__name__}:_lone_bot", houses=["standard"], sizes=(2,), sessions=1)
    isolated = [f for f in caught.value.failures if f.check == "isolated bot"]
    assert isolated and isolated[0].seat is not None


def test_a_failure_script_replays_to_the_failure() -> None:
    """The script of a failure is a table script: ``bourre replay`` reaches it and,
    refereed with the broken plugin, stops with the same complaint."""
    failures = _failures("loses-a-chip", LosesAChip, compose=False)
    script = failures[0].script
    assert script is not None
    json.dumps(script)  # JSON, as `bourre replay` reads it
    with pytest.raises(ScriptError, match="money"):
        replay(script, registry=_registry_of(LosesAChip))
    # and the same hands at the standard house replay cleanly
    script["rules"]["variants"] = {"use": ["standard"]}
    record = replay(script)
    assert record.hands and sum(Fraction(str(b)) for b in record.hands[-1].balances) > 0


# ------------------------------------------- the checks of bourre's own machinery
#
# ``replay``, ``check`` and ``compare`` hold bourre's tools to the game with the
# plugin: a deterministic plugin that passes the other checks cannot break them, so
# each is shown to fail by breaking the tool itself.


def test_a_check_that_disagrees_with_the_game_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    import bourre.testing.rulings as kit

    real = kit.check_card

    def one_card_less(*args: Any, **kw: Any) -> Any:
        ruling = real(*args, **kw)
        return dataclasses.replace(ruling, legal=ruling.legal[1:] or ruling.held)

    monkeypatch.setattr(kit, "check_card", one_card_less)
    with pytest.raises(ConformanceError) as caught:
        check_variant("no-cinch", sizes=(3,), sessions=1, compose=False, compare=False)
    first = caught.value.failures[0]
    assert first.check == "check" and "`bourre check` answers" in first.message
    assert first.seat is not None and first.script is not None


def test_a_replay_that_ends_elsewhere_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    import bourre.testing.replay as kit

    real = kit.replay

    def off_by_one(script: Any, **kw: Any) -> Any:
        record = real(script, **kw)
        balances = list(record.final.balances)
        balances[0] += 1
        final = record.final.model_copy(update={"balances": balances})
        return record.model_copy(update={"final": final})

    monkeypatch.setattr(kit, "replay", off_by_one)
    with pytest.raises(ConformanceError) as caught:
        check_variant("double-ante", sizes=(4,), sessions=1, compose=False, compare=False)
    failures = caught.value.failures
    assert [f.check for f in failures] == ["replay"]
    assert "`bourre replay` of the session ends with balances" in failures[0].message
    assert replay(failures[0].script).final is not None  # the real replay reads the script


def test_a_compare_that_fails_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    import bourre.sim.runs.sessions as sessions

    def broken(*args: Any, **kw: Any) -> Any:
        raise RuntimeError("no engine")

    monkeypatch.setattr(sessions, "run_session", broken)
    with pytest.raises(ConformanceError) as caught:
        check_variant("four-card", sizes=(2,), sessions=1, compose=False)
    assert [f.check for f in caught.value.failures] == ["compare"]
    assert "no engine" in caught.value.failures[0].message


# ----------------------------------------------------------------- seeds (issue 42)

_SEEN_DECKS: set[tuple[int, ...]] = set()
"""The decks the kit dealt in a run at a known seed (what a kit-aware plugin learns)."""
_RECORDING: list[bool] = [True]


class KitAware(Variant):
    """Deals honestly while it records, then honestly only the decks it has seen the
    kit deal, and a card twice otherwise: it passes a kit whose seed it knows."""

    name = "kit-aware"

    @hookimpl
    def bourre_deal(self, table: Any, hand_size: int) -> Any:
        class Deal(StandardDeal):
            def deal(self, deck: Sequence[int], dealer: int, n: int) -> Any:
                hands, up, stock = super().deal(deck, dealer, n)
                if _RECORDING[0]:
                    _SEEN_DECKS.add(tuple(deck))
                elif tuple(deck) not in _SEEN_DECKS:
                    hands[-1][0] = hands[0][0]  # a card in two hands
                return hands, up, stock

        return Deal(hand_size)


_AWARE = {"sizes": (3,), "sessions": 1, "hands": 2, "compose": False, "compare": False}


def test_a_plugin_that_knows_the_kit_s_seed_passes_it_and_a_fresh_seed_catches_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The kit used to play one fixed seed ('bourre.testing'): a plugin that learned its
    decks passed.  Each run now draws its own seed, so the same plugin is caught."""
    monkeypatch.delenv("BOURRE_TESTING_SEED", raising=False)
    reg = _registry_of(KitAware)
    _SEEN_DECKS.clear()
    _RECORDING[0] = True
    check_variant("kit-aware", registry=reg, seed="bourre.testing", **_AWARE)
    _RECORDING[0] = False
    try:
        check_variant("kit-aware", registry=reg, seed="bourre.testing", **_AWARE)  # fooled
        with pytest.raises(ConformanceError) as caught:
            check_variant("kit-aware", registry=reg, **_AWARE)  # a run of its own
    finally:
        _RECORDING[0] = True
    assert caught.value.failures[0].check == "cards"
    seed = caught.value.seed
    assert seed and seed != "bourre.testing" and f"the run's seed is {seed!r}" in str(caught.value)


def test_each_run_draws_its_seed_and_a_given_seed_replays_the_run(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("BOURRE_TESTING_SEED", raising=False)
    quick = {"sizes": (3,), "sessions": 1, "hands": 1, "compose": False, "compare": False}
    first, second = check_variant("standard", **quick), check_variant("standard", **quick)
    assert first.seed and second.seed and first.seed != second.seed
    broken = {**quick, "sessions": 2, "hands": 3}  # a hand won, surely
    _failures_at = [
        check_variant(
            "loses-a-chip",
            registry=_registry_of(LosesAChip),
            raise_on_failure=False,
            seed=first.seed,
            **broken,
        )
        for _ in range(2)
    ]
    assert [str(f) for f in _failures_at[0].failures] == [str(f) for f in _failures_at[1].failures]
    assert _failures_at[0].failures and first.seed in _failures_at[0].failures[0].seed  # type: ignore[operator]
    monkeypatch.setenv("BOURRE_TESTING_SEED", "from-the-environment")
    assert check_variant("standard", **quick).seed == "from-the-environment"
    assert check_variant("standard", seed="given", **quick).seed == "given"


def test_the_kit_says_it_is_no_security_boundary() -> None:
    import bourre.testing

    doc = " ".join((bourre.testing.__doc__ or "").split())
    assert "not a security boundary" in doc and "runtime guards" in doc
    plugins_md = " ".join((ROOT / "docs" / "plugins.md").read_text().split())
    assert "not a security boundary" in plugins_md and "BOURRE_TESTING_SEED" in plugins_md


def test_the_pytest_plugin_loads_the_kit_only_when_a_test_asks() -> None:
    """pytest loads the kit's plugin in every session wherever bourre is installed: the
    plugin, and the package it lives in, load neither the checks nor the game."""
    code = (
        "import sys, bourre.testing.plugin;"
        " print(sorted(m for m in sys.modules if m.startswith(('bourre.game', 'bourre.testing'))))"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True
    )
    assert proc.stdout.split("\n")[0] == "['bourre.testing', 'bourre.testing.plugin']"
    import bourre.testing as kit
    from bourre.testing.checks import check_variant as defined

    assert kit.check_variant is check_variant is defined
    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        kit.nope  # noqa: B018
