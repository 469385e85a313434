"""Sampled worlds: game states rebuilt from one seat's observation alone, with the
cards that seat cannot see resampled consistently with what it saw (OpenSpiel's
``resample_from_infostate``).  Search bots roll out clones of these worlds with the
house's own rule components, so a variant's decisions, draw or obligations hold in
every rollout exactly as at the table.

A world is a new hand (:meth:`bourre.game.Game.new_hand`) given by what a table knows
(:class:`~bourre.game.actions.Dealt`, :class:`~bourre.game.actions.Drew`), into which the
public history of the hand is replayed: the decisions and exchange counts announced
and every card played.  A sample that the house's rules refuse somewhere in that
history (an opponent who could not have played what it played) is drawn again, so
the voids revealed by play, under whatever obligations the house has, are honoured.
The true state, the deck and the stock are never read.
"""

from __future__ import annotations

import functools
import heapq
import random
from collections.abc import Callable, Sequence

from bourre.game.actions import CARDS, PASS, PLAY, Action, Dealt, Drew, discard
from bourre.game.observation import Observation
from bourre.game.state import CHANCE, State
from bourre.game.tablesteps import set_hand, waiting
from bourre.game.unseen import unplaced
from bourre.houses.house import House
from bourre.rules import RuleViolation
from bourre.rules.hookspec import ANTE

__all__ = ["Likely", "Replay", "Weight", "chance_outcome", "sample_deal", "sample_world"]

Weight = Callable[[int], float]
"""How much more likely than others a card is to be kept by a player (> 1) or left
in a folded hand (< 1): trumps and aces, typically."""


Likely = Callable[[Observation, Action], float]
"""How likely (0 … 1) a player who saw ``view`` was to answer ``action``: an opponent
model.  A sampled world is kept with the product of these chances over the others'
public answers (their decisions and exchanges), else drawn again (rejection
sampling: the worlds then follow what those answers say about the hands)."""


Replay = Callable[..., object]
"""How a sample becomes a world: ``replay(house, view, dealt, gave, got, rng, decide)``
gives the world, or ``None`` when the house's rules refuse the sample (the default
replays it into a Python :class:`~bourre.game.state.State`)."""


def _flat(card: int) -> float:
    return 1.0


def shuffle(cards: list[int], rng: random.Random) -> None:
    """``rng.shuffle(cards)``, step for step (the same draws, the same order)."""
    bits = rng.getrandbits
    for i in range(len(cards) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        j = bits(k)
        while j >= n:
            j = bits(k)
        cards[i], cards[j] = cards[j], cards[i]


def _powers(weight: Weight) -> list[float]:
    """The exponent ``1 / weight`` of each card's key (Efraimidis–Spirakis), once per
    sample: 1.0 for an unweighted card.  (The last few weights' are kept, by identity:
    a bot samples many worlds with the same weights.)"""
    for w, got in _POWERS:
        if w is weight:
            return got
    out = _powers_of(weight)
    _POWERS.insert(0, (weight, out))
    del _POWERS[4:]
    return out


_POWERS: list[tuple[Weight, list[float]]] = []


def _powers_of(weight: Weight) -> list[float]:
    out = []
    for c in range(52):
        w = weight(c)
        out.append(1.0 if w == 1.0 else 1.0 / max(w, 1e-9))
    return out


_FLAT = [1.0] * 52


def _pick(cards: list[int], k: int, powers: list[float], rng: random.Random) -> list[int]:
    """``k`` of ``cards`` (removed from it), weighted: one key ``u ** powers[card]``
    per card, in order (Efraimidis–Spirakis), the ``k`` largest keys taken largest
    first (the earlier card on a tie)."""
    if k <= 0:
        return []
    r = rng.random
    keys = [u if e == 1.0 else u**e for u, e in [(r(), powers[c]) for c in cards]]
    # the k largest, largest first, the earlier on a tie (nlargest is sorted()'s order)
    chosen = heapq.nlargest(k, range(len(cards)), key=keys.__getitem__)
    got = [cards[i] for i in chosen]
    taken = set(chosen)
    cards[:] = [c for i, c in enumerate(cards) if i not in taken]
    return got


def chance_outcome(state: State, rng: random.Random) -> object:
    """A chance outcome for a world's chance node: the replacements of an exchange,
    drawn from the cards whose place nobody knows (then from earlier discards, when
    the stock runs out, R-RESHUFFLE)."""
    hs = state.hand
    wait = waiting(state)
    k = len(wait.discards) if wait is not None else 0
    free = unplaced(hs) + list(hs.stock)
    shuffle(free, rng)
    take = free[: min(k, hs.unseen_stock + len(hs.stock))]
    if len(take) < k:
        pile = [c for c in hs.pile if c not in take]
        shuffle(pile, rng)
        take += pile[: k - len(take)]
    return Drew(tuple(take))


def sample_world(
    house: House,
    view: Observation,
    rng: random.Random,
    *,
    keep: Weight = _flat,
    fold: Weight = _flat,
    decide: Callable[[Observation], bool] | None = None,
    tries: int = 20,
) -> State | None:
    """A state of ``house`` at the point ``view`` describes, the unseen cards drawn at
    random: ``keep`` weighs the cards players kept at their exchange, ``fold`` those
    of folded hands; ``decide`` answers for opponents whose secret decision is not
    yet revealed (``simultaneous-reveal``).  ``None`` when no consistent sample was
    found in ``tries`` draws."""
    got = sample_deal(house, view, rng, keep=keep, fold=fold, decide=decide, tries=tries)
    assert got is None or isinstance(got, State)
    return got


def sample_deal(
    house: House,
    view: Observation,
    rng: random.Random,
    *,
    keep: Weight = _flat,
    fold: Weight = _flat,
    decide: Callable[[Observation], bool] | None = None,
    tries: int = 20,
    replay: Replay | None = None,
    likely: Likely | None = None,
) -> object | None:
    """:func:`sample_world` with the sample replayed by ``replay`` (:data:`Replay`; an
    accelerator gives its own world: :func:`bourre.kernel.rollouts.replay_world`).
    ``likely`` (:data:`Likely`, Python worlds only): keep a world with the chance the
    others answered as they did in it, else draw again."""
    kp, fp = _powers(keep), _powers(fold)
    if likely is not None:
        if replay is not None:
            raise ValueError("likely weighs the Python replay's worlds: give no replay")
        replay = functools.partial(_replay, likely=likely)

    for _ in range(tries):
        world = _attempt(house, view, rng, kp, fp, decide, replay or _replay)
        if world is not None:
            return world
    return None


def _attempt(
    house: House,
    view: Observation,
    rng: random.Random,
    keep: list[float],
    fold: list[float],
    decide: Callable[[Observation], bool] | None,
    replay: Replay,
) -> object | None:
    n, h, me, dealer, up = view.players, view.hand_size, view.seat, view.dealer, view.upcard
    played_by: dict[int, list[int]] = {s: [] for s in range(n)}
    plays: list[tuple[int, int]] = [p for t in view.tricks for p in t.plays] + list(view.trick)
    for s, c in plays:
        played_by[s].append(c)
    # my own hand as dealt: what I hold and played, less what I got, plus what I gave
    after = list(view.hand) + played_by[me]
    mine = [c for c in after if c not in view.got] + list(view.gave)
    seen = set(mine) | set(after) | {c for _, c in plays} | {up}
    unseen = [c for c in range(52) if c not in seen]
    shuffle(unseen, rng)
    decided = {d.seat: d for d in view.decisions}
    dealt: dict[int, list[int]] = {me: mine}
    gave: dict[int, list[int]] = {}
    got: dict[int, list[int]] = {}
    for s in range(n):
        if s == me:
            continue
        d = decided.get(s)
        # the dealer's upcard is in its hand, unless it threw every card (then the upcard too)
        thrown_up = (
            s == dealer and d is not None and d.play and d.exchanged >= h and up not in played_by[s]
        )
        own = played_by[s] + ([up] if s == dealer and up not in played_by[s] else [])
        if thrown_up:
            own.remove(up)
        if d is None or not d.play:  # undecided or folded: a hand as dealt
            need = h - len(own)
            dealt[s] = own + _pick(unseen, need, fold if d is not None else _FLAT, rng)
            continue
        k = d.exchanged
        rest = _pick(unseen, h - len(own), keep, rng)
        hand_after = own + rest
        # which of the cards after the draw were kept: the likelier keepers
        kept = [up] if s == dealer and up in hand_after else []
        others = [c for c in hand_after if c not in kept]
        kept += _pick(others, h - k - len(kept), keep, rng)
        got[s] = others
        gave[s] = [up] * thrown_up + _pick(unseen, k - thrown_up, fold, rng)
        dealt[s] = kept + gave[s]
    if any(len(cs) != h for cs in dealt.values()):
        return None  # not enough unseen cards for this table (huge tables)
    return replay(house, view, dealt, gave, got, rng, decide)


def _replay(
    house: House,
    view: Observation,
    dealt: dict[int, list[int]],
    gave: dict[int, list[int]],
    got: dict[int, list[int]],
    rng: random.Random,
    decide: Callable[[Observation], bool] | None,
    likely: Likely | None = None,
) -> State | None:
    """Replay the public history of the hand into a new state; ``None`` when the
    house's rules refuse the sample somewhere, or (with ``likely``) when a draw
    rejects it: kept with the chance that the others answered as they did."""
    me = view.seat
    extra = house.rules[ANTE].play_ante(house.table.ante)
    active = set(view.active)
    pot, balances = view.pot, list(view.balances)
    if view.phase == "play" and extra:  # the second antes are paid again on replay
        pot -= extra * len(active)
        for s in active:
            balances[s] += extra
    world = State(house, hands=1, balances=balances, settle=False)
    set_hand(world, dealer=view.dealer, pot=pot)
    order = {d.seat: i for i, d in enumerate(view.decisions)}
    plays = [c for t in view.tricks for _, c in t.plays] + [c for _, c in view.trick]
    chance = 1.0
    try:
        world.apply_chance(Dealt.of(view.upcard, dealt))
        done_plays = 0
        while not _arrived(world, view, done_plays):
            seat = world.current_player()
            phase = world.phase_name
            if seat == CHANCE:
                wait = waiting(world)
                assert wait is not None
                s = wait.seat
                cards = view.got if s == me else got[s]
                world.apply_chance(Drew(tuple(cards)))
            elif phase == "decide":
                if seat == me:
                    play = view.my_decision == 1
                elif seat in order:
                    play = view.decisions[order[seat]].play
                elif seat in active:
                    play = True
                elif decide is not None:
                    play = decide(world.observation(seat))
                else:
                    play = rng.random() < 0.5
                action = PLAY if play else PASS
                if likely is not None and seat != me and seat in order:
                    chance *= likely(world.observation(seat), action)
                world.apply_action(action)
            elif phase == "exchange":
                cards = view.gave if seat == me else tuple(gave[seat])
                action = discard(cards)
                if likely is not None and seat != me:
                    chance *= likely(world.observation(seat), action)
                world.apply_action(action)
            elif phase == "play":
                world.apply_action(CARDS[plays[done_plays]])
                done_plays += 1
            else:
                return None
    except RuleViolation:
        return None
    if likely is not None and chance < 1.0 and rng.random() >= chance:
        return None
    return world


def _arrived(world: State, view: Observation, done_plays: int) -> bool:
    """Whether the world has reached the point the view describes."""
    if world.current_player() != view.to_act or world.phase_name != view.phase:
        return False
    hs = world.hand
    return len(hs.decisions) == len(view.decisions) and done_plays == sum(
        [len(t.plays) for t in view.tricks]
    ) + len(view.trick)


def legal_or_nearest(wanted: Sequence[int], legal: Sequence[Action]) -> Action:
    """The discard of ``wanted`` if it is legal, else the largest legal discard
    within ``wanted`` (a house that caps the exchange, R-DRAW)."""
    want = set(wanted)
    best = None
    for a in legal:
        if (
            a.kind == "discard"
            and set(a.cards) <= want
            and (best is None or len(a.cards) > len(best.cards))
        ):
            best = a
    return best if best is not None else legal[0]
