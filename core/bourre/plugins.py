"""The plugin manager factory and the registry of installed plugins.

Plugins come from the ``bourre`` entry-point group, built-in ones included
(``bourre_variants`` registers its variants there like any third-party package).
Loading one plugin never stops the others: a plugin that fails to import, misspells
a hook, or registers a bad variant is recorded in :attr:`Registry.errors`, named.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

import pluggy

from bourre import hookspec
from bourre.variant import Variant

GROUP = "bourre"
"""The entry-point group (and the project name of the markers and manager)."""


def make_manager() -> pluggy.PluginManager:
    """A fresh plugin manager with the ``bourre`` hook specifications."""
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
    errors: list[PluginLoadError] = field(default_factory=list)

    def add_plugin(self, plugin: object, name: str, package: str) -> None:
        """Register one plugin object (module or class) and collect what it
        registers; failures are recorded, not raised."""
        pm = make_manager()
        try:
            pm.register(plugin, name=name)
            pm.check_pending()
        except Exception as e:  # a misspelt hook, a bad signature …
            self.errors.append(PluginLoadError(name, package, f"invalid hooks: {e}"))
            return
        found: list[type[Variant]] = []
        bots: list[tuple[str, Callable[..., Any]]] = []
        try:
            pm.hook.bourre_register_variants(register=found.append)
            pm.hook.bourre_register_bots(register=lambda n, f: bots.append((n, f)))
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
            self.variants[cls.name] = VariantInfo(cls, name, package)
        for bot_name, factory in bots:
            if bot_name in self.bots:
                self.errors.append(
                    PluginLoadError(name, package, f"bot {bot_name!r} is already registered")
                )
                continue
            self.bots[bot_name] = (factory, package)


def _check_variant(cls: object) -> str | None:
    if not (isinstance(cls, type) and issubclass(cls, Variant)):
        return f"registered {cls!r}, which is not a bourre.variant.Variant subclass"
    if not isinstance(getattr(cls, "name", None), str) or not cls.name:
        return f"variant class {cls.__name__} has no name"
    pm = make_manager()
    try:
        pm.register(object.__new__(cls), name=cls.name)
        pm.check_pending()
    except Exception as e:
        return f"variant {cls.name!r} has invalid hooks: {e}"
    return None


def _entry_points() -> Iterable[tuple[str, str, Callable[[], Any]]]:
    from importlib.metadata import entry_points

    for ep in entry_points(group=GROUP):
        dist = ep.dist
        package = f"{dist.name} {dist.version}" if dist is not None else "?"
        yield ep.name, package, ep.load


def load_registry(extra: Iterable[tuple[str, object]] = ()) -> Registry:
    """Load every plugin of the ``bourre`` entry-point group (and ``extra``
    ``(name, plugin)`` pairs, for tests and embedding) into a new registry."""
    reg = Registry()
    for name, package, load in _entry_points():
        try:
            plugin = load()
        except Exception as e:
            reg.errors.append(PluginLoadError(name, package, f"cannot be imported: {e!r}"))
            continue
        reg.add_plugin(plugin, name, package)
    for name, plugin in extra:
        pkg = plugin.__name__ if isinstance(plugin, ModuleType) else type(plugin).__module__
        reg.add_plugin(plugin, name, pkg)
    return reg


@functools.cache
def default_registry() -> Registry:
    """The installed plugins, loaded once per process."""
    return load_registry()
