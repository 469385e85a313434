"""The process's plugin manager and the registry of installed plugins.

Plugins come from the ``bourre`` entry-point group, built-in ones included
(the built-in variants and bots and the ``compare`` commands register there like
any third-party package).  As in tox's ``plugin/manager.py`` there is one plugin
manager per process (:func:`plugin_manager`): the built-in plugins are registered
first, then the other entry points, each checked with ``check_pending()``; so a
third-party name that collides with a built-in one is refused, naming both packages,
and the built-in keeps it.  Loading one plugin never stops the others: a plugin that
fails to import, misspells a hook, or registers a bad variant is recorded in
:attr:`Registry.errors`, named.
"""

from __future__ import annotations

import difflib
import functools
import inspect
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from importlib.metadata import EntryPoint, entry_points
from types import ModuleType
from typing import Any

import pluggy

from bourre.rules import hookspec
from bourre.rules.variant import Variant, marked

GROUP = "bourre"
"""The entry-point group (and the project name of the markers and manager)."""


def make_manager() -> pluggy.PluginManager:
    """A fresh plugin manager with the ``bourre`` registration hooks (the rule hooks
    are not pluggy hooks: a house asks its variants' methods itself)."""
    pm = pluggy.PluginManager(GROUP)
    pm.add_hookspecs(hookspec)
    return pm


@dataclass(frozen=True)
class VariantInfo:
    """An installed variant and where it comes from."""

    cls: type[Variant]
    plugin: str
    """The entry-point name of the plugin that registered it."""
    package: str
    """The distribution (``name version``) that provides it."""
    builtin: bool = False
    """Registered by one of bourre's own entry points (its components are trusted)."""


@dataclass(frozen=True)
class PluginLoadError:
    """A plugin that could not be loaded, and why."""

    plugin: str
    package: str
    message: str

    def __str__(self) -> str:
        return f"plugin {self.plugin!r} ({self.package}): {self.message}"


@dataclass
class Registry:
    """The installed variants and bots, and the plugins that failed to load."""

    variants: dict[str, VariantInfo] = field(default_factory=dict)
    bots: dict[str, tuple[Callable[..., Any], str]] = field(default_factory=dict)
    builtin_bots: set[str] = field(default_factory=set)
    """The bots registered by bourre's own entry points (the kernel plays only these)."""
    errors: list[PluginLoadError] = field(default_factory=list)

    def add_plugin(
        self,
        plugin: object,
        name: str,
        package: str,
        pm: pluggy.PluginManager | None = None,
        builtin: bool = False,
    ) -> None:
        """Register one plugin object (module or class) on ``pm`` (a fresh manager
        if none) and collect what it registers; failures are recorded, not raised."""
        pm = pm if pm is not None else make_manager()
        if pm.has_plugin(name):
            self.errors.append(
                PluginLoadError(
                    name,
                    package,
                    f"its entry point is named {name!r}, like a plugin loaded before it"
                    " (built-ins first): not loaded; rename the entry point",
                )
            )
            return
        misplaced = _module_rule_hooks(plugin)
        if misplaced:
            self.errors.append(
                PluginLoadError(
                    name,
                    package,
                    f"invalid hooks: {', '.join(misplaced)} answers a rule hook, which is a"
                    " method of a Variant class (registered with bourre_register_variants),"
                    " not a function of the plugin",
                )
            )
            return
        try:
            pm.register(plugin, name=name)
            pm.check_pending()
        except Exception as e:  # a misspelt hook, a bad signature …
            if pm.is_registered(plugin):
                pm.unregister(plugin)
            first = str(e).splitlines()[0][:300] if str(e) else type(e).__name__
            self.errors.append(PluginLoadError(name, package, f"invalid hooks: {first}"))
            return
        found: list[type[Variant]] = []
        bots: list[tuple[str, Callable[..., Any]]] = []
        try:  # this plugin's own registrations, so that each is attributed to it
            for impl in pm.hook.bourre_register_variants.get_hookimpls():
                if impl.plugin is plugin:
                    impl.function(register=found.append)
            for impl in pm.hook.bourre_register_bots.get_hookimpls():
                if impl.plugin is plugin:
                    impl.function(register=lambda n, f: bots.append((n, f)))
        except Exception as e:
            self.errors.append(PluginLoadError(name, package, f"registration failed: {e!r}"))
            return
        for cls in found:
            problem = _check_variant(cls)
            if problem:
                self.errors.append(PluginLoadError(name, package, problem))
                continue
            if cls.name in self.variants:
                other = self.variants[cls.name]
                self.errors.append(
                    PluginLoadError(
                        name,
                        package,
                        f"variant {cls.name!r} is already registered by plugin"
                        f" {other.plugin!r} ({other.package})",
                    )
                )
                continue
            self.variants[cls.name] = VariantInfo(cls, name, package, builtin)
        for bot_name, factory in bots:
            if bot_name in self.bots:
                owner = self.bots[bot_name][1]
                self.errors.append(
                    PluginLoadError(
                        name, package, f"bot {bot_name!r} is already registered by {owner}"
                    )
                )
                continue
            self.bots[bot_name] = (factory, package)
            if builtin:
                self.builtin_bots.add(bot_name)


def _check_variant(cls: object) -> str | None:
    if not (isinstance(cls, type) and issubclass(cls, Variant)):
        return f"registered {cls!r}, which is not a bourre.rules.variant.Variant subclass"
    if not isinstance(getattr(cls, "name", None), str) or not cls.name:
        return f"variant class {cls.__name__} has no name"
    problem = _rule_methods(cls)
    return f"variant {cls.name!r} has invalid hooks: {problem}" if problem else None


def _rule_methods(cls: type[Variant]) -> str | None:
    """What is wrong with ``cls``'s methods marked ``@hookimpl``, if anything: each must
    be a rule hook (:data:`~bourre.rules.hookspec.RULE_HOOKS`) and take only arguments
    of its hook.  The house calls them itself; pluggy never sees them."""
    hooks = {h.name: h for h in hookspec.RULE_HOOKS}
    for attr in sorted(dir(cls)):
        if marked(cls, attr) is None:
            continue
        hook = hooks.get(attr)
        if hook is None:
            meant = difflib.get_close_matches(attr, hooks, n=1, cutoff=0.6)
            hint = f" (did you mean {meant[0]}?)" if meant else ""
            return f"{attr} is not a rule hook{hint}; the rule hooks are {', '.join(hooks)}"
        params = list(inspect.signature(getattr(cls, attr)).parameters.values())[1:]  # after self
        named = [p.name for p in params if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]
        extra = [p for p in named if p not in hook.args]  # (*args, **kw name no argument)
        if extra:
            return (
                f"{attr} takes {', '.join(extra)}, not among the hook's arguments"
                f" ({', '.join(hook.args)})"
            )
    return None


def _module_rule_hooks(plugin: object) -> list[str]:
    """The rule hooks a plugin object implements as its own functions: a mistake, a
    rule hook is a variant's method."""
    names = {h.name for h in hookspec.RULE_HOOKS}
    return [n for n in sorted(names) if marked(plugin, n) is not None]


BUILTIN = "bourre"
"""The distribution whose plugins are the built-ins: registered before all others."""


def _entry_points() -> Iterable[tuple[str, str, bool, Callable[[], Any]]]:
    """The entry points of the group, ``(name, package, built in, load)``: the
    built-ins first, then the others by name."""
    # a distribution's name and version parse its metadata again at every reading:
    # read once per distribution (a tenth of a second off every command's start)
    known: dict[int, tuple[str, str]] = {}

    def named(ep: EntryPoint) -> tuple[str, str] | None:
        dist = ep.dist
        if dist is None:
            return None
        got = known.get(id(dist))
        if got is None:
            meta = dist.metadata
            got = known[id(dist)] = (meta["Name"], meta["Version"])
        return got

    eps = [(ep, named(ep)) for ep in entry_points(group=GROUP)]
    eps.sort(key=lambda e: (e[1] is None or e[1][0] != BUILTIN, e[0].name))
    for ep, dist in eps:
        package = f"{dist[0]} {dist[1]}" if dist is not None else "?"
        yield ep.name, package, dist is not None and dist[0] == BUILTIN, ep.load


def build(
    extra: Iterable[tuple[str, object]] = (),
) -> tuple[pluggy.PluginManager, Registry]:
    """A plugin manager with every plugin of the ``bourre`` entry-point group (built-ins
    first), then ``extra`` ``(name, plugin)`` pairs, and the registry of what they
    registered."""
    pm = make_manager()
    reg = Registry()
    for name, package, builtin, load in _entry_points():
        try:
            plugin = load()
        except BaseException as e:  # SystemExit too: a plugin never stops the command
            if isinstance(e, KeyboardInterrupt):
                raise
            reg.errors.append(PluginLoadError(name, package, f"cannot be imported: {e!r}"))
            continue
        reg.add_plugin(plugin, name, package, pm, builtin)
    for name, plugin in extra:
        pkg = plugin.__name__ if isinstance(plugin, ModuleType) else type(plugin).__module__
        reg.add_plugin(plugin, name, pkg, pm)
    return pm, reg


def load_registry(extra: Iterable[tuple[str, object]] = ()) -> Registry:
    """A new registry of the installed plugins and ``extra`` ones (tests, embedding)."""
    return build(extra)[1]


@functools.cache
def _process() -> tuple[pluggy.PluginManager, Registry]:
    return build()


def plugin_manager() -> pluggy.PluginManager:
    """The process's plugin manager, loaded once (registration hooks: commands …)."""
    return _process()[0]


def default_registry() -> Registry:
    """The installed plugins, loaded once per process."""
    return _process()[1]
