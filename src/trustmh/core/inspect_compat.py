"""Every private inspect_ai API trustmh uses, in one place.

inspect_ai is pinned (``inspect-ai==0.3.285`` in pyproject.toml), but these names live in
modules inspect does not document as public, so an upgrade may move them. Each is imported
here, once, and importing this module fails with an error naming the API and what trustmh
needs it for; ``tests/core/test_inspect_compat.py`` makes that failure loud in CI. Everything
else in trustmh imports inspect's public API only.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from typing import Any

from inspect_ai.event import Event
from inspect_ai.log import Transcript, transcript
from inspect_ai.model import GenerateConfig, Model


def _missing(api: str, purpose: str, error: ImportError) -> ImportError:
    from importlib.metadata import version

    return ImportError(
        f"inspect_ai {version('inspect_ai')} no longer provides {api}, which trustmh uses to {purpose}; "
        "install the inspect_ai version pinned in pyproject.toml or update trustmh/core/inspect_compat.py"
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


@contextmanager
def stale_flush_interval(seconds: float) -> Iterator[None]:
    """Evals started in the block write a finished sample to their log at most ``seconds`` after
    it finished, even when fewer than ``log_buffer`` samples are waiting (inspect: 60 s).

    inspect reads the interval when it creates an eval's log, so the block must enclose the
    ``eval``/``eval_set`` call; the previous value is restored after it. Imported when first
    needed (inspect's eval machinery is slow to import)."""
    api = "inspect_ai._eval.task.log._STALE_FLUSH_INTERVAL"
    purpose = "write every finished sample to the log within seconds (what a killed run resumes from)"
    try:
        import inspect_ai._eval.task.log as task_log
    except ImportError as error:
        raise _missing(api, purpose, error) from error
    previous = getattr(task_log, "_STALE_FLUSH_INTERVAL", None)
    if not isinstance(previous, int | float):
        raise _missing(api, purpose, ImportError(api))
    task_log._STALE_FLUSH_INTERVAL = seconds
    try:
        yield
    finally:
        task_log._STALE_FLUSH_INTERVAL = previous


def resolved_generate_config(model: Model, config: GenerateConfig) -> GenerateConfig:
    """The settings ``model.generate(config=config)`` calls with (the model's own, the task's, ``config``)."""
    return model._resolve_config(config)


def wrap_retry_loop(
    model: Model, wrap: Callable[[Callable[..., Awaitable[Any]]], Callable[..., Awaitable[Any]]]
) -> None:
    """Replace ``model``'s retry loop (``Model._generate``: every attempt of one call and the
    back-off between them, entered once the call holds its connection slot) by ``wrap(loop)``.
    The loop is called with keyword arguments, among them ``config`` (the resolved settings)."""
    loop = getattr(model, "_generate", None)
    if not callable(loop):
        raise _missing(
            "inspect_ai.model.Model._generate", "bound a whole model call by --timeout", ImportError("_generate")
        )
    model._generate = wrap(loop)  # type: ignore[method-assign,assignment]


def record_event(event: Event) -> None:
    """Add ``event`` to the running sample's transcript (what inspect does for its own model calls)."""
    transcript()._event(event)


__all__ = [
    "PrerequisiteError",
    "RetryDecision",
    "cache_key_config",
    "cancel_task",
    "cleanup_sample_buffers_for_log",
    "get_eval_states",
    "keep_openai_sampling_settings",
    "record_event",
    "registry_find",
    "registry_unqualified_name",
    "resolved_generate_config",
    "sample_active",
    "stale_flush_interval",
    "wrap_retry_loop",
]


OWN_HOOKS_PREFIX = "trustmh/"  # registry names of the hooks trustmh registers (progress, budget, stop)


def _own_hook(hook: object, name: str) -> bool:
    """A hook trustmh registers: named under its package, or (when its module was imported before
    inspect loaded the entry points, which leaves the package out of the name) defined in it."""
    return name.startswith(OWN_HOOKS_PREFIX) or type(hook).__module__.startswith("trustmh.")


def quiet_hooks_banner() -> None:
    """Load inspect's hooks now, leaving out its start-up banner ("inspect_ai v… hooks enabled:
    trustmh/…") when trustmh's own hooks are the only ones: that is how every run works, nothing
    for the user to act on. Another package's hooks or a legacy ``INSPECT_TELEMETRY`` /
    ``INSPECT_API_KEY_OVERRIDE`` hook keep the banner (something outside trustmh sees the run).

    Must run after every trustmh hook is registered (inspect loads the registry once) and before
    the first model is made (that is where inspect would print the banner)."""
    import sys

    import rich

    api = "inspect_ai.hooks._startup.init_hooks"
    try:
        from inspect_ai._util.registry import registry_info
        from inspect_ai.hooks._hooks import get_all_hooks
        from inspect_ai.hooks._startup import init_hooks
    except ImportError as error:
        raise _missing(api, "load the run's hooks without their start-up banner", error) from error
    with rich.get_console().capture() as captured:
        init_hooks()
    banner = captured.get()
    foreign = [h for h in get_all_hooks() if h.enabled() and not _own_hook(h, registry_info(h).name)]
    if banner and (foreign or "- hooks enabled" not in banner or banner.count("\n- ") > 1):
        sys.stdout.write(banner)
