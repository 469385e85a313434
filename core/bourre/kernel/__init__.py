"""The compiled kernel: whole seeded sessions of the built-in game at the speed of C++.

An accelerator, not a second definition: the rules stay those of the Python components
(:mod:`bourre_variants`), and ``tests/kernel/test_sessions.py`` holds the kernel to them by
playing the same sessions on both and comparing the money exactly.  It plays a house
made only of built-in variants (every setting of ``double-ante``, ``pot-limit``,
``four-card``, ``simultaneous-reveal``, ``optional-undertrump``, ``no-cinch``, 2 to 8
players, every table setting) with the built-in ``random`` and ``heuristic`` bots; and
a house whose only plugin rules are a penalty, a payout, the lead, the follow rule, the
cinch, the trick winner, the antes, the next dealer or the settlement, asking the
plugin's checked component through Python for those (:mod:`bourre.kernel.hooks`,
:func:`python_hooks`), and a plugin's hand size of 1 to 5 cards (a value: no call).

- :func:`available`: whether the extension was built and imports;
- :func:`can_play`: ``None``, or why the kernel cannot play a house with some bots
  (the component named);
- :func:`play_session` / :func:`play_sessions`: the :class:`~bourre.game.simulate.SessionResult`
  that :func:`bourre.game.simulate.play_session` gives for the same house, seed and bots
  (``final`` and ``ranks``; no per-hand results).

Bots are given as ``bots``: the text ``"random"`` is the players of
``simulate.play_session``'s default (one random bot whose stream,
``bourre-bots:{seed}``, serves every seat); any other text (``"heuristic"``,
``"heuristic(keep_trump=5)"``, ``"random,heuristic"`` …, read as ``--bots`` is) or a
sequence of bot names or :class:`~bourre.sim.runs.sessions.BotSpec` (one for every
seat, or one a seat) is bots made seat by seat from ``random.Random(f"bourre-bots:{seed}")``,
as ``bourre compare`` makes them (``simulate.play_session(players=factory)``).
"""

from __future__ import annotations

import importlib
import math
import random
import sys
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from bourre.game.botmaking import BotSpec, parse_bots
from bourre.game.players import make_bot
from bourre.game.simulate import SessionResult
from bourre.game.simulate import play_session as python_session
from bourre.game.xoshiro import from_bits
from bourre.houses.house import House
from bourre.kernel import fingerprint, hooks
from bourre.kernel.decisions import decisions_hook
from bourre.rules.hookspec import (
    ANTE,
    CINCH,
    FOLLOW,
    LEAD,
    NEXT_DEALER,
    PAYOUT,
    PENALTY,
    SETTLE,
    TRICK_WINNER,
)
from bourre.rules.money import Amount
from bourre.rules.plugins import default_registry

_kernel: Any
try:
    _kernel = importlib.import_module("bourre.kernel._kernel")
except ImportError as _e:  # not built (no compiler, or BOURRE_NO_KERNEL=1 at install)
    _kernel = None
    _WHY_NOT = f"the compiled kernel is not built ({_e})"
else:
    _WHY_NOT = ""

__all__ = [
    "KernelError",
    "available",
    "can_play",
    "play_session",
    "play_sessions",
    "python_hooks",
    "simulate_session",
    "tally_session",
]

BotsArg = str | Sequence[Any]
"""``"random"``, ``"heuristic"``, a ``--bots`` text, or one bot (name or BotSpec) a seat."""

_LIMIT = 1 << 62
"""The largest amount in 1/D chips the kernel is given (it plays in 128-bit integers)."""


class KernelError(ValueError):
    """The kernel cannot play this house or these bots (the reason names the component)."""


def available() -> bool:
    """Whether the compiled kernel is built and imports."""
    return _kernel is not None


# -- what the kernel can play ------------------------------------------------------------


_BUILT_FROM = fingerprint.built()
"""The fingerprints of the built-in rule modules the extension copies (the build's
record): :mod:`bourre.kernel.fingerprint`."""

KERNEL_VARIANTS = fingerprint.kernel_variants(_BUILT_FROM)
"""The built-in variants the kernel plays (``standard`` and one a rule module it was
built from: :func:`bourre.kernel.fingerprint.kernel_variants`), known by the registry
(registered by bourre's own entry points, the class the registry holds:
:meth:`House.is_builtin`), never by a module or a class name a plugin could copy."""

_STALE: list[dict[str, list[str]]] = []
"""The built-in rule modules installed now that differ from the kernel's copy, by
variant (``*``: every house), read once a process."""


def stale_rules() -> dict[str, list[str]]:
    """The built-in rule modules that differ from those the kernel was built from, by
    the variant they belong to (``*``: the standard rules, every house): those houses
    play on the Python rules, never the kernel's old copy.  Read once a process, at the
    first house asked about, with a one-line notice on stderr when some differ."""
    if not _STALE:
        got = fingerprint.stale(_BUILT_FROM, fingerprint.installed) if _kernel is not None else {}
        _STALE.append(got)
        if got:
            print(fingerprint.notice(got), file=sys.stderr)
    return _STALE[0]


@dataclass
class _Plan:
    """What the kernel is told of a house and its bots."""

    house: dict[str, Any]
    bots: list[tuple[int, float, float, int]]
    shared: bool  # the random bots share the stream bourre-bots:{seed}
    random: bool  # a random bot is seated (else no bot draws a number)
    names: tuple[str, ...]  # the bot of each seat
    scale: int  # D: amounts are counted in 1/D chips
    n: int
    prepared: Any = field(default=None, compare=False)
    """The house and bots as the kernel reads them, once (``compare``'s sessions are
    played from it: its streams a seat when a random bot is seated)."""


def _denominator(x: Amount) -> int:
    return x.denominator if isinstance(x, Fraction) else 1


_FACTS: list[tuple[House, dict[str, Any] | str]] = []


def _house_facts(house: House) -> dict[str, Any] | str:
    """What the kernel is told of ``house``, or why it cannot play it: read once for
    each of the last few houses (a house does not change; the dict is shared, not to be
    changed)."""
    for h, got in _FACTS:
        if h is house:
            return got
    got = _read_house_facts(house)
    _FACTS.append((house, got))
    del _FACTS[:-8]
    return got


def _read_house_facts(house: House) -> dict[str, Any] | str:
    names: set[str] = set()
    limit: Amount = 0
    through = hooks.through_python(house, KERNEL_VARIANTS)
    if isinstance(through, str):  # a plugin's hook the kernel cannot call
        return through
    for v in house.variants:
        name = v.name if v.name in KERNEL_VARIANTS and house.is_builtin(v) else None
        if name is None:
            if any(by is v for by in house.answered_by.values()):
                continue  # a plugin's variant answering only hooks in ``through``
            return (
                f"variant {v.name!r} ({type(v).__module__}.{type(v).__qualname__}) is not a"
                " built-in variant: only the Python rules can play it"
            )
        names.add(name)
        changed = stale_rules()
        if "*" in changed or name in changed:
            modules = ", ".join(changed.get("*", []) + changed.get(name, []))
            return (
                f"the built-in rule {modules} is not the one the compiled kernel copies"
                f" (edited since the build): only the Python rules play {name!r}"
            )
        if name == "pot-limit":
            limit = v.settings.limit  # type: ignore[attr-defined]
    if "standard" not in names:
        return "the house does not build on the built-in 'standard' variant"
    t = house.table
    h = house.rules.hand_size  # (a plugin's too: a value, R-DEAL-SIZE, no call)
    if h not in hooks.KERNEL_HAND_SIZES:
        return f"hand size {h}: the kernel deals 1 to 5 cards a hand"
    if not 2 <= t.players <= 8:
        return f"table.players {t.players}: the kernel plays 2 to 8"
    amounts: tuple[Amount, ...] = (t.ante, t.balance, limit)
    scale = 1
    for x in amounts:
        d = _denominator(x)
        scale = scale * d // math.gcd(scale, d)
    payout = any(x.endswith(f"({PAYOUT.name})") for x in through)
    penalty = not payout and any(x.endswith(f"({PENALTY.name})") for x in through)
    follow = any(x.endswith(f"({FOLLOW.name})") for x in through)
    winner = any(x.endswith(f"({TRICK_WINNER.name})") for x in through)
    lead = any(x.endswith(f"({LEAD.name})") for x in through)
    cinch = any(x.endswith(f"({CINCH.name})") for x in through)
    # (a plugin's follow rule and cinch: the cinch's narrow reads the follow's last ruling)
    last: list[Any] | None = [None] if follow and cinch else None
    ante = any(x.endswith(f"({ANTE.name})") for x in through)
    dealer = any(x.endswith(f"({NEXT_DEALER.name})") for x in through)
    settle = any(x.endswith(f"({SETTLE.name})") for x in through)
    phase = any(x[:-1].split(" (", 1)[1] in hooks.SESSION_HOOKS for x in through)
    if payout or penalty or ante:  # a plugin's money rule: a pot shared by up to 8 stays whole
        scale *= hooks.WIDEN
    if any(abs(Fraction(x)) * scale >= _LIMIT for x in amounts) or scale >= _LIMIT:
        return "amounts too large for the kernel's 64-bit inputs"
    fd = t.first_dealer
    outcome = hooks.outcome_of(house, scale)  # (the payout asked once a hand: both hooks)
    return {
        "players": t.players,
        "hand_size": h,
        "hands": t.hands,
        "first_dealer": fd if isinstance(fd, int) else -1,
        "double_ante": "double-ante" in names,
        "simultaneous": "simultaneous-reveal" in names,
        "optional_undertrump": "optional-undertrump" in names,
        "cinch": "no-cinch" not in names,
        "pot_limit": "pot-limit" in names,
        "limit": int(limit * scale),
        "ante": int(t.ante * scale),
        "balance": int(t.balance * scale),
        "scale": scale,
        # the hooks called through Python (bourre.kernel.hooks): the payout's, or else
        # the penalty's, which the kernel's own payout calls; the lead's, the follow
        # rule's, the cinch's and the trick winner's
        "through": tuple(through),
        "money_hook": hooks.remembered(hooks.money_hook(house, scale, outcome)) if payout else None,
        "penalty_hook": hooks.remembered(hooks.penalty_hook(house, scale)) if penalty else None,
        "follow_hook": hooks.follow_hook(house, last) if follow else None,
        "winner_hook": house.rules[TRICK_WINNER] if winner else None,
        "lead_hook": house.rules[LEAD] if lead else None,
        "cinch_hook": hooks.cinch_hook(house, last) if cinch else None,
        # the per-hand hooks: the ante's (at the deal, and when the tricks start), the next
        # dealer's, the settlement's
        "ante_hook": hooks.ante_hook(house, scale, outcome) if ante else None,
        "play_ante_hook": hooks.play_ante_hook(house, scale) if ante else None,
        "dealer_hook": hooks.dealer_hook(house) if dealer else None,
        "settle_hook": hooks.settle_hook(house, scale) if settle else None,
        # a plugin's decisions or draw: each hand's decisions and exchanges, in Python
        "decisions_hook": decisions_hook(house, scale) if phase else None,
        "outcome": outcome,  # (a hand's HandOutcome from the payout: the state's twin)
    }


def _specs(bots: BotsArg, n: int) -> tuple[list[tuple[str, dict[str, Any]]], bool] | str:
    """Each seat's bot name and options, and whether the random bots share one stream."""
    if isinstance(bots, str):
        if bots.strip() == "random":  # simulate.play_session's default players
            return [("random", {})] * n, True
        try:
            listed: list[Any] = parse_bots(bots)
        except ValueError as e:
            return str(e)
    else:
        listed = list(bots)
    out: list[tuple[str, dict[str, Any]]] = []
    for b in listed:
        if isinstance(b, BotSpec):
            out.append((b.name, dict(b.options)))
        elif isinstance(b, str):
            out.append((b, {}))
        else:
            return f"bot {b!r} is not a bot name: only the Python rules can play it"
    if len(out) == 1:
        out = out * n
    if len(out) != n:
        return f"{len(out)} bots given for a table of {n} players"
    return out, False


def _bot_facts(
    house: House, specs: list[tuple[str, dict[str, Any]]]
) -> list[tuple[int, float, float, int]] | str:
    """Each seat's bot as the kernel plays it, read off the bot itself as the installed
    plugins make it.  The kernel plays a bot whose own class (not a base) says
    ``kernel_bot = "random"`` or ``"heuristic"``: the built-in bots' classes say so
    (the engine imports no bot, so it knows them by this mark, which a subclass does
    not inherit), and only a bot registered by bourre's own entry points counts (a
    plugin's bot that copies the mark is still played by the Python rules)."""
    out: list[tuple[int, float, float, int]] = []
    seen: dict[tuple[str, str], tuple[int, float, float, int] | str] = {}
    for name, options in specs:
        key = (name, repr(sorted(options.items())))
        got = seen.get(key)
        if got is None:
            try:
                bot: Any = make_bot(name, random.Random(0), house=house, **options)
            except ValueError as e:
                got = str(e)
            else:
                registry = getattr(house, "registry", None) or default_registry()
                builtin = name in registry.builtin_bots
                form = vars(type(bot)).get("kernel_bot") if builtin else None
                if form == "random":
                    got = (0, 0.0, 0.0, 2)
                elif form == "heuristic" and _winner_of(bot, house):
                    # (a plugin's trick winner, R-TRICK: the kernel's heuristic asks the
                    # house's, as the bot does, whether a card would win: bots.cpp)
                    got = (1, bot.play_threshold, bot.per_opponent, bot.keep_trump)
                elif form == "heuristic":
                    got = (
                        f"the {name!r} bot reads a trick winner (R-TRICK) that is not the"
                        " house's: only the Python rules can seat it"
                    )
                else:
                    got = (
                        f"bot {name!r} ({type(bot).__module__}.{type(bot).__qualname__}) is not"
                        " a built-in random or heuristic bot: only the Python rules can play it"
                    )
            seen[key] = got
        if isinstance(got, str):
            return got
        out.append(got)
    return out


def _winner_of(bot: Any, house: House) -> bool:
    """Whether the heuristic ``bot`` reads the trick winner the kernel's heuristic reads
    (R-TRICK): the standard one (``None``) on a house whose trick winner is built in, or
    on a house whose trick winner is a plugin's, that one, which the kernel asks through
    Python (``winner_hook``) exactly where the bot asks it."""
    through = hooks.through_python(house, KERNEL_VARIANTS)
    plugin = isinstance(through, list) and any(
        x.endswith(f"({TRICK_WINNER.name})") for x in through
    )
    return getattr(bot, "winner", None) is (house.rules[TRICK_WINNER] if plugin else None)


_PLANS: list[tuple[House, Any, _Plan | str]] = []
"""The last few plans made, by the house's identity and the bots' text."""


def _plan(house: House, bots: BotsArg) -> _Plan | str:
    if not isinstance(house, House):
        return f"{house!r} is not a House"
    if not isinstance(bots, (str, list, tuple)) and not isinstance(bots, Sequence):
        return f"bots {bots!r}: a bot name, a --bots text, or one bot a seat"
    key = bots if isinstance(bots, str) else tuple(bots)
    for h, k, p in _PLANS:
        if h is house and k == key:
            return p
    p = _make_plan(house, bots)
    _PLANS.append((house, key, p))
    del _PLANS[:-8]
    return p


def _make_plan(house: House, bots: BotsArg) -> _Plan | str:
    facts = _house_facts(house)
    if isinstance(facts, str):
        return facts
    n = facts["players"]
    specs = _specs(bots, n)
    if isinstance(specs, str):
        return specs
    seats, shared = specs
    kinds = _bot_facts(house, seats)
    if isinstance(kinds, str):
        return kinds
    random_seated = any(k[0] == 0 for k in kinds)
    names = tuple(s[0] for s in seats)
    return _Plan(facts, kinds, shared, random_seated, names, facts["scale"], n)


def can_play(
    house: House, bots: BotsArg = "random", *, hooks: bool | Collection[str] = False
) -> str | None:
    """``None`` if the kernel can play ``house`` with ``bots``, else why not (naming the
    component: a third-party variant or bot, a table it does not play).

    A house with a plugin's penalty, payout, lead, follow rule, cinch, trick winner,
    ante, next dealer or settlement (:func:`python_hooks`) is played by the kernel's whole
    sessions and its state API, which ask the plugin through Python: ``hooks=True`` asks
    for those uses; a collection of hook names (advice's deals:
    :data:`bourre.kernel.rollouts.ADVICE_HOOKS`, the kernel's advice batches ask a
    plugin's penalty, payout, lead, follow rule and cinch, and its decisions and draw;
    the Monte Carlo worlds ask the rules of the play too,
    sampled, replayed or loaded from a Python state, and their rollouts, and so the
    equilibrium chart's deals, :data:`bourre.kernel.rollouts.WORLD_HOOKS` /
    :data:`~bourre.kernel.rollouts.LOAD_HOOKS`; the double-dummy solver's sampled worlds,
    :data:`bourre.kernel.hooks.MONEY_HOOKS`, a plugin's penalty and payout) accepts a
    house whose plugin rules are only those; the default (no hook asked) accepts only a house whose rules are all built in, so a house
    with a plugin's rule is refused, naming the plugin's hooks."""
    if _kernel is None:
        return _WHY_NOT
    p = _plan(house, bots)
    if isinstance(p, str):
        return p
    through: tuple[str, ...] = p.house["through"]
    if not through or hooks is True:
        return None
    asked = () if hooks is False else tuple(hooks)
    beyond = [x for x in through if x[:-1].split(" (", 1)[-1] not in asked]
    if not beyond:
        return None
    if asked:
        return (
            f"{', '.join(beyond)}: a plugin's rule that the kernel does not ask here (it"
            f" asks only a plugin's {' or '.join(asked)}), so the Python rules play it"
        )
    return (
        f"{', '.join(through)}: a plugin's rule, and this use of the kernel asks no plugin"
        " (it holds the built-in rules only), so the Python rules play it"
    )


def python_hooks(house: House) -> tuple[str, ...]:
    """The hooks of ``house`` that the kernel calls through Python (``"variant (hook)"``:
    a plugin's penalty, payout, lead, follow rule, cinch, trick winner, ante, next dealer
    or settlement), or ``()`` (every rule built in, or a house the kernel does not play; a
    plugin's hand size is a value, no call, never named)."""
    if _kernel is None:
        return ()
    facts = _house_facts(house)
    return () if isinstance(facts, str) else tuple(facts["through"])


def _checked_plan(house: House, bots: BotsArg) -> _Plan:
    if _kernel is None:
        raise KernelError(_WHY_NOT)
    p = _plan(house, bots)
    if isinstance(p, str):
        raise KernelError(p)
    return p


# -- playing -----------------------------------------------------------------------------


def _fast_fractions() -> bool:
    """Whether the kernel may make a Fraction p/q of two coprime ints (q > 1) without
    Fraction's normalising constructor (a quarter of its cost: the settlement's terms
    are already in lowest terms): this Python's Fraction keeps its terms in the slots
    ``_numerator`` and ``_denominator``, checked here on one made so; else the kernel
    calls ``Fraction(p, q)``."""
    try:
        f: Any = object.__new__(Fraction)
        f._numerator = -7
        f._denominator = 3
        same = Fraction(-7, 3)
        return bool(
            f == same
            and hash(f) == hash(same)
            and str(f) == "-7/3"
            and f + Fraction(1, 3) == -2
            and (f.numerator, f.denominator) == (-7, 3)
        )
    except Exception:  # another Fraction: the public constructor
        return False


_FAST = _fast_fractions()


def _python(house: House, seed: int | str, plan: _Plan) -> SessionResult:
    """The session on the Python rules (what the kernel reproduces)."""
    if plan.shared:
        return python_session(house, seed, keep_hands=False)
    names = plan.names
    options = _options(plan)

    def make(seat: int, rng: random.Random) -> Any:
        return make_bot(names[seat], rng, house=house, **options[seat])

    return python_session(house, seed, make, keep_hands=False)


def _options(plan: _Plan) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for kind, threshold, per, keep in plan.bots:
        out.append(
            {"play_threshold": threshold, "per_opponent": per, "keep_trump": keep} if kind else {}
        )
    return out


def _stream_words(plan: _Plan, seed: int | str) -> list[list[int]]:
    """Each seat's random-bot stream as ``make_bot`` makes it from the session's
    ``random.Random``: a random bot draws 128 bits of it, in seat order (the heuristic
    bot keeps it and draws nothing)."""
    rng = random.Random(f"bourre-bots:{seed}")
    out: list[list[int]] = []
    for kind, *_ in plan.bots:
        out.append(list(from_bits(rng.getrandbits(128)).state()) if kind == 0 else [0, 0, 0, 1])
    return out


def play_sessions(
    house: House, seeds: Sequence[int | str], bots: BotsArg = "random"
) -> list[SessionResult]:
    """The sessions of ``seeds`` (each as :func:`play_session`), played in one call.
    A session whose money would leave the kernel's 128-bit range is played on the
    Python rules instead (the same result)."""
    plan = _checked_plan(house, bots)
    assert _kernel is not None
    seeds = list(seeds)
    texts = [str(s) for s in seeds]
    if plan.shared or not plan.random:  # (no stream drawn from a random.Random)
        got: list[Any] = _kernel.play_shared(plan.house, plan.bots, texts, Fraction, _FAST)
    else:
        got = [
            _kernel.play_streams(
                plan.house, plan.bots, t, _stream_words(plan, s), Fraction, _FAST, False
            )
            for s, t in zip(seeds, texts, strict=True)
        ]
    out: list[SessionResult] = []
    for seed, played in zip(seeds, got, strict=True):
        if type(played) is tuple:  # (final balances, places): R-SETTLE
            final, ranks = played
            out.append(SessionResult(seed, [], final, ranks, engine="kernel"))
        else:  # (OVERFLOW, NO_DISCARDS): the Python rules play it, or refuse it
            out.append(_python(house, seed, plan))
    return out


def play_session(
    house: House, seed: int | str = 0, bots: BotsArg = "random", *, keep_hands: bool = False
) -> SessionResult:
    """The session that :func:`bourre.game.simulate.play_session` plays for ``house``,
    ``seed`` and ``bots`` (see the module), played by the kernel: the same ``final``
    balances (exact) and ``ranks``.  ``keep_hands=True`` is refused: the kernel keeps
    no hand's result (play it on the Python rules)."""
    if keep_hands:
        raise KernelError("the kernel keeps no hand's result: keep_hands needs the Python rules")
    return play_sessions(house, [seed], bots)[0]


def simulate_session(
    house: House, seed: int | str, random_players: bool, keeps_hands: bool, engine: str
) -> SessionResult | None:
    """:func:`bourre.game.simulate.play_session`'s session played by the kernel, or ``None``
    for the Python rules (``engine="auto"``): the kernel plays the random bot it seats
    by default (a factory of players is opaque to it) when no hand's result is kept.
    ``engine="kernel"`` raises :class:`KernelError` naming what it cannot play."""
    if engine not in ("auto", "kernel"):
        raise ValueError(f"engine {engine!r}: one of auto, kernel, python")
    why = (
        "players given as a factory or a list: the kernel plays its built-in bots by name"
        " (bourre.kernel.play_session)"
        if not random_players
        else "keep_hands, record or on_hand: the kernel keeps no hand's result"
        if keeps_hands
        else can_play(house, "random", hooks=True)
    )
    if why is not None:
        if engine == "kernel":
            raise KernelError(why)
        return None
    return play_sessions(house, [seed], "random")[0]


Floats = list[float] | None


def tally_session(
    house: House, bots: Sequence[Any], seed: str, tally: Any, engine: str = "auto"
) -> tuple[SessionResult, Floats, Floats] | None:
    """``bourre compare``'s session (:func:`bourre.sim.runs.sessions.run_session`) played
    by the kernel: ``bots`` one a seat (made seat by seat from the session's
    ``random.Random``, as compare makes them), each hand told to ``tally`` (a
    :class:`~bourre.sim.runs.tally.SessionTally`) as its ``on_hand`` would be; with the
    session, its ``tally.places()`` and the floats of its final balances when the
    kernel made them exactly as Python does (whole chips below 2**52), else ``None``
    for each.  ``None`` when the kernel cannot play it (``engine="auto"``: the Python
    rules play it).
    ``engine="kernel"`` raises :class:`KernelError` naming what it cannot play."""
    if engine not in ("auto", "kernel"):
        raise ValueError(f"engine {engine!r}: one of auto, kernel, python")
    plan = _plan(house, bots) if _kernel is not None else _WHY_NOT
    if isinstance(plan, str):
        if engine == "kernel":
            raise KernelError(plan)
        return None
    return tally_planned(plan, seed, tally)


def tally_planned(
    plan: _Plan, seed: str, tally: Any
) -> tuple[SessionResult, Floats, Floats] | None:
    """:func:`tally_session` with the house and bots already planned (``_plan``)."""
    assert _kernel is not None
    words = _stream_words(plan, seed) if plan.random else []
    if plan.prepared is None:  # read by the kernel once a plan, not once a session
        plan.prepared = _kernel.prepare(plan.house, plan.bots, not plan.random)
    got = _kernel.play_prepared(plan.prepared, str(seed), words, Fraction, _FAST, True)
    if type(got) is not tuple:  # (out of the kernel's range): the Python rules play it
        return None
    return tallied(got, plan.scale, seed, tally)


def tallied(
    got: tuple[Any, Any], scale: int, seed: str, tally: Any
) -> tuple[SessionResult, Floats, Floats]:
    """A session the kernel played with its tally (``play_prepared``'s or ``settled``'s
    answer, amounts in 1/``scale`` chips) told to ``tally`` as its ``on_hand`` would be
    told each hand: the session, and its places and final floats when the kernel made
    them (see :func:`tally_session`)."""
    (final, ranks), hands = got
    if type(hands) is tuple:  # the tally's floats, made by the kernel as Python makes them
        pots, active, bourre, carried, dealers, deltas, plays, cinch, last, place, floats = hands
        if tally.pots:  # (a tally that has seen hands already: extended)
            tally.pots += pots
            tally.active += active
            tally.bourre += bourre
            tally.carried += carried
            tally.dealers += dealers
            tally.deltas += deltas
        else:  # a new tally (compare's): the kernel's lists are its own
            tally.pots = pots
            tally.active = active
            tally.bourre = bourre
            tally.carried = carried
            tally.dealers = dealers
            tally.deltas = deltas
        tally.plays += plays
        tally.cinch += cinch
        tally.prev = last
        return SessionResult(seed, [], final, ranks, engine="kernel"), place, floats
    d = scale  # float(Fraction(x, d)) is x / d, correctly rounded, as here
    prev: list[float] = tally.prev
    for h in hands:
        tally.plays += h[5]
        tally.cinch += h[6]
        tally.pots.append(h[0] / d)
        tally.active.append(h[1])
        tally.bourre.append(h[2])
        tally.carried.append(h[3])
        tally.dealers.append(h[4])
        now = [b / d for b in h[7:]]
        tally.deltas.append([now[s] - prev[s] for s in range(len(now))])
        prev = now
    tally.prev = prev
    return SessionResult(seed, [], final, ranks, engine="kernel"), None, None
