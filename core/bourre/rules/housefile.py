"""Reading a house-rules file (``docs/house-rules.md``): TOML or strict JSON, each
mistake a :class:`~bourre.rules.housemodels.HouseError` that names the file and key."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

from bourre.rules.housemodels import HouseError, HouseRules, house_from_data
from bourre.rules.strictjson import load_json
from bourre.rules.textfile import read_text

__all__ = ["load_house"]


def load_house(path: str | Path) -> HouseRules:
    """Read a house-rules file (``.toml`` or ``.json``); :class:`HouseError` names the
    file and key of any mistake."""
    p = Path(path)
    text = read_text(p, HouseError)
    data: Any
    if p.suffix.lower() == ".toml":
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as e:
            raise HouseError(f"{p}: not valid TOML: {e}") from None
        except ValueError:  # an integer of thousands of digits
            raise HouseError(f"{p}: not valid TOML: a number too long to be one") from None
        except RecursionError:
            raise HouseError(f"{p}: not valid TOML: nested too deeply") from None
    else:
        data = load_json(text, str(p), HouseError)
    return house_from_data(data, str(p))
