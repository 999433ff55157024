"""Every private inspect_ai API trustmh uses, in one place.

inspect_ai is pinned (``inspect-ai==0.3.285`` in pyproject.toml), but these names live in
modules inspect does not document as public, so an upgrade may move them. Each is imported
here, once, and importing this module fails with an error naming the API and what trustmh
needs it for; ``tests/test_inspect_compat.py`` makes that failure loud in CI. Everything
else in trustmh imports inspect's public API only.
"""

from __future__ import annotations

from inspect_ai.event import Event
from inspect_ai.log import Transcript, transcript
from inspect_ai.model import GenerateConfig, Model


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
    from inspect_ai.model._cache import _cache_key_config as cache_key_config
except ImportError as error:
    raise _missing(
        "inspect_ai.model._cache._cache_key_config",
        "key a conversation's stored turns on the generate settings that can change an answer, as inspect's cache does",
        error,
    ) from error

if not hasattr(Model, "_resolve_config") or not hasattr(Transcript, "_event"):
    raise ImportError(
        "inspect_ai no longer provides Model._resolve_config / Transcript._event, which trustmh uses to "
        "replay a conversation's stored turns; install the inspect_ai version pinned in pyproject.toml"
    )


def resolved_generate_config(model: Model, config: GenerateConfig) -> GenerateConfig:
    """The settings ``model.generate(config=config)`` calls with (the model's own, the task's, ``config``)."""
    return model._resolve_config(config)


def record_event(event: Event) -> None:
    """Add ``event`` to the running sample's transcript (what inspect does for its own model calls)."""
    transcript()._event(event)


__all__ = [
    "PrerequisiteError",
    "RetryDecision",
    "cache_key_config",
    "cleanup_sample_buffers_for_log",
    "record_event",
    "registry_find",
    "registry_unqualified_name",
    "resolved_generate_config",
    "sample_active",
]
