"""The search bot ``pimc`` (issue 31): registered as the other bots, only legal answers,
the card of the best mean chips over its sampled worlds (R-SURE's solve), nothing read
but its observation, the same answers for a seed, a third-party house solved by the
Python search, and (slow) its strength on the ladder of ``bench/ladder.py``."""

from __future__ import annotations

import importlib.util
import json
import random
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import plugin
from widdershins import Widdershins

from bourre.advice import kernel_solver, solve
from bourre.game.actions import CARDS, PASS, PLAY
from bourre.game.players import ask, make_bot, play_out
from bourre.game.simulate import play_session
from bourre.game.state import State
from bourre.game.worlds import sample_deal, sample_world
from bourre.houses.house import House
from bourre.rules.plugins import load_registry
from bourre_bots.heuristic import HeuristicPlayer, choose_card, discard_weak, known_out
from bourre_bots.pimc import PimcPlayer

ROOT = Path(__file__).resolve().parents[2]


def _points(house: House, seed: str, phase: str | None = None) -> list[State]:
    """States (clones) at every choice of one heuristic session, in ``phase`` if given."""
    state = State(house, seed=seed)
    bots = [HeuristicPlayer(0) for _ in range(house.table.players)]
    points = []
    while not state.is_terminal():
        if len(state.legal_actions()) > 1 and phase in (None, state.phase_name):
            points.append(state.clone())
        state.apply_action(ask(state, bots[state.current_player()]))
    return points


def test_decides_by_rollouts_when_asked() -> None:
    """``decide="rollouts"``: play or pass weighed by the Monte Carlo bot's rollouts
    (its public ``best``), a legal answer, the same for a seed."""
    house = House("standard")
    points = _points(house, "pimc-rollouts", "decide")[:4]
    assert points
    for state in points:
        answers = set()
        for _ in range(2):
            bot = make_bot("pimc", random.Random(5), house=house, worlds=2, decide="rollouts")
            answers.add(ask(state.clone(), bot))
        assert len(answers) == 1
        assert answers <= set(state.legal_actions())


def test_registered_with_its_options() -> None:
    house = House("standard")
    bot = make_bot("pimc", random.Random(1), house=house, worlds=4, decide="rollouts")
    assert isinstance(bot, PimcPlayer)
    assert (bot.worlds, bot.decide_by, bot.doubt) == (4, "rollouts", 1.0)
    assert make_bot("pimc", random.Random(1)).worlds == 16  # the default
    for options, words in [
        ({"worlds": 0}, "worlds must be from 1"),
        ({"worlds": 2.5}, "worlds must be a whole number"),
        ({"decide": "guess"}, "decide must be one of solve, rollouts"),
        ({"doubt": 2}, "doubt must be from 0 to 1"),
        ({"depth": 3}, "has no option depth; its options: worlds, decide, doubt$"),
    ]:
        with pytest.raises(ValueError, match=words):
            make_bot("pimc", random.Random(1), house=house, **options)


@pytest.mark.parametrize("spec", ["standard", "four-card", "simultaneous-reveal", "double-ante"])
def test_only_legal_answers_and_the_same_for_a_seed(spec: str) -> None:
    house = House(spec)

    def seats(seat: int, rng: random.Random) -> Any:
        if seat == 0:
            return make_bot("pimc", rng, house=house, worlds=3)
        return make_bot("heuristic", rng)

    a = play_session(house, f"p{spec}", seats)  # the game refuses an illegal answer
    b = play_session(house, f"p{spec}", seats)
    assert a.final == b.final and [h.balances for h in a.hands] == [h.balances for h in b.hands]


def test_the_card_of_the_most_chips_over_its_worlds() -> None:
    """The card played is the one whose chips summed over the sampled worlds are the
    most; on a tie the heuristic's card, else the first legal card."""
    house = House("standard")
    checked = 0
    for k, point in enumerate(_points(house, "cards", "play")[:8]):
        me = point.current_player()
        view = point.observation(me)
        worlds = PimcPlayer(random.Random(k), house=house, worlds=4)._sample(view)
        total = {c: sum(solve(w).value(c).chips for w in worlds) for c in view.legal}
        trick = [c for _, c in view.trick]
        last = len(trick) == len(view.active) - 1
        top = choose_card(list(view.legal), trick, view.trump, known_out(view), last, None)
        best = max(total.values())
        want = top if total[top] == best else next(c for c in view.legal if total[c] == best)
        got = PimcPlayer(random.Random(k), house=house, worlds=4).act(view)
        assert got == CARDS[want]
        checked += 1
    assert checked >= 6


def test_doubt_keeps_the_worlds_where_the_others_answered_as_the_heuristic() -> None:
    """With ``doubt=0`` every world kept has each other player exchange as many cards
    as the heuristic bot would with that world's hand (R-DRAW): the public answers
    weigh the worlds (``likely`` of bourre.game.worlds)."""
    house = House("standard")
    checked = 0
    for k, point in enumerate(_points(house, "doubt", "play")):
        hs = point.hand
        if hs.tricks or hs.trick:
            continue  # the first lead only: every card is still in its hand
        me = point.current_player()
        view = point.observation(me)
        bot = PimcPlayer(random.Random(k), house=house, doubt=0.0)
        trump = hs.upcard // 13
        for _ in range(3):
            world = sample_deal(house, view, random.Random(k), likely=bot._likely, tries=400)
            assert isinstance(world, State)
            w = world.hand
            for s in w.active:
                if s == me or (not w.gave[s] and not w.got[s]):
                    continue
                before = [c for c in w.hands[s] if c not in w.got[s]] + list(w.gave[s])
                assert len(discard_weak(before, trump)) == len(w.gave[s]), (s, before)
                checked += 1
        if checked >= 6:
            return
    pytest.fail(f"only {checked} exchanges checked")


def test_it_reads_nothing_hidden() -> None:
    """Another true state with the same observation (the hidden cards dealt again, a
    world of that observation): the same generator gives the same answer."""
    house = House("standard")
    checked = 0
    for k, point in enumerate(_points(house, "hidden")[:24]):
        me = point.current_player()
        view = point.observation(me)
        other = sample_world(house, view, random.Random(1000 + k))
        assert other is not None
        if other.observation(me) != view:
            continue  # (a session-level fact the world does not rebuild)
        hidden = [point.hand.hands[s] for s in range(point.n) if s != me]
        if hidden == [other.hand.hands[s] for s in range(other.n) if s != me]:
            continue
        a = PimcPlayer(random.Random(k), house=house, worlds=4).act(view)
        b = PimcPlayer(random.Random(k), house=house, worlds=4).act(other.observation(me))
        assert a == b
        checked += 1
    assert checked >= 8


def test_it_plays_a_sure_hand_and_folds_a_hopeless_one() -> None:
    """Play or pass by the solved worlds: the top five trumps play; from first to
    decide, five low cards of other suits than trumps pass (R-BOURRE)."""
    house = House("standard")
    for seed in range(40):
        state = State(house, seed=f"decide{seed}")
        if state.phase_name != "decide" or PASS not in state.legal_actions():
            continue
        hs = state.hand
        me, trump = state.current_player(), hs.upcard // 13
        top = [trump * 13 + r for r in range(12, 7, -1) if trump * 13 + r != hs.upcard]
        low = [c for c in range(52) if c // 13 != trump and c % 13 < 5][:5]
        for cards, want in [(top[:5], PLAY), (low, PASS)]:
            if len(cards) < 5:
                continue
            other = state.clone()
            held = other.hand.hands[me]
            for c in cards:  # swap the wanted cards into my hand from wherever they lie
                if c in held:
                    continue
                owner = next(
                    (s for s in range(other.n) if s != me and c in other.hand.hands[s]), None
                )
                out = next(x for x in held if x not in cards)
                if owner is not None:
                    theirs = other.hand.hands[owner]
                    theirs[theirs.index(c)] = out
                    theirs.sort()
                elif c in other.hand.stock:
                    other.hand.stock[other.hand.stock.index(c)] = out
                else:
                    break
                held[held.index(out)] = c
            else:
                held.sort()
                if sorted(held) != sorted(cards):
                    continue
                bot = PimcPlayer(random.Random(seed), house=house, worlds=8)
                assert bot.act(other.observation(me)) == want, (cards, want)
                return
    pytest.fail("no deal to test")


def test_a_third_party_house_is_searched_asking_its_rule() -> None:
    """A plugin's lead (widdershins): each world solved by the kernel's search asking
    the lead through Python (issue 41), its values the Python search's; the bot's every
    answer legal under that lead."""
    registry = load_registry(extra=[("widdershins", plugin("widdershins", Widdershins))])
    house = House("widdershins+table(players=3)", registry=registry)
    bot = PimcPlayer(random.Random(3), house=house, worlds=2)
    point = _points(house, "third", "play")[0]
    world = sample_world(house, point.observation(point.current_player()), random.Random(0))
    assert world is not None
    if kernel_solver.built():
        assert kernel_solver.why_not(world) is None  # (the kernel's, asking the lead)
        got, ref = solve(world, engine="kernel"), solve(world, engine="python")
        assert (got.values, got.choice) == (ref.values, ref.choice)
    seats = [bot, *(HeuristicPlayer(s) for s in range(2))]
    for seed in range(2):  # every answer legal under its lead
        state = State(house, seed=f"third{seed}", hands=1)
        play_out(state, seats)
        assert state.is_terminal()


def _ladder() -> Any:
    path = ROOT / "bench" / "ladder.py"
    sys.path.insert(0, str(path.parent))
    try:
        spec = importlib.util.spec_from_file_location("ladder", path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules["ladder"] = module  # (its workers find its functions by name)
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(path.parent))
    return module


def test_the_ceiling_is_the_ladders_only() -> None:
    """The all-seeing seat exists in bench/ladder.py alone: no bot by that name."""
    with pytest.raises(ValueError, match="unknown bot 'ceiling'"):
        make_bot("ceiling", random.Random(0))
    ladder = _ladder()
    house = House("standard")
    chips = [ladder.play_deal(house, "t", 0, ladder.CEILING, s, "heuristic") for s in range(5)]
    assert all(isinstance(x, float) for x in chips)


def test_the_ladder_prints_and_writes_its_table(tmp_path: Path, capsys: Any) -> None:
    out = tmp_path / "ladder.json"
    bots = "heuristic;montecarlo(budget=16);ceiling"
    args = ["--deals", "3", "--workers", "1", "--bots", bots, "--json", str(out)]
    assert _ladder().main(args) == 0
    got = json.loads(out.read_text(encoding="utf-8"))
    assert got["hands_per_entrant"] == 15 and list(got["entrants"]) == bots.split(";")
    assert "vs_reference" in got["entrants"]["ceiling"]
    assert "vs_reference" not in got["entrants"]["montecarlo(budget=16)"]
    assert len(got["entrants"]["heuristic"]["by_deal"]) == 3
    assert "ceiling" in capsys.readouterr().out


LADDER_DEALS = 1200
"""The deals of the ladder in docs/bots.md (``bench/ladder.py --deals 1200``)."""


@pytest.mark.slow
def test_pimc_beats_montecarlo_on_the_ladder(tmp_path: Path) -> None:
    """The ladder's deals (seed ``ladder``, every deal from every seat among four
    heuristic bots): ``pimc(worlds=64)`` wins more chips per hand than
    ``montecarlo(budget=16)``, paired deal by deal, the whole interval above zero."""
    out = tmp_path / "ladder.json"
    bots = "montecarlo(budget=16);pimc(worlds=64)"
    args = ["--deals", str(LADDER_DEALS), "--bots", bots, "--json", str(out)]
    assert _ladder().main(args) == 0
    got = json.loads(out.read_text(encoding="utf-8"))["entrants"]["pimc(worlds=64)"]
    assert got["vs_reference"]["lo"] > 0, got["vs_reference"]
