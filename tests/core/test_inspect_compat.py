"""The private inspect APIs trustmh relies on still exist (see trustmh/core/inspect_compat.py).

When an inspect upgrade moves one, this fails with the API's name and what trustmh needs it for.
"""

from __future__ import annotations

import ast
import importlib
import inspect as pyinspect

import pytest

from tests.conftest import REPO_ROOT


def test_private_inspect_apis_are_importable_and_callable() -> None:
    compat = importlib.import_module("trustmh.core.inspect_compat")
    for name in compat.__all__:
        api = getattr(compat, name)
        assert callable(api), f"trustmh.core.inspect_compat.{name} is no longer callable in this inspect_ai"
    parameters = pyinspect.signature(compat.registry_find).parameters
    assert len(parameters) == 1, "inspect_ai._util.registry.registry_find no longer takes one predicate"
    assert issubclass(compat.PrerequisiteError, Exception)
    assert "action" in pyinspect.signature(compat.cancel_task).parameters, "inspect's cancel_task lost `action`"
    assert isinstance(compat.get_eval_states(), list)
    for decision in ("no", "rate_limit", "transient"):
        assert hasattr(compat.RetryDecision, decision), f"inspect_ai RetryDecision.{decision} is gone"


def test_an_openai_compatible_model_keeps_its_temperature(monkeypatch: pytest.MonkeyPatch) -> None:
    """inspect drops temperature for an openai/ name it does not know unless OpenAIAPI.is_latest says no."""
    from inspect_ai.model import get_model
    from inspect_ai.model._providers.openai import OpenAIAPI

    from trustmh.core.inspect_compat import keep_openai_sampling_settings

    assert callable(getattr(OpenAIAPI, "is_latest", None)), "inspect_ai OpenAIAPI.is_latest is gone"
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    api = get_model("openai/my-local-model", base_url="http://127.0.0.1:9/v1", memoize=False).api
    assert isinstance(api, OpenAIAPI) and api.is_latest()  # inspect's guess for an unknown name
    keep_openai_sampling_settings(api)
    assert not api.is_latest()
    keep_openai_sampling_settings(object())  # any other provider: left alone


def test_only_the_compat_module_imports_private_inspect_modules() -> None:
    offenders = []
    for path in (REPO_ROOT / "src" / "trustmh").rglob("*.py"):
        if path.relative_to(REPO_ROOT / "src" / "trustmh").as_posix() == "core/inspect_compat.py":
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
