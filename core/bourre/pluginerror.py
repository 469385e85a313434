"""The error that names a misbehaving plugin (:class:`PluginError`): raised by the
guards of third-party components (:mod:`bourre.guards`) and by the game's own checks
after each hand."""

from __future__ import annotations

__all__ = ["PluginError"]


class PluginError(RuntimeError):
    """A plugin that raised, answered the wrong type or broke an invariant."""

    def __init__(self, plugin: str, hook: str, message: str) -> None:
        super().__init__(f"plugin {plugin!r}, hook {hook}: {message}")
        self.plugin = plugin
        self.hook = hook
        self.message = message

    def __reduce__(self) -> tuple[object, ...]:
        """Picklable with its plugin, hook and message (it crosses to worker
        processes, where an unpicklable error would arrive as BrokenProcessPool)."""
        return (type(self), (self.plugin, self.hook, self.message))
