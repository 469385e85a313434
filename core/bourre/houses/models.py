"""House rules as frozen pydantic models: the variants in use (:class:`VariantSection`)
and, with the table (:class:`bourre.rules.settings.TableSettings`), both together
(:class:`HouseRules`), validated from data by :func:`house_from_data`; a mistake is a
:class:`HouseError`."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
)

from bourre.houses.validation import validation_message
from bourre.rules.settings import TableSettings

__all__ = ["HouseError", "HouseRules", "VariantSection", "house_from_data"]


class HouseError(ValueError):
    """House rules that cannot be used: the message names the place, key and rule."""


class VariantSection(BaseModel):
    """``[variants]``: the plugins in use, in order, and each one's settings under
    its own name."""

    model_config = ConfigDict(frozen=True, extra="allow")

    use: tuple[str, ...] = Field(("standard",), description="Variant plugins, in order.")

    def settings_for(self) -> dict[str, dict[str, Any]]:
        """The per-variant settings given (``{name: {key: value}}``)."""
        extra = self.model_extra or {}
        return {k: dict(v) if isinstance(v, dict) else v for k, v in extra.items()}


class HouseRules(BaseModel):
    """A house's rules as written: ``table`` and ``variants`` (every key optional)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    table: TableSettings = TableSettings()
    variants: VariantSection = VariantSection()


def house_from_data(
    data: Any,
    place: str,
    locate: Callable[[Sequence[int | str]], int | None] | None = None,
    prefix: str = "",
) -> HouseRules:
    """Validate house rules given as data (a parsed file, or a script's ``rules``);
    ``locate`` finds the line of a key in the file, for the message, and ``prefix`` is
    the key the rules stand under there (a script's ``rules``)."""
    if not isinstance(data, dict):
        raise HouseError(f"{place}: house rules must be a table/object with 'table' and 'variants'")
    try:
        return HouseRules.model_validate(data)
    except ValidationError as e:
        raise HouseError(validation_message(e, place, prefix, HouseRules, locate)) from None
