"""The models of a ``trustmh run``: name checks, endpoint defaults, roles, key redaction and
reachability, before inspect sees them."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from trustmh.core.errors import UserError

OPENAI_SDK_PROVIDERS = ("openai/", "openai-api/")  # providers built on the openai SDK client


def is_embedded(model: str) -> bool:
    return model.startswith("trustmh/") and not model.startswith("trustmh/http")


def model_defaults(models: Sequence[str], model_args: dict[str, Any]) -> dict[str, Any]:
    """Model args trustmh adds unless the user gave them.

    inspect sends ``openai/<name>`` with a name it does not know (e.g. a vLLM or test
    endpoint's model) to OpenAI's Responses API, which OpenAI-compatible servers rarely
    implement; with ``OPENAI_BASE_URL`` pointing elsewhere than OpenAI we use chat
    completions instead (``-M responses_api=true`` restores inspect's choice).

    The openai SDK client also retries 5xx/429 twice on its own, unseen by inspect and on
    top of ``--max-retries``; we turn that off (``max_retries=0`` is a client argument) so
    inspect's retry loop, which logs each retry and honours ``--max-retries`` and
    ``--timeout``, is the only one.

    ``-M config=FILE`` of ``trustmh/http`` reaches the provider as ``http_config``.
    """
    import os

    args = dict(model_args)
    if any(model.startswith("trustmh/http") for model in models) and "config" in args:
        args["http_config"] = args.pop("config")  # `config` is taken by inspect's get_model
    if any(model.startswith(OPENAI_SDK_PROVIDERS) for model in models) and "max_retries" not in args:
        args["max_retries"] = 0
    base_url = os.environ.get("OPENAI_BASE_URL", "")
    if (
        any(model.startswith("openai/") for model in models)
        and base_url
        and "api.openai.com" not in base_url
        and "responses_api" not in args
    ):
        args["responses_api"] = False
    return args


def _is_model_provider(name: str) -> bool:
    from trustmh.core.inspect_compat import registry_find, registry_unqualified_name

    return bool(registry_find(lambda info: info.type == "modelapi" and registry_unqualified_name(info) == name))


def judge_list(judge: str | Sequence[str] | None) -> list[str]:
    """``--judge`` given once (a string) or several times (a panel) as a list."""
    return [judge] if isinstance(judge, str) else list(judge or [])


def validate_models(models: Sequence[str], judge: str | Sequence[str] | None, user_model: str | None = None) -> None:
    """Refuse a malformed model name or an unknown provider before anything is written."""
    import inspect_ai.model  # noqa: F401  (registers inspect's providers)

    import trustmh._registry  # noqa: F401  (and ours)

    others = [("judge", j) for j in judge_list(judge)] + ([("user_model", user_model)] if user_model else [])
    for argument, model in [*(("models", m) for m in models), *others]:
        provider, sep, name = model.partition("/")
        if not sep or not provider or not name:
            raise UserError(
                f"{model!r}: expected PROVIDER/MODEL, e.g. openai/gpt-4o-mini or trustmh/smollm2", argument=argument
            )
        if not _is_model_provider(provider):
            raise UserError(
                f"{model!r}: unknown model provider {provider!r} (inspect providers, e.g. openai, anthropic, vllm, trustmh)",
                argument=argument,
            )


def model_roles(batch: dict[str, Any] | None = None, **roles: str | None) -> dict[str, Any] | None:
    """inspect model roles (``judge``, ``user`` = the simulated user of conversation tasks),
    each with the same endpoint defaults as the models under test (the user's ``-M`` args are for
    the models under test and never reach these roles) and its ``batch`` setting, if any."""
    bound: dict[str, Any] = {}
    for role, model in roles.items():
        if not model:
            continue
        args = model_defaults([model], {})
        batched = (batch or {}).get(role)
        if not args and batched is None:
            bound[role] = model
            continue
        from inspect_ai.model import GenerateConfig, get_model

        config = GenerateConfig(batch=batched) if batched is not None else None
        bound[role] = fresh_role_model(get_model, model, role=role, config=config, **args)
    return bound or None


def fresh_role_model(build: Any, name: str, role: str, **kwargs: Any) -> Any:
    """``build(name, role=role, ...)`` (inspect's ``get_model`` or a wrapper) outside the roles a
    previous run left bound in this context: given a role that is bound, inspect's ``get_model``
    returns the bound model instead of ``name``, so a second run in the same process would be
    judged by the first run's judge."""
    import contextvars

    return contextvars.Context().run(lambda: build(name, role=role, **kwargs))


def with_redacting_models(options: dict[str, Any]) -> dict[str, Any]:
    """``options`` with every model (and the judge) built now and wrapped so that an error
    echoing a key is redacted before inspect records it (``models/redacting.py``), and each
    call of an API model ends within its ``timeout`` with a one-line reason
    (``models/call_deadline.py``)."""
    from trustmh.models.redacting import get_redacting_model, install_log_redaction, redacting_model

    install_log_redaction()
    options = dict(options)
    model_args = options.pop("model_args", None) or {}
    options["model"] = [_bounded(sent_as_logged(get_redacting_model(name, **model_args))) for name in options["model"]]
    roles = options.get("model_roles") or {}
    options["model_roles"] = {
        role: _bounded(
            sent_as_logged(
                redacting_model(model)
                if not isinstance(model, str)
                else fresh_role_model(get_redacting_model, model, role=role)
            )
        )
        for role, model in roles.items()
    } or None
    return options


def _bounded(model: Any) -> Any:
    from trustmh.models.call_deadline import bounded_calls

    return model if is_embedded(str(model)) else bounded_calls(model)


def attempt_timeout_on_api_models(options: dict[str, Any]) -> dict[str, Any]:
    """``options`` with the eval-wide attempt timeout moved onto each API model under test.

    inspect applies an attempt timeout around the provider's whole ``generate``. An embedded
    model's call spends most of that time waiting its turn in the model's queue
    (:mod:`trustmh.models.scheduling`) while the other calls are answered, so on a busy machine
    or beside another model the wait alone crossed the timeout: the call was cancelled (an answer
    being computed was thrown away) and retried, again and again (issue 30). The embedded model
    therefore gets no attempt timeout; its own work is bounded by ``max_tokens``. API models keep
    theirs (a hung connection is abandoned and retried). Needs built models
    (:func:`with_redacting_models`)."""
    timeout = options.get("attempt_timeout")
    if timeout is None:
        return options
    from inspect_ai.model import GenerateConfig

    for model in options["model"]:
        if not is_embedded(str(model)):
            model.config = model.config.merge(GenerateConfig(attempt_timeout=timeout))
    return options | {"attempt_timeout": None}


def sent_as_logged(model: Any) -> Any:
    """The settings a model is sent are the ones the log records.

    inspect treats an ``openai/<name>`` it does not recognise as OpenAI's newest reasoning model
    and silently drops ``temperature`` (the log still says 0.0). On an OpenAI-compatible server
    (vLLM, llama.cpp, ...) such a name is that server's model, not an OpenAI codename: the
    temperature is sent. Names inspect recognises (gpt-5, o-series) keep its rules.
    """
    import os

    base_url = os.environ.get("OPENAI_BASE_URL", "") or str(getattr(model.api, "base_url", "") or "")
    if str(model).startswith("openai/") and base_url and "api.openai.com" not in base_url:
        from trustmh.core.inspect_compat import keep_openai_sampling_settings

        keep_openai_sampling_settings(model.api)
    return model


def check_endpoints(options: dict[str, Any]) -> None:
    """Stop within seconds, naming the endpoint, if a model's or the judge's server cannot be reached."""
    from trustmh.core.endpoints import check_reachable, model_endpoint

    roles = options.get("model_roles") or {}
    flags = {"judge": "--judge", "user": "--user-model"} | {f"judge_{i}": "--judge" for i in range(2, 100)}
    for option, model in [
        *(("--model", m) for m in options["model"]),
        *((flags.get(role, role), m) for role, m in roles.items()),
    ]:
        chatbot = getattr(model.api, "chatbot", None)  # trustmh/http: its config's URLs
        if chatbot is not None:
            for url in chatbot.endpoints():
                check_reachable(url, f"{option} {model}", chatbot.config.connect_timeout, chatbot.config.secret_values)
            continue
        url = model_endpoint(str(model), getattr(model.api, "base_url", None))
        if url:
            check_reachable(url, f"{option} {model}")


def check_http_configs(models: Sequence[str], model_args: dict[str, Any]) -> None:
    """Build each ``trustmh/http`` model (reading and checking its config file, sending nothing):
    a dry run names a broken config in one line, as the run would, instead of pricing it."""
    from inspect_ai.model import get_model

    import trustmh._registry  # noqa: F401  (registers the trustmh provider)

    args = model_defaults(models, model_args)
    for model in models:
        if model.startswith("trustmh/http"):
            get_model(model, **args)
