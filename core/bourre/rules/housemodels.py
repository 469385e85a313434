"""House rules as frozen pydantic models: the table (:class:`TableSettings`), the
variants in use (:class:`VariantSection`) and both together (:class:`HouseRules`),
validated from data by :func:`house_from_data`; a mistake is a :class:`HouseError`."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictInt,
    ValidationError,
    ValidationInfo,
    field_validator,
)

from bourre.rules.money import AmountField
from bourre.rules.validation import validation_message

__all__ = ["HouseError", "HouseRules", "TableSettings", "VariantSection", "house_from_data"]


class HouseError(ValueError):
    """House rules that cannot be used: the message names the place, key and rule."""


class TableSettings(BaseModel):
    """The table: settings that are not variants (R-SESSION, R-DEALER; docs/house-rules.md)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    players: StrictInt = Field(
        5, ge=2, le=8, description="Players at the table, 2 to 8 (R-SESSION)."
    )
    hands: StrictInt = Field(12, gt=0, le=10_000, description="Hands in a session (R-SESSION).")
    ante: AmountField = Field(1, gt=0, description="The ante (R-FIRST-POT, R-ANTE).")
    balance: AmountField = Field(100, description="Each player's starting balance (R-SESSION).")
    first_dealer: StrictInt | Literal["random"] = Field(
        0, description="Seat that deals hand 1, or 'random' (R-DEALER)."
    )

    @field_validator("first_dealer", mode="before")
    @classmethod
    def _dealer_at_table(cls, fd: int | str, info: ValidationInfo) -> int | str:
        players = info.data.get("players", 5)
        if fd != "random" and not (
            isinstance(fd, int) and not isinstance(fd, bool) and 0 <= fd < players
        ):
            raise ValueError(
                f'should be a seat number from 0 to {players - 1}, or "random" (R-DEALER)'
            )
        return fd


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
