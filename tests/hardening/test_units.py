"""Fast unit checks of the hardening helpers (no subprocess, no model)."""

from __future__ import annotations

import pytest

from trustmh.cli.evaluate import _parse_pairs
from trustmh.core.errors import UserError
from trustmh.run.models import model_defaults
from trustmh.run.runner import DEFAULT_LOG_BUFFER, eval_set_options
from trustmh.run.summary import error_reason


def test_model_arg_values_are_typed_like_inspect() -> None:
    parsed = _parse_pairs(
        ["responses_api=false", "n=3", "t=0.5", "code=0123", "path=/a/b", "key=sk-1", "none=null"], "-M"
    )
    assert parsed == {
        "responses_api": False,
        "n": 3,
        "t": 0.5,
        "code": "0123",
        "path": "/a/b",
        "key": "sk-1",
        "none": None,
    }


def test_model_arg_given_twice() -> None:
    with pytest.raises(UserError, match="given twice"):
        _parse_pairs(["a=1", "a=2"], "-M")


def test_openai_compatible_defaults(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:8000/v1")
    assert model_defaults(["openai/local"], {}) == {"max_retries": 0, "responses_api": False}
    assert model_defaults(["openai/local"], {"responses_api": True})["responses_api"] is True
    assert model_defaults(["trustmh/smollm2"], {}) == {}
    monkeypatch.setenv("OPENAI_BASE_URL", "https://api.openai.com/v1")
    assert model_defaults(["openai/gpt-4o-mini"], {}) == {"max_retries": 0}


def test_run_options() -> None:
    api = eval_set_options(["openai/gpt-4o-mini"])
    assert api["log_buffer"] == DEFAULT_LOG_BUFFER > 1 and api["log_realtime"] is False  # + LOG_FLUSH_SECONDS
    assert api["max_retries"] == 6 and api["timeout"] == 600 and api["attempt_timeout"] == 180
    embedded = eval_set_options(["trustmh/smollm2"], max_retries=2, timeout=30)
    assert embedded["attempt_timeout"] is None and embedded["max_retries"] == 2 and embedded["timeout"] == 30


def test_error_reason() -> None:
    message = "RetryError(<Future at 0x7f state=finished raised InternalServerError>)"
    assert error_reason(message) == "HTTP 5xx from the model endpoint (InternalServerError; gave up after retries)"
    assert error_reason("RateLimitError: slow down") == "RateLimitError: slow down"
