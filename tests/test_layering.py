"""Import layering: no circle between packages, and nothing below the CLI imports it.

The graph counts every ``import`` in ``src/trustmh`` (module level and inside functions), so
a lazy import cannot hide a circle.
"""

from __future__ import annotations

import ast
from pathlib import Path

from tests.conftest import REPO_ROOT

SOURCE = REPO_ROOT / "src" / "trustmh"
# Package-level circles still open, each with the issue item that removes it.
# No package imports another that imports it back (bulk <-> dialogue ended with trustmh.mentalalign).
KNOWN_CIRCLES: set[frozenset[str]] = set()


def _modules() -> dict[str, Path]:
    modules = {}
    for path in SOURCE.rglob("*.py"):
        parts = list(path.relative_to(SOURCE.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        modules[".".join(parts)] = path
    return modules


def _imports(path: Path, known: dict[str, Path]) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [node.module, *(f"{node.module}.{alias.name}" for alias in node.names)]
        else:
            continue
        for name in names:
            while name and name not in known:
                name = name.rpartition(".")[0]
            if name.startswith("trustmh"):
                found.add(name)
    return found


def _package(module: str) -> str:
    parts = module.split(".")
    return ".".join(parts[:3] if len(parts) > 2 and parts[1] == "pillars" else parts[:2])


def package_graph() -> dict[str, set[str]]:
    modules = _modules()
    graph: dict[str, set[str]] = {}
    for module, path in modules.items():
        for imported in _imports(path, modules):
            if _package(imported) != _package(module):
                graph.setdefault(_package(module), set()).add(_package(imported))
    return graph


def _reaches(graph: dict[str, set[str]], start: str, goal: str) -> bool:
    seen, todo = set(), [start]
    while todo:
        node = todo.pop()
        if node == goal:
            return True
        if node not in seen:
            seen.add(node)
            todo.extend(graph.get(node, ()))
    return False


def test_no_import_circle_between_packages() -> None:
    graph = package_graph()
    circles = {
        frozenset({a, b}) for a in graph for b in graph[a] if a != b and _reaches(graph, b, a) and a != "trustmh"
    }
    assert circles <= KNOWN_CIRCLES, sorted(sorted(c) for c in circles - KNOWN_CIRCLES)
    assert "trustmh.tasking" not in {p for c in circles for p in c}


def test_nothing_below_the_cli_imports_it() -> None:
    importers = sorted(package for package, imported in package_graph().items() if "trustmh.cli" in imported)
    assert importers == ["trustmh.__main__"]
