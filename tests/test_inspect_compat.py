"""The private inspect APIs trustmh relies on still exist (see trustmh/_inspect_compat.py).

When an inspect upgrade moves one, this fails with the API's name and what trustmh needs it for.
"""

from __future__ import annotations

import ast
import importlib
import inspect as pyinspect

from tests.conftest import REPO_ROOT


def test_private_inspect_apis_are_importable_and_callable() -> None:
    compat = importlib.import_module("trustmh._inspect_compat")
    for name in compat.__all__:
        api = getattr(compat, name)
        assert callable(api), f"trustmh._inspect_compat.{name} is no longer callable in this inspect_ai"
    parameters = pyinspect.signature(compat.registry_find).parameters
    assert len(parameters) == 1, "inspect_ai._util.registry.registry_find no longer takes one predicate"
    assert issubclass(compat.PrerequisiteError, Exception)
    assert "action" in pyinspect.signature(compat.cancel_task).parameters, "inspect's cancel_task lost `action`"
    assert isinstance(compat.get_eval_states(), list)
    for decision in ("no", "rate_limit", "transient"):
        assert hasattr(compat.RetryDecision, decision), f"inspect_ai RetryDecision.{decision} is gone"


def test_only_the_compat_module_imports_private_inspect_modules() -> None:
    offenders = []
    for path in (REPO_ROOT / "src" / "trustmh").rglob("*.py"):
        if path.name == "_inspect_compat.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            modules = []
            if isinstance(node, ast.ImportFrom) and node.module:
                modules = [node.module]
            elif isinstance(node, ast.Import):
                modules = [alias.name for alias in node.names]
            offenders += [
                f"{path.name}: {m}"
                for m in modules
                if m.startswith("inspect_ai") and "._" in m.replace("inspect_ai", "")
            ]
    assert not offenders
