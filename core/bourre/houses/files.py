"""Reading a house-rules file (``docs/house-rules.md``): TOML or strict JSON, each
mistake a :class:`~bourre.houses.models.HouseError` that names the file and key."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any

from bourre.houses.locate import Locate, json_locator, toml_locator
from bourre.houses.models import HouseError, HouseRules, house_from_data
from bourre.houses.strictjson import load_json
from bourre.houses.textfile import read_text

__all__ = ["house_locator", "load_house"]


def house_locator(path: str | Path) -> Locate | None:
    """The line of a key in a house file (read again: only a message needs it)."""
    p = Path(path)
    try:
        text = read_text(p, HouseError)
    except HouseError:
        return None
    return toml_locator(text) if p.suffix.lower() == ".toml" else json_locator(text)


def load_house(path: str | Path) -> HouseRules:
    """Read a house-rules file (``.toml`` or ``.json``); :class:`HouseError` names the
    file and key of any mistake."""
    p = Path(path)
    text = read_text(p, HouseError)
    data: Any
    locate = toml_locator(text) if p.suffix.lower() == ".toml" else json_locator(text)
    if p.suffix.lower() == ".toml":
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as e:
            m = re.fullmatch(r"(.*) \(at line (\d+), column (\d+)\)", str(e), re.S)
            if m is None:
                raise HouseError(f"{p}: not valid TOML: {e}") from None
            what = m.group(1)[:1].lower() + m.group(1)[1:]
            raise HouseError(
                f"{p}, line {m.group(2)}, column {m.group(3)}: not valid TOML: {what}"
            ) from None
        except ValueError:  # an integer of thousands of digits
            raise HouseError(f"{p}: not valid TOML: a number too long to be one") from None
        except RecursionError:
            raise HouseError(f"{p}: not valid TOML: nested too deeply") from None
    else:
        data = load_json(text, str(p), HouseError)
    return house_from_data(data, str(p), locate)
