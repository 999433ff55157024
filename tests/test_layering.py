"""Import layering: the layers written in docs/contributing.md, and no import circle.

The graph counts every import in ``src/trustmh`` — module level, inside functions (a lazy
import cannot hide a circle), under ``TYPE_CHECKING``, and ``importlib.import_module`` of a
literal or f-string name (an f-string stands for every module its pattern matches) — so a
circle cannot be hidden by importing late or by name.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from tests.conftest import REPO_ROOT

SOURCE = REPO_ROOT / "src" / "trustmh"
CONTRIBUTING = REPO_ROOT / "docs" / "contributing.md"


def _modules(source: Path = SOURCE) -> dict[str, Path]:
    modules = {}
    for path in source.rglob("*.py"):
        parts = list(path.relative_to(source.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        modules[".".join(parts)] = path
    return modules


def _dynamic_names(node: ast.Call, known: dict[str, Path]) -> list[str]:
    """Modules an ``importlib.import_module(...)`` call can load: a literal, or every module
    matching an f-string's pattern (its formatted parts stand for one dotted component)."""
    func = node.func
    name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
    if name != "import_module" or not node.args:
        return []
    target = node.args[0]
    if isinstance(target, ast.Constant) and isinstance(target.value, str):
        return [target.value]
    if isinstance(target, ast.JoinedStr):
        pattern = "".join(
            re.escape(part.value) if isinstance(part, ast.Constant) else r"[^.]+" for part in target.values
        )
        return [module for module in known if re.fullmatch(pattern, module)]
    return []


def _imports(path: Path, known: dict[str, Path]) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            # `from pkg import submodule` imports the submodule, not the package's own names
            subs = [f"{node.module}.{alias.name}" for alias in node.names]
            names = [sub if sub in known else node.module for sub in subs]
        elif isinstance(node, ast.Call):
            names = _dynamic_names(node, known)
        else:
            continue
        for name in names:
            while name and name not in known:
                name = name.rpartition(".")[0]
            if name.startswith("trustmh"):
                found.add(name)
    return found


def module_graph(source: Path = SOURCE) -> dict[str, set[str]]:
    modules = _modules(source)
    return {module: _imports(path, modules) - {module} for module, path in modules.items()}


def package_of(module: str) -> str:
    """``trustmh.run.runner`` -> ``run``; the top-level package itself is ``trustmh``."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "trustmh"


def package_graph(modules: dict[str, set[str]]) -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {}
    for module, imported in modules.items():
        for target in imported:
            if package_of(target) != package_of(module):
                graph.setdefault(package_of(module), set()).add(package_of(target))
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one node (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in graph.get(node, ()):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in list(graph):
        if node not in index:
            visit(node)
    return found


def layers() -> dict[str, int]:
    """Package -> rank (0 = bottom) from the ``layers`` block of docs/contributing.md."""
    block = re.search(r"```layers\n(.*?)```", CONTRIBUTING.read_text(encoding="utf-8"), flags=re.DOTALL)
    assert block, "docs/contributing.md has no ```layers block"
    lines = [line for line in block.group(1).splitlines() if line.strip()]
    ranks = {}
    for rank, line in enumerate(reversed(lines)):
        names = re.match(r"^([\w| ]+?)\s{2,}", line + "  ")
        assert names, f"layers line not understood: {line!r}"
        for name in names.group(1).split("|"):
            ranks[name.strip()] = rank
    return ranks


GRAPH = module_graph()


def test_no_import_circle_between_modules() -> None:
    assert circles(GRAPH) == []


def test_no_import_circle_between_packages() -> None:
    assert circles(package_graph(GRAPH)) == []


def test_every_package_has_its_layer() -> None:
    packages = {package_of(module) for module in GRAPH}
    assert packages - set(layers()) == set(), "add these to the layers block of docs/contributing.md"
    assert set(layers()) - packages == set(), "the layers block names packages that do not exist"


def test_imports_only_go_down_the_layers() -> None:
    rank = layers()
    against = sorted(
        f"{module} imports {target}"
        for module, imported in GRAPH.items()
        for target in imported
        if package_of(target) != package_of(module) and rank[package_of(target)] >= rank[package_of(module)]
    )
    assert against == []


def test_nothing_below_the_cli_imports_it() -> None:
    importers = sorted(package for package, imported in package_graph(GRAPH).items() if "cli" in imported)
    assert importers == ["__main__"]


def test_no_test_double_in_the_product() -> None:
    assert not (SOURCE / "testing").exists()
    assert not [m for m, imported in GRAPH.items() if any(t.startswith("tests") for t in imported)]


# The checker itself, on small trees: it must see what it claims to see.


def _tree(tmp_path: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = tmp_path / "trustmh" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return tmp_path / "trustmh"


@pytest.mark.parametrize(
    "importer",
    [
        "from trustmh.b import x\n",
        "def f():\n    from trustmh.b import x\n",
        "import importlib\nimportlib.import_module('trustmh.b')\n",
        "import importlib\nname = 'b'\nimportlib.import_module(f'trustmh.{name}')\n",
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from trustmh.b import x\n",
    ],
)
def test_the_checker_sees_every_kind_of_import(tmp_path: Path, importer: str) -> None:
    source = _tree(tmp_path, {"__init__.py": "", "a.py": importer, "b.py": "from trustmh.a import y\n"})
    assert circles(module_graph(source)) == [["trustmh.a", "trustmh.b"]]


def test_the_checker_counts_a_submodule_not_its_package(tmp_path: Path) -> None:
    source = _tree(
        tmp_path,
        {
            "__init__.py": "",
            "p/__init__.py": "from trustmh.p.a import x\n",
            "p/a.py": "",
            "p/b.py": "from trustmh.p import a\n",
        },
    )
    assert module_graph(source)["trustmh.p.b"] == {"trustmh.p.a"}
