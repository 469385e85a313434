"""A session stepped by the compiled kernel, with the state API of the Python rules:
:class:`KernelState` implements :class:`~bourre.game.protocol.GameState` as
:class:`~bourre.game.state.State` does (the same methods, the same action objects, the
same refusals), made by :meth:`bourre.game.Game.new_session` when the kernel can play
the house (``engine="auto"`` or ``"kernel"``).  It is not a ``State``: it holds one.

The common path runs in C++ (``bourre.kernel._kernel.Stepper``): who acts, the legal
actions, applying a legal action, a chance deck, cloning (a struct copy), what a seat
observes, the returns and the history.  Anything word-heavy or rare is answered by the
Python rules themselves, from a Python :class:`~bourre.game.state.State` the kernel
state holds, into which the history is replayed (correct by construction, kept in step
incrementally), each by an explicit call.  With ``keep_results=False`` the kernel keeps
the current hand's actions only (the memory of one hand, as the Python state's) and
that Python state resumes at the hand's start (:func:`bourre.game.resume.resume`: the
balances, the pot, the last dealer, the seats spared the ante, the seeded streams where
the kernel stands) instead of replaying the session; once the money has left the
kernel's range, from the last hand's start it still held.

- a refusal: an action the kernel does not take changes nothing, and is tried on a
  copy of the replayed state, whose :class:`~bourre.rules.RuleViolation` (the rule
  component's rule id and words) is raised;
- :meth:`KernelState.legal_with_reasons`, :attr:`KernelState.hand` (a snapshot),
  ``results`` and ``final``, read from it;
- money beyond the kernel's 128-bit range: the balances, the pot, the returns and the
  observations are the replayed state's;
- a plugin's decisions or draw (R-DECIDE …, R-DRAW, R-RESHUFFLE: each hand's decisions
  and exchanges played in Python on a hand state, :mod:`bourre.kernel.decisions`): the
  observations during the decisions are made from that hand state (and what each seat
  gave, got and discarded, from it once the tricks start); an answer its rules refuse is
  refused, the state unchanged, in the Python rules' words; a clone copies the hand's run;
- a plugin's follow rule (R-FOLLOW …, asked through Python for every card), or decisions
  or draw, whose answer the kernel cannot hold (its cards not in the hand's order, which ``legal_actions``
  keeps; or its error): the kernel hands the session over to the replayed state, which
  plays on (:class:`_HandedState`: every method is the Python state's from then on, and
  it asks the plugin again where the Python rules ask it, its error raised there).

A real table's path (a hand's position, reneges, corrections, premature announcements,
a :class:`~bourre.game.actions.Dealt` or :class:`~bourre.game.actions.Drew` outcome)
is stepped on the Python rules by :class:`bourre.referee.table.TableState`, by design:
the kernel state refuses those outcomes.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Sequence
from dataclasses import replace
from fractions import Fraction
from typing import TYPE_CHECKING, Any, NamedTuple

from bourre.game.actions import CARDS, PASS, PLAY, Action, Deck, canonical
from bourre.game.facts import SessionFacts
from bourre.game.log import HandResult
from bourre.game.observation import Discards, Observation
from bourre.game.protocol import GameState
from bourre.game.resume import HandStart, resume
from bourre.game.state import Legal, State, checked_balances, is_amount, whole_deck
from bourre.houses.house import House
from bourre.kernel import _house_facts, _kernel, can_play
from bourre.kernel.hooks import STATE_HOOKS
from bourre.rules import HandOutcome, RuleViolation
from bourre.rules.hand import HandState, PublicDecision, TrickLog
from bourre.rules.hookspec import DECISIONS
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
) -> KernelState | str:
    """:meth:`bourre.game.Game.new_session`'s (or ``new_hand``'s) state on the kernel, or
    why the kernel cannot play it (the engine entry point ``kernel`` of
    ``bourre.engines``)."""
    why = can_play(house, hooks=STATE_HOOKS)  # (a plugin's rule called through Python)
    if why is not None:
        return why
    if record:
        return "record=True keeps every card's legal set and reasons: the Python rules do"
    if previous is not None:
        return "a previous hand's outcome (who antes, R-ANTE): the Python rules read it"
    if not is_amount(pot) or pot < 0 or (hands is not None and not _count(hands)):
        return "the Python rules give the words for this pot or number of hands"
    facts = _house_facts(house)
    assert isinstance(facts, dict)
    n, scale = facts["players"], facts["scale"]
    start = checked_balances(balances, house.table.balance, n)  # (the Python words)
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


class KernelState(SessionFacts):
    """A session of a house made of built-in components (and a plugin's rules the
    kernel asks through Python: :func:`bourre.kernel.python_hooks`), stepped by the kernel:
    the :class:`~bourre.game.protocol.GameState` protocol, as
    :class:`~bourre.game.state.State` implements it (see the module).  Not a ``State``:
    it holds one (the history replayed) for what the Python rules answer."""

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
    ) -> None:
        assert _kernel is not None
        self._house = house
        self._n: int = facts["players"]
        self._h: int = facts["hand_size"]
        self._announce = not facts["simultaneous"]
        # a plugin's decisions or draw, played in Python on the hand's run (Stepper.run)
        self._hooked = facts["decisions_hook"] is not None
        if self._hooked:  # (its decisions announced as made, or revealed: R-DECIDE)
            self._announce = bool(house.rules[DECISIONS].announcements)
        self._keep_results = keep_results
        self._settles = given.settle
        self._given = given
        self._start = tuple(start)
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
        self._shadow_at = 0  # (the kept history's start it stands on: hands dealt before)
        self._shadow_done = 0  # (the entries of the kernel's kept history it has replayed)
        self._calls: Any = None
        self._bind()
        if self._k.status():  # (the first hand's decisions not the kernel's to hold)
            self._hand_over()

    def _bind(self) -> None:
        """The kernel's own calls where the answer needs no translation (is_terminal,
        current_player, legal_actions, apply_action, only_action): builtin methods of
        this class (``_kernel.bind_state_methods``, below) reading the Stepper's
        ``StepCalls`` from ``_calls``: no pybind11 dispatch, no Python frame."""
        k = self._k
        k.owner = weakref.ref(self)  # (what the kernel does not take: _apply_slow; weak:
        # a dropped state goes at once, with no cycle for the collector to find)
        self._calls = k.calls()

    # -- public facts (read-only) -----------------------------------------------------

    @property
    def hands_total(self) -> int:
        """The session's hands."""
        return self._given.hands

    @property
    def stepper(self) -> Any:
        """The kernel's ``Stepper`` (for the kernel's own solver, :mod:`bourre.advice`)."""
        return self._k

    @property
    def results(self) -> list[HandResult]:
        """The finished hands' results, from the Python rules (:meth:`_python`)."""
        return self._python().results

    @property
    def final(self) -> tuple[list[Amount], list[int]] | None:
        """The settlement, from the Python rules."""
        return self._python().final

    # -- the Python rules, replayed -------------------------------------------------------

    def _python(self) -> State:
        """The Python state at the same point, in step from one call to the next: what
        answers in the Python rules' words.  It starts where the kernel's kept history
        starts (``Stepper.hand_start``: the session's start, or with
        ``keep_results=False`` the current hand's, :func:`bourre.game.resume.resume`)
        and that history is replayed into it."""
        at = self._k.hand_start()
        sh = self._shadow
        if sh is None or self._shadow_at != at[0]:
            sh = self._twin(at)
            self._shadow, self._shadow_at, self._shadow_done = sh, at[0], 0
        raw, self._shadow_done = self._k.history_since(self._shadow_done)  # (what is new)
        seeded = self._seed is not None
        for x in raw:
            if type(x) is tuple:
                if x[0] == "deck":
                    if not seeded:  # (a seeded state deals its own decks: the same ones)
                        sh.apply_chance(Deck(x[1]))
                else:
                    sh.apply_action(Action("discard", x[1]))
            else:
                sh.apply_action(x)
        return sh

    def _hand_over(self) -> None:
        """The kernel stopped (``Stepper.status``: a plugin's follow rule answered what
        it cannot hold, or raised): from here the Python twin, in step with the kernel's
        history, is the state (its class becomes :class:`_HandedState`).  Called by the
        kernel's ``apply_action`` and by the calls below that step it."""
        sh = self._python()
        self.__class__ = _HandedState
        self._shadow = sh

    def _twin(self, at: tuple[Any, ...]) -> State:
        """A Python state where the kernel's kept history starts (``at``:
        ``Stepper.hand_start``): the session's start as the Python rules make it, or a
        later hand's start resumed (the balances, the pot, the last dealer, the seats
        spared the ante: R-ANTE; the seeded streams where the kernel left them)."""
        given = self._given
        number, last, _, bal, pot, exempt, deck, again, winner, bourre, hand, marks = at
        if number == 0:
            return State(
                self._house,
                seed=self._seed,
                hands=given.hands,
                balances=self._start,
                pot=given.pot,
                dealer=self._first,
                settle=given.settle,
                keep_results=self._keep_results,
            )
        money, n = self._amount, self._n
        hook = _house_facts(self._house)
        assert isinstance(hook, dict)
        previous: HandOutcome
        if hand is not None and hook["ante_hook"] is not None:
            # a plugin's ante reads the whole of the last hand's outcome: the payout's own
            pot_at_stake, active, won = hand
            previous = hook["outcome"](pot_at_stake, active, won, False)
        else:
            # (the last hand's outcome as the built-in antes read it: its seats spared,
            # R-ANTE; the Python state never reads the rest of a resumed hand's previous
            # outcome)
            previous = HandOutcome(
                winner if winner >= 0 else None, [0] * n, [0] * n, money(pot),
                [s for s in range(n) if bourre >> s & 1], [], frozenset(exempt),
            )  # fmt: skip
        start = HandStart(
            number, tuple(money(b) for b in bal), money(pot), int(self._k.first_dealer()),
            last, previous, deck, again,
            tuple(bool(marks >> s & 1) for s in range(n)) if marks else None,
        )  # fmt: skip
        return resume(
            self._house,
            start,
            seed=self._seed,
            start=self._start,
            hands=given.hands,
            settle=given.settle,
            keep_results=self._keep_results,
        )

    def _items(self, whole: bool) -> list[object]:
        out: list[object] = []
        for x in self._k.history(whole):
            if type(x) is tuple:
                out.append(Deck(x[1]) if x[0] == "deck" else Action("discard", x[1]))
            else:
                out.append(x)
        return out

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
    def number(self) -> int:
        """Hands dealt so far."""
        return int(self._k.number())

    @property
    def balances(self) -> tuple[Amount, ...]:
        """Each seat's balance now (beyond the kernel's range: the Python rules')."""
        if self._k.overflow():
            return self._python().balances
        return tuple(self._amount(x) for x in self._k.balances())

    @property
    def pot(self) -> Amount:
        if self._k.overflow():
            return self._python().pot
        return self._amount(int(self._k.pot()))

    def cards_of(self, seat: int) -> tuple[int, ...]:
        k = self._k
        if self._hooked and _DECIDE <= k.phase() <= _EXCHANGE:  # (folded hands: its run's)
            run = k.run()
            if run is not None and 0 <= seat < self._n:
                return run.hand.hand_of(seat)  # type: ignore[no-any-return]
        return k.hand(seat) if k.phase() != _DEAL else ()  # (between hands: none, R-DEAL)

    def exchange_limit(self) -> int:
        return int(self._k.exchange_limit())  # (R-DRAW: the hand's size, or a plugin's limit)

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
        if isinstance(action, Action):  # (a list of cards names the same cards)
            action = canonical(action) or action
        if isinstance(action, Action) and type(action.kind) is str and type(action.cards) is tuple:
            k = self._k  # (its calls take anything: not ints 0..51, False; the rules' words)
            kind, cards = action.kind, action.cards
            try:
                if kind == "card":
                    taken = len(cards) == 1 and k.play(cards[0])
                elif kind == "discard":
                    taken = k.exchange(cards)
                else:
                    taken = not cards and kind in ("pass", "play") and k.decide(kind == "play")
            except Exception:
                if not k.status():  # (a plugin's money rule or trick winner: raised as is)
                    raise
                taken = True  # (its follow rule's error: the Python twin asks it again)
            if taken:
                if k.status():
                    self._hand_over()
                return
        self._refuse(lambda s: s.apply_action(action))
        raise RuntimeError(f"the kernel refused {action!r}, which the Python rules take")

    def apply_chance(self, outcome: object) -> None:
        """As :meth:`State.apply_chance <bourre.game.state.State.apply_chance>` for a
        :class:`~bourre.game.actions.Deck`.  A table's outcome (``Dealt``, ``Drew``,
        ``AfterDraw``) is stepped on the Python rules
        (:class:`bourre.referee.table.TableState`): refused here, with the Python
        rules' own refusal when they would refuse it too."""
        if isinstance(outcome, Deck) and self._k.phase() == _DEAL:
            if not whole_deck(outcome.cards):
                raise RuleViolation("R-DECK", "a deck holds the 52 cards once each")
            try:
                taken = self._k.apply_deck(list(outcome.cards))
            except Exception:
                if not self._k.status():
                    raise
                taken = True  # (a plugin's decisions' error: the Python twin raises it)
            if taken:
                if self._k.status():
                    self._hand_over()
                return
        self._refuse(lambda s: s.apply_chance(outcome))
        raise RuleViolation(
            "R-DEAL",
            f"{type(outcome).__name__}: a table's outcome is stepped on the Python rules"
            " (engine='python', or bourre.referee.table.TableState)",
        )

    def _refuse(self, step: Callable[[State], None]) -> None:
        """What the kernel did not take, tried on a copy of the Python state: its
        refusal (the rule component's rule id and words) raised, this state unchanged."""
        step(self._python().clone())

    def why_not(self, action: Action) -> RuleViolation | None:
        """``None`` if ``action`` is legal now, else the refusal ``apply_action``
        would raise; nothing changes."""
        try:
            self.clone().apply_action(action)
        except RuleViolation as e:
            return e
        return None

    def chance_outcomes(self) -> list[tuple[object, float]]:
        """As :meth:`State.chance_outcomes <bourre.game.state.State.chance_outcomes>`:
        the kernel's only chance node is a deal (52! decks, given): none listed."""
        return []

    # -- results ----------------------------------------------------------------------

    def returns(self) -> list[Amount]:
        if self._k.overflow():
            return self._python().returns()
        settled = self._k.settled()
        if settled is not None:  # a plugin's settlement (R-SETTLE), as the Python state's
            return [b - s for b, s in zip(settled[0], self._start, strict=True)]
        nums, den = self._k.returns()  # (after the settlement, in 1/(n D) chips)
        amount = self._amount if den == 1 else _money(den * self._scale)
        return [amount(x) for x in nums]

    def holdings(self) -> tuple[object, ...]:
        """Nothing a bot could change: the kernel's state is out of its reach (C++)."""
        return ()

    def history(self) -> list[object]:
        return self._items(self._keep_results)

    def observation(self, seat: int) -> Observation:
        """What ``seat`` may know now (:func:`bourre.game.state.observe`), made from the
        kernel's state."""
        if not isinstance(seat, int) or not 0 <= seat < self._n:
            raise ValueError(f"no seat {seat!r} at a table of {self._n} (R-SEAT)")
        k = self._k
        if k.overflow():
            return self._python().observation(seat)
        phase = k.phase()
        if self._hooked and phase != _DEAL:
            run = k.run()
            if run is not None:
                return self._run_view(seat, run, phase)
        return self._kernel_view(seat, phase)

    def _kernel_view(self, seat: int, phase: int) -> Observation:
        """:meth:`observation` made from the kernel's state alone."""
        k, money = self._k, self._amount
        to_act = k.current_player()
        name = _PHASE_NAMES[phase]
        if phase == _DEAL:  # before a deal
            n = self._n
            return Observation(
                seat, n, self._h, k.number() + 1, -1, -1, -1, (), (), (), (), (), (),
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
                limit = self._h
                legal_actions = Discards(hand, limit)
            else:
                forced_rule = _FORCED[forced]
                legal_actions = _DECIDE_ONLY if forced_rule is not None else _DECIDE_BOTH
        secret = not self._announce and phase == _DECIDE
        return Observation(
            seat,
            self._n,
            self._h,
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

    def _run_view(self, seat: int, run: Any, phase: int) -> Observation:
        """What ``seat`` observes of a hand whose decisions or draw is a plugin's
        (:func:`bourre.game.state.observe`): during the decisions, all from the hand's
        run (its hand state, the turn's ``forced`` rule and the draw's limit); from the
        tricks on, the kernel's play with what the decisions left in the run (each
        seat's own discards in order, what it gave and got, the stock)."""
        k, money, hs = self._k, self._amount, run.hand
        to_act = k.current_player()
        name = _PHASE_NAMES[phase]
        if phase in (_PLAY, _OVER):
            return replace(
                self._kernel_view(seat, phase),
                own_discards=tuple(hs.discards[seat]),
                stock_size=len(hs.stock) + hs.unseen_stock,
                my_decision=hs.chosen[seat],
                gave=hs.gave[seat],
                got=hs.got[seat],
            )
        legal_actions: Sequence[Action] = ()
        forced = None
        limit = 0
        if to_act == seat:
            if phase == _EXCHANGE:
                limit = run.limit
                legal_actions = Discards(hs.hand_of(seat), limit)
            else:
                forced = run.forced
                legal_actions = _DECIDE_ONLY if forced is not None else _DECIDE_BOTH
        secret = not self._announce and phase == _DECIDE
        return Observation(
            seat, self._n, self._h, hs.number, hs.dealer, hs.upcard, hs.trump,
            hs.hand_of(seat), tuple(hs.discards[seat]), tuple(hs.decisions),
            () if secret else tuple(hs.active), (), (), tuple(hs.won), money(k.pot()),
            tuple(money(b) for b in k.balances()), len(hs.stock) + hs.unseen_stock,
            max(to_act, -1), name, legal_actions, (), False, forced, hs.chosen[seat],
            hs.gave[seat], hs.got[seat], limit, 0,
        )  # fmt: skip

    def python_copy(self) -> State:
        """An independent Python state at the same point (the history replayed)."""
        return self._python().clone()

    def __str__(self) -> str:
        return f"KernelState({self._house.spec}: {self._python()})"

    def clone(self) -> KernelState:
        """An independent copy (the kernel's state copied as a struct)."""
        c = KernelState.__new__(KernelState)
        d = c.__dict__
        d.update(self.__dict__)
        d["_k"] = self._k.clone()
        d["_shadow"] = None
        d["_shadow_at"] = d["_shadow_done"] = 0
        c._bind()
        return c

    def __copy__(self) -> KernelState:
        """``copy.copy``: an independent copy (:meth:`clone`), never the same kernel state."""
        return self.clone()

    def __deepcopy__(self, memo: dict[int, object]) -> KernelState:
        return self.clone()


class _HandedState(KernelState):
    """A :class:`KernelState` whose kernel handed the session to the Python rules
    (:meth:`KernelState._hand_over`: a plugin's answer it cannot hold): every method is
    its Python twin's (``_shadow``, stepped directly from then on; the kernel is never
    stepped again), so the state is the Python state's to the end, its refusals, words
    and the plugin's errors included."""

    def _python(self) -> State:
        assert self._shadow is not None
        return self._shadow

    @property
    def stepper(self) -> Any:
        raise RuntimeError("this state plays on the Python rules: it has no kernel Stepper")

    def current_player(self) -> int:
        return self._python().current_player()

    def is_terminal(self) -> bool:
        return self._python().is_terminal()

    def is_chance_node(self) -> bool:
        return self._python().is_chance_node()

    @property
    def chance_wants(self) -> str:
        return self._python().chance_wants

    @property
    def phase_name(self) -> str:
        return self._python().phase_name

    @property
    def number(self) -> int:
        return self._python().number

    @property
    def balances(self) -> tuple[Amount, ...]:
        return self._python().balances

    @property
    def pot(self) -> Amount:
        return self._python().pot

    def cards_of(self, seat: int) -> tuple[int, ...]:
        return self._python().cards_of(seat)

    def exchange_limit(self) -> int:
        return self._python().exchange_limit()

    def legal_cards(self) -> list[int]:
        return self._python().legal_cards()

    def legal_actions(self) -> Sequence[Action]:
        return self._python().legal_actions()

    def only_action(self) -> Action | None:
        return self._python().only_action()

    def apply_action(self, action: Action) -> None:
        self._python().apply_action(action)

    def apply_chance(self, outcome: object) -> None:
        self._python().apply_chance(outcome)

    def why_not(self, action: Action) -> RuleViolation | None:
        return self._python().why_not(action)

    def chance_outcomes(self) -> list[tuple[object, float]]:
        return self._python().chance_outcomes()

    def returns(self) -> list[Amount]:
        return self._python().returns()

    def history(self) -> list[object]:
        return self._python().history()

    def observation(self, seat: int) -> Observation:
        return self._python().observation(seat)

    def clone(self) -> _HandedState:
        """An independent copy: the Python twin's (the kernel, never stepped again, shared)."""
        c = _HandedState.__new__(_HandedState)
        c.__dict__.update(self.__dict__)
        c._shadow = self._python().clone()
        return c


if _kernel is not None:
    _kernel.bind_state_methods(KernelState)

if TYPE_CHECKING:  # (mypy checks that both engines implement the protocol)

    def _protocol(k: KernelState, p: State) -> tuple[GameState, GameState]:
        return k, p
