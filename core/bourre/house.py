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

from collections.abc import Sequence
from pathlib import Path
from types import TracebackType
from typing import Any

from pydantic import ValidationError

from bourre.components import compiled_form
from bourre.guards import PluginError, adapt_component, check_component, guard
from bourre.hookspec import RULE_HOOKS
from bourre.plugins import Registry, default_registry, make_manager
from bourre.rules import RULE_FIELDS, Rules
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
from bourre.witness import Witness

__all__ = ["House", "PluginError"]


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
        self.guarded: list[str] = []
        """The checked components of plugins not built in, ``"plugin (hook)"``: the
        game checks after every hand that they kept money and cards whole."""
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
        try:
            is_file = p.suffix.lower() in (".toml", ".json") or p.is_file()
        except (OSError, ValueError):  # a name too long for a file: a house string
            is_file = False
        if is_file:
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

        twice = sorted({n for n in use if list(use).count(n) > 1})
        if twice:
            raise HouseError(f"{self.source}: variants.use: {twice[0]!r} is named twice")
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
        heard: list[Variant] = []
        for v in self.variants:
            try:
                pm.register(Witness(v, heard), name=v.name)
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
            value, answerer = self._call(pm, hook, kwargs, answering, heard)
            self.answered_by[hook] = answerer
            field = RULE_FIELDS[hook]
            problem = check_component(field, value)
            if problem:
                raise PluginError(answerer.name, hook, problem)
            first_rule = next((rid for rid, _ in answerer.rule_texts(hook)), None)
            value = adapt_component(field, value, first_rule, values.get("hand_size", 5))
            if strict or not type(answerer).__module__.startswith("bourre_variants."):
                value = guard(field, value, answerer.name, hook)
                if hook != "bourre_hand_size":
                    self.guarded.append(f"{answerer.name} ({hook})")
            values[field] = compiled_form(field, value)
        return Rules(**values)

    def _call(
        self,
        pm: Any,
        hook: str,
        kwargs: dict[str, Any],
        answering: list[Variant],
        heard: list[Variant],
    ) -> tuple[Any, Variant]:
        """Call a single-answer hook once, through pluggy (its order: a variant before
        those it builds on; ``firstresult``; wrappers); return the answer and the
        variant heard giving it (with a hook wrapper, which may change the answer: the
        variant that builds on the others)."""
        caller = getattr(pm.hook, hook)
        heard.clear()
        try:
            value = caller(**kwargs)
        except PluginError:
            raise
        except Exception as e:  # raised in a hook wrapper
            culprit = _culprit(e.__traceback__, self.variants) or answering[-1]
            raise PluginError(culprit.name, hook, f"raised {e!r}") from e
        if value is None:
            raise HouseError(f"{self.source}: no variant answers {hook}")
        wrapping = {i.plugin_name for i in caller.get_hookimpls() if i.wrapper or i.hookwrapper}
        if wrapping or not heard:
            them = answering + [v for v in self.variants if v.name in wrapping]
            return value, max(them, key=lambda v: sum(self._builds_on(v, o) for o in them))
        return value, heard[-1]

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
