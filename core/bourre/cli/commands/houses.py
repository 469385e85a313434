"""What a house is and which variants are installed: ``bourre rules`` and
``bourre variants``."""

from __future__ import annotations

import typer

from bourre.cli.util import HouseArg, load_house

__all__ = ["register_commands", "rules", "variants"]


def rules(house: HouseArg = None) -> None:
    """Print the effective rules of a house, with rule ids."""
    # lazy: rich and the rules' rendering, loaded when this command runs
    from rich.console import Console

    from bourre.houses.text import render_rules

    h = load_house(house)
    render_rules(h, Console())


def variants() -> None:
    """List the installed variant plugins, their packages and settings."""
    # lazy: rich and the rules' rendering, loaded when this command runs
    from rich.console import Console

    from bourre.houses.text import render_variants

    render_variants(Console())


def register_commands(cli: typer.Typer) -> None:
    """``bourre rules`` and ``bourre variants``."""
    cli.command()(rules)
    cli.command()(variants)
