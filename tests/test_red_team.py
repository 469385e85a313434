"""Red team: bots that spy and steal, plugins that collide or lie, inputs built to break
things.  Each case gets one clear refusal (exit status 2 on the command line, one line
naming the place and the rule) or is harmless; never a traceback, never money created."""

from __future__ import annotations

import json
import pickle
import random
from fractions import Fraction
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from bourre.cli import app
from bourre.game.players import IllegalAnswer, play_out
from bourre.game.state import State
from bourre.rules import RuleViolation
from bourre.rules.hookspec import PluginError
from bourre.rules.house import House
from bourre.rules.plugins import load_registry
from bourre.rules.settings import TableSettings
from bourre.rules.variant import Variant, hookimpl
from bourre_bots.random_bot import RandomPlayer

GOLDEN = Path(__file__).parent / "golden"
runner = CliRunner()


def refused(*args: str, input: str | None = None) -> str:
    """The command fails cleanly: exit 2, nothing on stdout, one line on stderr."""
    r = runner.invoke(app, list(args), input=input)
    assert r.exit_code == 2, (r.exit_code, r.stdout[:300], r.stderr[:300], r.exception)
    assert r.stdout == ""
    lines = r.stderr.strip().splitlines()
    assert len(lines) >= 1 and lines[0].startswith("bourre: ")
    return r.stderr


# -- bots ---------------------------------------------------------------------------------


class Thief(RandomPlayer):
    """Tries to change what it is shown: balances, its hand, the legal set."""

    attempts = 0

    def play(self, view: Any) -> int:
        for attack in (
            lambda: view.balances.__setitem__(view.seat, 1000),
            lambda: setattr(view, "balances", (1000,) * view.players),
            lambda: view.hand.append(0),
            lambda: setattr(view, "legal", tuple(range(52))),
        ):
            try:
                attack()
            except (TypeError, AttributeError):
                Thief.attempts += 1
        return super().play(view)


def test_a_thieving_bot_changes_nothing() -> None:
    house = House("standard")
    state = State(house, seed="thief")
    play_out(state, [Thief(random.Random(s)) for s in range(5)])
    assert Thief.attempts > 100
    assert sum(state.final[0]) == 500  # type: ignore[index]
    honest = State(house, seed="thief")
    play_out(honest, [RandomPlayer(random.Random(s)) for s in range(5)])
    assert state.final == honest.final  # the same game as honest bots with the same rng


def test_a_spying_bot_finds_no_hidden_card() -> None:
    import gc

    state = State(House("standard"), seed="spy")
    while state.phase_name != "play":
        state.apply_action(state.legal_actions()[-1])
    me = state.current_player()
    view = state.observation(me)
    reachable, todo = set(), [view]
    while todo:
        x = todo.pop()
        if id(x) in reachable or isinstance(x, type):
            continue
        reachable.add(id(x))
        todo.extend(gc.get_referents(x))
    assert id(state) not in reachable and id(state.hand) not in reachable
    for s in range(5):
        assert id(state.hand.hands[s]) not in reachable
    with pytest.raises(AttributeError):
        view.legal = tuple(range(52))  # type: ignore[misc]


def test_an_illegal_answer_is_refused_with_its_rule() -> None:
    class Cheat(RandomPlayer):
        def play(self, view: Any) -> int:
            return next(c for c in range(52) if c not in view.legal and c in view.hand) if len(
                view.legal
            ) < len(view.hand) else view.legal[0]

    with pytest.raises(IllegalAnswer) as e:
        for seed in range(50):
            play_out(State(House("standard"), seed=seed), [Cheat(random.Random(s)) for s in range(5)])
    assert e.value.rule.startswith("R-")


# -- plugins --------------------------------------------------------------------------------


def _module(**hooks: Any) -> SimpleNamespace:
    mod = SimpleNamespace()
    for name, fn in hooks.items():
        setattr(mod, name, hookimpl(fn))
    return mod


def test_a_plugin_cannot_take_the_built_in_names() -> None:
    class FakeStandard(Variant):
        name = "standard"

    def variants(register: Any) -> None:
        register(FakeStandard)

    def bots(register: Any) -> None:
        register("random", lambda rng=None: None)

    reg = load_registry(extra=[("impostor", _module(bourre_register_variants=variants, bourre_register_bots=bots))])
    assert reg.variants["standard"].cls is not FakeStandard
    assert reg.bots["random"][1].startswith("bourre ")
    messages = " ".join(str(e) for e in reg.errors)
    assert "'standard' is already registered by plugin 'standard' (bourre" in messages
    assert "'random' is already registered by bourre" in messages


def _house_with(hook: str, component: Any) -> House:
    def answer(self: Any, table: TableSettings, **_: Any) -> Any:
        return component

    answer.__name__ = hook
    cls = type("Liar", (Variant,), {"name": "liar", hook: hookimpl(answer)})

    def variants(register: Any) -> None:
        register(cls)

    reg = load_registry(extra=[("liar", _module(bourre_register_variants=variants))])
    return House("liar", registry=reg)


def _play(house: House) -> State:
    state = State(house, seed="liar")
    play_out(state, [RandomPlayer(random.Random(s)) for s in range(house.table.players)])
    return state


@pytest.mark.parametrize(
    ("hook", "component", "words"),
    [
        ("bourre_settle", lambda b, pot: ([x + 10 for x in b], [1] * len(b)), "money not conserved"),
        ("bourre_deal", SimpleNamespace(deal=lambda deck, d, n: ([list(deck[:5])] * n, deck[4], list(deck[5:])), check_hand=lambda *a: None), "R-DEAL"),
        ("bourre_trick_winner", lambda trick, trump: -1, "an index of the trick"),
        ("bourre_next_dealer", lambda d, marks: 9, "must be a seat"),
        ("bourre_penalty", lambda p: -1, "amount ≥ 0"),
    ],
)
def test_lying_components_are_caught_naming_plugin_and_hook(hook: str, component: Any, words: str) -> None:
    with pytest.raises(PluginError) as e:
        _play(_house_with(hook, component))
    assert e.value.plugin == "liar" and e.value.hook == hook and words in str(e.value)


def test_a_fractional_penalty_is_an_amount() -> None:
    state = _play(_house_with("bourre_penalty", lambda p: Fraction(p, 2)))
    assert sum(state.final[0]) == 500  # type: ignore[index]


def test_a_draw_that_duplicates_a_card_is_caught() -> None:
    from bourre_variants.standard.draw import Draw

    class Forger(Draw):
        def draw(self, state: Any, seat: int, discards: Any) -> None:
            super().draw(state, seat, discards)
            if discards:
                state.hands[seat][0] = state.hands[(seat + 1) % state.n][0]  # a copy

    with pytest.raises(PluginError, match=r"bourre_draw.*each card in one place"):
        for _ in range(3):
            _play(_house_with("bourre_draw", Forger(5)))


def test_money_made_outside_any_component_check_stops_the_game() -> None:
    class Leaky:
        def hand_antes(self, n: int, ante: Any, previous: Any, dealer: int) -> list[Any]:
            return [ante] * n

        def reasons(self, *args: Any) -> tuple[Any, ...]:
            return ()

        def play_ante(self, ante: Any) -> Any:
            return 0

    house = _house_with("bourre_ante", Leaky())
    state = State(house, seed="x")
    vars(state)["_balances"][0] += 1000  # what a bot reaching the live state could do
    with pytest.raises(PluginError, match="money not conserved"):
        play_out(state, [RandomPlayer(random.Random(s)) for s in range(5)])


def test_a_raising_ante_reaches_replay_as_a_clean_error(tmp_path: Path) -> None:
    def boom(*a: Any) -> Any:
        raise ZeroDivisionError("boom")

    house = _house_with("bourre_ante", SimpleNamespace(hand_antes=boom, play_ante=boom, reasons=boom))
    with pytest.raises(PluginError, match="raised ZeroDivisionError"):
        _play(house)


def test_errors_keep_their_words_across_processes() -> None:
    for e in (
        PluginError("liar", "bourre_payout", "money not conserved"),
        RuleViolation("R-FOLLOW", "play a heart", (1, 2)),
        IllegalAnswer(3, "R-TRUMP", "trump", (4,)),
    ):
        back = pickle.loads(pickle.dumps(e))
        assert type(back) is type(e) and str(back) == str(e)


# -- input ----------------------------------------------------------------------------------


def _script(tmp_path: Path, text: str, name: str = "s.json") -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def _golden() -> dict[str, Any]:
    return json.loads((GOLDEN / "worked_example.script.json").read_text())


@pytest.mark.parametrize(
    ("mutate", "words"),
    [
        (lambda s: s.update(rules={"table": {"first_dealer": True}}), "table.first_dealer"),
        (lambda s: s.update(rules={"table": {"players": "5"}}), "table.players"),
        (lambda s: s.update(rules={"table": {"players": 5.0}}), "table.players"),
        (lambda s: s.update(rules={"variants": {"use": ["standard", "standard"]}}), "named twice"),
        (lambda s: s["hands"][0]["deck"].__setitem__(0, "Aſ"), "R-DECK"),
        (lambda s: s["hands"][0].update(reshuffles=[["2S"]]), "hand 1, reshuffle 1: given"),
    ],
)
def test_strict_scripts(tmp_path: Path, mutate: Any, words: str) -> None:
    script = _golden()
    mutate(script)
    assert words in refused("replay", _script(tmp_path, json.dumps(script)))


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
        ('{"hands": [], "balances": [' + "9" * 5000 + "]}", "not valid JSON"),
        ('{"hands": [], "hands": []}', "given twice"),
        ("\x00garbage", "not valid JSON"),
    ],
)
def test_hostile_script_files(tmp_path: Path, text: str, words: str) -> None:
    assert words in refused("replay", _script(tmp_path, text))


def test_non_utf8_files(tmp_path: Path) -> None:
    path = tmp_path / "s.json"
    path.write_bytes(b"\xff\xfe{}")
    assert "UTF-8" in refused("replay", str(path))
    house = tmp_path / "h.toml"
    house.write_bytes(b"\xff\xfe[table]")
    refused("rules", str(house))


@pytest.mark.parametrize(
    "house",
    [
        "x" * 5000,
        "standard+pot-limit(limit=1,limit=2)",
        "standard+table(players=5)+table(players=6)",
        "table(balance=" + "9" * 5000 + ")",
        "table(players=true)",
    ],
)
def test_hostile_house_strings(house: str) -> None:
    refused("rules", house)


def test_unknown_bot_options_and_bad_bench_times() -> None:
    assert "foo" in refused("simulate", "standard", "--bots", "heuristic(foo=1)", "--sessions", "2")
    refused("bench", "--seconds", "nan")
    refused("bench", "--seconds", "-1")


def test_a_plugin_that_exits_at_import_is_recorded(monkeypatch: pytest.MonkeyPatch) -> None:
    import bourre.rules.plugins as plugins

    def loader() -> Any:
        raise SystemExit(3)

    real = plugins._entry_points

    def with_exiting() -> Any:
        yield from real()
        yield "exits", "evil 1.0", False, loader

    monkeypatch.setattr(plugins, "_entry_points", with_exiting)
    reg = plugins.load_registry()
    assert "standard" in reg.variants
    assert any(e.plugin == "exits" and "SystemExit" in e.message for e in reg.errors)


# -- fuzz -----------------------------------------------------------------------------------

GOLDEN_TEXT = (GOLDEN / "worked_example.script.json").read_text()


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    edits=st.lists(
        st.tuples(st.integers(0, len(GOLDEN_TEXT) - 1), st.sampled_from(list('{}[]",:0123456789 -ASHDCKQJT9x'))),
        min_size=1,
        max_size=6,
    )
)
def test_fuzzed_scripts_never_crash(edits: list[tuple[int, str]], tmp_path_factory: Any) -> None:
    text = list(GOLDEN_TEXT)
    for pos, ch in edits:
        text[pos] = ch
    path = tmp_path_factory.mktemp("fuzz") / "s.json"
    path.write_text("".join(text), encoding="utf-8")
    r = runner.invoke(app, ["replay", str(path), "--json"])
    assert r.exit_code in (0, 2), r.exception
    if r.exit_code == 2:
        assert r.stdout == "" and r.stderr.startswith("bourre: ")
    else:
        json.loads(r.stdout)


@settings(max_examples=80, deadline=None)
@given(st.text(alphabet="standrdpotlimi-()+=,.0123456789 table/ayers\"'", min_size=0, max_size=60))
def test_fuzzed_house_strings_never_crash(text: str) -> None:
    r = runner.invoke(app, ["rules", "--", text])
    assert r.exit_code in (0, 2), (text, r.exception)
    if r.exit_code == 2:
        assert r.stdout == "" and r.stderr.startswith("bourre: ")


def test_huge_amounts_and_a_non_utf8_state_file(tmp_path: Path) -> None:
    refused("rules", 'table(balance="1e5000")')
    refused("rules", "table(ante=" + "9" * 40 + ")")
    state = tmp_path / "s.jsonl"
    state.write_bytes(b"\xff\xfe")
    assert "not UTF-8" in refused("simulate", "standard", "--resume", str(state))


def test_a_plugin_error_keeps_its_words_with_two_workers(monkeypatch: pytest.MonkeyPatch) -> None:
    """Workers are forked from this process: a lying plugin known here fails there,
    and its error arrives whole (not as BrokenProcessPool)."""
    import bourre.rules.plugins as plugins
    from bourre.sim import runner

    def winner(self: Any, table: TableSettings) -> Any:
        return lambda trick, trump: -1

    cls = type("Liar2", (Variant,), {"name": "liar-two", "bourre_trick_winner": hookimpl(winner)})

    def variants(register: Any) -> None:
        register(cls)

    real_build = plugins.build
    monkeypatch.setattr(
        plugins, "build", lambda extra=(): real_build([*extra, ("liar-two", _module(bourre_register_variants=variants))])
    )
    plugins._process.cache_clear()
    try:
        plugins.default_registry()
        config = runner.RunConfig(["standard+liar-two"], 8, "w", runner.parse_bots("random"), False)
        result = runner.run(config, workers=2)
    finally:
        plugins._process.cache_clear()
    assert not result.complete
    assert "plugin 'liar-two', hook bourre_trick_winner" in (result.stopped or "")
    assert "BrokenProcessPool" not in (result.stopped or "")
