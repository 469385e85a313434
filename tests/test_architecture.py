"""The architecture holds: the layers stated as import-linter contracts in
pyproject.toml are kept, no module imports itself back through others (function-level
imports and package ``__init__`` modules included), and nothing in the rules is written for a compiler."""

from __future__ import annotations

import ast
import importlib.util
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


def _named_modules(module: str, source: str, is_package: bool) -> set[str]:
    """The modules an import statement of ``module`` names beyond what it imports:
    ``from bourre.x import y`` reads ``bourre/x/__init__.py`` (even when ``y`` is a
    submodule), and ``import bourre.x.y`` runs ``bourre/x/__init__.py`` first, unless
    ``bourre.x`` is a package ``module`` lives in (run before it, whoever imports it).
    Imports inside functions count as the others do."""
    here = module.split(".") if is_package else module.split(".")[:-1]
    named: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom):
            base = here[: len(here) - node.level + 1] if node.level else []
            named.add(".".join([*base, *([node.module] if node.module else [])]))
        elif isinstance(node, ast.Import):
            for alias in node.names:
                parts = alias.name.split(".")
                for end in range(1, len(parts)):
                    parent = ".".join(parts[:end])
                    if not module.startswith(parent + "."):
                        named.add(parent)
    named.discard(module)
    return named


def _import_graph(*packages: str) -> grimp.ImportGraph:
    """grimp's graph of ``packages`` (function-level imports included), with the edges
    to package ``__init__`` modules that grimp leaves out (:func:`_named_modules`)."""
    graph = grimp.build_graph(*packages)
    for top in packages:
        spec = importlib.util.find_spec(top)
        assert spec is not None and spec.submodule_search_locations is not None
        root = Path(next(iter(spec.submodule_search_locations)))
        for module in sorted(m for m in graph.modules if m.split(".")[0] == top):
            path = root.joinpath(*module.split(".")[1:])
            is_package = path.is_dir()
            path = path / "__init__.py" if is_package else path.with_suffix(".py")
            source = path.read_text(encoding="utf-8")
            for target in _named_modules(module, source, is_package) & graph.modules:
                graph.add_import(importer=module, imported=target)
    return graph


def test_no_import_cycle_package_inits_and_function_level_imports_included() -> None:
    assert _cycles(_import_graph(*PACKAGES)) == []


def test_a_cycle_through_a_package_init_is_found(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The count is honest: a package whose ``__init__`` imports a submodule that
    reads the package back (``from pkg import other``, inside a function) is a cycle,
    though grimp alone sees none."""
    pkg = tmp_path / "cyclepkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("from cyclepkg.a import f\n")
    (pkg / "a.py").write_text("def f() -> None:\n    from cyclepkg import b\n")
    (pkg / "b.py").write_text("")
    monkeypatch.syspath_prepend(str(tmp_path))
    assert _cycles(grimp.build_graph("cyclepkg")) == []
    assert _cycles(_import_graph("cyclepkg")) == [["cyclepkg", "cyclepkg.a"]]


def test_nothing_in_the_rules_is_written_for_a_compiler() -> None:
    """No machine-integer types, no compiler's extensions, no tuples made without
    their constructor in the rule components, the rules package or the house rules
    (the house that resolves them included)."""
    sources = [*(ROOT / "variants" / "bourre_variants").rglob("*.py")]
    sources += [*(ROOT / "core" / "bourre" / "rules").rglob("*.py")]
    sources += [*(ROOT / "core" / "bourre" / "houses").rglob("*.py")]
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
