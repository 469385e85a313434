"""Which variant answered a rule hook, with pluggy making every call.

A house registers each variant through a :class:`Witness`: the same hook
implementations, with the same markers and parameters, each noting its variant when
it answers and naming it when it raises.  Pluggy keeps its own order, ``firstresult``
and hook wrappers; the house only reads who was heard (R-… texts come from the
variant that answered).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from bourre.guards import PluginError
from bourre.plugins import GROUP
from bourre.variant import Variant

__all__ = ["Witness"]

_MARK = f"{GROUP}_impl"


class Witness:
    """Stands for ``variant`` on a plugin manager: every hook implementation of the
    variant, noting in ``heard`` when it answers (a value other than ``None``)."""

    def __init__(self, variant: Variant, heard: list[Variant]) -> None:
        self.variant = variant
        for name in dir(type(variant)):
            if not name.startswith(f"{GROUP}_"):
                continue
            method = getattr(variant, name)
            opts = getattr(method, _MARK, None)
            if opts is None:
                continue
            if opts.get("wrapper") or opts.get("hookwrapper"):
                setattr(self, name, method)  # a wrapper is a generator: pluggy drives it
            else:
                setattr(self, name, _noting(method, variant, heard))


def _noting(
    method: Callable[..., Any], variant: Variant, heard: list[Variant]
) -> Callable[..., Any]:
    @functools.wraps(method)  # pluggy reads the parameters and markers through it
    def answer(*args: Any) -> Any:
        try:
            value = method(*args)
        except PluginError:
            raise
        except Exception as e:
            raise PluginError(variant.name, method.__name__, f"raised {e!r}") from e
        if value is not None:
            heard.append(variant)
        return value

    return answer
