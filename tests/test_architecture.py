"""The architecture holds: the layers stated as import-linter contracts in
pyproject.toml are kept, no module imports itself back through others (function-level
imports included), and nothing in the rules is written for a compiler."""

from __future__ import annotations

import ast
import re
import shutil
import subprocess
import sys
from pathlib import Path

import grimp
import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("bourre", "bourre_variants", "bourre_bots")


def test_the_layer_contracts_are_kept() -> None:
    exe = shutil.which("lint-imports") or str(Path(sys.executable).parent / "lint-imports")
    if not Path(exe).exists():
        pytest.skip("import-linter is not installed (pip install -e '.[test]')")
    proc = subprocess.run([exe], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-2000:]
    assert "0 broken" in proc.stdout


def _cycles(graph: grimp.ImportGraph) -> list[list[str]]:
    """The strongly connected groups of modules (Tarjan), those of two or more."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in graph.find_modules_directly_imported_by(v):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 10_000))
    try:
        for module in sorted(graph.modules):
            if module not in index:
                visit(module)
    finally:
        sys.setrecursionlimit(limit)
    return found


def test_no_import_cycle_function_level_imports_included() -> None:
    graph = grimp.build_graph(*PACKAGES)
    assert _cycles(graph) == []


def test_nothing_in_the_rules_is_written_for_a_compiler() -> None:
    """No machine-integer types, no compiler's extensions, no tuples made without
    their constructor in the rule components or the rules package."""
    sources = [*(ROOT / "variants" / "bourre_variants").rglob("*.py")]
    sources += [*(ROOT / "core" / "bourre" / "rules").rglob("*.py")]
    pattern = re.compile(r"\bi64\b|mypy_extensions|mypyc|tuple\.__new__")
    found = [
        f"{path.relative_to(ROOT)}:{n}"
        for path in sources
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if pattern.search(line)
    ]
    assert found == []


def _function_imports(path: Path) -> list[tuple[str, int, bool]]:
    """Each function of ``path`` that imports inside its body: (name, line of its first
    such import, whether the line above that import says why: ``# lazy: ...``)."""
    source = path.read_text(encoding="utf-8")
    lines = source.splitlines()
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            inner = [
                n.lineno
                for n in ast.walk(node)
                if isinstance(n, ast.Import | ast.ImportFrom) and n is not node
            ]
            if inner:
                first = min(inner)
                said = "# lazy:" in lines[first - 2] or "# lazy:" in lines[first - 1]
                found.append((node.name, first, said))
    return found


def test_every_import_inside_a_function_says_why() -> None:
    """Imports sit at the top of their module; the few inside a function (an optional
    extra, a platform's module, a command's own modules loaded when it runs) say why
    on the line above the function's first one: ``# lazy: <reason>``."""
    roots = [ROOT / "core" / "bourre", ROOT / "variants"]
    silent = [
        f"{path.relative_to(ROOT)}:{line} ({name})"
        for root in roots
        for path in sorted(root.rglob("*.py"))
        for name, line, said in _function_imports(path)
        if not said
    ]
    assert silent == [], "imports inside functions without '# lazy: <reason>':\n" + "\n".join(
        silent
    )
