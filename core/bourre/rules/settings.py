"""The table's settings, as every rule component is given them
(:class:`TableSettings`: players, hands, ante, balance, first dealer; R-SESSION,
R-DEALER).  Reading house rules (files, house strings, the models of a whole house)
is :mod:`bourre.houses`."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, StrictInt, ValidationInfo, field_validator

from bourre.rules.money import AmountField

__all__ = ["TableSettings"]


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
