"""The review of a refereed hand (``bourre replay --review``, :mod:`bourre.advice.review`,
issue 31): each card's values checked against independent computations (the Python
plain search, a brute force over every line of play written here, an exact enumeration
of every deal a player could imagine on a small hand); the words; a real table's
irregularities (reneges, corrections, a hand given by its tricks); a third-party house
on the Python rules; the command's options and refusals; the web page."""

from __future__ import annotations

import copy
import json
import random
import subprocess
import sys
from fractions import Fraction
from itertools import combinations
from pathlib import Path
from typing import Any

import pytest
from brute import brute
from conftest import ALL_CARDS, complete, decisions, make_hand, make_script
from plugins.test_third_party import installed, run_bourre  # noqa: F401 (the installed plugin's fixture)

from bourre import kernel
from bourre.advice import solve
from bourre.advice.review import (
    AFTER_IRREGULAR,
    MARGIN,
    Moment,
    PlayReview,
    Recorder,
    Review,
    review,
)
from bourre.game.actions import CARDS, PLAY, STAND_PAT, Dealt
from bourre.game.state import State
from bourre.game.tablesteps import hand_log, set_hand
from bourre.houses.house import House
from bourre.referee import load_script, referee
from bourre.rules import RuleViolation
from bourre.rules.cards import card_str, card_symbol
from bourre.rules.plugins import load_registry

ROOT = Path(__file__).resolve().parents[2]
HANDS = ROOT / "docs" / "examples" / "hands"


def reviewed(
    data: dict[str, Any], deals: int = 0, seed: int = 0, **kw: Any
) -> tuple[list[Moment], Review]:
    recorder = Recorder()
    done = referee(copy.deepcopy(data), watch=recorder, **kw)
    return recorder.moments, review(recorder.moments, house=done.house.spec, deals=deals, seed=seed)


def random_script(
    players: int, seed: int, pick: str = "high", variants: tuple[str, ...] = ()
) -> dict[str, Any]:
    """One hand: a shuffled deck, everyone plays and stands pat, the plays filled in
    with legal cards by the independent reference referee (the standard obligations;
    ``variants`` are named in the script afterwards)."""
    deck = list(ALL_CARDS)
    random.Random(seed).shuffle(deck)
    decs = decisions(0, players, dict.fromkeys(range(players), "play"))
    script = complete(make_script([make_hand(deck, decs)], players=players), pick)
    script["rules"]["variants"] = {"use": ["standard", *variants]}
    return script


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (3, 2), (3, 5)])
def test_every_card_s_values_agree_with_independent_searches(players: int, seed: int) -> None:
    """Every legal card of every card played: the review's chips and sure tricks are
    the Python plain search's (every card searched, nothing remembered, no kernel),
    and, from where the hands hold three cards or fewer, a brute force's."""
    moments, done = reviewed(random_script(players, seed))
    assert len(done.plays) == players * 5
    brute_checked = 0
    for m, p in zip(moments, done.plays, strict=True):
        assert (p.seat, p.card) == (m.state.current_player(), m.card)
        legal = m.state.legal_cards()
        if len(legal) == 1:
            assert p.alternatives == () and "only card" in p.note
            continue
        assert [a.card for a in p.alternatives] == legal
        plain = solve(m.state, plain=True, engine="python")
        for a in p.alternatives:
            v = plain.value(a.card)
            assert (a.sure_tricks, a.chips) == (v.sure_tricks, v.chips), card_str(a.card)
            assert a.pot_to == tuple(s for s, c in enumerate(v.chips_by_seat) if c > 0)
        if len(m.state.hand.hands[p.seat]) <= 3:
            got = brute(m.state)
            assert {a.card: (a.sure_tricks, a.chips) for a in p.alternatives} == got
            brute_checked += 1
        # the costs, by their definitions
        played = p.value(p.card)
        assert played is not None
        assert p.cost_chips == max(a.chips for a in p.alternatives) - played.chips
        assert p.cost_tricks == max(a.sure_tricks for a in p.alternatives) - played.sure_tricks
        assert ("chips" in p.marks()) == (p.cost_chips > 0)
        assert ("sure_tricks" in p.marks()) == (p.cost_tricks > 0)
    assert brute_checked >= 2


def exact_averages(m: Moment) -> dict[int, Fraction]:
    """For a two-player hand where both stood pat: every hand the opponent could hold
    now, consistent with everything played (replayed on the house's rules), each
    solved; the average chips of each legal card of the seat to play, exactly."""
    state = m.state
    hs = state.hand
    seat = state.current_player()
    opp = 1 - seat
    played_by: dict[int, list[int]] = {0: [], 1: []}
    order = [c for t in hs.tricks for _, c in t.plays] + list(hs.trick)
    for t in hs.tricks:
        for s, c in t.plays:
            played_by[s].append(c)
    for s, c in zip(hs.trick_seats, hs.trick, strict=False):
        played_by[s].append(c)
    mine = list(hs.hands[seat]) + played_by[seat]
    up = hs.upcard
    fixed = [up] if opp == hs.dealer and up not in played_by[opp] else []
    seen = set(mine) | set(order) | {up}
    pool = [c for c in range(52) if c not in seen]
    need = len(hs.hands[opp]) - len(fixed)
    sums: dict[int, Fraction] = {}
    count = 0
    for rest in combinations(pool, need):
        world = State(state.house, hands=1, settle=False)
        set_hand(world, dealer=hs.dealer, pot=hs.pot_at_stake)
        try:
            world.apply_chance(Dealt.of(up, {seat: mine, opp: played_by[opp] + fixed + list(rest)}))
            while world.phase_name != "play":
                world.apply_action(PLAY if world.phase_name == "decide" else STAND_PAT)
            for c in order:
                world.apply_action(CARDS[c])
        except RuleViolation:
            continue  # the opponent could not have played as it did with this hand
        count += 1
        for v in solve(world, engine="python").values:
            sums[v.card] = sums.get(v.card, Fraction(0)) + Fraction(v.chips)
    assert count > 10
    return {c: s / count for c, s in sums.items()}


def test_the_averages_agree_with_an_exact_enumeration_of_the_deals() -> None:
    """On a two-player hand, late in the play: the review's averages over 2,000 deals
    against the exact average over every hand the opponent could hold."""
    data = random_script(2, 7)
    moments, _ = reviewed(data)
    picked = [
        m
        for m in moments
        if len(m.state.legal_cards()) > 1
        and len(m.state.hand.hands[1 - m.state.current_player()]) == 2
    ]
    assert picked
    m = picked[0]
    exact = exact_averages(m)
    got = review([m], house="standard", deals=2000, seed=3).plays[0]
    assert got.deals == 2000
    for a in got.alternatives:
        assert a.average is not None
        assert abs(float(a.average) - float(exact[a.card])) < 0.2, (card_str(a.card), a.average)


@pytest.mark.speed
def test_the_same_seed_gives_the_same_review() -> None:
    data = load_script(HANDS / "tricks.hand")
    one = reviewed(data, deals=5, seed=4)[1].as_dict()
    assert one == reviewed(data, deals=5, seed=4)[1].as_dict()
    assert one != reviewed(data, deals=5, seed=5)[1].as_dict()


# -- the words -------------------------------------------------------------------------


@pytest.mark.speed
def test_the_words_of_the_tricks_example() -> None:
    """docs/examples/hands/tricks.hand: seat 1's lead of 9♥ let seat 0 take the pot and
    left it bourré; seat 0's 3♦ lost it the pot and a sure trick (every hand known)."""
    _, done = reviewed(load_script(HANDS / "tricks.hand"), deals=10)
    words = "\n".join(done.words())
    assert "Hand 1, trick 1: seat 1 leads 9♥." in words
    assert (
        "✗ Playing 9♥ instead of 4♣ let seat 0 take the pot and left you bourré: you end with"
        " −5 instead of 0, with every hand known." in words
    )
    assert "✗ Playing 3♦ instead of 3♠ lost you the pot: you end with 0 instead of +5" in words
    assert "✗ Playing 3♦ instead of 3♠ gave up 1 sure trick: 3♠ made sure of 2 tricks" in words
    assert ("solved by the kernel's solver" in words) == kernel.available()
    lead = done.plays[0]
    assert "chips" in lead.marks() and lead.best is not None and card_str(lead.best.card) == "4C"


@pytest.mark.speed
@pytest.mark.parametrize("seed", range(4))
def test_every_cost_is_said_and_nothing_else(seed: int) -> None:
    """A ✗ line for each cost the values show, naming the card played and the better
    one; none for a play that cost nothing."""
    _, done = reviewed(random_script(3, 20 + seed, pick="low"), deals=8, seed=seed)
    for p in done.plays:
        lines = p.words()
        crosses = [w for w in lines if w.strip().startswith("✗")]
        assert len(crosses) == len(p.marks())
        if p.cost_chips > 0:
            assert p.best is not None
            said = f"Playing {card_symbol(p.card)} instead of {card_symbol(p.best.card)}"
            assert any(said in w for w in crosses)
        if p.mistake:
            assert p.cost_known is not None and p.cost_known >= MARGIN
            assert any("A mistake on what you knew" in w for w in crosses)
        elif p.cost_chips > 0 and p.cost_known is not None:
            assert any("Bad luck rather than a mistake" in w for w in lines)


@pytest.mark.speed
def test_who_takes_the_pot_is_said() -> None:
    """A play that let another seat take the pot names that seat."""
    found = 0
    for seed in range(30):
        _, done = reviewed(random_script(3, 100 + seed))
        for p in done.plays:
            played, best = p.played, p.best
            if played is None or best is None or p.cost_chips <= 0:
                continue
            if p.seat in best.pot_to and len(played.pot_to) == 1:
                (taker,) = played.pot_to
                assert any(f"let seat {taker} take the pot" in w for w in p.words())
                found += 1
        if found >= 2:
            break
    assert found


# -- a real table's hands ----------------------------------------------------------------


@pytest.mark.speed
def test_reneges_and_corrections_are_reviewed_without_crashing() -> None:
    """docs/examples/hands/session.hand: a renege is not weighed against the cards
    allowed; after a renege or a correction, the hand's later cards get the values with
    every hand known only (the Python search)."""
    moments, done = reviewed(load_script(HANDS / "session.hand"), deals=4)
    reneges = [p for p in done.plays if p.renege]
    assert reneges
    for p in reneges:
        assert "a renege (R-RENEGE)" in p.note and p.marks() == [] and p.deals == 0
        assert p.alternatives and p.value(p.card) is None
    corrected = [p for p in done.plays if p.taken_back is not None]
    assert corrected and all("taking back" in p.words()[0] for p in corrected)
    after = [
        p
        for m, p in zip(moments, done.plays, strict=True)
        if hand_log(m.state).forfeits and not p.renege and p.alternatives
    ]
    assert after
    for p in after:
        assert p.deals == 0 and p.note == AFTER_IRREGULAR and p.engine == "python"
    # in words the caveat is said once a hand, for the first card after the irregularity;
    # the record keeps it on every card
    said = [w for w in done.words() if AFTER_IRREGULAR in w]
    assert len(said) == len({p.hand for p in after}) < len(after)
    assert [p["note"] for p in done.as_dict()["plays"]].count(AFTER_IRREGULAR) == len(after)
    assert "python" in done.engines() and ("kernel" in done.engines()) == kernel.available()


@pytest.mark.speed
def test_a_dealer_who_threw_every_card_threw_the_upcard() -> None:
    """Hand 3 of session.hand: the dealer (seat 2) threw all five cards, the upcard 3♣
    among them (R-DRAW).  The deals a player imagines then give the upcard to the
    dealer's discards, on the Python rules and in the kernel alike (both samplers once
    kept the upcard and found no deal at all)."""
    from bourre.game.worlds import sample_world
    from bourre.kernel.rollouts import sample_worlds

    moments, done = reviewed(load_script(HANDS / "session.hand"), deals=5)
    m = next(m for m in moments if m.state.hand.number == 3)
    view = m.state.observation(m.state.current_player())
    assert view.dealer == 2 and view.decisions[-1].exchanged == 5
    world = sample_world(m.state.house, view, random.Random(0))
    assert world is not None and view.upcard in world.hand.discards[2]
    got = sample_worlds(m.state.house, view, 4, random.Random(0), keep=_flat, fold=_flat)
    assert got is None or len(got) == 4  # (None: the kernel is not built)
    first = next(p for p in done.plays if p.hand == 3)
    assert first.deals == 5


def _flat(card: int) -> float:
    return 1.0


@pytest.mark.speed
def test_a_hand_given_by_its_tricks_is_reviewed_as_given_by_its_deck() -> None:
    """tricks.hand is the first hand of session.hand without any dealt card: the same
    values for every card (the state knows each hand from the tricks)."""
    _, by_tricks = reviewed(load_script(HANDS / "tricks.hand"), deals=6)
    _, by_deck = reviewed(load_script(HANDS / "session.hand"), deals=6)
    first = [p for p in by_deck.plays if p.hand == 1]
    assert len(first) == len(by_tricks.plays) == 25
    for a, b in zip(by_tricks.plays, first, strict=True):
        assert (a.seat, a.card, a.marks()) == (b.seat, b.card, b.marks())
        assert [(x.card, x.chips, x.sure_tricks) for x in a.alternatives] == [
            (x.card, x.chips, x.sure_tricks) for x in b.alternatives
        ]


@pytest.mark.speed
def test_a_hand_stopped_part_way_reviews_the_cards_played() -> None:
    _, done = reviewed(load_script(HANDS / "dispute.hand"), deals=3)
    assert done.plays
    assert done.plays[-1].hand == 1


# -- a third-party house: the Python rules and the plain search ---------------------------


def _split_pot_registry() -> Any:
    import importlib.util

    path = ROOT / "docs" / "examples" / "bourre-split-pot" / "src" / "bourre_split_pot"
    spec = importlib.util.spec_from_file_location("bourre_split_pot", path / "__init__.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return load_registry(extra=[("split-pot", module)])


def test_a_plugins_payout_is_reviewed_by_the_kernels_solver() -> None:
    """A house whose only plugin rule is a payout (the example split-pot, issue 41): the
    kernel's solver and deals, asking the plugin through Python, and said so; every
    card's values the Python reference's (the plugin's payout, ties split as fractions)."""
    registry = _split_pot_registry()
    data = random_script(2, 11, variants=("split-pot",))
    moments, done = reviewed(data, deals=3, registry=registry)
    if not kernel.available():  # (a money rule: the merging search holds)
        assert done.engines() == ["python"]
        return
    assert done.engines() == ["kernel"]
    assert done.why_python is None
    assert (
        "solved by the kernel's solver, asking split-pot's payout through Python"
        in (done.words()[0])
    )
    for m, p in zip(moments, done.plays, strict=True):
        if p.alternatives:
            ref = solve(m.state, engine="python")
            assert [(a.card, a.chips, a.sure_tricks) for a in p.alternatives] == [
                (v.card, v.chips, v.sure_tricks) for v in ref.values
            ]


def test_a_plugins_follow_rule_is_reviewed_by_the_kernels_plain_search() -> None:
    """A house whose plugin answers the follow rule (suit-only, issue 41): every card
    solved by the kernel's plain search asking the plugin through Python, and said so;
    its values the Python plain search's; no cap, since the kernel searches it."""
    from conftest import plugin

    from tests.kernel.test_plugin_hooks import SuitOnly

    registry = load_registry(extra=[("suit-only", plugin("suit-only", SuitOnly))])
    recorder = Recorder()
    data = random_script(3, 12, variants=("suit-only",))
    referee(data, watch=recorder, registry=registry)
    done = review(recorder.moments, house="suit-only", deals=0, max_held=4)
    if not kernel.available():
        assert done.engines() == ["python-plain"]
        return
    assert done.engines() == ["kernel-plain"] and done.why_python is None
    assert (
        "solved by the kernel's solver, every card searched (a plugin's rule of the play),"
        " asking suit-only's follow through Python" in done.words()[0]
    ), done.words()[0]
    assert all(p.alternatives for p in done.plays if "only card" not in p.note)
    for m, p in zip(recorder.moments, done.plays, strict=True):
        if p.alternatives:
            ref = solve(m.state, plain=True, engine="python")
            assert [(a.card, a.chips, a.sure_tricks) for a in p.alternatives] == [
                (v.card, v.chips, v.sure_tricks) for v in ref.values
            ]


def test_the_python_search_can_be_capped() -> None:
    """A house with a plugin's follow rule whose cards come highest first (a ruling the
    kernel does not hold: the order breaks a tie) is searched on the Python rules, which
    ``max_held`` caps."""
    from conftest import plugin
    from hookkit import Backwards

    registry = load_registry(extra=[("backwards", plugin("backwards", Backwards))])
    recorder = Recorder()
    data = random_script(2, 11, variants=("backwards",))
    referee(data, watch=recorder, registry=registry)
    done = review(recorder.moments, house="backwards", deals=0, max_held=4)
    assert done.engines() == ["python-plain"]
    first = done.plays[0]
    assert first.alternatives == () and "too long a search" in first.note
    assert any(p.alternatives for p in done.plays)  # the end of the hand is searched
    late = review(recorder.moments, house="backwards", deals=0, seconds=-1.0)
    assert all("time allowed ran out" in p.note for p in late.plays)


@pytest.mark.speed
def test_the_deals_stop_when_the_time_runs_out(monkeypatch: pytest.MonkeyPatch) -> None:
    """The clock runs out after the first card is solved: its deals stop, it says so,
    and the cards after it are not reviewed."""
    from bourre.advice import review as module

    moments, _ = reviewed(load_script(HANDS / "tricks.hand"))
    ticks = iter([0.0, 0.0, 0.0, 0.0] + [100.0] * 1000)
    monkeypatch.setattr(module.time, "monotonic", lambda: next(ticks))
    done = review(moments, house="standard", deals=10, seconds=50.0)
    first = done.plays[0]
    assert first.alternatives and first.deals < 10
    assert "The time allowed ran out after" in first.note
    assert all("time allowed ran out" in p.note for p in done.plays[1:])


def test_the_review_s_bounds() -> None:
    with pytest.raises(ValueError, match="deals"):
        review([], house="standard", deals=-1)
    empty = review([], house="standard")
    assert "nothing to review" in "\n".join(empty.words())
    assert isinstance(PlayReview, type)
    assert House("standard").spec == "standard"


# -- the command -------------------------------------------------------------------------


def bourre(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    exe = Path(sys.executable).parent / "bourre"
    return subprocess.run(
        [str(exe), *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=300,
    )


@pytest.mark.speed
def test_replay_review_prints_the_ruling_then_the_review(tmp_path: Path) -> None:
    script = str(HANDS / "tricks.hand")
    got = bourre(
        "replay", script, "--review", "--deals", "10", "--review-json", str(tmp_path / "r.json")
    )
    assert got.returncode == 0, got.stderr
    out = got.stdout
    ruling = bourre("replay", script, "--words").stdout
    assert out.startswith(ruling)
    assert "Review of the play, house standard" in out and "✗ Playing 3♦ instead of 3♠" in out
    data = json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))
    assert data["deals"] == 10 and data["engines"] == ["kernel"]
    assert len(data["plays"]) == 25
    lead = data["plays"][0]
    assert (lead["card"], lead["best"], lead["marks"][0]) == ("9H", "4C", "chips")
    assert {a["card"] for a in lead["alternatives"]} == {"8S", "9S", "9H", "9D", "4C"}
    assert "\n".join(w for p in data["plays"] for w in p["words"]) in out


@pytest.mark.speed
def test_review_json_leaves_the_records_as_they_are(tmp_path: Path) -> None:
    script = str(HANDS / "session.hand")
    plain = bourre("replay", script, "--json")
    with_review = bourre(
        "replay", script, "--json", "--review-json", str(tmp_path / "r.json"), "--deals", "2"
    )
    assert with_review.returncode == 0, with_review.stderr
    assert with_review.stdout == plain.stdout
    assert json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))["plays"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--review", "--json"], "--review-json FILE"),
        (["--review", "--deals", "20000"], "--deals: from 0 to 10,000"),
        (["--review", "--deals", "x"], "--deals"),
        (["--review-json", "/nonexistent/dir/r.json"], "--review-json: cannot write"),
        (["--review-json", "-"], "--review-json"),
    ],
)
def test_bad_review_options_are_refused(args: list[str], message: str) -> None:
    got = bourre("replay", str(HANDS / "tricks.hand"), *args)
    assert got.returncode == 2 and got.stdout == ""
    assert message in got.stderr and "Traceback" not in got.stderr


def test_an_unwritable_review_json_is_refused_before_the_review(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Said at once, not after a review that can take minutes (the review is never run)."""
    from typer.testing import CliRunner

    import bourre.advice.review as module
    from bourre.cli import app

    def never(*args: Any, **kw: Any) -> None:
        raise AssertionError("the review ran")

    monkeypatch.setattr(module, "review", never)
    script = str(HANDS / "tricks.hand")
    got = CliRunner().invoke(app, ["replay", script, "--review-json", "/nonexistent/dir/r.json"])
    assert got.exit_code == 2
    assert "--review-json: cannot write '/nonexistent/dir/r.json': No such file" in (got.output)


def test_a_bad_script_is_refused_with_review(tmp_path: Path) -> None:
    bad = tmp_path / "bad.hand"
    bad.write_text("house standard\nhand\nupcard 7C\ndecide 1 play ZZ\n", encoding="utf-8")
    got = bourre("replay", str(bad), "--review")
    assert got.returncode == 2 and got.stdout == "" and "ZZ" in got.stderr
    assert "Traceback" not in got.stderr


@pytest.mark.skipif(not kernel.available(), reason="the compiled kernel is not built")
def test_replay_review_on_an_installed_third_party_house(installed: Path, tmp_path: Path) -> None:  # noqa: F811
    """The example plugin installed (tests/plugins/test_third_party.py's fixture): its
    payout is asked through Python by the kernel's solver, and the review says so (no
    warning of the Python rules' plain search)."""
    script = tmp_path / "split.json"
    script.write_text(json.dumps(random_script(2, 11, variants=("split-pot",))), encoding="utf-8")
    got = run_bourre("replay", str(script), "--review", "--deals", "2", pythonpath=installed)
    assert got.returncode == 0, got.stderr
    assert "solved by the kernel's solver, asking split-pot's payout through Python" in got.stdout
    assert "the kernel cannot play this house" not in got.stdout
    assert "the review searches on the Python rules" not in got.stderr


@pytest.mark.speed
def test_the_docs_and_the_readme_show_what_the_command_prints() -> None:
    """docs/advice.md's example is the review part of the command's output, verbatim;
    the README's command runs as written."""
    page = (ROOT / "docs" / "advice.md").read_text(encoding="utf-8")
    command = "$ bourre replay docs/examples/hands/tricks.hand --review\n"
    shown = page.split(command)[1].split("```")[0].split("… the ruling, as with --words …\n\n")[1]
    got = bourre("replay", "docs/examples/hands/tricks.hand", "--review")
    assert got.returncode == 0, got.stderr
    assert got.stdout.endswith(shown)
    assert got.stdout.startswith(
        bourre("replay", "docs/examples/hands/tricks.hand", "--words").stdout
    )
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "```bash\nbourre replay docs/examples/hands/tricks.hand --review\n```" in readme


# -- the web page -----------------------------------------------------------------------


@pytest.fixture
def client() -> Any:
    pytest.importorskip("starlette")
    from starlette.testclient import TestClient

    from bourre.web import create_app

    return TestClient(create_app(), base_url="http://localhost")


ORIGIN = {"origin": "http://localhost"}


@pytest.mark.speed
def test_the_paste_page_offers_a_review_and_the_review_page_gives_it(client: Any) -> None:
    text = (HANDS / "tricks.hand").read_text(encoding="utf-8")
    page = client.post("/paste", data={"script": text}, headers=ORIGIN)
    assert page.status_code == 200 and 'id="review"' in page.text and 'action="/review' in page.text
    got = client.post("/review", data={"script": text, "deals": "6"}, headers=ORIGIN)
    assert got.status_code == 200
    _, done = reviewed(load_script(HANDS / "tricks.hand"), deals=6)
    for p in done.plays:
        for line in p.words():
            assert line.strip().replace("'", "&#39;") in got.text
    assert "Seat 0: 5 cards played" in got.text


@pytest.mark.speed
def test_the_typed_hand_page_offers_a_review_once_over(client: Any) -> None:
    lines = (HANDS / "tricks.hand").read_text(encoding="utf-8").splitlines()
    body = "\n".join(x for x in lines if x and not x.startswith(("#", "house")))
    page = client.post("/hand?house=standard", data={"script": body}, headers=ORIGIN)
    assert page.status_code == 200 and 'id="review"' in page.text
    got = client.post(
        "/review?house=standard",
        data={"script": body, "house": "standard", "deals": "0"},
        headers=ORIGIN,
    )
    assert got.status_code == 200 and "✗ Playing 3♦ instead of 3♠" in got.text


@pytest.mark.parametrize(
    ("form", "message"),
    [
        ({"script": "", "deals": "5"}, "the hand to review is missing"),
        ({"script": "hand\nupcard ZZ", "deals": "5"}, "is not a card"),
        ({"script": "house standard\nhand\nupcard 7C", "deals": "500"}, "from 0 to 100"),
        ({"script": "hand\nupcard 7C", "house": "nonsense(", "deals": "5"}, ""),
    ],
)
def test_bad_review_forms_get_a_message(client: Any, form: dict[str, str], message: str) -> None:
    got = client.post("/review", data=form, headers=ORIGIN)
    assert got.status_code == 400 and 'id="error"' in got.text
    assert message in got.text


def test_the_review_page_is_guarded(client: Any) -> None:
    assert client.get("/review").status_code == 200
    forged = client.post(
        "/review", data={"script": "x"}, headers={"origin": "http://elsewhere.example"}
    )
    assert forged.status_code == 403


@pytest.mark.speed
def test_the_tapped_hand_offers_its_review(client: Any) -> None:
    """The tour's hand tapped through to the payout (a renege the table lets stand):
    the page offers the review, which says what it did with the renege."""
    from tapflow import TOUR, hidden, taps
    from web.test_tap import Table

    t = Table()
    t.taps(taps(TOUR))
    assert 'id="review"' in t.page
    script = hidden(t.page, "script")
    got = client.post(
        "/review?house=standard",
        data={"script": script, "house": "standard", "deals": "3"},
        headers=ORIGIN,
    )
    assert got.status_code == 200
    assert "seat 1 plays 8♣" in got.text and "a renege (R-RENEGE)" in got.text


@pytest.mark.skipif(not kernel.available(), reason="the compiled kernel is not built")
def test_the_kernel_and_the_python_search_give_the_same_review(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """From trick 2 of the five-player tricks example, the same deals (drawn by the
    kernel) solved by the kernel and by the Python search: the same review, value for
    value."""
    from bourre.advice import kernel_solver

    moments, _ = reviewed(load_script(HANDS / "tricks.hand"))
    later = moments[5:]
    by_kernel = review(later, house="standard", deals=3, seed=2).as_dict()
    monkeypatch.setattr(kernel_solver, "why_not_house", lambda house: "(this test)")
    by_python = review(later, house="standard", deals=3, seed=2).as_dict()
    assert set(by_kernel["engines"]) == {"kernel"} and by_python["engines"] == ["python"]
    for a, b in zip(by_kernel["plays"], by_python["plays"], strict=True):
        a.pop("engine"), b.pop("engine")
        assert a == b


@pytest.mark.speed
@pytest.mark.skipif(not kernel.available(), reason="the compiled kernel is not built")
def test_the_kernel_s_deals_rebuilt_on_the_python_rules_are_the_same_deals() -> None:
    """The deals the kernel draws for the review and the advice during the hand
    (bourre.advice.weigh), rebuilt on the Python rules: the same cards in every playing
    hand, the same discards (R-DRAW), and the same values from the Python search as from
    the kernel's solver, at every card of session.hand's four hands (exchanges, folded
    seats, a dealer who threw the upcard, R-DEAL)."""
    from bourre.advice import kernel_solver
    from bourre.advice.weigh import _alike, _python_world
    from bourre.kernel import _kernel
    from bourre.kernel.rollouts import sample_worlds
    from bourre.kernel.state import _money

    moments, _ = reviewed(load_script(HANDS / "session.hand"))
    checked = 0
    for k, m in enumerate(moments):
        st = m.state
        if len(st.legal_cards()) < 2 or k % 3:
            continue
        seat = st.current_player()
        view = st.observation(seat)
        worlds: list[Any] | None = sample_worlds(
            st.house, view, 2, random.Random(k), keep=_alike, fold=_alike
        )
        assert worlds is not None
        for w in worlds:  # (none after a renege: no deal holds an illegal card)
            python = _python_world(st.house, view, w)
            assert python is not None
            hs = python.hand
            assert hs.active == st.hand.active and hs.trick == st.hand.trick
            for s in hs.active:
                assert tuple(sorted(hs.hands[s])) == tuple(w.hand(s)), (k, s)
                assert sorted(hs.discards[s]) == sorted(w.observe(s)[4]), (k, s)
            rows, _ = _kernel.dd_solve_stepper(w)
            facts = kernel_solver._facts(st.house)
            assert isinstance(facts, dict)
            amount = _money(facts["scale"])
            by_kernel = [(c, amount(chips[seat])) for c, _, _, chips in rows]
            by_python = [(v.card, v.chips) for v in solve(python, engine="python").values]
            assert by_kernel == by_python, k
            checked += 1
    assert checked >= 10


@pytest.mark.skipif(not kernel.available(), reason="the compiled kernel is not built")
def test_a_deal_the_kernel_finds_no_sample_for_is_counted_as_tried() -> None:
    """Late in tricks.hand the voids shown refuse most samples (R-FOLLOW): with one draw a
    deal, the kernel's misses keep their place (``misses=True``), so the weighing counts
    them as deals tried that could not agree with what the player saw, as the Python
    rules' draws are counted."""
    from bourre.advice.weigh import _alike
    from bourre.kernel.rollouts import sample_worlds

    moments, _ = reviewed(load_script(HANDS / "tricks.hand"))
    st = moments[15].state
    view = st.observation(st.current_player())
    kept = sample_worlds(st.house, view, 60, random.Random(1), keep=_alike, fold=_alike, tries=1)
    every = sample_worlds(
        st.house, view, 60, random.Random(1), keep=_alike, fold=_alike, tries=1, misses=True
    )
    assert kept is not None and every is not None and len(every) == 60
    assert 0 < len(kept) < 60 and [w for w in every if w is not None] != []
    assert sum(w is not None for w in every) == len(kept)


@pytest.mark.speed
def test_the_review_page_says_the_caveat_after_a_renege_once_a_hand(client: Any) -> None:
    text = (HANDS / "session.hand").read_text(encoding="utf-8")
    got = client.post("/review", data={"script": text, "deals": "0"}, headers=ORIGIN)
    assert got.status_code == 200
    _, done = reviewed(load_script(HANDS / "session.hand"), deals=0)
    hands = {p.hand for p in done.plays if p.note == AFTER_IRREGULAR}
    assert hands and got.text.count(AFTER_IRREGULAR) == len(hands)
