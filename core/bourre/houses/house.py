"""A house: house rules resolved, once, into the :class:`Rules` the game runs.

Building a house:

1. expands ``variants.use``: each variant's ``builds_on`` joins the house before it
   (so a bare ``pot-limit`` is ``standard+pot-limit``); unknown names are refused;
2. validates each variant's settings with its own model (errors name the key);
3. checks that no two variants answer one rule hook unless one builds on the other;
4. asks every rule hook once, in lifecycle order (:data:`bourre.rules.hookspec.RULE_HOOKS`):
   the variants that answer it (a method marked ``@hookimpl``), the one that builds on
   the others first, until one gives a component; so each component is known to come
   from its variant.  This loop is the one way a rule hook is called: rule hooks are
   plain methods, not pluggy hooks, and pluggy only registers the plugins;
5. checks each answer with its hook's guard (:class:`bourre.rules.hookspec.RuleHook`).

Components of plugins that are not built in (known by the registry, from the
entry point that registered them, never by what a class says of itself) are checked
at every call, naming the plugin and the hook when they raise, answer the wrong
thing or break an invariant; ``strict=True`` checks the built-in ones too.
"""

from __future__ import annotations

import difflib
import inspect
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TypeVar

from pydantic import ValidationError

from bourre.houses.files import house_locator, load_house
from bourre.houses.locate import Locate
from bourre.houses.models import HouseError, HouseRules
from bourre.houses.strings import format_house_string, parse_house_string
from bourre.houses.validation import validation_message
from bourre.rules.hookspec import HAND_SIZE, RULE_HOOKS, PluginError, RuleHook
from bourre.rules.plugins import Registry, default_registry
from bourre.rules.settings import TableSettings
from bourre.rules.variant import RuleText, Variant, answers, marked

__all__ = ["House", "PluginError", "Rules"]

C = TypeVar("C")


class Rules:
    """A house's rules, resolved once: the component of each rule hook, looked up by
    the hook's specification (``rules[FOLLOW]``), typed by it."""

    def __init__(self, components: dict[str, Any]) -> None:
        self._components = components

    def __getitem__(self, hook: RuleHook[C]) -> C:
        return self._components[hook.name]  # type: ignore[no-any-return]

    @property
    def hand_size(self) -> int:
        return self[HAND_SIZE]


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
        keys: tuple[str, str, Locate | None] | None = None,
    ) -> None:
        self.registry = registry if registry is not None else default_registry()
        self.path: Path | None = spec if isinstance(spec, Path) else None
        self.keys = keys
        """Where a setting's key is named in a message: the place, the key the rules
        stand under there and the line of a key (a script's ``rules``), if not the
        source's."""
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
                meant = difflib.get_close_matches(name, sorted(known), n=1, cutoff=0.6)
                if meant and not broken:
                    hint = f" — did you mean {meant[0]}?"
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
                place, prefix, locate = self.keys or (self.source, "", None)
                if locate is None and self.path is not None:
                    locate = house_locator(self.path)
                key = ".".join(k for k in (prefix, "variants", name) if k)
                raise HouseError(validation_message(e, place, key, cls.Settings, locate)) from None
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
        """Ask each rule hook of the house's variants, in lifecycle order (step 4)."""
        given: dict[str, Any] = {"table": self.table}
        components: dict[str, Any] = {}
        for hook in RULE_HOOKS:
            answering = [v for v in self.variants if answers(type(v), hook.name)]
            self._no_conflict(hook.name, answering)
            value: Any = None
            by: Variant | None = None
            for v in reversed(answering):  # one that builds on the others first
                value = self._ask(v, hook, given)
                if value is not None:
                    by = v
                    break
            if by is None:
                raise HouseError(f"{self.source}: no variant answers {hook.name}")
            self.answered_by[hook.name] = by
            checked = strict or not self.is_builtin(by)
            components[hook.name] = value = hook.check(value, by.name, checked)
            if checked and not hook.value:
                self.guarded.append(f"{by.name} ({hook.name})")
            if hook is HAND_SIZE:
                given["hand_size"] = value
        return Rules(components)

    def _no_conflict(self, hook: str, answering: list[Variant]) -> None:
        for i, a in enumerate(answering):
            opts = marked(type(a), hook) or {}
            if opts.get("wrapper") or opts.get("hookwrapper"):
                raise HouseError(
                    f"{self.source}: variant {a.name!r} wraps {hook}: a rule hook answers a"
                    " component (to build on another variant's, call its component yourself)"
                )
            for b in answering[i + 1 :]:
                if not (self._builds_on(a, b) or self._builds_on(b, a)):
                    raise HouseError(
                        f"{self.source}: variants {a.name!r} and {b.name!r} both answer"
                        f" {hook} and neither builds on the other: use only one of them,"
                        " or make one declare builds_on the other"
                    )

    @staticmethod
    def _ask(v: Variant, hook: RuleHook[Any], given: dict[str, Any]) -> Any:
        """``v``'s answer to ``hook``, given the arguments its method takes (a subset
        of the hook's, as pluggy allows); anything it raises names it."""
        method = getattr(v, hook.name)
        try:
            wanted = inspect.signature(method).parameters
            return method(**{k: given[k] for k in hook.args if k in wanted})
        except (PluginError, HouseError):
            raise
        except Exception as e:
            raise PluginError(v.name, hook.name, f"raised {e!r}") from e

    def is_builtin(self, v: Variant) -> bool:
        """Whether ``v`` is a built-in variant: its class is the one the registry holds
        for its name, registered by this distribution's own entry points."""
        info = self.registry.variants.get(v.name)
        return info is not None and info.cls is type(v) and info.builtin

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
            v = self.answered_by[hook.name]
            for rt in v.rule_texts(hook.name):
                out.append((hook.name, v.name, rt))
        return out
