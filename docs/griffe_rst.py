"""A griffe extension for the API pages: the docstrings of ``bourre`` use a little
reStructuredText (``:class:`~bourre.rules.Rules```, ``:func:`x```); show those roles
as inline code in Markdown instead of printing the role names."""

from __future__ import annotations

import re
from typing import Any

import griffe

_ROLE = re.compile(r":(?:class|func|meth|mod|data|attr|exc|obj):`(~?)([^`]+)`")


def _code(m: re.Match[str]) -> str:
    tilde, target = m.group(1), m.group(2)
    return f"`{target.split('.')[-1] if tilde else target}`"


class RstRoles(griffe.Extension):
    """Rewrite ``:role:`target``` in every docstring as ```target``` (the last part
    of the dotted name when the target starts with ``~``)."""

    def on_instance(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        if obj.docstring is not None:
            obj.docstring.value = _ROLE.sub(_code, obj.docstring.value)
