"""Every private inspect_ai API trustmh uses, in one place.

inspect_ai is pinned (``inspect-ai==0.3.285`` in pyproject.toml), but these names live in
modules inspect does not document as public, so an upgrade may move them. Each is imported
here, once, and importing this module fails with an error naming the API and what trustmh
needs it for; ``tests/test_inspect_compat.py`` makes that failure loud in CI. Everything
else in trustmh imports inspect's public API only.
"""

from __future__ import annotations


def _missing(api: str, purpose: str, error: ImportError) -> ImportError:
    from importlib.metadata import version

    return ImportError(
        f"inspect_ai {version('inspect_ai')} no longer provides {api}, which trustmh uses to {purpose}; "
        "install the inspect_ai version pinned in pyproject.toml or update trustmh/_inspect_compat.py"
    )


try:
    from inspect_ai._util.registry import registry_find, registry_unqualified_name
except ImportError as error:
    raise _missing(
        "inspect_ai._util.registry.registry_find/registry_unqualified_name",
        "check that a --model provider exists before a run writes anything",
        error,
    ) from error

try:
    from inspect_ai._util.error import PrerequisiteError
except ImportError as error:
    raise _missing(
        "inspect_ai._util.error.PrerequisiteError",
        "turn a missing API key or provider package into a one-line error",
        error,
    ) from error

try:
    from inspect_ai.log._recorders.buffer.buffer import cleanup_sample_buffers_for_log
except ImportError as error:
    raise _missing(
        "inspect_ai.log._recorders.buffer.buffer.cleanup_sample_buffers_for_log",
        "delete the sample buffer of a superseded log",
        error,
    ) from error

try:
    from inspect_ai.log._samples import sample_active
except ImportError as error:
    raise _missing(
        "inspect_ai.log._samples.sample_active",
        "find the sample id a replayed output belongs to",
        error,
    ) from error

try:
    from inspect_ai.model._model import RetryDecision
except ImportError as error:
    raise _missing(
        "inspect_ai.model._model.RetryDecision",
        "tell inspect whether a failed call to a deployed chatbot (trustmh/http) is worth retrying",
        error,
    ) from error

try:
    from inspect_ai._control.cancel import cancel_task
    from inspect_ai._control.eval_state import get_eval_states
except ImportError as error:
    raise _missing(
        "inspect_ai._control.cancel.cancel_task/eval_state.get_eval_states",
        "abort the running tasks when trustmh run --max-cost / --max-tokens-total is reached",
        error,
    ) from error


def keep_openai_sampling_settings(api: object) -> None:
    """Stop inspect's OpenAI provider treating ``api``'s model as OpenAI's newest reasoning model.

    inspect counts an ``openai/<name>`` it does not recognise as the newest reasoning model
    (``OpenAIAPI.is_latest``) and then drops ``temperature``. For a model served by an
    OpenAI-compatible server that name is the server's own model, so trustmh turns the check off
    on that instance. Imported here, when first needed (the OpenAI SDK is slow to import); a
    provider class without ``is_latest`` fails loudly instead of silently dropping temperature.
    """
    try:
        from inspect_ai.model._providers.openai import OpenAIAPI
    except ImportError as error:
        raise _missing(
            "inspect_ai.model._providers.openai.OpenAIAPI", "send temperature to OpenAI-compatible servers", error
        ) from error
    if not isinstance(api, OpenAIAPI):
        return
    if not callable(getattr(OpenAIAPI, "is_latest", None)):
        raise _missing(
            "inspect_ai.model._providers.openai.OpenAIAPI.is_latest",
            "send temperature to OpenAI-compatible servers",
            ImportError("is_latest"),
        )
    api.is_latest = lambda: False  # type: ignore[method-assign]


__all__ = [
    "PrerequisiteError",
    "RetryDecision",
    "cancel_task",
    "get_eval_states",
    "cleanup_sample_buffers_for_log",
    "keep_openai_sampling_settings",
    "registry_find",
    "registry_unqualified_name",
    "sample_active",
]
