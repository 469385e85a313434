"""Shared fixtures and helpers of the test suite.

Helpers are plain functions (``from conftest import script_deck, ...``) and some are
also fixtures.  Cards in helpers are written in R-DECK notation ("AS", "TH", "10H").

Deck layout (R-DEAL): card i of the deck (top first) goes to seat
``(dealer + 1 + i) mod n`` for i < h*n; the upcard is card h*n - 1 (the dealer's last
card); the stock is the rest, top first.
"""

from __future__ import annotations

import copy
import json
import os
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

ROOT = Path(__file__).resolve().parent.parent
if (
    str(ROOT) not in sys.path
):  # `pytest` (not `python -m pytest`): make `tests.reference` importable
    sys.path.insert(0, str(ROOT))

from bourre import kernel  # noqa: E402
from bourre.houses.house import House  # noqa: E402
from bourre.referee import replay  # noqa: E402
from bourre.rules import Ruling  # noqa: E402
from bourre.rules.cards import card_str, cards_of, parse_card  # noqa: E402

GOLDEN = Path(__file__).resolve().parent / "golden"
BUILTINS = (
    "standard",
    "double-ante",
    "pot-limit",
    "four-card",
    "simultaneous-reveal",
    "optional-undertrump",
    "no-cinch",
)
"""The built-in variants, as registered by the bourre distribution."""
ALTERNATIVES = (
    "double-ante",
    "pot-limit(limit=3)",
    "four-card",
    "simultaneous-reveal",
    "optional-undertrump",
    "no-cinch",
)
"""Every built-in variant but ``standard``, as a house string with its settings."""

# ------------------------------------------------------------------ hypothesis profiles

settings.register_profile(
    "default",
    deadline=None,
    max_examples=50,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "ci",
    deadline=None,
    max_examples=50,
    derandomize=True,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "thorough",
    deadline=None,
    max_examples=1000,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile(
    os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "default")
)


# ---------------------------------------------------------------------- slow marker


@pytest.hookimpl(tryfirst=True)  # (before -m selects: a speed test may become slow)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Long runs (``@pytest.mark.slow``) run only when asked for: ``pytest -m slow``.
    Without the compiled kernel (``BOURRE_NO_KERNEL=1``, no compiler), the tests marked
    ``speed`` (seconds on the kernel, an hour or more on the Python rules alone) count
    as slow too, and a test's ``engine="kernel"`` case is skipped, saying why."""
    slow_here = [] if kernel.available() else [i for i in items if "speed" in i.keywords]
    for item in slow_here:
        item.add_marker(pytest.mark.slow)
    if not kernel.available():  # a test run on each engine: the kernel's case says why not
        unbuilt_engine = pytest.mark.skip(
            reason="engine='kernel': the compiled kernel is not built"
        )
        for item in items:
            callspec = getattr(item, "callspec", None)
            if callspec is not None and callspec.params.get("engine") == "kernel":
                item.add_marker(unbuilt_engine)
    if "slow" in (config.getoption("markexpr") or ""):
        return
    skip = pytest.mark.skip(reason="slow: run with `pytest -m slow` (or `tox -e slow`)")
    unbuilt = pytest.mark.skip(
        reason="slow without the compiled kernel (the Python rules alone): run with `pytest -m slow`"
    )
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(unbuilt if item in slow_here else skip)


# ---------------------------------------------------------------------------- cards

ALL_CARDS: list[str] = [card_str(c) for c in range(52)]
"""The 52 cards in canonical notation, in int order (2S … AS, 2H … AC)."""


def C(text: str) -> int:
    """One card as an int."""
    return parse_card(text)


def H(text: str | Iterable[str]) -> list[int]:
    """Cards as ints, sorted ascending (the HandState invariant: hands are sorted)."""
    items = text.split() if isinstance(text, str) else list(text)
    return sorted(parse_card(t) for t in items)


def M(text: str | Iterable[str]) -> tuple[int, ...]:
    """A hand as the follow and cinch components take it: a sorted tuple of cards."""
    return tuple(H(text))


def T(text: str) -> tuple[int, ...]:
    """A trick so far, in play order (not sorted)."""
    return tuple(parse_card(t) for t in text.split())


def S(cards: Iterable[int] | int | Ruling) -> set[str]:
    """Cards (a Ruling's, or a mask of them) as a set of canonical strings (for
    readable asserts)."""
    if isinstance(cards, Ruling):
        cards = cards.cards
    if isinstance(cards, int):
        cards = cards_of(cards)
    return {card_str(c) for c in cards}


def plugin(name: str, *classes: Any) -> ModuleType:
    """A plugin module registering ``classes`` (as a third-party package would); give
    it to ``load_registry(extra=[(name, module)])``."""
    from bourre.rules.variant import hookimpl

    mod = ModuleType(f"fake_{name.replace('-', '_')}")

    @hookimpl
    def bourre_register_variants(register: Callable[[type[Any]], None]) -> None:
        for cls in classes:
            register(cls)

    mod.bourre_register_variants = bourre_register_variants  # type: ignore[attr-defined]
    return mod


def install(
    monkeypatch: pytest.MonkeyPatch,
    *variants: type[Any],
    modules: Sequence[tuple[str, ModuleType]] = (),
) -> Any:
    """Register ``modules`` (name, plugin module) and ``variants`` (each in a module of
    its own name: :func:`plugin`) in process as the default registry, as installed
    plugins are, with ``BOURRE_ENGINE`` unset; the registry (loaded without an error)."""
    import bourre.houses.house as house_module
    from bourre.rules.plugins import load_registry

    monkeypatch.delenv("BOURRE_ENGINE", raising=False)
    extra = [*modules, *((c.name, plugin(c.name, c)) for c in variants)]
    reg = load_registry(extra=extra)
    assert not reg.errors, reg.errors
    monkeypatch.setattr(house_module, "default_registry", lambda: reg)
    return reg


def canon(text: str) -> str:
    return card_str(parse_card(text))


# ---------------------------------------------------------------------------- decks


def script_deck(
    hands_by_seat: Mapping[int, Sequence[str] | str],
    dealer: int,
    n: int,
    stock_first: Sequence[str] | str = (),
    hand_size: int = 5,
) -> list[str]:
    """A 52-card deck (top first, canonical notation) that deals ``hands_by_seat``.

    ``hands_by_seat[s]`` lists the cards of seat s in the order dealt (its last card is
    dealt in round ``hand_size``; the dealer's last card is the upcard).  Seats not
    given, and missing cards, are filled with the unused cards in int order; the stock
    starts with ``stock_first`` and goes on with the other unused cards.
    """
    hands = {s: (v.split() if isinstance(v, str) else list(v)) for s, v in hands_by_seat.items()}
    stock_first = stock_first.split() if isinstance(stock_first, str) else list(stock_first)
    wanted = [canon(c) for cs in hands.values() for c in cs] + [canon(c) for c in stock_first]
    if len(set(wanted)) != len(wanted):
        raise ValueError(f"a card is wanted twice: {wanted}")
    for s, cs in hands.items():
        if not 0 <= s < n or len(cs) > hand_size:
            raise ValueError(f"seat {s}: {cs}")
    free = [c for c in ALL_CARDS if c not in set(wanted)]
    deck: list[str | None] = [None] * 52
    for s in range(n):
        cs = [canon(c) for c in hands.get(s, [])]
        offset = (s - dealer - 1) % n
        for r in range(hand_size):
            deck[r * n + offset] = cs[r] if r < len(cs) else free.pop(0)
    m = hand_size * n
    tail = [canon(c) for c in stock_first] + free
    for i in range(m, 52):
        deck[i] = tail[i - m]
    assert None not in deck and len(set(deck)) == 52
    return deck  # type: ignore[return-value]


def dealt_hands(deck: Sequence[str], dealer: int, n: int, hand_size: int = 5) -> list[list[str]]:
    """Who gets which card of ``deck`` (R-DEAL), independently of the code under test."""
    hands: list[list[str]] = [[] for _ in range(n)]
    for i in range(hand_size * n):
        hands[(dealer + 1 + i) % n].append(canon(deck[i]))
    return hands


# -------------------------------------------------------------------------- scripts


def dec(seat: int, action: str = "play", discard: Sequence[str] | str = ()) -> dict[str, Any]:
    """A decision of a script."""
    d: dict[str, Any] = {"seat": seat, "action": action}
    cards = discard.split() if isinstance(discard, str) else list(discard)
    if cards:
        d["discard"] = cards
    return d


def decisions(
    dealer: int, n: int, spec: Mapping[int, str | tuple[str, str]]
) -> list[dict[str, Any]]:
    """Decisions in table order from the dealer's left; ``spec[seat]`` is ``"pass"``,
    ``"play"`` or ``("play", "2C 3D")`` (cards discarded).  Seats not given pass."""
    out = []
    for k in range(1, n + 1):
        s = (dealer + k) % n
        v = spec.get(s, "pass")
        if isinstance(v, tuple):
            out.append(dec(s, v[0], v[1]))
        else:
            out.append(dec(s, v))
    return out


def plays(text: str) -> list[dict[str, Any]]:
    """Plays from ``"3:JH 4:3S 0:5H | 4:QD …"``; ``seat:CARD>CORR`` marks a card
    corrected to CORR (R-CORRECTED); ``|`` separators are ignored (readability)."""
    out = []
    for tok in text.replace("|", " ").split():
        seat, _, cards = tok.partition(":")
        card, _, corr = cards.partition(">")
        p: dict[str, Any] = {"seat": int(seat), "card": card}
        if corr:
            p["corrected_to"] = corr
        out.append(p)
    return out


def make_hand(
    deck: Sequence[str],
    decs: list[dict[str, Any]],
    play_list: list[dict[str, Any]] | None = None,
    *,
    dealer: int | None = None,
    pot: Any = None,
    events: Sequence[int] = (),
) -> dict[str, Any]:
    """One hand of a script."""
    h: dict[str, Any] = {"deck": list(deck), "decisions": decs, "plays": list(play_list or [])}
    if dealer is not None:
        h["dealer"] = dealer
    if pot is not None:
        h["pot"] = pot
    if events:
        h["events"] = [{"type": "premature", "seat": s} for s in events]
    return h


def make_script(
    hands: list[dict[str, Any]],
    *,
    players: int = 5,
    variants: Sequence[str] = (),
    settings: Mapping[str, Any] | None = None,
    table: Mapping[str, Any] | None = None,
    balances: Sequence[Any] | None = None,
) -> dict[str, Any]:
    """A script dict from a list of hands (HAND-HISTORY.md)."""
    tbl = {"players": players, **(table or {})}
    rules: dict[str, Any] = {"table": tbl}
    if variants or settings:
        rules["variants"] = {"use": ["standard", *variants], **(settings or {})}
    s: dict[str, Any] = {"rules": rules, "hands": hands}
    if balances is not None:
        s["balances"] = list(balances)
    return s


def sole_dealer_hand(
    dealer: int, n: int, *, events: Sequence[int] = (), deck: Sequence[str] | None = None
) -> dict[str, Any]:
    """A quick hand: everyone passes, the dealer stands (R-LAST-STANDS, R-SOLE)."""
    deck = list(deck) if deck is not None else list(ALL_CARDS)
    return make_hand(deck, decisions(dealer, n, {dealer: "play"}), [], events=events)


# ---------------------------------------------------------------- running scripts


def run(script: Mapping[str, Any]) -> dict[str, Any]:
    """``bourre.referee.replay`` on a copy of the script, as JSON data."""
    return replay(copy.deepcopy(dict(script))).model_dump(mode="json")


def normalize(record: Mapping[str, Any]) -> dict[str, Any]:
    """A record with ``legal`` and ``hands_after_draw`` as sorted lists (they compare
    as sets) and without the extra top-level key ``house``."""
    rec = copy.deepcopy(dict(record))
    rec.pop("house", None)
    for h in rec["hands"]:
        h["hands_after_draw"] = [sorted(x) for x in h["hands_after_draw"]]
        for t in h["tricks"]:
            for p in t["plays"]:
                p["legal"] = sorted(p["legal"])
    return rec


def reference(script: Mapping[str, Any]) -> dict[str, Any]:
    """The independent reference referee (tests/reference), normalized."""
    from tests.reference.referee import referee

    return normalize(referee(json.loads(json.dumps(script))))


def legal_of(record: Mapping[str, Any], hand: int, index: int) -> set[str]:
    """The legal set of the ``index``-th card played in hand ``hand`` (0-based)."""
    return set(play_at(record, hand, index)["legal"])


def play_at(record: Mapping[str, Any], hand: int, index: int) -> dict[str, Any]:
    flat = [p for t in record["hands"][hand]["tricks"] for p in t["plays"]]
    return flat[index]


def complete(script: dict[str, Any], pick: str = "low") -> dict[str, Any]:
    """Fill in the missing plays of every hand with legal cards, using the reference
    referee's rule functions (independent of bourre).  ``pick``: ``"low"`` plays the
    lowest legal card (by rank, then suit order S H D C), ``"high"`` the highest.
    Given plays (corrections included) are kept as they are."""
    from tests.reference import referee as ref

    script = copy.deepcopy(script)
    rules = ref.parse_rules(script.get("rules"))
    session = ref.Session(rules, ref.parse_balances(script.get("balances"), rules))
    order = "SHDC"
    for hand in script["hands"]:
        dealer = session.upcoming_dealer(hand)
        deal = ref.Deal(rules, dealer, ref.parse_deck(hand["deck"], "complete"))
        ref.run_decisions(deal, hand.get("decisions"), "complete")
        given = hand.setdefault("plays", [])
        if len(deal.active) > 1:
            leader = deal.first_leader()
            idx = 0
            for _ in range(deal.h):
                trick: list[tuple[int, str]] = []
                for pos, seat in enumerate(deal.play_order(leader)):
                    if idx < len(given):
                        p = given[idx]
                        card = canon(p.get("corrected_to", p["card"]))
                    else:
                        legal, _ = deal.legal(seat, trick, is_last=pos == len(deal.active) - 1)
                        key = lambda c: (ref.rank(c), -order.index(c[1]))  # noqa: E731
                        card = min(legal, key=key) if pick == "low" else max(legal, key=key)
                        given.append({"seat": seat, "card": card})
                    deal.lay(seat, card, trick)
                    idx += 1
                w = ref.trick_winner(trick, deal.trump)
                deal.tricks_won[w] += 1
                leader = w
        session.play_hand(hand)
    return script


# ------------------------------------------------------------------------ fixtures


@pytest.fixture(scope="session")
def house() -> House:
    """The documented profile."""
    return House("standard")


@pytest.fixture
def tmp_script(tmp_path: Path):
    """Write a script (dict or raw text) to a file and return its path."""

    def write(data: Any, name: str = "script.json") -> Path:
        p = tmp_path / name
        p.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
        return p

    return write


# ------------------------------------------------------------------------ scenarios
# Hand-made deals used by several test files (and the golden transcripts).  Each
# builds one hand at a table of 5 with every seat turned by ``r`` (the dealer is seat
# r); the expected outcomes are worked out in the docstrings, from RULES.md only.


def _rot(spec: Mapping[int, Any], r: int, n: int = 5) -> dict[int, Any]:
    return {(s + r) % n: v for s, v in spec.items()}


def _rot_plays(text: str, r: int, n: int = 5) -> list[dict[str, Any]]:
    out = plays(text)
    for p in out:
        p["seat"] = (p["seat"] + r) % n
    return out


def hand_2111(r: int = 0) -> dict[str, Any]:
    """Trump S; the dealer (seat r) passes, seats r+1..r+4 (A B C D) play.
    A: AS KS win tricks 1-2; B wins trick 3 (AC), C trick 4 (AD), D trick 5 (AH).
    Tricks A=2 B=1 C=1 D=1: A takes the pot (2-1-1-1, R-WIN); nobody is bourré."""
    deck = script_deck(
        _rot(
            {
                1: "AS KS 2C 3C 4C",
                2: "AC 2D 3D 4D 5D",
                3: "AD 2H 3H 4H 5H",
                4: "AH KH QH JH TH",
                0: "6C 7C 8C 9C 5S",
            },
            r,
        ),
        r,
        5,
    )
    d = decisions(r, 5, _rot({1: "play", 2: "play", 3: "play", 4: "play"}, r))
    p = _rot_plays(
        "1:AS 2:5D 3:5H 4:TH | 1:KS 2:4D 3:4H 4:JH | 1:2C 2:AC 3:3H 4:QH"
        " | 2:2D 3:AD 4:KH 1:3C | 3:2H 4:AH 1:4C 2:3D",
        r,
    )
    return make_hand(deck, d, p)


def hand_tie(r: int = 0) -> dict[str, Any]:
    """Trump S; dealer r passes; A B C D (seats r+1..r+4) play.
    Tricks A=2 B=2 C=1 D=0: a tie for the most, nobody takes P, it carries whole
    (R-WIN); D is bourré and pays P (R-BOURRE).  Next hand A, B (tied) and D
    (bourré) skip the ante (R-ANTE)."""
    deck = script_deck(
        _rot(
            {
                1: "AS KS 2C 3C 4C",
                2: "AC AD 2D 2H 3H",
                3: "KD 3D 4H 5H 6H",
                4: "7H 8H 9H TH JH",
                0: "6C 7C 8C 9C 5S",
            },
            r,
        ),
        r,
        5,
    )
    d = decisions(r, 5, _rot({1: "play", 2: "play", 3: "play", 4: "play"}, r))
    p = _rot_plays(
        "1:AS 2:2H 3:4H 4:7H | 1:KS 2:3H 3:5H 4:8H | 1:2C 2:AC 3:6H 4:9H"
        " | 2:AD 3:3D 4:TH 1:3C | 2:2D 3:KD 4:JH 1:4C",
        r,
    )
    return make_hand(deck, d, p)


def hand_two_bourre(r: int = 0) -> dict[str, Any]:
    """Trump S; A (r+1) holds AS KS QS JS TS, B (r+2) and C (r+3) hold no trump;
    r+4 and the dealer pass.  A takes every trick; B and C are bourré and each pays
    the same old P (R-BOURRE)."""
    deck = script_deck(
        _rot(
            {1: "AS KS QS JS TS", 2: "AH KH QH JH 2D", 3: "AD KD QD JD 3C", 0: "6C 7C 8C 9C 9S"}, r
        ),
        r,
        5,
    )
    d = decisions(r, 5, _rot({1: "play", 2: "play", 3: "play"}, r))
    p = _rot_plays(
        "1:AS 2:2D 3:3C | 1:KS 2:JH 3:JD | 1:QS 2:QH 3:QD | 1:JS 2:KH 3:KD | 1:TS 2:AH 3:AD", r
    )
    return make_hand(deck, d, p)


RENEGE_DEAL = {2: "AS KS QS JS TS", 1: "AH KH QH JH 2S", 0: "6C 7C 8C 9C 9S"}
"""Trump S (upcard 9S, the dealer passes); seat 1 (B) and seat 2 (A) play."""


def hand_renege(r: int = 0, plays_text: str | None = None) -> dict[str, Any]:
    """B (r+1) leads AH, A (r+2) trumps; then B, holding 2S, discards KH on A's KS:
    a renege (R-RENEGE).  A takes every trick; B is bourré and reneged: pays 2P."""
    deck = script_deck(_rot(RENEGE_DEAL, r), r, 5)
    d = decisions(r, 5, _rot({1: "play", 2: "play"}, r))
    text = plays_text or "1:AH 2:AS | 2:KS 1:KH | 2:QS 1:2S | 2:JS 1:QH | 2:TS 1:JH"
    return make_hand(deck, d, _rot_plays(text, r))


FORFEIT_DEAL = {2: "AS KS QS JS 3H", 1: "AH KH QH JH 2S", 0: "6C 7C 8C 9C 9S"}
"""Trump S; B (seat 1) leads AH and A (seat 2), holding 3H, must follow hearts."""


def hand_forfeit(r: int = 0, plays_text: str = "") -> dict[str, Any]:
    deck = script_deck(_rot(FORFEIT_DEAL, r), r, 5)
    d = decisions(r, 5, _rot({1: "play", 2: "play"}, r))
    return make_hand(deck, d, _rot_plays(plays_text, r))


def hand_worked_example() -> dict[str, Any]:
    """RULES.md worked example (seeds 08), seated: dealer 2 and seat 3 pass; A = seat 4,
    B = seat 0, C = seat 1; the dealer's upcard 2S makes spades trump.
    A leads JH, B plays his only trump 3S, C (AH 5H 8S …) plays 5H; B wins.
    Tricks A=3 B=2 C=0."""
    deck = script_deck(
        {
            4: "JH AS KS AC 2D",
            0: "3S QD KC 4D 3C",
            1: "AH 5H 7C 6D 8S",
            3: "2H 3H 4H 6H 7H",
            2: "8H 9H TH QH 2S",
        },
        2,
        5,
    )
    d = decisions(2, 5, {4: "play", 0: "play", 1: "play"})
    p = plays("4:JH 0:3S 1:5H | 0:QD 1:6D 4:2D | 0:KC 1:7C 4:AC | 4:AS 0:4D 1:8S | 4:KS 0:3C 1:AH")
    return make_hand(deck, d, p, dealer=2)


@pytest.fixture
def local_cluster() -> Iterator[Any]:
    """A Dask cluster on loopback, in this process (the Dask backend's tests)."""
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(
        processes=False,
        n_workers=1,
        threads_per_worker=2,
        host="127.0.0.1",
        protocol="tcp",
        dashboard_address=None,
    ) as cluster:
        yield cluster
