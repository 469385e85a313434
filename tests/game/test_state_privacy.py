"""The game state's fields are its own (issue 40): nothing outside ``bourre.game``
reads a private field of a :class:`~bourre.game.state.State`, the old public fields
are gone, and the compiled kernel's state is no ``State`` but implements the same
protocol (:class:`~bourre.game.protocol.GameState`)."""

from __future__ import annotations

import ast
import random
from pathlib import Path

import pytest

from bourre.game import Game
from bourre.game.protocol import GameState, members
from bourre.game.state import State

ROOT = Path(__file__).parents[2]
OLD_NAMES = (
    "hs", "phase", "turn", "pending_seat", "pending", "marks", "premature", "forfeits",
    "reneges", "plays", "history_", "last_dealer", "first_dealer", "hands_after",
    "ante_reasons", "given_dealer", "given_pot", "given_reshuffle", "after_draw", "h",
    "set_hand", "mark_premature", "referee_play",
)  # fmt: skip


def _private_fields() -> set[str]:
    """The private fields of a Python state (after a few steps: every one is set)."""
    state = Game("standard", engine="python").new_session(seed=1)
    rng = random.Random(1)
    for _ in range(20):
        state.apply_action(rng.choice(list(state.legal_actions())))
    return {name for name in vars(state) if name.startswith("_")}


def _reads(path: Path, names: set[str]) -> list[str]:
    """``x._field`` reads of ``names`` in ``path`` on anything but ``self`` (a call of
    a private method of the same name, another class's, is not a field read)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    called = {id(n.func) for n in ast.walk(tree) if isinstance(n, ast.Call)}  # (methods)
    out = []
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Attribute)
            and id(node) not in called
            and node.attr in names
            and not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"))
        ):
            out.append(f"{path.relative_to(ROOT)}:{node.lineno}: .{node.attr}")
    return out


def test_nothing_outside_the_game_reads_a_private_state_field() -> None:
    names = _private_fields()
    assert {"_hs", "_phase", "_told", "_log", "_balances"} <= names
    game = ROOT / "core" / "bourre" / "game"
    files = [
        p
        for top in ("core", "variants")
        for p in sorted((ROOT / top).rglob("*.py"))
        if game not in p.parents and "build" not in p.parts and p.name != Path(__file__).name
    ]
    assert len(files) > 80
    found = [r for p in files for r in _reads(p, names)]
    assert not found, "\n".join(found)


def test_the_scan_finds_a_private_read(tmp_path: Path) -> None:
    """The scan itself: a read of a state's private field is found, ``self``'s is not."""
    bad = tmp_path / "bad.py"
    bad.write_text(
        "def f(state):\n    return state._hs\n\nclass A:\n    def g(self):\n        return self._hs\n"
    )
    global ROOT
    old, ROOT = ROOT, tmp_path
    try:
        assert _reads(bad, {"_hs"}) == ["bad.py:2: ._hs"]
    finally:
        ROOT = old


@pytest.mark.parametrize("engine", ["python", "kernel"])
def test_the_old_public_fields_are_gone(engine: str) -> None:
    state = Game("standard", engine=engine).new_session(seed=2)
    for name in OLD_NAMES:
        assert not hasattr(state, name), name


@pytest.mark.parametrize("engine", ["python", "kernel"])
def test_both_engines_implement_the_protocol(engine: str) -> None:
    """The same protocol, the same answers along a seeded session, and no kernel state
    is a State (composition, not inheritance)."""
    state: GameState = Game("standard", engine=engine).new_session(seed=3)
    assert members() <= set(dir(type(state))), sorted(members() - set(dir(type(state))))
    assert {"current_player", "apply_chance", "chance_outcomes", "hand"} <= members()
    assert isinstance(state, State) == (engine == "python")
    twin = Game("standard", engine="python").new_session(seed=3)
    rng = random.Random(3)
    while not state.is_terminal():
        seat = state.current_player()
        assert seat == twin.current_player()
        assert state.observation(max(seat, 0)) == twin.observation(max(seat, 0))
        assert state.balances == twin.balances and state.pot == twin.pot
        assert list(state.legal_actions()) == list(twin.legal_actions())
        if state.phase_name == "play":
            assert state.legal_with_reasons() == twin.legal_with_reasons()
        action = rng.choice(list(state.legal_actions()))
        clone = state.clone()
        assert type(clone) is type(state)
        state.apply_action(action)
        twin.apply_action(action)
    assert state.returns() == twin.returns() and state.final == twin.final
    assert state.history() == twin.history()
    assert str(state) and str(twin)
