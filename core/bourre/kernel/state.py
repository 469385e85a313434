"""A session stepped by the compiled kernel, with the state API of the Python rules:
:class:`KernelState` is a :class:`~bourre.game.state.State` (the same methods, the same
action objects, the same refusals), made by :meth:`bourre.game.Game.new_session` when
the kernel can play the house (``engine="auto"`` or ``"kernel"``).

The common path runs in C++ (``bourre.kernel._kernel.Stepper``): who acts, the legal
actions, applying a legal action, a chance deck, cloning (a struct copy), what a seat
observes, the returns and the history.  Anything word-heavy or rare is answered by the
Python rules themselves, from a Python :class:`~bourre.game.state.State` into which the
history is replayed (correct by construction, kept in step incrementally):

- a refusal: an action the kernel does not take changes nothing, and is tried on the
  replayed state, whose :class:`~bourre.rules.RuleViolation` (the rule component's rule
  id and words) is raised;
- :meth:`KernelState.legal_with_reasons`, :attr:`KernelState.hand` (a snapshot) and any
  other attribute of the Python state (``results``, ``turn`` …), read from it;
- a real table's path (``set_hand``, ``mark_premature``, ``referee_play``, a
  :class:`~bourre.game.actions.Dealt` or :class:`~bourre.game.actions.Drew` outcome) and
  money beyond the kernel's 128-bit range: the state hands over to the Python rules for
  good (it becomes that Python state).
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any, NamedTuple

from bourre.game.actions import CARDS, PASS, PLAY, Action, Deck
from bourre.game.observation import Discards, Observation
from bourre.game.state import Legal, State, _amount, _checked_balances, _whole_deck
from bourre.houses.house import House
from bourre.kernel import _house_facts, _kernel, can_play
from bourre.rules import HandOutcome, RuleViolation
from bourre.rules.hand import HandState, PublicDecision, TrickLog
from bourre.rules.money import Amount

__all__ = ["KernelState", "new_session"]

if _kernel is not None:
    _kernel.set_actions(CARDS, PASS, PLAY, Discards)
    # The exchange's legal discards made in C (the same actions, in the same order, equal
    # and hashed alike): a Discards to isinstance (R-DRAW).
    Discards.register(_kernel.KernelDiscards)

_DEAL, _DECIDE, _EXCHANGE, _PLAY, _OVER = range(5)
_PHASE_NAMES = ("chance", "decide", "exchange", "play", "over")
_FORCED = (None, "R-ACE-UP", "R-LAST-STANDS")
_DECIDE_ONLY = (PLAY,)
_DECIDE_BOTH = (PASS, PLAY)


def _money(scale: int) -> Callable[[int], Amount]:
    """Amounts counted in 1/``scale`` chips, as the Python rules hold them."""
    if scale == 1:
        return int
    return lambda x: x // scale if x % scale == 0 else Fraction(x, scale)


def new_session(
    house: House,
    *,
    seed: int | str | None = None,
    balances: Sequence[Amount] | None = None,
    first_dealer: int | None = None,
    record: bool = False,
    keep_results: bool = True,
    hands: int | None = None,
    pot: Amount = 0,
    settle: bool = True,
    previous: HandOutcome | None = None,
) -> State | str:
    """:meth:`bourre.game.Game.new_session`'s (or ``new_hand``'s) state on the kernel, or
    why the kernel cannot play it (the engine entry point ``kernel`` of
    ``bourre.engines``)."""
    why = can_play(house)
    if why is not None:
        return why
    if record:
        return "record=True keeps every card's legal set and reasons: the Python rules do"
    if previous is not None:
        return "a previous hand's outcome (who antes, R-ANTE): the Python rules read it"
    if not _amount(pot) or pot < 0 or (hands is not None and not _count(hands)):
        return "the Python rules give the words for this pot or number of hands"
    facts = _house_facts(house)
    assert isinstance(facts, dict)
    n, scale = facts["players"], facts["scale"]
    start = _checked_balances(balances, house.table.balance, n)  # (the Python words)
    if first_dealer is not None and (
        not isinstance(first_dealer, int) or not 0 <= first_dealer < n
    ):
        raise ValueError(f"dealer: no seat {first_dealer!r} at a table of {n} (R-SEAT)")
    dealer = facts["first_dealer"] if first_dealer is None else first_dealer
    if dealer < 0 and seed is None:
        return "a random first dealer with no seed: the Python rules say who deals"
    units = [facts["balance"]] * n  # the table's balance, in the kernel's units
    if balances is not None:
        for s, b in enumerate(start):
            x = _units(b, scale)
            if x is None:
                return f"balance {b!r} is not a whole number of 1/{scale} chips the kernel holds"
            units[s] = x
    in_pot = _units(pot, scale)
    if in_pot is None:
        return f"pot {pot!r} is not a whole number of 1/{scale} chips the kernel holds"
    given = _Given(facts["hands"] if hands is None else hands, pot, in_pot, settle)
    return KernelState(house, facts, seed, start, units, first_dealer, dealer, keep_results, given)


_STEPPER_HOUSES: list[tuple[dict[str, Any], Any]] = []


def _stepper_house(facts: dict[str, Any]) -> Any:
    """The house as the Stepper reads it (``_kernel.HouseFacts``), made once for each of
    the last few houses' facts (which are shared and never changed)."""
    for f, got in _STEPPER_HOUSES:
        if f is facts:
            return got
    got = _kernel.HouseFacts(facts)
    _STEPPER_HOUSES.append((facts, got))
    del _STEPPER_HOUSES[:-8]
    return got


class _Given(NamedTuple):
    """What a state starts from besides the balances: its hands, the pot already in the
    middle (exact, and in the kernel's units) and whether the session is settled."""

    hands: int
    pot: Amount
    pot_units: int
    settle: bool


def _units(x: Amount, scale: int) -> int | None:
    """``x`` in 1/``scale`` chips, if a whole number of them within the kernel's range."""
    u = x * scale
    if not isinstance(u, int):  # a Fraction
        if u.denominator != 1:
            return None
        u = u.numerator
    return u if abs(u) < 1 << 62 else None


def _count(x: object) -> bool:
    return isinstance(x, int) and not isinstance(x, bool) and x >= 1


class KernelState(State):
    """A session of a house made only of built-in components, stepped by the kernel:
    the API of :class:`~bourre.game.state.State` (see the module)."""

    def __init__(
        self,
        house: House,
        facts: dict[str, Any],
        seed: int | str | None,
        start: list[Amount],
        units: list[int],
        first_dealer: int | None,
        dealer: int,
        keep_results: bool,
        given: _Given,
    ) -> None:  # (State.__init__ is not run: the kernel holds the state)
        assert _kernel is not None
        self.house = house
        self.rules = house.rules
        self.table = house.table
        self.n = facts["players"]
        self.h = facts["hand_size"]
        self.hands_total = given.hands
        self.announce = not facts["simultaneous"]
        self.settles, self.record, self.keep_results = given.settle, False, keep_results
        self._given = given
        self.start = list(start)
        self._seed = seed
        self._first = first_dealer
        self._scale: int = facts["scale"]
        self._amount = _money(self._scale)
        text = None if seed is None else f"{seed}"
        self._k = _kernel.Stepper(
            _stepper_house(facts),
            text,
            units,
            dealer,
            given.hands,
            keep_results,
            given.pot_units,
            given.settle,
        )
        self._shadow: State | None = None
        self._shadow_done = 0
        self._calls: Any = None
        self._bind()

    def _bind(self) -> None:
        """The kernel's own calls where the answer needs no translation (is_terminal,
        current_player, legal_actions, apply_action, only_action): builtin methods of
        this class (``_kernel.bind_state_methods``, below) reading the Stepper's
        ``StepCalls`` from ``_calls``: no pybind11 dispatch, no Python frame."""
        k = self._k
        k.owner = weakref.ref(self)  # (what the kernel does not take: _apply_slow; weak:
        # a dropped state goes at once, with no cycle for the collector to find)
        self._calls = k.calls()

    # -- the Python rules, replayed -------------------------------------------------------

    def _python(self) -> State:
        """The Python state at the same point (the history replayed into it, in step
        from one call to the next)."""
        items = self._items(True)
        sh = self._shadow
        if sh is None:
            given = self._given
            sh = State(
                self.house,
                seed=self._seed,
                hands=given.hands,
                balances=self.start,
                pot=given.pot,
                dealer=self._first,
                settle=given.settle,
                keep_results=self.keep_results,
            )
            self._shadow, self._shadow_done = sh, 0
        seeded = self._seed is not None
        for item in items[self._shadow_done :]:
            if isinstance(item, Deck):
                if not seeded:  # (a seeded state deals its own decks: the same ones)
                    sh.apply_chance(item)
            else:
                assert isinstance(item, Action)
                sh.apply_action(item)
        self._shadow_done = len(items)
        return sh

    def _items(self, whole: bool) -> list[object]:
        out: list[object] = []
        for x in self._k.history(whole):
            if type(x) is tuple:
                out.append(Deck(x[1]) if x[0] == "deck" else Action("discard", x[1]))
            else:
                out.append(x)
        return out

    def _demote(self) -> State:
        """Hand over to the Python rules for good: this object becomes the Python state."""
        sh = self._python()
        self.__dict__.clear()
        self.__dict__.update(sh.__dict__)
        self.__class__ = State  # type: ignore[assignment]
        return self

    # -- who acts, and what they may do -----------------------------------------------

    # (current_player, is_terminal, legal_actions, only_action and apply_action are
    # replaced by the kernel's builtin methods: _kernel.bind_state_methods, at the end)

    def current_player(self) -> int:
        return int(self._k.current_player())

    def is_terminal(self) -> bool:
        return bool(self._k.is_terminal())

    def is_chance_node(self) -> bool:
        return bool(self._k.phase() == _DEAL)

    @property
    def chance_wants(self) -> str:
        return "deal" if self._k.phase() == _DEAL else ""

    @property
    def phase_name(self) -> str:
        return _PHASE_NAMES[self._k.phase()]

    @property
    def hand(self) -> HandState:
        """The current (or last) hand's full state, from the Python rules (a snapshot)."""
        return self._python().clone().hand

    @property
    def number(self) -> int:  # type: ignore[override]
        """Hands dealt so far."""
        return int(self._k.number())

    @property
    def balances(self) -> list[Amount]:  # type: ignore[override]
        """Each seat's balance now (a new list)."""
        if self._k.overflow():
            return self._demote().balances
        return [self._amount(x) for x in self._k.balances()]

    @property
    def pot(self) -> Amount:  # type: ignore[override]
        if self._k.overflow():
            return self._demote().pot
        return self._amount(self._k.pot())

    def cards_of(self, seat: int) -> tuple[int, ...]:
        return self._k.hand(seat) if self._k.number() else ()

    def exchange_limit(self) -> int:
        return self.h if self._k.phase() == _EXCHANGE else 0

    def legal_with_reasons(self) -> Legal:
        return self._python().legal_with_reasons()

    def legal_cards(self) -> list[int]:
        if self._k.phase() != _PLAY:
            raise RuleViolation("R-LEAD", "no card is to be played now")
        return [a.cards[0] for a in self._k.legal_actions()]

    def legal_actions(self) -> Sequence[Action]:
        return self._k.legal_actions()  # type: ignore[no-any-return]

    def only_action(self) -> Action | None:
        return self._k.only_action()  # type: ignore[no-any-return]

    # -- stepping ---------------------------------------------------------------------

    def apply_action(self, action: Action) -> None:
        """As :meth:`State.apply_action`: an illegal action raises the Python rules'
        :class:`~bourre.rules.RuleViolation`, the state unchanged.  The kernel applies
        the action objects it gives itself; the rest comes here (:meth:`_apply_slow`)."""
        self._k.apply_action(action)

    def _apply_slow(self, action: Action) -> None:
        if isinstance(action, Action) and type(action.kind) is str and type(action.cards) is tuple:
            k = self._k  # (its calls take anything: not ints 0..51, False; the rules' words)
            kind, cards = action.kind, action.cards
            if kind == "card":
                if len(cards) == 1 and k.play(cards[0]):
                    return
            elif kind == "discard":
                if k.exchange(cards):
                    return
            elif not cards and kind in ("pass", "play") and k.decide(kind == "play"):
                return
        self._refuse(lambda s: s.apply_action(action))

    def apply_chance(self, outcome: object) -> None:
        """As :meth:`State.apply_chance`; a table's outcome (``Dealt``, ``Drew``) hands
        the state over to the Python rules."""
        if isinstance(outcome, Deck) and self._k.phase() == _DEAL:
            if not _whole_deck(outcome.cards):
                raise RuleViolation("R-DECK", "a deck holds the 52 cards once each")
            if self._k.apply_deck(list(outcome.cards)):
                return
        self._refuse(lambda s: s.apply_chance(outcome))

    def _refuse(self, step: Callable[[State], None]) -> None:
        """What the kernel did not take: the Python rules' refusal, raised with the state
        unchanged; or, if they take it (a table's outcome), the Python rules play on."""
        trial = self._python().clone()
        step(trial)  # raises the rule component's RuleViolation
        step(self._demote())

    def set_hand(self, **given: Any) -> None:
        """A real table's path: the Python rules play on (:meth:`State.set_hand`)."""
        self._refuse(lambda s: s.set_hand(**given))

    def mark_premature(self, seat: int) -> None:
        self._refuse(lambda s: s.mark_premature(seat))

    def referee_play(self, card: int, corrected_to: int | None = None) -> None:
        self._refuse(lambda s: s.referee_play(card, corrected_to))

    # -- results ----------------------------------------------------------------------

    def returns(self) -> list[Amount]:
        if self._k.overflow():
            return self._demote().returns()
        nums, den = self._k.returns()  # (after the settlement, in 1/(n D) chips)
        amount = self._amount if den == 1 else _money(den * self._scale)
        return [amount(x) for x in nums]

    def holdings(self) -> tuple[object, ...]:
        """Nothing a bot could change: the kernel's state is out of its reach (C++)."""
        return ()

    def history(self) -> list[object]:
        return self._items(self.keep_results)

    def observation(self, seat: int) -> Observation:
        """What ``seat`` may know now (:func:`bourre.game.state.observe`), made from the
        kernel's state."""
        if not isinstance(seat, int) or not 0 <= seat < self.n:
            raise ValueError(f"no seat {seat!r} at a table of {self.n} (R-SEAT)")
        k = self._k
        if k.overflow():
            return self._demote().observation(seat)
        money = self._amount
        phase = k.phase()
        to_act = k.current_player()
        name = _PHASE_NAMES[phase]
        if phase == _DEAL:  # before a deal
            n = self.n
            return Observation(
                seat, n, self.h, k.number() + 1, -1, -1, -1, (), (), (), (), (), (),
                (0,) * n, money(k.pot()), tuple(money(b) for b in k.balances()), 0,
                max(to_act, -1), name, (), (), False, None, -1, (), (), 0, 0,
            )  # fmt: skip
        (number, dealer, up, hand, own, decisions, active, tricks, trick, won, pot, bals,
         stock, _, forced, chosen, gave, got, played, cinch) = k.observe(seat)  # fmt: skip
        legal_actions: Sequence[Action] = ()
        legal: tuple[int, ...] = ()
        has = False
        forced_rule = None
        limit = 0
        if to_act == seat:
            if phase == _PLAY:
                acts = k.legal_actions()
                legal_actions = tuple(acts)
                legal = tuple(a.cards[0] for a in acts)
                has = cinch
            elif phase == _EXCHANGE:
                limit = self.h
                legal_actions = Discards(hand, limit)
            else:
                forced_rule = _FORCED[forced]
                legal_actions = _DECIDE_ONLY if forced_rule is not None else _DECIDE_BOTH
        secret = not self.announce and phase == _DECIDE
        return Observation(
            seat,
            self.n,
            self.h,
            number,
            dealer,
            up,
            up // 13,
            hand,
            tuple(own),
            tuple(PublicDecision(s, p, x) for s, p, x in decisions),
            () if secret else tuple(active),
            tuple(TrickLog(lead, plays, w) for lead, plays, w in tricks),
            tuple(trick),
            tuple(won),
            money(pot),
            tuple(money(b) for b in bals),
            stock,
            max(to_act, -1),
            name,
            legal_actions,
            legal,
            has,
            forced_rule,
            chosen,
            tuple(gave),
            got,
            limit,
            played,
        )

    def python_copy(self) -> State:
        """An independent Python state at the same point (the history replayed)."""
        return self.clone()._demote()

    def clone(self) -> KernelState:
        """An independent copy (the kernel's state copied as a struct)."""
        c = KernelState.__new__(KernelState)
        d = c.__dict__
        d.update(self.__dict__)
        d["_k"] = self._k.clone()
        d["_shadow"] = None
        d["_shadow_done"] = 0
        c._bind()
        return c

    def __copy__(self) -> KernelState:
        """``copy.copy``: an independent copy (:meth:`clone`), never the same kernel state."""
        return self.clone()

    def __deepcopy__(self, memo: dict[int, object]) -> KernelState:
        return self.clone()


_FROM_PYTHON = (
    "after_draw", "ante", "ante_reasons", "antes", "chance", "checked", "cinch", "deal",
    "decisions", "draw", "final", "first_dealer", "follow", "forfeits", "given_dealer",
    "given_pot", "given_reshuffle", "hands_after", "history_", "hs", "last_dealer", "lead",
    "marks", "next_dealer", "payout", "penalty", "pending", "pending_seat", "phase",
    "plays", "premature", "previous", "reneges", "results", "settle", "steps", "total",
    "trick_winner", "turn",
)  # fmt: skip
"""The Python state's other attributes (``results``, ``turn`` …), read from the replayed
state (a snapshot: changing it changes nothing here).  Properties, not a ``__getattr__``:
a class with ``__getattr__`` makes every attribute look-up slower (~25 ns: the stepped
loop reads three a step).  ``tests/test_kernel_calls.py`` checks the list is whole."""


def _from_python(name: str) -> property:
    def read(self: KernelState) -> Any:
        return getattr(self._python(), name)

    return property(read, doc=f"The Python state's ``{name}`` (a snapshot).")


for _name in _FROM_PYTHON:
    setattr(KernelState, _name, _from_python(_name))

if _kernel is not None:
    _kernel.bind_state_methods(KernelState)
