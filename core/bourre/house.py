"""A house: house rules resolved, once, into the :class:`~bourre.rules.Rules` the
engine runs.

Building a house:

1. expands ``variants.use``: each variant's ``builds_on`` joins the house before it
   (so a bare ``pot-limit`` is ``standard+pot-limit``); unknown names are refused;
2. validates each variant's settings with its own model (errors name the key);
3. checks that no two variants answer one rule hook unless one builds on the other;
4. registers one instance per variant on a fresh plugin manager, bases first, so a
   variant's answer takes precedence over those of the variants it builds on;
5. calls every rule hook once, in lifecycle order, and keeps the answers.

Components answered by third-party plugins are wrapped in checks that name the plugin
and the hook when they raise, return the wrong thing, or break an invariant (a legal
set outside the hand, money not conserved); ``strict=True`` checks built-in ones too.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from types import TracebackType
from typing import Any

from pydantic import ValidationError

from bourre.hookspec import RULE_HOOKS
from bourre.money import Amount
from bourre.plugins import Registry, default_registry, make_manager
from bourre.rules import (
    RULE_FIELDS,
    HandOutcome,
    PenaltyFn,
    PlayResult,
    Rules,
)
from bourre.settings import (
    HouseError,
    HouseRules,
    TableSettings,
    format_house_string,
    load_house,
    parse_house_string,
    validation_message,
)
from bourre.variant import RuleText, Variant

__all__ = ["House", "PluginError"]


class PluginError(RuntimeError):
    """A plugin that raised, answered the wrong type or broke an invariant."""

    def __init__(self, plugin: str, hook: str, message: str) -> None:
        super().__init__(f"plugin {plugin!r}, hook {hook}: {message}")
        self.plugin = plugin
        self.hook = hook


def _answers(cls: type[Variant], hook: str) -> bool:
    fn = getattr(cls, hook, None)
    if fn is None:
        return False
    opts = getattr(fn, "bourre_impl", None)
    return opts is not None and not opts.get("wrapper") and not opts.get("hookwrapper")


class House:
    """House rules resolved into rules the engine runs.

    ``House("standard+pot-limit(limit=10)")``, ``House(Path("house.toml"))`` or
    ``House(HouseRules(...))``.
    """

    def __init__(
        self,
        spec: HouseRules | str | Path = "standard",
        *,
        registry: Registry | None = None,
        strict: bool = False,
        source: str | None = None,
    ) -> None:
        self.registry = registry if registry is not None else default_registry()
        if isinstance(spec, Path):
            house_rules = load_house(spec)
            self.source = str(spec)
        elif isinstance(spec, str):
            house_rules = parse_house_string(spec)
            self.source = f"house string {spec!r}"
        else:
            house_rules = spec
            self.source = "house rules"
        if source is not None:
            self.source = source
        self.house_rules = house_rules
        self.table: TableSettings = house_rules.table
        self.variants: list[Variant] = self._instantiate(house_rules)
        self.answered_by: dict[str, Variant] = {}
        self.rules: Rules = self._resolve(strict)
        if self.table.players * self.rules.hand_size > 52:
            raise HouseError(
                f"{self.source}: table.players: {self.table.players} players × "
                f"{self.rules.hand_size} cards cannot be dealt from 52 cards (R-DEAL)"
            )

    # -- construction -----------------------------------------------------------------

    @classmethod
    def from_arg(cls, arg: str | None, **kw: Any) -> House:
        """A house from a command-line argument: a house file if such a file exists,
        else a house string (a bare variant name included); ``None`` is ``standard``."""
        if arg is None:
            return cls("standard", **kw)
        p = Path(arg)
        if p.suffix.lower() in (".toml", ".json") or p.is_file():
            return cls(p, **kw)
        return cls(arg, **kw)

    def _expand(self, use: Sequence[str]) -> list[str]:
        out: list[str] = []
        known = self.registry.variants

        def add(name: str, chain: tuple[str, ...]) -> None:
            if name in out:
                return
            if name in chain:
                raise HouseError(
                    f"{self.source}: variants.use: {' → '.join(chain)} → {name} is a cycle"
                )
            if name not in known:
                avail = ", ".join(sorted(known)) or "none installed"
                hint = ""
                broken = [e for e in self.registry.errors if e.plugin == name]
                if broken:
                    hint = f" (the plugin failed to load: {broken[0].message})"
                raise HouseError(
                    f"{self.source}: variants.use: unknown variant {name!r}{hint};"
                    f" installed: {avail}"
                )
            for base in known[name].cls.builds_on:
                add(base, (*chain, name))
            out.append(name)

        for name in use or ("standard",):
            add(name, ())
        return out

    def _instantiate(self, hr: HouseRules) -> list[Variant]:
        names = self._expand(hr.variants.use)
        given = hr.variants.settings_for()
        for key in given:
            if key not in names:
                raise HouseError(
                    f"{self.source}: variants.{key}: settings for a variant that is not in"
                    f" variants.use ({', '.join(names)})"
                )
        variants = []
        for name in names:
            cls = self.registry.variants[name].cls
            raw = given.get(name, {})
            if not isinstance(raw, dict):
                raise HouseError(
                    f"{self.source}: variants.{name}: settings must be a table of key = value"
                )
            try:
                settings = cls.Settings.model_validate(raw)
            except ValidationError as e:
                raise HouseError(
                    validation_message(e, self.source, f"variants.{name}", cls.Settings)
                ) from None
            variants.append(cls(settings, hr.table))
        return variants

    def _builds_on(self, a: Variant, b: Variant) -> bool:
        """Whether ``a`` builds (transitively) on ``b``."""
        seen: set[str] = set()
        todo = list(type(a).builds_on)
        while todo:
            x = todo.pop()
            if x == b.name:
                return True
            if x not in seen and x in self.registry.variants:
                seen.add(x)
                todo.extend(self.registry.variants[x].cls.builds_on)
        return False

    def _resolve(self, strict: bool) -> Rules:
        pm = make_manager()
        for v in self.variants:
            try:
                pm.register(v, name=v.name)
            except Exception as e:
                raise HouseError(
                    f"{self.source}: variant {v.name!r} cannot be registered: {e}"
                ) from None
        pm.check_pending()
        values: dict[str, Any] = {}
        for hook in RULE_HOOKS:
            answering = [v for v in self.variants if _answers(type(v), hook)]
            for i, a in enumerate(answering):
                for b in answering[i + 1 :]:
                    if not (self._builds_on(a, b) or self._builds_on(b, a)):
                        raise HouseError(
                            f"{self.source}: variants {a.name!r} and {b.name!r} both answer"
                            f" {hook} and neither builds on the other: use only one of them,"
                            " or make one declare builds_on the other"
                        )
            kwargs: dict[str, Any] = {"table": self.table}
            if hook in ("bourre_deal", "bourre_draw"):
                kwargs["hand_size"] = values["hand_size"]
            value, answerer = self._call(pm, hook, kwargs, answering)
            self.answered_by[hook] = answerer
            field = RULE_FIELDS[hook]
            problem = _check_component(field, value)
            if problem:
                raise PluginError(answerer.name, hook, problem)
            if strict or not type(answerer).__module__.startswith("bourre_variants."):
                value = _guard(field, value, answerer.name, hook)
            values[field] = value
        return Rules(**values)

    def _call(
        self, pm: Any, hook: str, kwargs: dict[str, Any], answering: list[Variant]
    ) -> tuple[Any, Variant]:
        """Call a single-answer hook once; return the answer and the variant that gave
        it.  Implementations are tried in pluggy's order (a variant before those it
        builds on); with hook wrappers present, pluggy itself makes the call."""
        caller = getattr(pm.hook, hook)
        impls = caller.get_hookimpls()
        by_name = {v.name: v for v in self.variants}
        if any(i.wrapper or i.hookwrapper for i in impls):
            try:
                value = caller(**kwargs)
            except Exception as e:
                culprit = _culprit(e.__traceback__, self.variants) or answering[-1]
                raise PluginError(culprit.name, hook, f"raised {e!r}") from e
            top = max(answering, key=lambda v: sum(self._builds_on(v, o) for o in answering))
            return value, top
        for impl in reversed(impls):
            variant = by_name[impl.plugin_name]
            try:
                value = impl.function(*(kwargs[a] for a in impl.argnames))
            except Exception as e:
                raise PluginError(variant.name, hook, f"raised {e!r}") from e
            if value is not None:
                return value, variant
        raise HouseError(f"{self.source}: no variant answers {hook}")

    # -- description ------------------------------------------------------------------

    @property
    def names(self) -> list[str]:
        return [v.name for v in self.variants]

    @property
    def spec(self) -> str:
        """The canonical house string (parses back to an equal house)."""
        return format_house_string(
            self.names, {v.name: v.settings_dict() for v in self.variants}, self.table
        )

    def __str__(self) -> str:
        return self.spec

    def __repr__(self) -> str:
        return f"House({self.spec!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, House) and other.spec == self.spec

    def __hash__(self) -> int:
        return hash(self.spec)

    def rule_texts(self) -> list[tuple[str, str, RuleText]]:
        """The rules this house enforces: ``(hook or 'general', variant, (id, text))``,
        in lifecycle order, each hook's text from the variant that answers it."""
        out: list[tuple[str, str, RuleText]] = []
        for v in self.variants:
            for rt in v.rule_texts("general"):
                out.append(("general", v.name, rt))
        for hook in RULE_HOOKS:
            v = self.answered_by[hook]
            for rt in v.rule_texts(hook):
                out.append((hook, v.name, rt))
        return out


def _culprit(tb: TracebackType | None, variants: list[Variant]) -> Variant | None:
    codes = {}
    for v in variants:
        for name in RULE_HOOKS:
            fn = getattr(type(v), name, None)
            if fn is not None and hasattr(fn, "__code__"):
                codes[fn.__code__] = v
    found = None
    while tb is not None:
        found = codes.get(tb.tb_frame.f_code, found)
        tb = tb.tb_next
    return found


_NEEDS: dict[str, tuple[str, ...]] = {
    "ante": ("hand_antes", "play_ante"),
    "decisions": ("announcements", "__call__"),
    "cinch": ("enabled", "min_won", "has_cinch", "narrow"),
}


def _check_component(field: str, value: Any) -> str | None:
    if value is None:
        return "no answer (None)"
    if field == "hand_size":
        if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= 26:
            return f"hand size must be an int 1…26, got {value!r}"
        return None
    if field in _NEEDS:
        missing = [a for a in _NEEDS[field] if not hasattr(value, a)]
        if missing:
            return f"answered {value!r}, which lacks {', '.join(missing)}"
        return None
    if not callable(value):
        return f"must answer a function, got {value!r}"
    return None


def _guard(field: str, value: Any, plugin: str, hook: str) -> Any:
    """Wrap a component so that misbehaviour is reported naming plugin and hook."""

    def call(fn: Callable[..., Any], *args: Any) -> Any:
        try:
            return fn(*args)
        except PluginError:
            raise
        except Exception as e:
            from bourre.rules import RuleViolation

            if isinstance(e, RuleViolation):
                raise
            raise PluginError(plugin, hook, f"raised {e!r}") from e

    if field == "follow":

        def follow(hand: list[int], trick: list[int], trump: int) -> list[int]:
            legal = call(value, hand, trick, trump)
            if not isinstance(legal, list) or not legal or not set(legal) <= set(hand):
                raise PluginError(
                    plugin, hook, f"legal set {legal!r} is empty or not within the hand {hand!r}"
                )
            return legal

        return follow
    if field == "cinch":
        return _GuardedCinch(value, plugin, hook, call)
    if field == "payout":

        def payout(result: PlayResult, penalty: PenaltyFn) -> HandOutcome:
            out = call(value, result, penalty)
            if not isinstance(out, HandOutcome):
                raise PluginError(plugin, hook, f"must answer a HandOutcome, got {out!r}")
            if len(out.paid) != result.n or len(getattr(out, "takes", [])) != result.n:
                raise PluginError(plugin, hook, "paid/takes must have one amount per seat")
            inflow: Amount = result.pot_at_stake + sum(out.paid)
            outflow: Amount = sum(out.takes) + out.pot_after
            if inflow != outflow:
                raise PluginError(
                    plugin,
                    hook,
                    f"money not conserved: pot {result.pot_at_stake} + payments"
                    f" {sum(out.paid)} ≠ taken {sum(out.takes)} + carried {out.pot_after}",
                )
            return out

        return payout
    if field == "penalty":

        def penalty(p: Amount) -> Amount:
            x = call(value, p)
            if not isinstance(x, (int, type(p))) or x < 0:
                raise PluginError(plugin, hook, f"penalty must be an amount ≥ 0, got {x!r}")
            return x

        return penalty
    if callable(value) and field != "hand_size":
        return _GuardedCall(value, call)
    return value


class _GuardedCall:
    """A guarded function or procedure; its other attributes (e.g. a decision
    procedure's ``announcements``) are the inner component's."""

    def __init__(self, inner: Any, call: Callable[..., Any]) -> None:
        self._inner, self._call = inner, call

    def __call__(self, *args: Any) -> Any:
        return self._call(self._inner, *args)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)


class _GuardedCinch:
    def __init__(self, inner: Any, plugin: str, hook: str, call: Callable[..., Any]) -> None:
        self.inner, self.plugin, self.hook, self.call = inner, plugin, hook, call
        self.enabled = bool(inner.enabled)

    def min_won(self, hand: list[int], trump: int) -> int:
        k = self.call(self.inner.min_won, hand, trump)
        if not isinstance(k, int) or k < 0:
            raise PluginError(self.plugin, self.hook, f"min_won must be an int ≥ 0, got {k!r}")
        return k

    def has_cinch(self, hand: list[int], trump: int, known: int, won: int) -> bool:
        return bool(self.call(self.inner.has_cinch, hand, trump, known, won))

    def narrow(
        self,
        legal: list[int],
        hand: list[int],
        trick: list[int],
        trump: int,
        known: int,
        last: bool,
    ) -> list[int]:
        out = self.call(self.inner.narrow, legal, hand, trick, trump, known, last)
        if not isinstance(out, list) or not out or not set(out) <= set(legal):
            raise PluginError(
                self.plugin,
                self.hook,
                f"cinch narrowed {legal!r} to {out!r}: must be a non-empty subset",
            )
        return out
